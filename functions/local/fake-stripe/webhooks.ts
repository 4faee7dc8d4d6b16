/**
 * Webhook delivery as Stripe does it: POST the event as JSON to the endpoint with a
 * `Stripe-Signature: t=<unix>,v1=<HMAC-SHA256 of "t.payload">` header made by the SDK's own
 * generateTestHeaderString(), so the app verifies it with stripe.webhooks.constructEvent()
 * exactly as in production.
 *
 * Events go out one at a time in the order they were emitted. A non-2xx answer (or no answer)
 * is retried in the background with backoff, like Stripe's retries, so a retry can arrive
 * after later events. Every attempt is recorded for GET /_test/deliveries.
 */
import Stripe from 'stripe';
import type { StripeEventObject } from './objects.js';

export interface DeliveryAttempt {
  at: string;
  /** HTTP status, or null when the request failed (connection refused, timeout). */
  status: number | null;
  error?: string;
}

export interface Delivery {
  eventId: string;
  type: string;
  /** data.object.id (a sub_, cs_, in_ id). */
  objectId: string;
  /** The customer the event is about, when it has one. */
  customer: string | null;
  url: string;
  state: 'pending' | 'retrying' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
}

export interface WebhookDelivererOptions {
  /** Endpoint URL; a function so it can be set after the app's port is known. */
  url: () => string | undefined;
  secret: string;
  /** Delays before each retry (ms). Default 1 s, 5 s, 20 s: three retries. */
  retryDelaysMs?: number[];
  timeoutMs?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

const MAX_RECORDS = 2000;

export class WebhookDeliverer {
  readonly deliveries: Delivery[] = [];
  private chain: Promise<void> = Promise.resolve();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly retryDelays: number[];
  private stopped = false;

  constructor(private readonly options: WebhookDelivererOptions) {
    this.retryDelays = options.retryDelaysMs ?? [1000, 5000, 20_000];
  }

  /** Queue an event; its first attempt happens after every event queued before it. */
  enqueue(event: StripeEventObject): void {
    const data = event.data.object as { id: string; customer?: unknown; object?: string };
    const url = this.options.url();
    if (!url || this.stopped) return;
    const delivery: Delivery = {
      eventId: event.id,
      type: event.type,
      objectId: data.id,
      customer: data.object === 'customer' ? data.id : typeof data.customer === 'string' ? data.customer : null,
      url,
      state: 'pending',
      attempts: [],
    };
    this.deliveries.push(delivery);
    if (this.deliveries.length > MAX_RECORDS) this.deliveries.splice(0, this.deliveries.length - MAX_RECORDS);
    const payload = JSON.stringify(event, null, 2);
    this.schedule(() => this.attempt(delivery, payload, 0));
  }

  /** Resolves when every event queued so far has had its first attempt. */
  flush(): Promise<void> {
    return this.chain;
  }

  /** Resolves when nothing is pending or waiting for a retry. */
  async drain(): Promise<void> {
    for (;;) {
      await this.chain;
      if (this.stopped) return;
      const busy = this.deliveries.some((d) => d.state === 'pending' || d.state === 'retrying');
      if (this.timers.size === 0 && !busy) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(task: () => Promise<void>): void {
    this.chain = this.chain.then(task, task);
  }

  private async attempt(delivery: Delivery, payload: string, retry: number): Promise<void> {
    if (this.stopped) return;
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: this.options.secret });
    let status: number | null = null;
    let error: string | undefined;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': header,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          accept: '*/*; q=0.5, application/xml',
        },
        body: payload,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    delivery.attempts.push({ at: new Date().toISOString(), status, ...(error ? { error } : {}) });
    if (status !== null && status >= 200 && status < 300) {
      delivery.state = 'delivered';
      return;
    }
    const delay = this.retryDelays[retry];
    const reason = status === null ? error : `HTTP ${status}`;
    if (delay === undefined) {
      delivery.state = 'failed';
      this.options.log?.('warn', `[stripe] webhook ${delivery.type} ${delivery.eventId} failed (${reason}); giving up`);
      return;
    }
    delivery.state = 'retrying';
    this.options.log?.('info', `[stripe] webhook ${delivery.type} ${delivery.eventId} failed (${reason}); retry in ${delay} ms`);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.schedule(() => this.attempt(delivery, payload, retry + 1));
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}
