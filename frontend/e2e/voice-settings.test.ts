/**
 * Voice settings and the Twilio Voice modal in a real browser against the local runtime:
 * /voice-settings saves numeric fields as numbers, keeps premium voices unselectable, resets to
 * the defaults after the confirmation, and requests then cancels a phone number (with the SPEC §5
 * confirmation); the conversation mode (real time or classic) with the note for a voice that cannot
 * answer in real time; the additional languages of real-time calls; the Integrations modal sets up Twilio Voice against the fake Twilio and shows the
 * webhook URLs, tests the connection and disconnects after confirming; an administrator (Cognito
 * group 'admin') sees the Admin entry and assigns a number to a pending request.
 */
import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { VoiceSettings } from '@agentdesk/functions/contract';
import { formatPhone } from '../src/shared/phone.js';
import { callApi, eventually, login, newPage, pressConnect, subscribedUser, userIdOf, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const twilioUrl = inject('twilioApiUrl');

/** A registered user with an active trial, on the given page of the app; their e-mail. */
async function subscribedUserOn(page: Page, path: string, label: string): Promise<string> {
  const email = await subscribedUser(page, label);
  await page.goto(`${appUrl}${path}`);
  return email;
}

const browser = useBrowser();

describe('voice settings', () => {
  it('saves numbers as numbers, keeps premium voices unselectable, resets, and requests then cancels a phone number', async () => {
    const page = await newPage(browser());
    await subscribedUserOn(page, '/voice-settings', 'voice-settings');
    await eventually(() => page.getByRole('heading', { name: 'Voice Settings', level: 1 }).count()).toBe(1);
    const speechRate = page.getByLabel('Speech rate', { exact: true });
    await eventually(() => speechRate.count()).toBe(1);
    expect(await speechRate.inputValue()).toBe('1');

    // The voice picker: the default voice, premium voices listed but disabled.
    const voice = page.getByRole('combobox', { name: 'Voice' });
    expect(await voice.textContent()).toContain('Female voice 1');
    await voice.click();
    const premium = page.getByRole('option', { name: /Leda \(HD\)/ });
    expect(await premium.getAttribute('aria-disabled')).toBe('true');
    await premium.click({ force: true });
    await page.keyboard.press('Escape');
    await eventually(() => page.getByRole('listbox').count()).toBe(0);
    expect(await voice.textContent()).toContain('Female voice 1');
    await voice.click();
    await page.getByRole('option', { name: /^Lucía/ }).click();
    expect(await voice.textContent()).toContain('Lucía');

    // Numbers typed in the form are saved as numbers.
    await speechRate.fill('1.5');
    await page.getByLabel('Pitch', { exact: true }).fill('0.8');
    await page.getByLabel('Volume', { exact: true }).fill('1.2');
    await page.getByLabel('Max call duration (seconds)').fill('120');
    await page.getByRole('combobox', { name: 'Notification method' }).click();
    await page.getByRole('option', { name: 'WhatsApp' }).click();
    await eventually(() => page.getByText(/outside the 24-hour window WhatsApp summaries need an approved message template/).count()).toBe(1);
    await page.getByRole('combobox', { name: 'Notification method' }).click();
    await page.getByRole('option', { name: 'Email' }).click();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await eventually(() => page.getByText('Voice settings updated successfully').count()).toBeGreaterThan(0);
    const saved = await callApi<VoiceSettings>(page, 'GET', '/api/voice-settings');
    expect(saved).toMatchObject({ speechRate: 1.5, pitch: 0.8, volume: 1.2, maxCallDuration: 120, voice: 'Polly.Lucia', summaryNotificationMethod: 'email' });

    // A reload shows what was stored.
    await page.reload();
    await eventually(() => page.getByLabel('Speech rate', { exact: true }).count()).toBe(1);
    expect(await page.getByLabel('Speech rate', { exact: true }).inputValue()).toBe('1.5');
    expect(await page.getByLabel('Max call duration (seconds)').inputValue()).toBe('120');

    // Reset to Defaults asks first, then restores SPEC §9's values.
    await page.getByRole('button', { name: 'Reset to Defaults' }).click();
    const resetDialog = page.getByRole('dialog', { name: 'Reset voice settings' });
    await eventually(() => resetDialog.getByText('Are you sure you want to reset all voice settings to defaults?').count()).toBe(1);
    await resetDialog.getByRole('button', { name: 'Reset to Defaults' }).click();
    await eventually(() => page.getByText('Voice settings reset to defaults').count()).toBeGreaterThan(0);
    await eventually(() => page.getByLabel('Speech rate', { exact: true }).inputValue()).toBe('1');
    expect(await page.getByRole('combobox', { name: 'Voice' }).textContent()).toContain('Female voice 1');
    expect(await callApi<VoiceSettings>(page, 'GET', '/api/voice-settings')).toMatchObject({ speechRate: 1, maxCallDuration: 300, voice: 'Google.es-ES-Standard-A' });

    // The phone number panel (#phone-number): request, then cancel after the confirmation.
    await page.goto(`${appUrl}/voice-settings#phone-number`);
    const panel = page.locator('#phone-number');
    await eventually(() => panel.getByText('Assigning a number can take up to 96 hours after your request.').count()).toBe(1);
    await panel.getByLabel('Notes').fill('A local number in Madrid, please');
    await panel.getByRole('button', { name: 'Request Phone Number' }).click();
    await eventually(() => page.getByText('Phone number request submitted successfully').count()).toBeGreaterThan(0);
    await eventually(() => panel.getByTestId('phone-request-status').textContent()).toBe('Pending');
    expect(await panel.getByRole('button', { name: 'Request Phone Number' }).count()).toBe(0);
    expect((await callApi<VoiceSettings>(page, 'GET', '/api/voice-settings')).phoneNumber).toMatchObject({ status: 'pending', notes: 'A local number in Madrid, please' });

    await panel.getByRole('button', { name: 'Cancel Request' }).click();
    const cancelDialog = page.getByRole('dialog', { name: 'Cancel phone number request' });
    await eventually(() => cancelDialog.getByText('Are you sure you want to cancel your phone number request?').count()).toBe(1);
    await cancelDialog.getByRole('button', { name: 'Cancel Request' }).click();
    await eventually(() => page.getByText('Phone number request cancelled successfully').count()).toBeGreaterThan(0);
    await eventually(() => panel.getByRole('button', { name: 'Request Phone Number' }).count()).toBe(1);
    expect(await panel.getByTestId('phone-request-status').count()).toBe(0);
    expect((await callApi<VoiceSettings>(page, 'GET', '/api/voice-settings')).phoneNumber.status).toBeNull();
  });

  it('chooses between real-time answers and the classic mode, and says when a voice cannot answer in real time', async () => {
    const page = await newPage(browser());
    await subscribedUserOn(page, '/voice-settings', 'voice-mode');
    const streaming = page.getByRole('radio', { name: /^Real-time answers \(recommended\)/ });
    const classic = page.getByRole('radio', { name: /^Classic mode \(wait for the full sentence\)/ });
    await eventually(() => streaming.count()).toBe(1);
    expect(await streaming.isChecked()).toBe(true);
    expect(await classic.isChecked()).toBe(false);
    expect(await page.getByText('The agent starts answering in under a second and stops talking when the caller interrupts.').count()).toBe(1);
    expect(await page.getByTestId('voice-cannot-stream').count()).toBe(0);

    // Conchita has no real-time form: the picker says so, and so does a note beside the mode.
    const voice = page.getByRole('combobox', { name: 'Voice' });
    await voice.click();
    const conchita = page.getByRole('option', { name: /^Conchita/ });
    expect(await conchita.getByText('Classic mode only').count()).toBe(1);
    expect(await page.getByRole('option', { name: /^Lucía/ }).getByText('Classic mode only').count()).toBe(0);
    await conchita.click();
    await eventually(() => page.getByTestId('voice-cannot-stream').textContent()).toBe(
      'The voice Conchita cannot answer in real time, so calls with it use the classic mode. Choose another voice to answer in real time.',
    );

    // The classic mode chosen: no note (nothing falls back), and it is what the server stores.
    await classic.check();
    await eventually(() => page.getByTestId('voice-cannot-stream').count()).toBe(0);
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await eventually(() => page.getByText('Voice settings updated successfully').count()).toBeGreaterThan(0);
    expect(await callApi<VoiceSettings>(page, 'GET', '/api/voice-settings')).toMatchObject({ conversationMode: 'gather', voice: 'Polly.Conchita' });
    await page.reload();
    await eventually(() => classic.count()).toBe(1);
    expect(await classic.isChecked()).toBe(true);

    // Reset to Defaults brings real-time answers back.
    await page.getByRole('button', { name: 'Reset to Defaults' }).click();
    await page.getByRole('dialog', { name: 'Reset voice settings' }).getByRole('button', { name: 'Reset to Defaults' }).click();
    await eventually(() => page.getByText('Voice settings reset to defaults').count()).toBeGreaterThan(0);
    await eventually(() => streaming.isChecked()).toBe(true);
    expect((await callApi<VoiceSettings>(page, 'GET', '/api/voice-settings')).conversationMode).toBe('streaming');
  });

  it('adds languages a real-time call switches to (issue 28): chosen in the form, saved, and dropped when one becomes the main language', async () => {
    const page = await newPage(browser());
    await subscribedUserOn(page, '/voice-settings', 'voice-languages');
    const additional = page.getByTestId('additional-languages-select');
    await eventually(() => additional.count()).toBe(1);
    expect(await additional.textContent()).toBe('None');

    await additional.click();
    expect(await page.getByTestId('additional-language-es-ES').count()).toBe(0);
    await page.getByTestId('additional-language-en-US').click();
    await page.getByTestId('additional-language-en-GB').click();
    await page.keyboard.press('Escape');
    expect(await additional.textContent()).toBe('English (United States), English (United Kingdom)');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await eventually(() => page.getByText('Voice settings updated successfully').count()).toBeGreaterThan(0);
    expect((await callApi<VoiceSettings>(page, 'GET', '/api/voice-settings')).additionalLanguages).toEqual(['en-US', 'en-GB']);

    // English (United Kingdom) as the main language: it is no longer an additional one.
    await page.getByRole('combobox', { name: /^Language/ }).click();
    await page.getByRole('option', { name: /^English \(United Kingdom\)/ }).click();
    await eventually(() => additional.textContent()).toBe('English (United States)');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await eventually(() => callApi<VoiceSettings>(page, 'GET', '/api/voice-settings').then((s) => [s.language, s.additionalLanguages])).toEqual(['en-GB', ['en-US']]);
  });

  it('sets up Twilio Voice in the Integrations modal, shows the webhook URLs, tests and disconnects', async () => {
    const page = await newPage(browser());
    await subscribedUserOn(page, '/integrations', 'twilio-modal');
    const businessNumber = `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const registered = await fetch(`${twilioUrl}/_test/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ numbers: [businessNumber] }),
    });
    const account = (await registered.json()) as { accountSid: string; authToken: string };

    const card = await pressConnect(page, 'integration-twilio-voice');
    const dialog = page.getByRole('dialog', { name: 'Configure Twilio Voice' });
    expect(await dialog.getByRole('link', { name: /open Voice settings/ }).getAttribute('href')).toBe('/voice-settings');
    // The form's own checks first (SPEC §5): something that is not a phone number is refused.
    await dialog.getByLabel(/^Account SID/).fill(account.accountSid);
    await dialog.getByLabel(/^Auth Token/).fill(account.authToken);
    await dialog.getByLabel(/^Phone Number/).fill('415 55');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await eventually(() => dialog.getByText('Please enter a valid phone number').count()).toBe(1);
    // Issue 19: the number may be typed as at home, read in the account's country (US here).
    await dialog.getByLabel(/^Phone Number/).fill(businessNumber.replace(/^\+1/, ''));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByText('Twilio Voice integration configured successfully').count()).toBeGreaterThan(0);

    const details = page.getByRole('dialog', { name: 'Twilio Voice connection' });
    const userId = await userIdOf(page);
    const webhookUrl = await details.getByTestId('twilio-webhook-url').inputValue();
    expect(webhookUrl).toBe(`${new URL(webhookUrl).origin}/api/webhooks/twilio/${userId}/voice`);
    expect(await details.getByTestId('twilio-status-callback-url').inputValue()).toBe(`${webhookUrl}/status`);
    await eventually(() => details.getByTestId('twilio-number-configured').count()).toBe(1);
    // The fake Twilio holds what setup configured on the number.
    const numbers = (await (await fetch(`${twilioUrl}/_test/numbers?${new URLSearchParams({ accountSid: account.accountSid })}`)).json()) as {
      numbers: { voiceUrl?: string; statusCallback?: string }[];
    };
    expect(numbers.numbers[0]).toMatchObject({ voiceUrl: webhookUrl, statusCallback: `${webhookUrl}/status` });

    await details.getByRole('button', { name: 'Test connection' }).click();
    await eventually(() => details.getByTestId('twilio-test-result').textContent()).toBe('Connection successful');

    await details.getByRole('button', { name: 'Disconnect' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disconnect Twilio Voice?' });
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await eventually(() => page.getByRole('dialog').count()).toBe(0);
    await eventually(() => card.getByRole('button', { name: 'Connect' }).count()).toBe(1);
    expect(await card.getByText('Not connected').count()).toBe(1);
  });

  it('shows the Admin page only to administrators, who assign a number to a pending request', async () => {
    // A customer asks for a number.
    const customer = await newPage(browser());
    await subscribedUserOn(customer, '/', 'voice-customer');
    const customerId = await userIdOf(customer);
    await callApi(customer, 'POST', '/api/voice-settings/request-phone', { notes: 'Barcelona, please' });
    expect(await customer.getByTestId('nav-admin').count()).toBe(0);

    // An administrator: in the Cognito 'admin' group, signed in again for the groups claim.
    const page = await newPage(browser());
    const adminEmail = await subscribedUserOn(page, '/', 'voice-admin');
    expect(await page.getByTestId('nav-admin').count()).toBe(0);
    const cognito = new CognitoIdentityProviderClient({
      endpoint: inject('cognitoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await cognito.send(new AdminAddUserToGroupCommand({ UserPoolId: inject('userPoolId'), Username: adminEmail, GroupName: 'admin' }));
    await page.getByTestId('nav-logout').click();
    await eventually(() => new URL(page.url()).pathname).toBe('/login');
    await login(page, adminEmail);
    await eventually(() => page.getByTestId('nav-admin').count()).toBe(1);
    await page.getByTestId('nav-admin').click();
    await eventually(() => page.getByRole('heading', { name: 'Admin', level: 1 }).count()).toBe(1);

    const row = page.getByTestId(`phone-request-${customerId}`);
    await eventually(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('Barcelona, please');
    expect(await row.textContent()).toContain('Pending');
    await row.getByRole('button', { name: 'Assign Number' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Phone number/).fill('555-0199');
    await dialog.getByRole('button', { name: 'Assign Number' }).click();
    await eventually(() => dialog.getByText('Phone number must be in E.164 format, e.g. +14155550123').count()).toBe(1);
    await dialog.getByLabel(/^Phone number/).fill('+34930000199');
    await dialog.getByRole('button', { name: 'Assign Number' }).click();
    await eventually(() => page.getByText('Phone number assigned and the user notified').count()).toBeGreaterThan(0);
    await eventually(async () => (await row.textContent()) ?? '').toContain('Assigned');
    expect(await row.textContent()).toContain('+34930000199');
    expect(await row.getByRole('button').count()).toBe(0);

    // The customer's panel shows the number, in the app's one phone format (issue 29).
    await customer.goto(`${appUrl}/voice-settings#phone-number`);
    await eventually(() => customer.getByTestId('phone-assigned-number').textContent()).toBe(formatPhone('+34930000199'));
    expect(await customer.getByTestId('phone-request-status').textContent()).toBe('Assigned');
  });
});
