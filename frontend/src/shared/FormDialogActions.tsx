import Button, { type ButtonProps } from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';

interface FormDialogActionsProps {
  cancelLabel: string;
  /** The submit button's text; `pendingLabel` while the form is sent. */
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  onCancel: () => void;
  /** The form's id when the button sits outside it. */
  form?: string;
  color?: ButtonProps['color'];
}

/** A form dialog's Cancel and submit buttons; both are disabled while the form is sent. */
export function FormDialogActions({ cancelLabel, submitLabel, pendingLabel, pending, onCancel, form, color }: FormDialogActionsProps) {
  return (
    <DialogActions sx={{ px: 3, pb: 2 }}>
      <Button onClick={onCancel} disabled={pending}>
        {cancelLabel}
      </Button>
      <Button type="submit" form={form} variant="contained" color={color} disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </DialogActions>
  );
}
