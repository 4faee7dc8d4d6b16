/** How a phone number request reads, shared by the customer's panel (/voice-settings) and the Admin page. */
import type { PhoneRequestStatus } from '@agentdesk/functions/contract';

/** The status chip's colour. */
export const PHONE_STATUS_COLOR: Record<PhoneRequestStatus, 'warning' | 'info' | 'error' | 'success'> = {
  pending: 'warning',
  approved: 'info',
  rejected: 'error',
  assigned: 'success',
};
