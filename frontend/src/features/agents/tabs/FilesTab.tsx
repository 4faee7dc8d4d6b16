/**
 * Files tab (SPEC §2 Agent detail, §5 Files, §8): the agent's document library — name, size,
 * upload date, "Can be sent to customers" once read (issue 31: the agent's send_file tool),
 * status (Processing... → Completed / Failed with the reason, and Reprocess beside
 * it), download and delete with confirmation — and uploads by button or drag and drop with a
 * progress bar per file.
 * While a document is being read the list refreshes every 2 s.
 */
import { useRef, useState, type DragEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import { useTranslation } from 'react-i18next';
import { AGENT_FILE_ACCEPT, type Agent, type AgentFile } from '@agentdesk/functions/contract';
import { agentKnowledgeApi } from '../../../api/agentKnowledge';
import { useToast } from '../../../shared/useToast';
import { TabHeader } from './TabLayout';
import { KnowledgeList, KnowledgeRow } from './KnowledgeList';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { useConfirmedDelete } from './useConfirmedDelete';
import { formatPercent } from '../../../shared/intl';
import { formatBytes, formatDateTime } from './format';
import { tabErrorMessage, tabMessage } from './messages';
import { useAgentFiles, useDeleteFile, useReprocessFile, useSetFileShareable } from './queries';
import { useFileUploads, type UploadRow } from './useFileUploads';

function FileIcon({ file }: { file: AgentFile }) {
  const pdf = file.mimeType === 'application/pdf' || /\.pdf$/i.test(file.originalName);
  return pdf ? (
    <PictureAsPdfOutlined color="error" aria-hidden />
  ) : (
    <DescriptionOutlined color="primary" aria-hidden />
  );
}

function UploadProgress({ row }: { row: UploadRow }) {
  const { t, i18n } = useTranslation();
  const percent = row.size > 0 ? Math.min(100, Math.round((row.loaded / row.size) * 100)) : 100;
  const label =
    row.phase === 'preparing'
      ? t('agentTabs.files.preparing')
      : row.phase === 'finishing'
        ? t('agentTabs.files.finishing')
        : t('agentTabs.files.percent', { percent: formatPercent(i18n.language, percent / 100) });
  return (
    <Box sx={{ py: 1 }}>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', mb: 0.5 }}>
        <Typography variant="body2" noWrap sx={{ minWidth: 0 }}>
          {row.name}
        </Typography>
        <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
          {label}
        </Typography>
      </Stack>
      <LinearProgress
        variant={row.phase === 'uploading' ? 'determinate' : 'indeterminate'}
        value={percent}
        aria-label={t('agentTabs.files.uploadingAria', { name: row.name })}
      />
    </Box>
  );
}

export default function FilesTab({ agent }: { agent: Agent }) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const { files, isPlaceholderData, isFetching } = useAgentFiles(agent);
  const remove = useDeleteFile(agent._id);
  const reprocess = useReprocessFile(agent._id);
  const share = useSetFileShareable(agent._id);
  const { rows, upload } = useFileUploads(agent._id);
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const toDelete = useConfirmedDelete(remove, (file: AgentFile) => file.id, {
    deleted: t('agentTabs.files.deleted'),
    failed: t('agentTabs.files.deleteFailed'),
  });

  // Files whose bytes are still on their way show as progress rows instead.
  const inFlight = new Set(rows.map((r) => r.fileId).filter(Boolean));
  const listed = files.filter((f) => !inFlight.has(f.id)).sort((a, b) => b.uploadedAt.localeCompare(a.uploadedAt));

  const choose = (list: FileList | null) => {
    if (list && list.length > 0) void upload(Array.from(list));
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files);
  };

  const onReprocess = (file: AgentFile) => {
    reprocess.mutate(file.id, {
      onSuccess: (res) => toast.success(res.message ? tabMessage(res.message) : t('agentTabs.files.reprocessing')),
      onError: (err) => toast.error(tabErrorMessage(err, t('agentTabs.files.reprocessFailed'))),
    });
  };

  const onShare = (file: AgentFile, shareable: boolean) => {
    share.mutate(
      { fileId: file.id, shareable },
      {
        onSuccess: (res) => toast.success(res.message ? tabMessage(res.message) : t(shareable ? 'agentTabs.files.shareableOn' : 'agentTabs.files.shareableOff')),
        onError: (err) => toast.error(tabErrorMessage(err, t('agentTabs.files.shareableFailed'))),
      },
    );
  };

  const download = async (file: AgentFile) => {
    // Opened now, while the click still counts as the user's (pop-up blockers); filled in below.
    const win = window.open('', '_blank');
    try {
      const { url } = await agentKnowledgeApi.fileLink(file.id);
      if (win) {
        win.opener = null;
        win.location.href = url;
      } else {
        window.location.assign(url);
      }
    } catch (err) {
      win?.close();
      toast.error(tabErrorMessage(err, t('agentTabs.files.downloadFailed')));
    }
  };

  return (
    <Stack spacing={3}>
      <TabHeader
        title={t('agentTabs.files.title')}
        intro={t('agentTabs.files.intro')}
        actions={
          <Button variant="contained" startIcon={<CloudUploadOutlined />} onClick={() => inputRef.current?.click()} sx={{ flexShrink: 0 }}>
            {t('agentTabs.files.upload')}
          </Button>
        }
      />

      <input
        ref={inputRef}
        type="file"
        multiple
        accept={AGENT_FILE_ACCEPT}
        hidden
        data-testid="agent-file-input"
        aria-label={t('agentTabs.files.upload')}
        onChange={(event) => {
          choose(event.target.files);
          event.target.value = '';
        }}
      />

      <Paper
        variant="outlined"
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        sx={{
          p: 3,
          textAlign: 'center',
          borderStyle: 'dashed',
          borderWidth: 2,
          borderColor: dragging ? 'primary.main' : 'divider',
          bgcolor: dragging ? 'action.hover' : 'background.default',
          transition: 'background-color 120ms, border-color 120ms',
        }}
      >
        <CloudUploadOutlined sx={{ fontSize: 40, color: dragging ? 'primary.main' : 'text.disabled' }} aria-hidden />
        <Typography>
          {t('agentTabs.files.dropHere')}{' '}
          <Button size="small" onClick={() => inputRef.current?.click()} sx={{ verticalAlign: 'baseline', minWidth: 0, p: 0, textTransform: 'none', fontSize: 'inherit' }}>
            {t('agentTabs.files.browse')}
          </Button>
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {t('agentTabs.files.hint')}
        </Typography>
      </Paper>

      {rows.length > 0 && (
        <Paper variant="outlined" sx={{ px: 2, py: 1 }} aria-live="polite">
          {rows.map((row) => (
            <UploadProgress key={row.key} row={row} />
          ))}
        </Paper>
      )}

      <KnowledgeList section="files" items={listed} loading={isPlaceholderData && isFetching} busy={rows.length > 0} emptyIcon={DescriptionOutlined}>
        {(file, divider) => (
          <KnowledgeRow
            key={file.id}
            section="files"
            testId="agent-file"
            divider={divider}
            icon={<FileIcon file={file} />}
            status={file.status}
            error={file.error}
            action={{
              title: t('agentTabs.files.download'),
              label: t('agentTabs.files.downloadAria', { name: file.originalName }),
              icon: <FileDownloadOutlined />,
              onClick: () => void download(file),
              disabled: file.status === 'uploading',
            }}
            reprocess={{
              label: t('agentTabs.files.reprocessAria', { name: file.originalName }),
              onClick: () => onReprocess(file),
              busy: reprocess.isPending && reprocess.variables === file.id,
            }}
            deleteLabel={t('agentTabs.files.deleteAria', { name: file.originalName })}
            onDelete={() => toDelete.ask(file)}
          >
            <Typography sx={{ fontWeight: 500, wordBreak: 'break-word' }}>{file.originalName}</Typography>
            <Typography variant="body2" color="text.secondary">
              {formatBytes(file.size, i18n.language)} · {t('agentTabs.files.uploadedAt', { date: formatDateTime(file.uploadedAt, i18n.language) })}
            </Typography>
            {/* Issue 31: the agent's send_file tool sends only the files marked here, once read. */}
            {file.status === 'completed' && (
              <FormControlLabel
                sx={{ mt: 0.5, ml: -0.5 }}
                control={
                  <Switch
                    size="small"
                    checked={file.shareable ?? false}
                    disabled={share.isPending && share.variables?.fileId === file.id}
                    onChange={(_, checked) => onShare(file, checked)}
                    slotProps={{ input: { 'aria-label': t('agentTabs.files.shareableAria', { name: file.originalName }) } }}
                  />
                }
                label={<Typography variant="body2">{t('agentTabs.files.shareable')}</Typography>}
              />
            )}
            {file.status === 'uploading' && (
              <Typography variant="caption" color="text.secondary">
                {t('agentTabs.files.incomplete')}
              </Typography>
            )}
          </KnowledgeRow>
        )}
      </KnowledgeList>

      <ConfirmDeleteDialog
        flow={toDelete}
        title={t('agentTabs.files.deleteTitle')}
        body={t('agentTabs.files.deleteConfirm')}
        subject={toDelete.item?.originalName}
      />
    </Stack>
  );
}
