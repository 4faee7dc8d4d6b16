import { describe, expect, it } from 'vitest';
import { needsInstructionsToEnable } from './enabling';

describe('needsInstructionsToEnable', () => {
  it('blocks enabling a disabled agent without instructions (blank counts as none)', () => {
    expect(needsInstructionsToEnable({ enabled: false, instructions: '' })).toBe(true);
    expect(needsInstructionsToEnable({ enabled: false, instructions: '  \n' })).toBe(true);
  });

  it('allows enabling once instructions are saved, and never blocks disabling', () => {
    expect(needsInstructionsToEnable({ enabled: false, instructions: 'Responde en español' })).toBe(false);
    expect(needsInstructionsToEnable({ enabled: true, instructions: '' })).toBe(false);
  });
});
