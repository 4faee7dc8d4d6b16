/**
 * The invitation e-mail (issue 32): to the invitee, in the language stored on the invitation,
 * with the accept link; rendered only for the job's token while it is the invitation's current
 * one and the invitation is still pending (a resend's new link supersedes a queued old one).
 */
import { describe, expect, it } from 'vitest';
import { invitationEmailRenderer } from '../../../src/domain/team/invitation-email.js';
import type { StoredInvitation } from '../../../src/domain/team/ports.js';
import { newInvitationToken } from '../../../src/domain/team/tokens.js';

const { token, tokenHash } = newInvitationToken();
const base: StoredInvitation = {
  id: '01J0000000000000000000000A',
  accountId: 'acc-1',
  email: 'lucia.martin@example.es',
  role: 'agent',
  state: 'pending',
  invitedBy: 'acc-1',
  createdAt: '2026-11-28T10:00:00.000Z',
  expiresAt: '2026-12-05T10:00:00.000Z',
  tokenHash,
  language: 'es',
};

/** `jobToken` null: a job without a token. */
function render(invitation: StoredInvitation | null, jobToken: string | null = token) {
  const renderer = invitationEmailRenderer({
    team: {
      invitation: async () => invitation,
      names: async () => new Map([['acc-1', { name: 'Pedro <b>Peña</b>', email: 'pedro@example.es' }]]),
    },
    accountName: async () => 'Clínica Sonrisa & Co',
    appUrl: 'https://app.example.com/',
  });
  return renderer({ kind: 'team-invitation', userId: 'acc-1', subjectId: base.id, ...(jobToken ? { token: jobToken } : {}) }, { email: 'owner@example.es', language: 'en' });
}

describe('invitation e-mail', () => {
  it('goes to the invitee in the invitation’s language (not the owner’s), with the accept link; names are escaped in the HTML', async () => {
    const mail = await render(base);
    expect(mail).not.toBeNull();
    expect(mail!.to).toBe('lucia.martin@example.es');
    expect(mail!.subject).toBe('Pedro <b>Peña</b> te ha invitado a Clínica Sonrisa & Co en AgentDesk');
    expect(mail!.text).toContain(`Aceptar la invitación: https://app.example.com/invite/${token}`);
    expect(mail!.text).toContain('con el rol de agente');
    expect(mail!.text).toContain('válido durante 7 días');
    expect(mail!.html).toContain(`href="https://app.example.com/invite/${token}"`);
    expect(mail!.html).toContain('Pedro &lt;b&gt;Peña&lt;/b&gt;');
    expect(mail!.html).not.toContain('<b>Peña</b>');

    const english = await render({ ...base, language: 'en', role: 'admin' });
    expect(english!.subject).toBe('Pedro <b>Peña</b> invited you to Clínica Sonrisa & Co on AgentDesk');
    expect(english!.text).toContain('as an admin');
  });

  it('sends nothing for a token that is not the current one, a closed invitation, a job without a token, or one that is gone', async () => {
    expect(await render(base, newInvitationToken().token)).toBeNull();
    expect(await render({ ...base, state: 'revoked' })).toBeNull();
    expect(await render({ ...base, state: 'accepted' })).toBeNull();
    expect(await render(base, null)).toBeNull();
    expect(await render(null)).toBeNull();
  });
});
