/**
 * The Google Calendar card of /integrations (issue 30): connect (the browser goes to Google's
 * consent page and comes back to /integrations?googleCalendar=…, said here once), the connected
 * account, which calendars block the whole business and each staff member or room, where bookings
 * are added as events, and disconnect.
 */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CalendarMonthOutlined from '@mui/icons-material/CalendarMonthOutlined';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { GOOGLE_CALENDAR_OUTCOMES, bookingMessages, type GoogleCalendarEntry, type GoogleCalendarOutcome, type GoogleCalendarStatus } from '@agentdesk/functions/contract';
import { serverMessageOf } from '../../../api/client';
import { ConfirmDialog } from '../../../shared/ConfirmDialog';
import { RetryAlert } from '../../../shared/RetryAlert';
import { useToast } from '../../../shared/useToast';
import { googleCalendarApi, useDisconnectGoogleCalendar, useGoogleCalendar, useSaveGoogleCalendar } from './api';
import './i18n';

function CalendarChecks({ calendars, value, onChange, legend, hint }: { calendars: GoogleCalendarEntry[]; value: string[]; onChange: (ids: string[]) => void; legend: string; hint?: string }) {
  const { t } = useTranslation();
  return (
    <FormControl component="fieldset" variant="standard" sx={{ display: 'block', mb: 2 }}>
      <FormLabel component="legend" sx={{ fontWeight: 600, color: 'text.primary' }}>
        {legend}
      </FormLabel>
      {hint && (
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      )}
      <FormGroup>
        {calendars.map((c) => (
          <FormControlLabel
            key={c.id}
            control={<Checkbox checked={value.includes(c.id)} onChange={(e) => onChange(e.target.checked ? [...value, c.id] : value.filter((id) => id !== c.id))} />}
            label={c.primary ? t('googleCalendar.dialog.primary', { name: c.summary }) : c.summary}
          />
        ))}
      </FormGroup>
    </FormControl>
  );
}

function ChoicesDialog({ status, open, onClose }: { status: GoogleCalendarStatus; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveGoogleCalendar();
  const [business, setBusiness] = useState(status.businessCalendarIds);
  const [events, setEvents] = useState(status.eventsCalendarId ?? '');
  const [staff, setStaff] = useState(() => Object.fromEntries(status.staff.map((s) => [s.staffId, s.googleCalendarIds])));
  const writable = status.calendars.filter((c) => c.accessRole === 'owner' || c.accessRole === 'writer');

  const submit = async () => {
    try {
      await save.mutateAsync({
        businessCalendarIds: business,
        eventsCalendarId: events || null,
        staff: status.staff.map((s) => ({ staffId: s.staffId, googleCalendarIds: staff[s.staffId] ?? [] })),
      });
      toast.success(t('googleCalendar.dialog.saved'));
      onClose();
    } catch (err) {
      toast.error(serverMessageOf(err) === bookingMessages.googleCalendarUnknown ? t('googleCalendar.dialog.unknown') : t('googleCalendar.failed'));
    }
  };

  return (
    <Dialog open={open} onClose={save.isPending ? undefined : onClose} maxWidth="sm" fullWidth aria-labelledby="google-calendar-dialog-title" data-testid="google-calendar-dialog">
      <DialogTitle id="google-calendar-dialog-title">{t('googleCalendar.dialog.title')}</DialogTitle>
      <DialogContent dividers>
        <FormControl fullWidth sx={{ mb: 3, mt: 1 }}>
          <InputLabel id="google-calendar-events-label">{t('googleCalendar.dialog.eventsLabel')}</InputLabel>
          <Select labelId="google-calendar-events-label" label={t('googleCalendar.dialog.eventsLabel')} value={events} onChange={(e) => setEvents(e.target.value)}>
            <MenuItem value="">{t('googleCalendar.dialog.eventsNone')}</MenuItem>
            {writable.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.primary ? t('googleCalendar.dialog.primary', { name: c.summary }) : c.summary}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <CalendarChecks calendars={status.calendars} value={business} onChange={setBusiness} legend={t('googleCalendar.dialog.businessTitle')} hint={t('googleCalendar.dialog.businessHint')} />
        <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
          {t('googleCalendar.dialog.staffTitle')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {status.staff.length > 0 ? t('googleCalendar.dialog.staffHint') : t('googleCalendar.dialog.noStaff')}
        </Typography>
        {status.staff.map((s) => (
          <CalendarChecks
            key={s.staffId}
            calendars={status.calendars}
            value={staff[s.staffId] ?? []}
            onChange={(ids) => setStaff((prev) => ({ ...prev, [s.staffId]: ids }))}
            legend={s.staffName}
          />
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          {t('googleCalendar.dialog.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={save.isPending}>
          {save.isPending ? t('googleCalendar.dialog.saving') : t('googleCalendar.dialog.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The outcome Google's round trip came back with (?googleCalendar=), said once and taken off the URL. */
function useReturnOutcome(): GoogleCalendarOutcome | null {
  const [params, setParams] = useSearchParams();
  const raw = params.get('googleCalendar');
  const [outcome] = useState<GoogleCalendarOutcome | null>(() => ((GOOGLE_CALENDAR_OUTCOMES as readonly string[]).includes(raw ?? '') ? (raw as GoogleCalendarOutcome) : null));
  useEffect(() => {
    if (raw === null) return;
    const next = new URLSearchParams(params);
    next.delete('googleCalendar');
    setParams(next, { replace: true });
  }, [raw, params, setParams]);
  return outcome;
}

export function GoogleCalendarCard() {
  const { t } = useTranslation();
  const toast = useToast();
  const status = useGoogleCalendar();
  const disconnect = useDisconnectGoogleCalendar();
  const outcome = useReturnOutcome();
  const [connecting, setConnecting] = useState(false);
  const [dialog, setDialog] = useState({ open: false, key: 0 });
  const [confirming, setConfirming] = useState(false);
  const data = status.data;

  const connect = async () => {
    setConnecting(true);
    try {
      const { url } = await googleCalendarApi.connect();
      window.location.assign(url);
    } catch {
      setConnecting(false);
      toast.error(t('googleCalendar.failed'));
    }
  };
  const drop = async () => {
    try {
      await disconnect.mutateAsync();
      setConfirming(false);
      toast.success(t('googleCalendar.confirmDisconnect.done'));
    } catch {
      toast.error(t('googleCalendar.failed'));
    }
  };

  let body;
  if (status.isError) {
    body = (
      <RetryAlert retryLabel={t('googleCalendar.retry')} onRetry={() => void status.refetch()}>
        {t('googleCalendar.loadFailed')}
      </RetryAlert>
    );
  } else if (!data) {
    body = <Skeleton variant="rounded" height={60} />;
  } else {
    body = (
      <>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mb: 1.5 }}>
          <Chip
            size="small"
            color={data.connected ? 'success' : 'default'}
            variant={data.connected ? 'filled' : 'outlined'}
            label={data.connected ? t('integrations.status.connected') : t('integrations.status.notConnected')}
            sx={{ fontWeight: 600 }}
          />
          {!data.configured && <Chip size="small" color="warning" variant="outlined" label={t('googleCalendar.notConfigured')} />}
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {t('googleCalendar.description')}
        </Typography>
        {data.connected && data.email && (
          <Typography variant="body2" sx={{ mt: 1.5, wordBreak: 'break-all' }} data-testid="google-calendar-account">
            {t('googleCalendar.connectedAs', { email: data.email })}
          </Typography>
        )}
        {data.connected && data.error && (
          <Alert severity="warning" sx={{ mt: 1.5 }}>
            {t('googleCalendar.unreachable')}
          </Alert>
        )}
      </>
    );
  }

  return (
    <Card component="section" aria-labelledby="integration-google-calendar" data-testid="integration-google-calendar" sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <CardContent sx={{ flex: 1 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1.5 }}>
          <Box sx={{ width: 44, height: 44, borderRadius: 2, display: 'grid', placeItems: 'center', bgcolor: '#1a73e8', color: '#fff', flexShrink: 0 }} aria-hidden>
            <CalendarMonthOutlined />
          </Box>
          <Typography id="integration-google-calendar" variant="h6" component="h2" sx={{ lineHeight: 1.25 }}>
            {t('googleCalendar.name')}
          </Typography>
        </Stack>
        {outcome && (
          <Alert severity={outcome === 'connected' ? 'success' : 'warning'} sx={{ mb: 1.5 }} role="status" data-testid="google-calendar-outcome">
            {t(`googleCalendar.outcome.${outcome}`)}
          </Alert>
        )}
        {body}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, gap: 1, flexWrap: 'wrap' }}>
        {data?.connected ? (
          <>
            <Button variant="outlined" sx={{ flex: 1 }} onClick={() => setDialog((d) => ({ open: true, key: d.key + 1 }))} disabled={Boolean(data.error)}>
              {t('googleCalendar.choose')}
            </Button>
            <Button color="error" onClick={() => setConfirming(true)}>
              {t('googleCalendar.disconnect')}
            </Button>
          </>
        ) : (
          <Button variant="contained" fullWidth onClick={() => void connect()} disabled={!data?.configured || connecting}>
            {connecting ? t('googleCalendar.connecting') : t('googleCalendar.connect')}
          </Button>
        )}
      </CardActions>
      {data?.connected && <ChoicesDialog key={dialog.key} status={data} open={dialog.open} onClose={() => setDialog((d) => ({ ...d, open: false }))} />}
      <ConfirmDialog
        open={confirming}
        title={t('googleCalendar.confirmDisconnect.title')}
        body={t('googleCalendar.confirmDisconnect.body')}
        confirmLabel={t('googleCalendar.confirmDisconnect.confirm')}
        pendingLabel={t('googleCalendar.confirmDisconnect.pending')}
        pending={disconnect.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void drop()}
      />
    </Card>
  );
}
