/**
 * docs/openapi.json is generated (npm run openapi) from the contract and the route manifest:
 * these tests fail when the committed file is stale, or when the document stops describing the
 * public API the manifest declares.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiKeyMessages } from '../../../src/contract/api-keys.js';
import { bookingCreateRequest, bookingMessages, bookingUpdateRequest } from '../../../src/contract/bookings.js';
import { routes } from '../../../src/routes.js';
import { OPENAPI_FILE, buildOpenApi, renderOpenApi } from '../../../scripts/openapi.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const committed = (): Json => JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
const operation = (doc: Json, method: string, path: string): Json | undefined => doc.paths?.[path]?.[method.toLowerCase()];

describe('docs/openapi.json', () => {
  it('is what npm run openapi generates from the current contract (run it after changing the contract or the routes)', () => {
    // Arrange
    const expected = renderOpenApi();

    // Act
    const onDisk = readFileSync(OPENAPI_FILE, 'utf8');

    // Assert
    expect(onDisk).toBe(expected);
  });

  it("describes every 'userOrApiKey' route of the manifest, reachable with either API key header or the sign-in token", () => {
    const doc = committed();
    const publicRoutes = routes.filter((r) => r.auth === 'userOrApiKey');

    expect(publicRoutes.length).toBeGreaterThan(0);
    for (const route of publicRoutes) {
      const op = operation(doc, route.method, route.path);
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op!.security).toEqual([{ apiKeyBearer: [] }, { apiKeyHeader: [] }, { cognitoJwt: [] }]);
      expect(op!.responses['429'], `${route.method} ${route.path} 429`).toBeDefined();
    }
  });

  it('describes the key-management routes as sign-in only, and no other route', () => {
    const doc = committed();
    const documented = Object.entries(doc.paths as Json).flatMap(([path, ops]) => Object.keys(ops as Json).map((m) => `${m.toUpperCase()} ${path}`));
    const expected = routes.filter((r) => r.auth === 'userOrApiKey' || r.group === 'api-keys').map((r) => `${r.method} ${r.path}`);

    expect(documented.sort()).toEqual(expected.sort());
    for (const route of routes.filter((r) => r.group === 'api-keys')) {
      expect(operation(doc, route.method, route.path)!.security).toEqual([{ cognitoJwt: [] }]);
    }
  });

  it('declares the three security schemes: bearer API key, x-api-key header, Cognito JWT', () => {
    const { securitySchemes } = committed().components;

    expect(securitySchemes.apiKeyBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(securitySchemes.apiKeyHeader).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }));
    expect(securitySchemes.cognitoJwt).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('answers 429 with a Retry-After header and the per-key limit message', () => {
    const doc = committed();
    const rateLimited = doc.components.responses.RateLimited;

    expect(rateLimited.headers['Retry-After'].schema).toMatchObject({ type: 'integer' });
    expect(rateLimited.description).toContain(apiKeyMessages.rateLimited);
    expect(operation(doc, 'POST', '/api/agents/chat')!.responses['429'].headers['Retry-After']).toBeDefined();
  });

  it('takes request bodies from the contract schemas (required fields and bounds)', () => {
    const { schemas } = committed().components;

    expect(schemas.CreateContactRequest.required).toEqual(['phoneNumber']);
    expect(schemas.ChatRequest.required).toEqual(['message']);
    expect(schemas.ChatRequest.properties.message).toMatchObject({ type: 'string', minLength: 1, maxLength: 4000 });
    expect(schemas.CreateApiKeyRequest.properties.name).toMatchObject({ minLength: 1, maxLength: 50 });
  });

  it('never returns the key outside create and regenerate', () => {
    const { schemas } = committed().components;

    expect(Object.keys(schemas.ApiKey.properties)).not.toContain('key');
    expect(schemas.CreatedApiKey.required).toEqual(['apiKey', 'key']);
  });

  it('describes the bookings of the public API (issue 30): examples the contract accepts, the slot-taken 409', () => {
    const doc = committed();
    const create = operation(doc, 'POST', '/api/bookings')!;
    const update = operation(doc, 'PATCH', '/api/bookings/{id}')!;

    expect(bookingCreateRequest.safeParse(create.requestBody.content['application/json'].example).success).toBe(true);
    expect(bookingUpdateRequest.safeParse(update.requestBody.content['application/json'].example).success).toBe(true);
    expect(create.responses['409'].description).toContain(bookingMessages.slotTaken);
    expect(doc.components.schemas.CreateBookingRequest.required).toEqual(['serviceId', 'start', 'customer']);
    expect(doc.components.schemas.CreateBookingRequest.additionalProperties).toBe(false);
    expect(doc.components.schemas.Booking.required).toEqual(expect.arrayContaining(['start', 'end', 'timeZone', 'status', 'customer']));
    const availability = operation(doc, 'GET', '/api/bookings/availability')!;
    expect(availability.parameters.map((p: Json) => p.name)).toEqual(['serviceId', 'from', 'to', 'staffId', 'limit']);
    // The setup stays the owner's: not reachable with a key, so not in the document.
    expect(doc.paths['/api/bookings/settings']).toBeUndefined();
    expect(operation(doc, 'POST', '/api/bookings/services')).toBeUndefined();
  });

  it('has no dangling $ref', () => {
    const doc = buildOpenApi();
    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref' && typeof v === 'string') refs.push(v);
          else walk(v);
        }
      }
    };
    walk(doc);

    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      const target = ref.replace(/^#\//, '').split('/').reduce<unknown>((at, part) => (at as Json | undefined)?.[part], doc);
      expect(target, ref).toBeDefined();
    }
  });
});
