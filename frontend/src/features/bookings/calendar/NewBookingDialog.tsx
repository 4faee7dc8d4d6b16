/**
 * A new booking by the owner: service, staff member (or the first free one who does it), date
 * and time (proposed from the time picked on the grid), the customer's name and phone (a number
 * without a prefix is read in the account's country, so "612 34 56 78" is Spanish for a Spanish
 * account) and notes. The server keeps the no-overlap rule; its refusal shows in the UI language.
 */
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { BOOKING_LIMITS, type BookingService, type BookingStaff } from '@agentdesk/functions/contract';
import { FormDialog } from '../../../shared/FormDialog';
import { usePhoneFieldProps } from '../../../shared/usePhoneFieldProps';
import { useToast } from '../../../shared/useToast';
import { bookingErrorText } from '../messages';
import { calendarApi, calendarKeys } from './api';

export interface NewBookingProposal {
  /** Local "YYYY-MM-DDTHH:mm" in the business's zone. */
  start: string;
  staffId?: string;
}

interface NewBookingDialogProps {
  proposal: NewBookingProposal;
  services: BookingService[];
  staff: BookingStaff[];
  onClose: () => void;
}

type Field = 'serviceId' | 'when' | 'name' | 'phone';

export function NewBookingDialog({ proposal, services, staff, onClose }: NewBookingDialogProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const phoneProps = usePhoneFieldProps();
  const titleId = useId();
  const firstService = services.find((s) => !proposal.staffId || s.staffIds.includes(proposal.staffId)) ?? services[0];
  const [serviceId, setServiceId] = useState(firstService?._id ?? '');
  const [staffId, setStaffId] = useState(proposal.staffId ?? '');
  const [date, setDate] = useState(proposal.start.slice(0, 10));
  const [time, setTime] = useState(proposal.start.slice(11, 16));
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState('');

  const service = services.find((s) => s._id === serviceId);
  const staffForService = staff.filter((s) => !service || service.staffIds.includes(s._id));

  const create = useMutation({
    mutationFn: calendarApi.create,
    onSuccess: () => {
      toast.success(t('bookingsCalendar.toasts.created'));
      void queryClient.invalidateQueries({ queryKey: calendarKeys.all });
      onClose();
    },
    onError: (err) => setServerError(bookingErrorText(err, t('bookingsCalendar.create.failed'))),
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    if (!serviceId) found.serviceId = t('bookingsCalendar.create.serviceRequired');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) found.when = t('bookingsCalendar.create.dateRequired');
    if (!name.trim()) found.name = t('bookingsCalendar.create.nameRequired');
    if (phone.replace(/\D/g, '').length < 3) found.phone = t('bookingsCalendar.create.phoneRequired');
    setErrors(found);
    setServerError('');
    if (Object.keys(found).length) return;
    create.mutate({
      serviceId,
      ...(staffId && staffForService.some((s) => s._id === staffId) ? { staffId } : {}),
      start: `${date}T${time}`,
      customer: { name: name.trim(), phone: phone.trim() },
      notes: notes.trim(),
    });
  };

  return (
    <FormDialog
      open
      onClose={create.isPending ? () => undefined : onClose}
      title={t('bookingsCalendar.create.title')}
      titleId={titleId}
      onSubmit={onSubmit}
      cancelLabel={t('common.cancel')}
      submitLabel={t('bookingsCalendar.create.submit')}
      pendingLabel={t('bookingsCalendar.create.pending')}
      pending={create.isPending}
    >
      <Stack spacing={2} sx={{ pt: 1 }} data-testid="new-booking-form">
        {serverError && (
          <Alert severity="error" role="alert">
            {serverError}
          </Alert>
        )}
        <TextField
          select
          required
          label={t('bookingsCalendar.create.service')}
          value={serviceId}
          onChange={(e) => setServiceId(e.target.value)}
          error={Boolean(errors.serviceId)}
          helperText={errors.serviceId}
        >
          {services.map((s) => (
            <MenuItem key={s._id} value={s._id}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label={t('bookingsCalendar.create.staff')}
          value={staffForService.some((s) => s._id === staffId) ? staffId : ''}
          onChange={(e) => setStaffId(e.target.value)}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">{t('bookingsCalendar.create.anyStaff')}</MenuItem>
          {staffForService.map((s) => (
            <MenuItem key={s._id} value={s._id}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
        <Stack direction="row" spacing={2}>
          <TextField
            type="date"
            required
            label={t('bookingsCalendar.create.date')}
            value={date}
            onChange={(e) => setDate(e.target.value)}
            error={Boolean(errors.when)}
            helperText={errors.when}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="time"
            required
            label={t('bookingsCalendar.create.time')}
            value={time}
            onChange={(e) => setTime(e.target.value)}
            error={Boolean(errors.when)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300 } }}
          />
        </Stack>
        <TextField
          required
          label={t('bookingsCalendar.create.customerName')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(errors.name)}
          helperText={errors.name}
          autoComplete="off"
          slotProps={{ htmlInput: { maxLength: BOOKING_LIMITS.customerName } }}
        />
        <TextField
          required
          type="tel"
          label={t('bookingsCalendar.create.customerPhone')}
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          error={Boolean(errors.phone)}
          helperText={errors.phone ?? phoneProps.helperText}
          placeholder={phoneProps.placeholder}
          autoComplete="off"
          slotProps={{ input: { startAdornment: phoneProps.startAdornment }, htmlInput: { maxLength: BOOKING_LIMITS.customerPhone, inputMode: 'tel' } }}
        />
        <TextField
          label={t('bookingsCalendar.create.notes')}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          multiline
          minRows={2}
          slotProps={{ htmlInput: { maxLength: BOOKING_LIMITS.notes } }}
        />
      </Stack>
    </FormDialog>
  );
}
