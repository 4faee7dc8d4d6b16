import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import { keyPaths as keys } from '../../../i18n/keyPaths';

describe('billing strings', () => {
  it('has every English key in Spanish too', () => {
    expect(keys(es).sort()).toEqual(keys(en).sort());
  });

  it('keeps the spec texts exact', () => {
    expect(en.usage.warning).toBe('Approaching limit. Consider upgrading soon.');
    expect(en.usage.exceeded).toBe('Limit exceeded! Upgrade your plan to continue.');
    expect(en.usage.none).toBe('No usage data available');
    expect(en.portalFailedAlert).toBe('Failed to open billing portal. Please try again.');
    expect(en.noSubscription).toEqual({ title: 'No Subscription Found', body: "You don't have an active subscription yet", viewPlans: 'View Plans' });
    expect(en.loadError.title).toBe('Error Loading Subscription');
    expect(en.success.failedTitle).toBe('Payment Verification Failed');
    expect(en.cancel.scheduledTitle).toBe('Cancellation Scheduled');
    expect(Object.values(en.errors)).toEqual([
      'Failed to fetch plans',
      'Failed to fetch subscription',
      'Failed to fetch analytics',
      'Failed to create checkout session',
      'Failed to update plan',
      'Failed to cancel subscription',
      'Failed to open billing portal',
      'No session ID provided',
      'Failed to verify session',
      'Failed to verify payment',
    ]);
  });
});
