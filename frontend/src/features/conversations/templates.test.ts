import { describe, expect, it } from 'vitest';
import { fillTemplate, metaErrorMessages, templateMessages } from '@agentdesk/functions/contract';
import en from './i18n/en.json';
import es from './i18n/es.json';
import esServer from './i18n/es-server.json';
import { usernameOnly } from './format';

describe('template composer strings and rules (issue 17)', () => {
  it('has the template texts in English and Spanish', () => {
    expect(en.templates).toMatchObject({ title: 'Send a template', preview: 'Preview', empty: 'No approved templates: create them in WhatsApp Manager' });
    expect(es.templates).toMatchObject({ title: 'Enviar una plantilla', preview: 'Vista previa', empty: 'No hay plantillas aprobadas: créalas en WhatsApp Manager' });
    expect([en.card.whatsappUser, es.card.whatsappUser]).toEqual(['WhatsApp user', 'Usuario de WhatsApp']);
  });

  it("has Spanish for the template calls' fixed server messages and Meta's errors in words", () => {
    const fixed = Object.values(templateMessages as Record<string, unknown>).filter((m): m is string => typeof m === 'string');
    for (const text of [...fixed, ...Object.values(metaErrorMessages)]) expect(esServer, text).toHaveProperty([text]);
  });

  it('the preview fills what was typed and keeps the unfilled placeholders', () => {
    expect(fillTemplate('Hola {{1}}, tu cita del {{2}}.', ['Lucía', ''])).toBe('Hola Lucía, tu cita del {{2}}.');
  });

  it('a conversation without a phone number is a WhatsApp username customer', () => {
    const base = { contact: { _id: '', name: 'Nacho', phoneNumber: '' }, customerWaId: 'ES.40123456789012345678' };
    expect(usernameOnly(base)).toBe(true);
    expect(usernameOnly({ ...base, contact: { ...base.contact, phoneNumber: '+34612345678' }, customerWaId: '34612345678' })).toBe(false);
  });
});
