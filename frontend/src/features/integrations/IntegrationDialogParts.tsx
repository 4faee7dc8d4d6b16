/**
 * What the ChatGPT, WhatsApp Business and Twilio Voice modals share (SPEC §2 Integrations, §8): the dialog frame,
 * the connection test and its result, the status chip and detail rows, the secret input with its
 * show toggle, the copyable webhook values, the setup form's save / test and its
 * Cancel / Test connection / Save actions, the connected view with its Disconnect / Test connection /
 * Edit settings / Close actions, and the disconnect confirmation. `name` ('chatgpt', 'whatsapp' or 'twilio')
 * picks the texts under `integrations.<name>.*` and the `<name>-…` ids and test ids.
 */
import { useState, type BaseSyntheticEvent, type FocusEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import ContentCopy from '@mui/icons-material/ContentCopy';
import LinkOff from '@mui/icons-material/LinkOff';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MASKED_SECRET, type IntegrationType, type IntegrationView } from '@agentdesk/functions/contract';
import type { IntegrationTestResult } from '../../api/integrations';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { useToast } from '../../shared/useToast';
import { apiErrorText, contractFieldProps as fieldProps, translateContractText } from '../../shared/apiTexts';
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

function TestResult({ name, outcome }: { name: IntegrationDialogName; outcome: TestOutcome | null }) {
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
function SetupFormActions({
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
function DetailsActions({
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

export interface SecretFieldProps {
  label: string;
  registration: UseFormRegisterReturn;
  /** The field's current value (watched): '***' while the stored secret is kept. */
  value: string | undefined;
  stored: boolean;
  error: FieldError | undefined;
  helperText: string;
  showLabel: string;
  hideLabel: string;
  placeholder?: string;
}

/** A secret input: '***' when stored (focusing selects it, so typing replaces it), else hidden text with a show toggle. */
export function SecretField({ label, registration, value, stored, error, helperText, showLabel, hideLabel, placeholder }: SecretFieldProps) {
  const [show, setShow] = useState(false);
  const masked = stored && value === MASKED_SECRET;
  return (
    <TextField
      label={label}
      type={show && !masked ? 'text' : 'password'}
      autoComplete="off"
      required={!stored}
      placeholder={placeholder}
      {...registration}
      onFocus={(e) => {
        if (e.target.value === MASKED_SECRET) e.target.select();
      }}
      {...fieldProps(error, helperText)}
      slotProps={{
        input: {
          endAdornment: masked ? undefined : (
            <InputAdornment position="end">
              <IconButton edge="end" onClick={() => setShow((v) => !v)} aria-label={show ? hideLabel : showLabel}>
                {show ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** A read-only value with a copy button (the webhook URLs, the verify token). */
export function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(t('integrations.whatsapp.copied'));
    } catch {
      toast.error(t('integrations.whatsapp.copyFailed'));
    }
  };
  const copyLabel = t('integrations.whatsapp.copy', { field: label });
  return (
    <TextField
      label={label}
      value={value}
      size="small"
      slotProps={{
        htmlInput: { readOnly: true, 'data-testid': testId, onFocus: (e: FocusEvent<HTMLInputElement>) => e.target.select() },
        input: {
          sx: { fontFamily: 'monospace', fontSize: 13 },
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={copyLabel}>
                <IconButton edge="end" onClick={() => void copy()} aria-label={copyLabel}>
                  <ContentCopy fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/** What the provider must call: `integrations.<name>.webhookTitle` / `webhookHint` above the values. */
export function WebhookSection({ name, children }: { name: IntegrationDialogName; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-labelledby={`${name}-webhook-title`} data-testid={`${name}-webhook-details`}>
      <Typography id={`${name}-webhook-title`} variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
        {t(`integrations.${name}.webhookTitle`)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t(`integrations.${name}.webhookHint`)}
      </Typography>
      <Stack spacing={1.5}>{children}</Stack>
    </Box>
  );
}

interface SetupMutation<B, R> {
  mutateAsync: (body: B) => Promise<{ message?: string; data?: R }>;
}

interface SetupSubmitOptions<V, B, R> {
  name: IntegrationDialogName;
  setup: SetupMutation<B, R>;
  test: TestMutation<Partial<B>>;
  /** The form's handleSubmit: validates, then hands over the values. */
  handleSubmit: (onValid: (values: V) => Promise<void>) => (e?: BaseSyntheticEvent) => Promise<void>;
  isSubmitting: boolean;
  toBody: (values: V) => B;
  onSaved: (result: R | null) => void;
  onCancel: () => void;
}

/**
 * The setup form's save and test: `formId` names the form, `onSave` is its submit handler (toasts
 * `integrations.<name>.saved` or the error, then `onSaved`), and `actions` renders the test outcome
 * and Cancel / Test connection (the typed values) / Save under it.
 */
export function useSetupSubmit<V, B, R>({ name, setup, test, handleSubmit, isSubmitting, toBody, onSaved, onCancel }: SetupSubmitOptions<V, B, R>) {
  const { t } = useTranslation();
  const toast = useToast();
  const connectionTest = useConnectionTest(name, test);
  const formId = `${name}-setup-form`;

  const onSave = handleSubmit(async (values) => {
    connectionTest.clear();
    try {
      const env = await setup.mutateAsync(toBody(values));
      toast.success(env.message ? translateContractText(env.message) : t(`integrations.${name}.saved`));
      onSaved(env.data ?? null);
    } catch (err) {
      toast.error(apiErrorText(err, t(`integrations.${name}.setupFailed`)));
    }
  });
  const onTest = handleSubmit((values) => connectionTest.run(toBody(values)));

  const actions = (
    <SetupFormActions
      name={name}
      formId={formId}
      outcome={connectionTest.outcome}
      testPending={connectionTest.pending}
      isSubmitting={isSubmitting}
      onTest={() => void onTest()}
      onCancel={onCancel}
    />
  );
  return { formId, onSave, actions };
}

/** A connection test of the stored settings, as `useConnectionTest` returns it. */
interface StoredTest {
  outcome: TestOutcome | null;
  pending: boolean;
  run: (input: Record<string, never>) => Promise<void>;
  clear: () => void;
}

/**
 * The connected view: `integrations.<name>.connectedNote` after a save in this dialog, the
 * details (`children`), the stored-settings test outcome, and the actions under them.
 */
export function DetailsView({
  name,
  justSaved,
  spacing,
  storedTest,
  onDisconnect,
  onEdit,
  onClose,
  children,
}: {
  name: IntegrationDialogName;
  justSaved: boolean;
  spacing: number;
  storedTest: StoredTest;
  onDisconnect?: () => void;
  onEdit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <DialogContent>
        <Stack spacing={spacing}>
          {justSaved && <Alert severity="success">{t(`integrations.${name}.connectedNote`)}</Alert>}
          {children}
          <TestResult name={name} outcome={storedTest.outcome} />
        </Stack>
      </DialogContent>
      <DetailsActions
        name={name}
        onDisconnect={onDisconnect}
        testPending={storedTest.pending}
        onTest={() => void storedTest.run({})}
        onEdit={() => {
          storedTest.clear();
          onEdit();
        }}
        onClose={onClose}
      />
    </>
  );
}

/**
 * Which view a modal whose setup answers with webhook details shows (WhatsApp, Twilio): the form
 * when not connected or on Edit settings, else the details; `saved` is the answer of a setup
 * saved in this dialog, kept until it closes.
 */
export function useSetupView<R>(integration: IntegrationView | null, onClose: () => void) {
  const [saved, setSaved] = useState<R | null>(null);
  const [justSaved, setJustSaved] = useState(false);
  const [editing, setEditing] = useState(!integration?.isActive);
  return {
    saved,
    justSaved,
    showForm: editing || (!integration && !justSaved),
    edit: () => setEditing(true),
    onSaved: (result: R | null) => {
      setSaved(result);
      setJustSaved(true);
      setEditing(false);
    },
    onCancel: () => (integration?.isActive || justSaved ? setEditing(false) : onClose()),
  };
}
