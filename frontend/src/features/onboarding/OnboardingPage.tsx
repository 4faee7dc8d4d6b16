/**
 * What a signed-in user without an active subscription sees on every path (SPEC §2, §6):
 * the onboarding steps with Previous/Next and a close button that logs out after a confirm.
 */
import { useMemo, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import ArrowBack from '@mui/icons-material/ArrowBack';
import ArrowForward from '@mui/icons-material/ArrowForward';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../shared/session';
import { Brand } from '../../shared/Brand';
import { LanguageSwitcher } from '../../shared/LanguageSwitcher';
import { usePageTitle } from '../../shared/usePageTitle';
import { onboardingSteps, type StepNavigation } from './steps';

export default function OnboardingPage({ renderPlanStep }: { renderPlanStep: (nav: StepNavigation) => ReactNode }) {
  const { t } = useTranslation();
  const steps = useMemo(() => onboardingSteps(renderPlanStep), [renderPlanStep]);
  const { signOut } = useAuth();
  const [index, setIndex] = useState(0);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const total = steps.length;
  const step = steps[Math.min(index, total - 1)]!;
  usePageTitle(t('onboarding.label'));
  const previous = () => setIndex((i) => Math.max(i - 1, 0));

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      {/* A landmark like the <main> below, so nothing on the page sits outside one (axe: region). */}
      <Stack component="header" direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', px: { xs: 2, md: 4 }, py: 2 }}>
        <Brand />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          {/* The account's language, changeable before the app's profile page is reachable (issue 29). */}
          <LanguageSwitcher />
          <IconButton onClick={() => setConfirmOpen(true)} aria-label={t('onboarding.close')} title={t('onboarding.close')}>
            <CloseIcon />
          </IconButton>
        </Stack>
      </Stack>
      <Box component="main" sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', px: 2, pb: 6 }}>
        <Paper
          variant="outlined"
          aria-label={t('onboarding.label')}
          component="section"
          sx={{ width: '100%', maxWidth: step.wide ? 1040 : 640, p: { xs: 3, md: 5 } }}
        >
          <Typography variant="overline" color="primary" sx={{ fontWeight: 700 }}>
            {t('onboarding.progress', { current: index + 1, total })}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={((index + 1) / total) * 100}
            aria-hidden
            sx={{ mb: 4, mt: 1, height: 6, borderRadius: 3 }}
          />
          <Box key={step.id} sx={{ minHeight: 220 }} data-testid={`onboarding-step-${step.id}`}>
            <Typography variant="h3" component="h1" sx={{ fontSize: { xs: 30, md: 40 }, mb: 2 }}>
              {t(step.titleKey)}
            </Typography>
            {step.render(t, { previous })}
          </Box>
          {!step.ownFooter && (
            <Stack direction="row" sx={{ mt: 4, justifyContent: 'space-between' }}>
              <Button startIcon={<ArrowBack />} onClick={previous} disabled={index === 0}>
                {t('common.previous')}
              </Button>
              <Button
                variant="contained"
                endIcon={<ArrowForward />}
                onClick={() => setIndex((i) => Math.min(i + 1, total - 1))}
                disabled={index >= total - 1}
              >
                {t('common.next')}
              </Button>
            </Stack>
          )}
        </Paper>
      </Box>
      <Dialog open={confirmOpen} onClose={() => setConfirmOpen(false)} aria-labelledby="onboarding-logout-title">
        <DialogTitle id="onboarding-logout-title">{t('onboarding.confirmTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('onboarding.confirmLogout')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmOpen(false)}>{t('common.cancel')}</Button>
          <Button onClick={signOut} variant="contained" color="error" autoFocus>
            {t('common.logout')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
