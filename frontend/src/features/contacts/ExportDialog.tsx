/**
 * Export as a background job (issue 19): the separator (';' by default in the Spanish UI, as
 * Spanish Excel expects; ',' otherwise), then the job's progress and a download link when ready.
 * The file is UTF-8 with a BOM, so Excel shows accents; its headers, origins and dated name are in
 * the account's language (issue 29: contactos-2026-11-28.csv). Exports what the list shows: its search,
 * source, tag and custom-field filters, with the list's count when it is exact.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { useTranslation } from 'react-i18next';
import type { ContactFilters } from './filters';
import { contactsApi } from '../../api/contacts';
import { contactErrorMessage, translateContactMessage } from './i18n';
import { useExportJob } from './queries';

type Delimiter = ',' | ';';

type ExportFilters = Pick<ContactFilters, 'search' | 'source' | 'tag' | 'field' | 'value'>;

export function ExportDialog({
  open,
  onClose,
  filters,
  matching,
}: {
  open: boolean;
  onClose: () => void;
  filters: ExportFilters;
  /** How many contacts the list counts for these filters (undefined when unknown or only partly counted). */
  matching?: number;
}) {
  const { search, source, tag, field, value } = filters;
  const filtered = Boolean(search || source || tag || field);
  const { t, i18n } = useTranslation();
  const [delimiter, setDelimiter] = useState<Delimiter | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState('');
  const job = useExportJob(jobId);
  const chosen: Delimiter = delimiter ?? (i18n.language.startsWith('es') ? ';' : ',');
  const number = new Intl.NumberFormat(i18n.language);

  const close = () => {
    if (starting) return;
    setJobId(null);
    setError('');
    setDelimiter(null);
    onClose();
  };
  const onStart = async () => {
    setStarting(true);
    setError('');
    try {
      const created = await contactsApi.createExportJob({
        delimiter: chosen,
        search,
        ...(source ? { source } : {}),
        ...(tag ? { tag } : {}),
        ...(field ? { field, ...(value ? { value } : {}) } : {}),
      });
      setJobId(created._id);
    } catch (err) {
      setError(contactErrorMessage(err, t('contacts.exportDialog.failed')));
    } finally {
      setStarting(false);
    }
  };

  const status = job.data?.status;
  const running = Boolean(jobId) && (job.isPending || status === 'queued' || status === 'running');
  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth aria-labelledby="export-dialog-title">
      <DialogTitle id="export-dialog-title">{t('contacts.exportDialog.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {t('contacts.exportDialog.help')}
          </Typography>
          <FormControl disabled={Boolean(jobId) || starting}>
            <FormLabel id="export-delimiter">{t('contacts.exportDialog.delimiter')}</FormLabel>
            <RadioGroup aria-labelledby="export-delimiter" value={chosen} onChange={(e) => setDelimiter(e.target.value as Delimiter)}>
              <FormControlLabel value=";" control={<Radio />} label={t('contacts.exportDialog.semicolon')} />
              <FormControlLabel value="," control={<Radio />} label={t('contacts.exportDialog.comma')} />
            </RadioGroup>
          </FormControl>
          {filtered && (
            <Alert severity="info">
              {matching === undefined
                ? t('contacts.exportDialog.filtered')
                : t('contacts.exportDialog.filteredCount', { count: matching, n: number.format(matching) })}
            </Alert>
          )}
          {running && (
            <>
              <LinearProgress />
              <Typography role="status">{t('contacts.exportDialog.running', { rows: number.format(job.data?.rows ?? 0) })}</Typography>
            </>
          )}
          {status === 'done' && job.data?.downloadUrl && (
            <Alert severity="success" role="status">
              <Stack spacing={1}>
                <span>{t('contacts.exportDialog.ready', { rows: number.format(job.data.rows) })}</span>
                <Button variant="contained" startIcon={<FileDownloadOutlined />} href={job.data.downloadUrl} download={job.data.fileName} sx={{ alignSelf: 'flex-start' }}>
                  {t('contacts.exportDialog.download', { fileName: job.data.fileName })}
                </Button>
              </Stack>
            </Alert>
          )}
          {status === 'failed' && <Alert severity="error">{job.data?.failure ? translateContactMessage(job.data.failure.message) : t('contacts.exportDialog.failed')}</Alert>}
          {job.isError && <Alert severity="error">{contactErrorMessage(job.error, t('contacts.exportDialog.failed'))}</Alert>}
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} disabled={starting}>
          {t('contacts.exportDialog.close')}
        </Button>
        {!jobId && (
          <Button variant="contained" onClick={() => void onStart()} disabled={starting}>
            {t('contacts.exportDialog.start')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
