import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { ConversationStatus } from '@agentdesk/functions/contract';

export const STATUS_COLOR: Record<ConversationStatus, 'success' | 'warning' | 'default' | 'info'> = {
  active: 'success',
  requires_human: 'warning',
  closed: 'default',
  archived: 'info',
};

export function ConversationStatusChip({ status }: { status: ConversationStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={STATUS_COLOR[status] ?? 'default'} label={t(`conversations.status.${status}`, { defaultValue: status })} />;
}
