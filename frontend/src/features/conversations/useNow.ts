import { useTranslation } from 'react-i18next';
import { relativeTime } from './format';
import { formatDate } from '../../shared/intl';

/** The ticking clock is shared (shared/useNow); the board ticks every 30 s. */
export { useNow } from '../../shared/useNow';

/** SPEC §9 relative time as text: 'Just now', '5m ago', '3h ago', '2d ago' (empty when unknown). */
export function useRelativeTime(now: number): (iso: string | null | undefined) => string {
  const { t } = useTranslation();
  return (iso) => {
    const rel = relativeTime(iso, now);
    if (!rel) return '';
    return rel.unit === 'now' ? t('conversations.time.now') : t(`conversations.time.${rel.unit}`, { count: rel.count });
  };
}

/** A full local date and time, for tooltips. */
export function useDateTime(): (iso: string | null | undefined) => string {
  const { i18n } = useTranslation();
  return (iso) => formatDate(i18n.language, iso) ?? '';
}
