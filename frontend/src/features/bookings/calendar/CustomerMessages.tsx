/**
 * What the customer was told on WhatsApp about a booking (issue 30, GET /api/bookings/{id}/messages):
 * each confirmation and the reminder, sent as a text or a template, or not sent and why — so an
 * owner without a template chosen sees that a customer outside the 24-hour window got nothing.
 */
import { useQuery } from '@tanstack/react-query';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Booking, BookingCustomerMessage } from '@agentdesk/functions/contract';
import { requestData } from '../../../api/client';
import { serverText } from '../../../i18n';
import { useIntl } from '../../../shared/useIntl';

const messagesOf = (id: string, signal?: AbortSignal) => requestData<BookingCustomerMessage[]>(`/api/bookings/${encodeURIComponent(id)}/messages`, { signal });

export function CustomerMessages({ booking, timeZone }: { booking: Pick<Booking, '_id' | 'updatedAt'>; timeZone: string }) {
  const { t } = useTranslation();
  const intl = useIntl();
  // Keyed by the booking's version: a move or a cancel brings its own confirmation.
  const messages = useQuery({ queryKey: ['bookings', 'messages', booking._id, booking.updatedAt], queryFn: ({ signal }) => messagesOf(booking._id, signal) });
  if (messages.isError) return <Typography color="text.secondary">{t('bookingsCalendar.detail.messages.loadFailed')}</Typography>;
  const list = messages.data ?? [];
  if (list.length === 0) return <Typography color="text.secondary">{t('bookingsCalendar.detail.messages.none')}</Typography>;
  return (
    <ul style={{ margin: 0, paddingLeft: '1.1em' }}>
      {list.map((m) => {
        const outcome =
          m.state === 'sent'
            ? t(m.via === 'template' ? 'bookingsCalendar.detail.messages.sentTemplate' : 'bookingsCalendar.detail.messages.sent')
            : m.state === 'not_sent'
              ? t('bookingsCalendar.detail.messages.notSent', { reason: t(`bookingsCalendar.detail.messages.reasons.${m.reason ?? 'no_template'}`) })
              : m.state === 'failed'
                ? t('bookingsCalendar.detail.messages.failed', { error: serverText(m.error ?? '') })
                : t('bookingsCalendar.detail.messages.sending');
        return (
          <li key={`${m.kind}-${m.at}`}>
            <Typography variant="body2">
              {t(`bookingsCalendar.detail.messages.kinds.${m.kind}`)} · {intl.date(m.at, 'dateTime', timeZone)}: {outcome}
            </Typography>
          </li>
        );
      })}
    </ul>
  );
}
