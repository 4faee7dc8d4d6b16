/**
 * The voice relay's connection records on DynamoDB Local (adapters/dynamo/voice-relay.ts): a warm
 * container answers a caller's frames after the first without reading the record again, another
 * container reads it once, and a deleted or expired connection is unknown.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '../../src/adapters/aws/dynamo-document.js';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DynamoRelayConnectionStore, RELAY_ITEM_TTL_S } from '../../src/adapters/dynamo/voice-relay.js';
import type { RelayConnectionRecord } from '../../src/domain/voice/relay/ports.js';
import { newId } from '../../src/lib/ids.js';
import { tableName } from '../support/api.js';
import { testDocumentClient } from '../support/stack-clients.js';

/** The document client, counting the commands each store sends by name. */
function countingClient() {
  const db = testDocumentClient();
  const sent: string[] = [];
  const counting = { send: (command: { constructor: { name: string } }) => (sent.push(command.constructor.name), db.send(command as never)) } as unknown as DynamoDBDocumentClient;
  return { db: counting, reads: () => sent.filter((name) => name === 'GetCommand').length };
}

const record = (): RelayConnectionRecord => ({ connectionId: `${randomUUID()}=`, userId: randomUUID(), callId: newId(), agentId: newId(), connectedAt: new Date().toISOString() });

describe('relay connection records', () => {
  it('are read once per container: the container that wrote one never reads it, another reads it once', async () => {
    const r = record();
    const writer = countingClient();
    const accepting = new DynamoRelayConnectionStore(writer.db, tableName());
    await accepting.put(r);

    expect(await accepting.get(r.connectionId)).toEqual(r);
    expect(writer.reads()).toBe(0);

    const other = countingClient();
    const framing = new DynamoRelayConnectionStore(other.db, tableName());
    expect(await framing.get(r.connectionId)).toEqual(r);
    expect(await framing.get(r.connectionId)).toEqual(r);
    expect(other.reads()).toBe(1);
  });

  it('are unknown once deleted, and in another container once the item is gone', async () => {
    const r = record();
    const store = new DynamoRelayConnectionStore(testDocumentClient(), tableName());
    await store.put(r);
    await store.delete(r.connectionId);
    expect(await store.get(r.connectionId)).toBeNull();

    const s = record();
    await store.put(s);
    await testDocumentClient().send(new DeleteCommand({ TableName: tableName(), Key: { pk: `RELAYCONN#${s.connectionId}`, sk: 'RELAYCONN' } }));
    expect(await new DynamoRelayConnectionStore(testDocumentClient(), tableName()).get(s.connectionId)).toBeNull();
  });

  it('are unknown once expired, remembered or not', async () => {
    let now = Date.now();
    const r = record();
    const store = new DynamoRelayConnectionStore(testDocumentClient(), tableName(), () => now);
    await store.put(r);
    now += RELAY_ITEM_TTL_S * 1000 + 1;
    expect(await store.get(r.connectionId)).toBeNull();
    expect(await new DynamoRelayConnectionStore(testDocumentClient(), tableName(), () => now).get(r.connectionId)).toBeNull();
  });
});
