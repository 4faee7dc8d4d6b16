/**
 * The WhatsApp Business modal (SPEC §2 Integrations, §5 WhatsApp Business setup, §7, §8): the
 * connection details when connected, else (or on Edit settings) the setup form — Bearer token,
 * Business ID, Phone ID, Phone number and the app secret (beyond the spec: it verifies the
 * webhook signatures). Stored secrets read '***' and are kept unless retyped. Test connection asks
 * the Graph API through the server; Save configures it and shows the webhook URL and verify token
 * (with copy buttons) to paste in Meta's App Dashboard; Disconnect asks first.
 */
import type { ReactNode } from 'react';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { IntegrationView, WhatsAppSetupInput, WhatsAppSetupResult } from '@agentdesk/functions/contract';
import {
  ConnectionDetailRows,
  CopyField,
  DetailsView,
  IntegrationDialogFrame,
  SecretField,
  StatusChip,
  WebhookSection,
  formatUpdatedAt,
  useConnectionTest,
  useDisconnect,
  useSetupSubmit,
  useSetupView,
  type SecretFieldProps,
} from './IntegrationDialogParts';
import { contractFieldProps as fieldProps } from '../../shared/apiTexts';
import { useSetupWhatsApp, useTestWhatsApp } from './queries';
import {
  formFromIntegration,
  setupBody,
  visibleVerifyToken,
  whatsAppForm,
  type WhatsAppFormValues,
} from './whatsappForm';
import { hasStoredSecret } from './secretForm';

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

interface SetupFormProps {
  integration: IntegrationView | null;
  onSaved: (result: WhatsAppSetupResult | null) => void;
  onCancel: () => void;
}

function SetupForm({ integration, onSaved, onCancel }: SetupFormProps) {
  const { t } = useTranslation();
  const stored = { bearerToken: hasStoredSecret(integration, 'bearerToken'), appSecret: hasStoredSecret(integration, 'appSecret') };
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<WhatsAppFormValues, unknown, WhatsAppSetupInput>({ resolver: zodResolver(whatsAppForm(stored)), defaultValues: formFromIntegration(integration) });
  const bearerToken = useWatch({ control, name: 'bearerToken' });
  const appSecret = useWatch({ control, name: 'appSecret' });
  const { formId, onSave, actions } = useSetupSubmit({
    name: 'whatsapp',
    setup: useSetupWhatsApp(),
    test: useTestWhatsApp(),
    handleSubmit,
    isSubmitting,
    toBody: setupBody,
    onSaved,
    onCancel,
  });

  return (
    <>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('integrations.whatsapp.intro')}
        </Typography>
        <Stack component="form" id={formId} noValidate onSubmit={onSave} spacing={2.5} sx={{ pt: 1 }}>
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
            placeholder={t('integrations.whatsapp.phoneNumberPlaceholder')}
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
        </Stack>
      </DialogContent>
      {actions}
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
  // The webhook details of a setup just saved in this dialog (shown until it closes).
  const view = useSetupView<WhatsAppSetupResult>(integration, onClose);
  const webhookUrl = view.saved?.webhookUrl || integration?.webhookUrl || '';
  const verifyToken = view.saved?.webhookVerifyToken || visibleVerifyToken(integration);

  return (
    <IntegrationDialogFrame
      name="whatsapp"
      open={open}
      onClose={disconnect.close}
      title={view.showForm ? t('integrations.whatsapp.setupTitle') : t('integrations.whatsapp.detailsTitle')}
    >
      {view.showForm ? (
        <SetupForm integration={integration} onSaved={view.onSaved} onCancel={view.onCancel} />
      ) : (
        <DetailsView
          name="whatsapp"
          justSaved={view.justSaved}
          spacing={2.5}
          storedTest={storedTest}
          onDisconnect={integration ? disconnect.ask : undefined}
          onEdit={view.edit}
          onClose={disconnect.close}
        >
          {integration && <ConnectionDetails integration={integration} />}
          <WebhookDetails webhookUrl={webhookUrl} verifyToken={verifyToken} />
        </DetailsView>
      )}
      {disconnect.confirmDialog}
    </IntegrationDialogFrame>
  );
}
