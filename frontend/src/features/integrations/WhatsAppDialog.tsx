/**
 * The WhatsApp Business modal (SPEC §2 Integrations, §5 WhatsApp Business setup, §7, §8): the
 * connection details when connected, else (or on Edit settings) the setup form — Bearer token,
 * Business ID, Phone ID, Phone number and the app secret (beyond the spec: it verifies the
 * webhook signatures). Stored secrets read '***' and are kept unless retyped. Test connection asks
 * the Graph API through the server; Save configures it and shows the webhook URL and verify token
 * (with copy buttons) to paste in Meta's App Dashboard; Disconnect asks first.
 */
import { useState, type FocusEvent, type ReactNode } from 'react';
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
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type FieldError, type UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  MASKED_SECRET,
  type IntegrationView,
  type WhatsAppSetupInput,
  type WhatsAppSetupResult,
} from '@agentdesk/functions/contract';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useToast } from '../../components/useToast';
import { apiErrorText, fieldProps, translateContractText } from './messages';
import { useDisconnectIntegration, useSetupWhatsApp, useTestWhatsApp } from './queries';
import {
  formFromIntegration,
  hasStoredSecret,
  setupBody,
  visibleVerifyToken,
  whatsAppForm,
  type WhatsAppFormValues,
} from './whatsappForm';

interface TestOutcome {
  ok: boolean;
  text: string;
}

function useConnectionTest() {
  const { t } = useTranslation();
  const test = useTestWhatsApp();
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const run = async (input: Partial<WhatsAppSetupInput>) => {
    setOutcome(null);
    try {
      const result = await test.mutateAsync(input);
      setOutcome({ ok: result.ok, text: result.message ? translateContractText(result.message) : t('integrations.whatsapp.testOk') });
    } catch (err) {
      setOutcome({ ok: false, text: apiErrorText(err, t('integrations.whatsapp.testFailed')) });
    }
  };
  return { run, outcome, pending: test.isPending, clear: () => setOutcome(null) };
}

function TestResult({ outcome }: { outcome: TestOutcome | null }) {
  if (!outcome) return null;
  return (
    <Alert severity={outcome.ok ? 'success' : 'error'} role="status" data-testid="whatsapp-test-result">
      {outcome.text}
    </Alert>
  );
}

/** A read-only value with a copy button (the webhook URL, the verify token). */
function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
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

/** What Meta needs to call us: shown after a setup and on the connected card. */
function WebhookDetails({ webhookUrl, verifyToken }: { webhookUrl: string; verifyToken: string }) {
  const { t } = useTranslation();
  if (!webhookUrl && !verifyToken) return null;
  return (
    <Box component="section" aria-labelledby="whatsapp-webhook-title" data-testid="whatsapp-webhook-details">
      <Typography id="whatsapp-webhook-title" variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
        {t('integrations.whatsapp.webhookTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('integrations.whatsapp.webhookHint')}
      </Typography>
      <Stack spacing={1.5}>
        {webhookUrl && <CopyField label={t('integrations.whatsapp.webhookUrl')} value={webhookUrl} testId="whatsapp-webhook-url" />}
        {verifyToken ? (
          <CopyField label={t('integrations.whatsapp.webhookVerifyToken')} value={verifyToken} testId="whatsapp-verify-token" />
        ) : (
          <Typography variant="caption" color="text.secondary">
            {t('integrations.whatsapp.verifyTokenHidden')}
          </Typography>
        )}
      </Stack>
    </Box>
  );
}

function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }} sx={{ py: 1 }}>
      <Typography color="text.secondary" sx={{ width: { sm: 170 }, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box sx={{ fontWeight: 500, minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
    </Stack>
  );
}

function ConnectionDetails({ integration }: { integration: IntegrationView }) {
  const { t, i18n } = useTranslation();
  const values = formFromIntegration(integration);
  const stored = (present: boolean) => (present ? t('integrations.whatsapp.secretStored') : t('integrations.whatsapp.notSet'));
  const since = integration.updatedAt || integration.createdAt;
  const rows: [string, ReactNode][] = [
    [
      t('integrations.status.label'),
      <Chip key="s" size="small" color={integration.isActive ? 'success' : 'default'} label={integration.isActive ? t('integrations.status.connected') : t('integrations.status.notConnected')} />,
    ],
    [t('integrations.whatsapp.phoneNumber'), values.phoneNumber || t('integrations.whatsapp.notSet')],
    [t('integrations.whatsapp.businessId'), values.businessId || t('integrations.whatsapp.notSet')],
    [t('integrations.whatsapp.phoneId'), values.phoneId || t('integrations.whatsapp.notSet')],
    [t('integrations.whatsapp.bearerToken'), stored(hasStoredSecret(integration, 'bearerToken'))],
    [t('integrations.whatsapp.appSecret'), stored(hasStoredSecret(integration, 'appSecret'))],
  ];
  if (since) {
    rows.push([t('integrations.whatsapp.updatedAt'), new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(since))]);
  }
  return (
    <Box data-testid="whatsapp-connection-details">
      {rows.map(([label, value], i) => (
        <Box key={label}>
          {i > 0 && <Divider />}
          <DetailRow label={label}>{value}</DetailRow>
        </Box>
      ))}
    </Box>
  );
}

interface SecretFieldProps {
  label: string;
  registration: UseFormRegisterReturn;
  value: string | undefined;
  stored: boolean;
  error: FieldError | undefined;
  hint: string;
}

/** A secret input: '***' when stored (focusing selects it, so typing replaces it), else hidden text with a show toggle. */
function SecretField({ label, registration, value, stored, error, hint }: SecretFieldProps) {
  const { t } = useTranslation();
  const [show, setShow] = useState(false);
  const masked = stored && value === MASKED_SECRET;
  return (
    <TextField
      label={label}
      type={show && !masked ? 'text' : 'password'}
      autoComplete="off"
      required={!stored}
      {...registration}
      onFocus={(e) => {
        if (e.target.value === MASKED_SECRET) e.target.select();
      }}
      {...fieldProps(error, stored ? `${hint} ${t('integrations.whatsapp.secretStoredHint')}` : hint)}
      slotProps={{
        input: {
          endAdornment: masked ? undefined : (
            <InputAdornment position="end">
              <IconButton
                edge="end"
                onClick={() => setShow((v) => !v)}
                aria-label={show ? t('integrations.whatsapp.hideSecret', { field: label }) : t('integrations.whatsapp.showSecret', { field: label })}
              >
                {show ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

const FORM_ID = 'whatsapp-setup-form';

interface SetupFormProps {
  integration: IntegrationView | null;
  onSaved: (result: WhatsAppSetupResult | null) => void;
  onCancel: () => void;
}

function SetupForm({ integration, onSaved, onCancel }: SetupFormProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const setup = useSetupWhatsApp();
  const connectionTest = useConnectionTest();
  const stored = { bearerToken: hasStoredSecret(integration, 'bearerToken'), appSecret: hasStoredSecret(integration, 'appSecret') };
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<WhatsAppFormValues, unknown, WhatsAppSetupInput>({ resolver: zodResolver(whatsAppForm(stored)), defaultValues: formFromIntegration(integration) });
  const bearerToken = useWatch({ control, name: 'bearerToken' });
  const appSecret = useWatch({ control, name: 'appSecret' });

  const onSave = handleSubmit(async (values) => {
    connectionTest.clear();
    try {
      const env = await setup.mutateAsync(setupBody(values));
      toast.success(env.message ? translateContractText(env.message) : t('integrations.whatsapp.saved'));
      onSaved(env.data ?? null);
    } catch (err) {
      toast.error(apiErrorText(err, t('integrations.whatsapp.setupFailed')));
    }
  });
  const onTest = handleSubmit((values) => connectionTest.run(setupBody(values)));
  const busy = isSubmitting || connectionTest.pending;

  return (
    <>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('integrations.whatsapp.intro')}
        </Typography>
        <Stack component="form" id={FORM_ID} noValidate onSubmit={onSave} spacing={2.5} sx={{ pt: 1 }}>
          <SecretField
            label={t('integrations.whatsapp.bearerToken')}
            registration={register('bearerToken')}
            value={bearerToken}
            stored={stored.bearerToken}
            error={errors.bearerToken}
            hint={t('integrations.whatsapp.bearerTokenHint')}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label={t('integrations.whatsapp.businessId')}
              required
              autoComplete="off"
              {...register('businessId')}
              {...fieldProps(errors.businessId, t('integrations.whatsapp.businessIdHint'))}
            />
            <TextField
              label={t('integrations.whatsapp.phoneId')}
              required
              autoComplete="off"
              {...register('phoneId')}
              {...fieldProps(errors.phoneId, t('integrations.whatsapp.phoneIdHint'))}
            />
          </Stack>
          <TextField
            label={t('integrations.whatsapp.phoneNumber')}
            required
            type="tel"
            autoComplete="off"
            placeholder={t('integrations.whatsapp.phoneNumberPlaceholder')}
            {...register('phoneNumber')}
            {...fieldProps(errors.phoneNumber, t('integrations.whatsapp.phoneNumberHint'))}
          />
          <SecretField
            label={t('integrations.whatsapp.appSecret')}
            registration={register('appSecret')}
            value={appSecret}
            stored={stored.appSecret}
            error={errors.appSecret}
            hint={t('integrations.whatsapp.appSecretHint')}
          />
        </Stack>
      </DialogContent>
      {connectionTest.outcome && (
        <Box sx={{ px: 3, pt: 1.5 }}>
          <TestResult outcome={connectionTest.outcome} />
        </Box>
      )}
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onCancel} disabled={isSubmitting}>
          {t('common.cancel')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button
          variant="outlined"
          onClick={() => void onTest()}
          disabled={busy}
          startIcon={connectionTest.pending ? <CircularProgress size={16} /> : <NetworkCheck />}
        >
          {connectionTest.pending ? t('integrations.whatsapp.testing') : t('integrations.whatsapp.test')}
        </Button>
        <Button type="submit" form={FORM_ID} variant="contained" disabled={busy}>
          {isSubmitting ? t('integrations.whatsapp.saving') : t('integrations.whatsapp.save')}
        </Button>
      </DialogActions>
    </>
  );
}

interface WhatsAppDialogProps {
  open: boolean;
  onClose: () => void;
  /** The stored integration (from GET /api/integrations), or null when there is none. */
  integration: IntegrationView | null;
}

export function WhatsAppDialog({ open, onClose, integration }: WhatsAppDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const toast = useToast();
  const disconnect = useDisconnectIntegration();
  const storedTest = useConnectionTest();
  const connected = Boolean(integration?.isActive);
  // The webhook details of a setup just saved in this dialog (shown until it closes).
  const [saved, setSaved] = useState<WhatsAppSetupResult | null>(null);
  const [justSaved, setJustSaved] = useState(false);
  const [editing, setEditing] = useState(!connected);
  const [confirming, setConfirming] = useState(false);
  const webhookUrl = saved?.webhookUrl || integration?.webhookUrl || '';
  const verifyToken = saved?.webhookVerifyToken || visibleVerifyToken(integration);

  const close = () => {
    if (disconnect.isPending) return;
    onClose();
  };

  const onDisconnect = async () => {
    try {
      const env = await disconnect.mutateAsync('whatsapp-business');
      toast.success(env.message ? translateContractText(env.message) : t('integrations.disconnected'));
      setConfirming(false);
      onClose();
    } catch (err) {
      toast.error(apiErrorText(err, t('integrations.whatsapp.disconnectFailed')));
    }
  };

  const showForm = editing || (!integration && !justSaved);

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="whatsapp-dialog-title">
      <DialogTitle id="whatsapp-dialog-title">{showForm ? t('integrations.whatsapp.setupTitle') : t('integrations.whatsapp.detailsTitle')}</DialogTitle>
      {showForm ? (
        <SetupForm
          integration={integration}
          onSaved={(result) => {
            setSaved(result);
            setJustSaved(true);
            setEditing(false);
          }}
          onCancel={() => (integration?.isActive || justSaved ? setEditing(false) : onClose())}
        />
      ) : (
        <>
          <DialogContent>
            <Stack spacing={2.5}>
              {justSaved && <Alert severity="success">{t('integrations.whatsapp.connectedNote')}</Alert>}
              {integration && <ConnectionDetails integration={integration} />}
              <WebhookDetails webhookUrl={webhookUrl} verifyToken={verifyToken} />
              <TestResult outcome={storedTest.outcome} />
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
            {integration && (
              <Button color="error" startIcon={<LinkOff />} onClick={() => setConfirming(true)}>
                {t('integrations.disconnect')}
              </Button>
            )}
            <Box sx={{ flex: 1 }} />
            <Button
              variant="outlined"
              onClick={() => void storedTest.run({})}
              disabled={storedTest.pending}
              startIcon={storedTest.pending ? <CircularProgress size={16} /> : <NetworkCheck />}
            >
              {storedTest.pending ? t('integrations.whatsapp.testing') : t('integrations.whatsapp.test')}
            </Button>
            <Button
              variant="outlined"
              onClick={() => {
                storedTest.clear();
                setEditing(true);
              }}
            >
              {t('integrations.whatsapp.edit')}
            </Button>
            <Button variant="contained" onClick={close}>
              {t('common.close')}
            </Button>
          </DialogActions>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('integrations.whatsapp.disconnectTitle')}
        body={t('integrations.whatsapp.disconnectBody')}
        confirmLabel={t('integrations.disconnect')}
        pendingLabel={t('integrations.disconnecting')}
        pending={disconnect.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void onDisconnect()}
      />
    </Dialog>
  );
}
