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
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
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
import { useToast } from '../../components/useToast';
import {
  ConnectionDetailRows,
  DetailsActions,
  IntegrationDialogFrame,
  SetupFormActions,
  StatusChip,
  TestResult,
  formatUpdatedAt,
  useConnectionTest,
  useDisconnect,
} from './IntegrationDialogParts';
import { apiErrorText, fieldProps, translateContractText } from './messages';
import { useSetupWhatsApp, useTestWhatsApp } from './queries';
import {
  formFromIntegration,
  hasStoredSecret,
  setupBody,
  visibleVerifyToken,
  whatsAppForm,
  type WhatsAppFormValues,
} from './whatsappForm';

/** A read-only value with a copy button (the webhook URL, the verify token; the Twilio modal's URLs too). */
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

function ConnectionDetails({ integration }: { integration: IntegrationView }) {
  const { t, i18n } = useTranslation();
  const values = formFromIntegration(integration);
  const stored = (present: boolean) => (present ? t('integrations.whatsapp.secretStored') : t('integrations.whatsapp.notSet'));
  const since = integration.updatedAt || integration.createdAt;
  const rows: [string, ReactNode][] = [
    [t('integrations.status.label'), <StatusChip key="s" isActive={integration.isActive} />],
    [t('integrations.whatsapp.phoneNumber'), values.phoneNumber || t('integrations.whatsapp.notSet')],
    [t('integrations.whatsapp.businessId'), values.businessId || t('integrations.whatsapp.notSet')],
    [t('integrations.whatsapp.phoneId'), values.phoneId || t('integrations.whatsapp.notSet')],
    [t('integrations.whatsapp.bearerToken'), stored(hasStoredSecret(integration, 'bearerToken'))],
    [t('integrations.whatsapp.appSecret'), stored(hasStoredSecret(integration, 'appSecret'))],
  ];
  if (since) {
    rows.push([t('integrations.whatsapp.updatedAt'), formatUpdatedAt(i18n.language, since)]);
  }
  return <ConnectionDetailRows name="whatsapp" rows={rows} />;
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
  const connectionTest = useConnectionTest('whatsapp', useTestWhatsApp());
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
      <SetupFormActions
        name="whatsapp"
        formId={FORM_ID}
        outcome={connectionTest.outcome}
        testPending={connectionTest.pending}
        isSubmitting={isSubmitting}
        onTest={() => void onTest()}
        onCancel={onCancel}
      />
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
  const disconnect = useDisconnect('whatsapp', 'whatsapp-business', onClose);
  const storedTest = useConnectionTest('whatsapp', useTestWhatsApp());
  const connected = Boolean(integration?.isActive);
  // The webhook details of a setup just saved in this dialog (shown until it closes).
  const [saved, setSaved] = useState<WhatsAppSetupResult | null>(null);
  const [justSaved, setJustSaved] = useState(false);
  const [editing, setEditing] = useState(!connected);
  const webhookUrl = saved?.webhookUrl || integration?.webhookUrl || '';
  const verifyToken = saved?.webhookVerifyToken || visibleVerifyToken(integration);

  const showForm = editing || (!integration && !justSaved);

  return (
    <IntegrationDialogFrame
      name="whatsapp"
      open={open}
      onClose={disconnect.close}
      title={showForm ? t('integrations.whatsapp.setupTitle') : t('integrations.whatsapp.detailsTitle')}
    >
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
              <TestResult name="whatsapp" outcome={storedTest.outcome} />
            </Stack>
          </DialogContent>
          <DetailsActions
            name="whatsapp"
            onDisconnect={integration ? disconnect.ask : undefined}
            testPending={storedTest.pending}
            onTest={() => void storedTest.run({})}
            onEdit={() => {
              storedTest.clear();
              setEditing(true);
            }}
            onClose={disconnect.close}
          />
        </>
      )}
      {disconnect.confirmDialog}
    </IntegrationDialogFrame>
  );
}
