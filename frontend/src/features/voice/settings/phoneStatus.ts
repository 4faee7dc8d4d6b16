/** How a phone number request reads, shared by the customer's panel (/voice-settings) and the Admin page. */
import type { PhoneRequestStatus } from '@agentdesk/functions/contract';

/** The status chip's colour. */
export const PHONE_STATUS_COLOR: Record<PhoneRequestStatus, 'warning' | 'info' | 'error' | 'success'> = {
  pending: 'warning',
  approved: 'info',
  rejected: 'error',
  assigned: 'success',
};

/** A request's date and time in the reader's language; `empty` when there is none, the raw text when it does not parse. */
export function formatRequestDate(language: string, iso: string | null, empty: string): string {
  if (!iso) return empty;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
