/** The calendar's words for a booking's status, channel and who booked it, in the UI language. */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Booking } from '@agentdesk/functions/contract';

/** A booking's status in words ("No se presentó"); stable while the language is. */
export function useStatusText(): (booking: Pick<Booking, 'status'>) => string {
  const { t } = useTranslation();
  return useCallback((booking) => t(`bookingsCalendar.statuses.${booking.status}`), [t]);
}
