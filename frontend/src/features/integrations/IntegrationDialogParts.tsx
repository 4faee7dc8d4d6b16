/**
 * What the ChatGPT, WhatsApp Business and Twilio Voice modals share (SPEC §2 Integrations, §8): the dialog frame,
 * the connection test and its result, the status chip and detail rows, the setup form's
 * Cancel / Test connection / Save actions, the connected view's Disconnect / Test connection /
 * Edit settings / Close actions, and the disconnect confirmation. `name` ('chatgpt', 'whatsapp' or 'twilio')
 * picks the texts under `integrations.<name>.*` and the `<name>-…` ids and test ids.
 */
import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import LinkOff from '@mui/icons-material/LinkOff';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import { useTranslation } from 'react-i18next';
import type { IntegrationType } from '@agentdesk/functions/contract';
import type { IntegrationTestResult } from '../../api/integrations';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useToast } from '../../components/useToast';
import { apiErrorText, translateContractText } from './messages';
import { useDisconnectIntegration } from './queries';

/** Which modal: its texts live under `integrations.<name>`, its ids start with `<name>-`. */
export type IntegrationDialogName = 'chatgpt' | 'whatsapp' | 'twilio';

export interface TestOutcome {
  ok: boolean;
  text: string;
}

interface TestMutation<I> {
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

export function TestResult({ name, outcome }: { name: IntegrationDialogName; outcome: TestOutcome | null }) {
  if (!outcome) return null;
  return (
    <Alert severity={outcome.ok ? 'success' : 'error'} role="status" data-testid={`${name}-test-result`}>
      {outcome.text}
    </Alert>
  );
}

/** The dialog around either view: full screen on small screens, titled `<name>-dialog-title`. */
export function IntegrationDialogFrame({
  name,
  open,
  onClose,
  title,
  children,
}: {
  name: IntegrationDialogName;
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby={`${name}-dialog-title`}>
      <DialogTitle id={`${name}-dialog-title`}>{title}</DialogTitle>
      {children}
    </Dialog>
  );
}

/** The first detail row's value: Connected / Not connected. */
export function StatusChip({ isActive }: { isActive: boolean }) {
  const { t } = useTranslation();
  return <Chip size="small" color={isActive ? 'success' : 'default'} label={isActive ? t('integrations.status.connected') : t('integrations.status.notConnected')} />;
}

/** When the integration was last saved, in the reader's language. */
export function formatUpdatedAt(language: string, since: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(since));
}

function DetailRow({ label, preWrap, children }: { label: string; preWrap: boolean; children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }} sx={{ py: 1 }}>
      <Typography color="text.secondary" sx={{ width: { sm: 170 }, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box sx={{ fontWeight: 500, minWidth: 0, overflowWrap: 'anywhere', ...(preWrap && { whiteSpace: 'pre-wrap' }) }}>{children}</Box>
    </Stack>
  );
}

/** Label / value rows with dividers between them; `preWrap` keeps line breaks in values (a system prompt). */
export function ConnectionDetailRows({ name, rows, preWrap = false }: { name: IntegrationDialogName; rows: [string, ReactNode][]; preWrap?: boolean }) {
  return (
    <Box data-testid={`${name}-connection-details`}>
      {rows.map(([label, value], i) => (
        <Box key={label}>
          {i > 0 && <Divider />}
          <DetailRow label={label} preWrap={preWrap}>
            {value}
          </DetailRow>
        </Box>
      ))}
    </Box>
  );
}

function TestButton({ name, pending, disabled, onClick }: { name: IntegrationDialogName; pending: boolean; disabled: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button variant="outlined" onClick={onClick} disabled={disabled} startIcon={pending ? <CircularProgress size={16} /> : <NetworkCheck />}>
      {pending ? t(`integrations.${name}.testing`) : t(`integrations.${name}.test`)}
    </Button>
  );
}

/** Under the setup form: the test outcome, then Cancel, Test connection (the typed values) and Save (submits `formId`). */
export function SetupFormActions({
  name,
  formId,
  outcome,
  testPending,
  isSubmitting,
  onTest,
  onCancel,
}: {
  name: IntegrationDialogName;
  formId: string;
  outcome: TestOutcome | null;
  testPending: boolean;
  isSubmitting: boolean;
  onTest: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const busy = isSubmitting || testPending;
  return (
    <>
      {outcome && (
        <Box sx={{ px: 3, pt: 1.5 }}>
          <TestResult name={name} outcome={outcome} />
        </Box>
      )}
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onCancel} disabled={isSubmitting}>
          {t('common.cancel')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <TestButton name={name} pending={testPending} disabled={busy} onClick={onTest} />
        <Button type="submit" form={formId} variant="contained" disabled={busy}>
          {isSubmitting ? t(`integrations.${name}.saving`) : t(`integrations.${name}.save`)}
        </Button>
      </DialogActions>
    </>
  );
}

/** Under the connection details: Disconnect (when there is something to disconnect), Test connection (the stored settings), Edit settings, Close. */
export function DetailsActions({
  name,
  onDisconnect,
  testPending,
  onTest,
  onEdit,
  onClose,
}: {
  name: IntegrationDialogName;
  /** Asks to disconnect; without it there is no Disconnect button. */
  onDisconnect?: () => void;
  testPending: boolean;
  onTest: () => void;
  onEdit: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
      {onDisconnect && (
        <Button color="error" startIcon={<LinkOff />} onClick={onDisconnect}>
          {t('integrations.disconnect')}
        </Button>
      )}
      <Box sx={{ flex: 1 }} />
      <TestButton name={name} pending={testPending} disabled={testPending} onClick={onTest} />
      <Button variant="outlined" onClick={onEdit}>
        {t(`integrations.${name}.edit`)}
      </Button>
      <Button variant="contained" onClick={onClose}>
        {t('common.close')}
      </Button>
    </DialogActions>
  );
}

/**
 * Disconnect with a confirmation: `ask` opens it, `close` closes the modal unless a disconnect is
 * running, and `confirmDialog` is the confirmation to render inside the modal. On success it toasts
 * and closes the modal; on failure it toasts the error and stays open.
 */
export function useDisconnect(name: IntegrationDialogName, type: IntegrationType, onClose: () => void) {
  const { t } = useTranslation();
  const toast = useToast();
  const disconnect = useDisconnectIntegration();
  const [confirming, setConfirming] = useState(false);

  const close = () => {
    if (disconnect.isPending) return;
    onClose();
  };

  const onConfirm = async () => {
    try {
      const env = await disconnect.mutateAsync(type);
      toast.success(env.message ? translateContractText(env.message) : t('integrations.disconnected'));
      setConfirming(false);
      onClose();
    } catch (err) {
      toast.error(apiErrorText(err, t(`integrations.${name}.disconnectFailed`)));
    }
  };

  const confirmDialog = (
    <ConfirmDialog
      open={confirming}
      title={t(`integrations.${name}.disconnectTitle`)}
      body={t(`integrations.${name}.disconnectBody`)}
      confirmLabel={t('integrations.disconnect')}
      pendingLabel={t('integrations.disconnecting')}
      pending={disconnect.isPending}
      onCancel={() => setConfirming(false)}
      onConfirm={() => void onConfirm()}
    />
  );

  return { close, ask: () => setConfirming(true), confirmDialog };
}
