/**
 * /integrations (SPEC §2 Integrations): cards for WhatsApp Business, ChatGPT and Twilio Voice with
 * their status (GET /api/integrations), plus 'More integrations coming soon'. WhatsApp Business
 * ChatGPT and Twilio Voice open their modals (the Twilio card and modal also link to /voice-settings).
 * A card whose setup is not offered shows the 'Contact support' badge and a disabled 'Not Available'.
 */
import { useState, type ReactNode } from 'react';
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
import PhoneInTalkOutlined from '@mui/icons-material/PhoneInTalkOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { IntegrationType, IntegrationView } from '@agentdesk/functions/contract';
import { useIntegrations } from '../../api/integrations';
import { RetryAlert } from '../../shared/RetryAlert';
import { usePageTitle } from '../../shared/usePageTitle';
import './i18n';
import { ChatGptDialog } from './ChatGptDialog';
import { TwilioDialog } from './TwilioDialog';
import { WhatsAppDialog } from './WhatsAppDialog';
import { apiErrorText } from '../../shared/apiTexts';

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
  icon: ReactNode;
  iconColor: string;
  name: string;
  description: ReactNode;
  connected: boolean;
  /** Cards whose setup is not offered yet: 'Contact support' badge and a disabled 'Not Available'. */
  available: boolean;
  children?: ReactNode;
  action?: ReactNode;
}

function IntegrationCard({ type, icon, iconColor, name, description, connected, available, children, action }: IntegrationCardProps) {
  const { t } = useTranslation();
  return (
    <Card component="section" aria-labelledby={`integration-${type}`} data-testid={`integration-${type}`} sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <CardContent sx={{ flex: 1 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1.5 }}>
          <Box sx={{ width: 44, height: 44, borderRadius: 2, display: 'grid', placeItems: 'center', bgcolor: iconColor, color: '#fff', flexShrink: 0 }} aria-hidden>
            {icon}
          </Box>
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography id={`integration-${type}`} variant="h6" component="h2" sx={{ lineHeight: 1.25 }}>
              {name}
            </Typography>
          </Box>
        </Stack>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 1.5 }}>
          <StatusChip connected={connected} />
          {!available && <Chip size="small" color="warning" variant="outlined" icon={<SupportAgentOutlined />} label={t('integrations.contactSupport')} />}
        </Stack>
        <Typography variant="body2" color="text.secondary" component="div">
          {description}
        </Typography>
        {children}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        {available ? (
          action
        ) : (
          <Button variant="outlined" fullWidth disabled>
            {t('integrations.notAvailable')}
          </Button>
        )}
      </CardActions>
    </Card>
  );
}

function ComingSoonCard() {
  const { t } = useTranslation();
  return (
    <Card sx={{ height: '100%', borderStyle: 'dashed', bgcolor: 'transparent', display: 'grid', placeItems: 'center' }} data-testid="integration-coming-soon">
      <CardContent sx={{ textAlign: 'center', py: 5 }}>
        <AddCircleOutline color="disabled" sx={{ fontSize: 40, mb: 1 }} aria-hidden />
        <Typography variant="h6" component="h2">
          {t('integrations.comingSoon.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('integrations.comingSoon.body')}
        </Typography>
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
  const [dialog, setDialog] = useState<{ open: boolean; key: number }>({ open: false, key: 0 });
  const [whatsappDialog, setWhatsappDialog] = useState<{ open: boolean; key: number }>({ open: false, key: 0 });
  const [twilioDialog, setTwilioDialog] = useState<{ open: boolean; key: number }>({ open: false, key: 0 });

  const byType = (type: IntegrationType): IntegrationView | null => list.data?.find((i) => i.type === type) ?? null;
  const chatgpt = byType('chatgpt');
  const chatgptConnected = Boolean(chatgpt?.isActive);
  const whatsapp = byType('whatsapp-business');
  const whatsappConnected = Boolean(whatsapp?.isActive);
  const whatsappPhone = typeof whatsapp?.settings.phoneNumber === 'string' ? whatsapp.settings.phoneNumber : '';
  const twilio = byType('twilio-voice');
  const twilioConnected = Boolean(twilio?.isActive);
  const twilioPhone = [twilio?.settings.phoneNumber, twilio?.credentials.phoneNumber].find((v): v is string => typeof v === 'string' && v !== '') ?? '';

  let body: ReactNode;
  if (list.isPending) {
    body = (
      <Box sx={GRID_SX} aria-busy="true" aria-label={t('app.loading')}>
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
        <IntegrationCard
          type="whatsapp-business"
          icon={<WhatsApp />}
          iconColor="#25d366"
          name={t('integrations.whatsapp.name')}
          description={t('integrations.whatsapp.description')}
          connected={whatsappConnected}
          available
          action={
            <Button variant={whatsappConnected ? 'outlined' : 'contained'} fullWidth onClick={() => setWhatsappDialog((d) => ({ open: true, key: d.key + 1 }))}>
              {whatsappConnected ? t('integrations.manage') : t('integrations.connect')}
            </Button>
          }
        >
          {whatsappConnected && whatsappPhone && (
            <Typography variant="body2" sx={{ mt: 1.5 }}>
              {t('integrations.whatsapp.phoneNumberShown', { phone: whatsappPhone })}
            </Typography>
          )}
        </IntegrationCard>
        <IntegrationCard
          type="chatgpt"
          icon={<SmartToyOutlined />}
          iconColor="#10a37f"
          name={t('integrations.chatgpt.name')}
          description={t('integrations.chatgpt.description')}
          connected={chatgptConnected}
          available
          action={
            <Button variant={chatgptConnected ? 'outlined' : 'contained'} fullWidth onClick={() => setDialog((d) => ({ open: true, key: d.key + 1 }))}>
              {chatgptConnected ? t('integrations.manage') : t('integrations.connect')}
            </Button>
          }
        >
          {chatgptConnected && chatgpt && (
            <Typography variant="body2" sx={{ mt: 1.5 }}>
              {t('integrations.chatgpt.usingModel', { model: typeof chatgpt.settings.model === 'string' ? chatgpt.settings.model : '' })}
            </Typography>
          )}
        </IntegrationCard>
        <IntegrationCard
          type="twilio-voice"
          icon={<PhoneInTalkOutlined />}
          iconColor="#f22f46"
          name={t('integrations.twilio.name')}
          description={t('integrations.twilio.description')}
          connected={twilioConnected}
          available
          action={
            <Button variant={twilioConnected ? 'outlined' : 'contained'} fullWidth onClick={() => setTwilioDialog((d) => ({ open: true, key: d.key + 1 }))}>
              {twilioConnected ? t('integrations.manage') : t('integrations.connect')}
            </Button>
          }
        >
          {twilioConnected && twilioPhone && (
            <Typography variant="body2" sx={{ mt: 1.5 }}>
              {t('integrations.whatsapp.phoneNumberShown', { phone: twilioPhone })}
            </Typography>
          )}
          <Link component={RouterLink} to="/voice-settings" variant="body2" sx={{ display: 'inline-block', mt: 1.5 }}>
            {t('integrations.twilio.voiceSettings')}
          </Link>
        </IntegrationCard>
        <ComingSoonCard />
      </Box>
    );
  }

  return (
    <Box>
      <Box sx={{ mb: 3 }}>
        <Typography variant="h4" component="h1">
          {t('integrations.title')}
        </Typography>
        <Typography color="text.secondary">{t('integrations.subtitle')}</Typography>
      </Box>
      {body}
      <WhatsAppDialog
        key={`whatsapp-${whatsappDialog.key}`}
        open={whatsappDialog.open}
        onClose={() => setWhatsappDialog((d) => ({ ...d, open: false }))}
        integration={whatsapp}
      />
      <TwilioDialog
        key={`twilio-${twilioDialog.key}`}
        open={twilioDialog.open}
        onClose={() => setTwilioDialog((d) => ({ ...d, open: false }))}
        integration={twilio}
      />
      <ChatGptDialog key={dialog.key} open={dialog.open} onClose={() => setDialog((d) => ({ ...d, open: false }))} integration={chatgpt} />
    </Box>
  );
}
