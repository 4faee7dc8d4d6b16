/**
 * Integrations whose credentials went bad (issue 34 item 6): a 401/190 from Meta, a rejected or
 * exhausted OpenAI key, a Twilio 20003 marks the integration "needs attention" with the reason
 * (a key the UI says in words, with how to fix it) and the provider's code, and notifies the owner
 * once: the flag and the in-app notification are written in one transaction, conditional on the
 * integration not already needing attention for that reason, so a thousand failing replies make
 * one notification. The flag goes when the owner saves the integration with new credentials or
 * tests it successfully, or when a later call with the same credentials works — which costs
 * nothing while the integration is healthy: the paths that call the provider read the integration
 * anyway (connector.ts, whatsapp/integration.ts, voice/twilio-integration.ts) and pass its
 * `health` here; only a set flag is cleared.
 *
 * Which failures: the ones only a person can fix, recognised by the provider errors' shapes (so
 * this area imports neither the WhatsApp nor the voice area):
 *   Meta (GraphError)   190 / 0 / HTTP 401 token expired or revoked; 3, 10, 200-299, 131005
 *                       a permission missing or removed; 131031 account locked, 368 blocked for a
 *                       policy violation.
 *   OpenAI (ModelError) 401 key refused; 403 the key may not do this (project permissions, an
 *                       unsupported country); 429 insufficient_quota — not a credential, but only
 *                       the owner can add credit, so it is flagged too (the job itself stays
 *                       transient: it keeps retrying on the schedule and answers once credit is
 *                       added within it).
 *   Twilio (TwilioError) 20003 / HTTP 401-403. Not 20404: a recording or number that is not
 *                       there says nothing about the credentials (setup and test report a
 *                       missing number themselves).
 */
import {
  HEALTH_REASON_INTEGRATION,
  INTEGRATION_NAMES,
  type IntegrationHealth,
  type IntegrationHealthReason,
} from '../../contract/integration-health.js';
import type { IntegrationType } from '../../contract/integrations.js';
import type { StoredNotification } from '../notifications/ports.js';

/** A provider failure that needs the owner: the integration, why (a reason key), and the provider's code. */
export interface CredentialFailure {
  type: IntegrationType;
  reason: IntegrationHealthReason;
  code: string;
}

/** Meta's authorization and integrity codes (Cloud API error codes). */
const META_TOKEN_CODES = new Set([0, 190]);
const META_PERMISSION_CODES = new Set([3, 10, 131005]);
const META_LOCKED_CODES = new Set([131031, 368]);

interface ShapedError {
  name?: unknown;
  kind?: unknown;
  code?: unknown;
  status?: unknown;
  provider?: unknown;
  reason?: unknown;
}

const failure = (reason: IntegrationHealthReason, code: string | number): CredentialFailure => ({
  type: HEALTH_REASON_INTEGRATION[reason],
  reason,
  code: String(code),
});

function metaFailure(e: ShapedError): CredentialFailure | undefined {
  const code = typeof e.code === 'number' ? e.code : undefined;
  if (code !== undefined && META_LOCKED_CODES.has(code)) return failure('whatsapp_account_locked', code);
  if (code !== undefined && (META_PERMISSION_CODES.has(code) || (code >= 200 && code <= 299))) return failure('whatsapp_permission_missing', code);
  if (code !== undefined && META_TOKEN_CODES.has(code)) return failure('whatsapp_token_invalid', code);
  // An HTTP 401 without one of Meta's codes.
  return e.kind === 'auth' ? failure('whatsapp_token_invalid', code ?? 401) : undefined;
}

function openAiFailure(e: ShapedError): CredentialFailure | undefined {
  const code = typeof e.code === 'string' && e.code ? e.code : undefined;
  if (e.kind === 'rate_limit') return code === 'insufficient_quota' ? failure('openai_quota_exhausted', code) : undefined;
  if (e.kind !== 'auth') return undefined;
  if (e.status === 403) return failure('openai_permission_missing', code ?? 403);
  return failure('openai_key_invalid', code ?? (typeof e.status === 'number' ? e.status : 401));
}

function twilioFailure(e: ShapedError): CredentialFailure | undefined {
  if (e.kind !== 'auth') return undefined;
  const code = typeof e.code === 'number' ? e.code : typeof e.status === 'number' ? e.status : 20003;
  return failure('twilio_credentials_invalid', code);
}

/** domain/retry.ts's LastingError of a credentials or permission refusal, when an adapter threw one directly. */
function lastingFailure(e: ShapedError): CredentialFailure | undefined {
  const code = typeof e.code === 'string' ? e.code : String(e.status ?? '');
  const credentials = e.reason === 'credentials';
  if (!credentials && e.reason !== 'permission') return undefined;
  switch (e.provider) {
    case 'whatsapp':
      return failure(credentials ? 'whatsapp_token_invalid' : 'whatsapp_permission_missing', code);
    case 'openai':
      return failure(credentials ? 'openai_key_invalid' : 'openai_permission_missing', code);
    case 'twilio':
      return failure('twilio_credentials_invalid', code);
    default:
      return undefined;
  }
}

/** The integration failure `error` is, when only the owner can fix it; undefined for anything else (an outage, a refused message…). */
export function credentialFailureOf(error: unknown): CredentialFailure | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as ShapedError;
  switch (e.name) {
    case 'GraphError':
      return metaFailure(e);
    case 'ModelError':
      return openAiFailure(e);
    case 'TwilioError':
      return twilioFailure(e);
    case 'LastingError':
      return lastingFailure(e);
    default:
      return undefined;
  }
}

/** The flag on the integration item and the notification beside it (adapters/dynamo/integrations.ts). */
export interface IntegrationHealthStore {
  /**
   * Sets `health` on the user's integration of `type` and creates `notification` in ONE
   * transaction, unless the integration is gone or already needs attention for the same reason:
   * false then (nothing written).
   */
  markNeedsAttention(userId: string, type: IntegrationType, health: IntegrationHealth, notification: StoredNotification): Promise<boolean>;
  /** Removes `health` if it is still the one flagged at `since`; false when it was not. */
  clearHealth(userId: string, type: IntegrationType, since: string): Promise<boolean>;
}

export interface IntegrationHealthDeps {
  store: IntegrationHealthStore;
  /** 26-character time-sortable id (the notification's). */
  newId(now: number): string;
  now?: () => number;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
  /** A new flag was raised (its notification written): the e-mail side, the log. A failure here is logged, never thrown. */
  onFlagged?: (notification: StoredNotification, health: IntegrationHealth) => void | Promise<void>;
}

/** The idempotency key of the notification of one flag (kind#subject#occurrence, as notifications/ports.ts alertKey). */
export const healthNotificationKey = (type: IntegrationType, health: Pick<IntegrationHealth, 'since'>) =>
  `integration_needs_attention#${type}#${health.since}`;

export function createIntegrationHealth(deps: IntegrationHealthDeps) {
  const now = deps.now ?? Date.now;
  const onError = deps.onError ?? (() => undefined);

  /**
   * Marks the integration "needs attention" for `reason` with the provider's code, and notifies
   * the owner once (not again while it is flagged for that reason). True when it changed.
   */
  async function markNeedsAttention(userId: string, type: IntegrationType, reason: IntegrationHealthReason, code: string): Promise<boolean> {
    const at = now();
    const since = new Date(at).toISOString();
    const health: IntegrationHealth = { status: 'needs_attention', reason, code, since };
    const notification: StoredNotification = {
      id: deps.newId(at),
      userId,
      kind: 'integration_needs_attention',
      subjectId: type,
      contactName: INTEGRATION_NAMES[type],
      reason,
      createdAt: since,
      readAt: null,
    };
    const changed = await deps.store.markNeedsAttention(userId, type, health, notification);
    if (changed) {
      try {
        await deps.onFlagged?.(notification, health);
      } catch (error) {
        onError('The needs-attention notice could not be sent on; the in-app notification stands', error, { userId, type, reason });
      }
    }
    return changed;
  }

  return {
    markNeedsAttention,

    /**
     * A provider call with the stored credentials failed: flags the integration when only the
     * owner can fix it. Answers what it recognised (the message keeps the reason and code), or
     * undefined. `current`: the flag read with the credentials — already flagged for this reason,
     * nothing is written. Never throws: a failed flag is logged and never hides the call's own failure.
     */
    async failed(userId: string, error: unknown, current?: IntegrationHealth): Promise<CredentialFailure | undefined> {
      const found = credentialFailureOf(error);
      if (!found || current?.reason === found.reason) return found;
      try {
        await markNeedsAttention(userId, found.type, found.reason, found.code);
      } catch (e) {
        onError('Could not mark the integration as needing attention', e, { userId, type: found.type, reason: found.reason });
      }
      return found;
    },

    /**
     * A provider call with the stored credentials worked: clears the flag read with them (no write
     * when there was none). Never throws.
     */
    async recovered(userId: string, type: IntegrationType, health: IntegrationHealth | undefined): Promise<void> {
      if (!health) return;
      try {
        await deps.store.clearHealth(userId, type, health.since);
      } catch (e) {
        onError('Could not clear the integration’s needs-attention flag', e, { userId, type });
      }
    },
  };
}

export type IntegrationHealthTracker = ReturnType<typeof createIntegrationHealth>;

/** The subset of the tracker the reply paths use (tests pass a stub). */
export type IntegrationHealthReports = Pick<IntegrationHealthTracker, 'failed' | 'recovered'>;
