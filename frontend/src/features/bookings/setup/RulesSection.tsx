/**
 * The rules tab: the business's time zone (the account's by default), minimum notice, how far
 * ahead, slot step, reminders (on/off, hours before), the approved WhatsApp templates for a
 * confirmation or a reminder outside the 24-hour window, and the owner's e-mail per booking.
 */
import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  BOOKING_LIMITS,
  bookingMessages,
  bookingSettingsRequest,
  type BookingSettings,
  type BookingSettingsInput,
  type WhatsAppTemplateChoice,
} from '@agentdesk/functions/contract';
import { serverMessageOf } from '../../../api/client';
import { templateKeys, templatesApi } from '../../../api/whatsappTemplates';
import { timeZoneOptions } from '../../../shared/intl';
import { useCurrentUser } from '../../../shared/session';
import { useToast } from '../../../shared/useToast';
import { useSaveBookingSettings } from '../api';
import { translateBookingText } from '../messages';
import { formatMinutes } from './format';
import { noticeChoices, settingsInput } from './settings';
import './i18n';

type Field = 'timeZone' | 'minNoticeMinutes' | 'maxAdvanceDays' | 'slotStepMinutes' | 'reminderHours' | 'templates' | 'form';
type Errors = Partial<Record<Field, string>>;

const FIELD_OF: Record<string, Field> = {
  [bookingMessages.timeZoneInvalid]: 'timeZone',
  [bookingMessages.minNoticeInvalid]: 'minNoticeMinutes',
  [bookingMessages.maxAdvanceInvalid]: 'maxAdvanceDays',
  [bookingMessages.slotStepInvalid]: 'slotStepMinutes',
  [bookingMessages.reminderHoursInvalid]: 'reminderHours',
  [bookingMessages.templateInvalid]: 'templates',
};

function rulesErrors(messages: string[]): Errors {
  const out: Errors = {};
  for (const message of messages) out[FIELD_OF[message] ?? 'form'] ??= translateBookingText(message);
  return out;
}

const templateValue = (choice: WhatsAppTemplateChoice | null) => (choice ? `${choice.name}|${choice.language}` : '');
const templateOf = (value: string): WhatsAppTemplateChoice | null => {
  const at = value.lastIndexOf('|');
  return at > 0 ? { name: value.slice(0, at), language: value.slice(at + 1) } : null;
};

export function RulesSection({ settings }: { settings: BookingSettings }) {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const toast = useToast();
  const save = useSaveBookingSettings();
  const [form, setForm] = useState(() => settingsInput(settings));
  const [maxAdvance, setMaxAdvance] = useState(String(settings.maxAdvanceDays));
  const [reminderHours, setReminderHours] = useState(String(settings.reminderHours));
  const [errors, setErrors] = useState<Errors>({});
  const zones = useMemo(() => timeZoneOptions(form.timeZone), [form.timeZone]);
  const templates = useQuery({ queryKey: templateKeys.list, queryFn: ({ signal }) => templatesApi.list(signal), retry: false, staleTime: 60_000 });
  const set = (patch: Partial<BookingSettingsInput>, field?: Field) => {
    setForm((f) => ({ ...f, ...patch }));
    if (field) setErrors((e) => ({ ...e, [field]: undefined, form: undefined }));
  };

  const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) : Number.NaN);
  const submit = async () => {
    // Closures are the Closures tab's: the latest ones go with the rules.
    const input = { ...form, closures: settingsInput(settings).closures, maxAdvanceDays: whole(maxAdvance), reminderHours: whole(reminderHours) };
    const parsed = bookingSettingsRequest.safeParse(input);
    if (!parsed.success) {
      setErrors(rulesErrors(parsed.error.issues.map((i) => i.message)));
      return;
    }
    try {
      const env = await save.mutateAsync(parsed.data as BookingSettingsInput);
      toast.success(translateBookingText(env.message || bookingMessages.settingsSaved));
    } catch (err) {
      const server = serverMessageOf(err);
      setErrors(server ? rulesErrors([server]) : { form: t('bookingSetup.common.saveFailed') });
    }
  };

  const options = templates.data ?? [];
  const templateSelect = (key: 'confirmationTemplate' | 'reminderTemplate', label: string) => {
    const value = templateValue(form[key]);
    const known = options.some((o) => templateValue(o) === value);
    return (
      <TextField
        select
        label={label}
        value={value}
        disabled={!templates.isSuccess && !value}
        onChange={(e) => set({ [key]: templateOf(e.target.value) }, 'templates')}
        sx={{ flex: 1 }}
      >
        <MenuItem value="">{t('bookingSetup.rules.noTemplate')}</MenuItem>
        {options.map((o) => (
          <MenuItem key={templateValue(o)} value={templateValue(o)}>
            {o.name} ({o.language})
          </MenuItem>
        ))}
        {value && !known && <MenuItem value={value}>{`${form[key]!.name} (${form[key]!.language})`}</MenuItem>}
      </TextField>
    );
  };

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack
          component="form"
          noValidate
          spacing={2.5}
          aria-label={t('bookingSetup.rules.title')}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Typography variant="h6" component="h2">
            {t('bookingSetup.rules.title')}
          </Typography>
          {errors.form && (
            <Alert severity="error" role="alert">
              {errors.form}
            </Alert>
          )}
          <Autocomplete
            options={zones}
            value={form.timeZone}
            disableClearable
            autoHighlight
            onChange={(_, value) => set({ timeZone: value }, 'timeZone')}
            renderInput={(params) => (
              <TextField {...params} label={t('bookingSetup.rules.timeZone')} error={Boolean(errors.timeZone)} helperText={errors.timeZone ?? t('bookingSetup.rules.timeZoneHint', { zone: user.timeZone })} />
            )}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              select
              label={t('bookingSetup.rules.minNotice')}
              value={form.minNoticeMinutes}
              onChange={(e) => set({ minNoticeMinutes: Number(e.target.value) }, 'minNoticeMinutes')}
              error={Boolean(errors.minNoticeMinutes)}
              helperText={errors.minNoticeMinutes ?? t('bookingSetup.rules.minNoticeHint')}
              sx={{ flex: 1 }}
            >
              {noticeChoices(form.minNoticeMinutes).map((m) => (
                <MenuItem key={m} value={m}>
                  {m === 0 ? t('bookingSetup.rules.noticeNone') : formatMinutes(i18n.language, m)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              type="number"
              label={t('bookingSetup.rules.maxAdvance')}
              value={maxAdvance}
              onChange={(e) => {
                setMaxAdvance(e.target.value);
                setErrors((x) => ({ ...x, maxAdvanceDays: undefined }));
              }}
              error={Boolean(errors.maxAdvanceDays)}
              helperText={errors.maxAdvanceDays ?? t('bookingSetup.rules.maxAdvanceHint')}
              slotProps={{ htmlInput: { min: 1, max: BOOKING_LIMITS.maxAdvanceDays, inputMode: 'numeric' } }}
              sx={{ flex: 1 }}
            />
            <TextField
              select
              label={t('bookingSetup.rules.slotStep')}
              value={form.slotStepMinutes}
              onChange={(e) => set({ slotStepMinutes: Number(e.target.value) as BookingSettings['slotStepMinutes'] }, 'slotStepMinutes')}
              error={Boolean(errors.slotStepMinutes)}
              helperText={errors.slotStepMinutes ?? t('bookingSetup.rules.slotStepHint')}
              sx={{ flex: 1 }}
            >
              {BOOKING_LIMITS.slotSteps.map((step) => (
                <MenuItem key={step} value={step}>
                  {t('bookingSetup.rules.minutes', { count: step })}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <Divider />
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {t('bookingSetup.rules.remindersTitle')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <FormControlLabel
              sx={{ flex: 1 }}
              control={<Switch checked={form.remindersEnabled} onChange={(e) => set({ remindersEnabled: e.target.checked })} />}
              label={t('bookingSetup.rules.reminders')}
            />
            <TextField
              type="number"
              label={t('bookingSetup.rules.reminderHours')}
              value={reminderHours}
              disabled={!form.remindersEnabled}
              onChange={(e) => {
                setReminderHours(e.target.value);
                setErrors((x) => ({ ...x, reminderHours: undefined }));
              }}
              error={Boolean(errors.reminderHours)}
              helperText={errors.reminderHours ?? t('bookingSetup.rules.reminderHoursHint')}
              slotProps={{ htmlInput: { min: BOOKING_LIMITS.reminderHours.min, max: BOOKING_LIMITS.reminderHours.max, inputMode: 'numeric' } }}
              sx={{ width: { sm: 220 } }}
            />
          </Stack>
          <Typography variant="body2" color="text.secondary">
            {t('bookingSetup.rules.templatesHint')}
          </Typography>
          {templates.isError && <Alert severity="info">{t('bookingSetup.rules.templatesUnavailable')}</Alert>}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {templateSelect('confirmationTemplate', t('bookingSetup.rules.confirmationTemplate'))}
            {templateSelect('reminderTemplate', t('bookingSetup.rules.reminderTemplate'))}
          </Stack>
          {errors.templates && (
            <Alert severity="error" role="alert">
              {errors.templates}
            </Alert>
          )}
          <Divider />
          <FormControlLabel control={<Switch checked={form.emailOwner} onChange={(e) => set({ emailOwner: e.target.checked })} />} label={t('bookingSetup.rules.emailOwner')} />
          <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
            <Button type="submit" variant="contained" disabled={save.isPending}>
              {save.isPending ? t('bookingSetup.common.saving') : t('bookingSetup.rules.save')}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}
