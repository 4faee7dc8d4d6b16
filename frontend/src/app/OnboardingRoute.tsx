/** Onboarding as app/ composes it: the onboarding story ending in billing's plan choice. */
import OnboardingPage from '../features/onboarding/OnboardingPage';
import { ChoosePlanStep } from '../features/billing/ChoosePlanStep';
import type { StepNavigation } from '../features/onboarding/steps';

const renderPlanStep = (nav: StepNavigation) => <ChoosePlanStep onPrevious={nav.previous} />;

export default function OnboardingRoute() {
  return <OnboardingPage renderPlanStep={renderPlanStep} />;
}
