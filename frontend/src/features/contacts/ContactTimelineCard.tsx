/**
 * The contact page's "Conversations & Calls" (issue 17): the contact's calls and WhatsApp
 * conversations, newest first, each linking to the call's detail or opening the conversation on
 * the board; the first 10, then "Show more" (10 more each time, up to the API's cap).
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
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

/** Where a timeline row leads: the call's detail page, or the board with the conversation open. */
export function timelineHref(item: Pick<ContactTimelineItem, 'kind' | 'id'>): string {
  return item.kind === 'call' ? `/voice-conversations/${encodeURIComponent(item.id)}` : `/conversations?open=${encodeURIComponent(item.id)}`;
}

function TimelineRow({ item }: { item: ContactTimelineItem }) {
  const { t, i18n } = useTranslation();
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
        <TimelineRow key={`${item.kind}-${item.id}`} item={item} />
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
