/**
 * Headless Debian Chromium driven by playwright-core (no browser download: CI installs `chromium`).
 * The e2e global setup starts one Chromium server for the whole run (`startBrowserServer`) and
 * each test file connects to it (`connectBrowser`): a file's own contexts are closed when it
 * disconnects, and no file pays a browser start.
 */
import { chromium, type Browser, type BrowserServer } from 'playwright-core';

export function startBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A connection to the run's shared Chromium; closing it closes only this connection's contexts. */
export function connectBrowser(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}

interface StoredEmail {
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

/** Polls the local SES mailbox for the newest e-mail to `to` and returns the match of `pattern`. */
export async function waitForMailCode(mailboxUrl: string, to: string, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${mailboxUrl}/store`);
    const { emails } = (await res.json()) as { emails: StoredEmail[] };
    const mine = emails.filter((e) => e.destination.to.some((addr) => addr.includes(to))).sort((a, b) => b.at - a.at);
    const match = mine[0] && pattern.exec(mine[0].body.text ?? mine[0].body.html ?? '');
    if (match?.[1]) return match[1];
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No e-mail with a code reached ${to} within ${timeoutMs} ms`);
}
