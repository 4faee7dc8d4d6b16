/**
 * Alerts on your devices (issue 29): "Activar avisos en este dispositivo" asks the browser for
 * permission, subscribes it to Web Push with the app's VAPID key and registers the subscription;
 * the state of this device (on, off, blocked, unsupported), a test alert, which events alert
 * (escalations, customers waiting for a person: saved at once), whether the alerts come by e-mail
 * too, and every device that gets alerts, each removable. Opened from the bell. Issue 32: all of it
 * is the signed-in person's own, not the account's.
 */
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PushDevice, PushSettings } from '@agentdesk/functions/contract';
import { pushApi, pushKeys } from '../../api/push';
import { errorMessage, translateMessage } from '../../i18n';
import { formatDate } from '../../shared/intl';
import { currentSubscription, deviceLabel, pushPermission, pushSupported, PushPermissionError, subscribeThisDevice, type PushPermission } from '../../shared/pwa';
import { useToast } from '../../shared/useToast';
import './i18n';

interface PushSettingsDialogProps {
  open: boolean;
  onClose: () => void;
}

export function PushSettingsDialog({ open, onClose }: PushSettingsDialogProps) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const devices = useQuery({ queryKey: pushKeys.devices, queryFn: ({ signal }) => pushApi.devices(signal), enabled: open });
  const settings = useQuery({ queryKey: pushKeys.settings, queryFn: ({ signal }) => pushApi.settings(signal), enabled: open });
  const [permission, setPermission] = useState<PushPermission>(() => pushPermission());
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setPermission(pushPermission());
    void currentSubscription()
      .then((sub) => setEndpoint(sub?.endpoint ?? null))
      .catch(() => setEndpoint(null));
  }, [open]);

  const thisDevice = devices.data?.find((d) => endpoint !== null && d.endpoint === endpoint) ?? null;
  const refreshDevices = () => queryClient.invalidateQueries({ queryKey: pushKeys.devices });

  const enable = useMutation({
    mutationFn: async () => {
      const { publicKey } = await pushApi.publicKey();
      const subscription = await subscribeThisDevice(publicKey);
      const json = subscription.toJSON();
      const device = await pushApi.subscribe({
        endpoint: subscription.endpoint,
        expirationTime: json.expirationTime ?? null,
        keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
        label: deviceLabel(),
      });
      setEndpoint(subscription.endpoint);
      return device;
    },
    onMutate: () => setProblem(null),
    onSuccess: () => {
      setPermission(pushPermission());
      toast.success(t('notifications.push.state.on'));
      return refreshDevices();
    },
    onError: (err) => {
      setPermission(pushPermission());
      setProblem(err instanceof PushPermissionError ? null : errorMessage(err, t('notifications.push.errors.subscribeFailed')));
    },
  });

  const remove = useMutation({
    mutationFn: async (device: PushDevice) => {
      await pushApi.remove(device._id);
      if (device.endpoint === endpoint) {
        // This browser's own subscription goes too, so nothing arrives for a removed device.
        await (await currentSubscription())?.unsubscribe().catch(() => false);
        setEndpoint(null);
      }
    },
    onMutate: () => setProblem(null),
    onSuccess: () => refreshDevices(),
    onError: (err) => setProblem(errorMessage(err, t('notifications.push.errors.removeFailed'))),
  });

  const test = useMutation({
    mutationFn: (device: PushDevice) => pushApi.test(device._id),
    onMutate: () => setProblem(null),
    onSuccess: (res) => toast.success(translateMessage(res.message) || t('notifications.push.test')),
    onError: (err) => setProblem(errorMessage(err, t('notifications.push.errors.testFailed'))),
  });

  const save = useMutation({
    mutationFn: (next: PushSettings) => pushApi.saveSettings(next),
    onMutate: (next) => {
      setProblem(null);
      queryClient.setQueryData(pushKeys.settings, next);
    },
    onError: (err) => {
      setProblem(errorMessage(err, t('notifications.push.errors.saveFailed')));
      return queryClient.invalidateQueries({ queryKey: pushKeys.settings });
    },
  });

  const supported = pushSupported();
  const state = !supported ? 'unsupported' : permission === 'denied' ? 'denied' : thisDevice ? 'on' : 'off';
  const loading = devices.isPending || settings.isPending;
  const failed = (devices.isError && !devices.data) || (settings.isError && !settings.data);

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="push-settings-title" fullWidth maxWidth="sm" data-testid="push-settings">
      <DialogTitle id="push-settings-title">{t('notifications.push.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {t('notifications.push.intro')}
          </Typography>
          <Alert severity={state === 'on' ? 'success' : state === 'off' ? 'info' : 'warning'} data-testid="push-state" data-state={state}>
            {t(`notifications.push.state.${state}`)}
          </Alert>
          {problem && (
            <Alert severity="error" data-testid="push-error">
              {problem}
            </Alert>
          )}
          {supported && permission !== 'denied' && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              {thisDevice ? (
                <>
                  <Button variant="contained" onClick={() => test.mutate(thisDevice)} disabled={test.isPending} data-testid="push-test">
                    {t('notifications.push.test')}
                  </Button>
                  <Button variant="outlined" color="inherit" onClick={() => remove.mutate(thisDevice)} disabled={remove.isPending} data-testid="push-disable">
                    {t('notifications.push.disable')}
                  </Button>
                </>
              ) : (
                <Button
                  variant="contained"
                  onClick={() => enable.mutate()}
                  disabled={enable.isPending || loading}
                  startIcon={enable.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
                  data-testid="push-enable"
                >
                  {t('notifications.push.enable')}
                </Button>
              )}
            </Stack>
          )}
          {loading ? (
            <Stack alignItems="center" sx={{ py: 2 }}>
              <CircularProgress size={24} aria-label={t('notifications.push.devices.title')} />
            </Stack>
          ) : failed ? (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void Promise.all([devices.refetch(), settings.refetch()])}>
                  {t('notifications.push.errors.retry')}
                </Button>
              }
            >
              {t('notifications.push.errors.loadFailed')}
            </Alert>
          ) : (
            <>
              <Stack component="fieldset" sx={{ border: 0, m: 0, p: 0 }}>
                <Typography component="legend" variant="subtitle2" sx={{ mb: 0.5 }}>
                  {t('notifications.push.events.title')}
                </Typography>
                {(['escalations', 'waiting'] as const).map((event) => (
                  <FormControlLabel
                    key={event}
                    control={
                      <Switch
                        checked={settings.data?.[event] ?? true}
                        onChange={(e) => settings.data && save.mutate({ ...settings.data, [event]: e.target.checked })}
                        data-testid={`push-event-${event}`}
                      />
                    }
                    label={t(`notifications.push.events.${event}`)}
                  />
                ))}
                {/* Issue 32: each person's own alert e-mails (the account's inbox setting must allow them too). */}
                <FormControlLabel
                  control={
                    <Switch
                      checked={settings.data?.email ?? true}
                      onChange={(e) => settings.data && save.mutate({ ...settings.data, email: e.target.checked })}
                      data-testid="push-event-email"
                    />
                  }
                  label={t('notifications.push.events.email')}
                />
              </Stack>
              <div>
                <Typography component="h3" variant="subtitle2">
                  {t('notifications.push.devices.title')}
                </Typography>
                {devices.data && devices.data.length > 0 ? (
                  <List dense data-testid="push-devices">
                    {devices.data.map((d) => {
                      const name = d.label || d.service;
                      return (
                        <ListItem
                          key={d._id}
                          disableGutters
                          data-testid="push-device"
                          secondaryAction={
                            <IconButton edge="end" aria-label={t('notifications.push.devices.remove', { name })} onClick={() => remove.mutate(d)} disabled={remove.isPending}>
                              <DeleteIcon />
                            </IconButton>
                          }
                        >
                          <ListItemText
                            primary={
                              <Stack direction="row" spacing={1} alignItems="center" component="span">
                                <span>{name}</span>
                                {d._id === thisDevice?._id && <Chip size="small" label={t('notifications.push.devices.thisDevice')} />}
                              </Stack>
                            }
                            secondary={d.lastPushAt ? t('notifications.push.devices.lastPush', { date: formatDate(i18n.language, d.lastPushAt) }) : t('notifications.push.devices.never')}
                          />
                        </ListItem>
                      );
                    })}
                  </List>
                ) : (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                    {t('notifications.push.devices.none')}
                  </Typography>
                )}
              </div>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('notifications.push.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
