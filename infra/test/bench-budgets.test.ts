/**
 * `npm run bench` fails when a Lambda misses its budget (issue 28: it printed "Over budget or
 * missing: 13 function(s)" and still exited 0, so bench-all reported "targets met").
 */
import { describe, expect, it } from 'vitest';
import { routeGroups, routes, socketApis } from '../../functions/src/routes.js';
import {
  API_BUDGET,
  budgetOf,
  FIRST_CONTACT_BUDGET,
  FIRST_CONTACT_FUNCTIONS,
  loginProblems,
  missingFirstContact,
  problems,
  WORKER_BUDGET,
} from '../scripts/bench-budgets.js';

describe('bench budgets', () => {
  it('holds the first-contact functions to 300 KB / 100 ms, other API and socket functions to 400 KB / 150 ms', () => {
    expect(budgetOf({ kind: 'api', name: 'whatsapp-webhook' })).toEqual(FIRST_CONTACT_BUDGET);
    expect(budgetOf({ kind: 'socket', name: 'voice-relay' })).toEqual(FIRST_CONTACT_BUDGET);
    // The incoming-call webhook's function.
    expect(budgetOf({ kind: 'api', name: 'voice-webhook' })).toEqual(FIRST_CONTACT_BUDGET);
    expect(budgetOf({ kind: 'api', name: 'billing' })).toEqual(API_BUDGET);
    expect(budgetOf({ kind: 'worker', name: 'file-ingest' })).toEqual(WORKER_BUDGET);
    expect(FIRST_CONTACT_BUDGET).toEqual({ sizeKb: 300, loadMs: 100 });
    expect(API_BUDGET).toEqual({ sizeKb: 400, loadMs: 150 });
  });

  it('the incoming-call and WhatsApp webhook routes are served by first-contact functions', () => {
    const groupOf = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)?.group;
    expect(FIRST_CONTACT_FUNCTIONS).toContain(groupOf('POST', '/api/webhooks/twilio/{userId}/voice'));
    expect(FIRST_CONTACT_FUNCTIONS).toContain(groupOf('POST', '/api/webhooks/whatsapp-business/{integrationId}'));
  });

  it('every first-contact function is in the manifest (a rename would drop its budget)', () => {
    const names = [...Object.keys(routeGroups), ...Object.keys(socketApis)];
    expect(missingFirstContact(names)).toEqual([]);
    expect(missingFirstContact(names.filter((n) => n !== FIRST_CONTACT_FUNCTIONS[0]))).toEqual([FIRST_CONTACT_FUNCTIONS[0]]);
  });

  it('a row over either budget, failed or unmeasured is a problem; a row within both is not', () => {
    expect(problems({ kind: 'api', name: 'billing', sizeKb: 525.7, loadMs: 70 })).toEqual(['bundle 525.7 KB > 400 KB']);
    expect(problems({ kind: 'api', name: 'billing', sizeKb: 300, loadMs: 151 })).toEqual(['load 151.0 ms > 150 ms']);
    expect(problems({ kind: 'api', name: 'whatsapp-webhook', sizeKb: 317.1, loadMs: 67 })).toEqual(['bundle 317.1 KB > 300 KB']);
    expect(problems({ kind: 'worker', name: 'file-ingest', sizeKb: 2918, loadMs: 262 })).toEqual([]);
    expect(problems({ kind: 'api', name: 'auth', sizeKb: 337, loadMs: 64 })).toEqual([]);
    expect(problems({ kind: 'api', name: 'auth', error: 'FAILED: build' })).toEqual(['FAILED: build']);
    expect(problems({ kind: 'api', name: 'auth', sizeKb: 337 })).toEqual(['not measured']);
    expect(loginProblems({ note: 'frontend/dist/.vite/manifest.json missing' })).toHaveLength(1);
    expect(loginProblems({ gzipKb: 251 })).toHaveLength(1);
    expect(loginProblems({ gzipKb: 200 })).toEqual([]);
  });
});
