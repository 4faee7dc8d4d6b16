/**
 * WhatsApp message templates (issue 17): outside the 24-hour customer service window WhatsApp
 * only delivers a template the business had approved in WhatsApp Manager.
 *   GET  /api/whatsapp/templates               → WhatsAppTemplate[] (approved ones only)
 *   POST /api/conversations/{id}/template      sendTemplateRequest → the stored ConversationMessage
 *        (type 'template', body = the template's text with its parameters filled, sentBy human)
 * Only body parameters are supported ({{1}}, {{2}}… or named {{first_name}}); templates that need a
 * header or button parameter, or a media header, are not listed. Browser-safe: the frontend's
 * preview fills the text with the same fillTemplate().
 */
import * as z from 'zod/mini';
import { whatsappMessages } from './whatsapp.js';
import './zod-locale.js';

export interface WhatsAppTemplate {
  name: string;
  /** Meta's language code: es, es_ES, en_US… */
  language: string;
  /** MARKETING, UTILITY or AUTHENTICATION. */
  category: string;
  /** The BODY component's text, placeholders as written ({{1}} or {{name}}). */
  body: string;
  /** The distinct placeholders of the body, in the order parameters are given ('1', '2' or names). */
  parameters: string[];
  parameterCount: number;
}

/** A stored message of a template send has this type (the UI marks it). */
export const TEMPLATE_MESSAGE_TYPE = 'template';

export const TEMPLATE_LIMITS = { parameters: 20, parameterLength: 1024 } as const;

export const templateMessages = {
  nameRequired: 'Template name is required',
  languageRequired: 'Template language is required',
  parameterRequired: 'Every template parameter needs a value',
  parameterTooLong: `A template parameter must be ${TEMPLATE_LIMITS.parameterLength} characters or less`,
  tooManyParameters: `A template takes at most ${TEMPLATE_LIMITS.parameters} parameters`,
  parameterCount: (expected: number, given: number) =>
    `This template takes ${expected} parameter${expected === 1 ? '' : 's'}, ${given} ${given === 1 ? 'was' : 'were'} given`,
  templateNotFound: 'This template is not among the approved templates of your WhatsApp Business account',
  windowOpen: 'The customer wrote within the last 24 hours: send a normal reply. Templates are for when the 24-hour window is closed.',
  templateSent: 'Template sent',
} as const;

/**
 * Meta's send errors in words (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes):
 * what happened and what to do, instead of Meta's terse titles. English, as the API's other texts.
 */
export const metaErrorMessages: Readonly<Record<number, string>> = {
  131026: 'WhatsApp could not deliver the message: the customer may not use WhatsApp, may use an old version, or has not accepted the latest terms.',
  131047: whatsappMessages.windowClosed,
  131051: 'WhatsApp does not support this type of message.',
  132000: "The number of parameters does not match the template's: check the template in WhatsApp Manager.",
  132001: 'WhatsApp does not know this template in this language: it may have been deleted, renamed or not approved yet.',
  132005: 'The template is too long once its parameters are filled in: shorten the parameters.',
  132007: "The template's text or parameters break WhatsApp's formatting rules (for example new lines, tabs or more than 4 spaces in a row in a parameter).",
  132012: 'A template parameter has the wrong format (for example text where the template expects a date, a currency or an image).',
  132015: 'WhatsApp paused this template because of its low quality: edit it in WhatsApp Manager or choose another one.',
  132016: 'WhatsApp disabled this template because of its low quality: choose another template.',
};

const PLACEHOLDER_RE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The distinct placeholders of a template text: numbered ones in number order, named ones as they appear. */
export function templatePlaceholders(text: string): string[] {
  const seen: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER_RE)) if (!seen.includes(match[1]!)) seen.push(match[1]!);
  return seen.every((p) => /^\d+$/.test(p)) ? seen.sort((a, b) => Number(a) - Number(b)) : seen;
}

/** The template text with each placeholder replaced by its parameter (an unfilled one stays as written). */
export function fillTemplate(text: string, parameters: readonly string[]): string {
  const order = templatePlaceholders(text);
  return text.replace(PLACEHOLDER_RE, (whole, name: string) => {
    const value = parameters[order.indexOf(name)];
    return value === undefined || value === '' ? whole : value;
  });
}

const requiredText = (message: string, max: number) =>
  z.string({ error: message }).check(z.trim(), z.minLength(1, message), z.maxLength(max, message));

export const sendTemplateRequest = z.object({
  name: requiredText(templateMessages.nameRequired, 512),
  language: requiredText(templateMessages.languageRequired, 15),
  parameters: z.optional(
    z
      .array(
        z
          .string({ error: templateMessages.parameterRequired })
          .check(
            z.trim(),
            z.minLength(1, templateMessages.parameterRequired),
            z.maxLength(TEMPLATE_LIMITS.parameterLength, templateMessages.parameterTooLong),
          ),
        { error: templateMessages.parameterRequired },
      )
      .check(z.maxLength(TEMPLATE_LIMITS.parameters, templateMessages.tooManyParameters)),
  ),
});
export type SendTemplateRequest = z.infer<typeof sendTemplateRequest>;
