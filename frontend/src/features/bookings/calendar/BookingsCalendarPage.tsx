/**
 * /bookings (issue 30): the business's calendar in its own zone (settings.timeZone) — day and week
 * time grids with a colour per staff member and chips that choose whose bookings and hours show,
 * and a list view with filters; a new booking from an empty time or the New booking button, a
 * booking's detail (move, status, cancel, its conversation or call). Without services the page
 * sends the owner to the setup screens.
 */
import { useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import Add from '@mui/icons-material/Add';
import EventAvailableOutlined from '@mui/icons-material/EventAvailableOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import { useTranslation } from 'react-i18next';
import type { Booking } from '@agentdesk/functions/contract';
import { EmptyPanel } from '../../../shared/EmptyPanel';
import { PageHeader } from '../../../shared/PageHeader';
import { RetryAlert } from '../../../shared/RetryAlert';
import { usePageTitle } from '../../../shared/usePageTitle';
import { useBookingServices, useBookingSettings, useBookingStaff } from '../api';
import './i18n';
import { BookingDrawer } from './BookingDrawer';
import { BookingListView } from './BookingListView';
import { CalendarView, type GridView } from './CalendarView';
import { staffColours } from './events';
import { NewBookingDialog, type NewBookingProposal } from './NewBookingDialog';
import { StaffDot } from './StaffDot';
import { nextWholeHour } from './time';
import { canOpenPage, useMemberRole } from '../../../shared/memberRole';

type View = GridView | 'list';
const VIEWS: readonly View[] = ['day', 'week', 'list'];
const SETUP_PATH = '/bookings/setup';
/** A zone as its city, as people say it ("Madrid", "Canary" → the last part of the IANA name). */
const zoneCity = (zone: string) => (zone.split('/').pop() ?? zone).replace(/_/g, ' ');

export default function BookingsCalendarPage() {
  const { t } = useTranslation();
  const role = useMemberRole();
  usePageTitle(t('bookingsCalendar.title'));
  const settings = useBookingSettings();
  const services = useBookingServices();
  const staff = useBookingStaff();
  // ?view=day|week|list and ?date=YYYY-MM-DD open the page there (a link to a booking's week).
  const [params, setParams] = useSearchParams();
  // A phone opens on one day: seven columns do not fit 390 px.
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const [view, setViewState] = useState<View>(() => ((VIEWS as readonly string[]).includes(params.get('view') ?? '') ? (params.get('view') as View) : phone ? 'day' : 'week'));
  const [initialDate] = useState(() => (/^\d{4}-\d{2}-\d{2}$/.test(params.get('date') ?? '') ? params.get('date')! : undefined));
  const setView = (next: View) => {
    setViewState(next);
    setParams(
      (prev) => {
        const q = new URLSearchParams(prev);
        q.set('view', next);
        return q;
      },
      { replace: true },
    );
  };
  /** Staff ids whose bookings and hours show; empty = everyone. */
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const [open, setOpen] = useState<Booking | null>(null);
  const [proposal, setProposal] = useState<NewBookingProposal | null>(null);

  const staffList = useMemo(() => staff.data ?? [], [staff.data]);
  const colours = useMemo(() => staffColours(staffList), [staffList]);
  const shownStaff = useMemo(() => (shown.size ? staffList.filter((s) => shown.has(s._id)) : staffList), [shown, staffList]);
  const timeZone = settings.data?.timeZone ?? 'UTC';

  const toggle = (id: string) =>
    setShown((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next.size === staffList.length ? new Set() : next;
    });
  const onlyOne = shown.size === 1 ? [...shown][0] : undefined;
  // Issue 32: services, staff and hours are set up by an admin or the owner.
  const canSetUp = canOpenPage(role, SETUP_PATH);

  const header = (
    <PageHeader title={t('bookingsCalendar.title')} subtitle={settings.data ? t('bookingsCalendar.subtitle', { zone: zoneCity(timeZone) }) : undefined}>
      <Stack direction="row" spacing={1}>
        {canSetUp && (
          <Button component={RouterLink} to={SETUP_PATH} startIcon={<TuneOutlined />}>
            {t('bookingsCalendar.setup')}
          </Button>
        )}
        {Boolean(services.data?.length && staffList.length) && (
          <Button variant="contained" startIcon={<Add />} onClick={() => setProposal({ start: nextWholeHour(timeZone), staffId: onlyOne })}>
            {t('bookingsCalendar.newBooking')}
          </Button>
        )}
      </Stack>
    </PageHeader>
  );

  if (settings.isPending || services.isPending || staff.isPending) {
    return (
      <Box>
        {header}
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
          <CircularProgress aria-label={t('bookingsCalendar.loading')} />
        </Box>
      </Box>
    );
  }
  if (settings.isError || services.isError || staff.isError) {
    const retry = () => {
      void settings.refetch();
      void services.refetch();
      void staff.refetch();
    };
    return (
      <Box>
        {header}
        <RetryAlert retryLabel={t('bookingsCalendar.retry')} onRetry={retry} data-testid="bookings-load-error">
          {t('bookingsCalendar.setupLoadFailed')}
        </RetryAlert>
      </Box>
    );
  }
  if (!services.data.length || !staffList.length) {
    return (
      <Box>
        {header}
        <EmptyPanel
          card
          icon={<EventAvailableOutlined sx={{ fontSize: 56, color: 'primary.main', mb: 1 }} aria-hidden />}
          title={t('bookingsCalendar.empty.title')}
          body={t('bookingsCalendar.empty.body')}
          sx={{ py: 6, px: 3 }}
          data-testid="bookings-empty"
        >
          {canSetUp && (
            <Button component={RouterLink} to={SETUP_PATH} variant="contained">
              {t('bookingsCalendar.empty.action')}
            </Button>
          )}
        </EmptyPanel>
      </Box>
    );
  }

  return (
    <Box>
      {header}
      <Card>
        <CardContent sx={{ p: { xs: 1.5, sm: 3 } }}>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { md: 'center' }, justifyContent: 'space-between' }}>
            <ToggleButtonGroup
              exclusive
              size="small"
              value={view}
              onChange={(_, next: View | null) => next && setView(next)}
              aria-label={t('bookingsCalendar.views.label')}
            >
              {VIEWS.map((v) => (
                <ToggleButton key={v} value={v} data-testid={`view-${v}`}>
                  {t(`bookingsCalendar.views.${v}`)}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            {view !== 'list' && (
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }} role="group" aria-label={t('bookingsCalendar.staffFilter.label')}>
                <Chip
                  label={t('bookingsCalendar.staffFilter.all')}
                  clickable
                  aria-pressed={shown.size === 0}
                  color={shown.size === 0 ? 'primary' : 'default'}
                  variant={shown.size === 0 ? 'filled' : 'outlined'}
                  onClick={() => setShown(new Set())}
                />
                {staffList.map((member) => {
                  const on = shown.has(member._id);
                  return (
                    <Chip
                      key={member._id}
                      label={member.name}
                      clickable
                      aria-pressed={on}
                      icon={<StaffDot colour={colours.get(member._id)} />}
                      variant={on ? 'filled' : 'outlined'}
                      onClick={() => toggle(member._id)}
                      data-testid={`staff-chip-${member._id}`}
                      sx={{ '& .MuiChip-icon': { ml: 1 } }}
                    />
                  );
                })}
              </Stack>
            )}
          </Stack>
          {view === 'list' ? (
            <BookingListView timeZone={timeZone} staff={staffList} colours={colours} onOpen={setOpen} />
          ) : (
            <CalendarView
              view={view}
              initialDate={initialDate}
              timeZone={timeZone}
              slotStepMinutes={settings.data.slotStepMinutes}
              staff={shownStaff}
              closures={settings.data.closures}
              shown={shown}
              colours={colours}
              onSelectTime={(start) => setProposal({ start, staffId: onlyOne })}
              onOpen={setOpen}
            />
          )}
        </CardContent>
      </Card>
      {proposal && <NewBookingDialog proposal={proposal} services={services.data} staff={staffList} onClose={() => setProposal(null)} />}
      {open && <BookingDrawer booking={open} timeZone={timeZone} staff={staffList} services={services.data} colours={colours} onClose={() => setOpen(null)} />}
    </Box>
  );
}
