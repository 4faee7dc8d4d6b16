/**
 * The built-in Bookings tool of the Custom Tools tab (issue 30): one switch, no URL — the agent
 * finds free times, books, moves and cancels appointments in AgentDesk's own calendar. Until the
 * business has a service and a staff member (or room), a link to set them up; the Test Agent chat
 * books for the owner's profile phone, so without one a link to the profile.
 */
import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Switch from '@mui/material/Switch';
import EventAvailableOutlined from '@mui/icons-material/EventAvailableOutlined';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { Agent } from '@agentdesk/functions/contract';
import { useUpdateAgent } from '../queries';
import { useBookingsSetUp } from './queries';
import { useCurrentUser } from '../../../shared/session';
import { useToast } from '../../../shared/useToast';
import { BuiltInToolCard } from './BuiltInToolCard';
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
    <BuiltInToolCard
      id="bookings-tool"
      testId="bookings-tool"
      icon={<EventAvailableOutlined color="primary" aria-hidden sx={{ mt: 0.25 }} />}
      title={t('agentTabs.tools.bookings.title')}
      explanation={t('agentTabs.tools.bookings.explanation')}
      action={
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
      }
    >
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
    </BuiltInToolCard>
  );
}
