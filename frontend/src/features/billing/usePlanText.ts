import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan, PlanId, PlanLimits } from '@agentdesk/functions/contract';
import { translateMessage } from '../../i18n';
import { formatNumber } from '../../shared/intl';
import { formatPrice } from './format';
import { LIMIT_METRICS } from './plans';
import './i18n';

/**
 * Plan names, prices (Intl, in the plan's currency: '79 €' in Spanish, '$79' in English),
 * limits and features in the UI language (server texts via translateMessage).
 */
export function usePlanText() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const name = useCallback(
    (plan: Pick<Plan, 'id' | 'name'> | PlanId) =>
      typeof plan === 'string' ? t(`billing.planNames.${plan}`, { defaultValue: plan }) : t(`billing.planNames.${plan.id}`, { defaultValue: plan.name }),
    [t],
  );
  const price = useCallback((plan: Pick<Plan, 'price' | 'currency'>) => formatPrice(plan.price, plan.currency, language), [language]);
  const per = useCallback(
    (plan: Pick<Plan, 'interval'>) => t('billing.perInterval', { interval: t(`billing.intervals.${plan.interval}`, { defaultValue: plan.interval }) }),
    [t],
  );
  const feature = useCallback((text: string) => translateMessage(text), []);
  /** A limit as a plan line: 'Up to 5,000 contacts' / 'Hasta 5000 contactos', '10.000 mensajes al mes', 'Unlimited messages'. */
  const limit = useCallback(
    (metric: keyof PlanLimits, value: number) =>
      value < 0
        ? t(`billing.limitLines.${metric}Unlimited`)
        : t(`billing.limitLines.${metric}`, { count: value, n: formatNumber(language, value) }),
    [t, language],
  );
  /** The plan's limits and then its features, as the plan lists show them. */
  const lines = useCallback(
    (plan: Pick<Plan, 'limits' | 'features'>) => [...LIMIT_METRICS.map((m) => limit(m, plan.limits[m])), ...plan.features.map(feature)],
    [limit, feature],
  );
  return { name, price, per, feature, limit, lines, language };
}
