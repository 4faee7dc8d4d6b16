import { useId } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../shared/intl';
import { formatCompact, formatLimit, usageMeter } from './usage';

/** Bar colours: yellow from 80 %, red from 100 % (SPEC §9); text colours dark enough to read. */
const BAR = { primary: '#4f46e5', warning: '#eab308', error: '#dc2626' } as const;
const TEXT = { primary: 'text.secondary', warning: '#a16207', error: '#b91c1c' } as const;

/** One metric: label, 'used / limit' (∞ when unlimited, no bar), the bar and its message. */
export function UsageBar({ label, used, limit, utilization }: { label: string; used: number; limit: number; utilization?: number | null }) {
  const { t, i18n } = useTranslation();
  const labelId = useId();
  const meter = usageMeter(used, limit, utilization);
  const message =
    meter.level === 'exceeded'
      ? t('billing.usage.exceeded')
      : meter.level === 'warning'
        ? t('billing.usage.warning')
        : meter.level === 'normal'
          ? t('billing.usage.remaining', { percent: formatNumber(i18n.language, (meter.remainingPercent ?? 0) / 100, { style: 'percent', maximumFractionDigits: 1 }) })
          : t('billing.usage.unlimited');

  return (
    <Box role="group" aria-labelledby={labelId} data-testid="usage-bar" data-level={meter.level} sx={{ py: 1.5 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline', mb: 1 }}>
        <Typography id={labelId} sx={{ fontWeight: 600 }}>
          {label}
        </Typography>
        <Typography color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
          {t('billing.usage.of', { used: formatCompact(used, i18n.language), limit: formatLimit(limit, i18n.language) })}
        </Typography>
      </Stack>
      {meter.barValue !== null && (
        <LinearProgress
          variant="determinate"
          value={meter.barValue}
          aria-labelledby={labelId}
          aria-valuetext={`${meter.percent}%`}
          sx={{
            height: 10,
            borderRadius: 5,
            bgcolor: '#eef0f6',
            '& .MuiLinearProgress-bar': { borderRadius: 5, bgcolor: BAR[meter.color] },
          }}
        />
      )}
      <Typography variant="body2" sx={{ mt: 0.75, color: TEXT[meter.color], fontWeight: meter.level === 'normal' || meter.level === 'unlimited' ? 400 : 600 }}>
        {message}
      </Typography>
    </Box>
  );
}
