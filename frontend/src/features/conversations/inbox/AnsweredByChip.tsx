/**
 * Who answers a conversation (issue 17), as a labelled chip (not colour alone): "AI" or "Person"
 * with its icon; and the unread badge of a board card.
 */
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import PersonOutline from '@mui/icons-material/PersonOutline';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import { useTranslation } from 'react-i18next';
import type { Conversation } from '@agentdesk/functions/contract';
import './i18n';

export function AnsweredByChip({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  const human = conversation.answeredBy === 'human';
  return (
    <Tooltip title={t(human ? 'inbox.chip.humanTitle' : 'inbox.chip.aiTitle')}>
      <Chip
        size="small"
        variant={human ? 'filled' : 'outlined'}
        color={human ? 'secondary' : 'default'}
        icon={human ? <PersonOutline /> : <SmartToyOutlined />}
        label={t(human ? 'inbox.chip.human' : 'inbox.chip.ai')}
        aria-label={t(human ? 'inbox.chip.humanTitle' : 'inbox.chip.aiTitle')}
        data-testid="conversation-answered-by"
        data-answered-by={conversation.answeredBy}
      />
    </Tooltip>
  );
}

export function UnreadBadge({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  const count = conversation.unreadCount ?? 0;
  if (count <= 0) return null;
  return (
    <Chip
      size="small"
      color="primary"
      label={count > 99 ? '99+' : count}
      aria-label={t('inbox.unread', { count })}
      title={t('inbox.unread', { count })}
      data-testid="conversation-unread"
      sx={{ fontWeight: 700, minWidth: 24 }}
    />
  );
}
