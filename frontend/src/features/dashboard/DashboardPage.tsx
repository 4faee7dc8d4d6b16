/**
 * / — the dashboard (SPEC §2 Dashboard, §8, §9): the heading with the time-range selector (Last 7
 * days by default, Last 30 days), three summary cards (Total Voice Calls, Completed Calls, Total
 * Contacts), the 'Voice Calls - Last 30 Days' bar chart (lazy: @mui/x-charts loads only here)
 * beside the Top phone numbers, the three duration cards ('Nm Ns' or seconds), Recent Activity
 * ('Just now' under an hour, 'Nh ago' under a day, else a date) and the agents banner; beyond the
 * spec (issue 16) the period's median response time of real-time calls beside them. First load:
 * 'Loading dashboard...'; failure: 'Error Loading Dashboard' with Try Again (refetch). Issue 30: the
 * bookings made by the agent in the period (AgentBookingsCard) below the summary cards. Figures come
 * from GET /api/dashboard; days follow the profile's time zone.
 */
import { lazy, Suspense, useState, type ReactNode } from 'react';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import AccessTimeOutlined from '@mui/icons-material/AccessTimeOutlined';
import ContactsOutlined from '@mui/icons-material/ContactsOutlined';
import PhoneCallbackOutlined from '@mui/icons-material/PhoneCallbackOutlined';
import PhoneInTalkOutlined from '@mui/icons-material/PhoneInTalkOutlined';
import PhoneOutlined from '@mui/icons-material/PhoneOutlined';
import SpeedOutlined from '@mui/icons-material/SpeedOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import TimerOutlined from '@mui/icons-material/TimerOutlined';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import {
  DASHBOARD_DEFAULT_FILTER,
  DASHBOARD_TIME_FILTERS,
  type DashboardData,
  type DashboardRecentActivity,
  type DashboardTimeFilter,
} from '@agentdesk/functions/contract';
import { PageHeader } from '../../shared/PageHeader';
import { RetryAlert } from '../../shared/RetryAlert';
import { useNow } from '../../shared/useNow';
import { usePageTitle } from '../../shared/usePageTitle';
import { formatPhone } from '../../shared/phone';
import './i18n';
import { activityDate, activityTime, formatAverage, formatCallDuration } from './format';
import { useDashboard } from './queries';
import { GettingStarted, ShowGettingStarted } from './getting-started/GettingStarted';
import { WhatsAppSection } from './WhatsAppSection';
import { AgentBookingsCard } from './AgentBookingsCard';
import { formatNumber } from '../../shared/intl';
import { formatLatency } from '../../shared/latency';
import { canOpenPage, useMemberRole } from '../../shared/memberRole';

const CallsChart = lazy(() => import('./CallsChart'));

type CardColor = 'primary' | 'success' | 'info' | 'secondary' | 'warning';

const STATUS_COLOR: Record<string, 'success' | 'info' | 'warning' | 'error' | 'default'> = {
  active: 'info',
  completed: 'success',
  hung_up: 'warning',
  failed: 'error',
  archived: 'default',
};

function StatCard({ id, label, value, hint, icon, color }: { id: string; label: string; value: string; hint?: string; icon: ReactNode; color: CardColor }) {
  return (
    <Paper variant="outlined" sx={{ p: 2.5, display: 'flex', alignItems: 'center', gap: 2, minWidth: 0 }} data-testid={`stat-${id}`}>
      <Box
        aria-hidden
        sx={{ width: 48, height: 48, borderRadius: 2, display: 'grid', placeItems: 'center', flexShrink: 0, bgcolor: (theme) => alpha(theme.palette[color].main, 0.1), color: `${color}.main` }}
      >
        {icon}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary" sx={{ lineHeight: 1.3 }}>
          {label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700, lineHeight: 1.3 }} data-testid="stat-value">
          {value}
        </Typography>
        {hint && (
          <Typography variant="caption" color="text.secondary">
            {hint}
          </Typography>
        )}
      </Box>
    </Paper>
  );
}

function Section({ title, caption, children, testId }: { title: string; caption?: string; children: ReactNode; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2.5, minWidth: 0 }} component="section" aria-label={title} data-testid={testId}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {caption && (
        <Typography variant="body2" color="text.secondary">
          {caption}
        </Typography>
      )}
      <Box sx={{ mt: 2 }}>{children}</Box>
    </Paper>
  );
}

function EmptyText({ text, testId }: { text: string; testId: string }) {
  return (
    <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }} data-testid={testId}>
      {text}
    </Typography>
  );
}

function StatusChip({ status }: { status: string }) {
  const { t } = useTranslation();
  return <Chip size="small" color={STATUS_COLOR[status] ?? 'default'} label={t(`dashboard.status.${status}`, { defaultValue: status })} data-testid="activity-status" />;
}

function useActivityWhen(timeZone: string, now: number) {
  const { t, i18n } = useTranslation();
  return (iso: string): string => {
    const when = activityTime(iso, now);
    if (!when) return '';
    if (when.unit === 'now') return t('dashboard.recent.justNow');
    if (when.unit === 'hours') return t('dashboard.recent.hoursAgo', { count: when.count });
    return activityDate(when.date, i18n.language, timeZone);
  };
}

function ChartSection({ data }: { data: DashboardData }) {
  const { t } = useTranslation();
  const days = data.voiceAnalytics.callsPerDay;
  const empty = days.length === 0 || days.every((d) => d.total === 0);
  return (
    <Section title={t('dashboard.chart.title')} caption={t('dashboard.chart.caption')} testId="calls-chart">
      {empty ? (
        <EmptyText text={t('dashboard.chart.empty')} testId="chart-empty" />
      ) : (
        <Suspense
          fallback={
            <Box sx={{ height: 280, display: 'grid', placeItems: 'center' }}>
              <CircularProgress size={28} aria-label={t('dashboard.chart.loading')} />
            </Box>
          }
        >
          <CallsChart days={days} />
        </Suspense>
      )}
    </Section>
  );
}

function TopNumbers({ data, now }: { data: DashboardData; now: number }) {
  const { t, i18n } = useTranslation();
  const when = useActivityWhen(data.timeZone, now);
  const top = data.voiceAnalytics.topPhoneNumbers;
  return (
    <Section title={t('dashboard.top.title')} testId="top-numbers">
      {top.length === 0 ? (
        <EmptyText text={t('dashboard.top.empty')} testId="top-numbers-empty" />
      ) : (
        <Stack spacing={1.5} component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {top.map((n, index) => (
            <Stack component="li" key={n.phoneNumber} direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }} data-testid="top-number">
              <Box
                aria-hidden
                sx={{ width: 32, height: 32, borderRadius: '50%', display: 'grid', placeItems: 'center', flexShrink: 0, bgcolor: (theme) => alpha(theme.palette.primary.main, 0.1), color: 'primary.main', fontWeight: 700, fontSize: 14 }}
              >
                {index + 1}
              </Box>
              <Box sx={{ minWidth: 0, flex: 1 }}>
                <Typography sx={{ fontWeight: 600 }} noWrap data-testid="top-number-phone">
                  {formatPhone(n.phoneNumber)}
                </Typography>
                <Typography variant="caption" color="text.secondary" component="p">
                  {t('dashboard.top.completed', { count: n.completedCalls })} · {t('dashboard.top.avgMessages', { value: formatAverage(n.avgMessages, i18n.language), count: Math.round(n.avgMessages * 10) / 10 })}
                </Typography>
                <Typography variant="caption" color="text.secondary" component="p" noWrap>
                  {t('dashboard.top.lastCall', { when: when(n.lastCall) })}
                </Typography>
              </Box>
              <Chip size="small" label={t('dashboard.top.calls', { count: n.callCount })} data-testid="top-number-calls" />
            </Stack>
          ))}
        </Stack>
      )}
    </Section>
  );
}

function ActivityRow({ item, when }: { item: DashboardRecentActivity; when: (iso: string) => string }) {
  const { t } = useTranslation();
  return (
    <ButtonBase
      component={RouterLink}
      to={`/voice-conversations/${encodeURIComponent(item.callId)}`}
      sx={{ display: 'flex', justifyContent: 'flex-start', textAlign: 'left', width: '100%', gap: 1.5, p: 1.5, borderRadius: 2, '&:hover': { bgcolor: 'action.hover' } }}
      data-testid="activity-item"
    >
      <Box
        aria-hidden
        sx={{ width: 40, height: 40, borderRadius: '50%', display: 'grid', placeItems: 'center', flexShrink: 0, bgcolor: (theme) => alpha(theme.palette.info.main, 0.1), color: 'info.main' }}
      >
        <PhoneCallbackOutlined fontSize="small" />
      </Box>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography sx={{ fontWeight: 600 }} noWrap data-testid="activity-contact">
          {item.contactName?.trim() || t('dashboard.recent.unknown')}
        </Typography>
        <Typography variant="body2" color="text.secondary" noWrap>
          {formatPhone(item.phoneNumber)} · {t('dashboard.recent.messages', { count: item.messageCount })}
        </Typography>
      </Box>
      <Stack spacing={0.5} sx={{ alignItems: 'flex-end', flexShrink: 0 }}>
        <StatusChip status={item.status} />
        <Typography variant="caption" color="text.secondary" data-testid="activity-when">
          {when(item.createdAt)}
        </Typography>
      </Stack>
    </ButtonBase>
  );
}

function RecentActivity({ data, now }: { data: DashboardData; now: number }) {
  const { t } = useTranslation();
  const when = useActivityWhen(data.timeZone, now);
  return (
    <Section title={t('dashboard.recent.title')} testId="recent-activity">
      {data.recentActivity.length === 0 ? (
        <EmptyText text={t('dashboard.recent.empty')} testId="recent-empty" />
      ) : (
        <Stack spacing={0.5}>
          {data.recentActivity.map((item) => (
            <ActivityRow key={item.callId} item={item} when={when} />
          ))}
        </Stack>
      )}
    </Section>
  );
}

function AgentsBanner() {
  const { t } = useTranslation();
  return (
    <Paper
      sx={{ p: { xs: 2.5, md: 3 }, display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, alignItems: { sm: 'center' }, gap: 2, color: 'primary.contrastText', bgcolor: 'primary.main' }}
      data-testid="agents-banner"
    >
      <SmartToyOutlined sx={{ fontSize: 40 }} aria-hidden />
      <Box sx={{ flex: 1 }}>
        <Typography variant="h6" component="h2">
          {t('dashboard.banner.title')}
        </Typography>
        <Typography variant="body2" sx={{ opacity: 0.9 }}>
          {t('dashboard.banner.body')}
        </Typography>
      </Box>
      <Button component={RouterLink} to="/agents/" variant="contained" color="inherit" sx={{ color: 'primary.main', bgcolor: 'common.white', flexShrink: 0 }}>
        {t('dashboard.banner.action')}
      </Button>
    </Paper>
  );
}

/** The duration cards below the chart, each as 'Nm Ns' (label and hint: dashboard.cards.<id>, <id>Hint). */
const DURATION_CARDS: { id: keyof DashboardData['voiceAnalytics']['durationStats']; icon: ReactNode; color: CardColor }[] = [
  { id: 'avgDuration', icon: <AccessTimeOutlined />, color: 'info' },
  { id: 'maxDuration', icon: <TimerOutlined />, color: 'warning' },
  { id: 'totalDuration', icon: <PhoneInTalkOutlined />, color: 'primary' },
];

function DashboardBody({ data }: { data: DashboardData }) {
  const configures = canOpenPage(useMemberRole(), '/agents');
  const { t, i18n } = useTranslation();
  const now = useNow(60_000);
  const count = (n: number) => formatNumber(i18n.language, n);
  const { overview, durationStats, turnLatency } = data.voiceAnalytics;
  return (
    <Stack spacing={3}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' } }}>
        <StatCard id="totalCalls" label={t('dashboard.cards.totalCalls')} value={count(overview.totalCalls)} icon={<PhoneOutlined />} color="primary" />
        <StatCard id="completedCalls" label={t('dashboard.cards.completedCalls')} value={count(overview.completedCalls)} icon={<TaskAltOutlined />} color="success" />
        <StatCard id="totalContacts" label={t('dashboard.cards.totalContacts')} value={count(data.contactAnalytics.overview.totalContacts)} icon={<ContactsOutlined />} color="secondary" />
      </Box>
      <AgentBookingsCard data={data} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 2fr) minmax(0, 1fr)' } }}>
        <ChartSection data={data} />
        <TopNumbers data={data} now={now} />
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' } }}>
        {DURATION_CARDS.map(({ id, icon, color }) => (
          <StatCard
            key={id}
            id={id}
            label={t(`dashboard.cards.${id}`)}
            value={formatCallDuration(durationStats[id], i18n.language)}
            hint={t(`dashboard.cards.${id}Hint`)}
            icon={icon}
            color={color}
          />
        ))}
        <StatCard
          id="turnLatency"
          label={t('dashboard.cards.turnLatency')}
          value={formatLatency(turnLatency?.medianMs, i18n.language)}
          hint={turnLatency ? t('dashboard.cards.turnLatencyHint', { count: turnLatency.turns }) : t('dashboard.cards.turnLatencyNone')}
          icon={<SpeedOutlined />}
          color="success"
        />
      </Box>
      <WhatsAppSection data={data} />
      <RecentActivity data={data} now={now} />
      {/* Issue 32: the agents' set-up is not an agent's page. */}
      {configures && <AgentsBanner />}
    </Stack>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  usePageTitle(t('dashboard.title'));
  const configures = canOpenPage(useMemberRole(), '/agents');
  const [timeFilter, setTimeFilter] = useState<DashboardTimeFilter>(DASHBOARD_DEFAULT_FILTER);
  const dashboard = useDashboard(timeFilter);

  let body: ReactNode;
  if (dashboard.isPending) {
    body = (
      <Stack spacing={2} sx={{ alignItems: 'center', py: 10 }} role="status">
        <CircularProgress />
        <Typography color="text.secondary">{t('dashboard.loading')}</Typography>
      </Stack>
    );
  } else if (dashboard.isError && !dashboard.data) {
    body = (
      <RetryAlert retryLabel={t('dashboard.error.retry')} onRetry={() => void dashboard.refetch()} retrying={dashboard.isFetching} data-testid="dashboard-error">
        <AlertTitle>{t('dashboard.error.title')}</AlertTitle>
        {t('dashboard.error.body')}
      </RetryAlert>
    );
  } else if (dashboard.data) {
    body = <DashboardBody data={dashboard.data} />;
  }

  return (
    <Box>
      <PageHeader title={t('dashboard.title')} subtitle={t('dashboard.subtitle')}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          {configures && <ShowGettingStarted />}
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            value={timeFilter}
            onChange={(_, value: DashboardTimeFilter | null) => value && setTimeFilter(value)}
            aria-label={t('dashboard.range.label')}
          >
            {DASHBOARD_TIME_FILTERS.map((filter) => (
              <ToggleButton key={filter} value={filter} sx={{ px: 2 }}>
                {t(`dashboard.range.${filter}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        </Stack>
      </PageHeader>
      {/* Its own request: a slow or failed dashboard read does not hide the first steps. Set-up steps: not for an agent (issue 32). */}
      {configures && <GettingStarted />}
      {dashboard.isFetching && !dashboard.isPending && <LinearProgress sx={{ mb: 2 }} aria-hidden />}
      {body}
    </Box>
  );
}
