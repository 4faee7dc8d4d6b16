/**
 * Add or edit a service: name, duration, buffer after, price (typed in the UI language, in the
 * account's currency), who does it (staff and rooms), bookable by the agent. Checked with the
 * contract's schema before the call; the server's refusals show on their field, translated.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { BOOKING_LIMITS, bookingMessages, bookingServiceRequest, type BookingService, type BookingServiceInput, type BookingStaff } from '@agentdesk/functions/contract';
import { serverMessageOf } from '../../../api/client';
import { FormDialogActions } from '../../../shared/FormDialogActions';
import { useToast } from '../../../shared/useToast';
import { useSaveService } from '../api';
import { translateBookingText } from '../messages';
import { currencySymbol, parsePrice, priceInput } from './format';
import './i18n';

type Field = 'name' | 'durationMinutes' | 'bufferAfterMinutes' | 'priceCents' | 'staffIds' | 'form';
type Errors = Partial<Record<Field, string>>;

const FIELD_OF: Record<string, Field> = {
  [bookingMessages.serviceNameRequired]: 'name',
  [bookingMessages.serviceNameTooLong]: 'name',
  [bookingMessages.serviceNameTaken]: 'name',
  [bookingMessages.durationInvalid]: 'durationMinutes',
  [bookingMessages.bufferInvalid]: 'bufferAfterMinutes',
  [bookingMessages.priceInvalid]: 'priceCents',
  [bookingMessages.serviceStaffRequired]: 'staffIds',
  [bookingMessages.serviceStaffUnknown]: 'staffIds',
};

/** A contract text on the field it is about (the form itself for the rest), translated. */
export function serviceErrors(messages: string[]): Errors {
  const out: Errors = {};
  for (const message of messages) {
    const field = FIELD_OF[message] ?? 'form';
    out[field] ??= translateBookingText(message);
  }
  return out;
}

interface ServiceFormProps {
  /** The service being edited; null to add one. */
  service: BookingService | null;
  staff: BookingStaff[];
  currency: string;
  /** Called with the saved service (after its toast). */
  onSaved: (service: BookingService | undefined) => void;
  onCancel: () => void;
  /** A default for a new service's staff (the wizard's first staff member). */
  defaultStaffIds?: string[];
  formId: string;
  /** Cancel's label (the wizard says Back). */
  cancelLabel?: string;
  submitLabel?: string;
}

/** The service's fields and its Cancel/Save buttons (in a dialog, or as the wizard's step). */
export function ServiceForm({ service, staff, currency, onSaved, onCancel, defaultStaffIds, formId, cancelLabel, submitLabel }: ServiceFormProps) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const save = useSaveService();
  const [name, setName] = useState(service?.name ?? '');
  const [duration, setDuration] = useState(String(service?.durationMinutes ?? 30));
  const [buffer, setBuffer] = useState(String(service?.bufferAfterMinutes ?? 0));
  const [price, setPrice] = useState(priceInput(service?.priceCents ?? null, i18n.language));
  const [staffIds, setStaffIds] = useState<string[]>(service?.staffIds ?? defaultStaffIds ?? (staff.length === 1 ? [staff[0]!._id] : []));
  const [bookableByAgent, setBookableByAgent] = useState(service?.bookableByAgent ?? true);
  const [errors, setErrors] = useState<Errors>({});
  const clear = (field: Field) => setErrors((prev) => ({ ...prev, [field]: undefined, form: undefined }));
  const example = priceInput(4550, i18n.language);

  const submit = async () => {
    const cents = parsePrice(price, i18n.language);
    const input = {
      name,
      durationMinutes: duration.trim() === '' ? Number.NaN : Number(duration),
      bufferAfterMinutes: buffer.trim() === '' ? 0 : Number(buffer),
      priceCents: Number.isNaN(cents) ? null : cents,
      staffIds: staffIds.filter((id) => staff.some((s) => s._id === id)),
      bookableByAgent,
    };
    const parsed = bookingServiceRequest.safeParse(input);
    const found: Errors = parsed.success ? {} : serviceErrors(parsed.error.issues.map((i) => i.message));
    if (Number.isNaN(cents)) found.priceCents = t('bookingSetup.services.form.priceInvalid', { example });
    if (!parsed.success || Number.isNaN(cents)) {
      setErrors(found);
      return;
    }
    try {
      const env = await save.mutateAsync({ id: service?._id, input: parsed.data as BookingServiceInput });
      toast.success(translateBookingText(env.message || (service ? bookingMessages.serviceUpdated : bookingMessages.serviceCreated)));
      onSaved(env.data);
    } catch (err) {
      const server = serverMessageOf(err);
      setErrors(server ? serviceErrors([server]) : { form: t('bookingSetup.common.saveFailed') });
    }
  };

  const numberField = (value: string, set: (v: string) => void, field: Field, label: string, hint: string, min: number, max: number) => (
    <TextField
      type="number"
      label={label}
      value={value}
      required={field === 'durationMinutes'}
      onChange={(e) => {
        set(e.target.value);
        clear(field);
      }}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? hint}
      slotProps={{ htmlInput: { min, max, step: 5, inputMode: 'numeric' }, input: { endAdornment: <InputAdornment position="end">min</InputAdornment> } }}
      sx={{ flex: 1 }}
    />
  );

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
          label={t('bookingSetup.services.form.name')}
          placeholder={t('bookingSetup.services.form.namePlaceholder')}
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
          slotProps={{ htmlInput: { maxLength: BOOKING_LIMITS.serviceName } }}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {numberField(duration, setDuration, 'durationMinutes', t('bookingSetup.services.form.duration'), t('bookingSetup.services.form.durationHint'), BOOKING_LIMITS.minDurationMinutes, BOOKING_LIMITS.maxDurationMinutes)}
          {numberField(buffer, setBuffer, 'bufferAfterMinutes', t('bookingSetup.services.form.buffer'), t('bookingSetup.services.form.bufferHint'), 0, BOOKING_LIMITS.maxBufferMinutes)}
        </Stack>
        <TextField
          label={t('bookingSetup.services.form.price', { currency: currencySymbol(i18n.language, currency) })}
          value={price}
          onChange={(e) => {
            setPrice(e.target.value);
            clear('priceCents');
          }}
          error={Boolean(errors.priceCents)}
          helperText={errors.priceCents ?? t('bookingSetup.services.form.priceHint')}
          slotProps={{ htmlInput: { inputMode: 'decimal' }, input: { endAdornment: <InputAdornment position="end">{currencySymbol(i18n.language, currency)}</InputAdornment> } }}
        />
        <FormControl component="fieldset" error={Boolean(errors.staffIds)} variant="standard">
          <FormLabel component="legend">{t('bookingSetup.services.form.staff')}</FormLabel>
          <FormGroup row>
            {staff.map((s) => (
              <FormControlLabel
                key={s._id}
                label={s.name}
                control={
                  <Checkbox
                    checked={staffIds.includes(s._id)}
                    onChange={(e) => {
                      setStaffIds((prev) => (e.target.checked ? [...prev, s._id] : prev.filter((id) => id !== s._id)));
                      clear('staffIds');
                    }}
                  />
                }
              />
            ))}
          </FormGroup>
          {errors.staffIds && <FormHelperText>{errors.staffIds}</FormHelperText>}
        </FormControl>
        <FormControl>
          <FormControlLabel control={<Switch checked={bookableByAgent} onChange={(e) => setBookableByAgent(e.target.checked)} />} label={t('bookingSetup.services.form.bookableByAgent')} />
          <FormHelperText sx={{ mt: 0 }}>{t('bookingSetup.services.form.bookableByAgentHint')}</FormHelperText>
        </FormControl>
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

interface ServiceDialogProps extends Omit<ServiceFormProps, 'formId' | 'onCancel'> {
  open: boolean;
  onClose: () => void;
}

export function ServiceDialog({ open, onClose, ...form }: ServiceDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="booking-service-title">
      <DialogTitle id="booking-service-title">{form.service ? t('bookingSetup.services.form.editTitle') : t('bookingSetup.services.form.addTitle')}</DialogTitle>
      <DialogContent>{open && <ServiceForm {...form} formId="booking-service-form" onCancel={onClose} />}</DialogContent>
    </Dialog>
  );
}
