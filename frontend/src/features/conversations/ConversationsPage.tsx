/**
 * /conversations (SPEC §2 Conversations): the three-column board — Active, Requires Human,
 * Closed — with counts, a client-side search over the loaded cards, the date filter (Today by
 * default; This week, This month), refresh, the stats summary (Total, Active, Requires Human,
 * Closed, Archived) and a result count while a filter is active. A card opens the detail modal;
 * so does `?open={id}` (the contact page's timeline links here).
 */
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Refresh from '@mui/icons-material/Refresh';
import QuickreplyOutlined from '@mui/icons-material/QuickreplyOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import { useTranslation } from 'react-i18next';
import { CONVERSATION_DATE_FILTERS, type AssigneeFilterParam, type ConversationDateFilter, type ConversationStats } from '@agentdesk/functions/contract';
import { usePageTitle } from '../../shared/usePageTitle';
import './i18n';
import { ConversationCard } from './ConversationCard';
import { ConversationModal } from './ConversationModal';
import { BOARD_COLUMNS, filterBoard, type BoardColumn } from './format';
import { useConversationOverview } from './queries';
import { useNow, useRelativeTime } from './useNow';
import { RetryAlert } from '../../shared/RetryAlert';
import { SearchField, SelectFilter } from '../../shared/filters';
import { PageHeader } from '../../shared/PageHeader';
import { SavedRepliesDialog } from './saved-replies/SavedRepliesDialog';
import { AssigneeFilter } from './inbox/AssigneeFilter';
import { InboxSettingsDialog } from './inbox/InboxSettingsDialog';
import { WaitingBanner } from './waiting/NoAnswer';

const COLUMN_ACCENT: Record<BoardColumn, string> = {
  active: 'success.main',
  requires_human: 'warning.main',
  closed: 'text.disabled',
};

const STAT_KEYS: ReadonlyArray<keyof ConversationStats> = ['total', 'active', 'requiresHuman', 'closed', 'archived'];

function StatsSummary({ stats }: { stats: ConversationStats | undefined }) {
  const { t } = useTranslation();
  return (
    <Box
      component="dl"
      aria-label={t('conversations.stats.label')}
      // On a phone the conversations come first: the columns carry their own counts (issue 29).
      sx={{ display: { xs: 'none', sm: 'grid' }, gridTemplateColumns: 'repeat(5, 1fr)', gap: 1.5, m: 0, mb: 2 }}
    >
      {STAT_KEYS.map((key) => (
        <Paper key={key} variant="outlined" sx={{ px: { xs: 1.5, sm: 2 }, py: 1.25 }} data-testid={`conversation-stat-${key}`}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {t(`conversations.stats.${key}`)}
          </Typography>
          <Typography component="dd" variant="h5" sx={{ m: 0, fontWeight: 600 }}>
            {stats ? stats[key] : <Skeleton width={32} />}
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}

function ColumnSkeleton() {
  return (
    <Stack spacing={1.25}>
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} variant="rounded" height={112} />
      ))}
    </Stack>
  );
}

export default function ConversationsPage() {
  const { t } = useTranslation();
  usePageTitle(t('conversations.title'));
  const [search, setSearch] = useState('');
  const [dateFilter, setDateFilter] = useState<ConversationDateFilter>('today');
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [selected, setSelected] = useState<string | null>(() => params.get('open'));
  const [modalOpen, setModalOpen] = useState(() => Boolean(params.get('open')));
  // ?open= is the open conversation: a card pushes it, so the phone's Back closes the conversation
  // and not the inbox (issue 29); a notification clicked while the board is shown changes it too.
  const openParam = params.get('open');
  useEffect(() => {
    if (!openParam) {
      setModalOpen(false);
      return;
    }
    setSelected(openParam);
    setModalOpen(true);
  }, [openParam]);
  const openConversation = (id: string) => setParams({ open: id }, { state: { fromBoard: true } });
  const closeConversation = () => {
    setModalOpen(false);
    // Opened from a card: going back removes the entry it pushed; opened by a link: the link's entry is replaced.
    if ((location.state as { fromBoard?: boolean } | null)?.fromBoard) navigate(-1);
    else if (params.has('open')) setParams({}, { replace: true });
  };
  const [savedRepliesOpen, setSavedRepliesOpen] = useState(false);
  const [assignee, setAssignee] = useState<AssigneeFilterParam>('all');
  const [inboxSettingsOpen, setInboxSettingsOpen] = useState(false);
  const overview = useConversationOverview(dateFilter, assignee);
  const now = useNow(30_000);
  const relative = useRelativeTime(now);

  const board = filterBoard(overview.data, search);
  const shown = BOARD_COLUMNS.reduce((sum, column) => sum + board[column].length, 0);
  const filtered = search.trim() !== '' || dateFilter !== 'today' || assignee !== 'all';
  const loading = overview.isPending;
  const failed = overview.isError;

  return (
    <Box>
      <PageHeader title={t('conversations.title')} subtitle={t('conversations.subtitle')} breakpoint="md">
        <Stack direction="row" useFlexGap sx={{ alignItems: 'center', flexWrap: { xs: 'wrap', sm: 'nowrap' }, gap: 1.5 }}>
          <SearchField
            label={t('conversations.search')}
            placeholder={t('conversations.searchPlaceholder')}
            value={search}
            onChange={setSearch}
            sx={{ flex: { xs: '1 1 100%', sm: 1 }, minWidth: { md: 280 } }}
          />
          <SelectFilter
            label={t('conversations.dateFilter')}
            value={dateFilter}
            options={CONVERSATION_DATE_FILTERS}
            optionLabel={(value) => t(`conversations.dateFilters.${value}`)}
            onChange={setDateFilter}
            fullWidth
            sx={{ width: { xs: 'auto', sm: 150 }, flex: { xs: 1, sm: 'none' } }}
          />
          <Tooltip title={t('conversations.refresh')}>
            <span>
              <IconButton aria-label={t('conversations.refresh')} onClick={() => void overview.refetch()} disabled={overview.isFetching}>
                <Refresh />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title={t('savedReplies.open')}>
            <IconButton aria-label={t('savedReplies.open')} onClick={() => setSavedRepliesOpen(true)}>
              <QuickreplyOutlined />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('inbox.settings.open')}>
            <IconButton aria-label={t('inbox.settings.open')} onClick={() => setInboxSettingsOpen(true)}>
              <TuneOutlined />
            </IconButton>
          </Tooltip>
        </Stack>
      </PageHeader>

      <Stack direction="row" sx={{ mb: 1.5, justifyContent: 'flex-end' }}>
        <AssigneeFilter value={assignee} onChange={setAssignee} />
      </Stack>

      <StatsSummary stats={overview.data?.stats} />
      {/* Customers' messages the agent could not answer (issue 34); the owner's notification leads here. */}
      <WaitingBanner count={overview.data?.waitingConversations ?? 0} />

      {failed && (
        <RetryAlert retryLabel={t('conversations.refresh')} onRetry={() => void overview.refetch()} sx={{ mb: 2 }}>
          {t('conversations.errors.loadFailed')}
        </RetryAlert>
      )}

      {filtered && overview.data && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }} role="status" data-testid="conversation-result-count">
          {t('conversations.resultCount', { count: shown })}
        </Typography>
      )}

      {overview.isFetching && !loading ? <LinearProgress sx={{ height: 2, mb: 1 }} /> : <Box sx={{ height: 2, mb: 1 }} />}

      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' }, gap: 2, alignItems: 'start' }}>
        {BOARD_COLUMNS.map((column) => {
          const cards = board[column];
          const title = t(`conversations.columns.${column}.title`);
          return (
            <Paper
              key={column}
              component="section"
              variant="outlined"
              aria-label={title}
              data-testid={`conversation-column-${column}`}
              sx={{ bgcolor: 'action.hover', borderTop: 3, borderTopColor: COLUMN_ACCENT[column], display: 'flex', flexDirection: 'column', minHeight: { xs: 120, md: 240 } }}
            >
              <Stack direction="row" spacing={1} sx={{ p: 1.75, pb: 1, justifyContent: 'space-between', alignItems: 'flex-start' }}>
                <Box>
                  <Typography variant="h6" component="h2">
                    {title}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t(`conversations.columns.${column}.subtitle`)}
                  </Typography>
                </Box>
                {!loading && (
                  <Chip
                    size="small"
                    label={cards.length}
                    aria-label={t('conversations.columns.count', { count: cards.length, column: title })}
                    data-testid="conversation-column-count"
                  />
                )}
              </Stack>
              <Stack spacing={1.25} sx={{ p: 1.25, pt: 0.5, maxHeight: { md: '65vh' }, overflowY: 'auto' }}>
                {loading ? (
                  <ColumnSkeleton />
                ) : cards.length === 0 ? (
                  <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', py: 4 }}>
                    {t('conversations.columns.empty')}
                  </Typography>
                ) : (
                  cards.map((conversation) => (
                    <ConversationCard
                      key={conversation._id}
                      conversation={conversation}
                      relative={relative}
                      onOpen={(c) => openConversation(c._id)}
                    />
                  ))
                )}
              </Stack>
            </Paper>
          );
        })}
      </Box>

      {selected && (
        <ConversationModal
          key={selected}
          id={selected}
          open={modalOpen}
          now={now}
          onClose={closeConversation}
          onExited={() => setSelected(null)}
        />
      )}

      <SavedRepliesDialog open={savedRepliesOpen} onClose={() => setSavedRepliesOpen(false)} />
      <InboxSettingsDialog open={inboxSettingsOpen} onClose={() => setInboxSettingsOpen(false)} />
    </Box>
  );
}
