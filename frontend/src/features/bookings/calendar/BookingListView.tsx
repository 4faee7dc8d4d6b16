/**
 * The list view: the bookings of a range of dates (any status, cancelled ones too), filtered by
 * staff and status, a page at a time; each row opens the booking's detail, where everything a
 * drag does can be done from the keyboard.
 */
import { useState } from 'react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { BOOKING_STATUSES, type Booking, type BookingStaff, type BookingStatus } from '@agentdesk/functions/contract';
import { FetchingBar, SelectFilter } from '../../../shared/filters';
import { RetryAlert } from '../../../shared/RetryAlert';
import { VisuallyHidden } from '../../../shared/VisuallyHidden';
import { useIntl } from '../../../shared/useIntl';
import { bookingErrorText } from '../messages';
import { calendarApi, calendarKeys, type RangeFilter } from './api';
import { addDays, coercedNow, dayOf } from './time';
import { StaffDot } from './StaffDot';
import { useCustomerName } from './labels';

interface BookingListViewProps {
  timeZone: string;
  staff: BookingStaff[];
  colours: Map<string, string>;
  onOpen: (booking: Booking) => void;
}

export function BookingListView({ timeZone, staff, colours, onOpen }: BookingListViewProps) {
  const { t } = useTranslation();
  const customerName = useCustomerName();
  const intl = useIntl();
  const [from, setFrom] = useState(() => dayOf(coercedNow(timeZone)));
  const [to, setTo] = useState(() => addDays(dayOf(coercedNow(timeZone)), 30));
  const [staffId, setStaffId] = useState('');
  const [status, setStatus] = useState<BookingStatus | ''>('');
  const filter: RangeFilter = { from, to, ...(staffId ? { staffId } : {}), ...(status ? { status } : {}) };
  const complete = Boolean(from && to);

  const pages = useInfiniteQuery({
    queryKey: calendarKeys.page(filter),
    queryFn: ({ pageParam, signal }) => calendarApi.page(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: complete,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const rows = pages.data?.pages.flatMap((p) => p.bookings) ?? [];
  const staffName = new Map(staff.map((s) => [s._id, s.name]));
  const when = (b: Booking) => intl.date(b.start, 'dateTime', timeZone) ?? '';

  return (
    <Box>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          type="date"
          size="small"
          label={t('bookingsCalendar.list.from')}
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ width: { md: 180 } }}
        />
        <TextField
          type="date"
          size="small"
          label={t('bookingsCalendar.list.to')}
          value={to}
          onChange={(e) => setTo(e.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ width: { md: 180 } }}
        />
        <SelectFilter
          label={t('bookingsCalendar.list.staff')}
          value={staffId}
          options={staff.map((s) => s._id)}
          optionLabel={(id) => staffName.get(id) ?? id}
          allLabel={t('bookingsCalendar.list.anyStaff')}
          onChange={setStaffId}
          sx={{ minWidth: 200 }}
        />
        <SelectFilter<BookingStatus | ''>
          label={t('bookingsCalendar.list.status')}
          value={status}
          options={BOOKING_STATUSES}
          optionLabel={(s) => t(`bookingsCalendar.statuses.${s}`)}
          allLabel={t('bookingsCalendar.list.anyStatus')}
          onChange={setStatus}
          sx={{ minWidth: 200 }}
        />
      </Stack>
      <FetchingBar fetching={pages.isFetching} />
      {pages.isError && (
        <RetryAlert retryLabel={t('bookingsCalendar.retry')} onRetry={() => void pages.refetch()} retrying={pages.isFetching} sx={{ my: 1 }}>
          {bookingErrorText(pages.error, t('bookingsCalendar.loadFailed'))}
        </RetryAlert>
      )}
      <TableContainer>
        <Table size="small" data-testid="bookings-list">
          <caption style={{ captionSide: 'top', textAlign: 'left', padding: 0 }}>
            <Typography variant="body2" color="text.secondary" component="span">
              {t('bookingsCalendar.list.caption', { from: intl.date(`${from}T12:00:00Z`, 'date', 'UTC') ?? from, to: intl.date(`${to}T12:00:00Z`, 'date', 'UTC') ?? to })}
            </Typography>
          </caption>
          <TableHead>
            <TableRow>
              <TableCell>{t('bookingsCalendar.list.when')}</TableCell>
              <TableCell>{t('bookingsCalendar.list.customer')}</TableCell>
              <TableCell>{t('bookingsCalendar.list.service')}</TableCell>
              <TableCell>{t('bookingsCalendar.list.staff')}</TableCell>
              <TableCell>{t('bookingsCalendar.list.status')}</TableCell>
              <TableCell>
                <VisuallyHidden>{t('bookingsCalendar.list.details')}</VisuallyHidden>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((b) => (
              <TableRow key={b._id} hover data-testid={`booking-row-${b._id}`}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(b)}</TableCell>
                <TableCell>{customerName(b.customer)}</TableCell>
                <TableCell>{b.serviceName}</TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <StaffDot colour={colours.get(b.staffId)} />
                    <span>{b.staffName}</span>
                  </Stack>
                </TableCell>
                <TableCell>
                  <Chip size="small" label={t(`bookingsCalendar.statuses.${b.status}`)} variant={b.status === 'confirmed' ? 'filled' : 'outlined'} />
                </TableCell>
                <TableCell align="right">
                  <Button size="small" onClick={() => onOpen(b)} aria-label={t('bookingsCalendar.list.detailsOf', { name: customerName(b.customer) })}>
                    {t('bookingsCalendar.list.details')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
            {!pages.isPending && !pages.isError && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={6} sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>
                  {t('bookingsCalendar.list.none')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {pages.hasNextPage && (
        <Box sx={{ textAlign: 'center', mt: 2 }}>
          <Button onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
            {t('bookingsCalendar.list.more')}
          </Button>
        </Box>
      )}
    </Box>
  );
}
