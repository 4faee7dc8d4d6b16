/**
 * CSV import as a background job (issue 19): 1. choose the file, upload it straight to storage
 * (presigned form POST, with a progress bar); 2. map the columns, with the detected separator and
 * encoding (changeable: the preview reloads) and the first rows; 3. the job's progress (rows done,
 * created, duplicates, errors, polled), then the result with the skipped rows per reason, the error
 * report and a one-click undo. The first step also lists the recent imports, each with its skipped
 * rows per reason, its error report and its undo (issue 29).
 */
import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { useTranslation } from 'react-i18next';
import {
  CONTACT_JOB_MAX_BYTES,
  CONTACT_LIMITS,
  CONTACT_JOB_MAX_ROWS,
  CSV_DELIMITERS,
  CSV_ENCODINGS,
  IMPORT_FIELDS,
  IMPORT_SKIP_REASONS,
  mappingProblem,
  type ContactImportJob,
  type CsvDelimiter,
  type CsvEncoding,
  type ImportColumnMapping,
  type ImportField,
  type ImportPreview,
} from '@agentdesk/functions/contract';
import { contactsApi, uploadWithProgress } from '../../api/contacts';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { formatDate } from '../../shared/intl';
import { useToast } from '../../shared/useToast';
import { contactErrorMessage, translateContactMessage } from './i18n';
import { isImportActive, useImportJob, useImportJobs, useInvalidateContacts, useUndoImport } from './queries';

type StepName = 'upload' | 'mapping' | 'progress';
const STEPS: StepName[] = ['upload', 'mapping', 'progress'];
const DELIMITER_KEY: Record<CsvDelimiter, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab' };
const MB = CONTACT_JOB_MAX_BYTES / (1024 * 1024);

const canUndo = (job: ContactImportJob) => (job.status === 'done' || job.status === 'failed') && job.progress.created > 0;

/** "Undo import" with its confirmation naming how many contacts go. */
function UndoButton({ job, size = 'medium' }: { job: ContactImportJob; size?: 'small' | 'medium' }) {
  const { t } = useTranslation();
  const toast = useToast();
  const undo = useUndoImport();
  const [confirming, setConfirming] = useState(false);
  const onUndo = async () => {
    try {
      await undo.mutateAsync(job._id);
      setConfirming(false);
    } catch (err) {
      toast.error(contactErrorMessage(err, t('contacts.wizard.undoFailed')));
    }
  };
  return (
    <>
      <Button size={size} color="error" variant="outlined" onClick={() => setConfirming(true)} disabled={undo.isPending}>
        {t('contacts.wizard.undo')}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t('contacts.wizard.undoTitle')}
        body={t('contacts.wizard.undoBody', { count: job.progress.created })}
        subject={job.fileName}
        confirmLabel={t('contacts.wizard.undo')}
        pendingLabel={t('contacts.wizard.undoing')}
        pending={undo.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void onUndo()}
      />
    </>
  );
}

/** "3 rows skipped: phone number not valid (1), repeated in the file (2)" (issue 29), or nothing when none was. */
function SkippedRows({ job }: { job: ContactImportJob }) {
  const { t, i18n } = useTranslation();
  const reasons = IMPORT_SKIP_REASONS.flatMap((reason) => {
    const n = job.skipped?.[reason] ?? 0;
    return n > 0 ? [[reason, n] as const] : [];
  });
  if (reasons.length === 0) return null;
  const number = new Intl.NumberFormat(i18n.language);
  const total = reasons.reduce((sum, [, n]) => sum + n, 0);
  const list = new Intl.ListFormat(i18n.language, { type: 'unit' }).format(
    reasons.map(([reason, n]) => t('contacts.wizard.skipReason', { reason: t(`contacts.wizard.skipReasons.${reason}`), n: number.format(n) })),
  );
  return (
    <Typography variant="body2" color="text.secondary" data-testid="import-skipped">
      {t('contacts.wizard.skipped', { count: total })} {list}
    </Typography>
  );
}

/**
 * The error report of a job listed in the history: the list carries no links (each is signed), so
 * the job is read for a fresh one and the browser downloads it.
 */
function ReportButton({ job }: { job: ContactImportJob }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [pending, setPending] = useState(false);
  const onDownload = async () => {
    setPending(true);
    try {
      const fresh = await contactsApi.importJob(job._id);
      if (!fresh.errorReportUrl) throw new Error('no report link');
      const link = document.createElement('a');
      link.href = fresh.errorReportUrl;
      link.download = '';
      link.click();
    } catch (err) {
      toast.error(contactErrorMessage(err, t('contacts.wizard.errorReportFailed')));
    } finally {
      setPending(false);
    }
  };
  return (
    <Button size="small" startIcon={<FileDownloadOutlined />} onClick={() => void onDownload()} disabled={pending} sx={{ alignSelf: 'flex-start' }}>
      {t('contacts.wizard.errorReport')}
    </Button>
  );
}

function statusColor(job: ContactImportJob) {
  if (job.status === 'failed') return 'error' as const;
  if (job.status === 'done') return 'success' as const;
  return 'default' as const;
}

function RecentImports() {
  const { t, i18n } = useTranslation();
  const jobs = useImportJobs();
  if (jobs.isPending) return <LinearProgress aria-label={t('contacts.wizard.recent')} />;
  if (jobs.isError) return <Alert severity="warning">{t('contacts.wizard.recentFailed')}</Alert>;
  const list = jobs.data.data;
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {t('contacts.wizard.recent')}
      </Typography>
      {list.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('contacts.wizard.recentEmpty')}
        </Typography>
      ) : (
        <List dense disablePadding aria-label={t('contacts.wizard.recent')}>
          {list.map((job) => (
            <ListItem key={job._id} disableGutters secondaryAction={canUndo(job) ? <UndoButton job={job} size="small" /> : undefined} sx={{ pr: canUndo(job) ? 22 : 0 }}>
              <ListItemText
                primary={
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
                    <Typography noWrap sx={{ minWidth: 0 }}>
                      {job.fileName}
                    </Typography>
                    <Chip size="small" variant="outlined" color={statusColor(job)} label={t(`contacts.wizard.status.${job.status}`)} />
                  </Stack>
                }
                secondary={
                  <Stack spacing={0.5}>
                    <span>{t('contacts.wizard.recentRow', { date: formatDate(i18n.language, job.createdAt) ?? '', count: job.progress.created })}</span>
                    <SkippedRows job={job} />
                    {job.hasErrorReport && <ReportButton job={job} />}
                  </Stack>
                }
                slotProps={{ secondary: { component: 'div' } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}

function MappingStep({
  preview,
  columns,
  onColumns,
  onReload,
  reloading,
}: {
  preview: ImportPreview;
  columns: ImportColumnMapping[];
  onColumns: (columns: ImportColumnMapping[]) => void;
  onReload: (change: { delimiter?: CsvDelimiter; encoding?: CsvEncoding }) => void;
  reloading: boolean;
}) {
  const { t } = useTranslation();
  const setColumn = (i: number, change: ImportColumnMapping) => onColumns(columns.map((c, j) => (j === i ? change : c)));
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <Typography variant="body2" color="text.secondary">
        {t('contacts.wizard.mappingHelp', { file: preview.fileName })}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <TextField select size="small" label={t('contacts.wizard.delimiter')} value={preview.delimiter} onChange={(e) => onReload({ delimiter: e.target.value as CsvDelimiter })} disabled={reloading} sx={{ minWidth: 180 }}>
          {CSV_DELIMITERS.map((d) => (
            <MenuItem key={DELIMITER_KEY[d]} value={d}>
              {t(`contacts.wizard.delimiters.${DELIMITER_KEY[d]}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label={t('contacts.wizard.encoding')} value={preview.encoding} onChange={(e) => onReload({ encoding: e.target.value as CsvEncoding })} disabled={reloading} sx={{ minWidth: 200 }}>
          {CSV_ENCODINGS.map((e) => (
            <MenuItem key={e} value={e}>
              {t(`contacts.wizard.encodings.${e}`)}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="caption" color="text.secondary">
          {t('contacts.wizard.detected')}
        </Typography>
      </Stack>
      {reloading && <LinearProgress />}
      <TableContainer sx={{ maxHeight: 420, border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" stickyHeader aria-label={t('contacts.wizard.previewLabel')}>
          <TableHead>
            <TableRow>
              {preview.header.map((name, i) => {
                const column = columns[i] ?? { field: 'ignore' as const };
                return (
                  <TableCell key={i} sx={{ minWidth: 170, verticalAlign: 'top' }}>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      margin="dense"
                      label={name}
                      value={column.field}
                      onChange={(e) => {
                        const field = e.target.value as ImportField;
                        setColumn(i, field === 'custom' ? { field, name: column.name || name } : { field });
                      }}
                    >
                      {IMPORT_FIELDS.map((f) => (
                        <MenuItem key={f} value={f}>
                          {t(`contacts.wizard.fields.${f}`)}
                        </MenuItem>
                      ))}
                    </TextField>
                    {column.field === 'custom' && (
                      <TextField
                        size="small"
                        fullWidth
                        value={column.name ?? ''}
                        onChange={(e) => setColumn(i, { field: 'custom', name: e.target.value })}
                        slotProps={{ htmlInput: { 'aria-label': t('contacts.wizard.customName', { name }), maxLength: CONTACT_LIMITS.customFieldName } }}
                      />
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          </TableHead>
          <TableBody>
            {preview.rows.map((row, r) => (
              <TableRow key={r}>
                {preview.header.map((_, i) => (
                  <TableCell key={i} sx={{ maxWidth: 220, overflowWrap: 'anywhere', color: columns[i]?.field === 'ignore' ? 'text.secondary' : undefined }}>
                    {row[i] ?? ''}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Stack>
  );
}

function ProgressStep({ jobId }: { jobId: string }) {
  const { t, i18n } = useTranslation();
  const job = useImportJob(jobId);
  const invalidate = useInvalidateContacts();
  const status = job.data?.status;
  // The list, the stats and the facets reload when the job (or its undo) settles.
  const settled = status !== undefined && !isImportActive(job.data);
  const undone = job.data?.undone;
  useEffect(() => {
    if (settled) void invalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per settled state
  }, [settled, status, undone]);

  if (job.isPending) return <LinearProgress aria-label={t('contacts.wizard.progressLabel')} />;
  if (job.isError) return <Alert severity="error">{contactErrorMessage(job.error, t('contacts.wizard.startFailed'))}</Alert>;
  const { progress } = job.data;
  const number = new Intl.NumberFormat(i18n.language);
  const percent = progress.rowsTotal ? Math.min(100, Math.round((progress.rowsDone / progress.rowsTotal) * 100)) : undefined;
  const active = isImportActive(job.data);
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <Typography variant="h6" component="p" role="status">
        {t(`contacts.wizard.status.${job.data.status}`)}
      </Typography>
      {active && (
        <LinearProgress
          variant={percent === undefined || job.data.status === 'undoing' ? 'indeterminate' : 'determinate'}
          value={percent}
          aria-label={t('contacts.wizard.progressLabel')}
        />
      )}
      <Typography>
        {progress.rowsTotal !== undefined
          ? t('contacts.wizard.progress', { done: number.format(progress.rowsDone), count: progress.rowsTotal })
          : t('contacts.wizard.progressUnknown', { done: number.format(progress.rowsDone) })}
      </Typography>
      <Typography color="text.secondary" data-testid="import-counts">
        {t('contacts.wizard.counts', { created: number.format(progress.created), duplicates: number.format(progress.duplicates), errors: number.format(progress.errors) })}
      </Typography>
      <SkippedRows job={job.data} />
      {job.data.failure && (
        <Alert severity="error">{t(`contacts.wizard.failures.${job.data.failure.code}`, { defaultValue: translateContactMessage(job.data.failure.message) })}</Alert>
      )}
      {(job.data.status === 'undoing' || job.data.status === 'undone') && job.data.undone !== undefined && (
        <Alert severity={job.data.status === 'undone' ? 'success' : 'info'}>{t('contacts.wizard.undone', { count: job.data.undone })}</Alert>
      )}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        {job.data.errorReportUrl && (
          <Link href={job.data.errorReportUrl} download>
            {t('contacts.wizard.errorReport')}
          </Link>
        )}
        {canUndo(job.data) && <UndoButton job={job.data} />}
      </Stack>
    </Stack>
  );
}

export function ImportWizard({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const fileInput = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<StepName>('upload');
  const [file, setFile] = useState<File | null>(null);
  const [uploadFraction, setUploadFraction] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [columns, setColumns] = useState<ImportColumnMapping[]>([]);
  const [reloading, setReloading] = useState(false);
  const [starting, setStarting] = useState(false);
  const [jobId, setJobId] = useState<string | null>(null);
  const uploading = uploadFraction !== null;
  const busy = uploading || reloading || starting;

  const reset = () => {
    setStep('upload');
    setFile(null);
    setUploadFraction(null);
    setError('');
    setPreview(null);
    setColumns([]);
    setJobId(null);
    if (fileInput.current) fileInput.current.value = '';
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const onFile = (chosen: File | undefined) => {
    setError('');
    if (!chosen) return;
    if (chosen.size > CONTACT_JOB_MAX_BYTES) {
      setError(t('contacts.wizard.fileTooLarge', { mb: MB }));
      return;
    }
    setFile(chosen);
  };

  const onUpload = async () => {
    if (!file) return;
    setError('');
    setUploadFraction(0);
    try {
      const ticket = await contactsApi.importUpload(file.name, file.size);
      try {
        await uploadWithProgress(ticket, file, setUploadFraction);
      } catch {
        setError(t('contacts.wizard.uploadFailed'));
        return;
      }
      const next = await contactsApi.importJobPreview({ uploadId: ticket.uploadId });
      setPreview(next);
      setColumns(next.suggestedColumns);
      setStep('mapping');
    } catch (err) {
      setError(contactErrorMessage(err, t('contacts.wizard.previewFailed')));
    } finally {
      setUploadFraction(null);
    }
  };

  const onReload = async (change: { delimiter?: CsvDelimiter; encoding?: CsvEncoding }) => {
    if (!preview) return;
    setReloading(true);
    setError('');
    try {
      const next = await contactsApi.importJobPreview({ uploadId: preview.uploadId, delimiter: change.delimiter ?? preview.delimiter, encoding: change.encoding ?? preview.encoding });
      setPreview(next);
      // Another separator can change the columns: start again from the suggestion.
      if (next.header.length !== preview.header.length || change.delimiter) setColumns(next.suggestedColumns);
    } catch (err) {
      setError(contactErrorMessage(err, t('contacts.wizard.previewFailed')));
    } finally {
      setReloading(false);
    }
  };

  const problem = preview ? mappingProblem(columns) : undefined;
  const onStart = async () => {
    if (!preview || problem) return;
    setStarting(true);
    setError('');
    try {
      const job = await contactsApi.createImportJob({ uploadId: preview.uploadId, columns, delimiter: preview.delimiter, encoding: preview.encoding });
      setJobId(job._id);
      setStep('progress');
    } catch (err) {
      setError(contactErrorMessage(err, t('contacts.wizard.startFailed')));
    } finally {
      setStarting(false);
    }
  };

  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent' }).format(uploadFraction ?? 0);
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth={step === 'mapping' ? 'lg' : 'sm'} fullScreen={fullScreen} aria-labelledby="import-wizard-title">
      <DialogTitle id="import-wizard-title">{t('contacts.wizard.title')}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={STEPS.indexOf(step)} sx={{ mb: 2 }} alternativeLabel>
          {STEPS.map((s) => (
            <Step key={s}>
              <StepLabel>{t(`contacts.wizard.steps.${s}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {step === 'upload' && (
          <Stack spacing={2}>
            <Typography variant="body2" color="text.secondary">
              {t('contacts.wizard.help', { rows: new Intl.NumberFormat(i18n.language).format(CONTACT_JOB_MAX_ROWS), mb: MB })}
            </Typography>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <input ref={fileInput} type="file" accept=".csv,.txt,text/csv" hidden data-testid="import-file" onChange={(e) => onFile(e.target.files?.[0])} />
              <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => fileInput.current?.click()} disabled={busy}>
                {t('contacts.wizard.chooseFile')}
              </Button>
              {file && (
                <Typography variant="body2" color="text.secondary">
                  {t('contacts.wizard.fileChosen', { name: file.name, size: new Intl.NumberFormat(i18n.language).format(Math.max(1, Math.round(file.size / 1024))) })}
                </Typography>
              )}
            </Stack>
            {uploading && (
              <Box>
                <LinearProgress variant="determinate" value={Math.round((uploadFraction ?? 0) * 100)} aria-label={t('contacts.wizard.uploadLabel')} />
                <Typography variant="caption" color="text.secondary">
                  {t('contacts.wizard.uploading', { percent })}
                </Typography>
              </Box>
            )}
            {error && <Alert severity="error">{error}</Alert>}
            <RecentImports />
          </Stack>
        )}
        {step === 'mapping' && preview && (
          <>
            <MappingStep preview={preview} columns={columns} onColumns={setColumns} onReload={(c) => void onReload(c)} reloading={reloading} />
            {problem && (
              <Alert severity="warning" sx={{ mt: 2 }}>
                {translateContactMessage(problem)}
              </Alert>
            )}
            {error && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {error}
              </Alert>
            )}
          </>
        )}
        {step === 'progress' && jobId && <ProgressStep jobId={jobId} />}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {step === 'upload' && (
          <>
            <Button onClick={close} disabled={busy}>
              {t('contacts.wizard.cancel')}
            </Button>
            <Button variant="contained" onClick={() => void onUpload()} disabled={busy || !file}>
              {t('contacts.wizard.upload')}
            </Button>
          </>
        )}
        {step === 'mapping' && (
          <>
            <Button onClick={reset} disabled={busy}>
              {t('contacts.wizard.back')}
            </Button>
            <Box sx={{ flex: 1 }} />
            <Button onClick={close} disabled={busy}>
              {t('contacts.wizard.cancel')}
            </Button>
            <Button variant="contained" onClick={() => void onStart()} disabled={busy || Boolean(problem)}>
              {starting ? t('contacts.wizard.starting') : t('contacts.wizard.start')}
            </Button>
          </>
        )}
        {step === 'progress' && <Button onClick={close}>{t('contacts.wizard.close')}</Button>}
      </DialogActions>
    </Dialog>
  );
}
