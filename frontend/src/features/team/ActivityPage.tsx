/**
 * /activity (Settings → Activity log, issue 32; owners and admins): who did what and when, newest
 * first, filtered by member, action and days, a page at a time ("Load more" passes the cursor).
 * Times show in the account's time zone, as everywhere in the app.
 */
import { useMemo, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ACTIVITY_ACTIONS, type ActivityAction } from '@agentdesk/functions/contract';
import { teamApi, teamKeys, type ActivityFilters } from '../../api/team';
import { PageHeader } from '../../shared/PageHeader';
import { RetryAlert } from '../../shared/RetryAlert';
import { formatDate } from '../../shared/intl';
import { usePageTitle } from '../../shared/usePageTitle';
import { useCurrentUser } from '../../shared/session';
import './i18n';
import { actionKey, activityDetails, activitySentence, actorName, zonedDayBound } from './activityFormat';
import { teamErrorText } from './messages';

export default function ActivityPage() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('team.activity.title'));
  const user = useCurrentUser();
  const [member, setMember] = useState('');
  const [action, setAction] = useState<ActivityAction | ''>('');
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  const filters: ActivityFilters = {
    member,
    action,
    from: fromDay ? zonedDayBound(fromDay, user.timeZone) : undefined,
    to: toDay ? zonedDayBound(toDay, user.timeZone, true) : undefined,
  };
  const filtered = Boolean(member || action || fromDay || toDay);

  const team = useQuery({ queryKey: teamKeys.view, queryFn: ({ signal }) => teamApi.get(signal) });
  const log = useInfiniteQuery({
    queryKey: teamKeys.activity(filters),
    queryFn: ({ pageParam, signal }) => teamApi.activity(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? undefined,
  });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  // The objects the log names by id only: the team's people and its invitations (by e-mail).
  const names = useMemo(
    () => new Map<string, string>([...(team.data?.invitations ?? []).map((i) => [i._id, i.email] as const), ...(team.data?.members ?? []).map((m) => [m._id, m.name || m.email] as const)]),
    [team.data],
  );

  let body: ReactNode;
  if (log.isPending) {
    body = <Skeleton variant="rounded" height={240} role="status" aria-busy="true" aria-label={t('team.activity.loading')} />;
  } else if (log.isError) {
    body = (
      <RetryAlert retryLabel={t('team.retry')} onRetry={() => void log.refetch()} retrying={log.isFetching}>
        {teamErrorText(log.error, t('team.activity.loadFailed'))}
      </RetryAlert>
    );
  } else if (entries.length === 0) {
    body = (
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
        <Typography color="text.secondary">{t(filtered ? 'team.activity.emptyFiltered' : 'team.activity.empty')}</Typography>
      </Paper>
    );
  } else {
    body = (
      <>
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t('team.activity.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('team.activity.who')}</TableCell>
                <TableCell>{t('team.activity.what')}</TableCell>
                <TableCell>{t('team.activity.when')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {entries.map((entry) => (
                <TableRow key={entry._id} data-testid="activity-entry">
                  <TableCell sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{actorName(t, entry.actor)}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    {activitySentence(t, entry, names)}
                    {activityDetails(t, i18n.language, entry) && (
                      <Typography variant="body2" color="text.secondary" data-testid="activity-details">
                        {activityDetails(t, i18n.language, entry)}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDate(i18n.language, entry.at) ?? '—'}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {log.hasNextPage && (
          <Box sx={{ textAlign: 'center', mt: 2 }}>
            <Button variant="outlined" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
              {log.isFetchingNextPage ? t('team.activity.loadingMore') : t('team.activity.loadMore')}
            </Button>
          </Box>
        )}
      </>
    );
  }

  return (
    <Box>
      <PageHeader title={t('team.activity.title')} subtitle={t('team.activity.subtitle')} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { md: 'center' } }}>
        <TextField select size="small" label={t('team.activity.member')} value={member} onChange={(e) => setMember(e.target.value)} sx={{ minWidth: 200 }}>
          <MenuItem value="">{t('team.activity.any')}</MenuItem>
          {(team.data?.members ?? []).map((m) => (
            <MenuItem key={m._id} value={m._id}>
              {m.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label={t('team.activity.action')} value={action} onChange={(e) => setAction(e.target.value as ActivityAction | '')} sx={{ minWidth: 240 }}>
          <MenuItem value="">{t('team.activity.any')}</MenuItem>
          {ACTIVITY_ACTIONS.map((a) => (
            <MenuItem key={a} value={a}>
              {t(`team.activity.actionNames.${actionKey(a)}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField type="date" size="small" label={t('team.activity.from')} value={fromDay} onChange={(e) => setFromDay(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: toDay || undefined } }} />
        <TextField type="date" size="small" label={t('team.activity.to')} value={toDay} onChange={(e) => setToDay(e.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: fromDay || undefined } }} />
        {filtered && (
          <Button
            onClick={() => {
              setMember('');
              setAction('');
              setFromDay('');
              setToDay('');
            }}
          >
            {t('team.activity.clear')}
          </Button>
        )}
      </Stack>
      {body}
    </Box>
  );
}
