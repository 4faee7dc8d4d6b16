/**
 * /bookings/setup (issue 30): the owner's bookings setup — services, staff and rooms with their
 * weekly hours and closures, the business's closures, and the booking rules — as tabs (?tab=),
 * with a short guide on first use (no staff and no service yet). Prices in the account's
 * currency, numbers and dates in the UI language; every server text translated.
 */
import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import CalendarMonthOutlined from '@mui/icons-material/CalendarMonthOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { BookingSettings } from '@agentdesk/functions/contract';
import { billingApi } from '../../../api/billing';
import { billingKeys } from '../../../shared/queryKeys';
import { PageHeader } from '../../../shared/PageHeader';
import { RetryAlert } from '../../../shared/RetryAlert';
import { usePageTitle } from '../../../shared/usePageTitle';
import { useToast } from '../../../shared/useToast';
import { useBookingServices, useBookingSettings, useBookingStaff, useSaveBookingSettings } from '../api';
import { wallClock } from '../calendar/time';
import { CalendarFeedPanel } from '../feed/CalendarFeedPanel';
import { bookingErrorText } from '../messages';
import { ClosuresEditor } from './ClosuresEditor';
import { RulesSection } from './RulesSection';
import { ServicesSection } from './ServicesSection';
import { settingsInput } from './settings';
import { SetupWizard } from './SetupWizard';
import { StaffSection } from './StaffSection';
import type { ClosureDraft } from './hours';
import './i18n';

const TABS = ['services', 'staff', 'closures', 'rules', 'subscribe'] as const;
type TabId = (typeof TABS)[number];

/** The account's currency (what its prices are in): billing's, as the plans are priced for this account. */
function useAccountCurrency(): string {
  const plans = useQuery({ queryKey: billingKeys.plans, queryFn: ({ signal }) => billingApi.plans(signal), staleTime: 5 * 60_000 });
  return plans.data?.[0]?.currency ?? 'usd';
}

function BusinessClosures({ settings, today }: { settings: BookingSettings; today: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveBookingSettings();
  const change = async (closures: ClosureDraft[]): Promise<boolean> => {
    try {
      await save.mutateAsync(settingsInput(settings, { closures }));
      toast.success(t('bookingSetup.closures.saved'));
      return true;
    } catch (err) {
      toast.error(bookingErrorText(err, t('bookingSetup.common.saveFailed')));
      return false;
    }
  };
  return (
    <Card variant="outlined">
      <CardContent>
        <ClosuresEditor
          value={settings.closures}
          onChange={change}
          title={t('bookingSetup.closures.businessTitle')}
          hint={t('bookingSetup.closures.businessHint')}
          today={today}
          pending={save.isPending}
          headingLevel="h2"
        />
      </CardContent>
    </Card>
  );
}

export default function BookingSetupPage() {
  const { t } = useTranslation();
  usePageTitle(t('bookingSetup.title'));
  const [params, setParams] = useSearchParams();
  const settings = useBookingSettings();
  const services = useBookingServices();
  const staff = useBookingStaff();
  const currency = useAccountCurrency();
  // The guide shows on first use, and stays until it is finished or skipped (its last step follows the saves).
  const [guide, setGuide] = useState<boolean | null>(null);
  const loaded = settings.isSuccess && services.isSuccess && staff.isSuccess;
  const firstUse = loaded && services.data.length === 0 && staff.data.length === 0;
  const tabParam = params.get('tab');
  // A link to one tab (?tab=subscribe…) opens that tab, not the guide.
  if (loaded && guide === null) setGuide(firstUse && tabParam === null);

  const tab: TabId = (TABS as readonly string[]).includes(tabParam ?? '') ? (tabParam as TabId) : 'services';
  const today = settings.data ? wallClock(new Date(), settings.data.timeZone).slice(0, 10) : new Date().toISOString().slice(0, 10);

  let body: ReactNode;
  const failed = [settings, services, staff].find((q) => q.isError);
  if (failed) {
    body = (
      <RetryAlert
        retryLabel={t('bookingSetup.retry')}
        onRetry={() => {
          for (const q of [settings, services, staff]) if (q.isError) void q.refetch();
        }}
      >
        {bookingErrorText(failed.error, t('bookingSetup.loadFailed'))}
      </RetryAlert>
    );
  } else if (!loaded) {
    body = <Skeleton variant="rounded" height={320} role="status" aria-busy="true" aria-label={t('bookingSetup.loading')} />;
  } else if (guide) {
    body = <SetupWizard currency={currency} today={today} onClose={() => setGuide(false)} />;
  } else {
    const panel = {
      services: <ServicesSection services={services.data} staff={staff.data} currency={currency} />,
      staff: <StaffSection staff={staff.data} today={today} />,
      closures: <BusinessClosures settings={settings.data} today={today} />,
      rules: <RulesSection key={settings.data.updatedAt ?? 'new'} settings={settings.data} />,
      subscribe: <CalendarFeedPanel />,
    }[tab];
    body = (
      <>
        <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}>
          <Tabs
            value={tab}
            onChange={(_, next: TabId) => setParams(next === 'services' ? {} : { tab: next }, { replace: true })}
            variant="scrollable"
            allowScrollButtonsMobile
            aria-label={t('bookingSetup.tabs.label')}
          >
            {TABS.map((id) => (
              <Tab key={id} value={id} label={t(`bookingSetup.tabs.${id}`)} id={`booking-setup-tab-${id}`} aria-controls={id === tab ? `booking-setup-panel-${id}` : undefined} />
            ))}
          </Tabs>
        </Box>
        <Box role="tabpanel" id={`booking-setup-panel-${tab}`} aria-labelledby={`booking-setup-tab-${tab}`}>
          {panel}
        </Box>
      </>
    );
  }

  return (
    <Box>
      <PageHeader title={t('bookingSetup.title')} subtitle={t('bookingSetup.subtitle')}>
        <Box>
          <Button variant="outlined" startIcon={<CalendarMonthOutlined />} component={RouterLink} to="/bookings">
            {t('bookingSetup.calendar')}
          </Button>
        </Box>
      </PageHeader>
      {body}
    </Box>
  );
}
