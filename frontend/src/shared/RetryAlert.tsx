/** What failed to load, as an error alert with a Retry button on its right that fetches again. */
import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';

interface RetryAlertProps {
  retryLabel: string;
  onRetry: () => void;
  /** Disables Retry (e.g. while the refetch runs). */
  retrying?: boolean;
  'data-testid'?: string;
  children: ReactNode;
}

export function RetryAlert({ retryLabel, onRetry, retrying, 'data-testid': testId, children }: RetryAlertProps) {
  return (
    <Alert
      severity="error"
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
