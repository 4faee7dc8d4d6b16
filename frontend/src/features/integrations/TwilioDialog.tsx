/**
 * The Twilio Voice modal (SPEC §2 Integrations, §5 Twilio Voice, §7, §8): the connection details
 * when connected, else (or on Edit settings) the setup form — Account SID, Auth Token (a stored
 * token reads '***' and is kept unless retyped) and the phone number in E.164. Test connection asks
 * Twilio's REST API through the server; Save configures it and shows the voice webhook and status
 * callback URLs (with copy buttons) and whether the number was pointed at them; Disconnect asks
 * first. The modal links to /voice-settings (greetings, voice, the phone number request).
 */
import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { MASKED_SECRET, type IntegrationView, type TwilioSetupInput, type TwilioSetupResult } from '@agentdesk/functions/contract';
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
import { useSetupTwilio, useTestTwilio } from './queries';
import { formFromIntegration, hasStoredToken, setupBody, statusCallbackOf, twilioForm, type TwilioFormValues } from './twilioForm';
import { CopyField } from './WhatsAppDialog';

function VoiceSettingsLink({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  return (
    <Link component={RouterLink} to="/voice-settings" onClick={onNavigate} variant="body2" data-testid="twilio-voice-settings-link">
      {t('integrations.twilio.voiceSettingsLink')}
    </Link>
  );
}

/** The URLs Twilio must call, and whether setup pointed the number at them. */
function WebhookDetails({ webhookUrl, statusCallbackUrl, result }: { webhookUrl: string; statusCallbackUrl: string; result: TwilioSetupResult | null }) {
  const { t } = useTranslation();
  if (!webhookUrl) return null;
  return (
    <Box component="section" aria-labelledby="twilio-webhook-title" data-testid="twilio-webhook-details">
      <Typography id="twilio-webhook-title" variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
        {t('integrations.twilio.webhookTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('integrations.twilio.webhookHint')}
      </Typography>
      <Stack spacing={1.5}>
        <CopyField label={t('integrations.twilio.webhookUrl')} value={webhookUrl} testId="twilio-webhook-url" />
        {statusCallbackUrl && <CopyField label={t('integrations.twilio.statusCallbackUrl')} value={statusCallbackUrl} testId="twilio-status-callback-url" />}
        {result &&
          (result.numberConfigured ? (
            <Alert severity="success" data-testid="twilio-number-configured">
              {t('integrations.twilio.numberConfigured')}
            </Alert>
          ) : (
            <Alert severity="warning" data-testid="twilio-number-not-configured">
              {t('integrations.twilio.numberNotConfigured')}
              {result.numberConfigError ? ` ${t('integrations.twilio.numberNotConfiguredReason', { reason: translateContractText(result.numberConfigError) })}` : ''}
            </Alert>
          ))}
      </Stack>
    </Box>
  );
}

function ConnectionDetails({ integration }: { integration: IntegrationView }) {
  const { t, i18n } = useTranslation();
  const values = formFromIntegration(integration);
  const since = integration.updatedAt || integration.createdAt;
  const rows: [string, ReactNode][] = [
    [t('integrations.status.label'), <StatusChip key="s" isActive={integration.isActive} />],
    [t('integrations.twilio.accountSid'), values.accountSid || t('integrations.twilio.notSet')],
    [t('integrations.twilio.authToken'), hasStoredToken(integration) ? t('integrations.twilio.secretStored') : t('integrations.twilio.notSet')],
    [t('integrations.twilio.phoneNumber'), values.phoneNumber || t('integrations.twilio.notSet')],
  ];
  if (since) rows.push([t('integrations.twilio.updatedAt'), formatUpdatedAt(i18n.language, since)]);
  return <ConnectionDetailRows name="twilio" rows={rows} />;
}

const FORM_ID = 'twilio-setup-form';

interface SetupFormProps {
  integration: IntegrationView | null;
  onSaved: (result: TwilioSetupResult | null) => void;
  onCancel: () => void;
  onNavigate: () => void;
}

function SetupForm({ integration, onSaved, onCancel, onNavigate }: SetupFormProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const setup = useSetupTwilio();
  const connectionTest = useConnectionTest('twilio', useTestTwilio());
  const storedToken = hasStoredToken(integration);
  const [showToken, setShowToken] = useState(false);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<TwilioFormValues, unknown, TwilioSetupInput>({ resolver: zodResolver(twilioForm(storedToken)), defaultValues: formFromIntegration(integration) });
  const authToken = useWatch({ control, name: 'authToken' });
  const masked = storedToken && authToken === MASKED_SECRET;

  const onSave = handleSubmit(async (values) => {
    connectionTest.clear();
    try {
      const env = await setup.mutateAsync(setupBody(values));
      toast.success(env.message ? translateContractText(env.message) : t('integrations.twilio.saved'));
      onSaved(env.data ?? null);
    } catch (err) {
      toast.error(apiErrorText(err, t('integrations.twilio.setupFailed')));
    }
  });
  const onTest = handleSubmit((values) => connectionTest.run(setupBody(values)));

  return (
    <>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('integrations.twilio.intro')}
        </Typography>
        <VoiceSettingsLink onNavigate={onNavigate} />
        <Stack component="form" id={FORM_ID} noValidate onSubmit={onSave} spacing={2.5} sx={{ pt: 2.5 }}>
          <TextField
            label={t('integrations.twilio.accountSid')}
            required
            autoComplete="off"
            placeholder="AC…"
            {...register('accountSid')}
            {...fieldProps(errors.accountSid, t('integrations.twilio.accountSidHint'))}
          />
          <TextField
            label={t('integrations.twilio.authToken')}
            type={showToken && !masked ? 'text' : 'password'}
            autoComplete="off"
            required={!storedToken}
            {...register('authToken')}
            onFocus={(e) => {
              if (e.target.value === MASKED_SECRET) e.target.select();
            }}
            {...fieldProps(
              errors.authToken,
              storedToken ? `${t('integrations.twilio.authTokenHint')} ${t('integrations.twilio.secretStoredHint')}` : t('integrations.twilio.authTokenHint'),
            )}
            slotProps={{
              input: {
                endAdornment: masked ? undefined : (
                  <InputAdornment position="end">
                    <IconButton
                      edge="end"
                      onClick={() => setShowToken((v) => !v)}
                      aria-label={showToken ? t('integrations.twilio.hideSecret') : t('integrations.twilio.showSecret')}
                    >
                      {showToken ? <VisibilityOff /> : <Visibility />}
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
          <TextField
            label={t('integrations.twilio.phoneNumber')}
            required
            type="tel"
            autoComplete="off"
            placeholder={t('integrations.twilio.phoneNumberPlaceholder')}
            {...register('phoneNumber')}
            {...fieldProps(errors.phoneNumber, t('integrations.twilio.phoneNumberHint'))}
          />
        </Stack>
      </DialogContent>
      <SetupFormActions
        name="twilio"
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

interface TwilioDialogProps {
  open: boolean;
  onClose: () => void;
  /** The stored integration (from GET /api/integrations), or null when there is none. */
  integration: IntegrationView | null;
}

export function TwilioDialog({ open, onClose, integration }: TwilioDialogProps) {
  const { t } = useTranslation();
  const disconnect = useDisconnect('twilio', 'twilio-voice', onClose);
  const storedTest = useConnectionTest('twilio', useTestTwilio());
  const connected = Boolean(integration?.isActive);
  // The result of a setup just saved in this dialog (shown until it closes).
  const [saved, setSaved] = useState<TwilioSetupResult | null>(null);
  const [justSaved, setJustSaved] = useState(false);
  const [editing, setEditing] = useState(!connected);
  const webhookUrl = saved?.webhookUrl || integration?.webhookUrl || '';
  const storedCallback = integration?.settings.statusCallbackUrl;
  const statusCallbackUrl = saved?.statusCallbackUrl || (typeof storedCallback === 'string' && storedCallback) || statusCallbackOf(webhookUrl);
  // Whether the number points at our URLs: this setup's answer, else what the last setup stored.
  const storedConfigured = integration?.settings.numberConfigured;
  const numberState: TwilioSetupResult | null = saved ?? (typeof storedConfigured === 'boolean' ? { webhookUrl, statusCallbackUrl, numberConfigured: storedConfigured } : null);

  const showForm = editing || (!integration && !justSaved);

  return (
    <IntegrationDialogFrame
      name="twilio"
      open={open}
      onClose={disconnect.close}
      title={showForm ? t('integrations.twilio.setupTitle') : t('integrations.twilio.detailsTitle')}
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
          onNavigate={onClose}
        />
      ) : (
        <>
          <DialogContent>
            <Stack spacing={2.5}>
              {justSaved && <Alert severity="success">{t('integrations.twilio.connectedNote')}</Alert>}
              {integration && <ConnectionDetails integration={integration} />}
              <WebhookDetails webhookUrl={webhookUrl} statusCallbackUrl={statusCallbackUrl} result={numberState} />
              <VoiceSettingsLink onNavigate={onClose} />
              <TestResult name="twilio" outcome={storedTest.outcome} />
            </Stack>
          </DialogContent>
          <DetailsActions
            name="twilio"
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
