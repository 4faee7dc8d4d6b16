/**
 * The route plan through the local gateway (which serves the API Gateway routes the stack creates,
 * src/route-plan.ts): a request behind a greedy route reaches its manifest route with its own
 * path parameters; a path or method no manifest route has, under a greedy prefix, is answered 404
 * by the function (never 500) once the greedy route's authorizer let it through; a greedy route
 * keeps its routes' authorizer; a webhook greedy route takes only its routes' method.
 */
import { describe, expect, it } from 'vitest';
import { apiKeyMessages } from '../../src/contract/api-keys.js';
import { api, provided, registerUser } from '../support/api.js';

const NOT_FOUND = { success: false, message: 'Not found' };

describe('the route plan through the gateway', () => {
  it('serves routes behind greedy and ANY routes with their own parameters, and answers 404 for what none of them is', async () => {
    const { session } = await registerUser();
    const token = session.token;

    const created = await api<{ _id: string }>('POST', '/api/saved-replies', { token, body: { title: 'Hours', text: 'We open at 9.' } });
    const id = created.body.data?._id ?? '';
    const read = await api<{ _id: string; title: string }>('GET', `/api/saved-replies/${encodeURIComponent(id)}`, { token });
    const deeper = await api('GET', `/api/saved-replies/${id}/extra`, { token });
    const otherMethod = await api('PATCH', `/api/saved-replies/${id}`, { token });
    const baseOtherMethod = await api('DELETE', '/api/saved-replies', { token });
    const contactsPatch = await api('PATCH', '/api/contacts/01J0000000000000000000000X', { token });

    expect(created.status).toBe(201);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ _id: id, title: 'Hours' });
    for (const res of [deeper, otherMethod, baseOtherMethod, contactsPatch]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });

  it("keeps each greedy route's authorizer: no token, 401 before any function runs; an API key, 403 as for any route that takes none", async () => {
    const anonymous = await api('GET', '/api/saved-replies/anything/at/all');
    const withKey = await api('GET', '/api/saved-replies/anything', { headers: { 'x-api-key': `ak_${'a'.repeat(40)}` } });

    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: 'Unauthorized' });
    expect(withKey.status).toBe(403);
    expect(withKey.body).toEqual({ success: false, message: apiKeyMessages.routeNotAllowed });
  });

  it("takes only POST on the Twilio webhook's greedy route (other methods: API Gateway's own 404), and answers an unknown webhook path 404 before any signature check", async () => {
    const get = await fetch(`${provided('apiUrl')}/api/webhooks/twilio/01J0000000000000000000000X/voice`);
    const unknown = await fetch(`${provided('apiUrl')}/api/webhooks/twilio/01J0000000000000000000000X/voice/unknown`, { method: 'POST', body: 'CallSid=CA1' });

    expect([get.status, await get.json()]).toEqual([404, { message: 'Not Found' }]);
    expect([unknown.status, await unknown.json()]).toEqual([404, NOT_FOUND]);
  });
});
