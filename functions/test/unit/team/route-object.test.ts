import { describe, expect, it } from 'vitest';
import { routeObject } from '../../../src/composition/activity.js';

describe('the object an activity entry names (issue 32)', () => {
  it('is the path’s id when the route has one (the last parameter: a file of an agent is the file)', () => {
    expect(routeObject('agent.knowledge_changed', { id: 'A1', fileId: 'F1' }, { data: { _id: 'other' } })).toEqual({ type: 'agent', id: 'F1' });
    expect(routeObject('conversation.replied', { id: 'C1' })).toEqual({ type: 'conversation', id: 'C1' });
  });

  it('is what the route created when the path names nothing (a new agent, an invitation)', () => {
    expect(routeObject('member.invited', {}, { status: 201, data: { _id: '01JINVITATION0000000000000', email: 'lucia@example.com' } })).toEqual({ type: 'member', id: '01JINVITATION0000000000000' });
  });

  it('is no id when there is neither, or the answer is not an object with a short string _id', () => {
    expect(routeObject('contacts.exported', {}, { raw: { statusCode: 200, body: 'a,b' } })).toEqual({ type: 'contacts', id: null });
    expect(routeObject('agent.created', {}, { data: { _id: 42 } })).toEqual({ type: 'agent', id: null });
    expect(routeObject('agent.created', {}, { data: { _id: 'x'.repeat(65) } })).toEqual({ type: 'agent', id: null });
    expect(routeObject('billing.changed', {})).toEqual({ type: 'billing', id: null });
  });
});
