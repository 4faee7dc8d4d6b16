import { describe, expect, it } from 'vitest';
import { GETTING_STARTED_STEPS } from '@agentdesk/functions/contract';
import { keyPaths } from '../../../i18n/keyPaths';
import en from './i18n/en.json';
import es from './i18n/es.json';
import { stepLink } from './steps';

describe('getting-started step links', () => {
  it('send each step to its screen, the agent tabs once an agent exists', () => {
    expect(GETTING_STARTED_STEPS.map((id) => stepLink(id, 'A1'))).toEqual([
      '/integrations',
      '/agents',
      '/agents/A1?tab=knowledge',
      '/integrations',
      '/agents/A1?tab=test',
      '/bookings/setup',
    ]);
  });

  it('send the agent steps to the agents list while there is no agent', () => {
    expect(stepLink('knowledge', null)).toBe('/agents');
    expect(stepLink('test', null)).toBe('/agents');
  });
});

describe('getting-started strings', () => {
  it('has every English key in Spanish too, and a text for every step', () => {
    expect(keyPaths(es).sort()).toEqual(keyPaths(en).sort());
    for (const id of GETTING_STARTED_STEPS) expect(Object.keys(en.steps[id])).toEqual(['title', 'body', 'action']);
  });
});
