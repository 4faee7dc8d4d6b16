import { describe, expect, it } from 'vitest';
import type { Member } from '@agentdesk/functions/contract';
import { assigneeOptions, assigneeShown, senderLabel } from './team';
import en from './i18n/en.json';
import es from './i18n/es.json';

const member = (_id: string, name: string, role: Member['role'] = 'agent'): Member => ({ _id, name, email: `${_id}@clinica.es`, role, joinedAt: '2026-11-01T09:00:00.000Z' });
const MEMBERS = [member('owner', 'Marta Dueña', 'owner'), member('zoe', 'Zoe Pérez'), member('lucia', 'Lucía Martín'), member('alvaro', 'Álvaro Ruiz', 'admin')];

describe('the assign control (issue 32)', () => {
  it('lists the caller first as "Me", then the others by name as Spanish sorts them (accents included)', () => {
    expect(assigneeOptions(MEMBERS, 'lucia', 'es').map((o) => [o._id, o.me])).toEqual([
      ['lucia', true],
      ['alvaro', false],
      ['owner', false],
      ['zoe', false],
    ]);
    expect(assigneeOptions(MEMBERS, 'lucia', 'es')[0]?.name).toBe('Lucía Martín');
  });

  it('says who the conversation is assigned to: nobody, me, a member by name, someone (not loaded yet) or someone no longer listed', () => {
    expect(assigneeShown(null, 'lucia', MEMBERS)).toEqual({ kind: 'nobody' });
    expect(assigneeShown('lucia', 'lucia', MEMBERS)).toEqual({ kind: 'me' });
    expect(assigneeShown('alvaro', 'lucia', MEMBERS)).toEqual({ kind: 'member', name: 'Álvaro Ruiz' });
    expect(assigneeShown('gone', 'lucia', MEMBERS)).toEqual({ kind: 'gone' });
    // The team not loaded yet: only "me" is known; anyone else is "someone", not "no longer in the team".
    expect(assigneeShown('alvaro', 'lucia', undefined)).toEqual({ kind: 'someone' });
    expect(assigneeShown('lucia', 'lucia', undefined)).toEqual({ kind: 'me' });
  });
});

describe('who sent each message (issue 32)', () => {
  it('names the member or the API key of a person’s message; the agent, the customer and older messages as before', () => {
    expect(senderLabel({ fromMe: true, sentBy: 'human', sender: { kind: 'member', _id: 'lucia', name: 'Lucía Martín' } })).toEqual({ key: 'inbox.sender.member', name: 'Lucía Martín' });
    expect(senderLabel({ fromMe: true, sentBy: 'human', sender: { kind: 'apiKey', _id: 'k1', name: 'CRM' } })).toEqual({ key: 'inbox.sender.apiKey', name: 'CRM' });
    expect(senderLabel({ fromMe: true, sentBy: 'human' })).toEqual({ key: 'conversations.modal.fromHuman' });
    expect(senderLabel({ fromMe: true, sentBy: 'agent' })).toEqual({ key: 'conversations.modal.fromAgent' });
    expect(senderLabel({ fromMe: false })).toEqual({ key: 'conversations.modal.customer' });
  });

  it('reads naturally in Spanish', () => {
    expect(es.sender.member.replace('{{name}}', 'Lucía Martín')).toBe('Enviado por Lucía Martín');
    expect(en.sender.member.replace('{{name}}', 'Lucía Martín')).toBe('Sent by Lucía Martín');
    expect([es.header.assignTo, es.header.me, es.header.assignedTo]).toEqual(['Asignar a', 'Yo', 'Asignada a {{name}}']);
  });
});
