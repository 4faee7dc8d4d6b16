import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { CallStatus } from '@agentdesk/functions/contract';
import { STATUS_COLOR } from './callFormat';

/** The call's status badge (SPEC §4 call states). */
export function CallStatusChip({ status }: { status: CallStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={STATUS_COLOR[status] ?? 'default'} label={t(`voiceCalls.status.${status}`, { defaultValue: status })} data-testid="call-status" />;
}
