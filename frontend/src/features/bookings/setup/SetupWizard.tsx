/**
 * The first-use guide (no staff and no service yet): business hours → the first staff member or
 * room (with those hours) → the first service (done by them) → done, with a link to the calendar.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { BookingStaff, WeeklyHours } from '@agentdesk/functions/contract';
import { translateBookingText } from '../messages';
import { defaultWeek, weekProblems } from './hours';
import { ServiceForm } from './ServiceDialog';
import { StaffForm } from './StaffDialog';
import { WeeklyHoursEditor } from './WeeklyHoursEditor';
import './i18n';

const STEPS = ['hours', 'staff', 'service', 'done'] as const;

interface SetupWizardProps {
  currency: string;
  today: string;
  /** Leave the guide for the tabs (skipped, or finished). */
  onClose: () => void;
}

export function SetupWizard({ currency, today, onClose }: SetupWizardProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState(0);
  const [hours, setHours] = useState<WeeklyHours>(defaultWeek);
  const [hoursProblem, setHoursProblem] = useState<string | null>(null);
  const [staff, setStaff] = useState<BookingStaff | null>(null);
  const current = STEPS[step]!;

  const body = {
    hours: (
      <>
        <Typography sx={{ mb: 2 }}>{t('bookingSetup.wizard.hoursBody')}</Typography>
        <WeeklyHoursEditor
          value={hours}
          onChange={(next) => {
            setHours(next);
            setHoursProblem(null);
          }}
          showProblems={hoursProblem !== null}
        />
        {hoursProblem && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {hoursProblem}
          </Alert>
        )}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 2 }}>
          <Button onClick={onClose}>{t('bookingSetup.wizard.skip')}</Button>
          <Button
            variant="contained"
            onClick={() => {
              const problem = Object.values(weekProblems(hours))[0];
              if (problem) setHoursProblem(translateBookingText(problem));
              else setStep(1);
            }}
          >
            {t('bookingSetup.wizard.next')}
          </Button>
        </Stack>
      </>
    ),
    staff: (
      <>
        <Typography sx={{ mb: 1 }}>{t('bookingSetup.wizard.staffBody')}</Typography>
        <StaffForm
          staff={staff}
          initialHours={hours}
          nameOnly
          today={today}
          formId="wizard-staff-form"
          cancelLabel={t('bookingSetup.wizard.back')}
          submitLabel={t('bookingSetup.wizard.next')}
          onCancel={() => setStep(0)}
          onSaved={(saved) => {
            if (saved) setStaff(saved);
            setStep(2);
          }}
        />
      </>
    ),
    service: (
      <>
        <Typography sx={{ mb: 1 }}>{t('bookingSetup.wizard.serviceBody')}</Typography>
        {staff && (
          <ServiceForm
            service={null}
            staff={[staff]}
            currency={currency}
            defaultStaffIds={[staff._id]}
            formId="wizard-service-form"
            cancelLabel={t('bookingSetup.wizard.back')}
            submitLabel={t('bookingSetup.wizard.next')}
            onCancel={() => setStep(1)}
            onSaved={() => setStep(3)}
          />
        )}
      </>
    ),
    done: (
      <Box sx={{ textAlign: 'center', py: 2 }}>
        <CheckCircleOutline color="success" sx={{ fontSize: 48 }} />
        <Typography variant="h6" component="h3">
          {t('bookingSetup.wizard.doneTitle')}
        </Typography>
        <Typography color="text.secondary" sx={{ maxWidth: 520, mx: 'auto', mb: 2 }}>
          {t('bookingSetup.wizard.doneBody')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'center' }}>
          <Button variant="contained" component={RouterLink} to="/bookings">
            {t('bookingSetup.wizard.openCalendar')}
          </Button>
          <Button onClick={onClose}>{t('bookingSetup.wizard.keepSetting')}</Button>
        </Stack>
      </Box>
    ),
  }[current];

  return (
    <Card variant="outlined" component="section" aria-labelledby="booking-wizard-title" data-testid="booking-wizard">
      <CardContent>
        <Typography id="booking-wizard-title" variant="h5" component="h2">
          {t('bookingSetup.wizard.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('bookingSetup.wizard.intro')}
        </Typography>
        <Stepper activeStep={step} alternativeLabel sx={{ mb: 3 }}>
          {STEPS.map((id) => (
            <Step key={id} completed={STEPS.indexOf(id) < step || (id === 'done' && step === 3)}>
              <StepLabel>{t(`bookingSetup.wizard.steps.${id}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
        <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
          {t(`bookingSetup.wizard.steps.${current}`)}
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
}
