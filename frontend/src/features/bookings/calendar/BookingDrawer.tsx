/**
 * A booking's detail (a drawer beside the calendar): when, what, who, where it was booked from
 * (its WhatsApp conversation or its call, linked), notes; a Move form (date, time, staff) that
 * does from the keyboard what a drag does, the status (completed, no-show) and Cancel.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Close from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { BOOKING_LIMITS, type Booking, type BookingService, type BookingStaff, type BookingUpdateInput } from '@agentdesk/functions/contract';
import { ConfirmDialog } from '../../../shared/ConfirmDialog';
import { DetailRow } from '../../../shared/DetailSection';
import { formatPhone } from '../../../shared/phone';
import { useIntl } from '../../../shared/useIntl';
import { useToast } from '../../../shared/useToast';
import { bookingErrorText } from '../messages';
import { calendarApi, calendarKeys } from './api';
import { CustomerMessages } from './CustomerMessages';
import { isMovable } from './events';
import { useCustomerName } from './labels';
import { StaffDot } from './StaffDot';
import { wallClock } from './time';

interface BookingDrawerProps {
  booking: Booking;
  timeZone: string;
  staff: BookingStaff[];
  services: BookingService[];
  colours: Map<string, string>;
  onClose: () => void;
}

const LABEL_WIDTH = 130;

export function BookingDrawer({ booking: initial, timeZone, staff, services, colours, onClose }: BookingDrawerProps) {
  const { t } = useTranslation();
  const customerName = useCustomerName();
  const intl = useIntl();
  const toast = useToast();
  const queryClient = useQueryClient();
  const titleId = useId();
  const current = useQuery({
    queryKey: calendarKeys.one(initial._id),
    queryFn: ({ signal }) => calendarApi.get(initial._id, signal),
    initialData: initial,
    staleTime: 0,
  });
  const booking = current.data ?? initial;
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [error, setError] = useState('');
  const [notes, setNotes] = useState(booking.notes);
  useEffect(() => setNotes(booking.notes), [booking.notes]);

  const heading = useRef<HTMLHeadingElement>(null);
  const changed = (next: Booking | undefined, message: string) => {
    if (next) queryClient.setQueryData(calendarKeys.one(next._id), next);
    void queryClient.invalidateQueries({ queryKey: calendarKeys.all });
    setError('');
    toast.success(message);
    // The button pressed may be gone now (a cancelled or no-show booking has other actions): the
    // focus goes back to the drawer's heading, not to the page behind, so Escape and Tab still work;
    // again when the refetched booking re-renders the detail (the effect below).
    refocus.current = true;
    requestAnimationFrame(() => heading.current?.focus());
  };
  const refocus = useRef(false);
  useEffect(() => {
    if (refocus.current && !heading.current?.closest('[data-testid="booking-detail"]')?.contains(document.activeElement)) heading.current?.focus();
  }, [booking.status, booking.updatedAt]);
  const update = useMutation({
    mutationFn: ({ input }: { input: BookingUpdateInput; message: string }) => calendarApi.update(booking._id, input),
    onSuccess: (env, { message }) => changed(env.data, message),
    onError: (err) => setError(bookingErrorText(err, t('bookingsCalendar.toasts.failed'))),
  });
  const cancel = useMutation({
    mutationFn: () => calendarApi.cancel(booking._id),
    onSuccess: (env) => {
      setConfirmCancel(false);
      changed(env.data, t('bookingsCalendar.toasts.cancelled'));
    },
    onError: (err) => {
      setConfirmCancel(false);
      setError(bookingErrorText(err, t('bookingsCalendar.toasts.failed')));
    },
  });
  const busy = update.isPending || cancel.isPending;
  const movable = isMovable(booking);
  const start = intl.date(booking.start, 'fullDate', timeZone);
  const times = `${intl.date(booking.start, 'time', timeZone)}–${intl.date(booking.end, 'time', timeZone)}`;
  const price = booking.priceCents !== null ? intl.money(booking.priceCents / 100, booking.currency) : null;

  return (
    <Drawer anchor="right" open onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 440 } }, role: 'dialog', 'aria-labelledby': titleId } as object }}>
      <Box sx={{ p: 3 }} data-testid="booking-detail">
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <Typography variant="h6" component="h2" id={titleId} ref={heading} tabIndex={-1} sx={{ outline: 'none' }}>
            {t('bookingsCalendar.detail.title')}: {customerName(booking.customer)}
          </Typography>
          <IconButton aria-label={t('bookingsCalendar.detail.close')} onClick={onClose}>
            <Close />
          </IconButton>
        </Stack>
        {current.isError && (
          <Alert severity="warning" sx={{ mb: 1 }}>
            {t('bookingsCalendar.detail.loadFailed')}
          </Alert>
        )}
        {error && (
          <Alert severity="error" role="alert" sx={{ mb: 1 }} data-testid="booking-error">
            {error}
          </Alert>
        )}
        <DetailRow label={t('bookingsCalendar.detail.status')} labelWidth={LABEL_WIDTH}>
          <Chip size="small" label={t(`bookingsCalendar.statuses.${booking.status}`)} data-testid="booking-status" variant={booking.status === 'confirmed' ? 'filled' : 'outlined'} />
        </DetailRow>
        <DetailRow label={t('bookingsCalendar.detail.when')} labelWidth={LABEL_WIDTH}>
          <span data-testid="booking-when">
            {start}, {times}
          </span>
        </DetailRow>
        <DetailRow label={t('bookingsCalendar.detail.service')} labelWidth={LABEL_WIDTH}>
          {booking.serviceName}
          {price && ` · ${price}`}
        </DetailRow>
        <DetailRow label={t('bookingsCalendar.detail.staff')} labelWidth={LABEL_WIDTH}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <StaffDot colour={colours.get(booking.staffId)} />
            <span data-testid="booking-staff">{booking.staffName}</span>
          </Stack>
        </DetailRow>
        <DetailRow label={t('bookingsCalendar.detail.customer')} labelWidth={LABEL_WIDTH}>
          {booking.customer.contactId ? (
            <Link component={RouterLink} to={`/contacts/${encodeURIComponent(booking.customer.contactId)}`}>
              {customerName(booking.customer)}
            </Link>
          ) : (
            customerName(booking.customer)
          )}
        </DetailRow>
        <DetailRow label={t('bookingsCalendar.detail.phone')} labelWidth={LABEL_WIDTH}>
          <span data-testid="booking-phone">{formatPhone(booking.customer.phone)}</span>
        </DetailRow>
        <DetailRow label={t('bookingsCalendar.detail.channel')} labelWidth={LABEL_WIDTH}>
          {t(`bookingsCalendar.channels.${booking.channel}`)} · {t(`bookingsCalendar.bookedBy.${booking.bookedBy}`)}
          {booking.conversationId && (
            <Box>
              <Link component={RouterLink} to={`/conversations?open=${encodeURIComponent(booking.conversationId)}`}>
                {t('bookingsCalendar.detail.openConversation')}
              </Link>
            </Box>
          )}
          {booking.callId && (
            <Box>
              <Link component={RouterLink} to={`/voice-conversations/${encodeURIComponent(booking.callId)}`}>
                {t('bookingsCalendar.detail.openCall')}
              </Link>
            </Box>
          )}
        </DetailRow>
        <DetailRow label={t('bookingsCalendar.detail.messages.label')} labelWidth={LABEL_WIDTH}>
          <CustomerMessages booking={booking} timeZone={timeZone} />
        </DetailRow>

        <Stack spacing={1} sx={{ mt: 2 }}>
          <TextField
            label={t('bookingsCalendar.detail.notes')}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            multiline
            minRows={2}
            disabled={booking.status === 'cancelled'}
            slotProps={{ htmlInput: { maxLength: BOOKING_LIMITS.notes } }}
          />
          {notes !== booking.notes && (
            <Box>
              <Button size="small" variant="outlined" disabled={busy} onClick={() => update.mutate({ input: { notes: notes.trim() }, message: t('bookingsCalendar.toasts.updated') })}>
                {t('bookingsCalendar.detail.saveNotes')}
              </Button>
            </Box>
          )}
        </Stack>

        <Divider sx={{ my: 3 }} />
        {movable ? (
          <MoveForm
            key={`${booking.start}|${booking.staffId}`}
            booking={booking}
            timeZone={timeZone}
            staff={staff}
            service={services.find((s) => s._id === booking.serviceId)}
            pending={update.isPending}
            disabled={busy}
            onMove={(input) => update.mutate({ input, message: t('bookingsCalendar.toasts.moved') })}
          />
        ) : (
          booking.status === 'cancelled' && <Typography color="text.secondary">{t('bookingsCalendar.detail.readOnly')}</Typography>
        )}

        {booking.status !== 'cancelled' && (
          <Stack direction="row" spacing={1} sx={{ mt: 3, flexWrap: 'wrap', rowGap: 1 }}>
            {booking.status === 'confirmed' ? (
              <>
                <Button variant="outlined" disabled={busy} onClick={() => update.mutate({ input: { status: 'completed' }, message: t('bookingsCalendar.toasts.updated') })}>
                  {t('bookingsCalendar.detail.markCompleted')}
                </Button>
                <Button variant="outlined" disabled={busy} onClick={() => update.mutate({ input: { status: 'no_show' }, message: t('bookingsCalendar.toasts.updated') })}>
                  {t('bookingsCalendar.detail.markNoShow')}
                </Button>
              </>
            ) : (
              <Button variant="outlined" disabled={busy} onClick={() => update.mutate({ input: { status: 'confirmed' }, message: t('bookingsCalendar.toasts.updated') })}>
                {t('bookingsCalendar.detail.markConfirmed')}
              </Button>
            )}
            {movable && (
              <Button color="error" variant="outlined" disabled={busy} onClick={() => setConfirmCancel(true)}>
                {t('bookingsCalendar.detail.cancel')}
              </Button>
            )}
          </Stack>
        )}
      </Box>
      <ConfirmDialog
        open={confirmCancel}
        title={t('bookingsCalendar.detail.cancelTitle')}
        body={t('bookingsCalendar.detail.cancelBody', { customer: customerName(booking.customer) })}
        confirmLabel={t('bookingsCalendar.detail.cancelConfirm')}
        pendingLabel={t('bookingsCalendar.detail.cancelPending')}
        pending={cancel.isPending}
        onCancel={() => setConfirmCancel(false)}
        onConfirm={() => cancel.mutate()}
        // The drawer puts the focus on its heading after the cancel (the Cancel button is gone).
        keepFocusOnClose
      />
    </Drawer>
  );
}

interface MoveFormProps {
  booking: Booking;
  timeZone: string;
  staff: BookingStaff[];
  service: BookingService | undefined;
  pending: boolean;
  disabled: boolean;
  onMove: (input: BookingUpdateInput) => void;
}

/** The keyboard's drag: a new date, time and staff member for the booking. */
function MoveForm({ booking, timeZone, staff, service, pending, disabled, onMove }: MoveFormProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const local = wallClock(booking.start, timeZone);
  const [date, setDate] = useState(local.slice(0, 10));
  const [time, setTime] = useState(local.slice(11, 16));
  const [staffId, setStaffId] = useState(booking.staffId);
  const candidates = staff.filter((s) => !service || service.staffIds.includes(s._id) || s._id === booking.staffId);
  const unchanged = `${date}T${time}` === local.slice(0, 16) && staffId === booking.staffId;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (unchanged || !date || !time) return;
    onMove({ start: `${date}T${time}`, ...(staffId !== booking.staffId ? { staffId } : {}) });
  };

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby={headingId} data-testid="move-form">
      <Typography variant="subtitle1" component="h3" id={headingId} sx={{ fontWeight: 600 }}>
        {t('bookingsCalendar.detail.move')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('bookingsCalendar.detail.moveHint')}
      </Typography>
      <Stack spacing={2}>
        <Stack direction="row" spacing={2}>
          <TextField type="date" label={t('bookingsCalendar.create.date')} value={date} onChange={(e) => setDate(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
          <TextField
            type="time"
            label={t('bookingsCalendar.create.time')}
            value={time}
            onChange={(e) => setTime(e.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300 } }}
          />
        </Stack>
        <TextField select label={t('bookingsCalendar.create.staff')} value={staffId} onChange={(e) => setStaffId(e.target.value)}>
          {candidates.map((s) => (
            <MenuItem key={s._id} value={s._id}>
              {s.name}
            </MenuItem>
          ))}
        </TextField>
        <Box>
          <Button type="submit" variant="contained" disabled={disabled || unchanged}>
            {pending ? t('bookingsCalendar.detail.movePending') : t('bookingsCalendar.detail.moveSubmit')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
