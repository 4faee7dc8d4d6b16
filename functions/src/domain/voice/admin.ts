/**
 * Administrators' phone-number desk (SPEC §6: an admin assigns phone numbers): every user's
 * request, approve (pending → approved), reject (pending | approved → rejected, with a reason),
 * assign (pending | approved → assigned with the number; the user gets an e-mail).
 * Callers must be in the Cognito 'admin' group; the handler checks it before any use case.
 */
import type { Language } from '../../contract/auth.js';
import { PHONE_REQUEST_STATUSES, voiceMessages, type PhoneNumberRequest, type PhoneRequestAdminView, type PhoneRequestStatus } from '../../contract/voice.js';
import type { EmailContent } from '../auth/emails.js';
import type { Mailer, UserRepository } from '../auth/ports.js';
import { isUuid } from '../../lib/ids.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { VoiceSettingsRepository } from './ports.js';
import { escapeHtml } from '../../lib/html.js';

export interface AdminDeps {
  settings: VoiceSettingsRepository;
  users: Pick<UserRepository, 'get'>;
  mailer: Mailer;
  appUrl: string;
  now?: () => Date;
  onMailError?: (error: unknown) => void;
}


/** The e-mail telling a user which number was assigned to them. */
export function numberAssignedEmail(number: string, settingsUrl: string, language: Language = 'en', name?: string): EmailContent {
  const l =
    language === 'es'
      ? {
          subject: 'Tu número de teléfono de AgentDesk está listo',
          greeting: name ? `Hola, ${name}:` : 'Hola:',
          intro: 'Hemos asignado este número de teléfono a tu cuenta de AgentDesk:',
          next: 'Tu agente de voz contestará las llamadas a este número. Puedes ajustar los mensajes y la voz en la configuración de voz:',
        }
      : {
          subject: 'Your AgentDesk phone number is ready',
          greeting: name ? `Hello ${name},` : 'Hello,',
          intro: 'We assigned this phone number to your AgentDesk account:',
          next: 'Your voice agent will answer calls to this number. You can adjust its messages and voice in the voice settings:',
        };
  const text = [l.greeting, '', l.intro, '', `    ${number}`, '', l.next, settingsUrl, '', 'AgentDesk'].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222">
<p>${escapeHtml(l.greeting)}</p>
<p>${escapeHtml(l.intro)}</p>
<p style="font-size:24px;font-weight:bold;font-family:monospace">${escapeHtml(number)}</p>
<p>${escapeHtml(l.next)} <a href="${escapeHtml(settingsUrl)}">${escapeHtml(settingsUrl)}</a></p>
<p>AgentDesk</p>
</body></html>`;
  return { subject: l.subject, text, html };
}

export function createAdminService(deps: AdminDeps) {
  const now = () => (deps.now ? deps.now() : new Date()).toISOString();

  async function current(userId: string): Promise<PhoneNumberRequest> {
    // {userId} comes from the path: anything but a Cognito sub cannot have a request (and could not be a key).
    const request = isUuid(userId) ? (await deps.settings.get(userId))?.phoneNumber : undefined;
    if (!request?.status) throw new NotFoundError(voiceMessages.phoneRequestNotFound);
    return request;
  }

  async function view(userId: string, request: PhoneNumberRequest): Promise<PhoneRequestAdminView> {
    const user = await deps.users.get(userId);
    return { userId, userName: user?.name ?? '', userEmail: user?.email ?? '', request };
  }

  /** Moves the request from one of `from` to `next`; 409 when it is in another state (or changed meanwhile). */
  async function transition(userId: string, from: readonly PhoneRequestStatus[], next: (r: PhoneNumberRequest) => PhoneNumberRequest): Promise<PhoneNumberRequest> {
    const request = await current(userId);
    if (!request.status || !from.includes(request.status)) throw new ConflictError(voiceMessages.requestNotPendingOrApproved);
    const updated = next(request);
    if (!(await deps.settings.setPhoneRequest(userId, updated, [request.status]))) throw new ConflictError(voiceMessages.requestNotPendingOrApproved);
    return updated;
  }

  async function list(status: PhoneRequestStatus | ''): Promise<PhoneRequestAdminView[]> {
    const rows = await deps.settings.listPhoneRequests(status ? [status] : PHONE_REQUEST_STATUSES);
    return Promise.all(rows.map((r) => view(r.userId, r.request)));
  }

  async function approve(userId: string): Promise<PhoneRequestAdminView> {
    const request = await current(userId);
    if (request.status === 'approved') return view(userId, request);
    return view(userId, await transition(userId, ['pending'], (r) => ({ ...r, status: 'approved' })));
  }

  async function reject(userId: string, reason: string): Promise<PhoneRequestAdminView> {
    return view(userId, await transition(userId, ['pending', 'approved'], (r) => ({ ...r, status: 'rejected', rejectionReason: reason || null })));
  }

  async function assign(userId: string, number: string): Promise<PhoneRequestAdminView> {
    const assigned = await transition(userId, ['pending', 'approved'], (r) => ({ ...r, status: 'assigned', number, assignedAt: now(), rejectionReason: null }));
    const user = await deps.users.get(userId);
    if (user?.email) {
      const settingsUrl = `${deps.appUrl.replace(/\/+$/, '')}/voice-settings#phone-number`;
      const mail = numberAssignedEmail(number, settingsUrl, user.language, user.name || undefined);
      try {
        await deps.mailer.send({ to: user.email, ...mail });
      } catch (error) {
        // The number is assigned either way; the user also sees it on the voice settings page.
        deps.onMailError?.(error);
      }
    }
    return { userId, userName: user?.name ?? '', userEmail: user?.email ?? '', request: assigned };
  }

  return { list, approve, reject, assign };
}

export type AdminService = ReturnType<typeof createAdminService>;
