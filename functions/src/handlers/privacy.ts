/**
 * /api/privacy (issue 33): the account's retention, notices and opt-out words; what is held about
 * one person and its erasure or export (background jobs, privacy-jobs queue); a customer's opt-out
 * set by hand; the account's deletion. The person is named in the body, never in the URL.
 */
import {
  accountDeletionRequest,
  erasureRequest,
  optOutRequest,
  personRefRequest,
  privacyMessages,
  privacySettingsRequest,
} from '../contract/privacy.js';
import { accountDeletionService } from '../composition/account-deletion.js';
import { optOutService } from '../composition/opt-outs.js';
import { privacyService } from '../composition/privacy.js';
import { privacySettingsService } from '../composition/privacy-settings.js';
import { recordRouteActivity } from '../composition/activity.js';
import { httpGroup, parseWith, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'GET /api/privacy/settings': async (req) => ({ data: await privacySettingsService().get(req.userId()) }),
  'PUT /api/privacy/settings': async (req) => {
    const saved = await privacySettingsService().put(req.userId(), parseWith(privacySettingsRequest, req.json()));
    const changed = Object.keys(saved.retentionChanged).length > 0;
    // The log's entry names the retention days that changed (issue 33).
    return { message: changed ? privacyMessages.retentionSaved : privacyMessages.settingsSaved, data: saved.settings, activityDetails: saved.retentionChanged };
  },
  'POST /api/privacy/people/lookup': async (req) => ({ data: await privacyService().lookup(req.userId(), parseWith(personRefRequest, req.json())) }),
  'POST /api/privacy/erasures': async (req) => {
    const { confirmation: _typed, ...person } = parseWith(erasureRequest, req.json());
    return { status: 202, message: privacyMessages.erasureStarted, data: await privacyService().erase(req.userId(), req.actor(), person) };
  },
  'POST /api/privacy/exports': async (req) => ({
    status: 202,
    message: privacyMessages.exportStarted,
    data: await privacyService().export(req.userId(), req.actor(), parseWith(personRefRequest, req.json())),
  }),
  'GET /api/privacy/jobs': async (req) => ({ data: await privacyService().jobs(req.userId(), typeof req.query.cursor === 'string' ? req.query.cursor : null) }),
  'GET /api/privacy/jobs/{id}': async (req) => ({ data: await privacyService().job(req.userId(), req.params.id ?? '') }),
  'PUT /api/privacy/opt-out': async (req) => {
    const { optedOut, ...person } = parseWith(optOutRequest, req.json());
    return { data: await optOutService().setByOwner(req.userId(), person, optedOut) };
  },
  'POST /api/privacy/account-deletion': async (req) => {
    parseWith(accountDeletionRequest, req.json());
    await accountDeletionService().request(req.userId(), req.memberId());
    return { status: 202, message: privacyMessages.accountDeletionStarted };
  },
};

export const handler = httpGroup(routes, { activity: recordRouteActivity });
