/** The calendar's words for a booking's status, channel and who booked it, in the UI language. */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Booking, BookingCustomer } from '@agentdesk/functions/contract';
import '../../../shared/privacy/strings';

/** A booking's status in words ("No se presentó"); stable while the language is. */
export function useStatusText(): (booking: Pick<Booking, 'status'>) => string {
  const { t } = useTranslation();
  return useCallback((booking) => t(`bookingsCalendar.statuses.${booking.status}`), [t]);
}

/** Who booked, as shown: "Datos borrados" once their data was erased at their request (issue 33; name and phone are then empty). */
export function useCustomerName(): (customer: Pick<BookingCustomer, 'name'> & { erased?: boolean }) => string {
  const { t } = useTranslation();
  return useCallback((customer) => (customer.erased ? t('privacy.erasedCustomer') : customer.name), [t]);
}
