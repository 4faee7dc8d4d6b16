import { describe, expect, it } from 'vitest';
import { agentMessages } from '@agentdesk/functions/contract';
import enFile from './i18n.en.json';
import esFile from './i18n.es.json';
import { formatBytes } from './format';
import { keyPaths as keys } from '../../../i18n/keyPaths';

const en = enFile.agentTabs;
const es = esFile.agentTabs;

describe('agent tab strings', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('keeps the spec texts exact', () => {
    expect(en.files.deleteConfirm).toBe('Are you sure you want to delete this file? This action cannot be undone.');
    expect(en.files.deleted).toBe('File deleted successfully');
    expect(en.files.deleteFailed).toBe('Failed to delete file. Please try again.');
    expect(en.files.uploadFailed).toBe('Failed to upload files. Please try again.');
    expect(en.status.pending).toBe('Processing...');
    expect(en.urls.deleteConfirm).toBe('Are you sure you want to delete this URL?');
    expect(en.urls.addFailed).toBe('Failed to add URLs. Please try again.');
    expect(en.urls.deleteFailed).toBe('Failed to delete URL. Please try again.');
    expect(en.tools.deleteConfirm).toBe('Are you sure you want to delete this tool?');
    expect(en.tools.httpRequest).toBe('HTTP Request');
    expect(en.tools.viewExamples).toBe('View Examples');
    expect(en.tools.addTool).toBe('Add Tool');
    expect(en.tools.emptyTitle).toBe('No tools configured');
    expect([en.tools.loadFailed, en.tools.saveFailed, en.tools.deleteFailed]).toEqual([
      'Failed to load tools. Please try again.',
      'Failed to save tool. Please try again.',
      'Failed to delete tool. Please try again.',
    ]);
    expect([en.tools.form.name, en.tools.form.type, en.tools.form.description, en.tools.form.endpoint, en.tools.form.method]).toEqual([
      'Tool Name',
      'Tool Type',
      'Description',
      'Endpoint (URL)',
      'Method',
    ]);
    expect([en.tools.form.headerKey, en.tools.form.headerValue]).toEqual(['Header Key', 'Header Value']);
    expect(en.chat.sendFailed).toBe('Failed to send message. Please try again.');
  });

  it('has Spanish for every fixed agents message of the contract', () => {
    const fixed = (Object.entries(agentMessages) as [string, unknown][]).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    for (const [key, text] of fixed) {
      expect(en.server.agent, key).toHaveProperty([key], text);
      expect(es.server.agent, key).toHaveProperty([key]);
    }
  });

  it('formats sizes', () => {
    expect([formatBytes(0), formatBytes(512), formatBytes(1536), formatBytes(12 * 1024 * 1024)]).toEqual(['0 B', '512 B', '1.5 KB', '12 MB']);
  });
});
