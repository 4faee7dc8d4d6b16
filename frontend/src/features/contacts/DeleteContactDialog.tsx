import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import './i18n';

interface DeleteContactDialogProps {
  /** The contact's display name; the dialog is open while it is set. */
  name: string | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** 'Delete Contact' confirmation with Cancel and Delete. */
export function DeleteContactDialog({ name, pending, onCancel, onConfirm }: DeleteContactDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={name !== null} onClose={pending ? undefined : onCancel} maxWidth="xs" fullWidth aria-describedby="delete-contact-text">
      <DialogTitle>{t('contacts.delete.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="delete-contact-text">{t('contacts.delete.body', { name: name ?? '' })}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={pending}>
          {t('contacts.delete.cancel')}
        </Button>
        <Button color="error" variant="contained" onClick={onConfirm} disabled={pending}>
          {pending ? t('contacts.delete.deleting') : t('contacts.delete.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
