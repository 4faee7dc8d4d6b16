import type { TFunction } from 'i18next';
import { PASSWORD_RULE } from '@agentdesk/functions/contract';

/** The hint under every new-password field, built from the contract's rule (the one the API enforces). */
export function passwordRuleHint(t: TFunction): string {
  return t('auth.passwordRule', { min: PASSWORD_RULE.minLength, symbols: PASSWORD_RULE.symbols });
}
