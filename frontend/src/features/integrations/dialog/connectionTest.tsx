/**
 * Test connection in the integration modals: the hook that runs a test (the typed values or, with
 * `{}`, the stored settings) and keeps its outcome, the button, and the outcome's status line.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import { useTranslation } from 'react-i18next';
import type { IntegrationTestResult } from '../../../api/integrations';
import { apiErrorText, translateContractText } from '../../../shared/apiTexts';
import type { IntegrationDialogName } from './names';

export interface TestOutcome {
  ok: boolean;
  text: string;
}

/** The test call as TanStack Query's useMutation returns it. */
export interface TestMutation<I> {
  mutateAsync: (input: I) => Promise<IntegrationTestResult>;
  isPending: boolean;
}

/** Runs a connection test (typed values, or `{}` for the stored settings) and keeps its outcome. */
export function useConnectionTest<I>(name: IntegrationDialogName, test: TestMutation<I>) {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const run = async (input: I) => {
    setOutcome(null);
    try {
      const result = await test.mutateAsync(input);
      setOutcome({ ok: result.ok, text: result.message ? translateContractText(result.message) : t(`integrations.${name}.testOk`) });
    } catch (err) {
      setOutcome({ ok: false, text: apiErrorText(err, t(`integrations.${name}.testFailed`)) });
    }
  };
  return { run, outcome, pending: test.isPending, clear: () => setOutcome(null) };
}

/** A connection test as `useConnectionTest` returns it. */
export type ConnectionTest<I> = ReturnType<typeof useConnectionTest<I>>;

/** The outcome as a status line (`<name>-test-result`); nothing before a test. */
export function TestResultStatus({ name, outcome }: { name: IntegrationDialogName; outcome: TestOutcome | null }) {
  if (!outcome) return null;
  return (
    <Alert severity={outcome.ok ? 'success' : 'error'} role="status" data-testid={`${name}-test-result`}>
      {outcome.text}
    </Alert>
  );
}

/** Test connection, with a spinner and 'Testing…' while the test runs. */
export function TestConnectionButton({ name, pending, disabled, onClick }: { name: IntegrationDialogName; pending: boolean; disabled: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button variant="outlined" onClick={onClick} disabled={disabled} startIcon={pending ? <CircularProgress size={16} /> : <NetworkCheck />}>
      {pending ? t(`integrations.${name}.testing`) : t(`integrations.${name}.test`)}
    </Button>
  );
}
