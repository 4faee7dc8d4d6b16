/** The 402 of every paid feature; also imported alone by http/handler.ts (so bundles skip the rest). */
export const subscriptionRequiredMessage = 'An active subscription is required';

/** User-facing texts of the billing calls (SPEC §8 Subscription): written for the person reading the toast. */
export const billingServerMessages = {
  noSubscription: 'No subscription found',
  subscriptionRequired: subscriptionRequiredMessage,
  alreadyActive: 'You already have an active subscription. Change your plan instead.',
  paymentProblem:
    'Your subscription has an unpaid invoice. Update your payment method in the billing portal to keep your plan.',
  planDisabled: 'This plan is not available right now. Contact us to subscribe to it.',
  samePlan: 'You are already on this plan',
  /** Issue 32: a plan with fewer seats than the account's people (owner included). */
  teamTooLarge: (seats: number | string, people: number | string, remove: number | string) =>
    `This plan has ${seats} seats and your team has ${people} people, you included. Remove ${remove} from your team before changing to it.`,
  subscriptionEnded: 'Your subscription has ended. Choose a plan to subscribe again.',
  sessionNotFound: 'Checkout session not found',
  invalidSessionId: 'Invalid session ID',
  /** The deployment has no Stripe keys (composition/stripe.ts). */
  notConfigured: 'Payments are not configured. Please contact support.',
  userNotFound: 'User not found',
  checkoutCreated: 'Checkout session created',
  planChanged: 'Plan updated successfully',
  canceledNow: 'Subscription canceled',
  canceledAtPeriodEnd: 'Your subscription will be canceled at the end of the current billing period',
  alreadyCanceling: 'Your subscription is already scheduled to be canceled at the end of the current billing period',
  portalCreated: 'Billing portal session created',
  paymentVerified: 'Payment verified successfully',
  paymentPending: 'Your payment has not been completed yet',
  providerUnavailable: 'The payment provider could not be reached. Please try again in a moment.',
  providerRejected: 'The payment provider could not process this request. Please try again or contact support.',
  /** The Stripe price has no amount (or another amount) in the account's currency: never charge what was not shown. */
  currencyUnavailable: 'Payments in your currency are not available right now. Please contact support.',
  invalidSignature: 'Invalid Stripe signature',
  webhookNotJson: 'Stripe webhook body is not valid JSON',
  webhookNotEvent: 'Stripe webhook body is not a Stripe event (an object with an id and a type)',
  eventDuplicate: 'Event already processed',
  eventIgnored: 'Event type ignored',
  eventSubscriptionUnknown: 'Event ignored: the subscription does not exist at Stripe',
  eventProcessed: 'Event processed',
} as const;
