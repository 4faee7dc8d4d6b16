/**
 * The Twilio Voice modal (SPEC §2 Integrations, §5 Twilio Voice, §7, §8): the connection details
 * when connected, else (or on Edit settings) the setup form — Account SID, Auth Token (a stored
 * token reads '***' and is kept unless retyped) and the phone number in E.164. Test connection asks
 * Twilio's REST API through the server; Save configures it and shows the voice webhook and status
 * callback URLs (with copy buttons) and whether the number was pointed at them; Disconnect asks
 * first. The modal links to /voice-settings (greetings, voice, the phone number request).
 */
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { IntegrationView, TwilioSetupInput, TwilioSetupResult } from '@agentdesk/functions/contract';
import { ConnectionDetailRows } from './dialog/ConnectionDetailRows';
import { SecretField } from './dialog/SecretField';
import { SetupDialog, type IntegrationDialogProps } from './dialog/SetupDialog';
import { SetupFormContent, type SetupFormProps } from './dialog/SetupForm';
import { useSetupView } from './dialog/useSetupView';
import { CopyField, WebhookSection } from './dialog/WebhookSection';
import { contractFieldProps as fieldProps, translateContractText } from '../../shared/apiTexts';
import { useSetupTwilio, useTestTwilio } from './queries';
import { formFromIntegration, setupBody, statusCallbackOf, twilioForm, type TwilioFormValues } from './twilioForm';
import { hasStoredSecret } from './secretForm';
import { usePhoneFieldProps } from '../../shared/usePhoneFieldProps';

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
    <WebhookSection name="twilio">
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
    </WebhookSection>
  );
}

function ConnectionDetails({ integration }: { integration: IntegrationView }) {
  const { t } = useTranslation();
  const values = formFromIntegration(integration);
  const notSet = t('integrations.twilio.notSet');
  return (
    <ConnectionDetailRows
      name="twilio"
      integration={integration}
      rows={[
        [t('integrations.twilio.accountSid'), values.accountSid || notSet],
        [t('integrations.twilio.authToken'), hasStoredSecret(integration, 'authToken') ? t('integrations.twilio.secretStored') : notSet],
        [t('integrations.twilio.phoneNumber'), values.phoneNumber || notSet],
      ]}
    />
  );
}

function SetupForm({ integration, onNavigate, ...done }: SetupFormProps<TwilioSetupResult> & { onNavigate: () => void }) {
  const { t } = useTranslation();
  const phone = usePhoneFieldProps();
  const storedToken = hasStoredSecret(integration, 'authToken');
  const form = useForm<TwilioFormValues, unknown, TwilioSetupInput>({ resolver: zodResolver(twilioForm(storedToken)), defaultValues: formFromIntegration(integration) });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const authToken = useWatch({ control, name: 'authToken' });

  return (
    <SetupFormContent
      name="twilio"
      form={form}
      setup={useSetupTwilio()}
      test={useTestTwilio()}
      toBody={setupBody}
      {...done}
      formSx={{ pt: 2.5 }}
      intro={
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('integrations.twilio.intro')}
          </Typography>
          <VoiceSettingsLink onNavigate={onNavigate} />
        </>
      }
    >
      <TextField
        label={t('integrations.twilio.accountSid')}
        required
        autoComplete="off"
        placeholder="AC…"
        {...register('accountSid')}
        {...fieldProps(errors.accountSid, t('integrations.twilio.accountSidHint'))}
      />
      <SecretField
        label={t('integrations.twilio.authToken')}
        registration={register('authToken')}
        value={authToken}
        stored={storedToken}
        error={errors.authToken}
        helperText={storedToken ? `${t('integrations.twilio.authTokenHint')} ${t('integrations.twilio.secretStoredHint')}` : t('integrations.twilio.authTokenHint')}
        showLabel={t('integrations.twilio.showSecret')}
        hideLabel={t('integrations.twilio.hideSecret')}
      />
      <TextField
        label={t('integrations.twilio.phoneNumber')}
        required
        type="tel"
        autoComplete="off"
        placeholder={phone.placeholder ?? t('integrations.twilio.phoneNumberPlaceholder')}
        slotProps={{ input: { startAdornment: phone.startAdornment } }}
        {...register('phoneNumber')}
        {...fieldProps(errors.phoneNumber, t('integrations.twilio.phoneNumberHint'))}
      />
    </SetupFormContent>
  );
}

export function TwilioDialog({ open, onClose, integration }: IntegrationDialogProps) {
  const view = useSetupView<TwilioSetupResult>(integration, onClose);
  const { saved } = view;
  const webhookUrl = saved?.webhookUrl || integration?.webhookUrl || '';
  const storedCallback = integration?.settings.statusCallbackUrl;
  const statusCallbackUrl = saved?.statusCallbackUrl || (typeof storedCallback === 'string' && storedCallback) || statusCallbackOf(webhookUrl);
  // Whether the number points at our URLs: this setup's answer, else what the last setup stored.
  const storedConfigured = integration?.settings.numberConfigured;
  const numberState: TwilioSetupResult | null = saved ?? (typeof storedConfigured === 'boolean' ? { webhookUrl, statusCallbackUrl, numberConfigured: storedConfigured } : null);

  return (
    <SetupDialog
      name="twilio"
      type="twilio-voice"
      open={open}
      onClose={onClose}
      test={useTestTwilio()}
      showForm={view.showForm}
      form={<SetupForm integration={integration} onSaved={view.onSaved} onCancel={view.onCancel} onNavigate={onClose} />}
      justSaved={view.justSaved}
      canDisconnect={Boolean(integration)}
      onEdit={view.edit}
      detailsSpacing={2.5}
    >
      {integration && <ConnectionDetails integration={integration} />}
      <WebhookDetails webhookUrl={webhookUrl} statusCallbackUrl={statusCallbackUrl} result={numberState} />
      <VoiceSettingsLink onNavigate={onClose} />
    </SetupDialog>
  );
}
