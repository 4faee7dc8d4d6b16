/**
 * Three plan cards with their badge ('Most Popular' / 'Current Plan') and the button the plan
 * rules give (Get Started / Current Plan / Upgrade / Downgrade). Used by plan selection and
 * the Settings tab.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Plan, PlanId } from '@agentdesk/functions/contract';
import { planAction, planPermissions, POPULAR_PLAN, sortPlans, type PlanAction } from './plans';
import { PlanFeatureList } from './PlanFeatureList';
import { usePlanText } from './usePlanText';

interface PlanGridProps {
  plans: readonly Plan[];
  /** The user's plan, or null without an existing subscription. */
  current: PlanId | null;
  /** The plan whose change or checkout is under way ('Processing...'); every button waits meanwhile. */
  pending: PlanId | null;
  onChoose: (plan: Plan, action: PlanAction) => void;
}

const ACTION_LABEL = {
  'get-started': 'billing.actions.getStarted',
  current: 'billing.actions.current',
  upgrade: 'billing.actions.upgrade',
  downgrade: 'billing.actions.downgrade',
} as const;

export function PlanGrid({ plans, current, pending, onChoose }: PlanGridProps) {
  const { t } = useTranslation();
  const text = usePlanText();
  const permissions = planPermissions(current);

  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, alignItems: 'stretch' }}>
      {sortPlans(plans).map((plan) => {
        const action = planAction(current, plan, permissions);
        const isCurrent = current === plan.id;
        const popular = !current && plan.id === POPULAR_PLAN;
        const titleId = `plan-${plan.id}-title`;
        const highlighted = isCurrent || popular;
        return (
          <Card
            key={plan.id}
            component="section"
            aria-labelledby={titleId}
            sx={{
              position: 'relative',
              display: 'flex',
              flexDirection: 'column',
              overflow: 'visible',
              borderWidth: highlighted ? 2 : 1,
              borderColor: highlighted ? (isCurrent ? 'success.main' : 'primary.main') : 'divider',
              opacity: plan.disabled ? 0.85 : 1,
            }}
          >
            {(popular || isCurrent) && (
              <Chip
                label={isCurrent ? t('billing.currentPlan') : t('billing.mostPopular')}
                color={isCurrent ? 'success' : 'primary'}
                size="small"
                sx={{ position: 'absolute', top: -12, left: '50%', transform: 'translateX(-50%)', fontWeight: 600 }}
              />
            )}
            <CardContent sx={{ p: 3, flex: 1, display: 'flex', flexDirection: 'column' }}>
              <Typography id={titleId} variant="h6" component="h3">
                {text.name(plan)}
              </Typography>
              <Typography color="text.secondary" variant="body2" sx={{ minHeight: 40, mt: 0.5 }}>
                {text.feature(plan.description)}
              </Typography>
              <Stack direction="row" sx={{ alignItems: 'baseline', my: 2 }} spacing={0.5}>
                <Typography variant="h4" component="p">
                  {text.price(plan)}
                </Typography>
                <Typography color="text.secondary">{text.per(plan)}</Typography>
              </Stack>
              <PlanFeatureList plan={plan} sx={{ flex: 1, mb: 2 }} />
              {plan.disabled && (
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
                  {t('billing.contactUsNote')}
                </Typography>
              )}
              <Button
                fullWidth
                size="large"
                variant={action.kind === 'current' ? 'outlined' : highlighted || action.kind === 'upgrade' ? 'contained' : 'outlined'}
                disabled={!action.enabled || pending !== null}
                onClick={() => onChoose(plan, action)}
              >
                {pending === plan.id ? t('billing.actions.processing') : t(ACTION_LABEL[action.kind])}
              </Button>
            </CardContent>
          </Card>
        );
      })}
    </Box>
  );
}
