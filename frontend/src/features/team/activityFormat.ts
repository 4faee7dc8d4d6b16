/**
 * The activity log's words and dates (issue 32): each entry as a sentence ("Lucía Martín removed
 * Marta Gil", "Lucía Martín replied in a conversation"), and a picked day as the instant it starts or ends in the account's
 * time zone (the filters' from and to).
 */
import type { ActivityAction, ActivityEntry } from '@agentdesk/functions/contract';
import { countsList, retentionList } from '../../shared/privacy/strings';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** An action's i18n key segment: dots are i18next's key separator. */
export const actionKey = (action: ActivityAction): string => action.replace(/\./g, '_');

/** Who did it, in words. */
export function actorName(t: Translate, actor: ActivityEntry['actor']): string {
  if (actor.kind === 'system') return t('team.activity.system');
  if (actor.kind === 'apiKey') return t('team.activity.apiKey', { name: actor.name });
  return actor.name || actor.email || t('team.activity.someone');
}

/**
 * The entry as a sentence in the UI language. The object is named by its label, else by `names`
 * (the team's people and invitations by id: the HTTP layer logs a route's object by its id only);
 * an object with no name makes the sentence general ("replied in a conversation").
 */
export function activitySentence(t: Translate, entry: ActivityEntry, names: ReadonlyMap<string, string> = new Map()): string {
  const id = entry.object?.id;
  const object = entry.object?.label || (id ? names.get(id) : undefined);
  const who = actorName(t, entry.actor);
  return object ? t(`team.activity.actions.${actionKey(entry.action)}`, { who, object }) : t(`team.activity.actionsUnnamed.${actionKey(entry.action)}`, { who });
}

/** Actions whose `details` are a person's data counts (issue 33): "Borró 2000 mensajes, 20 llamadas y 3 citas". */
const COUNTED_ACTIONS: ReadonlySet<ActivityAction> = new Set(['person.erased', 'person.exported']);

/** The entry's figures as a sentence in the UI language, or null when it has none. */
export function activityDetails(t: Translate, language: string, entry: ActivityEntry): string | null {
  if (!entry.details) return null;
  if (entry.action === 'privacy_settings.changed') {
    const list = retentionList(t, language, entry.details);
    return list ? t('team.activity.details.privacy_settings_changed', { list }) : null;
  }
  if (!COUNTED_ACTIONS.has(entry.action)) return null;
  return t(`team.activity.details.${actionKey(entry.action)}`, { list: countsList(t, language, entry.details) });
}

/** The wall-clock time of an instant in a zone, read back as if it were UTC (epoch ms). */
function wallAsUtc(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
}

/**
 * The instant a day ('2026-11-28') starts in a zone, or, with `end`, the last millisecond of it.
 * Two passes settle a day that starts next to a daylight-saving change.
 */
export function zonedDayBound(day: string, timeZone: string, end = false): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const target = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + (end ? 1 : 0));
  let guess = target;
  try {
    for (let i = 0; i < 2; i++) guess = target - (wallAsUtc(guess, timeZone) - guess);
  } catch {
    return undefined;
  }
  return new Date(end ? guess - 1 : guess).toISOString();
}
