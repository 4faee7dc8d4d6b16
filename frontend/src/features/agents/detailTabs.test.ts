import { describe, expect, it } from 'vitest';
import { parseTab, revertsToDetails, tabNeedsIntegration, tabParams } from './detailTabs';

describe('agent detail tabs', () => {
  it('reads the tab from the URL and falls back to Agent Details', () => {
    expect(parseTab('files')).toBe('files');
    expect(parseTab('test')).toBe('test');
    expect(parseTab('knowledge')).toBe('knowledge');
    expect(parseTab(null)).toBe('details');
    expect(parseTab('nope')).toBe('details');
  });

  it('gates only Files and Web URLs on the ChatGPT integration', () => {
    expect(['details', 'files', 'urls', 'tools', 'knowledge', 'test'].filter((t) => tabNeedsIntegration(parseTab(t)))).toEqual(['files', 'urls']);
  });

  it('reverts a gated tab to Details only when the integration goes from active to inactive', () => {
    expect(revertsToDetails('files', true, false)).toBe(true);
    expect(revertsToDetails('urls', true, false)).toBe(true);
    expect(revertsToDetails('files', false, false)).toBe(false);
    expect(revertsToDetails('files', true, true)).toBe(false);
    expect(revertsToDetails('tools', true, false)).toBe(false);
  });

  it('keeps the other query parameters and drops tab for Details', () => {
    expect(tabParams(new URLSearchParams('x=1'), 'urls').toString()).toBe('x=1&tab=urls');
    expect(tabParams(new URLSearchParams('x=1&tab=urls'), 'details').toString()).toBe('x=1');
  });
});
