/**
 * Issue 30, the first row of the outcome ledger: the bookings the agent made in the period (those
 * cancelled since counted apart), their value where the services have a price (in the account's
 * currency), by channel, linking to the calendar (/bookings). Figures come with GET /api/dashboard,
 * so the page's loading and error states are the card's; an empty state without any booking.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import EventAvailableOutlined from '@mui/icons-material/EventAvailableOutlined';
import PhoneInTalkOutlined from '@mui/icons-material/PhoneInTalkOutlined';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { AgentBookingChannel, DashboardData } from '@agentdesk/functions/contract';
import { formatNumber } from '../../shared/intl';
import { agentBookingFigures, formatBookingValue } from './format';

const CHANNEL_ICONS: Record<AgentBookingChannel, ReactNode> = {
  whatsapp: <WhatsApp fontSize="small" color="success" />,
  voice: <PhoneInTalkOutlined fontSize="small" color="primary" />,
  chat: <ChatOutlined fontSize="small" color="secondary" />,
};

export function AgentBookingsCard({ data }: { data: DashboardData }) {
  const { t, i18n } = useTranslation();
  const bookings = data.agentBookings;
  const figures = agentBookingFigures(bookings);
  const money = (cents: number) => formatBookingValue(cents, bookings.currency, i18n.language);
  const title = t('dashboard.bookings.title');
  const open = (
    <Box component={RouterLink} to="/bookings" sx={{ color: 'primary.dark' }} data-testid="agent-bookings-link">
      {t('dashboard.bookings.open')}
    </Box>
  );
  return (
    <Paper variant="outlined" sx={{ p: 2.5, minWidth: 0 }} component="section" aria-label={title} data-testid="agent-bookings">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Box
          aria-hidden
          sx={{ width: 48, height: 48, borderRadius: 2, display: 'grid', placeItems: 'center', flexShrink: 0, bgcolor: (theme) => alpha(theme.palette.success.main, 0.1), color: 'success.main' }}
        >
          <EventAvailableOutlined />
        </Box>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('dashboard.bookings.caption')}
          </Typography>
        </Box>
      </Stack>
      {figures.empty ? (
        <Box sx={{ py: 3, textAlign: 'center' }} data-testid="agent-bookings-empty">
          <Typography color="text.secondary">{t('dashboard.bookings.empty')}</Typography>
          <Typography variant="body2" sx={{ mt: 1 }}>
            {open}
          </Typography>
        </Box>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) minmax(0, 2fr)' }, mt: 2 }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h4" component="p" sx={{ fontWeight: 700, lineHeight: 1.2 }} data-testid="agent-bookings-count">
              {formatNumber(i18n.language, bookings.count)}
            </Typography>
            {figures.hasValue ? (
              <Typography sx={{ fontWeight: 600 }} data-testid="agent-bookings-value">
                {t('dashboard.bookings.value', { value: money(bookings.valueCents) })}
              </Typography>
            ) : (
              bookings.count > 0 && (
                <Typography variant="body2" color="text.secondary" data-testid="agent-bookings-no-value">
                  {t('dashboard.bookings.noValue')}
                </Typography>
              )
            )}
            {bookings.cancelled > 0 && (
              <Typography variant="body2" color="text.secondary" data-testid="agent-bookings-cancelled">
                {t('dashboard.bookings.cancelled', { count: bookings.cancelled })}
              </Typography>
            )}
            <Typography variant="body2" sx={{ mt: 1 }}>
              {open}
            </Typography>
          </Box>
          <Box component="dl" sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' }, m: 0 }}>
            {figures.channels.map((c) => (
              <Box key={c.channel} sx={{ minWidth: 0 }} data-testid={`agent-bookings-${c.channel}`}>
                <Stack component="dt" direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
                  <Box component="span" aria-hidden sx={{ display: 'inline-flex' }}>
                    {CHANNEL_ICONS[c.channel]}
                  </Box>
                  <Typography variant="body2" color="text.secondary" component="span">
                    {t(`dashboard.bookings.channel.${c.channel}`)}
                  </Typography>
                </Stack>
                <Box component="dd" sx={{ m: 0 }}>
                  <Typography sx={{ fontWeight: 700 }} data-testid="agent-bookings-channel-count">
                    {t('dashboard.bookings.channelCount', { count: c.count })}
                  </Typography>
                  {(c.valueCents > 0 || c.cancelled > 0) && (
                    <Typography variant="caption" color="text.secondary" component="p">
                      {[c.valueCents > 0 ? money(c.valueCents) : '', c.cancelled > 0 ? t('dashboard.bookings.cancelled', { count: c.cancelled }) : ''].filter(Boolean).join(' · ')}
                    </Typography>
                  )}
                </Box>
              </Box>
            ))}
          </Box>
        </Box>
      )}
    </Paper>
  );
}
