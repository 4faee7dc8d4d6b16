/**
 * A week of opening hours: per day a switch (open/closed) and its ranges (several a day: a split
 * day is two), add and remove a range, and "copy Monday to weekdays". Times are native time
 * fields in 5-minute steps (keyboard and screen-reader friendly); a day's problem (overlap, an
 * end before its start) shows under it in the contract's words, translated.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { BOOKING_LIMITS, WEEKDAYS, type WeeklyHours } from '@agentdesk/functions/contract';
import { addRange, copyMondayToWeekdays, nextRange, overlappingRanges, removeRange, setRange, toggleDay, weekProblems } from './hours';
import { translateBookingText } from '../messages';
import './i18n';

interface WeeklyHoursEditorProps {
  value: WeeklyHours;
  onChange: (week: WeeklyHours) => void;
  /** Show the days' problems (after a first save attempt, or always). */
  showProblems?: boolean;
}

export function WeeklyHoursEditor({ value, onChange, showProblems = true }: WeeklyHoursEditorProps) {
  const { t } = useTranslation();
  const id = useId();
  const problems = weekProblems(value);
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }} data-testid="weekly-hours">
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, p: 0 }}>
        {t('bookingSetup.hours.legend')}
      </Typography>
      <Box sx={{ mb: 1 }}>
        <Button size="small" startIcon={<ContentCopy />} onClick={() => onChange(copyMondayToWeekdays(value))}>
          {t('bookingSetup.hours.copyMonday')}
        </Button>
      </Box>
      <Stack spacing={1.5}>
        {WEEKDAYS.map((day) => {
          const dayName = t(`bookingSetup.days.${day}`);
          const ranges = value[day];
          const open = ranges.length > 0;
          const overlap = new Set(overlappingRanges(ranges));
          const problem = showProblems ? problems[day] : undefined;
          const problemId = `${id}-${day}-problem`;
          return (
            <Box key={day} role="group" aria-label={dayName} data-testid={`hours-${day}`} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}>
              <FormControlLabel
                sx={{ width: 170, m: 0, mt: 0.5 }}
                control={<Switch checked={open} onChange={(e) => onChange(toggleDay(value, day, e.target.checked))} slotProps={{ input: { 'aria-label': t('bookingSetup.hours.open', { day: dayName }) } }} />}
                label={
                  <Typography sx={{ fontWeight: 500 }}>
                    {dayName}
                    {!open && (
                      <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
                        {t('bookingSetup.hours.closed')}
                      </Typography>
                    )}
                  </Typography>
                }
              />
              {open && (
                <Stack spacing={1} sx={{ flex: 1, minWidth: 260 }}>
                  {ranges.map((range, i) => {
                    const n = i + 1;
                    const bad = Boolean(problem) && (overlap.has(i) || range.end <= range.start);
                    return (
                      <Stack key={i} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <TextField
                          type="time"
                          size="small"
                          label={t('bookingSetup.hours.from')}
                          value={range.start}
                          error={bad}
                          onChange={(e) => onChange(setRange(value, day, i, { start: e.target.value }))}
                          slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300, 'aria-label': t('bookingSetup.hours.fromLabel', { day: dayName, position: n }), 'aria-describedby': problem ? problemId : undefined } }}
                          sx={{ width: 150 }}
                        />
                        <TextField
                          type="time"
                          size="small"
                          label={t('bookingSetup.hours.to')}
                          value={range.end === '24:00' ? '23:59' : range.end}
                          error={bad}
                          onChange={(e) => onChange(setRange(value, day, i, { end: e.target.value }))}
                          slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300, 'aria-label': t('bookingSetup.hours.toLabel', { day: dayName, position: n }), 'aria-describedby': problem ? problemId : undefined } }}
                          sx={{ width: 150 }}
                        />
                        <Tooltip title={t('bookingSetup.hours.removeRange')}>
                          <IconButton aria-label={t('bookingSetup.hours.removeRangeLabel', { position: n, day: dayName })} onClick={() => onChange(removeRange(value, day, i))}>
                            <DeleteOutline />
                          </IconButton>
                        </Tooltip>
                      </Stack>
                    );
                  })}
                  <Box>
                    <Button
                      size="small"
                      startIcon={<Add />}
                      disabled={ranges.length >= BOOKING_LIMITS.rangesPerDay || nextRange(ranges) === null}
                      aria-label={t('bookingSetup.hours.addRangeLabel', { day: dayName })}
                      onClick={() => onChange(addRange(value, day))}
                    >
                      {t('bookingSetup.hours.addRange')}
                    </Button>
                  </Box>
                  {problem && (
                    <FormHelperText error id={problemId} role="alert">
                      {translateBookingText(problem)}
                    </FormHelperText>
                  )}
                </Stack>
              )}
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}
