/**
 * In-app notifications over the single table (issue 17; ACCESS-PATTERNS.md "Notifications"):
 * pk=USER#{u}, sk=NOTIF#{id} (time-sortable id: newest first is a reversed Query), an
 * idempotency item NOTIFKEY#{kind}#{subject}#{occurrence} per escalation, and the exact unread
 * counter NOTIFCOUNT (moved only inside the transactions that create or first read one).
 * Issue 32: per person — a member's sort keys carry `PERSON#{personId}#` in front (person-keys.ts);
 * the account's own person keeps the keys above.
 * A read notification expires 90 days after it was read (TTL); an unread one stays, so the
 * counter never counts an item that is gone.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../contract/notification-kinds.js';
import { recipientOf, type NotificationPage, type NotificationRepository, type StoredNotification } from '../../domain/notifications/ports.js';
import { emailDeliveryView } from '../../domain/notifications/email-view.js';
import { conditionHolds } from './conditions.js';
import { toEmailDelivery } from './email-deliveries.js';
import { userPk } from './keys.js';
import { personSk } from './person-keys.js';
import { queryItems } from './query-items.js';
import { conditionFailedAt, transactWrite, type TransactItem } from './transact.js';

type Item = Record<string, unknown>;

const NOTIF = 'NOTIF#';
const KEY = 'NOTIFKEY#';
export const NOTIF_COUNT_SK = 'NOTIFCOUNT';
/** Read notifications (and the idempotency items) live this long. */
export const NOTIFICATION_TTL_SECONDS = 90 * 24 * 3600;

const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const expired = (item: Item) => typeof item.expiresAt === 'number' && item.expiresAt * 1000 <= Date.now();
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function toNotification(item: Item): StoredNotification {
  const personId = str(item.personId);
  const kind = (NOTIFICATION_KINDS as readonly string[]).includes(str(item.kind)) ? (item.kind as NotificationKind) : 'conversation_escalated';
  return {
    id: str(item.id),
    userId: str(item.userId),
    ...(personId ? { personId } : {}),
    kind,
    subjectId: str(item.subjectId),
    contactName: str(item.contactName),
    reason: str(item.reason),
    createdAt: str(item.createdAt),
    readAt: typeof item.readAt === 'string' ? item.readAt : null,
    // Issue 34: the alert e-mail's delivery (written by the outbound-email worker).
    ...(item.alertEmail ? { email: emailDeliveryView(toEmailDelivery(item.alertEmail)) } : {}),
  };
}

/** A person's notification, idempotency and counter keys. */
const notifKey = (userId: string, personId: string, id: string) => ({ pk: userPk(userId), sk: personSk(userId, personId, `${NOTIF}${id}`) });
const keyKey = (userId: string, personId: string, key: string) => ({ pk: userPk(userId), sk: personSk(userId, personId, `${KEY}${key}`) });
/** Where a person's notifications are: the sort-key prefix their Query reads. */
const notifPrefix = (userId: string, personId: string) => personSk(userId, personId, NOTIF);

/** The unread counter's ADD in a transaction (create, mark read; issue 33: an unread notification erased). */
export function counterUpdate(tableName: string, userId: string, personId: string, delta: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: { pk: userPk(userId), sk: personSk(userId, personId, NOTIF_COUNT_SK) },
      UpdateExpression: 'ADD unread :d SET entity = :e',
      ExpressionAttributeValues: { ':d': delta, ':e': 'notificationCount' },
    },
  };
}

/**
 * The writes that create a notification once per idempotency key: the key item (conditional: the
 * first of them, so a cancelled transaction's reason 0 means "already raised"), the notification,
 * the unread counter. Another repository adds them to its own transaction (integrations.ts: the
 * needs-attention flag and its notification, together).
 */
export function notificationWrites(tableName: string, n: StoredNotification, key: string): TransactItem[] {
  const personId = recipientOf(n);
  const { readAt: _unread, ...fields } = n;
  return [
    {
      Put: {
        TableName: tableName,
        Item: { ...keyKey(n.userId, personId, key), entity: 'notificationKey', notificationId: n.id, expiresAt: epochSeconds(n.createdAt) + NOTIFICATION_TTL_SECONDS },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { Put: { TableName: tableName, Item: { ...notifKey(n.userId, personId, n.id), entity: 'notification', ...fields } } },
    counterUpdate(tableName, n.userId, personId, 1),
  ];
}

export class DynamoNotificationRepository implements NotificationRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}


  async create(n: StoredNotification, key: string): Promise<boolean> {
    try {
      await transactWrite(this.db, notificationWrites(this.tableName, n, key));
      return true;
    } catch (error) {
      if (conditionFailedAt(error, 0)) return false;
      throw error;
    }
  }

  async byKey(userId: string, personId: string, key: string): Promise<StoredNotification | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keyKey(userId, personId, key), ConsistentRead: true }));
    return Item && typeof Item.notificationId === 'string' ? this.get(userId, personId, Item.notificationId) : null;
  }

  async claimAlert(userId: string, personId: string, id: string, at: string): Promise<boolean> {
    return conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: notifKey(userId, personId, id),
          UpdateExpression: 'SET alertSentAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(alertSentAt)',
          ExpressionAttributeValues: { ':at': at },
        }),
      ),
    );
  }

  async page(userId: string, personId: string, limit: number, before?: string): Promise<NotificationPage> {
    const pk = userPk(userId);
    const prefix = notifPrefix(userId, personId);
    // One more than asked tells whether an older page exists.
    const items = await queryItems(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: before ? 'pk = :pk AND sk BETWEEN :lo AND :hi' : 'pk = :pk AND begins_with(sk, :lo)',
        ExpressionAttributeValues: before ? { ':pk': pk, ':lo': prefix, ':hi': `${prefix}${before}` } : { ':pk': pk, ':lo': prefix },
        ScanIndexForward: false,
        ConsistentRead: true,
      },
      limit + 2,
    );
    const list = items.filter((i) => !expired(i) && i.sk !== `${prefix}${before}`).map(toNotification);
    const page = list.slice(0, limit);
    return { items: page, next: list.length > limit ? (page.at(-1)?.id ?? null) : null };
  }

  async unreadCount(userId: string, personId: string): Promise<number> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: personSk(userId, personId, NOTIF_COUNT_SK) }, ConsistentRead: true }));
    const n = Item?.unread;
    return typeof n === 'number' && n > 0 ? n : 0;
  }

  async get(userId: string, personId: string, id: string): Promise<StoredNotification | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: notifKey(userId, personId, id), ConsistentRead: true }));
    return Item && !expired(Item) ? toNotification(Item) : null;
  }

  async markRead(userId: string, personId: string, id: string, at: string): Promise<boolean> {
    try {
      await transactWrite(this.db, [
        {
          Update: {
            TableName: this.tableName,
            Key: notifKey(userId, personId, id),
            UpdateExpression: 'SET readAt = :at, expiresAt = :exp',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(readAt)',
            ExpressionAttributeValues: { ':at': at, ':exp': epochSeconds(at) + NOTIFICATION_TTL_SECONDS },
          },
        },
        counterUpdate(this.tableName, userId, personId, -1),
      ]);
      return true;
    } catch (error) {
      if (conditionFailedAt(error, 0)) return false;
      throw error;
    }
  }

  async unread(userId: string, personId: string): Promise<StoredNotification[]> {
    const items = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      FilterExpression: 'attribute_not_exists(readAt)',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':p': notifPrefix(userId, personId) },
      ConsistentRead: true,
    });
    return items.map(toNotification);
  }
}
