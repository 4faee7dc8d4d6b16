/**
 * The day and week time grids (FullCalendar's MIT time-grid; a resource timeline per staff member
 * is premium, so the staff chips above filter the events and each staff member has a colour). The
 * grid runs in UTC-coercion mode on the business's wall clock (time.ts). Selecting an empty time
 * proposes a booking there; a drag moves one (PATCH), and a refusal (taken, outside hours…) puts it
 * back and says why in the UI language. Events open the booking's detail with a click or Enter.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import FullCalendar from '@fullcalendar/react';
import type { DatesSetArg, EventClickArg, EventDropArg, EventMountArg, DateSelectArg } from '@fullcalendar/core';
import esLocale from '@fullcalendar/core/locales/es';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin from '@fullcalendar/interaction';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { useTranslation } from 'react-i18next';
import type { Booking, BookingStaff, Closure } from '@agentdesk/functions/contract';
import { RetryAlert } from '../../../shared/RetryAlert';
import { useToast } from '../../../shared/useToast';
import { bookingErrorText } from '../messages';
import { calendarApi, calendarKeys, type RangeFilter } from './api';
import { calendarEvents, closureEvents, STAFF_COLOURS } from './events';
import { businessHoursOf, coercedNow, localOf, rangeOf, visibleHours } from './time';
import { useCustomerName, useStatusText } from './labels';

export type GridView = 'day' | 'week';
const FC_VIEW: Record<GridView, string> = { day: 'timeGridDay', week: 'timeGridWeek' };

interface CalendarViewProps {
  view: GridView;
  /** The day to open on ("YYYY-MM-DD", the business's); today when absent. */
  initialDate?: string;
  timeZone: string;
  slotStepMinutes: number;
  /** The staff whose hours and bookings show. */
  staff: BookingStaff[];
  /** The business's closures (holidays). */
  closures: Closure[];
  shown: ReadonlySet<string>;
  colours: Map<string, string>;
  onSelectTime: (start: string) => void;
  onOpen: (booking: Booking) => void;
}

const twentyFourHours = { hour: '2-digit', minute: '2-digit', hour12: false } as const;

export function CalendarView({ view, initialDate, timeZone, slotStepMinutes, staff, closures, shown, colours, onSelectTime, onOpen }: CalendarViewProps) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const statusText = useStatusText();
  const customerName = useCustomerName();
  const ref = useRef<FullCalendar>(null);
  const [range, setRange] = useState<RangeFilter | null>(null);
  const [title, setTitle] = useState('');
  const spanish = i18n.language.startsWith('es');

  const bookings = useQuery({
    queryKey: calendarKeys.range(range ?? { from: '', to: '' }),
    queryFn: ({ signal }) => calendarApi.range(range!, signal),
    enabled: range !== null,
    placeholderData: keepPreviousData,
    // The agent books on WhatsApp and on the phone meanwhile: the open week catches up on its own.
    refetchInterval: 60_000,
  });

  const events = useMemo(
    () => calendarEvents(bookings.data ?? [], { timeZone, colours, shown, statusText, customerName }),
    [bookings.data, timeZone, colours, shown, statusText, customerName],
  );
  const closed = useMemo(
    () => closureEvents(closures, staff, (reason) => (reason ? t('bookingsCalendar.closedBecause', { reason }) : t('bookingsCalendar.closed'))),
    [closures, staff, t],
  );
  const hours = useMemo(() => visibleHours(staff, events), [staff, events]);
  const businessHours = useMemo(() => businessHoursOf(staff), [staff]);

  useEffect(() => {
    const api = ref.current?.getApi();
    if (api && api.view.type !== FC_VIEW[view]) api.changeView(FC_VIEW[view]);
  }, [view]);

  const onDatesSet = (arg: DatesSetArg) => {
    const next = rangeOf(arg.start, arg.end);
    setRange((prev) => (prev && prev.from === next.from && prev.to === next.to ? prev : next));
    setTitle(arg.view.title);
  };

  const onDrop = async (info: EventDropArg) => {
    const booking = info.event.extendedProps.booking as Booking;
    if (!info.event.start) return info.revert();
    try {
      await calendarApi.update(booking._id, { start: localOf(info.event.start) });
      toast.success(t('bookingsCalendar.toasts.moved'));
    } catch (err) {
      info.revert();
      toast.error(bookingErrorText(err, t('bookingsCalendar.toasts.failed')));
    } finally {
      void queryClient.invalidateQueries({ queryKey: calendarKeys.all });
    }
  };

  const onSelect = (info: DateSelectArg) => {
    info.view.calendar.unselect();
    onSelectTime(localOf(info.start));
  };

  const onEventClick = (info: EventClickArg) => {
    info.jsEvent.preventDefault();
    onOpen(info.event.extendedProps.booking as Booking);
  };

  // Events are focusable (FullCalendar adds tabindex and Enter opens them): buttons, named by their text.
  const onEventMount = (info: EventMountArg) => {
    const booking = info.event.extendedProps.booking as Booking | undefined;
    if (!booking) return;
    info.el.setAttribute('role', 'button');
    info.el.dataset.bookingId = booking._id;
  };

  const api = () => ref.current?.getApi();

  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }} role="group" aria-label={t('bookingsCalendar.nav.label')}>
        <IconButton aria-label={t('bookingsCalendar.nav.previous')} onClick={() => api()?.prev()}>
          <ChevronLeft />
        </IconButton>
        <Button variant="outlined" size="small" onClick={() => api()?.today()}>
          {t('bookingsCalendar.nav.today')}
        </Button>
        <IconButton aria-label={t('bookingsCalendar.nav.next')} onClick={() => api()?.next()}>
          <ChevronRight />
        </IconButton>
        <Typography variant="h6" component="h2" aria-live="polite" data-testid="calendar-title" sx={{ ml: 1 }}>
          {title}
        </Typography>
      </Stack>
      {bookings.isError && (
        <RetryAlert retryLabel={t('bookingsCalendar.retry')} onRetry={() => void bookings.refetch()} retrying={bookings.isFetching} sx={{ mb: 1 }}>
          {t('bookingsCalendar.loadFailed')}
        </RetryAlert>
      )}
      <Box sx={{ height: 4 }}>{bookings.isFetching && <LinearProgress aria-label={t('bookingsCalendar.loading')} />}</Box>
      <Box
        component="section"
        aria-label={t('bookingsCalendar.calendarLabel')}
        data-testid="bookings-calendar"
        sx={{
          '& .fc': { fontFamily: 'inherit' },
          // Text on the grid reads at AA on the page's background (FullCalendar's greys are lighter).
          '& .fc .fc-col-header-cell-cushion, & .fc .fc-timegrid-slot-label-cushion, & .fc .fc-timegrid-axis-cushion': { color: 'text.primary' },
          '& .fc .fc-event:not(.fc-bg-event)': { cursor: 'pointer' },
          // A closed day: grey, its reason in the text colour (FullCalendar's default is a faint italic).
          '& .fc .booking-closure': { opacity: 1 },
          '& .fc .booking-closure .fc-event-title': { color: 'text.primary', fontStyle: 'normal' },
          '& .fc .fc-event:focus-visible': { outline: '3px solid', outlineColor: 'warning.main', outlineOffset: 1 },
        }}
      >
        <FullCalendar
          ref={ref}
          plugins={[timeGridPlugin, interactionPlugin]}
          initialView={FC_VIEW[view]}
          initialDate={initialDate}
          headerToolbar={false}
          timeZone="UTC"
          now={() => coercedNow(timeZone)}
          locale={spanish ? esLocale : 'en'}
          firstDay={1}
          slotLabelFormat={spanish ? twentyFourHours : undefined}
          eventTimeFormat={spanish ? twentyFourHours : undefined}
          dayHeaderFormat={{ weekday: 'short', day: 'numeric', month: view === 'day' ? 'long' : 'numeric' }}
          allDaySlot={false}
          nowIndicator
          height="auto"
          slotMinTime={hours.slotMinTime}
          slotMaxTime={hours.slotMaxTime}
          slotDuration={{ minutes: Math.max(15, slotStepMinutes) }}
          snapDuration={{ minutes: slotStepMinutes }}
          scrollTime={hours.slotMinTime}
          businessHours={businessHours.length ? businessHours : false}
          events={[...events, ...closed]}
          selectable
          // The mirror's own colour reads below AA with white text; the highlight is enough (the dialog opens at once).
          selectMirror={false}
          eventColor={STAFF_COLOURS[STAFF_COLOURS.length - 1]}
          unselectAuto
          editable
          eventDurationEditable={false}
          eventStartEditable
          eventOverlap
          datesSet={onDatesSet}
          select={onSelect}
          eventDrop={(info) => void onDrop(info)}
          eventClick={onEventClick}
          eventDidMount={onEventMount}
        />
      </Box>
    </Box>
  );
}
