/**
 * WhatsApp messages per day of the period (received and sent) as a bar chart (@mui/x-charts), its
 * own lazy chunk like CallsChart.
 */
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslation } from 'react-i18next';
import type { DashboardMessageAnalytics } from '@agentdesk/functions/contract';
import { dayLabel, showTick, yAxisMax } from './format';

export default function MessagesChart({ days }: { days: DashboardMessageAnalytics['perDay'] }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const dates = days.map((d) => d.date);
  const received = days.map((d) => d.received);
  const sent = days.map((d) => d.sent);
  return (
    <BarChart
      height={240}
      margin={{ left: 0, right: 8, top: 16, bottom: 0 }}
      xAxis={[
        {
          scaleType: 'band',
          data: dates,
          valueFormatter: (date: string) => dayLabel(date, i18n.language),
          tickInterval: (_value: string, index: number) => showTick(index, dates.length),
          tickLabelInterval: (_value: string, index: number) => showTick(index, dates.length),
        },
      ]}
      yAxis={[{ min: 0, max: yAxisMax(days.map((d) => d.received + d.sent)), tickMinStep: 1, width: 36 }]}
      series={[
        { id: 'received', data: received, label: t('dashboard.whatsapp.received'), color: theme.palette.info.main, stack: 'messages' },
        { id: 'sent', data: sent, label: t('dashboard.whatsapp.sent'), color: theme.palette.success.main, stack: 'messages' },
      ]}
      borderRadius={4}
    />
  );
}
