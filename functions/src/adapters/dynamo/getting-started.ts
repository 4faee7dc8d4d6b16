/**
 * The getting-started checklist's reads and its two small writes (ACCESS-PATTERNS.md "Getting
 * started"). Three requests side by side, all in the user's partition:
 *
 * 1. Query sk BETWEEN INTEGRATION# AND INTEGRATION#~, projected to sk + isActive (≤ 3 items).
 * 2. Query the agents range (agents and their children, key order), projected to entity, status,
 *    testedAt, expiresAt; stops at the first page that settles the three agent flags, so a new
 *    account costs one small page and a big one rarely more.
 * 3. BatchGetItem: CONVS#STATS, VCALLS#STATS (counters kept by the conversation and call writes),
 *    BKCOUNT#STAFF and BKCOUNT#SERVICES (the bookings' cap counters, issue 30) and GETTING_STARTED
 *    (the hidden preference).
 *
 * The tested marker is `testedAt` on the agent item, SET once (condition: absent); a container
 * remembers agents it marked so later turns do not write again.
 */
import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { GettingStartedFacts, GettingStartedStore } from '../../domain/dashboard/getting-started.js';
import { batchGetItems } from './batch.js';
import { ignoreConditionFailure } from './conditions.js';
import { userPk } from './keys.js';
import { queryPages } from './query-items.js';

type Item = Record<string, unknown>;
const GETTING_STARTED_SK = 'GETTING_STARTED';
const CONV_STATS_SK = 'CONVS#STATS';
const CALL_STATS_SK = 'VCALLS#STATS';
/** The bookings adapter's cap counters (bookings.ts; not imported: that module is not in this bundle). */
const BOOKING_STAFF_SK = 'BKCOUNT#STAFF';
const BOOKING_SERVICES_SK = 'BKCOUNT#SERVICES';
/** The agents adapter's key prefix (agents.ts AGENT_SK_PREFIX; not imported: that module is not in this bundle). */
const AGENT_PREFIX = 'AGENT#';
const CHANNELS = new Set(['INTEGRATION#whatsapp-business', 'INTEGRATION#twilio-voice']);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const expired = (item: Item) => typeof item.expiresAt === 'number' && item.expiresAt * 1000 <= Date.now();

export class DynamoGettingStartedStore implements GettingStartedStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async facts(userId: string): Promise<GettingStartedFacts> {
    const pk = userPk(userId);
    const [integrations, agents, counters] = await Promise.all([
      this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': pk, ':from': 'INTEGRATION#', ':to': 'INTEGRATION#~' },
          ProjectionExpression: 'sk, isActive',
        }),
      ),
      this.agentFacts(pk),
      batchGetItems(this.db, this.tableName, [CONV_STATS_SK, CALL_STATS_SK, BOOKING_STAFF_SK, BOOKING_SERVICES_SK, GETTING_STARTED_SK].map((sk) => ({ pk, sk }))),
    ]);
    const active = new Set((integrations.Items ?? []).filter((i) => i.isActive === true).map((i) => String(i.sk)));
    const bySk = new Map(counters.map((it) => [String(it.sk), it]));
    const conv = bySk.get(CONV_STATS_SK) ?? {};
    return {
      chatgptConnected: active.has('INTEGRATION#chatgpt'),
      channelConnected: [...active].some((sk) => CHANNELS.has(sk)),
      ...agents,
      conversations: num(conv.active) + num(conv.closed) + num(conv.requires_human) + num(conv.archived) + num(bySk.get(CALL_STATS_SK)?.total),
      bookingStaff: num(bySk.get(BOOKING_STAFF_SK)?.n),
      bookingServices: num(bySk.get(BOOKING_SERVICES_SK)?.n),
      hidden: bySk.get(GETTING_STARTED_SK)?.hidden === true,
    };
  }

  private async agentFacts(pk: string): Promise<Pick<GettingStartedFacts, 'firstAgentId' | 'hasKnowledge' | 'agentTested'>> {
    const out = { firstAgentId: null as string | null, hasKnowledge: false, agentTested: false };
    const agentIds = new Set<string>();
    const pages = queryPages(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': AGENT_PREFIX, ':to': `${AGENT_PREFIX}~` },
      ProjectionExpression: 'sk, entity, agentId, #status, testedAt, expiresAt',
      ExpressionAttributeNames: { '#status': 'status' },
    });
    for await (const page of pages) {
      for (const item of page) {
        if (expired(item)) continue;
        const sk = String(item.sk);
        if (item.entity === 'agent') {
          const id = sk.slice(AGENT_PREFIX.length);
          agentIds.add(id);
          out.firstAgentId ??= id;
          if (typeof item.testedAt === 'string') out.agentTested = true;
        } else if (agentIds.has(String(item.agentId))) {
          // Children of a deleted agent (a delete cut short) have no agent item before them: not counted.
          if (item.entity === 'agentEntry' || ((item.entity === 'agentFile' || item.entity === 'agentUrl') && item.status === 'completed')) out.hasKnowledge = true;
        }
      }
      if (out.firstAgentId && out.hasKnowledge && out.agentTested) break;
    }
    return out;
  }

  async setHidden(userId: string, hidden: boolean, at: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: GETTING_STARTED_SK },
        UpdateExpression: 'SET #hidden = :hidden, updatedAt = :at',
        // HIDDEN is a DynamoDB reserved word.
        ExpressionAttributeNames: { '#hidden': 'hidden' },
        ExpressionAttributeValues: { ':hidden': hidden, ':at': at },
      }),
    );
  }
}

const MARKED_MAX = 10_000;

/** The AgentTestMarker over the agent item: `testedAt` SET once; a deleted agent is not re-created. */
export function dynamoAgentTestMarker(db: DynamoDBDocumentClient, tableName: string, now: () => number = Date.now) {
  const marked = new Set<string>();
  return async (userId: string, agentId: string): Promise<void> => {
    const key = `${userId}/${agentId}`;
    if (marked.has(key)) return;
    await db
      .send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: userPk(userId), sk: `${AGENT_PREFIX}${agentId}` },
          UpdateExpression: 'SET testedAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(testedAt)',
          ExpressionAttributeValues: { ':at': new Date(now()).toISOString() },
        }),
      )
      .catch(ignoreConditionFailure);
    if (marked.size >= MARKED_MAX) marked.clear();
    marked.add(key);
  };
}
