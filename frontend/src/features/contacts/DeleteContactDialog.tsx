import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
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
    <ConfirmDialog
      open={name !== null}
      title={t('contacts.delete.title')}
      body={t('contacts.delete.body', { name: name ?? '' })}
      confirmLabel={t('contacts.delete.confirm')}
      pendingLabel={t('contacts.delete.deleting')}
      pending={pending}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
