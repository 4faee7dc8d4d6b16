/** The auth e-mails, as plain text and simple HTML, in English or Spanish. */
import type { Language } from '../../contract/auth.js';
import type { AuthProvider } from './ports.js';
import { escapeHtml } from '../../lib/html.js';

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}


function render(lines: { greeting: string; intro: string; code: string; expiry: string; ignore: string }, subject: string): EmailContent {
  const text = [lines.greeting, '', lines.intro, '', `    ${lines.code}`, '', lines.expiry, lines.ignore, '', 'AgentDesk'].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222">
<p>${escapeHtml(lines.greeting)}</p>
<p>${escapeHtml(lines.intro)}</p>
<p style="font-size:24px;font-weight:bold;letter-spacing:4px;font-family:monospace">${escapeHtml(lines.code)}</p>
<p>${escapeHtml(lines.expiry)}</p>
<p style="color:#666">${escapeHtml(lines.ignore)}</p>
<p>AgentDesk</p>
</body></html>`;
  return { subject, text, html };
}

export function verificationEmail(code: string, ttlMinutes: number, language: Language = 'en'): EmailContent {
  if (language === 'es') {
    return render(
      {
        greeting: 'Hola:',
        intro: 'Tu código de verificación de AgentDesk es:',
        code,
        expiry: `El código caduca en ${ttlMinutes} minutos.`,
        ignore: 'Si no has solicitado este código, ignora este mensaje.',
      },
      'Tu código de verificación de AgentDesk',
    );
  }
  return render(
    {
      greeting: 'Hello,',
      intro: 'Your AgentDesk verification code is:',
      code,
      expiry: `The code expires in ${ttlMinutes} minutes.`,
      ignore: "If you didn't request this code, you can ignore this e-mail.",
    },
    'Your AgentDesk verification code',
  );
}

export function passwordResetEmail(code: string, ttlMinutes: number, language: Language = 'en', name?: string): EmailContent {
  if (language === 'es') {
    return render(
      {
        greeting: name ? `Hola, ${name}:` : 'Hola:',
        intro: 'Usa este código para restablecer tu contraseña de AgentDesk:',
        code,
        expiry: `El código caduca en ${ttlMinutes} minutos.`,
        ignore: 'Si no has solicitado restablecer tu contraseña, ignora este mensaje; tu contraseña no cambiará.',
      },
      'Restablece tu contraseña de AgentDesk',
    );
  }
  return render(
    {
      greeting: name ? `Hello ${name},` : 'Hello,',
      intro: 'Use this code to reset your AgentDesk password:',
      code,
      expiry: `The code expires in ${ttlMinutes} minutes.`,
      ignore: "If you didn't ask to reset your password, ignore this e-mail; your password stays the same.",
    },
    'Reset your AgentDesk password',
  );
}

/**
 * Sent instead of a code when someone asks to register an e-mail that already has an account:
 * send-verification answers the same either way, so only the mailbox owner learns it.
 */
export function accountExistsEmail(input: { appUrl: string; authProvider: AuthProvider; language?: Language; name?: string }): EmailContent {
  const base = input.appUrl.replace(/\/+$/, '');
  const loginUrl = `${base}/login`;
  const resetUrl = `${base}/forgot-password`;
  const es = input.language === 'es';
  const greeting = es ? (input.name ? `Hola, ${input.name}:` : 'Hola:') : input.name ? `Hello ${input.name},` : 'Hello,';
  const lines = es
    ? [
        'Alguien ha pedido crear una cuenta de AgentDesk con esta dirección de correo, pero ya tiene una cuenta. No se ha creado ninguna cuenta nueva.',
        input.authProvider === 'google'
          ? `Tu cuenta inicia sesión con Google: usa «Iniciar sesión con Google» en ${loginUrl}`
          : `Inicia sesión en ${loginUrl}. Si no recuerdas tu contraseña, restablécela en ${resetUrl}`,
        'Si no lo has pedido tú, ignora este mensaje; tu cuenta no ha cambiado.',
      ]
    : [
        'Someone asked to create an AgentDesk account with this e-mail address, but it already has an account. No new account was created.',
        input.authProvider === 'google'
          ? `Your account signs in with Google: use "Sign in with Google" at ${loginUrl}`
          : `Sign in at ${loginUrl}. If you don't remember your password, reset it at ${resetUrl}`,
        "If you didn't ask for this, ignore this e-mail; your account has not changed.",
      ];
  const subject = es ? 'Ya tienes una cuenta de AgentDesk' : 'You already have an AgentDesk account';
  const text = [greeting, '', ...lines.flatMap((l) => [l, '']), 'AgentDesk'].join('\n');
  const linkify = (line: string) =>
    escapeHtml(line).replace(/https?:\/\/[^\s<]*[^\s<.,;:]/g, (url) => `<a href="${url}">${url}</a>`);
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222">
<p>${escapeHtml(greeting)}</p>
${lines.map((l, i) => `<p${i === lines.length - 1 ? ' style="color:#666"' : ''}>${linkify(l)}</p>`).join('\n')}
<p>AgentDesk</p>
</body></html>`;
  return { subject, text, html };
}
