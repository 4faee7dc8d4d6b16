/** The stats row (SPEC §3 Contact stats): total, with phone, WhatsApp contacts, my contacts. */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import ContactsOutlined from '@mui/icons-material/ContactsOutlined';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import PhoneOutlined from '@mui/icons-material/PhoneOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { useTranslation } from 'react-i18next';
import type { ContactStats } from './types';
import { formatNumber } from '../../shared/intl';

type StatColor = 'primary' | 'info' | 'success' | 'secondary';

function StatCard({ label, value, icon, color }: { label: string; value: number | undefined; icon: ReactNode; color: StatColor }) {
  const { i18n } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0 }}>
      <Box
        aria-hidden
        sx={{ width: 40, height: 40, borderRadius: 2, display: { xs: 'none', sm: 'grid' }, placeItems: 'center', flexShrink: 0, bgcolor: (theme) => alpha(theme.palette[color].main, 0.1), color: `${color}.main` }}
      >
        {icon}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700, lineHeight: 1.2 }}>
          {value === undefined ? <Skeleton width={40} /> : formatNumber(i18n.language, value)}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ lineHeight: 1.3 }}>
          {label}
        </Typography>
      </Box>
    </Paper>
  );
}

export function StatsRow({ stats }: { stats: ContactStats | undefined }) {
  const { t } = useTranslation();
  return (
    <Box
      component="section"
      aria-label={t('contacts.stats.label')}
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, mb: 3 }}
    >
      <StatCard label={t('contacts.stats.total')} value={stats?.total} icon={<ContactsOutlined />} color="primary" />
      <StatCard label={t('contacts.stats.withPhone')} value={stats?.withPhone} icon={<PhoneOutlined />} color="info" />
      <StatCard label={t('contacts.stats.waContacts')} value={stats?.waContacts} icon={<WhatsApp />} color="success" />
      <StatCard label={t('contacts.stats.myContacts')} value={stats?.myContacts} icon={<PersonAddAltOutlined />} color="secondary" />
    </Box>
  );
}
