/**
 * Closures and holidays (date range + reason), for the business or one staff member: the list,
 * soonest first (past ones marked), a remove button each, and a row to add one. Dates are local
 * dates of the business's zone, shown in the UI language.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useTranslation } from 'react-i18next';
import { BOOKING_LIMITS, bookingMessages } from '@agentdesk/functions/contract';
import { useIntl } from '../../../shared/useIntl';
import { SectionHeading } from '../../../shared/SectionHeading';
import { closureProblem, sortedClosures, type ClosureDraft } from './hours';
import { translateBookingText } from '../messages';
import './i18n';

interface ClosuresEditorProps {
  value: ClosureDraft[];
  /** The new list (a closure added or removed); may save at once (the business's) and fail. */
  onChange: (closures: ClosureDraft[]) => void | Promise<boolean>;
  title: string;
  hint: string;
  /** Today in the business's zone ("2026-12-01"): closures that ended before are marked past. */
  today: string;
  pending?: boolean;
  /** The title's element (h2 on its own tab, h3 inside a dialog). */
  headingLevel?: 'h2' | 'h3';
}

/** A local date ("2026-12-24") in the UI language, the date itself (not shifted by any zone). */
export function useLocalDate() {
  const intl = useIntl();
  return (date: string) => intl.date(`${date}T12:00:00Z`, 'date', 'UTC') ?? date;
}

export function ClosuresEditor({ value, onChange, title, hint, today, pending = false, headingLevel = 'h3' }: ClosuresEditorProps) {
  const { t } = useTranslation();
  const localDate = useLocalDate();
  const [draft, setDraft] = useState<ClosureDraft>({ from: today, to: today, reason: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const span = (c: ClosureDraft) => (c.from === c.to ? localDate(c.from) : t('bookingSetup.closures.range', { from: localDate(c.from), to: localDate(c.to) }));

  const add = async () => {
    const found = closureProblem(draft);
    if (found) {
      setProblem(translateBookingText(found));
      return;
    }
    if (value.length >= BOOKING_LIMITS.closures) {
      setProblem(translateBookingText(bookingMessages.tooManyClosures));
      return;
    }
    const saved = await onChange([...value, { from: draft.from, to: draft.to, reason: draft.reason.trim() }]);
    if (saved !== false) {
      setDraft({ from: today, to: today, reason: '' });
      setProblem(null);
    }
  };

  return (
    <Box>
      <SectionHeading title={title} text={hint} variant={headingLevel === 'h2' ? 'h6' : 'subtitle1'} component={headingLevel} />
      {value.length === 0 ? (
        <Box sx={{ color: 'text.secondary', my: 1 }}>{t('bookingSetup.closures.empty')}</Box>
      ) : (
        <List dense aria-label={title}>
          {sortedClosures(value).map((c) => (
            <ListItem
              key={c._id ?? `${c.from}/${c.to}/${c.reason}`}
              data-testid="closure"
              disableGutters
              secondaryAction={
                <Tooltip title={t('bookingSetup.closures.remove')}>
                  <span>
                    <IconButton
                      edge="end"
                      disabled={pending}
                      aria-label={t('bookingSetup.closures.removeLabel', { range: span(c) })}
                      onClick={() => void onChange(value.filter((x) => x !== c))}
                    >
                      <DeleteOutline />
                    </IconButton>
                  </span>
                </Tooltip>
              }
            >
              <ListItemText primary={span(c)} secondary={c.reason || undefined} />
              {c.to < today && <Chip size="small" label={t('bookingSetup.closures.past')} sx={{ mr: 6 }} />}
            </ListItem>
          ))}
        </List>
      )}
      {/* A grid, not a flex row: the date fields' own width left the reason field a few pixels wide. */}
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr', sm: '170px 170px minmax(160px, 1fr) auto' }, alignItems: 'start', mt: 1 }}>
        <TextField
          type="date"
          size="small"
          label={t('bookingSetup.closures.from')}
          value={draft.from}
          onChange={(e) => {
            const from = e.target.value;
            setDraft((d) => ({ ...d, from, to: d.to < from ? from : d.to }));
            setProblem(null);
          }}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="date"
          size="small"
          label={t('bookingSetup.closures.to')}
          value={draft.to}
          onChange={(e) => {
            setDraft((d) => ({ ...d, to: e.target.value }));
            setProblem(null);
          }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: draft.from } }}
        />
        <TextField
          size="small"
          label={t('bookingSetup.closures.reason')}
          placeholder={t('bookingSetup.closures.reasonPlaceholder')}
          value={draft.reason}
          onChange={(e) => setDraft((d) => ({ ...d, reason: e.target.value }))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void add();
            }
          }}
          slotProps={{ htmlInput: { maxLength: BOOKING_LIMITS.closureReason } }}
        />
        <Button variant="outlined" startIcon={<Add />} onClick={() => void add()} disabled={pending} sx={{ whiteSpace: 'nowrap', height: 40 }}>
          {t('bookingSetup.closures.add')}
        </Button>
      </Box>
      {problem && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {problem}
        </Alert>
      )}
    </Box>
  );
}
