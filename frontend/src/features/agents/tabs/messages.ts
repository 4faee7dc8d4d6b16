/**
 * Server and validation messages of the tabs' calls in the UI language. The contract's English
 * texts are the keys: fixed ones by their name in `agentMessages`/`integrationMessages`, the few
 * with a value inside by pattern. Anything unknown goes to the app's translateMessage.
 */
import { agentMessages, integrationMessages } from '@agentdesk/functions/contract';
import i18n, { translateMessage } from '../../../i18n';
import { ApiError } from '../../../api/client';

const keyByText = new Map<string, string>();
for (const [key, text] of Object.entries(agentMessages)) if (typeof text === 'string') keyByText.set(text, `agent.${key}`);
for (const key of [
  'chatgptNotConnected',
  'modelKeyRejected',
  'modelRateLimited',
  'modelTimeout',
  'modelUnavailable',
  'modelNotFound',
] as const) {
  keyByText.set(integrationMessages[key], `integration.${key}`);
}

const PATTERNS: { re: RegExp; key: string; values: (m: RegExpExecArray) => Record<string, unknown> }[] = [
  { re: /^(\d+) files? uploaded successfully$/, key: 'filesUploaded', values: (m) => ({ count: Number(m[1]) }) },
  { re: /^(\d+) URLs? added$/, key: 'urlsAdded', values: (m) => ({ count: Number(m[1]) }) },
  { re: /^Invalid URL: (.*)$/s, key: 'urlInvalid', values: (m) => ({ url: m[1] }) },
  { re: /^Invalid files: (.*)$/s, key: 'invalidFiles', values: (m) => ({ list: translateRejects(m[1] ?? '') }) },
];

function translateRejects(list: string): string {
  return list
    .replace(/\(too large, max 50MB\)/g, `(${i18n.t('agentTabs.server.reasonTooLarge')})`)
    .replace(/\(unsupported type\)/g, `(${i18n.t('agentTabs.server.reasonUnsupported')})`);
}

/** A message of the agents or integrations contract (or a server message) in the UI language. */
export function tabMessage(text: string | undefined): string {
  if (!text) return '';
  if (i18n.language.startsWith('en')) return text;
  const key = keyByText.get(text);
  if (key) return i18n.t(`agentTabs.server.${key}`, { defaultValue: translateMessage(text) });
  for (const { re, key, values } of PATTERNS) {
    const match = re.exec(text);
    if (match) return i18n.t(`agentTabs.server.${key}`, { ...values(match), defaultValue: text });
  }
  return translateMessage(text);
}

/** The server's message for a failed call (translated when known), else the caller's fallback. */
export function tabErrorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.serverMessage) return tabMessage(err.serverMessage);
  return fallback;
}
