/**
 * The call detail's response times (issue 16), for streamed calls only: the call's p50 / p95 and
 * one row per agent answer with the time to its first and to its last token, as text and as a bar
 * (waiting, then speaking) on one scale; interrupted answers are marked in words, not only colour.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { VoiceConversation } from '@agentdesk/functions/contract';
import { DetailSection } from '../../shared/DetailSection';
import { formatLatency } from '../../shared/latency';
import { latencyRows } from './latencyFormat';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Typography variant="h6" component="p" sx={{ fontVariantNumeric: 'tabular-nums', lineHeight: 1.3 }} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

export function LatencyTimeline({ call }: { call: Pick<VoiceConversation, 'conversationMode' | 'latency' | 'messages'> }) {
  const { t, i18n } = useTranslation();
  if (call.conversationMode !== 'streaming') return null;
  const lang = i18n.language;
  const rows = latencyRows(call.messages);
  return (
    <DetailSection title={t('voiceCalls.latency.title')}>
      <Box data-testid="call-latency-timeline">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('voiceCalls.latency.hint')}
        </Typography>
        {rows.length === 0 ? (
          <Typography color="text.secondary" data-testid="call-latency-none">
            {t('voiceCalls.latency.none')}
          </Typography>
        ) : (
          <>
            {call.latency && (
              <Stack direction="row" spacing={4} useFlexGap sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'flex-end' }}>
                <Figure label={t('voiceCalls.latency.typical')} value={formatLatency(call.latency.p50Ms, lang)} testId="call-latency-p50" />
                <Figure label={t('voiceCalls.latency.slowest')} value={formatLatency(call.latency.p95Ms, lang)} testId="call-latency-p95" />
                <Typography variant="body2" color="text.secondary" sx={{ pb: 0.5 }}>
                  {t('voiceCalls.latency.answers', { count: call.latency.turns })}
                </Typography>
              </Stack>
            )}
            <Stack component="ol" spacing={1.5} aria-label={t('voiceCalls.latency.listLabel')} sx={{ listStyle: 'none', m: 0, p: 0 }}>
              {rows.map((row) => (
                <Box component="li" key={row.index} data-testid="latency-row" data-interrupted={row.interrupted ? 'true' : 'false'}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {t('voiceCalls.latency.turn', { turn: row.turn })}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="latency-row-times">
                      {t('voiceCalls.latency.started', { value: formatLatency(row.firstTokenMs, lang) })}, {t('voiceCalls.latency.finished', { value: formatLatency(row.lastTokenMs, lang) })}
                    </Typography>
                    {row.interrupted && (
                      <Chip size="small" color="warning" variant="outlined" label={t('voiceCalls.latency.interrupted')} title={t('voiceCalls.latency.interruptedHint')} data-testid="latency-row-interrupted" />
                    )}
                  </Stack>
                  {/* The bar repeats the text above: waiting for the first word, then speaking until the last. */}
                  <Box aria-hidden sx={{ position: 'relative', height: 8, mt: 0.5, borderRadius: 1, bgcolor: 'action.hover', overflow: 'hidden' }}>
                    <Box sx={{ position: 'absolute', left: 0, top: 0, bottom: 0, width: `${row.firstPct}%`, bgcolor: (theme) => alpha(theme.palette.primary.main, 0.35) }} />
                    <Box
                      sx={{
                        position: 'absolute',
                        left: `${row.firstPct}%`,
                        top: 0,
                        bottom: 0,
                        width: `${Math.max(0, row.lastPct - row.firstPct)}%`,
                        bgcolor: row.interrupted ? 'warning.main' : 'primary.main',
                        // Interrupted answers are striped too, so the difference does not rest on colour alone.
                        backgroundImage: row.interrupted ? 'repeating-linear-gradient(45deg, transparent 0 4px, rgba(255,255,255,0.45) 4px 8px)' : 'none',
                      }}
                    />
                  </Box>
                </Box>
              ))}
            </Stack>
          </>
        )}
      </Box>
    </DetailSection>
  );
}
