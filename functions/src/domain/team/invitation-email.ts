/**
 * The invitation e-mail (issue 32), in the invitee's language (their profile's when the address
 * already has a login, else the inviter's: decided when it was sent and kept on the invitation),
 * with the accept link {APP_URL}/invite/{token}. Queued on the outbound-email queue like every
 * e-mail (domain/notifications/emails.ts, kind 'team-invitation'); the job carries the token, as
 * the table keeps only its SHA-256, and the worker renders it only while it is still the
 * invitation's current token (a resend's new link supersedes the old one's queued e-mail).
 */
import { INVITATION_TTL_DAYS, type AssignableRole } from '../../contract/team.js';
import { escapeHtml } from '../../lib/html.js';
import { catalogue, formatDateTime } from '../i18n/messages.js';
import type { EmailRenderer, RenderedEmail } from '../notifications/emails.js';
import type { StoredInvitation, TeamRepository } from './ports.js';
import { hashInvitationToken } from './tokens.js';

interface Texts {
  subject: (inviter: string, account: string) => string;
  intro: (inviter: string, account: string, role: string) => string;
  roles: Record<AssignableRole, string>;
  accept: string;
  validity: (days: number, until: string) => string;
  ignore: string;
}

const texts = catalogue<Texts>(
  {
    subject: (inviter, account) => `${inviter} invited you to ${account} on AgentDesk`,
    intro: (inviter, account, role) => `${inviter} invited you to join ${account} on AgentDesk as ${role}.`,
    roles: { admin: 'an admin (everything but billing and ownership)', agent: 'an agent (inbox, contacts, calls, bookings and saved replies)' },
    accept: 'Accept the invitation',
    validity: (days, until) => `The link is valid for ${days} days, until ${until}. Sign up or sign in with this e-mail address to accept it.`,
    ignore: 'If you were not expecting this invitation, you can ignore this e-mail.',
  },
  {
    subject: (inviter, account) => `${inviter} te ha invitado a ${account} en AgentDesk`,
    intro: (inviter, account, role) => `${inviter} te ha invitado a unirte a ${account} en AgentDesk con el rol de ${role}.`,
    roles: { admin: 'administrador (todo salvo la facturación y la propiedad)', agent: 'agente (bandeja de entrada, contactos, llamadas, reservas y respuestas guardadas)' },
    accept: 'Aceptar la invitación',
    validity: (days, until) => `El enlace es válido durante ${days} días, hasta el ${until}. Regístrate o inicia sesión con esta dirección de correo para aceptarla.`,
    ignore: 'Si no esperabas esta invitación, puedes ignorar este correo.',
  },
);

export const invitationLink = (appUrl: string, token: string) => `${appUrl.replace(/\/$/, '')}/invite/${encodeURIComponent(token)}`;

/** The e-mail of one invitation with its link. */
export function invitationEmail(invitation: StoredInvitation, names: { inviter: string; account: string }, token: string, appUrl: string): RenderedEmail {
  const t = texts(invitation.language);
  const link = invitationLink(appUrl, token);
  const intro = t.intro(names.inviter, names.account, t.roles[invitation.role]);
  const validity = t.validity(INVITATION_TTL_DAYS, formatDateTime(invitation.expiresAt, invitation.language, undefined));
  const text = [intro, '', `${t.accept}: ${link}`, '', validity, t.ignore, '', 'AgentDesk'].join('\n');
  const html = `<!doctype html><html lang="${invitation.language}"><body style="font-family:Arial,sans-serif;color:#222">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#1565c0;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(t.accept)}</a></p>
<p style="color:#555">${escapeHtml(validity)}</p>
<p style="color:#555">${escapeHtml(t.ignore)}</p>
<p>AgentDesk</p>
</body></html>`;
  return { subject: t.subject(names.inviter, names.account), text, html, to: invitation.email };
}

/**
 * Renders kind 'team-invitation' when the worker sends it: null (nothing sent) when the
 * invitation is gone, no longer pending, or the job's token is not its current one.
 */
export function invitationEmailRenderer(deps: {
  team: Pick<TeamRepository, 'invitation' | 'names'>;
  accountName: (accountId: string) => Promise<string>;
  appUrl: string;
}): EmailRenderer {
  return async (ref) => {
    if (!ref.token) return null;
    const invitation = await deps.team.invitation(ref.userId, ref.subjectId);
    if (!invitation || invitation.state !== 'pending' || invitation.tokenHash !== hashInvitationToken(ref.token)) return null;
    const [names, account] = await Promise.all([deps.team.names(ref.userId, [invitation.invitedBy]), deps.accountName(ref.userId)]);
    return invitationEmail(invitation, { inviter: names.get(invitation.invitedBy)?.name || account, account }, ref.token, deps.appUrl);
  };
}
