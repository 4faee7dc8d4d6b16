/**
 * A person's erasure and export (issue 33), from a contact or from the privacy page's look-up: the
 * erasure shows what will go (the look-up's counts) and asks for the typed word (BORRAR / ERASE as
 * shown in the UI's language; the server takes either), then follows the job to its end; the export
 * starts the job and offers its ZIP when ready.
 */
import { useEffect, useId, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EXPORT_KEEP_HOURS, EXPORT_LINK_MINUTES, type PersonDataInventory, type PersonRefRequest, type PrivacyJobView } from '@agentdesk/functions/contract';
import { privacyApi, privacyKeys } from '../../api/privacy';
import { errorMessage } from '../../i18n';
import { PrivacyJobStatus } from './PrivacyJobStatus';
import { usePrivacyJob } from './queries';
import { countsList } from './strings';

interface PersonDialogProps {
  open: boolean;
  /** Who: a contact, or a phone number as typed (national form accepted). */
  person: PersonRefRequest;
  /** Their name or number, for the title. */
  label: string;
  onClose: () => void;
}

/** Starts a job and follows it; the jobs list is refreshed when one starts. */
function useStartedJob(start: () => Promise<PrivacyJobView>) {
  const queryClient = useQueryClient();
  const [started, setStarted] = useState<PrivacyJobView | null>(null);
  const mutation = useMutation({
    mutationFn: start,
    onSuccess: (job) => {
      setStarted(job);
      void queryClient.invalidateQueries({ queryKey: privacyKeys.jobs });
    },
  });
  const job = usePrivacyJob(started?._id ?? null, started ?? undefined);
  return { mutation, job: started ? (job.data ?? started) : null, reset: () => (setStarted(null), mutation.reset()) };
}

export function ErasePersonDialog({ open, person, label, onClose, inventory, onErased }: PersonDialogProps & { inventory?: PersonDataInventory; onErased?: (job: PrivacyJobView) => void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const word = t('privacy.eraseDialog.word');
  const lookup = useQuery({
    queryKey: privacyKeys.lookup(person),
    queryFn: ({ signal }) => privacyApi.lookup(person, signal),
    enabled: open && !inventory,
    staleTime: 0,
    retry: false,
  });
  const found = inventory ?? lookup.data;
  const { mutation, job, reset } = useStartedJob(() => privacyApi.erase(person, typed.trim()));
  const ready = typed.trim().toLocaleUpperCase() === word.toLocaleUpperCase() && Boolean(found) && !mutation.isPending;

  // Once the erasure is done the caller moves on (a contact's page goes back to the list).
  const told = useRef(false);
  useEffect(() => {
    if (job?.status === 'done' && !told.current) {
      told.current = true;
      void queryClient.invalidateQueries({ queryKey: privacyKeys.jobs });
      onErased?.(job);
    }
  }, [job, onErased, queryClient]);

  const close = () => {
    if (mutation.isPending) return;
    setTyped('');
    told.current = false;
    reset();
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>
        {t('privacy.eraseDialog.title')}: {label}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {job ? (
            <PrivacyJobStatus job={job} />
          ) : (
            <>
              {!found && lookup.isPending && (
                <Stack spacing={1}>
                  <Typography variant="body2">{t('privacy.eraseDialog.counting')}</Typography>
                  <Skeleton variant="rounded" height={40} />
                </Stack>
              )}
              {!found && lookup.isError && <Alert severity="error">{errorMessage(lookup.error, t('privacy.requests.lookupFailed'))}</Alert>}
              {found && (
                <>
                  <DialogContentText>{t('privacy.eraseDialog.body')}</DialogContentText>
                  <Typography sx={{ fontWeight: 600 }} data-testid="privacy-erase-counts">
                    {countsList(t, i18n.language, found.counts)}
                  </Typography>
                  {(found.active.conversation || found.active.call) && <Alert severity="warning">{t('privacy.requests.active')}</Alert>}
                  <DialogContentText variant="body2">{t('privacy.eraseDialog.after')}</DialogContentText>
                  <form
                    id={`${id}-form`}
                    noValidate
                    onSubmit={(e) => {
                      e.preventDefault();
                      if (ready) mutation.mutate();
                    }}
                  >
                    <TextField
                      label={t('privacy.eraseDialog.typeToConfirm', { word })}
                      value={typed}
                      onChange={(e) => setTyped(e.target.value)}
                      autoComplete="off"
                      fullWidth
                      slotProps={{ htmlInput: { 'data-testid': 'privacy-erase-word' } }}
                    />
                  </form>
                </>
              )}
              {mutation.isError && (
                <Alert severity="error" role="alert">
                  {errorMessage(mutation.error, t('privacy.eraseDialog.failed'))}
                </Alert>
              )}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} disabled={mutation.isPending}>
          {job ? t('privacy.job.close') : t('common.cancel')}
        </Button>
        {!job && found && (
          <Button type="submit" form={`${id}-form`} variant="contained" color="error" disabled={!ready}>
            {mutation.isPending ? t('privacy.eraseDialog.pending') : t('privacy.eraseDialog.confirm')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

export function ExportPersonDialog({ open, person, label, onClose }: PersonDialogProps) {
  const { t } = useTranslation();
  const id = useId();
  const { mutation, job, reset } = useStartedJob(() => privacyApi.export(person));

  const close = () => {
    if (mutation.isPending) return;
    reset();
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="sm" fullWidth aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>
        {t('privacy.exportDialog.title')}: {label}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>{t('privacy.exportDialog.body')}</DialogContentText>
          <DialogContentText variant="body2">{t('privacy.exportDialog.linkNote', { minutes: EXPORT_LINK_MINUTES, hours: EXPORT_KEEP_HOURS })}</DialogContentText>
          {job && (
            <PrivacyJobStatus
              job={job}
              onExportAgain={() => {
                reset();
                mutation.mutate();
              }}
            />
          )}
          {mutation.isError && (
            <Alert severity="error" role="alert">
              {errorMessage(mutation.error, t('privacy.exportDialog.failed'))}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} disabled={mutation.isPending}>
          {job ? t('privacy.job.close') : t('common.cancel')}
        </Button>
        {!job && (
          <Button variant="contained" onClick={() => mutation.mutate()} disabled={mutation.isPending}>
            {mutation.isPending ? t('privacy.exportDialog.pending') : t('privacy.exportDialog.confirm')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
