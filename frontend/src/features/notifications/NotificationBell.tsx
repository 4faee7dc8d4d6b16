/**
 * The app bar's bell (issue 17): the unread count as a badge; the menu lists the newest
 * notifications (unread ones marked), a click marks it read and opens the conversation or the
 * call; "Mark all as read"; empty and error states. Polls every 30 s while the page is visible.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import PhoneAlertIcon from '@mui/icons-material/MobileFriendlyOutlined';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { AppNotification } from '@agentdesk/functions/contract';
import { formatDate } from '../../shared/intl';
import './i18n';
import { notificationHref } from './format';
import { healthReasonText } from '../../shared/integrationHealth';

/** What a notification says under its title: an escalation's reason as written, an integration's in words (issue 34). */
const reasonOf = (n: AppNotification) => (n.kind === 'integration_needs_attention' ? healthReasonText(n.reason) : n.reason);
import { useMarkAllRead, useMarkRead, useNotifications } from './queries';
import { PushSettingsDialog } from './PushSettingsDialog';

export function NotificationBell() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [pushOpen, setPushOpen] = useState(false);
  const query = useNotifications();
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const unread = query.data?.unreadCount ?? 0;
  const items = query.data?.notifications ?? [];
  const label = unread > 0 ? t('notifications.openUnread', { count: unread }) : t('notifications.open');

  const open = (n: AppNotification) => {
    setAnchor(null);
    if (n.readAt === null) markRead.mutate(n._id);
    void navigate(notificationHref(n));
  };

  return (
    <>
      <Tooltip title={t('notifications.title')}>
        <IconButton
          onClick={(e) => {
            setAnchor(e.currentTarget);
            void query.refetch();
          }}
          aria-label={label}
          aria-haspopup="menu"
          data-testid="notification-bell"
          sx={{ mr: 1 }}
        >
{/* No digits in the button when nothing is unread: its name ('Notificaciones') must hold its visible text (WCAG 2.5.3). */}
          <Badge badgeContent={unread > 0 ? unread : undefined} color="error" max={99} data-testid="notification-count">
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 360, maxWidth: 'calc(100vw - 32px)' } }, list: { 'aria-label': t('notifications.title'), dense: true } }}
      >
        <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ px: 2, py: 1 }} component="li" tabIndex={-1}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t('notifications.title')}
          </Typography>
          <Button size="small" disabled={unread === 0 || markAll.isPending} onClick={() => markAll.mutate()} data-testid="notifications-mark-all">
            {t('notifications.markAllRead')}
          </Button>
        </Stack>
        <Divider component="li" />
        {query.isPending ? (
          <Box component="li" sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
            <CircularProgress size={24} />
          </Box>
        ) : query.isError && !query.data ? (
          <Box component="li" sx={{ p: 2 }}>
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void query.refetch()}>
                  {t('notifications.retry')}
                </Button>
              }
            >
              {t('notifications.loadFailed')}
            </Alert>
          </Box>
        ) : items.length === 0 ? (
          <Typography component="li" variant="body2" color="text.secondary" sx={{ textAlign: 'center', py: 3 }} data-testid="notifications-empty">
            {t('notifications.empty')}
          </Typography>
        ) : (
          items.map((n) => {
            const isUnread = n.readAt === null;
            return (
              <MenuItem
                key={n._id}
                onClick={() => open(n)}
                data-testid="notification-item"
                data-unread={isUnread ? 'true' : 'false'}
                sx={{ alignItems: 'flex-start', whiteSpace: 'normal', bgcolor: isUnread ? 'action.hover' : undefined, py: 1 }}
              >
                <Box
                  aria-label={isUnread ? t('notifications.unread') : undefined}
                  sx={{ width: 8, height: 8, borderRadius: '50%', mt: 0.9, mr: 1.5, flexShrink: 0, bgcolor: isUnread ? 'primary.main' : 'transparent' }}
                />
                <ListItemText
                  primary={`${t(`notifications.kinds.${n.kind}`)}: ${n.contactName.trim() || t('notifications.unknownContact')}`}
                  secondary={
                    <>
                      <Box component="span" sx={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                        {n.kind === 'messages_waiting' ? t(`notifications.noAnswerReasons.${n.reason}`, { defaultValue: t('notifications.noAnswerReasons.unavailable') }) : reasonOf(n)}
                      </Box>
                      <Box component="span" sx={{ display: 'block' }}>
                        {formatDate(i18n.language, n.createdAt)}
                      </Box>
                      {(n.email?.state === 'retrying' || n.email?.state === 'failed') && (
                        // Issue 34: the alert's e-mail waits for the e-mail service, or could not be sent.
                        <Box component="span" sx={{ display: 'block', color: n.email.state === 'failed' ? 'error.main' : 'warning.main' }} data-testid="notification-email" data-state={n.email.state}>
                          {t(`notifications.email.${n.email.state}`)}
                        </Box>
                      )}
                    </>
                  }
                  slotProps={{ primary: { sx: { fontWeight: isUnread ? 600 : 400 } } }}
                />
              </MenuItem>
            );
          })
        )}
        {markRead.isError && (
          <Box component="li" sx={{ px: 2, pb: 1 }}>
            <Alert severity="error">{t('notifications.markFailed')}</Alert>
          </Box>
        )}
        <Divider component="li" />
        {/* Issue 29: Web Push on this device (the installable app's alerts). */}
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setPushOpen(true);
          }}
          data-testid="push-settings-open"
        >
          <PhoneAlertIcon fontSize="small" sx={{ mr: 1.5, color: 'text.secondary' }} />
          <ListItemText primary={t('notifications.push.menuItem')} />
        </MenuItem>
      </Menu>
      <PushSettingsDialog open={pushOpen} onClose={() => setPushOpen(false)} />
    </>
  );
}
