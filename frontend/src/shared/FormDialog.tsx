import type { FormEventHandler, ReactNode } from 'react';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { FormDialogActions } from './FormDialogActions';

interface FormDialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  /** Labels the dialog for screen readers (aria-labelledby) when given. */
  titleId?: string;
  maxWidth?: DialogProps['maxWidth'];
  fullScreen?: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  cancelLabel: string;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  children: ReactNode;
}

/** A dialog that is one form: title, fields, and Cancel + submit (disabled while it is sent). */
export function FormDialog({ open, onClose, title, titleId, maxWidth = 'sm', fullScreen, onSubmit, children, ...actions }: FormDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth={maxWidth} fullScreen={fullScreen} aria-labelledby={titleId}>
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <FormDialogActions {...actions} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
