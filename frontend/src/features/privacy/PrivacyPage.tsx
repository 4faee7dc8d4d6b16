/**
 * /privacy-settings (Settings → Privacidad, issue 33; owners and admins): the account's retention,
 * notices and opt-out words (one Save), the customers' data requests (look up by phone number,
 * erase or export) and the recent requests with their progress. (/privacy is the public privacy
 * policy, linked from the sign-up form.)
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { privacyApi, privacyKeys } from '../../api/privacy';
import { errorMessage } from '../../i18n';
import { PageHeader } from '../../shared/PageHeader';
import { RetryAlert } from '../../shared/RetryAlert';
import { SectionHeading } from '../../shared/SectionHeading';
import { usePageTitle } from '../../shared/usePageTitle';
import './i18n';
import { DataRequests } from './DataRequests';
import { PrivacyJobsList } from './PrivacyJobsList';
import { PrivacySettingsForm } from './PrivacySettingsForm';

function Panel({ title, text, children }: { title: string; text?: string; children: ReactNode }) {
  return (
    <Card>
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Box sx={{ mb: 2 }}>
          <SectionHeading title={title} text={text ?? ''} />
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

export default function PrivacyPage() {
  const { t } = useTranslation();
  usePageTitle(t('privacy.title'));
  const settings = useQuery({ queryKey: privacyKeys.settings, queryFn: ({ signal }) => privacyApi.settings(signal) });

  let form: ReactNode;
  if (settings.isPending) form = <Skeleton variant="rounded" height={320} role="status" aria-busy="true" aria-label={t('privacy.loading')} />;
  else if (settings.isError)
    form = (
      <RetryAlert retryLabel={t('privacy.retry')} onRetry={() => void settings.refetch()} retrying={settings.isFetching}>
        {errorMessage(settings.error, t('privacy.loadFailed'))}
      </RetryAlert>
    );
  // Keyed by the saved value's identity: a refetch with other values starts the form again.
  else form = <PrivacySettingsForm key={JSON.stringify(settings.data)} saved={settings.data} />;

  return (
    <Box sx={{ maxWidth: 960 }}>
      <PageHeader title={t('privacy.title')} subtitle={t('privacy.subtitle')} />
      <Stack spacing={3}>
        <Panel title={t('privacy.requests.heading')} text={t('privacy.requests.intro')}>
          <DataRequests />
        </Panel>
        <Panel title={t('privacy.jobs.heading')}>
          <PrivacyJobsList />
        </Panel>
        {form}
      </Stack>
    </Box>
  );
}
