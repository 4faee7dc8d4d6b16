/** /profile (SPEC §2): three tabs — Profile (read-only), Settings (edit form, and the business location of issue 31), Security (change password). */
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Stack from '@mui/material/Stack';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../shared/session';
import { usePageTitle } from '../../shared/usePageTitle';
import { ProfileInfoTab } from './ProfileInfoTab';
import { SecurityTab } from './SecurityTab';
import { SettingsTab } from './SettingsTab';
import { BusinessLocationCard } from './BusinessLocationCard';
import { AccountDeletionCard } from './AccountDeletionCard';
import { roleAtLeast } from '@agentdesk/functions/contract';
import { useMemberRole } from '../../shared/memberRole';

const TABS = ['profile', 'settings', 'security'] as const;
type TabId = (typeof TABS)[number];

export default function ProfilePage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const role = useMemberRole();
  const canSetLocation = roleAtLeast(role, 'admin');
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabId = (TABS as readonly string[]).includes(requested ?? '') ? (requested as TabId) : 'profile';
  usePageTitle(t('profile.title'));

  return (
    <Box sx={{ maxWidth: 880 }}>
      <Typography variant="h4" component="h1" sx={{ mb: 2 }}>
        {t('profile.title')}
      </Typography>
      <Tabs
        value={tab}
        onChange={(_, value: TabId) => setParams(value === 'profile' ? {} : { tab: value }, { replace: true })}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}
        variant="scrollable"
        allowScrollButtonsMobile
      >
        {TABS.map((id) => (
          <Tab key={id} value={id} label={t(`profile.tabs.${id}`)} id={`profile-tab-${id}`} aria-controls={`profile-panel-${id}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`profile-panel-${tab}`} aria-labelledby={`profile-tab-${tab}`}>
        {tab === 'profile' && <ProfileInfoTab user={user} />}
        {tab === 'settings' && (
          <Stack spacing={3}>
            <SettingsTab user={user} />
            {/* Issue 32: the business's address is the account's, kept by an admin or the owner. */}
            {canSetLocation && <BusinessLocationCard />}
            {/* Issue 33: only the owner deletes the account. */}
            {role === 'owner' && <AccountDeletionCard />}
          </Stack>
        )}
        {tab === 'security' && <SecurityTab user={user} />}
      </Box>
    </Box>
  );
}
