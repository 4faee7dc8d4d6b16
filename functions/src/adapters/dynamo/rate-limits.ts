/**
 * RateLimiter over the single table: fixed windows, one counter item per (action, e-mail,
 * window) at pk=EMAIL#{sha256(email)}, sk=RATE#{action}#{windowSeconds}#{windowIndex},
 * incremented with an atomic ADD and expiring (TTL) when the window is over.
 */
import { DeleteCommand, UpdateCommand } from '../aws/dynamo-document.js';
import type { DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { Clock, RateDecision, RateLimiter, RateReservation, RateRule } from '../../domain/auth/ports.js';
import { batchGetItems } from './batch.js';
import { ignoreConditionFailure, isConditionFailure } from './conditions.js';
import { emailPk } from './keys.js';

type WindowKey = { pk: string; sk: string };

export class DynamoRateLimiter implements RateLimiter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  private window(action: string, email: string, rule: RateRule) {
    const nowSeconds = Math.floor(this.clock.now() / 1000);
    const index = Math.floor(nowSeconds / rule.windowSeconds);
    const endsAt = (index + 1) * rule.windowSeconds;
    return {
      key: { pk: emailPk(email), sk: `RATE#${action}#${rule.windowSeconds}#${index}` },
      endsAt,
      retryAfterSeconds: Math.max(1, endsAt - nowSeconds),
    };
  }

  async hit(action: string, email: string, rules: readonly RateRule[]): Promise<RateDecision> {
    const counts = await Promise.all(
      rules.map(async (rule) => {
        const w = this.window(action, email, rule);
        const { Attributes } = await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: w.key,
            UpdateExpression: 'ADD #c :one SET expiresAt = :exp, entity = :entity',
            ExpressionAttributeNames: { '#c': 'count' },
            ExpressionAttributeValues: { ':one': 1, ':exp': w.endsAt + 60, ':entity': 'rate' },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        return { rule, window: w, count: Number(Attributes?.count ?? 0) };
      }),
    );
    return decide(counts.filter((c) => c.count > c.rule.max));
  }

  /** One conditional ADD per window (count < max); a refusal gives back the windows already taken. */
  async reserve(action: string, email: string, rules: readonly RateRule[]): Promise<RateReservation> {
    const taken: WindowKey[] = [];
    for (const rule of rules) {
      const w = this.window(action, email, rule);
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: w.key,
            UpdateExpression: 'ADD #c :one SET expiresAt = :exp, entity = :entity',
            ConditionExpression: 'attribute_not_exists(#c) OR #c < :max',
            ExpressionAttributeNames: { '#c': 'count' },
            ExpressionAttributeValues: { ':one': 1, ':max': rule.max, ':exp': w.endsAt + 60, ':entity': 'rate' },
          }),
        );
        taken.push(w.key);
      } catch (error) {
        await this.giveBack(taken);
        if (isConditionFailure(error)) return { allowed: false, retryAfterSeconds: w.retryAfterSeconds };
        throw error;
      }
    }
    return { allowed: true, release: () => this.giveBack(taken) };
  }

  /** Un-counts one event in each window (never below zero). */
  private async giveBack(keys: readonly WindowKey[]): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.db
          .send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: key,
              UpdateExpression: 'ADD #c :minusOne',
              ConditionExpression: '#c > :zero',
              ExpressionAttributeNames: { '#c': 'count' },
              ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
            }),
          )
          .catch(ignoreConditionFailure),
      ),
    );
  }

  async peek(action: string, email: string, rules: readonly RateRule[]): Promise<RateDecision> {
    const windows = rules.map((rule) => ({ rule, window: this.window(action, email, rule) }));
    const items = await batchGetItems(
      this.db,
      this.tableName,
      windows.map((w) => w.window.key),
      { consistentRead: true },
    );
    const counts = windows.map((w) => ({
      ...w,
      count: Number(items.find((i) => i.sk === w.window.key.sk)?.count ?? 0),
    }));
    return decide(counts.filter((c) => c.count >= c.rule.max));
  }

  async clear(action: string, email: string, rules: readonly RateRule[]): Promise<void> {
    await Promise.all(
      rules.map((rule) =>
        this.db.send(new DeleteCommand({ TableName: this.tableName, Key: this.window(action, email, rule).key })),
      ),
    );
  }
}

function decide(exceeded: { window: { retryAfterSeconds: number } }[]): RateDecision {
  if (exceeded.length === 0) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(...exceeded.map((e) => e.window.retryAfterSeconds)) };
}
