/**
 * Call history seeding for the dashboard test and bench (no vitest imports: the bench uses it):
 * n calls over the last 60 days from n/20 callers written with BatchWriteItem — the call items,
 * the hourly ACT# counters and the CALLER# items exactly as the call loop's writes leave them.
 * Every call is a streamed call with two answered turns, so the day items carry the latency
 * buckets (issue 16) a busy user's do.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { activitySk, callCountKey, callerSk, callersGsi, latencyAttributes } from '../../src/adapters/dynamo/activity.js';
import { newId } from '../../src/lib/ids.js';

const DAY = 24 * 3600_000;

async function batchWrite(db: DynamoDBDocumentClient, tableName: string, items: Record<string, unknown>[]) {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  for (let i = 0; i < chunks.length; i += 16) {
    await Promise.all(
      chunks.slice(i, i + 16).map(async (chunk) => {
        let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length) {
          const res = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
          pending = (res.UnprocessedItems?.[tableName] ?? []) as typeof pending;
        }
      }),
    );
  }
}

/** Seeds n completed 60-second calls with 4 turns each (2 streamed answers); returns how many started in the last 29 days. */
export async function seedCallHistory(db: DynamoDBDocumentClient, tableName: string, userId: string, n: number): Promise<{ last29Days: number }> {
  const now = Date.now();
  const pk = `USER#${userId}`;
  const days = new Map<string, Record<string, number>>();
  const callers = new Map<string, { callCount: number; completedCalls: number; turns: number; lastCall: string }>();
  const items: Record<string, unknown>[] = [];
  let last29Days = 0;
  for (let i = 0; i < n; i++) {
    const at = now - Math.floor((i / n) * 60 * DAY) - 1000;
    const iso = new Date(at).toISOString();
    const phone = `+3460${String(i % Math.max(1, Math.floor(n / 20))).padStart(7, '0')}`;
    const id = newId(at);
    items.push({ pk, sk: `VCALL#${id}`, entity: 'voiceCall', id, userId, status: 'completed', phoneNumber: phone, createdAt: iso, duration: 60_000, messageCount: 4, contact: null, conversationMode: 'streaming' });
    const day = days.get(iso.slice(0, 10)) ?? {};
    const h = iso.slice(11, 13);
    for (const [m, v] of [['calls', 1], ['done', 1], ['sec', 60], ['dsec', 60]] as const) day[`${m}${h}`] = (day[`${m}${h}`] ?? 0) + v;
    day[`max${h}`] = 60;
    // First-token latencies spread over 300–1,200 ms (realistic streamed answers).
    for (const [attr, v] of Object.entries(latencyAttributes([300 + ((i * 37) % 600), 450 + ((i * 53) % 750)], h))) day[attr] = (day[attr] ?? 0) + v;
    days.set(iso.slice(0, 10), day);
    const c = callers.get(phone) ?? { callCount: 0, completedCalls: 0, turns: 0, lastCall: iso };
    c.callCount++;
    c.completedCalls++;
    c.turns += 4;
    callers.set(phone, c);
    if (at > now - 29 * DAY) last29Days++;
  }
  for (const [day, attrs] of days) items.push({ pk, sk: activitySk(day), ...attrs });
  for (const [phone, c] of callers) items.push({ pk, sk: callerSk(phone), phoneNumber: phone, ...c, gsi1pk: callersGsi(userId), gsi1sk: callCountKey(c.callCount) });
  await batchWrite(db, tableName, items);
  return { last29Days };
}
