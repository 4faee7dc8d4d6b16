/**
 * "Apply to contact" (issue 17): what the call's AI analysis would change on the contact, one row
 * per field (current → proposed, as the server's preview computes it), each with a checkbox that
 * starts checked only when the contact has no value for it. Apply writes only the checked fields;
 * the caller shows the snackbar with Undo.
 */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { ApplyContactField, ApplyContactFieldPreview, ApplyContactResult } from '@agentdesk/functions/contract';
import { errorMessage } from '../../i18n';
import { formatPhone } from '../../shared/phone';
import { useApplyContact, useApplyContactPreview } from './callQueries';

const TITLE_ID = 'apply-contact-title';

function shown(field: ApplyContactField, value: string): string {
  return field === 'phoneNumber' ? formatPhone(value) : value;
}

function FieldRow({ row, checked, onToggle }: { row: ApplyContactFieldPreview; checked: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const label = t(`voiceCalls.applyContact.fields.${row.field}`);
  return (
    <TableRow data-testid={`apply-row-${row.field}`}>
      <TableCell padding="checkbox">
        <Checkbox checked={checked} disabled={row.required} onChange={onToggle} slotProps={{ input: { 'aria-label': label } }} />
      </TableCell>
      <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
        {label}
        {row.required && (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {t('voiceCalls.applyContact.required')}
          </Typography>
        )}
      </TableCell>
      <TableCell data-testid="apply-current" sx={{ overflowWrap: 'break-word', color: row.current ? undefined : 'text.secondary' }}>
        {row.current ? shown(row.field, row.current) : t('voiceCalls.applyContact.empty')}
      </TableCell>
      <TableCell data-testid="apply-proposed" sx={{ overflowWrap: 'break-word' }}>
        {shown(row.field, row.proposed)}
      </TableCell>
    </TableRow>
  );
}

export function ApplyContactDialog({ callId, open, onClose, onApplied }: { callId: string; open: boolean; onClose: () => void; onApplied: (result: ApplyContactResult) => void }) {
  const { t } = useTranslation();
  const preview = useApplyContactPreview(callId, open);
  const apply = useApplyContact(callId);
  const [checked, setChecked] = useState<ReadonlySet<ApplyContactField>>(new Set());
  const [failure, setFailure] = useState('');

  // Each fresh preview resets the choice to the server's suggestion.
  useEffect(() => {
    if (preview.data) setChecked(new Set(preview.data.fields.filter((f) => f.preselected || f.required).map((f) => f.field)));
    setFailure('');
  }, [preview.data]);

  const rows = preview.data?.fields ?? [];
  const chosen = rows.filter((r) => checked.has(r.field)).map((r) => r.field);
  const toggle = (field: ApplyContactField) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (next.has(field)) next.delete(field);
      else next.add(field);
      return next;
    });

  const onApply = async () => {
    setFailure('');
    try {
      const env = await apply.mutateAsync(chosen);
      if (env.data) onApplied(env.data);
      onClose();
    } catch (err) {
      setFailure(errorMessage(err, t('voiceCalls.detail.applyFailed')));
    }
  };

  let body;
  if (preview.isPending) {
    body = (
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', py: 2 }} role="status">
        <CircularProgress size={20} />
        <Typography color="text.secondary">{t('voiceCalls.applyContact.loading')}</Typography>
      </Stack>
    );
  } else if (preview.isError) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void preview.refetch()}>
            {t('voiceCalls.applyContact.retry')}
          </Button>
        }
      >
        {errorMessage(preview.error, t('voiceCalls.applyContact.loadFailed'))}
      </Alert>
    );
  } else if (rows.length === 0) {
    body = <Alert severity="info">{t('voiceCalls.applyContact.nothing')}</Alert>;
  } else {
    body = (
      <>
        <Typography sx={{ mb: 1 }} color="text.secondary">
          {preview.data.contactId
            ? t('voiceCalls.applyContact.intoContact', { name: preview.data.contactName || t('voiceCalls.list.unknown') })
            : t('voiceCalls.applyContact.intoNewContact')}
        </Typography>
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-labelledby={TITLE_ID}>
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox" />
                <TableCell>{t('voiceCalls.applyContact.field')}</TableCell>
                <TableCell>{t('voiceCalls.applyContact.current')}</TableCell>
                <TableCell>{t('voiceCalls.applyContact.proposed')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <FieldRow key={row.field} row={row} checked={checked.has(row.field)} onToggle={() => toggle(row.field)} />
              ))}
            </TableBody>
          </Table>
        </Box>
      </>
    );
  }

  return (
    <Dialog open={open} onClose={apply.isPending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby={TITLE_ID}>
      <DialogTitle id={TITLE_ID}>{t('voiceCalls.applyContact.title')}</DialogTitle>
      <DialogContent>
        {body}
        {failure && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {failure}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={apply.isPending}>
          {t('voiceCalls.applyContact.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void onApply()} disabled={apply.isPending || chosen.length === 0}>
          {apply.isPending ? t('voiceCalls.applyContact.applying') : t('voiceCalls.applyContact.apply')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
