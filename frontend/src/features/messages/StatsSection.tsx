/**
 * The Message Hub's analytics (SPEC §2 Messages): Total, Sent, Received (labelled 'Disabled' and
 * dimmed) and Media cards with their own time filter (Today, Last 7 Days, Last 30 Days, All
 * Time; default Last 7 Days), the delivery status breakdown of the messages sent (pending, sent,
 * read, failed — delivered counts under sent; a customer's message has no delivery status, so the
 * percentages are of the sent ones) and the type breakdown, percentages to 1 decimal. The cards blur
 * while the numbers load.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import CallMadeOutlined from '@mui/icons-material/CallMadeOutlined';
import CallReceivedOutlined from '@mui/icons-material/CallReceivedOutlined';
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import PermMediaOutlined from '@mui/icons-material/PermMediaOutlined';
import { useTranslation } from 'react-i18next';
import type { MessageStats, TimeFilter } from '@agentdesk/functions/contract';
import { hubErrorText } from './i18n';
import { percent, STATUS_CARDS, statusCounts, TIME_FILTERS, TYPE_CARDS } from './model';
import { useMessageStats } from './queries';
import { TypeIcon } from './TypeIcon';
import { formatNumber } from '../../shared/intl';
import { RetryAlert } from '../../shared/RetryAlert';
import { SelectFilter } from '../../shared/filters';

type CardColor = 'primary' | 'success' | 'info' | 'secondary';

const STATUS_COLORS = { pending: 'warning', sent: 'info', read: 'success', failed: 'error' } as const;

function StatCard({ label, value, icon, color, disabled = false }: { label: string; value: number; icon: ReactNode; color: CardColor; disabled?: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <Paper
      variant="outlined"
      aria-disabled={disabled || undefined}
      sx={{ p: 2, display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0, opacity: disabled ? 0.5 : 1 }}
    >
      <Box
        aria-hidden
        sx={{ width: 44, height: 44, borderRadius: 2, display: 'grid', placeItems: 'center', flexShrink: 0, bgcolor: (theme) => alpha(theme.palette[color].main, 0.1), color: `${color}.main` }}
      >
        {icon}
      </Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700, lineHeight: 1.2 }}>
          {formatNumber(i18n.language, value)}
        </Typography>
        <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary" sx={{ lineHeight: 1.3 }}>
            {label}
          </Typography>
          {disabled && <Chip size="small" label={t('messageHub.stats.disabled')} sx={{ height: 20, fontSize: 11 }} />}
        </Stack>
      </Box>
    </Paper>
  );
}

function BreakdownItem({ label, count, total, icon, color, hint }: { label: string; count: number; total: number; icon?: ReactNode; color?: string; hint?: string }) {
  const { t, i18n } = useTranslation();
  const item = (
    <Box sx={{ p: 1.5, borderRadius: 2, bgcolor: 'background.default', minWidth: 0 }} data-testid="breakdown-item">
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', color: color ?? 'text.secondary', mb: 0.5 }}>
        {icon}
        <Typography variant="body2" color="text.secondary" noWrap>
          {label}
        </Typography>
      </Stack>
      <Typography variant="h6" component="p" sx={{ fontWeight: 700, lineHeight: 1.2 }}>
        {formatNumber(i18n.language, count)}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {t('messageHub.stats.percentOfTotal', { percent: percent(count, total, i18n.language) })}
      </Typography>
    </Box>
  );
  return hint ? <Tooltip title={hint}>{item}</Tooltip> : item;
}

const EMPTY_STATS: MessageStats = {
  totalMessages: 0,
  sentMessages: 0,
  receivedMessages: 0,
  mediaMessages: 0,
  statusBreakdown: { pending: 0, sent: 0, delivered: 0, read: 0, failed: 0 },
  typeBreakdown: { chat: 0, image: 0, video: 0, audio: 0, document: 0, sticker: 0 },
};

const BREAKDOWN_GRID = { display: 'grid', gap: 1.5 } as const;

export function StatsSection({ timeFilter, onTimeFilter }: { timeFilter: TimeFilter; onTimeFilter: (value: TimeFilter) => void }) {
  const { t } = useTranslation();
  const query = useMessageStats(timeFilter);
  const stats = query.data ?? EMPTY_STATS;
  const loading = query.isPending || (query.isFetching && query.isPlaceholderData);
  const statuses = statusCounts(stats);
  const total = stats.totalMessages;

  return (
    <Box component="section" aria-label={t('messageHub.stats.label')} sx={{ mb: 3 }}>
      <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 2 }}>
        <SelectFilter
          label={t('messageHub.stats.timeFilter')}
          value={timeFilter}
          options={TIME_FILTERS}
          optionLabel={(value) => t(`messageHub.timeFilters.${value}`)}
          onChange={onTimeFilter}
          sx={{ width: 200 }}
        />
      </Stack>
      {query.isError && !query.data && (
        <RetryAlert retryLabel={t('messageHub.retry')} onRetry={() => void query.refetch()} sx={{ mb: 2 }}>
          {hubErrorText(query.error, t('messageHub.stats.loadFailed'))}
        </RetryAlert>
      )}
      <Box
        aria-busy={loading || undefined}
        data-testid="message-stats"
        sx={{ filter: loading ? 'blur(4px)' : 'none', transition: 'filter 150ms', pointerEvents: loading ? 'none' : 'auto' }}
      >
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, mb: 2 }}>
          <StatCard label={t('messageHub.stats.total')} value={stats.totalMessages} icon={<ChatOutlined />} color="primary" />
          <StatCard label={t('messageHub.stats.sent')} value={stats.sentMessages} icon={<CallMadeOutlined />} color="success" />
          <StatCard label={t('messageHub.stats.received')} value={stats.receivedMessages} icon={<CallReceivedOutlined />} color="info" disabled />
          <StatCard label={t('messageHub.stats.media')} value={stats.mediaMessages} icon={<PermMediaOutlined />} color="secondary" />
        </Box>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: '2fr 3fr' } }}>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
              {t('messageHub.stats.statusTitle')}
            </Typography>
            <Box sx={{ ...BREAKDOWN_GRID, gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' }}>
              {STATUS_CARDS.map((status) => (
                <BreakdownItem
                  key={status}
                  label={t(`messageHub.statuses.${status}`)}
                  count={statuses[status]}
                  total={stats.sentMessages}
                  color={`${STATUS_COLORS[status]}.main`}
                  hint={status === 'sent' ? t('messageHub.stats.sentIncludesDelivered') : undefined}
                />
              ))}
            </Box>
          </Paper>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
              {t('messageHub.stats.typeTitle')}
            </Typography>
            <Box sx={{ ...BREAKDOWN_GRID, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))' } }}>
              {TYPE_CARDS.map((type) => (
                <BreakdownItem
                  key={type}
                  label={t(`messageHub.types.${type}`)}
                  count={stats.typeBreakdown[type] ?? 0}
                  total={total}
                  icon={<TypeIcon type={type} fontSize="small" />}
                />
              ))}
            </Box>
          </Paper>
        </Box>
      </Box>
    </Box>
  );
}
