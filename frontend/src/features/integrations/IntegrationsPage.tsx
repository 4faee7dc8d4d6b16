/**
 * /integrations (SPEC §2 Integrations): cards for WhatsApp Business, ChatGPT and Twilio Voice with
 * their status (GET /api/integrations), plus 'More integrations coming soon'. WhatsApp Business
 * ChatGPT and Twilio Voice open their modals (the Twilio card and modal also link to /voice-settings).
 * A card whose setup is not offered shows the 'Contact support' badge and a disabled 'Not Available'.
 * An integration whose credentials were refused (issue 34) shows 'Needs attention', the reason with
 * the provider's code, and how to fix it.
 */
import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddCircleOutline from '@mui/icons-material/AddCircleOutline';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import PhoneInTalkOutlined from '@mui/icons-material/PhoneInTalkOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { IntegrationType, IntegrationView } from '@agentdesk/functions/contract';
import { twilioNumberOf, useIntegrations } from '../../api/integrations';
import { PageHeader } from '../../shared/PageHeader';
import { RetryAlert } from '../../shared/RetryAlert';
import { SectionHeading } from '../../shared/SectionHeading';
import { usePageTitle } from '../../shared/usePageTitle';
import './i18n';
import { ChatGptDialog } from './ChatGptDialog';
import { TwilioDialog } from './TwilioDialog';
import { WhatsAppDialog } from './WhatsAppDialog';
import { GoogleCalendarCard } from './google-calendar/GoogleCalendarCard';
import type { IntegrationDialogName } from './dialog/names';
import { textOf } from './secretForm';
import { apiErrorText } from '../../shared/apiTexts';
import { healthFixText, healthLine } from '../../shared/integrationHealth';

function StatusChip({ connected }: { connected: boolean }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color={connected ? 'success' : 'default'}
      variant={connected ? 'filled' : 'outlined'}
      label={connected ? t('integrations.status.connected') : t('integrations.status.notConnected')}
      sx={{ fontWeight: 600 }}
    />
  );
}

interface IntegrationCardProps {
  type: IntegrationType;
  /** Its texts: `integrations.<name>.name` / `description`. */
  name: IntegrationDialogName;
  icon: ReactNode;
  iconColor: string;
  /** The stored integration, or null when there is none. */
  integration: IntegrationView | null;
  /** A line under the description while connected (the number, the model in use). */
  note?: string;
  /** Opens the modal (Connect / Manage); without it the setup is not offered: 'Contact support' badge and a disabled 'Not Available'. */
  onOpen?: () => void;
  children?: ReactNode;
}

/**
 * Issue 34: the stored credentials were refused (a revoked token, a deleted or exhausted key): the
 * reason with the provider's code, and how to fix it.
 */
function HealthNotice({ health }: { health: NonNullable<IntegrationView['health']> }) {
  const { t } = useTranslation();
  return (
    <Alert severity="warning" sx={{ mt: 1.5 }} data-testid="integration-health">
      <AlertTitle sx={{ fontSize: '0.875rem' }}>{healthLine(health.reason, health.code)}</AlertTitle>
      <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
        {t('integrationHealth.howToFix')}:
      </Typography>{' '}
      <Typography variant="body2" component="span" data-testid="integration-health-fix">
        {healthFixText(health.reason)}
      </Typography>
    </Alert>
  );
}

function IntegrationCard({ type, name, icon, iconColor, integration, note, onOpen, children }: IntegrationCardProps) {
  const { t } = useTranslation();
  const connected = Boolean(integration?.isActive);
  const health = integration?.health;
  return (
    <Card component="section" aria-labelledby={`integration-${type}`} data-testid={`integration-${type}`} sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <CardContent sx={{ flex: 1 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1.5 }}>
          <Box sx={{ width: 44, height: 44, borderRadius: 2, display: 'grid', placeItems: 'center', bgcolor: iconColor, color: '#fff', flexShrink: 0 }} aria-hidden>
            {icon}
          </Box>
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography id={`integration-${type}`} variant="h6" component="h2" sx={{ lineHeight: 1.25 }}>
              {t(`integrations.${name}.name`)}
            </Typography>
          </Box>
        </Stack>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 1.5 }}>
          <StatusChip connected={connected} />
          {health && (
            <Chip size="small" color="warning" icon={<ErrorOutline />} label={t('integrationHealth.needsAttention')} data-testid="integration-needs-attention" sx={{ fontWeight: 600 }} />
          )}
          {!onOpen && <Chip size="small" color="warning" variant="outlined" icon={<SupportAgentOutlined />} label={t('integrations.contactSupport')} />}
        </Stack>
        <Typography variant="body2" color="text.secondary" component="div">
          {t(`integrations.${name}.description`)}
        </Typography>
        {connected && note && (
          <Typography variant="body2" sx={{ mt: 1.5 }}>
            {note}
          </Typography>
        )}
        {health && <HealthNotice health={health} />}
        {children}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        {onOpen ? (
          <Button variant={connected ? 'outlined' : 'contained'} fullWidth onClick={onOpen}>
            {connected ? t('integrations.manage') : t('integrations.connect')}
          </Button>
        ) : (
          <Button variant="outlined" fullWidth disabled>
            {t('integrations.notAvailable')}
          </Button>
        )}
      </CardActions>
    </Card>
  );
}

/** A modal that opens afresh each time: a new key remounts it from the stored integration. */
function useModal() {
  const [state, setState] = useState({ open: false, key: 0 });
  return {
    ...state,
    show: () => setState((d) => ({ open: true, key: d.key + 1 })),
    onClose: () => setState((d) => ({ ...d, open: false })),
  };
}

function ComingSoonCard() {
  const { t } = useTranslation();
  return (
    <Card sx={{ height: '100%', borderStyle: 'dashed', bgcolor: 'transparent', display: 'grid', placeItems: 'center' }} data-testid="integration-coming-soon">
      <CardContent sx={{ textAlign: 'center', py: 5 }}>
        <AddCircleOutline color="disabled" sx={{ fontSize: 40, mb: 1 }} aria-hidden />
        <SectionHeading title={t('integrations.comingSoon.title')} text={t('integrations.comingSoon.body')} />
      </CardContent>
    </Card>
  );
}

const GRID_SX = {
  display: 'grid',
  gap: 3,
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
} as const;

export default function IntegrationsPage() {
  const { t } = useTranslation();
  usePageTitle(t('integrations.title'));
  const list = useIntegrations();
  const chatgptModal = useModal();
  const whatsappModal = useModal();
  const twilioModal = useModal();

  const byType = (type: IntegrationType): IntegrationView | null => list.data?.find((i) => i.type === type) ?? null;
  const chatgpt = byType('chatgpt');
  const whatsapp = byType('whatsapp-business');
  const whatsappPhone = textOf(whatsapp?.settings.phoneNumber);
  const twilio = byType('twilio-voice');
  const twilioPhone = twilioNumberOf(twilio);
  const cards: IntegrationCardProps[] = [
    {
      type: 'whatsapp-business',
      name: 'whatsapp',
      icon: <WhatsApp />,
      iconColor: '#25d366',
      integration: whatsapp,
      note: whatsappPhone && t('integrations.whatsapp.phoneNumberShown', { phone: whatsappPhone }),
      onOpen: whatsappModal.show,
    },
    {
      type: 'chatgpt',
      name: 'chatgpt',
      icon: <SmartToyOutlined />,
      iconColor: '#10a37f',
      integration: chatgpt,
      note: t('integrations.chatgpt.usingModel', { model: textOf(chatgpt?.settings.model) }),
      onOpen: chatgptModal.show,
    },
    {
      type: 'twilio-voice',
      name: 'twilio',
      icon: <PhoneInTalkOutlined />,
      iconColor: '#f22f46',
      integration: twilio,
      note: twilioPhone && t('integrations.whatsapp.phoneNumberShown', { phone: twilioPhone }),
      onOpen: twilioModal.show,
      children: (
        <Link component={RouterLink} to="/voice-settings" variant="body2" sx={{ display: 'inline-block', mt: 1.5 }}>
          {t('integrations.twilio.voiceSettings')}
        </Link>
      ),
    },
  ];

  let body: ReactNode;
  if (list.isPending) {
    body = (
      <Box sx={GRID_SX} role="status" aria-busy="true" aria-label={t('app.loading')}>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} variant="rounded" height={240} />
        ))}
      </Box>
    );
  } else if (list.isError) {
    body = (
      <RetryAlert retryLabel={t('integrations.retry')} onRetry={() => void list.refetch()}>
        {apiErrorText(list.error, t('integrations.loadFailed'))}
      </RetryAlert>
    );
  } else {
    body = (
      <Box sx={GRID_SX}>
        {cards.map((card) => (
          <IntegrationCard key={card.type} {...card} />
        ))}
        <GoogleCalendarCard />
        <ComingSoonCard />
      </Box>
    );
  }

  return (
    <Box>
      <PageHeader title={t('integrations.title')} subtitle={t('integrations.subtitle')} />
      {body}
      <WhatsAppDialog key={`whatsapp-${whatsappModal.key}`} open={whatsappModal.open} onClose={whatsappModal.onClose} integration={whatsapp} />
      <TwilioDialog key={`twilio-${twilioModal.key}`} open={twilioModal.open} onClose={twilioModal.onClose} integration={twilio} />
      <ChatGptDialog key={chatgptModal.key} open={chatgptModal.open} onClose={chatgptModal.onClose} integration={chatgpt} />
    </Box>
  );
}
