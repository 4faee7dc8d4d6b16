/** What failed to load, as an error alert with a Retry button on its right that fetches again. */
import type { ReactNode } from 'react';
import Alert, { type AlertProps } from '@mui/material/Alert';
import Button from '@mui/material/Button';

interface RetryAlertProps {
  retryLabel: string;
  onRetry: () => void;
  /** Disables Retry (e.g. while the refetch runs). */
  retrying?: boolean;
  variant?: AlertProps['variant'];
  sx?: AlertProps['sx'];
  'data-testid'?: string;
  children: ReactNode;
}

export function RetryAlert({ retryLabel, onRetry, retrying, variant, sx, 'data-testid': testId, children }: RetryAlertProps) {
  return (
    <Alert
      severity="error"
      variant={variant}
      sx={sx}
      data-testid={testId}
      action={
        <Button color="inherit" size="small" onClick={onRetry} disabled={retrying}>
          {retryLabel}
        </Button>
      }
    >
      {children}
    </Alert>
  );
}
