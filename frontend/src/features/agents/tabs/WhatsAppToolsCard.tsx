/**
 * The built-in WhatsApp tools of the Custom Tools tab (issue 31): three switches — send files the
 * owner marked "can be sent to customers", send the business location of the profile, offer
 * options as reply buttons or a list. Each saves on its own (only that switch is sent). When
 * sending files is on without a file to send, or the location without one saved, the card says
 * so and links to where to fix it.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { WHATSAPP_TOOLS_OFF, type Agent, type AgentWhatsAppTools } from '@agentdesk/functions/contract';
import { useBusinessLocation } from '../../../api/businessLocation';
import { useToast } from '../../../shared/useToast';
import { useUpdateAgent } from '../queries';
import { BuiltInToolCard } from './BuiltInToolCard';
import { tabErrorMessage } from './messages';

const SWITCHES = ['sendFiles', 'sendLocation', 'offerChoices'] as const satisfies readonly (keyof AgentWhatsAppTools)[];
type SwitchName = (typeof SWITCHES)[number];

export function WhatsAppToolsCard({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const update = useUpdateAgent(agent._id);
  const toast = useToast();
  const tools = agent.whatsappTools ?? WHATSAPP_TOOLS_OFF;
  const location = useBusinessLocation();
  const sendable = agent.files.filter((f) => f.shareable && f.status === 'completed').length;

  const toggle = async (name: SwitchName, on: boolean) => {
    try {
      await update.mutateAsync({ whatsappTools: { [name]: on } });
      toast.success(t(on ? 'agentTabs.tools.whatsapp.turnedOn' : 'agentTabs.tools.whatsapp.turnedOff', { tool: t(`agentTabs.tools.whatsapp.${name}.title`) }));
    } catch (error) {
      toast.error(tabErrorMessage(error, t('agentTabs.tools.whatsapp.saveFailed')));
    }
  };

  return (
    <BuiltInToolCard
      id="whatsapp-tools"
      testId="whatsapp-tools"
      icon={<WhatsApp color="success" aria-hidden sx={{ mt: 0.25 }} />}
      title={t('agentTabs.tools.whatsapp.title')}
      explanation={t('agentTabs.tools.whatsapp.explanation')}
    >
      <Stack divider={<Divider flexItem />} sx={{ mt: 1 }}>
        {SWITCHES.map((name) => {
          const on = tools[name];
          const id = `whatsapp-tool-${name}`;
          return (
            <Box key={name} sx={{ py: 1 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography id={`${id}-label`} sx={{ fontWeight: 500 }}>
                    {t(`agentTabs.tools.whatsapp.${name}.title`)}
                  </Typography>
                  <Typography id={`${id}-help`} variant="body2" color="text.secondary">
                    {t(`agentTabs.tools.whatsapp.${name}.explanation`)}
                  </Typography>
                </Box>
                <Switch
                  checked={on}
                  disabled={update.isPending}
                  onChange={(_, checked) => void toggle(name, checked)}
                  slotProps={{ input: { 'aria-labelledby': `${id}-label`, 'aria-describedby': `${id}-help` } }}
                  sx={{ flexShrink: 0 }}
                />
              </Stack>
              {name === 'sendFiles' && on && sendable === 0 && (
                <Alert severity="info" sx={{ mt: 1 }}>
                  {t('agentTabs.tools.whatsapp.noSendableFiles')}{' '}
                  <Link component={RouterLink} to="?tab=files">
                    {t('agentTabs.tools.whatsapp.filesLink')}
                  </Link>
                </Alert>
              )}
              {name === 'sendLocation' && on && location.isError && (
                <Alert severity="warning" sx={{ mt: 1 }}>
                  {t('agentTabs.tools.whatsapp.locationLoadFailed')}
                </Alert>
              )}
              {name === 'sendLocation' && on && location.data === null && (
                <Alert severity="info" sx={{ mt: 1 }} data-testid="whatsapp-tools-no-location">
                  {t('agentTabs.tools.whatsapp.noLocation')}{' '}
                  <Link component={RouterLink} to="/profile?tab=settings#business-location">
                    {t('agentTabs.tools.whatsapp.locationLink')}
                  </Link>
                </Alert>
              )}
              {name === 'sendLocation' && on && location.data && (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {t('agentTabs.tools.whatsapp.locationIs', { name: location.data.name, address: location.data.address })}
                </Typography>
              )}
            </Box>
          );
        })}
      </Stack>
    </BuiltInToolCard>
  );
}
