/**
 * The built-in Bookings tool of the Custom Tools tab (issue 30): one switch, no URL — the agent
 * finds free times, books, moves and cancels appointments in AgentDesk's own calendar. Until the
 * business has a service and a staff member (or room), a link to set them up; the Test Agent chat
 * books for the owner's profile phone, so without one a link to the profile.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import EventAvailableOutlined from '@mui/icons-material/EventAvailableOutlined';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { Agent } from '@agentdesk/functions/contract';
import { useUpdateAgent } from '../queries';
import { useBookingsSetUp } from './queries';
import { useCurrentUser } from '../../../shared/session';
import { useToast } from '../../../shared/useToast';
import { tabErrorMessage } from './messages';

export function BookingsToolCard({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const update = useUpdateAgent(agent._id);
  const setUp = useBookingsSetUp();
  const user = useCurrentUser();
  const toast = useToast();
  const on = agent.bookingsEnabled ?? false;
  // Only once the lists answered: a slow load never flashes the setup link.
  const notSetUp = setUp.data === false;

  const toggle = async (enabled: boolean) => {
    try {
      await update.mutateAsync({ bookingsEnabled: enabled });
      toast.success(t(enabled ? 'agentTabs.tools.bookings.turnedOn' : 'agentTabs.tools.bookings.turnedOff'));
    } catch (error) {
      toast.error(tabErrorMessage(error, t('agentTabs.tools.bookings.saveFailed')));
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="article" aria-labelledby="bookings-tool-title" data-testid="bookings-tool">
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <EventAvailableOutlined color="primary" aria-hidden sx={{ mt: 0.25 }} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography id="bookings-tool-title" component="h3" sx={{ fontWeight: 600 }}>
              {t('agentTabs.tools.bookings.title')}
            </Typography>
            <Chip size="small" label={t('agentTabs.tools.bookings.builtIn')} color="success" variant="outlined" />
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {t('agentTabs.tools.bookings.explanation')}
          </Typography>
        </Box>
        <FormControlLabel
          sx={{ flexShrink: 0, mr: 0 }}
          labelPlacement="start"
          label={t(on ? 'agentTabs.tools.bookings.on' : 'agentTabs.tools.bookings.off')}
          control={
            <Switch
              checked={on}
              disabled={update.isPending}
              onChange={(_, checked) => void toggle(checked)}
              slotProps={{ input: { 'aria-label': t('agentTabs.tools.bookings.switchAria') } }}
            />
          }
        />
      </Stack>
      {notSetUp && (
        <Alert severity="info" sx={{ mt: 1.5 }}>
          {t('agentTabs.tools.bookings.notSetUp')}{' '}
          <Link component={RouterLink} to="/bookings/setup">
            {t('agentTabs.tools.bookings.setUpLink')}
          </Link>
        </Alert>
      )}
      {on && !user.phoneNumber && (
        <Alert severity="info" sx={{ mt: 1.5 }}>
          {t('agentTabs.tools.bookings.testChatPhone')}{' '}
          <Link component={RouterLink} to="/profile">
            {t('agentTabs.tools.bookings.profileLink')}
          </Link>
        </Alert>
      )}
    </Paper>
  );
}
