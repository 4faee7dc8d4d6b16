/**
 * /voice-conversations (SPEC §2 Voice call logs, labelled Inbound): a search-by-phone-number form,
 * the table (Contact or 'Unknown', Phone Number with the internal number, Status, Duration as
 * minutes:seconds, Date and time; beyond the spec (issue 16) the p50 / p95 response time of a
 * streamed call's answers and its conversation mode), rows that open /voice-conversations/{id}, numbered pagination
 * with Previous/Next and 'Showing x to y of z results', the empty text 'No voice conversations
 * found' and the dismissible banner 'Failed to load voice conversations'. Page and search live in
 * the URL, so the back button returns to the same page.
 */
import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import BoltOutlined from '@mui/icons-material/BoltOutlined';
import PhoneCallbackOutlined from '@mui/icons-material/PhoneCallbackOutlined';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import type { CallLogPagination, VoiceConversationListItem } from '@agentdesk/functions/contract';
import { FullPageSpinner } from '../../shared/FullPageSpinner';
import { usePageTitle } from '../../shared/usePageTitle';
import { PageButtons } from '../../shared/PageButtons';
import { formatPhone } from '../../shared/phone';
import { pageRange } from '../../shared/pagination';
import { callFiltersToParams, formatDuration, parseCallFilters, type CallLogFilters } from './callFormat';
import { useCallList } from './callQueries';
import { latencyPair } from './latencyFormat';
import { CallStatusChip } from './CallStatusChip';
import './i18n/calls';
import { formatDate, formatNumber } from '../../shared/intl';
import { FetchingBar, SearchField } from '../../shared/filters';
import { PageHeader } from '../../shared/PageHeader';

function CallRow({ call }: { call: VoiceConversationListItem }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const href = `/voice-conversations/${encodeURIComponent(call._id)}`;
  const name = call.contact?.name?.trim() || t('voiceCalls.list.unknown');
  const date = formatDate(i18n.language, call.createdAt) ?? '';
  const mode = call.conversationMode ?? 'gather';
  const open = () => navigate(href);
  return (
    // A table row stays a row (role="link" on it hid the cells from screen readers and its aria-label
    // the visible text, WCAG 2.5.3): the keyboard reaches the call through the caller's name, a
    // real link; a click anywhere on the row opens it too.
    <TableRow hover onClick={open} sx={{ cursor: 'pointer' }} data-testid="call-row">
      <TableCell sx={{ fontWeight: 600 }}>
        <Link component={RouterLink} to={href} color="inherit" underline="hover" onClick={(e) => e.stopPropagation()}>
          {name}
        </Link>
      </TableCell>
      <TableCell>
        <Typography variant="body2">{formatPhone(call.phoneNumber)}</Typography>
        {call.internalNumber && (
          <Typography variant="caption" color="text.secondary">
            {t('voiceCalls.list.to', { number: formatPhone(call.internalNumber) })}
          </Typography>
        )}
      </TableCell>
      <TableCell>
        <CallStatusChip status={call.status} />
      </TableCell>
      <TableCell sx={{ fontVariantNumeric: 'tabular-nums' }}>{formatDuration(call.duration)}</TableCell>
      <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', whiteSpace: 'nowrap' }}>
          <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="call-latency">
            {latencyPair(call, i18n.language)}
          </Typography>
          <Chip
            size="small"
            variant="outlined"
            color={mode === 'streaming' ? 'primary' : 'default'}
            icon={mode === 'streaming' ? <BoltOutlined /> : undefined}
            label={t(`voiceCalls.modes.${mode}`, { defaultValue: mode })}
            data-testid="call-mode"
            data-mode={mode}
          />
        </Stack>
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap', color: 'text.secondary', display: { xs: 'none', sm: 'table-cell' } }}>{date}</TableCell>
    </TableRow>
  );
}

function CallsPagination({ pagination, disabled, onPage }: { pagination: CallLogPagination; disabled: boolean; onPage: (page: number) => void }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(i18n.language, value);
  const { currentPage: page, totalPages, totalItems, limit } = pagination;
  const { from, to } = pageRange(page, limit, totalItems);
  return (
    <Stack
      component="nav"
      aria-label={t('voiceCalls.pagination.label')}
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ px: 2, py: 1.5, borderTop: 1, borderColor: 'divider', alignItems: 'center', justifyContent: 'space-between' }}
    >
      <Typography variant="body2" color="text.secondary" data-testid="calls-showing">
        {t('voiceCalls.pagination.showing', { from: n(from), to: n(to), count: totalItems })}
      </Typography>
      {totalPages > 1 && (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <Button size="small" disabled={disabled || page <= 1} onClick={() => onPage(page - 1)}>
            {t('voiceCalls.pagination.previous')}
          </Button>
          <PageButtons page={page} totalPages={totalPages} disabled={disabled} onPage={onPage} goToLabel={(p) => t('voiceCalls.pagination.goTo', { page: p })} />
          <Button size="small" disabled={disabled || page >= totalPages} onClick={() => onPage(page + 1)}>
            {t('voiceCalls.pagination.next')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}

export default function VoiceConversationsPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.voiceConversations'));
  const [params, setParams] = useSearchParams();
  const filters = parseCallFilters(params);
  const list = useCallList(filters);
  const [input, setInput] = useState(filters.search);
  const [seenSearch, setSeenSearch] = useState(filters.search);
  if (filters.search !== seenSearch) {
    setSeenSearch(filters.search);
    setInput(filters.search);
  }
  // The banner comes back on every new failure after it was dismissed.
  const [dismissedAt, setDismissedAt] = useState(0);
  const showBanner = list.isError && list.errorUpdatedAt > dismissedAt;

  const setFilters = (next: CallLogFilters, replace = false) => setParams(callFiltersToParams(next), { replace });

  // A page past the end (an old link) moves to the last page.
  const totalPages = list.data?.pagination.totalPages;
  useEffect(() => {
    if (totalPages !== undefined && totalPages >= 1 && filters.page > totalPages) {
      setParams(callFiltersToParams({ ...filters, page: totalPages }), { replace: true });
    }
  }, [totalPages, filters, setParams]);

  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    setFilters({ page: 1, search: input.trim() });
  };

  const calls = list.data?.conversations ?? [];
  let body;
  if (list.isPending) {
    body = <FullPageSpinner inline />;
  } else if (calls.length === 0) {
    body = list.data ? (
      <Stack sx={{ alignItems: 'center', textAlign: 'center', py: 6, px: 2 }} spacing={1}>
        <PhoneCallbackOutlined color="disabled" sx={{ fontSize: 48 }} aria-hidden />
        <Typography variant="h6">{t('voiceCalls.list.empty')}</Typography>
        {!filters.search && <Typography color="text.secondary">{t('voiceCalls.list.emptyHint')}</Typography>}
      </Stack>
    ) : (
      <Box sx={{ p: 3, textAlign: 'center' }}>
        <Button variant="outlined" onClick={() => void list.refetch()}>
          {t('voiceCalls.list.retry')}
        </Button>
      </Box>
    );
  } else {
    body = (
      <>
        <TableContainer>
          <Table aria-label={t('voiceCalls.list.tableLabel')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('voiceCalls.list.contact')}</TableCell>
                <TableCell>{t('voiceCalls.list.phoneNumber')}</TableCell>
                <TableCell>{t('voiceCalls.list.status')}</TableCell>
                <TableCell>{t('voiceCalls.list.duration')}</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                  <Tooltip describeChild title={t('voiceCalls.list.latencyHint')}>
                    <span>{t('voiceCalls.list.latency')}</span>
                  </Tooltip>
                </TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('voiceCalls.list.date')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {calls.map((call) => (
                <CallRow key={call._id} call={call} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {list.data && <CallsPagination pagination={list.data.pagination} disabled={list.isPlaceholderData} onPage={(page) => setFilters({ ...filters, page })} />}
      </>
    );
  }

  return (
    <Box>
      <PageHeader title={t('voiceCalls.list.title')} subtitle={t('voiceCalls.list.subtitle')} />
      {showBanner && (
        <Alert severity="error" onClose={() => setDismissedAt(Date.now())} sx={{ mb: 2 }} data-testid="calls-load-error">
          {t('voiceCalls.list.loadFailed')}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Stack component="form" role="search" onSubmit={onSearch} direction="row" spacing={1} sx={{ p: 2, borderBottom: 1, borderColor: 'divider' }}>
          <SearchField
            label={t('voiceCalls.list.searchLabel')}
            placeholder={t('voiceCalls.list.searchPlaceholder')}
            value={input}
            onChange={setInput}
            inputMode="tel"
            sx={{ flex: 1, maxWidth: 420 }}
          />
          <Button type="submit" variant="contained">
            {t('voiceCalls.list.search')}
          </Button>
          {filters.search && (
            <Button
              onClick={() => {
                setInput('');
                setFilters({ page: 1, search: '' });
              }}
            >
              {t('voiceCalls.list.clear')}
            </Button>
          )}
        </Stack>
        <FetchingBar fetching={list.isFetching && !list.isPending} />
        {body}
      </Paper>
    </Box>
  );
}
