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

describe('dashboard counts in the UI language (issue 19)', () => {
  const t = async (lng: 'en' | 'es') => {
    const i18n = (await import('i18next')).createInstance();
    await i18n.init({ lng, resources: { en: { translation: { dashboard: en } }, es: { translation: { dashboard: es } } }, interpolation: { escapeValue: false } });
    return i18n.t.bind(i18n);
  };

  it("says '1 completada' and '2 completadas' (i18next plural rules), numbers grouped by the locale", async () => {
    const es_ = await t('es');
    expect(es_('dashboard.top.completed', { count: 1 })).toBe('1 completada');
    expect(es_('dashboard.top.completed', { count: 2 })).toBe('2 completadas');
    expect(es_('dashboard.top.calls', { count: 12345 })).toBe('12.345 llamadas');
    const en_ = await t('en');
    expect(en_('dashboard.top.completed', { count: 1 })).toBe('1 completed');
    expect(en_('dashboard.top.calls', { count: 12345 })).toBe('12,345 calls');
  });
});
