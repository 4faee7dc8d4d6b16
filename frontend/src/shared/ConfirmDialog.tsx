/**
 * A yes/no confirmation (delete an agent, a file, a URL, a tool or a contact; disconnect an integration):
 * the question, optionally what is about to go, Cancel and a red confirm button that is busy while the call runs.
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The confirmation question. */
  body: string;
  /** What is about to go (a file name, a URL, a tool name), shown under the question. */
  subject?: string;
  confirmLabel: string;
  /** Shown on the confirm button while the action runs. */
  pendingLabel: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  /** 'primary' for a confirmation that adds rather than removes (Import from WhatsApp); red otherwise. */
  tone?: 'danger' | 'primary';
  /** The caller moves the focus itself after confirming (the pressed button may be gone): the dialog does not restore it on close. */
  keepFocusOnClose?: boolean;
}

export function ConfirmDialog({ open, title, body, subject, confirmLabel, pendingLabel, pending, onCancel, onConfirm, tone = 'danger', keepFocusOnClose = false }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Dialog open={open} onClose={pending ? undefined : onCancel} disableRestoreFocus={keepFocusOnClose} maxWidth="xs" fullWidth aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`}>
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-body`}>{body}</DialogContentText>
        {subject && (
          <DialogContentText sx={{ mt: 1, fontWeight: 600, wordBreak: 'break-all' }} color="text.primary">
            {subject}
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={pending}>
          {t('common.cancel')}
        </Button>
        <Button color={tone === 'danger' ? 'error' : 'primary'} variant="contained" onClick={onConfirm} disabled={pending}>
          {pending ? pendingLabel : confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
