/**
 * Message templates as the inbox offers them (issue 17): Meta's template list reduced to the ones
 * a person can send from the reply box — approved, and with parameters in the body only (a media
 * header, or a header/button with a variable, would need input the reply box does not ask for).
 */
import { templatePlaceholders, type WhatsAppTemplate } from '../../contract/whatsapp-templates.js';
import type { GraphTemplate } from './ports.js';

interface Component {
  type?: unknown;
  format?: unknown;
  text?: unknown;
  buttons?: unknown;
}

const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : '');
const hasVariable = (v: unknown) => typeof v === 'string' && /\{\{\s*[A-Za-z0-9_]+\s*\}\}/.test(v);

/** The template as offered for sending, or null when it is not approved or needs more than body parameters. */
export function toWhatsAppTemplate(template: GraphTemplate): WhatsAppTemplate | null {
  if (upper(template.status) !== 'APPROVED') return null;
  const components = template.components.filter((c): c is Component => !!c && typeof c === 'object');
  const body = components.find((c) => upper(c.type) === 'BODY');
  if (!body || typeof body.text !== 'string') return null;
  const header = components.find((c) => upper(c.type) === 'HEADER');
  if (header && ((header.format !== undefined && upper(header.format) !== 'TEXT') || hasVariable(header.text))) return null;
  const buttons = components.find((c) => upper(c.type) === 'BUTTONS');
  if (buttons && Array.isArray(buttons.buttons) && buttons.buttons.some((b) => hasVariable((b as { url?: unknown })?.url))) return null;
  const parameters = templatePlaceholders(body.text);
  return {
    name: template.name,
    language: template.language,
    category: upper(template.category),
    body: body.text,
    parameters,
    parameterCount: parameters.length,
  };
}

/** The sendable templates, sorted by name then language. */
export function sendableTemplates(templates: readonly GraphTemplate[]): WhatsAppTemplate[] {
  return templates
    .map(toWhatsAppTemplate)
    .filter((t): t is WhatsAppTemplate => t !== null)
    .sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language));
}
