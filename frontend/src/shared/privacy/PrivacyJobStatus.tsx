/**
 * Where a person's erasure or export is (issue 33): a bar while it waits or runs (steps done of the
 * steps), what it erased or exported once done, and an export's Download. The download link lives
 * EXPORT_LINK_MINUTES: an older one is signed again by fetching the job; a file past its day is
 * gone, which the person is told, with Export again.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PrivacyJobView } from '@agentdesk/functions/contract';
import { privacyApi, privacyKeys } from '../../api/privacy';
import { translateMessage } from '../../i18n';
import { useNow } from '../useNow';
import { countsList } from './strings';

/** The share of the steps done, 0-100. */
export const jobPercent = (job: PrivacyJobView): number =>
  job.progress.stepsTotal > 0 ? Math.min(100, Math.round((job.progress.stepsDone / job.progress.stepsTotal) * 100)) : 0;

function DownloadButton({ job, onExportAgain }: { job: PrivacyJobView; onExportAgain?: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const now = useNow(15_000);
  const [expired, setExpired] = useState(false);
  const [fetching, setFetching] = useState(false);
  const link = job.download;

  if (!link || expired) {
    return (
      <Alert
        severity="warning"
        data-testid="privacy-export-expired"
        action={
          onExportAgain && (
            <Button color="inherit" size="small" onClick={onExportAgain}>
              {t('privacy.job.exportAgain')}
            </Button>
          )
        }
      >
        {t(onExportAgain ? 'privacy.job.expired' : 'privacy.job.expiredLookUp')}
      </Alert>
    );
  }
  const fresh = Date.parse(link.expiresAt) > now + 5_000;
  return (
    <Button
      variant="contained"
      size="small"
      startIcon={<FileDownloadOutlined />}
      href={link.url}
      download={link.fileName}
      disabled={fetching}
      sx={{ alignSelf: 'flex-start' }}
      onClick={async (e) => {
        if (fresh) return;
        // The signed link has run out: ask for the job again (a new link, or none once the file is gone).
        e.preventDefault();
        setFetching(true);
        try {
          const again = await privacyApi.job(job._id);
          queryClient.setQueryData(privacyKeys.job(job._id), again);
          if (again.download) window.location.assign(again.download.url);
          else setExpired(true);
        } catch {
          setExpired(true);
        } finally {
          setFetching(false);
        }
      }}
    >
      {t('privacy.job.download')}
    </Button>
  );
}

export function PrivacyJobStatus({ job, onExportAgain }: { job: PrivacyJobView; onExportAgain?: () => void }) {
  const { t, i18n } = useTranslation();
  if (job.status === 'queued' || job.status === 'running') {
    const percent = jobPercent(job);
    return (
      <Stack spacing={1} data-testid="privacy-job-progress">
        <LinearProgress
          variant={job.status === 'queued' ? 'indeterminate' : 'determinate'}
          value={percent}
          aria-label={t('privacy.jobs.progress')}
        />
        <Typography variant="body2" role="status">
          {job.status === 'queued' ? t('privacy.job.queued') : t('privacy.job.running', { done: job.progress.stepsDone, total: job.progress.stepsTotal })}
        </Typography>
      </Stack>
    );
  }
  if (job.status === 'failed') {
    return (
      <Alert severity="error" data-testid="privacy-job-failed">
        {job.failure ? translateMessage(job.failure) : t('privacy.job.failed')}
      </Alert>
    );
  }
  const list = countsList(t, i18n.language, job.counts);
  return (
    <Stack spacing={1} data-testid="privacy-job-done">
      <Box role="status">
        <Typography variant="body2">{t(job.kind === 'erasure' ? 'privacy.job.erasureDone' : 'privacy.job.exportDone', { list })}</Typography>
      </Box>
      {job.kind === 'export' && <DownloadButton job={job} onExportAgain={onExportAgain} />}
    </Stack>
  );
}
