/**
 * Add or edit a staff member or room: name, person or room, weekly hours (several ranges a day)
 * and their own closures. Checked with the contract's schema before the call; the server's
 * refusals show on their field, translated. The wizard uses the form without hours (they come
 * from its first step).
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import {
  BOOKING_LIMITS,
  STAFF_KINDS,
  bookingMessages,
  bookingStaffRequest,
  type BookingStaff,
  type BookingStaffInput,
  type StaffKind,
  type WeeklyHours,
} from '@agentdesk/functions/contract';
import { serverMessageOf } from '../../../api/client';
import { FormDialogActions } from '../../../shared/FormDialogActions';
import { useToast } from '../../../shared/useToast';
import { useSaveStaff } from '../api';
import { translateBookingText } from '../messages';
import { ClosuresEditor } from './ClosuresEditor';
import { defaultWeek, sortedWeek, weekProblems, type ClosureDraft } from './hours';
import { WeeklyHoursEditor } from './WeeklyHoursEditor';
import './i18n';

type Field = 'name' | 'kind' | 'hours' | 'closures' | 'form';
type Errors = Partial<Record<Field, string>>;

const FIELD_OF: Record<string, Field> = {
  [bookingMessages.staffNameRequired]: 'name',
  [bookingMessages.staffNameTooLong]: 'name',
  [bookingMessages.staffNameTaken]: 'name',
  [bookingMessages.staffKindInvalid]: 'kind',
  [bookingMessages.timeInvalid]: 'hours',
  [bookingMessages.rangeOrder]: 'hours',
  [bookingMessages.rangesOverlap]: 'hours',
  [bookingMessages.tooManyRanges]: 'hours',
  [bookingMessages.dateInvalid]: 'closures',
  [bookingMessages.closureOrder]: 'closures',
  [bookingMessages.closureTooLong]: 'closures',
  [bookingMessages.closureReasonTooLong]: 'closures',
  [bookingMessages.tooManyClosures]: 'closures',
};

export function staffErrors(messages: string[]): Errors {
  const out: Errors = {};
  for (const message of messages) {
    const field = FIELD_OF[message] ?? 'form';
    out[field] ??= translateBookingText(message);
  }
  return out;
}

interface StaffFormProps {
  staff: BookingStaff | null;
  /** A new one's hours (the wizard's business hours). */
  initialHours?: WeeklyHours;
  /** Without the hours and closures editors (the wizard). */
  nameOnly?: boolean;
  today: string;
  onSaved: (staff: BookingStaff | undefined) => void;
  onCancel: () => void;
  formId: string;
  cancelLabel?: string;
  submitLabel?: string;
}

export function StaffForm({ staff, initialHours, nameOnly = false, today, onSaved, onCancel, formId, cancelLabel, submitLabel }: StaffFormProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveStaff();
  const [name, setName] = useState(staff?.name ?? '');
  const [kind, setKind] = useState<StaffKind>(staff?.kind ?? 'person');
  // The wizard's hours win (its first step may have changed since this staff member was saved).
  const [hours, setHours] = useState<WeeklyHours>((nameOnly ? initialHours : undefined) ?? staff?.weeklyHours ?? initialHours ?? defaultWeek());
  const [closures, setClosures] = useState<ClosureDraft[]>(staff?.closures ?? []);
  const [errors, setErrors] = useState<Errors>({});
  const [tried, setTried] = useState(false);
  const clear = (field: Field) => setErrors((prev) => ({ ...prev, [field]: undefined, form: undefined }));

  const submit = async () => {
    setTried(true);
    const input = { name, kind, weeklyHours: sortedWeek(hours), closures, googleCalendarIds: staff?.googleCalendarIds ?? [] };
    const parsed = bookingStaffRequest.safeParse(input);
    if (!parsed.success) {
      setErrors(staffErrors(parsed.error.issues.map((i) => i.message)));
      return;
    }
    try {
      const env = await save.mutateAsync({ id: staff?._id, input: parsed.data as BookingStaffInput });
      toast.success(translateBookingText(env.message || (staff ? bookingMessages.staffUpdated : bookingMessages.staffCreated)));
      onSaved(env.data);
    } catch (err) {
      const server = serverMessageOf(err);
      setErrors(server ? staffErrors([server]) : { form: t('bookingSetup.common.saveFailed') });
    }
  };

  // The hours editor says each day's problem itself; the summary only repeats a server one.
  const hoursError = errors.hours && Object.keys(weekProblems(hours)).length === 0 ? errors.hours : undefined;
  return (
    <>
      <Stack
        component="form"
        id={formId}
        noValidate
        spacing={2}
        sx={{ pt: 1 }}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {errors.form && (
          <Alert severity="error" role="alert">
            {errors.form}
          </Alert>
        )}
        <TextField
          label={t('bookingSetup.staff.form.name')}
          placeholder={t('bookingSetup.staff.form.namePlaceholder')}
          required
          fullWidth
          autoFocus
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            clear('name');
          }}
          error={Boolean(errors.name)}
          helperText={errors.name}
          slotProps={{ htmlInput: { maxLength: BOOKING_LIMITS.staffName } }}
        />
        <FormControl error={Boolean(errors.kind)}>
          <FormLabel id={`${formId}-kind`}>{t('bookingSetup.staff.form.kind')}</FormLabel>
          <RadioGroup row aria-labelledby={`${formId}-kind`} value={kind} onChange={(e) => setKind(e.target.value as StaffKind)}>
            {STAFF_KINDS.map((k) => (
              <FormControlLabel key={k} value={k} control={<Radio />} label={t(`bookingSetup.staff.${k}`)} />
            ))}
          </RadioGroup>
        </FormControl>
        {!nameOnly && (
          <>
            <Divider />
            <WeeklyHoursEditor
              value={hours}
              onChange={(next) => {
                setHours(next);
                clear('hours');
              }}
              showProblems={tried}
            />
            {hoursError && (
              <Alert severity="error" role="alert">
                {hoursError}
              </Alert>
            )}
            <Divider />
            <ClosuresEditor
              value={closures}
              onChange={(next) => {
                setClosures(next);
                clear('closures');
              }}
              title={t('bookingSetup.closures.staffTitle')}
              hint={t('bookingSetup.closures.staffHint')}
              today={today}
            />
            {errors.closures && (
              <Alert severity="error" role="alert">
                {errors.closures}
              </Alert>
            )}
          </>
        )}
      </Stack>
      <FormDialogActions
        cancelLabel={cancelLabel ?? t('bookingSetup.common.cancel')}
        submitLabel={submitLabel ?? t('bookingSetup.common.save')}
        pendingLabel={t('bookingSetup.common.saving')}
        pending={save.isPending}
        onCancel={onCancel}
        form={formId}
      />
    </>
  );
}

interface StaffDialogProps extends Omit<StaffFormProps, 'formId' | 'onCancel' | 'nameOnly'> {
  open: boolean;
  onClose: () => void;
}

export function StaffDialog({ open, onClose, ...form }: StaffDialogProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth fullScreen={phone} aria-labelledby="booking-staff-title">
      <DialogTitle id="booking-staff-title">{form.staff ? t('bookingSetup.staff.form.editTitle', { name: form.staff.name }) : t('bookingSetup.staff.form.addTitle')}</DialogTitle>
      <DialogContent>{open && <StaffForm {...form} formId="booking-staff-form" onCancel={onClose} />}</DialogContent>
    </Dialog>
  );
}
