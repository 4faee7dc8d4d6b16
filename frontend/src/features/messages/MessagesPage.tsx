/**
 * /messages, the Message Hub (SPEC §2 Messages, §4, §8, §9): the analytics with their time filter,
 * then the filters (search with a 500 ms debounce that goes back to page 1, status, direction,
 * time), the message cards (20 a page) with retry of a failed outgoing message and delete after a
 * confirmation, pagination, and the two empty states.
 */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import Refresh from '@mui/icons-material/Refresh';
import SearchOffOutlined from '@mui/icons-material/SearchOffOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { WHATSAPP_TEXT_LIMITS, type Message, type TimeFilter } from '@agentdesk/functions/contract';
import { messageKeys } from '../../api/messages';
import { ConfirmDialog } from '../../shared/ConfirmDialog';
import { FullPageSpinner } from '../../shared/FullPageSpinner';
import { PageHeader } from '../../shared/PageHeader';
import { useNow } from '../../shared/useNow';
import { usePageTitle } from '../../shared/usePageTitle';
import { useToast } from '../../shared/useToast';
import { hubErrorText } from './i18n';
import { MessageCard } from './MessageCard';
import {
  DEFAULT_MESSAGE_FILTERS,
  DEFAULT_TIME_FILTER,
  DISABLED_STATUS_OPTIONS,
  hasActiveFilter,
  MESSAGES_PAGE_SIZE,
  SEARCH_DEBOUNCE_MS,
  STATUS_FILTER_OPTIONS,
  TIME_FILTERS,
  withFilter,
  DIRECTION_OPTIONS,
  type MessageFilters,
} from './model';
import { useDeleteMessage, useMessageList, useRetryMessage } from './queries';
import { StatsSection } from './StatsSection';
import { RetryAlert } from '../../shared/RetryAlert';
import { ClearFiltersButton, FetchingBar, SearchField, SelectFilter } from '../../shared/filters';

function EmptyState({ filtered }: { filtered: boolean }) {
  const { t } = useTranslation();
  const Icon = filtered ? SearchOffOutlined : ChatOutlined;
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2 }} data-testid="messages-empty">
      <Icon sx={{ fontSize: 48, color: 'text.disabled', mb: 1 }} aria-hidden />
      <Typography variant="h6" component="h2">
        {filtered ? t('messageHub.empty.filteredTitle') : t('messageHub.empty.title')}
      </Typography>
      <Typography color="text.secondary">{filtered ? t('messageHub.empty.filteredBody') : t('messageHub.empty.body')}</Typography>
    </Box>
  );
}

export default function MessagesPage() {
  const { t } = useTranslation();
  usePageTitle(t('messageHub.title'));
  const toast = useToast();
  const queryClient = useQueryClient();
  const now = useNow(60_000);
  const [statsTime, setStatsTime] = useState<TimeFilter>(DEFAULT_TIME_FILTER);
  const [filters, setFilters] = useState<MessageFilters>(DEFAULT_MESSAGE_FILTERS);
  const [input, setInput] = useState('');
  const [toDelete, setToDelete] = useState<Message | null>(null);
  const list = useMessageList(filters);
  const retry = useRetryMessage();
  const remove = useDeleteMessage();

  // SPEC §5: the search reloads 500 ms after the last keystroke, from page 1.
  useEffect(() => {
    const next = input.trim();
    if (next === filters.search) return undefined;
    const timer = setTimeout(() => setFilters((f) => withFilter(f, { search: next })), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input, filters.search]);

  // A page past the end (after deletions) moves to the last page.
  const totalPages = list.data?.pagination.totalPages;
  useEffect(() => {
    if (totalPages !== undefined && totalPages >= 1 && filters.page > totalPages) setFilters((f) => ({ ...f, page: totalPages }));
  }, [totalPages, filters.page]);

  const onRetry = async (message: Message) => {
    try {
      await retry.mutateAsync(message._id);
      toast.success(t('messageHub.toasts.retryStarted'));
    } catch (err) {
      toast.error(hubErrorText(err, t('messageHub.toasts.retryFailed')));
    }
  };

  const onConfirmDelete = async () => {
    if (!toDelete) return;
    try {
      await remove.mutateAsync(toDelete._id);
      toast.success(t('messageHub.toasts.deleted'));
      setToDelete(null);
    } catch (err) {
      toast.error(hubErrorText(err, t('messageHub.toasts.deleteFailed')));
    }
  };

  const messages = list.data?.data ?? [];
  const pagination = list.data?.pagination;
  const filtered = hasActiveFilter(filters);
  const canClear = filtered || input !== '';

  let body;
  if (list.isPending) {
    body = <FullPageSpinner inline />;
  } else if (list.isError && !list.data) {
    body = (
      <Box sx={{ p: 2 }}>
        <RetryAlert retryLabel={t('messageHub.retry')} onRetry={() => void list.refetch()}>
          {hubErrorText(list.error, t('messageHub.toasts.loadFailed'))}
        </RetryAlert>
      </Box>
    );
  } else if (messages.length === 0) {
    body = <EmptyState filtered={filtered} />;
  } else {
    const page = pagination?.currentPage ?? filters.page;
    const total = pagination?.totalMessages ?? messages.length;
    const from = (page - 1) * MESSAGES_PAGE_SIZE + 1;
    body = (
      <>
        {list.isError && (
          <Alert severity="error" sx={{ m: 2, mb: 0 }}>
            {hubErrorText(list.error, t('messageHub.toasts.loadFailed'))}
          </Alert>
        )}
        <Stack component="ul" aria-label={t('messageHub.list.label')} spacing={1.5} sx={{ p: 2, m: 0 }}>
          {messages.map((message) => (
            <MessageCard
              key={message._id}
              message={message}
              now={now}
              retrying={retry.isPending && retry.variables === message._id}
              onRetry={(m) => void onRetry(m)}
              onDelete={setToDelete}
            />
          ))}
        </Stack>
        {pagination && (
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ px: 2, py: 1.5, borderTop: 1, borderColor: 'divider', alignItems: 'center', justifyContent: 'space-between' }}
          >
            <Typography variant="body2" color="text.secondary">
              {t('messageHub.list.range', { from, to: from + messages.length - 1, total })}
            </Typography>
            {pagination.totalPages > 1 && (
              <Pagination
                count={pagination.totalPages}
                page={page}
                disabled={list.isPlaceholderData}
                onChange={(_e, next) => setFilters((f) => ({ ...f, page: next }))}
                color="primary"
                shape="rounded"
                siblingCount={1}
                aria-label={t('messageHub.list.pagination')}
              />
            )}
          </Stack>
        )}
      </>
    );
  }

  return (
    <Box>
      <PageHeader title={t('messageHub.title')} subtitle={t('messageHub.subtitle')}>
        <Button
          variant="outlined"
          startIcon={<Refresh />}
          onClick={() => void queryClient.invalidateQueries({ queryKey: messageKeys.all })}
          disabled={list.isFetching}
          sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
        >
          {t('messageHub.refresh')}
        </Button>
      </PageHeader>

      <StatsSection timeFilter={statsTime} onTimeFilter={setStatsTime} />

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Stack
          component="section"
          aria-label={t('messageHub.filters.label')}
          direction={{ xs: 'column', md: 'row' }}
          spacing={1.5}
          sx={{ p: 2, alignItems: { md: 'center' }, borderBottom: 1, borderColor: 'divider' }}
        >
          <SearchField
            label={t('messageHub.filters.search')}
            placeholder={t('messageHub.filters.searchPlaceholder')}
            value={input}
            onChange={setInput}
            maxLength={WHATSAPP_TEXT_LIMITS.search}
            sx={{ flex: 1, minWidth: { md: 220 } }}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <SelectFilter
              label={t('messageHub.filters.status')}
              value={filters.status}
              options={STATUS_FILTER_OPTIONS}
              optionLabel={(status) => t(`messageHub.statuses.${status}`)}
              allLabel={t('messageHub.filters.allStatuses')}
              disabledOptions={DISABLED_STATUS_OPTIONS}
              onChange={(status) => setFilters((f) => withFilter(f, { status }))}
              sx={{ minWidth: 160 }}
            />
            <SelectFilter
              label={t('messageHub.filters.direction')}
              value={filters.direction}
              options={DIRECTION_OPTIONS}
              optionLabel={(direction) => t(`messageHub.filters.${direction}`)}
              allLabel={t('messageHub.filters.allDirections')}
              onChange={(direction) => setFilters((f) => withFilter(f, { direction }))}
              sx={{ minWidth: 160 }}
            />
            <SelectFilter
              label={t('messageHub.filters.time')}
              value={filters.timeFilter}
              options={TIME_FILTERS}
              optionLabel={(value) => t(`messageHub.timeFilters.${value}`)}
              onChange={(timeFilter) => setFilters((f) => withFilter(f, { timeFilter }))}
              sx={{ minWidth: 160 }}
            />
          </Stack>
          <ClearFiltersButton
            label={t('messageHub.filters.clear')}
            disabled={!canClear}
            onClear={() => {
              setInput('');
              setFilters(DEFAULT_MESSAGE_FILTERS);
            }}
          />
        </Stack>
        <FetchingBar fetching={list.isFetching && !list.isPending} />
        {pagination && messages.length > 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1.5 }}>
            {t('messageHub.list.count', { count: pagination.totalMessages })}
          </Typography>
        )}
        {body}
      </Paper>

      <ConfirmDialog
        open={toDelete !== null}
        title={t('messageHub.delete.title')}
        body={t('messageHub.delete.body')}
        subject={toDelete ? toDelete.body.slice(0, 100) || undefined : undefined}
        confirmLabel={t('messageHub.delete.confirm')}
        pendingLabel={t('messageHub.delete.pending')}
        pending={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => void onConfirmDelete()}
      />
    </Box>
  );
}
