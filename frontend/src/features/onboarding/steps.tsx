/**
 * Onboarding steps (SPEC §2 Onboarding): 1–4 tell the story, 5 'Choose your plan' starts the
 * checkout. The page's Previous/Next walk the array; a step with its own footer (step 5) gets
 * `previous` and renders its buttons itself.
 */
import type { ReactNode } from 'react';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';

export interface StepNavigation {
  previous: () => void;
}

export interface OnboardingStep {
  id: string;
  /** i18n key of the step's heading. */
  titleKey: string;
  render: (t: TFunction, nav: StepNavigation) => ReactNode;
  /** The step renders its own Previous/continue buttons instead of the page's. */
  ownFooter?: boolean;
  /** The step needs a wider panel (plan cards side by side). */
  wide?: boolean;
}

function Bullets({ t, base, items }: { t: TFunction; base: string; items: string[] }) {
  return (
    <>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {t(`${base}.body`)}
      </Typography>
      <List dense>
        {items.map((item) => (
          <ListItem key={item} disableGutters>
            <ListItemIcon sx={{ minWidth: 36 }}>
              <CheckCircleOutline color="success" />
            </ListItemIcon>
            <ListItemText primary={t(`${base}.items.${item}`)} slotProps={{ primary: { sx: { fontSize: 17 } } }} />
          </ListItem>
        ))}
      </List>
    </>
  );
}

/** The four story steps, then the plan choice, which app/ supplies (billing's ChoosePlanStep). */
export function onboardingSteps(renderPlanStep: (nav: StepNavigation) => ReactNode): OnboardingStep[] {
  return [
    {
      id: 'welcome',
      titleKey: 'onboarding.steps.welcome.title',
      render: (t) => (
        <Typography color="text.secondary" sx={{ fontSize: 18 }}>
          {t('onboarding.steps.welcome.body')}
        </Typography>
      ),
    },
    {
      id: 'not-just-answering',
      titleKey: 'onboarding.steps.notJustAnswering.title',
      render: (t) => (
        <Bullets t={t} base="onboarding.steps.notJustAnswering" items={['filters', 'actionPoints', 'summaries', 'transcripts', 'more']} />
      ),
    },
    {
      id: 'live',
      titleKey: 'onboarding.steps.live.title',
      render: (t) => <Bullets t={t} base="onboarding.steps.live" items={['number', 'trained', 'ready']} />,
    },
    {
      id: 'risk-free',
      titleKey: 'onboarding.steps.riskFree.title',
      render: (t) => <Bullets t={t} base="onboarding.steps.riskFree" items={['trial', 'cancel', 'dayOne']} />,
    },
    {
      id: 'plan',
      titleKey: 'billing.onboarding.title',
      render: (_t, nav) => renderPlanStep(nav),
      ownFooter: true,
      wide: true,
    },
  ];
}
