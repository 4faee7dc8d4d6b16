import { describe, expect, it } from 'vitest';
import agentsEn from './i18n/en.json';
import agentsEs from './i18n/es.json';
import { keyPaths as keys } from '../../i18n/keyPaths';

const en = { agents: agentsEn };
const es = { agents: agentsEs };

describe('agents strings', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es.agents).sort()).toEqual(keys(en.agents).sort());
  });

  it('keeps the spec texts exact (SPEC §2, §5, §8)', () => {
    expect(en.agents.title).toBe('AI Agents');
    expect(en.agents.card.disabledOverlay).toBe('Agent Disabled');
    expect(en.agents.status).toEqual({ enabled: 'Enabled', disabled: 'Disabled' });
    expect(en.agents.detail.tabs).toEqual({
      details: 'Agent Details',
      files: 'Files ({{count}})',
      urls: 'Web URLs ({{count}})',
      tools: 'Custom Tools ({{count}})',
      test: 'Test Agent',
    });
    expect(en.agents.detail.filesNeedIntegration).toBe('ChatGPT integration required to upload files');
    expect(en.agents.detail.urlsNeedIntegration).toBe('ChatGPT integration required to add web URLs');
    expect(en.agents.detail.integrationRequired.title).toBe('ChatGPT Integration Required');
    expect(en.agents.detail.notFound).toBe('Agent not found');
    expect(en.agents.detail.loadFailed).toBe('Failed to load agent. Please try again.');
    expect(en.agents.details.improveFailed).toBe('Failed to improve text with AI. Please try again.');
    expect(en.agents.toasts).toEqual({
      loadFailed: 'Failed to load agents',
      created: 'Agent created successfully',
      updated: 'Agent updated successfully',
      deleted: 'Agent deleted successfully',
      activated: 'Agent activated successfully',
      deactivated: 'Agent deactivated successfully',
      deleteFailed: 'Failed to delete agent',
      toggleFailed: 'Failed to toggle agent status',
      saveFailed: 'Failed to save agent',
      statusFailed: 'Failed to update agent status. Please try again.',
    });
  });
});
