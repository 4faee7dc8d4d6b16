/**
 * The contact page's "Conversations & Calls" (issue 17): the contact's calls and WhatsApp
 * conversations, newest first, each linking to the call's detail or opening the conversation on
 * the board; the first 10, then "Show more" (10 more each time, up to the API's cap). Issue 30:
 * their bookings too — booked, moved, cancelled… with the service, the staff member and the time
 * in the business's zone, linking to that week of the calendar.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EventOutlined from '@mui/icons-material/EventOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import PhoneInTalkOutlined from '@mui/icons-material/PhoneInTalkOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { CONTACT_TIMELINE_DEFAULT_LIMIT, CONTACT_TIMELINE_MAX_LIMIT, type ContactTimelineItem } from '@agentdesk/functions/contract';
import { formatDate } from '../../shared/intl';
import { RetryAlert } from '../../shared/RetryAlert';
import { useContactTimeline } from './queries';

const STEP = CONTACT_TIMELINE_DEFAULT_LIMIT;

/** The local date (YYYY-MM-DD) of an instant in a zone ('' when either is not valid). */
function localDate(iso: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
  } catch {
    return '';
  }
}

/** Where a timeline row leads: the call's detail page, the board with the conversation open, or the calendar's week of the booking. */
export function timelineHref(item: Pick<ContactTimelineItem, 'kind' | 'id' | 'booking'>): string {
  if (item.kind === 'booking') {
    const date = item.booking ? localDate(item.booking.start, item.booking.timeZone) : '';
    return date ? `/bookings?view=week&date=${date}` : '/bookings';
  }
  return item.kind === 'call' ? `/voice-conversations/${encodeURIComponent(item.id)}` : `/conversations?open=${encodeURIComponent(item.id)}`;
}

function BookingRow({ item }: { item: ContactTimelineItem }) {
  const { t, i18n } = useTranslation();
  const booking = item.booking;
  if (!booking) return null;
  const when = (iso: string) => formatDate(i18n.language, iso, 'dateTime', booking.timeZone) ?? '';
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start', py: 1 }} data-testid="contact-timeline-item" data-kind="booking" data-event={booking.event}>
      <EventOutlined color={booking.event === 'cancelled' || booking.event === 'no_show' ? 'disabled' : 'secondary'} aria-hidden />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Link component={RouterLink} to={timelineHref(item)} variant="subtitle2" underline="hover">
            {t(`contacts.detail.booking.${booking.event}`, { defaultValue: t('contacts.detail.booking.booked') })}
          </Link>
          <Chip size="small" variant="outlined" label={t(`contacts.detail.booking.by.${booking.bookedBy}`, { defaultValue: booking.bookedBy })} />
          <Typography variant="caption" color="text.secondary">
            {formatDate(i18n.language, item.at) ?? ''}
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" data-testid="contact-timeline-booking">
          {t('contacts.detail.booking.what', { service: booking.serviceName, staff: booking.staffName, when: when(booking.start) })}
          {booking.event === 'moved' && booking.previousStart ? ` · ${t('contacts.detail.booking.movedFrom', { when: when(booking.previousStart) })}` : ''}
        </Typography>
      </Box>
    </Stack>
  );
}

function TimelineRow({ item }: { item: ContactTimelineItem }) {
  const { t, i18n } = useTranslation();
  if (item.kind === 'booking') return <BookingRow item={item} />;
  const isCall = item.kind === 'call';
  const title = isCall ? t('contacts.detail.activityCall') : t('contacts.detail.activityConversation');
  const summary = item.summary || (isCall ? t('contacts.detail.activityNoSummary') : t('contacts.detail.activityNoMessage'));
  const status = t(`contacts.detail.activityStatus.${item.status}`, { defaultValue: item.status });
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start', py: 1 }} data-testid="contact-timeline-item" data-kind={item.kind}>
      {isCall ? <PhoneInTalkOutlined color="primary" aria-hidden /> : <WhatsApp color="success" aria-hidden />}
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Link component={RouterLink} to={timelineHref(item)} variant="subtitle2" underline="hover">
            {title}
          </Link>
          <Chip size="small" variant="outlined" label={status} />
          <Typography variant="caption" color="text.secondary">
            {formatDate(i18n.language, item.at) ?? ''}
            {!isCall && item.messageCount !== undefined ? ` · ${t('contacts.detail.activityMessages', { count: item.messageCount })}` : ''}
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" noWrap title={item.summary}>
          {summary}
        </Typography>
      </Box>
    </Stack>
  );
}

export function ContactTimelineCard({ contactId }: { contactId: string }) {
  const { t } = useTranslation();
  const [limit, setLimit] = useState(STEP);
  const timeline = useContactTimeline(contactId, limit);
  const data = timeline.data;

  if (timeline.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }} data-testid="contact-timeline-loading">
        <CircularProgress size={24} aria-label={t('contacts.detail.activity')} />
      </Box>
    );
  }
  if (timeline.isError && !data) {
    return (
      <RetryAlert retryLabel={t('contacts.detail.retry')} onRetry={() => void timeline.refetch()} retrying={timeline.isFetching} data-testid="contact-timeline-error">
        {t('contacts.detail.activityError')}
      </RetryAlert>
    );
  }
  if (!data || data.items.length === 0) {
    return (
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }} data-testid="contact-timeline-empty">
        <ForumOutlined color="disabled" aria-hidden />
        <Typography variant="body2" color="text.secondary">
          {t('contacts.detail.activityEmpty')}
        </Typography>
      </Stack>
    );
  }
  return (
    <Box data-testid="contact-timeline">
      {data.items.map((item) => (
        // A booking has one item per change: its time tells them apart.
        <TimelineRow key={`${item.kind}-${item.id}-${item.kind === 'booking' ? `${item.at}-${item.status}` : ''}`} item={item} />
      ))}
      {data.hasMore && limit < CONTACT_TIMELINE_MAX_LIMIT && (
        <Button size="small" onClick={() => setLimit((n) => Math.min(CONTACT_TIMELINE_MAX_LIMIT, n + STEP))} disabled={timeline.isFetching} sx={{ mt: 1 }}>
          {t('contacts.detail.activityMore')}
        </Button>
      )}
      {timeline.isError && (
        <Typography variant="caption" color="error" component="p">
          {t('contacts.detail.activityError')}
        </Typography>
      )}
    </Box>
  );
}
