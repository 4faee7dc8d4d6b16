/**
 * Settings → API keys in a real browser against the local runtime, and the key used from outside
 * the browser: create a key, read it from the copy-once dialog, call the public API with it
 * (POST then GET /api/contacts → the contact has source 'api'), regenerate (the old key answers
 * 401, the new one works), delete (401).
 */
import { randomInt } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { API_KEY_PREFIX_LENGTH, apiKeyMessages } from '../../functions/src/contract/api-keys.js';
import { eventually, newPage, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

const KEY_RE = /^ak_[A-Za-z0-9_-]{43}$/;

/** A call from the test's own process, as a customer's system would make it. */
async function withKey(key: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${appUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as { data?: unknown; message?: string };
  return { status: res.status, json };
}

/** The full key as the copy-once dialog shows it, after checking the warning; the dialog is then closed. */
async function readKeyFromDialog(page: Page, warning: string): Promise<string> {
  const dialog = page.getByTestId('api-key-reveal');
  await eventually(() => dialog.getByText(warning).count()).toBe(1);
  const key = await dialog.getByLabel('Your API key').inputValue();
  expect(key).toMatch(KEY_RE);
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await eventually(() => dialog.getByRole('button', { name: 'Copied', exact: true }).count()).toBe(1);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await dialog.getByRole('button', { name: 'I have copied it' }).click();
  await eventually(() => page.getByRole('dialog').count()).toBe(0);
  return key;
}

describe('API keys', () => {
  it('creates a key shown once, uses it for the public API, regenerates it (old key 401) and deletes it (401)', async () => {
    const page = await newPage(browser());
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: appUrl });
    await subscribedUser(page, 'apikeys');

    // Settings → API Keys in the sidebar; a new user has none.
    await page.goto(`${appUrl}/profile`);
    await page.getByTestId('nav-api-keys').click();
    await eventually(() => new URL(page.url()).pathname).toBe('/api-keys');
    await eventually(() => page.getByRole('heading', { name: 'API Keys' }).count()).toBe(1);
    await eventually(() => page.getByText('No API keys yet').count()).toBe(1);

    // Create: the name is required, then the key is shown once with the warning and a copy button.
    await page.getByRole('button', { name: 'Create API Key' }).click();
    const create = page.getByRole('dialog');
    await create.getByRole('button', { name: 'Create', exact: true }).click();
    await eventually(() => create.getByText(apiKeyMessages.nameRequired).count()).toBe(1);
    await create.getByLabel('Name').fill('CRM sync');
    await create.getByRole('button', { name: 'Create', exact: true }).click();
    const key = await readKeyFromDialog(page, apiKeyMessages.created);

    // The list shows the name, the prefix only, and "Never" used; the full key is nowhere on the page.
    const row = page.getByRole('row', { name: /CRM sync/ });
    await eventually(() => row.count()).toBe(1);
    await eventually(() => row.getByText(`${key.slice(0, API_KEY_PREFIX_LENGTH)}…`).count()).toBe(1);
    expect(await row.getByText('Never').count()).toBe(1);
    expect(await page.content()).not.toContain(key);

    // The key reaches the public API: the contact it creates comes back with source 'api'.
    const phoneNumber = `+1202555${String(randomInt(0, 10_000)).padStart(4, '0')}`;
    const created = await withKey(key, 'POST', '/api/contacts', { name: 'Api Person', phoneNumber });
    expect(created.status, created.json.message).toBe(201);
    const listed = await withKey(key, 'GET', '/api/contacts');
    expect(listed.status, listed.json.message).toBe(200);
    const contacts = listed.json.data as { name: string; phoneNumber: string; source: string }[];
    expect(contacts.find((c) => c.phoneNumber === phoneNumber)).toMatchObject({ name: 'Api Person', source: 'api' });

    // The page now shows when the key was last used.
    await page.reload();
    await eventually(() => page.getByRole('row', { name: /CRM sync/ }).getByText('Never').count()).toBe(0);

    // Regenerate after the confirmation: a new key, shown once; the old one is refused.
    await page.getByRole('button', { name: 'Regenerate CRM sync' }).click();
    const confirmRegenerate = page.getByRole('dialog');
    await eventually(() => confirmRegenerate.getByText('Regenerate API key?').count()).toBe(1);
    await confirmRegenerate.getByRole('button', { name: 'Regenerate' }).click();
    const newKey = await readKeyFromDialog(page, apiKeyMessages.regenerated);
    expect(newKey).not.toBe(key);
    await eventually(() => page.getByRole('row', { name: /CRM sync/ }).getByText(`${newKey.slice(0, API_KEY_PREFIX_LENGTH)}…`).count()).toBe(1);
    await eventually(async () => (await withKey(key, 'GET', '/api/contacts')).status).toBe(401);
    const old = await withKey(key, 'GET', '/api/contacts');
    expect(old.json.message).toBe(apiKeyMessages.invalid);
    const fresh = await withKey(newKey, 'GET', '/api/contacts');
    expect(fresh.status, fresh.json.message).toBe(200);
    expect((fresh.json.data as { phoneNumber: string }[]).some((c) => c.phoneNumber === phoneNumber)).toBe(true);

    // Delete after the confirmation: the list is empty again and the key is refused.
    await page.getByRole('button', { name: 'Delete CRM sync' }).click();
    const confirmDelete = page.getByRole('dialog');
    await eventually(() => confirmDelete.getByText('Delete API key?').count()).toBe(1);
    await confirmDelete.getByRole('button', { name: 'Delete' }).click();
    await eventually(() => page.getByText(apiKeyMessages.deleted).count()).toBe(1);
    await eventually(() => page.getByText('No API keys yet').count()).toBe(1);
    await eventually(async () => (await withKey(newKey, 'GET', '/api/contacts')).status).toBe(401);
    await page.context().close();
  });
});
