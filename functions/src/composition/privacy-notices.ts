/**
 * The AI and recording notices and the opt-out words of an account, read for a reply or a call
 * (issue 33): the privacy settings (privacySettingsStore, a minute's cache) and the business's
 * name, side by side.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { dynamoBusinessName } from '../adapters/dynamo/business-name.js';
import type { AccountNoticesReader } from '../domain/privacy/notices.js';
import { once } from '../lib/once.js';
import { privacySettingsStore } from './privacy-settings-store.js';

const businessName = once(() => dynamoBusinessName(documentClient(), config().TABLE_NAME));

export const accountNotices = once((): AccountNoticesReader => async (accountId) => {
  const [settings, business] = await Promise.all([privacySettingsStore().get(accountId), businessName()(accountId)]);
  return { notices: settings.notices, optOut: settings.optOut, business };
});
