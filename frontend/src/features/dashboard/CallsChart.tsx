/**
 * 'Voice Calls - Last 30 Days' as a bar chart (@mui/x-charts). Its own chunk: the dashboard page
 * loads it lazily, so neither the login route nor the dashboard's first paint carries the chart
 * library. Y in whole steps; at most 15 X labels, the newest day always labelled.
 */
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslation } from 'react-i18next';
import type { DashboardVoiceAnalytics } from '@agentdesk/functions/contract';
import { dayLabel, showTick, yAxisMax } from './format';

export default function CallsChart({ days }: { days: DashboardVoiceAnalytics['callsPerDay'] }) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const dates = days.map((d) => d.date);
  const totals = days.map((d) => d.total);
  return (
    <BarChart
      height={280}
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
      yAxis={[{ min: 0, max: yAxisMax(totals), tickMinStep: 1, width: 36 }]}
      series={[{ id: 'calls', data: totals, label: t('dashboard.chart.series'), color: theme.palette.primary.main }]}
      hideLegend
      borderRadius={4}
    />
  );
}
