/**
 * The dashboard's WhatsApp figures (issue 19: GET /api/dashboard returned them but the page showed
 * none): messages received, sent and failed and new conversations and escalations in the period,
 * the conversations board by status now, and messages per day; an empty state without activity.
 */
import { lazy, Suspense } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { DashboardData } from '@agentdesk/functions/contract';
import { formatNumber } from '../../shared/intl';
import { whatsappFigures } from './format';
import { canOpenPage, useMemberRole } from '../../shared/memberRole';

const MessagesChart = lazy(() => import('./MessagesChart'));

const BOARD = ['active', 'requires_human', 'closed', 'archived'] as const;

export function WhatsAppSection({ data }: { data: DashboardData }) {
  const { t, i18n } = useTranslation();
  const count = (n: number) => formatNumber(i18n.language, n);
  const figures = whatsappFigures(data);
  const canConnect = canOpenPage(useMemberRole(), '/integrations');
  const title = t('dashboard.whatsapp.title');
  return (
    <Paper variant="outlined" sx={{ p: 2.5, minWidth: 0 }} component="section" aria-label={title} data-testid="whatsapp-section">
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('dashboard.whatsapp.caption')}
      </Typography>
      {figures.empty ? (
        <Box sx={{ py: 4, textAlign: 'center' }} data-testid="whatsapp-empty">
          <Typography color="text.secondary">{t('dashboard.whatsapp.empty')}</Typography>
          {/* Issue 32: connecting is for an admin or the owner. */}
          {canConnect && (
            <Typography variant="body2" sx={{ mt: 1 }}>
              <Box component={RouterLink} to="/integrations" sx={{ color: 'primary.dark' }}>
                {t('dashboard.whatsapp.connect')}
              </Box>
            </Typography>
          )}
        </Box>
      ) : (
        <>
          <Box component="dl" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(5, minmax(0, 1fr))' }, m: 0, mt: 2 }}>
            {figures.cards.map(({ id, value }) => (
              <Box key={id} data-testid={`whatsapp-${id}`} sx={{ minWidth: 0 }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {t(`dashboard.whatsapp.${id}`)}
                </Typography>
                <Typography component="dd" variant="h5" sx={{ m: 0, fontWeight: 700 }} data-testid="whatsapp-value">
                  {count(value)}
                </Typography>
              </Box>
            ))}
          </Box>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center', mt: 2 }} data-testid="whatsapp-board">
            <Typography variant="body2" color="text.secondary">
              {t('dashboard.whatsapp.board')}
            </Typography>
            {BOARD.map((status) => (
              <Chip key={status} size="small" variant="outlined" label={t(`dashboard.whatsapp.status.${status}`, { count: data.whatsappAnalytics.byStatus[status] })} />
            ))}
          </Stack>
          {figures.hasDailyMessages && (
            <Box sx={{ mt: 2 }} data-testid="whatsapp-chart">
              <Suspense
                fallback={
                  <Box sx={{ height: 240, display: 'grid', placeItems: 'center' }}>
                    <CircularProgress size={28} aria-label={t('dashboard.chart.loading')} />
                  </Box>
                }
              >
                <MessagesChart days={data.messageAnalytics.perDay} />
              </Suspense>
            </Box>
          )}
        </>
      )}
    </Paper>
  );
}
