/**
 * The privacy screens' words (issue 33; key `privacy`, shared/i18n/privacy.{en,es}.json), registered
 * when a privacy chunk loads (the privacy page, a contact's erase and export, the account's
 * deletion, the activity log's counts), so the login route does not carry them; and a person's
 * data counts as a list in the UI language ("2000 mensajes, 20 llamadas y 3 citas").
 */
import { PERSON_DATA_KINDS, RETENTION_KINDS, type PersonDataCounts } from '@agentdesk/functions/contract';
import i18n from '../../i18n';
import { localeFor } from '../intl';
import en from '../i18n/privacy.en.json';
import es from '../i18n/privacy.es.json';

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('es', 'translation', es, true, false);

export const privacyStrings = { en, es };

type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * The kinds with a count above zero, each as "{{count}} <noun>" (ICU plural, the count grouped in
 * the UI language), joined as a list; `privacy.counts.none` when all are zero. Unknown keys
 * (figures a later version adds) are left out.
 */
export function countsList(t: Translate, language: string, counts: Partial<PersonDataCounts> | Record<string, number> | undefined): string {
  const figures = counts as Record<string, number | undefined> | undefined;
  const parts = PERSON_DATA_KINDS.flatMap((kind) => {
    const count = figures?.[kind];
    return typeof count === 'number' && count > 0 ? [t(`privacy.counts.${kind}`, { count })] : [];
  });
  if (parts.length === 0) return t('privacy.counts.none');
  return new Intl.ListFormat(localeFor(language), { style: 'long', type: 'conjunction' }).format(parts);
}

/** Retention days by kind (the activity log's details of a settings change) as "Grabaciones de llamadas: 30 días"; unknown kinds left out. */
export function retentionList(t: Translate, language: string, days: Record<string, number>): string | null {
  const parts = RETENTION_KINDS.flatMap((kind) => {
    const value = days[kind];
    return typeof value === 'number' ? [`${t(`privacy.retention.kinds.${kind}`)}: ${t(`privacy.periods.${value}`, { defaultValue: String(value) })}`] : [];
  });
  return parts.length ? new Intl.ListFormat(localeFor(language), { style: 'long', type: 'conjunction' }).format(parts) : null;
}
