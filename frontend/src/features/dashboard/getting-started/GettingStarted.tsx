/**
 * The dashboard's getting-started checklist (issue 19): connect ChatGPT → create an agent → add
 * knowledge → connect WhatsApp or Twilio → test, each step ticked from the account's real data
 * (GET /api/dashboard/getting-started, fetched again whenever the dashboard opens) and linking to
 * the screen where it is done. "Hide" stores the choice on the server; once every step is done the
 * card says so and Hide is its main action. While hidden, "Show getting started" in the dashboard's
 * header brings it back.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircle from '@mui/icons-material/CheckCircle';
import ChecklistOutlined from '@mui/icons-material/ChecklistOutlined';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { GettingStarted as Checklist } from '@agentdesk/functions/contract';
import { dashboardApi, dashboardKeys } from '../../../api/dashboard';
import { errorMessage } from '../../../i18n';
import { formatNumber } from '../../../shared/intl';
import { RetryAlert } from '../../../shared/RetryAlert';
import { useToast } from '../../../shared/useToast';
import './i18n';
import { stepLink } from './steps';

function useChecklist() {
  return useQuery({
    queryKey: dashboardKeys.gettingStarted,
    queryFn: ({ signal }) => dashboardApi.gettingStarted(signal),
    // Steps are done on other screens: coming back to the dashboard always re-reads them.
    refetchOnMount: 'always',
  });
}

/** Stores hidden/shown on the server; the card follows the answer. */
function useSetHidden(hidden: boolean, failedKey: string, then?: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: () => dashboardApi.setGettingStartedHidden(hidden),
    onSuccess: (data) => {
      queryClient.setQueryData(dashboardKeys.gettingStarted, data);
      then?.();
    },
    onError: (err) => toast.error(errorMessage(err, t(failedKey))),
  });
}

/**
 * After "Show", keyboard focus moves to the checklist's heading once it is on screen (the button
 * it was on is gone): set on success, taken by the heading's ref when it mounts.
 */
let focusOnShow = false;
const focusChecklist = () => {
  focusOnShow = true;
};
const takeFocus = (heading: HTMLElement | null) => {
  if (heading && focusOnShow) {
    focusOnShow = false;
    heading.focus();
  }
};

/** The way back to a hidden checklist (for the dashboard's header); nothing while it is shown. */
export function ShowGettingStarted() {
  const { t } = useTranslation();
  const checklist = useChecklist();
  const show = useSetHidden(false, 'gettingStarted.showFailed', focusChecklist);
  if (!checklist.data?.hidden) return null;
  return (
    <Button onClick={() => show.mutate()} disabled={show.isPending} startIcon={<ChecklistOutlined />} sx={{ flexShrink: 0 }} data-testid="getting-started-show">
      {t('gettingStarted.show')}
    </Button>
  );
}

export function GettingStarted() {
  const { t, i18n } = useTranslation();
  const checklist = useChecklist();
  const hide = useSetHidden(true, 'gettingStarted.hideFailed');

  if (checklist.isPending) {
    return (
      <Paper sx={{ p: 2.5, mb: 3 }} role="status" data-testid="getting-started-loading">
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {t('gettingStarted.loading')}
        </Typography>
        <LinearProgress aria-hidden />
      </Paper>
    );
  }
  if (checklist.isError) {
    return (
      <RetryAlert
        retryLabel={t('gettingStarted.retry')}
        onRetry={() => void checklist.refetch()}
        retrying={checklist.isFetching}
        sx={{ mb: 3 }}
        data-testid="getting-started-error"
      >
        {t('gettingStarted.error')}
      </RetryAlert>
    );
  }
  const data: Checklist = checklist.data;
  if (data.hidden) return null;

  const doneCount = data.steps.filter((s) => s.done).length;
  const total = data.steps.length;
  const count = (n: number) => formatNumber(i18n.language, n);
  return (
    <Paper component="section" aria-labelledby="getting-started-title" sx={{ p: { xs: 2, md: 3 }, mb: 3 }} data-testid="getting-started">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' }, justifyContent: 'space-between' }}>
        <Box>
          <Typography id="getting-started-title" ref={takeFocus} variant="h6" component="h2" tabIndex={-1} sx={{ '&:focus': { outline: 'none' } }}>
            {t('gettingStarted.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {data.allDone ? t('gettingStarted.allDone') : t('gettingStarted.subtitle')}
          </Typography>
        </Box>
        <Button
          onClick={() => hide.mutate()}
          disabled={hide.isPending}
          variant={data.allDone ? 'contained' : 'text'}
          aria-label={t('gettingStarted.hideLabel')}
          sx={{ flexShrink: 0, alignSelf: { xs: 'flex-start', sm: 'auto' } }}
        >
          {t('gettingStarted.hide')}
        </Button>
      </Stack>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', my: 2 }}>
        <LinearProgress
          variant="determinate"
          value={(doneCount / total) * 100}
          sx={{ flex: 1, height: 8, borderRadius: 4 }}
          aria-label={t('gettingStarted.title')}
        />
        <Typography variant="body2" color="text.secondary" data-testid="getting-started-progress">
          {t('gettingStarted.progress', { done: count(doneCount), count: total })}
        </Typography>
      </Stack>
      <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {data.steps.map((step, index) => (
          <Stack
            component="li"
            key={step.id}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1.5}
            sx={{ alignItems: { sm: 'center' } }}
            data-testid={`getting-started-${step.id}`}
            data-done={step.done ? 'true' : 'false'}
          >
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flex: 1, minWidth: 0 }}>
              {step.done ? (
                <CheckCircle color="success" aria-hidden />
              ) : (
                <RadioButtonUnchecked sx={{ color: 'text.secondary' }} aria-hidden />
              )}
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600 }}>
                  {`${count(index + 1)}. ${t(`gettingStarted.steps.${step.id}.title`)}`}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {t(`gettingStarted.steps.${step.id}.body`)}
                </Typography>
              </Box>
            </Stack>
            {step.done ? (
              <Chip
                label={t('gettingStarted.done')}
                variant="outlined"
                size="small"
                // success.dark: the theme's success green is below 4.5:1 as small text on white (WCAG AA).
                sx={{ color: 'success.dark', borderColor: 'success.dark', alignSelf: { xs: 'flex-start', sm: 'center' } }}
              />
            ) : (
              <Button
                component={RouterLink}
                to={stepLink(step.id, data.agentId)}
                variant="outlined"
                size="small"
                sx={{ flexShrink: 0, alignSelf: { xs: 'flex-start', sm: 'center' } }}
              >
                {t(`gettingStarted.steps.${step.id}.action`)}
              </Button>
            )}
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
