/**
 * /api-keys (Settings → API keys; SPEC §7 API keys has no screen, so this one is ours): the user's
 * keys (name, prefix, created, last used), create with a name, regenerate and delete after a
 * confirmation. A new or regenerated key is shown once, in the copy-once dialog.
 */
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import Autorenew from '@mui/icons-material/Autorenew';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { API_KEY_LIMITS, apiKeyMessages, type ApiEnvelope, type ApiKeyView, type CreatedApiKey } from '@agentdesk/functions/contract';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { RetryAlert } from '../../shared/RetryAlert';
import { usePageTitle } from '../../shared/usePageTitle';
import { useToast } from '../../shared/useToast';
import './i18n';
import { apiKeyQueryKeys, apiKeysApi } from './api';
import { ApiKeyRevealDialog, type RevealedKey } from './ApiKeyRevealDialog';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';
import { formatDate } from '../../shared/intl';
import { maskedKey } from './format';
import { apiKeyErrorText, translateApiKeyText } from './messages';
import { PageHeader } from '../../shared/PageHeader';

interface Pending {
  action: 'regenerate' | 'delete';
  key: ApiKeyView;
}

function KeysTable({ rows, onAsk }: { rows: ApiKeyView[]; onAsk: (p: Pending) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={t('apiKeys.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('apiKeys.columns.name')}</TableCell>
            <TableCell>{t('apiKeys.columns.key')}</TableCell>
            <TableCell>{t('apiKeys.columns.created')}</TableCell>
            <TableCell>{t('apiKeys.columns.lastUsed')}</TableCell>
            <TableCell align="right">{t('apiKeys.columns.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row._id} data-testid={`api-key-${row._id}`}>
              <TableCell sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{row.name}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{maskedKey(row.prefix)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(i18n.language, row.createdAt) ?? '—'}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(i18n.language, row.lastUsedAt) ?? t('apiKeys.never')}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <Tooltip title={t('apiKeys.regenerate')}>
                  <IconButton aria-label={t('apiKeys.regenerateLabel', { name: row.name })} onClick={() => onAsk({ action: 'regenerate', key: row })}>
                    <Autorenew />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('apiKeys.delete')}>
                  <IconButton color="error" aria-label={t('apiKeys.deleteLabel', { name: row.name })} onClick={() => onAsk({ action: 'delete', key: row })}>
                    <DeleteOutline />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export default function ApiKeysPage() {
  const { t } = useTranslation();
  usePageTitle(t('apiKeys.title'));
  const toast = useToast();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [revealed, setRevealed] = useState<RevealedKey | null>(null);
  const list = useQuery({ queryKey: apiKeyQueryKeys.all, queryFn: ({ signal }) => apiKeysApi.list(signal) });
  const act = useMutation({
    mutationFn: ({ action, id }: { action: Pending['action']; id: string }): Promise<ApiEnvelope<CreatedApiKey | undefined>> =>
      action === 'regenerate' ? apiKeysApi.regenerate(id) : apiKeysApi.remove(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyQueryKeys.all }),
  });

  const confirm = async () => {
    if (!pending) return;
    const { action, key } = pending;
    try {
      const env = await act.mutateAsync({ action, id: key._id });
      setPending(null);
      if (action === 'regenerate') {
        if (env.data?.key) setRevealed({ kind: 'regenerated', name: key.name, key: env.data.key, message: env.message });
        else toast.error(t('apiKeys.regenerateDialog.failed'));
      } else {
        toast.success(translateApiKeyText(env.message || apiKeyMessages.deleted));
      }
    } catch (err) {
      toast.error(apiKeyErrorText(err, t(action === 'regenerate' ? 'apiKeys.regenerateDialog.failed' : 'apiKeys.deleteDialog.failed')));
    }
  };

  const atLimit = (list.data?.length ?? 0) >= API_KEY_LIMITS.perUser;
  const createButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)} disabled={!list.isSuccess || atLimit}>
      {t('apiKeys.create')}
    </Button>
  );

  let body: ReactNode;
  if (list.isPending) {
    body = <Skeleton variant="rounded" height={200} role="status" aria-busy="true" aria-label={t('apiKeys.loading')} />;
  } else if (list.isError) {
    body = (
      <RetryAlert retryLabel={t('apiKeys.retry')} onRetry={() => void list.refetch()}>
        {apiKeyErrorText(list.error, t('apiKeys.loadFailed'))}
      </RetryAlert>
    );
  } else if (list.data.length === 0) {
    body = (
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
        <VpnKeyOutlined color="disabled" sx={{ fontSize: 40, mb: 1 }} />
        <Typography sx={{ fontWeight: 600 }}>{t('apiKeys.empty')}</Typography>
        <Typography color="text.secondary">{t('apiKeys.emptyHint')}</Typography>
      </Paper>
    );
  } else {
    body = <KeysTable rows={list.data} onAsk={setPending} />;
  }

  const dialog = pending?.action === 'regenerate' ? 'regenerateDialog' : 'deleteDialog';
  return (
    <Box>
      <PageHeader title={t('apiKeys.title')} subtitle={t('apiKeys.subtitle')} align="flex-end">
        <Box>{createButton}</Box>
      </PageHeader>
      {list.isSuccess && list.data.length > 0 && (
        <Typography variant="body2" color={atLimit ? 'warning.main' : 'text.secondary'} sx={{ mb: 1 }}>
          {atLimit ? translateApiKeyText(apiKeyMessages.tooMany) : t('apiKeys.count', { count: list.data.length })}
        </Typography>
      )}
      {body}
      <CreateApiKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(created, message) => {
          setCreating(false);
          setRevealed({ kind: 'created', name: created.apiKey.name, key: created.key, message });
        }}
      />
      <ConfirmDialog
        open={pending !== null}
        title={t(`apiKeys.${dialog}.title`)}
        body={t(`apiKeys.${dialog}.body`)}
        subject={pending?.key.name}
        confirmLabel={t(`apiKeys.${dialog}.confirm`)}
        pendingLabel={t(`apiKeys.${dialog}.pending`)}
        pending={act.isPending}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      />
      <ApiKeyRevealDialog revealed={revealed} onClose={() => setRevealed(null)} />
    </Box>
  );
}
