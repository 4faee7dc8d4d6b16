import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import { keyPaths as keys } from '../../../i18n/keyPaths';

describe('dashboard strings', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('keeps the spec texts exact (SPEC §2 Dashboard, §8)', () => {
    expect(en.title).toBe('Dashboard');
    expect(en.range).toMatchObject({ '7days': 'Last 7 days', '30days': 'Last 30 days' });
    expect([en.cards.totalCalls, en.cards.completedCalls, en.cards.totalContacts]).toEqual(['Total Voice Calls', 'Completed Calls', 'Total Contacts']);
    expect([en.cards.avgDuration, en.cards.maxDuration, en.cards.totalDuration]).toEqual(['Average Call Duration', 'Max Call Duration', 'Total Calls Duration']);
    expect(en.chart.title).toBe('Voice Calls - Last 30 Days');
    expect(en.chart.caption).toBe('Daily call volume and activity');
    expect(en.chart.empty).toBe('No call data available');
    expect(en.top.title).toBe('Top phone numbers');
    expect(en.recent.title).toBe('Recent Activity');
    expect(en.recent.empty).toBe('No recent activity');
    expect(en.recent.justNow).toBe('Just now');
    expect(en.recent.hoursAgo.replace('{{count}}', '3')).toBe('3h ago');
    expect(en.status.hung_up).toBe('Hung Up');
    expect(en.loading).toBe('Loading dashboard...');
    expect(en.error.title).toBe('Error Loading Dashboard');
    expect(en.error.retry).toBe('Try Again');
    expect(en.banner.title).toBe('Ready to create intelligent AI agents?');
    expect(en.banner.action).toBe('View agents');
  });
});
