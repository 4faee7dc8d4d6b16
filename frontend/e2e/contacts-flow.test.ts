/**
 * The customer directory in a real browser against the local runtime: add a contact with
 * custom fields, find it by an accent-free search, tag and annotate it, delete it.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { ONBOARDING_HEADING, activateTrial, eventually, newPage, register, userIdOf, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');

const browser = useBrowser();

describe('contacts', () => {
  it('adds a contact with custom fields, finds it by search, edits it and deletes it', async () => {
    const page = await newPage(browser());
    await register(page, appUrl, mailboxUrl, `clinic+${randomUUID().slice(0, 8)}@example.com`);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);
    await activateTrial(await userIdOf(page));

    await page.goto(`${appUrl}/contacts`);
    await eventually(() => page.getByText('No contacts in your directory yet').count()).toBe(1);

    // Add: name, a formatted phone, e-mail and one custom field.
    await page.getByRole('button', { name: 'Add Contact' }).first().click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByText('Add New Contact').count()).toBe(1);
    await dialog.getByLabel('First name').fill('José');
    await dialog.getByLabel('Last name').fill('Álvarez');
    await dialog.getByLabel('Phone Number').fill('+1 (202) 555-0143');
    await dialog.getByLabel('Email').fill('jose@example.com');
    await dialog.getByRole('button', { name: 'Add Field' }).click();
    await dialog.getByLabel('Field name').fill('Insurance');
    await dialog.getByLabel('Field value').fill('Delta Dental');
    await dialog.getByRole('button', { name: 'Add Contact' }).click();
    await eventually(() => page.getByText('Contact added successfully!').count()).toBe(1);
    await eventually(() => page.getByRole('dialog').count()).toBe(0);

    // Search without the accents; the term is kept in the URL.
    await page.getByLabel('Search contacts').fill('jose');
    await eventually(() => new URL(page.url()).searchParams.get('search')).toBe('jose');
    await eventually(() => page.getByRole('link', { name: 'View José Álvarez' }).count()).toBe(1);
    await page.getByLabel('Search contacts').fill('nobody-here');
    await eventually(() => page.getByText('No contacts found').count()).toBe(1);
    await page.goto(`${appUrl}/contacts?search=555-0143`);
    await eventually(() => page.getByRole('link', { name: 'View José Álvarez' }).count()).toBe(1);

    // Detail: the phone was stored in E.164 and the custom field is there; edit tags and notes.
    await page.getByRole('link', { name: 'View José Álvarez' }).click();
    await eventually(() => page.getByRole('heading', { name: 'José Álvarez' }).count()).toBe(1);
    await eventually(() => page.getByText('Delta Dental').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Add tag').fill('vip');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel('Notes').fill('Prefers morning appointments');
    await page.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByText('Contact updated successfully!').count()).toBe(1);
    await page.reload();
    await eventually(() => page.getByText('Prefers morning appointments').count()).toBe(1);
    await eventually(() => page.getByText('vip', { exact: true }).count()).toBeGreaterThan(0);

    // Delete, confirmed; the directory is empty again.
    await page.getByRole('button', { name: 'Delete' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await eventually(() => page.getByText('Contact deleted successfully!').count()).toBe(1);
    await eventually(() => new URL(page.url()).pathname).toBe('/contacts');
    await eventually(() => page.getByText('No contacts in your directory yet').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'View José Álvarez' }).count()).toBe(0);
    await page.context().close();
  });
});
