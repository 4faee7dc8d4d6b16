/**
 * "Subscribe in your calendar" (issue 30): the private iCalendar feed links of the business and of
 * each staff member or room. A link is a credential, shown whole only right after it is made (copy
 * it then; lose it, make a new one) and masked after; making a new one or revoking stops the old
 * one at once, so both ask first. How to subscribe in Google Calendar, Apple Calendar and Outlook.
 */
import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Check from '@mui/icons-material/Check';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { useTranslation } from 'react-i18next';
import type { CalendarFeed } from '@agentdesk/functions/contract';
import { copyText } from '../../../shared/clipboard';
import { ConfirmDialog } from '../../../shared/ConfirmDialog';
import { RetryAlert } from '../../../shared/RetryAlert';
import { useIntl } from '../../../shared/useIntl';
import { useToast } from '../../../shared/useToast';
import { bookingErrorText } from '../messages';
import { useCalendarFeeds, useCreateCalendarFeed, useRevokeCalendarFeed } from './api';
import './i18n';

type Pending = { kind: 'rotate' | 'revoke'; feed: CalendarFeed } | null;

function RevealDialog({ feed, name, onClose }: { feed: CalendarFeed | null; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!feed?.url) return;
    if (await copyText(feed.url, input.current)) setCopied(true);
    else toast.error(t('bookingFeed.created.copyFailed'));
  };
  return (
    <Dialog open={feed !== null} maxWidth="sm" fullWidth aria-labelledby="calendar-feed-reveal-title" data-testid="calendar-feed-reveal">
      <DialogTitle id="calendar-feed-reveal-title">{t('bookingFeed.created.title', { name })}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('bookingFeed.created.body')}
        </Alert>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={t('bookingFeed.created.label')}
            value={feed?.url ?? ''}
            fullWidth
            inputRef={input}
            onFocus={(e) => e.target.select()}
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'calendar-feed-url', spellCheck: false } }}
          />
          <Button variant="outlined" onClick={() => void copy()} startIcon={copied ? <Check /> : <ContentCopy />} sx={{ flexShrink: 0, minHeight: 56 }}>
            {copied ? t('bookingFeed.created.copied') : t('bookingFeed.created.copy')}
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button
          variant="contained"
          onClick={() => {
            setCopied(false);
            onClose();
          }}
        >
          {t('bookingFeed.created.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function CalendarFeedPanel() {
  const { t } = useTranslation();
  const intl = useIntl();
  const toast = useToast();
  const feeds = useCalendarFeeds();
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  const [revealed, setRevealed] = useState<CalendarFeed | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const nameOf = (feed: CalendarFeed) => feed.staffName ?? t('bookingFeed.business');

  const make = async (feed: CalendarFeed) => {
    try {
      setRevealed(await create.mutateAsync(feed.staffId));
      setPending(null);
    } catch (err) {
      toast.error(bookingErrorText(err, t('bookingFeed.failed')));
    }
  };
  const drop = async (feed: CalendarFeed) => {
    try {
      await revoke.mutateAsync(feed.staffId);
      setPending(null);
      toast.success(t('bookingFeed.revoked'));
    } catch (err) {
      toast.error(bookingErrorText(err, t('bookingFeed.failed')));
    }
  };

  let rows;
  if (feeds.isError) {
    rows = (
      <RetryAlert retryLabel={t('bookingFeed.retry')} onRetry={() => void feeds.refetch()}>
        {bookingErrorText(feeds.error, t('bookingFeed.loadFailed'))}
      </RetryAlert>
    );
  } else if (!feeds.isSuccess) {
    rows = <Skeleton variant="rounded" height={120} role="status" aria-busy="true" aria-label={t('bookingFeed.working')} />;
  } else {
    rows = (
      <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {feeds.data.map((feed) => (
          <Box
            component="li"
            key={feed.staffId ?? 'business'}
            data-testid={`calendar-feed-${feed.staffId ?? 'business'}`}
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', justifyContent: 'space-between', border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
          >
            <Box sx={{ minWidth: 0, flex: '1 1 16rem' }}>
              <Typography variant="subtitle2" component="h3">
                {nameOf(feed)}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                {feed.url && feed.createdAt ? t('bookingFeed.masked', { date: intl.date(feed.createdAt) }) : t('bookingFeed.noLink')}
              </Typography>
            </Box>
            <Stack direction="row" spacing={1}>
              <Button
                size="small"
                variant={feed.url ? 'outlined' : 'contained'}
                disabled={create.isPending}
                onClick={() => (feed.url ? setPending({ kind: 'rotate', feed }) : void make(feed))}
                aria-label={`${feed.url ? t('bookingFeed.rotate') : t('bookingFeed.create')}: ${nameOf(feed)}`}
              >
                {feed.url ? t('bookingFeed.rotate') : t('bookingFeed.create')}
              </Button>
              {feed.url && (
                <Button size="small" color="error" onClick={() => setPending({ kind: 'revoke', feed })} aria-label={`${t('bookingFeed.revoke')}: ${nameOf(feed)}`}>
                  {t('bookingFeed.revoke')}
                </Button>
              )}
            </Stack>
          </Box>
        ))}
      </Stack>
    );
  }

  return (
    <Card variant="outlined" component="section" aria-labelledby="calendar-feed-title" data-testid="calendar-feed-panel">
      <CardContent>
        <Typography id="calendar-feed-title" variant="h6" component="h2" gutterBottom>
          {t('bookingFeed.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('bookingFeed.intro')}
        </Typography>
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('bookingFeed.secret')}
        </Alert>
        {rows}
        <Typography variant="subtitle2" component="h3" sx={{ mt: 3, mb: 1 }}>
          {t('bookingFeed.howTo.title')}
        </Typography>
        <Box component="ul" sx={{ m: 0, pl: 2.5, '& li': { mb: 0.75 } }}>
          {(['google', 'apple', 'outlook'] as const).map((app) => (
            <Typography component="li" variant="body2" key={app}>
              {t(`bookingFeed.howTo.${app}`)}
            </Typography>
          ))}
        </Box>
      </CardContent>
      <RevealDialog feed={revealed} name={revealed ? nameOf(revealed) : ''} onClose={() => setRevealed(null)} />
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'rotate' ? t('bookingFeed.confirmRotate.title') : t('bookingFeed.confirmRevoke.title')}
        body={pending?.kind === 'rotate' ? t('bookingFeed.confirmRotate.body') : t('bookingFeed.confirmRevoke.body')}
        subject={pending ? nameOf(pending.feed) : undefined}
        confirmLabel={pending?.kind === 'rotate' ? t('bookingFeed.confirmRotate.confirm') : t('bookingFeed.confirmRevoke.confirm')}
        pendingLabel={pending?.kind === 'rotate' ? t('bookingFeed.confirmRotate.pending') : t('bookingFeed.confirmRevoke.pending')}
        pending={create.isPending || revoke.isPending}
        tone={pending?.kind === 'rotate' ? 'primary' : 'danger'}
        onCancel={() => setPending(null)}
        onConfirm={() => pending && void (pending.kind === 'rotate' ? make(pending.feed) : drop(pending.feed))}
      />
    </Card>
  );
}
