/**
 * The manifest's paid-feature flag (`requires: 'subscription'`, enforced by http/handler.ts):
 * exactly the writes that build or use agents, integrations, API keys and phone numbers, never a
 * read or a clean-up. Changing the set is a product decision: update this list with it.
 */
import { describe, expect, it } from 'vitest';
import { routes, subscriptionRouteKeys } from '../../../src/routes.js';

const INTENDED = [
  // Agents: create, change, enable, knowledge (files, URLs), tools, chat (user token and API key)
  'POST /api/agents',
  'PUT /api/agents/{id}',
  'POST /api/agents/{id}/enable',
  'POST /api/agents/chat',
  'POST /api/agents/{id}/chat',
  'POST /api/agents/{id}/files',
  'POST /api/agents/{id}/files/uploads',
  'POST /api/agents/{id}/files/{fileId}/complete',
  'POST /api/agents/{id}/files/{fileId}/reprocess',
  // Issue 31: marking a file "can be sent to customers" changes what the agent may send
  'PATCH /api/agents/{id}/files/{fileId}',
  'POST /api/agents/{id}/urls',
  'PUT /api/agents/{id}/urls/{urlId}',
  'POST /api/agents/{id}/urls/{urlId}/reprocess',
  'POST /api/agents/{id}/tools',
  'PUT /api/agents/{id}/tools/{toolId}',
  // Knowledge entries (teaching the agent, also by answering an unanswered question); dismissing is clean-up
  'POST /api/agents/{id}/entries',
  'PUT /api/agents/{id}/entries/{entryId}',
  'POST /api/agents/{id}/unanswered/answer',
  // Integrations: setup, test, AI-improve, settings
  'POST /api/integrations/chatgpt/setup',
  'POST /api/integrations/chatgpt/test',
  'POST /api/integrations/chatgpt/ask',
  'POST /api/integrations/whatsapp-business/setup',
  'POST /api/integrations/whatsapp-business/test',
  'POST /api/integrations/twilio-voice/setup',
  'POST /api/integrations/twilio-voice/test',
  'PUT /api/integrations/{type}',
  // Google Calendar (issue 30): connecting and choosing calendars is an integration's setup; status and disconnect stay open
  'POST /api/integrations/google-calendar/connect',
  'PUT /api/integrations/google-calendar',
  // A private calendar feed link is a new working credential, like an API key; listing and revoking stay open
  'POST /api/bookings/calendar-feed',
  // API keys: a new working key
  'POST /api/api-keys',
  'PUT /api/api-keys/{id}/regenerate',
  // A phone number
  'POST /api/voice-settings/request-phone',
];

describe("routes.ts: requires 'subscription'", () => {
  it('flags exactly the intended paid-feature routes', () => {
    // Act
    const flagged = [...subscriptionRouteKeys()].sort();

    // Assert
    expect(flagged).toEqual([...INTENDED].sort());
  });

  it('never flags a read, a delete, a disable or a route without a signed-in caller', () => {
    // Arrange
    const flagged = routes.filter((r) => subscriptionRouteKeys().has(`${r.method} ${r.path}`));

    // Assert
    expect(flagged.filter((r) => r.method === 'GET' || r.method === 'DELETE')).toEqual([]);
    expect(flagged.filter((r) => r.path.endsWith('/disable'))).toEqual([]);
    expect(flagged.filter((r) => r.auth !== 'user' && r.auth !== 'userOrApiKey')).toEqual([]);
  });

  it('keeps clean-up open: delete, disable, disconnect and cancelling a phone request', () => {
    // Arrange
    const flagged = subscriptionRouteKeys();

    // Assert
    for (const key of [
      'DELETE /api/agents/{id}',
      'POST /api/agents/{id}/disable',
      'DELETE /api/agents/{id}/files/{fileId}',
      'DELETE /api/agents/{id}/urls/{urlId}',
      'DELETE /api/agents/{id}/tools/{toolId}',
      'DELETE /api/integrations/{type}',
      'DELETE /api/api-keys/{id}',
      'DELETE /api/voice-settings/request-phone',
      'DELETE /api/integrations/google-calendar',
      'DELETE /api/bookings/calendar-feed',
    ]) {
      expect(routes.some((r) => `${r.method} ${r.path}` === key), key).toBe(true);
      expect(flagged.has(key), key).toBe(false);
    }
  });
});
