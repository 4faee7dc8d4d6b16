/**
 * The WhatsApp Business modal (SPEC §2 Integrations, §5 WhatsApp Business setup, §7, §8): the
 * connection details when connected, else (or on Edit settings) the setup form — Bearer token,
 * Business ID, Phone ID, Phone number and the app secret (beyond the spec: it verifies the
 * webhook signatures). Stored secrets read '***' and are kept unless retyped. Test connection asks
 * the Graph API through the server; Save configures it and shows the webhook URL and verify token
 * (with copy buttons) to paste in Meta's App Dashboard; Disconnect asks first.
 */
import TextField from '@mui/material/TextField';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { IntegrationView, WhatsAppSetupInput, WhatsAppSetupResult } from '@agentdesk/functions/contract';
import { contractFieldProps as fieldProps } from '../../shared/apiTexts';
import { ConnectionDetailRows } from './dialog/ConnectionDetailRows';
import { SecretField, type SecretFieldProps } from './dialog/SecretField';
import { SetupDialog, type IntegrationDialogProps } from './dialog/SetupDialog';
import { SetupFormContent, type SetupFormProps } from './dialog/SetupForm';
import { useSetupView } from './dialog/useSetupView';
import { CopyField, WebhookSection } from './dialog/WebhookSection';
import { useSetupWhatsApp, useTestWhatsApp } from './queries';
import {
  formFromIntegration,
  setupBody,
  visibleVerifyToken,
  whatsAppForm,
  type WhatsAppFormValues,
} from './whatsappForm';
import { hasStoredSecret } from './secretForm';
import { usePhoneFieldProps } from '../../shared/usePhoneFieldProps';

/** What Meta needs to call us: shown after a setup and on the connected card. */
function WebhookDetails({ webhookUrl, verifyToken }: { webhookUrl: string; verifyToken: string }) {
  const { t } = useTranslation();
  if (!webhookUrl && !verifyToken) return null;
  return (
    <WebhookSection name="whatsapp">
      {webhookUrl && <CopyField label={t('integrations.whatsapp.webhookUrl')} value={webhookUrl} testId="whatsapp-webhook-url" />}
      {verifyToken ? (
        <CopyField label={t('integrations.whatsapp.webhookVerifyToken')} value={verifyToken} testId="whatsapp-verify-token" />
      ) : (
        <Typography variant="caption" color="text.secondary">
          {t('integrations.whatsapp.verifyTokenHidden')}
        </Typography>
      )}
    </WebhookSection>
  );
}

function ConnectionDetails({ integration }: { integration: IntegrationView }) {
  const { t } = useTranslation();
  const values = formFromIntegration(integration);
  const notSet = t('integrations.whatsapp.notSet');
  const stored = (key: string) => (hasStoredSecret(integration, key) ? t('integrations.whatsapp.secretStored') : notSet);
  return (
    <ConnectionDetailRows
      name="whatsapp"
      integration={integration}
      rows={[
        [t('integrations.whatsapp.phoneNumber'), values.phoneNumber || notSet],
        [t('integrations.whatsapp.businessId'), values.businessId || notSet],
        [t('integrations.whatsapp.phoneId'), values.phoneId || notSet],
        [t('integrations.whatsapp.bearerToken'), stored('bearerToken')],
        [t('integrations.whatsapp.appSecret'), stored('appSecret')],
      ]}
    />
  );
}

/** The WhatsApp texts around the shared secret input: the hint says a stored secret is kept. */
function WhatsAppSecretField({ hint, ...props }: Omit<SecretFieldProps, 'helperText' | 'showLabel' | 'hideLabel'> & { hint: string }) {
  const { t } = useTranslation();
  return (
    <SecretField
      {...props}
      helperText={props.stored ? `${hint} ${t('integrations.whatsapp.secretStoredHint')}` : hint}
      showLabel={t('integrations.whatsapp.showSecret', { field: props.label })}
      hideLabel={t('integrations.whatsapp.hideSecret', { field: props.label })}
    />
  );
}

function SetupForm({ integration, ...done }: SetupFormProps<WhatsAppSetupResult>) {
  const { t } = useTranslation();
  const phone = usePhoneFieldProps();
  const stored = { bearerToken: hasStoredSecret(integration, 'bearerToken'), appSecret: hasStoredSecret(integration, 'appSecret') };
  const form = useForm<WhatsAppFormValues, unknown, WhatsAppSetupInput>({ resolver: zodResolver(whatsAppForm(stored)), defaultValues: formFromIntegration(integration) });
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const bearerToken = useWatch({ control, name: 'bearerToken' });
  const appSecret = useWatch({ control, name: 'appSecret' });

  return (
    <SetupFormContent
      name="whatsapp"
      form={form}
      setup={useSetupWhatsApp()}
      test={useTestWhatsApp()}
      toBody={setupBody}
      {...done}
      formSx={{ pt: 1 }}
      intro={
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('integrations.whatsapp.intro')}
        </Typography>
      }
    >
      <WhatsAppSecretField
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
        placeholder={phone.placeholder ?? t('integrations.whatsapp.phoneNumberPlaceholder')}
        slotProps={{ input: { startAdornment: phone.startAdornment } }}
        {...register('phoneNumber')}
        {...fieldProps(errors.phoneNumber, t('integrations.whatsapp.phoneNumberHint'))}
      />
      <WhatsAppSecretField
        label={t('integrations.whatsapp.appSecret')}
        registration={register('appSecret')}
        value={appSecret}
        stored={stored.appSecret}
        error={errors.appSecret}
        hint={t('integrations.whatsapp.appSecretHint')}
      />
    </SetupFormContent>
  );
}

export function WhatsAppDialog({ open, onClose, integration }: IntegrationDialogProps) {
  // The webhook details of a setup just saved in this dialog (shown until it closes).
  const view = useSetupView<WhatsAppSetupResult>(integration, onClose);
  const webhookUrl = view.saved?.webhookUrl || integration?.webhookUrl || '';
  const verifyToken = view.saved?.webhookVerifyToken || visibleVerifyToken(integration);

  return (
    <SetupDialog
      name="whatsapp"
      type="whatsapp-business"
      open={open}
      onClose={onClose}
      test={useTestWhatsApp()}
      showForm={view.showForm}
      form={<SetupForm integration={integration} onSaved={view.onSaved} onCancel={view.onCancel} />}
      justSaved={view.justSaved}
      canDisconnect={Boolean(integration)}
      onEdit={view.edit}
      detailsSpacing={2.5}
    >
      {integration && <ConnectionDetails integration={integration} />}
      <WebhookDetails webhookUrl={webhookUrl} verifyToken={verifyToken} />
    </SetupDialog>
  );
}
