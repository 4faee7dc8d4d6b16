/**
 * CSV import: choose a file (or paste the text), preview every row with its status and errors
 * (duplicates are reported, never overwritten), then import the new rows.
 */
import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
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
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { CONTACT_IMPORT_MAX_BYTES } from '@agentdesk/functions/contract';
import { useToast } from '../../shared/useToast';
import { contactErrorMessage, translateContactMessage } from './i18n';
import { formatPhone } from '../../shared/phone';
import { useImportContacts, useImportPreview } from './queries';
import type { ImportPreview, ImportRow } from './types';

/** Rows rendered in the preview table; the summary counts all of them. */
const PREVIEW_ROWS_SHOWN = 200;

const STATUS_COLOR = { new: 'success', duplicate: 'warning', error: 'error' } as const;

function PreviewTable({ rows, onNavigate }: { rows: ImportRow[]; onNavigate: () => void }) {
  const { t } = useTranslation();
  return (
    <TableContainer sx={{ maxHeight: { xs: 'none', sm: 360 }, border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Table size="small" stickyHeader aria-label={t('contacts.import.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('contacts.import.columns.line')}</TableCell>
            <TableCell>{t('contacts.import.columns.name')}</TableCell>
            <TableCell>{t('contacts.import.columns.phone')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('contacts.import.columns.email')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('contacts.import.columns.tags')}</TableCell>
            <TableCell>{t('contacts.import.columns.status')}</TableCell>
            <TableCell>{t('contacts.import.columns.issues')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.slice(0, PREVIEW_ROWS_SHOWN).map((row) => (
            <TableRow key={row.line} sx={row.status === 'error' ? { bgcolor: 'rgba(220, 38, 38, 0.04)' } : undefined}>
              <TableCell>{row.line}</TableCell>
              <TableCell sx={{ maxWidth: 160, overflowWrap: 'anywhere' }}>{row.name}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatPhone(row.phoneNumber)}</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, maxWidth: 200, overflowWrap: 'anywhere' }}>{row.email}</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{row.tags.join(', ')}</TableCell>
              <TableCell>
                <Chip size="small" variant="outlined" color={STATUS_COLOR[row.status]} label={t(`contacts.import.status.${row.status}`)} />
              </TableCell>
              <TableCell sx={{ minWidth: 160 }}>
                {row.errors.map((e) => (
                  <Typography key={e} variant="body2" color={row.status === 'error' ? 'error' : 'text.secondary'}>
                    {translateContactMessage(e)}
                  </Typography>
                ))}
                {row.existingContactId && (
                  <Link component={RouterLink} to={`/contacts/${row.existingContactId}`} variant="body2" onClick={onNavigate}>
                    {t('contacts.import.viewExisting')}
                  </Link>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const fileInput = useRef<HTMLInputElement>(null);
  const [csv, setCsv] = useState('');
  const [fileLabel, setFileLabel] = useState('');
  const [inputError, setInputError] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const check = useImportPreview();
  const runImport = useImportContacts();
  const busy = check.isPending || runImport.isPending;

  const reset = () => {
    setCsv('');
    setFileLabel('');
    setInputError('');
    setPreview(null);
    check.reset();
    runImport.reset();
    if (fileInput.current) fileInput.current.value = '';
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setInputError('');
    if (file.size > CONTACT_IMPORT_MAX_BYTES) {
      setInputError(t('contacts.import.fileTooLarge'));
      return;
    }
    try {
      setCsv(await file.text());
      setFileLabel(t('contacts.import.fileChosen', { name: file.name, size: Math.max(1, Math.round(file.size / 1024)) }));
    } catch {
      setInputError(t('contacts.import.readFailed'));
    }
  };

  const onPreview = async () => {
    setInputError('');
    try {
      setPreview(await check.mutateAsync(csv));
    } catch (err) {
      setInputError(contactErrorMessage(err, t('contacts.import.previewFailed')));
    }
  };

  const onImport = async () => {
    try {
      const result = await runImport.mutateAsync(csv);
      toast.success(t('contacts.import.done', { created: result.created, duplicates: result.duplicates, errors: result.errors }));
      reset();
      onClose();
    } catch (err) {
      toast.error(contactErrorMessage(err, t('contacts.import.failed')));
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth={preview ? 'lg' : 'sm'} fullScreen={fullScreen}>
      <DialogTitle>{t('contacts.import.title')}</DialogTitle>
      <DialogContent>
        {!preview ? (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2" color="text.secondary">
              {t('contacts.import.help')}
            </Typography>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <input ref={fileInput} type="file" accept=".csv,text/csv" hidden onChange={(e) => void onFile(e.target.files?.[0])} />
              <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => fileInput.current?.click()} disabled={busy}>
                {t('contacts.import.chooseFile')}
              </Button>
              {fileLabel && (
                <Typography variant="body2" color="text.secondary">
                  {fileLabel}
                </Typography>
              )}
            </Stack>
            <TextField
              label={t('contacts.import.csvLabel')}
              placeholder={t('contacts.import.csvPlaceholder')}
              multiline
              minRows={6}
              maxRows={14}
              value={csv}
              onChange={(e) => {
                setCsv(e.target.value);
                setFileLabel('');
              }}
              slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 13 } } }}
            />
            {inputError && <Alert severity="error">{inputError}</Alert>}
          </Stack>
        ) : (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}>
              <Typography variant="body2" sx={{ mr: 1, fontWeight: 500 }}>
                {t('contacts.import.summary', { ...preview.summary })}
              </Typography>
              <Chip size="small" color="success" label={`${t('contacts.import.status.new')}: ${preview.summary.new}`} />
              <Chip size="small" color="warning" label={`${t('contacts.import.status.duplicate')}: ${preview.summary.duplicates}`} />
              <Chip size="small" color="error" label={`${t('contacts.import.status.error')}: ${preview.summary.errors}`} />
            </Stack>
            {preview.summary.duplicates > 0 && <Alert severity="info">{t('contacts.import.duplicatesNote')}</Alert>}
            <PreviewTable rows={preview.rows} onNavigate={close} />
            {preview.rows.length > PREVIEW_ROWS_SHOWN && (
              <Typography variant="caption" color="text.secondary">
                {t('contacts.import.moreRows', { shown: PREVIEW_ROWS_SHOWN, total: preview.rows.length })}
              </Typography>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {preview ? (
          <>
            <Button onClick={() => setPreview(null)} disabled={busy}>
              {t('contacts.import.back')}
            </Button>
            <Box sx={{ flex: 1 }} />
            <Button onClick={close} disabled={busy}>
              {t('contacts.import.cancel')}
            </Button>
            <Button variant="contained" onClick={() => void onImport()} disabled={busy || preview.summary.new === 0}>
              {runImport.isPending ? t('contacts.import.importing') : t('contacts.import.import', { count: preview.summary.new })}
            </Button>
          </>
        ) : (
          <>
            <Button onClick={close} disabled={busy}>
              {t('contacts.import.cancel')}
            </Button>
            <Button variant="contained" onClick={() => void onPreview()} disabled={busy || !csv.trim()}>
              {check.isPending ? t('contacts.import.previewing') : t('contacts.import.preview')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
