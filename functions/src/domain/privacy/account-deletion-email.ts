/**
 * The last e-mail of an account (issue 33): sent to its owner when the deletion job is done, in
 * their language, saying what went and what stays (Stripe's invoices, kept by law; backups, which
 * expire by themselves: the table's point-in-time recovery keeps 35 days, the bucket's older
 * object versions 30).
 */
import { escapeHtml } from '../../lib/html.js';

export type DeletionEmailLanguage = 'en' | 'es';

/** The longest a deleted item or object may survive in a backup (point-in-time recovery window). */
export const BACKUP_RETENTION_DAYS = 35;

export function accountDeletedEmail(input: { name: string; language: DeletionEmailLanguage; startedAt: string }): { subject: string; text: string; html: string } {
  const es = input.language === 'es';
  const day = input.startedAt.slice(0, 10);
  const greeting = es ? (input.name ? `Hola, ${input.name}:` : 'Hola:') : input.name ? `Hello ${input.name},` : 'Hello,';
  const subject = es ? 'Tu cuenta de AgentDesk se ha eliminado' : 'Your AgentDesk account has been deleted';
  const lines = es
    ? [
        `Como pediste el ${day}, hemos eliminado tu cuenta de AgentDesk y todos sus datos: agentes y documentos, contactos, conversaciones y archivos, llamadas, transcripciones y grabaciones (también las guardadas en Twilio), citas, claves de API y los accesos de todas las personas de tu equipo. Tu suscripción se ha cancelado y no se te cobrará nada más.`,
        `Lo que queda: las facturas de tu suscripción, que Stripe conserva porque la ley obliga a guardarlas; y las copias de seguridad, que se borran solas en un máximo de ${BACKUP_RETENTION_DAYS} días.`,
        'No tienes que hacer nada más. Gracias por haber usado AgentDesk.',
      ]
    : [
        `As you asked on ${day}, we have deleted your AgentDesk account and all of its data: agents and documents, contacts, conversations and files, calls, transcripts and recordings (those held by Twilio too), bookings, API keys and the logins of everyone on your team. Your subscription is cancelled and you will not be charged again.`,
        `What stays: your subscription invoices, which Stripe keeps because the law requires them to be kept; and backups, which delete themselves within ${BACKUP_RETENTION_DAYS} days at most.`,
        'There is nothing else you need to do. Thank you for using AgentDesk.',
      ];
  const text = [greeting, '', ...lines.flatMap((l) => [l, '']), 'AgentDesk'].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222">
<p>${escapeHtml(greeting)}</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p>AgentDesk</p>
</body></html>`;
  return { subject, text, html };
}
