import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan, PlanId } from '@agentdesk/functions/contract';
import { translateMessage } from '../../i18n';
import { formatPrice } from './format';
import './i18n';

/** Plan names, prices, features and descriptions in the UI language (server texts via translateMessage). */
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
  return { name, price, per, feature, language };
}
