/**
 * The fake Stripe reads request parameters exactly as the official SDK writes them:
 * form-encoded, bracket notation, indexed arrays.
 */
import { describe, expect, it } from 'vitest';
import { metadataParam, parseStripeParams, splitKey } from '../../../local/fake-stripe/form.js';

describe('fake Stripe form parsing', () => {
  it('splits bracket keys into their parts', () => {
    expect(splitKey('line_items[0][price]')).toEqual(['line_items', '0', 'price']);
    expect(splitKey('expand[]')).toEqual(['expand', '']);
    expect(splitKey('email')).toEqual(['email']);
  });

  it('parses a checkout body as the SDK encodes it into nested objects and arrays', () => {
    const body =
      'mode=subscription&customer=cus_1&line_items[0][price]=price_local_starter&line_items[0][quantity]=1' +
      '&success_url=http%3A%2F%2Flocalhost%3A3000%2Fsubscription%2Fsuccess%3Fsession_id%3D%7BCHECKOUT_SESSION_ID%7D' +
      '&subscription_data[trial_period_days]=5&subscription_data[metadata][userId]=u-1&metadata[plan]=starter' +
      '&allow_promotion_codes=true';

    const params = parseStripeParams(body);

    expect(params).toEqual({
      mode: 'subscription',
      customer: 'cus_1',
      line_items: [{ price: 'price_local_starter', quantity: '1' }],
      success_url: 'http://localhost:3000/subscription/success?session_id={CHECKOUT_SESSION_ID}',
      subscription_data: { trial_period_days: '5', metadata: { userId: 'u-1' } },
      metadata: { plan: 'starter' },
      allow_promotion_codes: 'true',
    });
  });

  it('accepts percent-encoded brackets, `[]` appends and indexed arrays in index order', () => {
    const params = parseStripeParams('expand%5B0%5D=subscription&expand%5B1%5D=line_items&items[1][price]=b&items[0][id]=si_1&tags[]=x&tags[]=y');

    expect(params.expand).toEqual(['subscription', 'line_items']);
    expect(params.items).toEqual([{ id: 'si_1' }, { price: 'b' }]);
    expect(params.tags).toEqual(['x', 'y']);
  });

  it('reads a URLSearchParams query the same way', () => {
    const params = parseStripeParams(new URL('http://x/v1/subscriptions?customer=cus_1&expand[0]=data.customer').searchParams);

    expect(params).toEqual({ customer: 'cus_1', expand: ['data.customer'] });
  });

  it('keeps metadata values as strings, including the empty string that unsets a key', () => {
    const params = parseStripeParams('metadata[userId]=u-1&metadata[old]=');

    expect(metadataParam(params)).toEqual({ userId: 'u-1', old: '' });
    expect(metadataParam(parseStripeParams('metadata='))).toEqual({});
    expect(metadataParam(parseStripeParams('email=a'))).toBeUndefined();
  });
});
