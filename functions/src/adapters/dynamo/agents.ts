/**
 * Agents over the single table (see ACCESS-PATTERNS.md, "Integrations, agents and knowledge"):
 *
 * - pk=USER#{u}, sk=AGENT#{agentId}: the agent (entity 'agent').
 * - pk=USER#{u}, sk=AGENT#{agentId}#FILE#{fileId} / #URL#{urlId} / #TOOL#{toolId} / #ENTRY#{entryId}: its
 *   children (entities 'agentFile', 'agentUrl', 'agentTool', 'agentEntry'; the agent item counts its
 *   entries in `entryCount`); a file also carries gsi1pk=USER#{u}#FILE#{fileId},
 *   gsi1sk=FILE for GET /api/files/{id}.
 *
 * Ids are time-sortable (lib/ids.ts), so one Query over sk 'AGENT#{id}'..'AGENT#{id}~' returns the
 * agent followed by its children, each kind oldest first, and one over 'AGENT#'..'AGENT#~' every
 * agent in creation order. (Ranges rather than begins_with: DynamoDB Local walks the whole
 * partition for begins_with.) Children are created in a transaction with a ConditionCheck on the
 * agent, so none is ever written under a deleted agent.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { AGENT_LIMITS, DEFAULT_MIN_RELEVANCE } from '../../contract/agent-limits.js';
import { WHATSAPP_TOOLS_OFF } from '../../contract/whatsapp-media.js';
import type { AddEntryOutcome } from '../../domain/agents/entries.js';
import type { AgentReader, AgentRecord, AgentWithChildren, EntryRecord, FileRecord, ToolRecord, UrlRecord } from '../../domain/agents/ports.js';
import type { AgentChanges, AgentRepository, FileStatusChange } from '../../domain/agents/repository.js';
import type {
  KnowledgeSourceKind,
  KnowledgeSourceRecord,
  KnowledgeSources,
  KnowledgeSourceUpdate,
  KnowledgeState,
  SettleResult,
} from '../../domain/knowledge/ports.js';
import { isId } from '../../lib/ids.js';
import { batchDeleteKeys } from './batch.js';
import { unlessConditionFails } from './conditions.js';
import { bool, itemCodec, list, num, optNum, optStr, str, strOr, valueOr } from './item-codec.js';
import { userPk } from './keys.js';
import { queryItems } from './query-items.js';
import { cancellationReasons, conditionFailedAt, transactWrite } from './transact.js';

type Item = Record<string, unknown>;
type ChildKind = 'FILE' | 'URL' | 'TOOL' | 'ENTRY';

export const AGENT_SK_PREFIX = 'AGENT#';
export const agentSk = (agentId: string) => `${AGENT_SK_PREFIX}${agentId}`;
export const childSk = (agentId: string, kind: ChildKind, id: string) => `${agentSk(agentId)}#${kind}#${id}`;
export const fileGsiPk = (userId: string, fileId: string) => `USER#${userId}#FILE#${fileId}`;
export const FILE_GSI_SK = 'FILE';

const ENTITY = { agent: 'agent', FILE: 'agentFile', URL: 'agentUrl', TOOL: 'agentTool', ENTRY: 'agentEntry' } as const;
const KIND_OF_SOURCE: Record<KnowledgeSourceKind, ChildKind> = { file: 'FILE', url: 'URL', entry: 'ENTRY' };
/**
 * A file item waiting for its browser upload expires (table TTL) if the upload is never
 * confirmed; confirming removes `expiresAt`. Upload links live 1 hour, so a day is generous.
 */
export const UPLOADING_TTL_SECONDS = 24 * 3600;

/** DynamoDB deletes expired items late (DynamoDB Local never): readers treat them as gone. */
const expired = (item: Item) => typeof item.expiresAt === 'number' && item.expiresAt * 1000 <= Date.now();

const toAgent = itemCodec<AgentRecord>({
  _id: str,
  name: str,
  description: str,
  objective: str,
  instructions: str,
  knowledgeBase: str,
  priority: num,
  enabled: bool,
  // Agents stored before these settings existed read as English at the default threshold.
  language: strOr<AgentRecord['language']>('en'),
  minRelevance: (v) => (typeof v === 'number' && v >= 0 && v <= 1 ? v : DEFAULT_MIN_RELEVANCE),
  // Off for agents stored before the booking tools (issue 30).
  bookingsEnabled: (v) => v === true,
  // Each switch off for agents stored before the WhatsApp tools (issue 31).
  whatsappTools: (v) => {
    const t = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
    return { sendFiles: t.sendFiles === true, sendLocation: t.sendLocation === true, offerChoices: t.offerChoices === true };
  },
  knowledgeVersion: num,
  createdAt: str,
  updatedAt: str,
});

/** The ingestion outcome a file and a URL share, and their processing round; each field only when set. */
const ingestion = { error: optStr, chunkCount: optNum, contentHash: optStr, generation: optStr } as const;

const fileCodec = itemCodec<FileRecord>({
  id: str,
  _id: str,
  agentId: str,
  originalName: str,
  mimeType: str,
  size: num,
  uploadedAt: str,
  status: strOr<FileRecord['status']>('pending'),
  s3Key: str,
  // Not sent to customers unless the owner says so (issue 31; files stored before it too).
  shareable: (v) => v === true,
  ...ingestion,
  // Meta's media id of its last send_file upload (issue 31, agent-file-media.ts), when whole.
  metaMedia: (v) => {
    const m = v as Record<string, unknown> | null | undefined;
    return m && typeof m.phoneId === 'string' && typeof m.mediaId === 'string' && typeof m.at === 'string' ? { phoneId: m.phoneId, mediaId: m.mediaId, at: m.at } : undefined;
  },
});
/** A file's `id` repeats its `_id`. */
const toFile = (item: Item): FileRecord => fileCodec({ ...item, id: item._id });

const toUrl = itemCodec<UrlRecord>({
  _id: str,
  agentId: str,
  link: str,
  status: strOr<UrlRecord['status']>('pending'),
  lastUpdateAt: str,
  ...ingestion,
  title: optStr,
});

const toTool = itemCodec<ToolRecord>({
  _id: str,
  agentId: str,
  name: str,
  description: str,
  type: () => 'http_request',
  properties: valueOr<ToolRecord['properties']>(() => ({})),
  required: list<string>,
  endpoint: str,
  method: strOr<ToolRecord['method']>('GET'),
  headerKey: str,
  sealedHeaderValue: str,
  createdAt: str,
  updatedAt: str,
});

const toEntry = itemCodec<EntryRecord>({
  _id: str,
  agentId: str,
  question: str,
  answer: str,
  createdAt: str,
  updatedAt: str,
});

/**
 * The condition of a job's outcome (issue 34): the file or URL still exists and is pending in the
 * job's processing round, so a completed or failed source, or one reprocessed since, is never
 * overwritten. A job without a round (queued before rounds existed) matches a source without one.
 */
function pendingInRound(generation: string | undefined): { condition: string; names: Record<string, string>; values: Record<string, unknown> } {
  const names = { '#status': 'status', '#generation': 'generation' };
  const pending = 'attribute_exists(pk) AND #status = :pendingStatus';
  if (generation === undefined) return { condition: `${pending} AND attribute_not_exists(#generation)`, names, values: { ':pendingStatus': 'pending' } };
  return { condition: `${pending} AND #generation = :generation`, names, values: { ':pendingStatus': 'pending', ':generation': generation } };
}

/** Groups a key-ordered run of agent and child items into agents with their children. */
function groupAgents(items: readonly Item[]): AgentWithChildren[] {
  const byId = new Map<string, AgentWithChildren>();
  const out: AgentWithChildren[] = [];
  for (const item of items) {
    if (expired(item)) continue;
    if (item.entity === ENTITY.agent) {
      const agent: AgentWithChildren = { ...toAgent(item), files: [], urls: [], tools: [], entries: [] };
      byId.set(agent._id, agent);
      out.push(agent);
      continue;
    }
    // Children of a deleted agent (a delete cut short) have no agent item: skipped.
    const parent = byId.get(str(item.agentId));
    if (!parent) continue;
    if (item.entity === ENTITY.FILE) parent.files.push(toFile(item));
    else if (item.entity === ENTITY.URL) parent.urls.push(toUrl(item));
    else if (item.entity === ENTITY.TOOL) parent.tools.push(toTool(item));
    else if (item.entity === ENTITY.ENTRY) parent.entries.push(toEntry(item));
  }
  return out;
}

/** SET clauses, names and values for the defined fields (the UpdateExpression's dynamic part). */
function setDefined(fields: Record<string, unknown>, names: Record<string, string>, values: Record<string, unknown>, sets: string[]) {
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
}

/**
 * Invalidates the agent's cached knowledge (retrieval keys on the version); a deleted agent is left
 * alone (null). Answers the new version and the agent's language (the index snapshot's label).
 */
async function bumpKnowledgeVersion(db: DynamoDBDocumentClient, tableName: string, userId: string, agentId: string): Promise<KnowledgeState | null> {
  const out = await unlessConditionFails(
    db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: userPk(userId), sk: agentSk(agentId) },
        UpdateExpression: 'ADD knowledgeVersion :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  if (!out?.Attributes) return null;
  const { knowledgeVersion, language } = toAgent(out.Attributes);
  return { knowledgeVersion, language };
}

/**
 * The reads of an agent with its children (AgentReader): what the voice relay needs, without the
 * repository's writes (a live call's cold start loads every byte of its bundle).
 */
export class DynamoAgentReader implements AgentReader {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {}

  /** Every item with sk in [from, to], in key order (pages followed). */
  protected queryRange(userId: string, from: string, to: string): Promise<Item[]> {
    return queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':from': from, ':to': to },
      ConsistentRead: true,
    });
  }

  async get(userId: string, agentId: string): Promise<AgentWithChildren | null> {
    // Callers pass path and query parameters: what cannot be an id is not read (nor sent as a key DynamoDB refuses).
    if (!isId(agentId)) return null;
    const items = await this.queryRange(userId, agentSk(agentId), `${agentSk(agentId)}~`);
    return groupAgents(items).find((a) => a._id === agentId) ?? null;
  }

  async list(userId: string): Promise<AgentWithChildren[]> {
    return groupAgents(await this.queryRange(userId, AGENT_SK_PREFIX, `${AGENT_SK_PREFIX}~`));
  }
}

export class DynamoAgentRepository extends DynamoAgentReader implements AgentRepository {
  // ------------------------------------------------------------------ reads

  async getAgent(userId: string, agentId: string): Promise<AgentRecord | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: agentSk(agentId) }, ConsistentRead: true }),
    );
    return Item ? toAgent(Item) : null;
  }

  private async getChild(userId: string, agentId: string, kind: ChildKind, id: string): Promise<Item | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: childSk(agentId, kind, id) }, ConsistentRead: true }),
    );
    return Item ?? null;
  }

  // ------------------------------------------------------------------ agents

  async createAgent(userId: string, agent: AgentRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: userPk(userId), sk: agentSk(agent._id), entity: ENTITY.agent, ...agent },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async updateAgent(userId: string, agentId: string, changes: AgentChanges, updatedAt: string): Promise<AgentRecord | null> {
    const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
    const values: Record<string, unknown> = { ':updatedAt': updatedAt };
    const sets = ['#updatedAt = :updatedAt'];
    const { whatsappTools, ...fields } = changes;
    setDefined(fields, names, values, sets);
    // Each WhatsApp tool switch on its own path, so two owners' edits of different switches both stand.
    const switches = Object.entries(whatsappTools ?? {}).filter((e): e is [string, boolean] => typeof e[1] === 'boolean');
    if (switches.length > 0) {
      await this.ensureWhatsAppTools(userId, agentId);
      names['#whatsappTools'] = 'whatsappTools';
      for (const [name, on] of switches) {
        names[`#wt_${name}`] = name;
        values[`:wt_${name}`] = on;
        sets.push(`#whatsappTools.#wt_${name} = :wt_${name}`);
      }
    }
    // An enabled agent always has instructions: guard the half of the pair the change leaves stored.
    const conditions = ['attribute_exists(pk)'];
    if (changes.enabled === true && changes.instructions === undefined) {
      names['#instructions'] = 'instructions';
      values[':noText'] = '';
      conditions.push('#instructions <> :noText');
    }
    if (changes.instructions === '' && changes.enabled === undefined) {
      names['#enabled'] = 'enabled';
      values[':on'] = true;
      conditions.push('#enabled <> :on');
    }
    const updated = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: agentSk(agentId) },
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return updated?.Attributes ? toAgent(updated.Attributes) : null;
  }

  /** An agent stored before the WhatsApp tools gets their map (all off), so a switch's own path can be set. */
  private async ensureWhatsAppTools(userId: string, agentId: string): Promise<void> {
    await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: agentSk(agentId) },
          UpdateExpression: 'SET #whatsappTools = :off',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#whatsappTools) OR NOT attribute_type(#whatsappTools, :map))',
          ExpressionAttributeNames: { '#whatsappTools': 'whatsappTools' },
          ExpressionAttributeValues: { ':off': { ...WHATSAPP_TOOLS_OFF }, ':map': 'M' },
        }),
      ),
    );
  }

  async deleteAgent(userId: string, agentId: string): Promise<AgentWithChildren | null> {
    const agentItem = await this.deleteItem(userId, agentSk(agentId));
    if (!agentItem) return null;
    // The agent item goes first: from then on no child can be added (their ConditionCheck fails).
    const children = await this.queryRange(userId, `${agentSk(agentId)}#`, `${agentSk(agentId)}#~`);
    await batchDeleteKeys(this.db, this.tableName, children.map((c) => ({ pk: c.pk, sk: c.sk })));
    return groupAgents([agentItem, ...children])[0] ?? null;
  }

  async bumpKnowledgeVersion(userId: string, agentId: string): Promise<void> {
    await bumpKnowledgeVersion(this.db, this.tableName, userId, agentId);
  }

  // ------------------------------------------------------------------ children

  /** Puts new children of an agent in one transaction guarded by the agent's existence. */
  private async addChildren(userId: string, agentId: string, items: readonly Item[]): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              ConditionCheck: {
                TableName: this.tableName,
                Key: { pk: userPk(userId), sk: agentSk(agentId) },
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            ...items.map((Item) => ({
              Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' },
            })),
          ],
        }),
      );
      return true;
    } catch (error) {
      // The first item, the agent's ConditionCheck, failed: the agent is gone.
      if (conditionFailedAt(error, 0)) return false;
      throw error;
    }
  }

  /** Deletes the item if it exists; returns what it was, or null if there was none. */
  private async deleteItem(userId: string, sk: string): Promise<Item | null> {
    const deleted = await unlessConditionFails(
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk },
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
    return (deleted?.Attributes as Item | undefined) ?? null;
  }

  private deleteChild(userId: string, agentId: string, kind: ChildKind, id: string): Promise<Item | null> {
    return this.deleteItem(userId, childSk(agentId, kind, id));
  }

  private toolItem(userId: string, tool: ToolRecord): Item {
    return { pk: userPk(userId), sk: childSk(tool.agentId, 'TOOL', tool._id), entity: ENTITY.TOOL, ...tool };
  }

  addTool(userId: string, tool: ToolRecord): Promise<boolean> {
    return this.addChildren(userId, tool.agentId, [this.toolItem(userId, tool)]);
  }

  async replaceTool(userId: string, tool: ToolRecord): Promise<boolean> {
    const put = await unlessConditionFails(
      this.db.send(
        new PutCommand({ TableName: this.tableName, Item: this.toolItem(userId, tool), ConditionExpression: 'attribute_exists(pk)' }),
      ),
    );
    return put !== null;
  }

  async deleteTool(userId: string, agentId: string, toolId: string): Promise<boolean> {
    return (await this.deleteChild(userId, agentId, 'TOOL', toolId)) !== null;
  }

  addFiles(userId: string, agentId: string, files: readonly FileRecord[]): Promise<boolean> {
    return this.addChildren(
      userId,
      agentId,
      files.map((f) => ({
        pk: userPk(userId),
        sk: childSk(agentId, 'FILE', f._id),
        entity: ENTITY.FILE,
        gsi1pk: fileGsiPk(userId, f._id),
        gsi1sk: FILE_GSI_SK,
        ...f,
        ...(f.status === 'uploading' ? { expiresAt: Math.floor(Date.now() / 1000) + UPLOADING_TTL_SECONDS } : {}),
      })),
    );
  }

  async getFile(userId: string, agentId: string, fileId: string): Promise<FileRecord | null> {
    const item = await this.getChild(userId, agentId, 'FILE', fileId);
    return item && !expired(item) ? toFile(item) : null;
  }

  async findFile(userId: string, fileId: string): Promise<FileRecord | null> {
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
        ExpressionAttributeValues: { ':pk': fileGsiPk(userId, fileId), ':sk': FILE_GSI_SK },
        Limit: 1,
      }),
    );
    const item = Items?.[0];
    return item && !expired(item) ? toFile(item) : null;
  }

  async setFileStatus(
    userId: string,
    agentId: string,
    fileId: string,
    from: FileRecord['status'],
    change: FileStatusChange,
  ): Promise<FileRecord | null> {
    const values: Record<string, unknown> = { ':from': from, ':status': change.status };
    const sets = ['#status = :status'];
    if (change.size !== undefined) {
      sets.push('#size = :size');
      values[':size'] = change.size;
    }
    if (change.error) {
      sets.push('#error = :error');
      values[':error'] = change.error;
    }
    if (change.generation !== undefined) {
      sets.push('#generation = :generation');
      values[':generation'] = change.generation;
    }
    const updated = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: childSk(agentId, 'FILE', fileId) },
          // Confirmed (or failed): no longer subject to the upload TTL.
          UpdateExpression: `SET ${sets.join(', ')} REMOVE #expiresAt${change.error ? '' : ', #error'}`,
          ConditionExpression: 'attribute_exists(pk) AND #status = :from',
          ExpressionAttributeNames: {
            '#status': 'status',
            '#error': 'error',
            '#expiresAt': 'expiresAt',
            ...(change.size !== undefined ? { '#size': 'size' } : {}),
            ...(change.generation !== undefined ? { '#generation': 'generation' } : {}),
          },
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return updated?.Attributes ? toFile(updated.Attributes) : null;
  }

  async deleteFile(userId: string, agentId: string, fileId: string): Promise<FileRecord | null> {
    const item = await this.deleteChild(userId, agentId, 'FILE', fileId);
    return item ? toFile(item) : null;
  }

  async setFileShareable(userId: string, agentId: string, fileId: string, shareable: boolean): Promise<FileRecord | null> {
    const updated = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: childSk(agentId, 'FILE', fileId) },
          UpdateExpression: 'SET #shareable = :shareable',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#shareable': 'shareable' },
          ExpressionAttributeValues: { ':shareable': shareable },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return updated?.Attributes && !expired(updated.Attributes) ? toFile(updated.Attributes) : null;
  }

  addUrls(userId: string, agentId: string, urls: readonly UrlRecord[]): Promise<boolean> {
    return this.addChildren(
      userId,
      agentId,
      urls.map((u) => ({ pk: userPk(userId), sk: childSk(agentId, 'URL', u._id), entity: ENTITY.URL, ...u })),
    );
  }

  async getUrl(userId: string, agentId: string, urlId: string): Promise<UrlRecord | null> {
    const item = await this.getChild(userId, agentId, 'URL', urlId);
    return item ? toUrl(item) : null;
  }

  async restartUrl(
    userId: string,
    agentId: string,
    urlId: string,
    restart: { link: string; at: string; generation: string; from?: UrlRecord['status'] },
  ): Promise<UrlRecord | null> {
    const updated = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: childSk(agentId, 'URL', urlId) },
          UpdateExpression: 'SET #link = :link, #status = :pending, lastUpdateAt = :at, #generation = :generation REMOVE #error',
          ConditionExpression: `attribute_exists(pk)${restart.from ? ' AND #status = :from' : ''}`,
          ExpressionAttributeNames: { '#link': 'link', '#status': 'status', '#error': 'error', '#generation': 'generation' },
          ExpressionAttributeValues: {
            ':link': restart.link,
            ':pending': 'pending',
            ':at': restart.at,
            ':generation': restart.generation,
            ...(restart.from ? { ':from': restart.from } : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return updated?.Attributes ? toUrl(updated.Attributes) : null;
  }

  async failUrl(userId: string, agentId: string, urlId: string, generation: string | undefined, message: string, at: string): Promise<void> {
    const round = pendingInRound(generation);
    await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: childSk(agentId, 'URL', urlId) },
          UpdateExpression: 'SET #status = :failed, #error = :error, lastUpdateAt = :at',
          ConditionExpression: round.condition,
          ExpressionAttributeNames: { '#status': 'status', '#error': 'error', ...round.names },
          ExpressionAttributeValues: { ':failed': 'failed', ':error': message, ':at': at, ...round.values },
        }),
      ),
    );
  }

  async deleteUrl(userId: string, agentId: string, urlId: string): Promise<UrlRecord | null> {
    const item = await this.deleteChild(userId, agentId, 'URL', urlId);
    return item ? toUrl(item) : null;
  }

  // ------------------------------------------------------------------ knowledge entries

  private entryItem(userId: string, entry: EntryRecord): Item {
    return { pk: userPk(userId), sk: childSk(entry.agentId, 'ENTRY', entry._id), entity: ENTITY.ENTRY, ...entry };
  }

  /** The entry and the agent's entryCount + 1 in one transaction; the count's condition keeps ≤ entriesPerAgent. */
  async addEntry(userId: string, entry: EntryRecord): Promise<AddEntryOutcome> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: { pk: userPk(userId), sk: agentSk(entry.agentId) },
                UpdateExpression: 'ADD entryCount :one',
                ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(entryCount) OR entryCount < :max)',
                ExpressionAttributeValues: { ':one': 1, ':max': AGENT_LIMITS.entriesPerAgent },
              },
            },
            { Put: { TableName: this.tableName, Item: this.entryItem(userId, entry), ConditionExpression: 'attribute_not_exists(pk)' } },
          ],
        }),
      );
      return 'added';
    } catch (error) {
      if (!conditionFailedAt(error, 0)) throw error;
      return (await this.getAgent(userId, entry.agentId)) ? 'limit' : 'no_agent';
    }
  }

  async replaceEntry(userId: string, entry: EntryRecord): Promise<boolean> {
    const put = await unlessConditionFails(
      this.db.send(new PutCommand({ TableName: this.tableName, Item: this.entryItem(userId, entry), ConditionExpression: 'attribute_exists(pk)' })),
    );
    return put !== null;
  }

  /** The entry and the agent's entryCount - 1 in one transaction; false when the entry does not exist. */
  async deleteEntry(userId: string, agentId: string, entryId: string): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.tableName,
                Key: { pk: userPk(userId), sk: childSk(agentId, 'ENTRY', entryId) },
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            {
              Update: {
                TableName: this.tableName,
                Key: { pk: userPk(userId), sk: agentSk(agentId) },
                UpdateExpression: 'ADD entryCount :minus',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':minus': -1 },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (conditionFailedAt(error, 0)) return false;
      // The agent is gone (deleted with its children meanwhile): so is the entry.
      if (conditionFailedAt(error, 1)) return (await this.deleteChild(userId, agentId, 'ENTRY', entryId)) !== null;
      throw error;
    }
  }
}

/** What the ingestion workers read and write about a file or URL, over the same child items. */
export class DynamoKnowledgeSources implements KnowledgeSources {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string): Promise<KnowledgeSourceRecord | null> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: childSk(agentId, KIND_OF_SOURCE[kind], sourceId) },
        ConsistentRead: true,
      }),
    );
    if (!Item) return null;
    const source = kind === 'file' ? toFile(Item) : toUrl(Item);
    const common = {
      kind,
      sourceId,
      status: source.status,
      ...(source.contentHash ? { contentHash: source.contentHash } : {}),
      ...(source.generation ? { generation: source.generation } : {}),
    };
    if ('s3Key' in source) {
      return { ...common, name: source.originalName, s3Key: source.s3Key, mimeType: source.mimeType, size: source.size };
    }
    return { ...common, name: source.link, link: source.link };
  }

  async settle(
    userId: string,
    agentId: string,
    kind: KnowledgeSourceKind,
    sourceId: string,
    generation: string | undefined,
    update: KnowledgeSourceUpdate,
    chunksChanged: boolean,
  ): Promise<SettleResult> {
    const round = pendingInRound(generation);
    const names: Record<string, string> = { '#status': 'status', '#lastUpdateAt': 'lastUpdateAt', '#error': 'error', ...round.names };
    const values: Record<string, unknown> = { ':status': update.status, ':at': this.now().toISOString(), ...round.values };
    const sets = ['#status = :status', '#lastUpdateAt = :at'];
    const { error, chunkCount, contentHash, title } = update;
    setDefined({ error, chunkCount, contentHash, title }, names, values, sets);
    const settle = {
      TableName: this.tableName,
      Key: { pk: userPk(userId), sk: childSk(agentId, KIND_OF_SOURCE[kind], sourceId) },
      UpdateExpression: `SET ${sets.join(', ')}${update.error === undefined ? ' REMOVE #error' : ''}`,
      ConditionExpression: round.condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
    if (!chunksChanged) {
      // Deleted while it was being processed, already settled, or reprocessed since: nothing recorded.
      return { settled: (await unlessConditionFails(this.db.send(new UpdateCommand(settle)))) !== null, state: null };
    }
    // New chunks: the outcome and the agent's knowledgeVersion in one transaction, so no reader sees
    // the document completed with the old version, and a crash between two writes cannot leave warm
    // indexes stale for good.
    try {
      await transactWrite(this.db, [
        { Update: settle },
        {
          Update: {
            TableName: this.tableName,
            Key: { pk: userPk(userId), sk: agentSk(agentId) },
            UpdateExpression: 'ADD knowledgeVersion :one',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
      ]);
    } catch (error) {
      // The source is no longer pending in this round, or the agent is gone: nothing recorded.
      if (cancellationReasons(error)?.some((r) => r.code === 'ConditionalCheckFailed')) return { settled: false, state: null };
      throw error;
    }
    const agent = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: agentSk(agentId) }, ConsistentRead: true }));
    if (!agent.Item) return { settled: true, state: null };
    const { knowledgeVersion, language } = toAgent(agent.Item);
    return { settled: true, state: { knowledgeVersion, language } };
  }
}
