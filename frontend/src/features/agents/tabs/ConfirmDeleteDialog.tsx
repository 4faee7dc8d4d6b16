/** The delete confirmation of the Files, URLs and Tools tabs, driven by useConfirmedDelete. */
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../shared/ConfirmDialog';
import type { ConfirmedDelete } from './useConfirmedDelete';

interface ConfirmDeleteDialogProps<T> {
  flow: ConfirmedDelete<T>;
  title: string;
  body: string;
  /** What is being deleted, shown under the question (the file name, link or tool name). */
  subject?: string;
}

export function ConfirmDeleteDialog<T>({ flow, title, body, subject }: ConfirmDeleteDialogProps<T>) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={flow.item !== null}
      title={title}
      body={body}
      subject={subject}
      confirmLabel={t('agentTabs.common.delete')}
      pendingLabel={t('agentTabs.common.deleting')}
      pending={flow.pending}
      onCancel={flow.cancel}
      onConfirm={flow.confirm}
    />
  );
}
