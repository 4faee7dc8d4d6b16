/**
 * The team of an account over the single table (issue 32; ACCESS-PATTERNS.md "Team"):
 *
 * - seats     pk=USER#{account}, sk=TEAM: seatsUsed (people, the owner included), ownerId. No item
 *             = the first owner alone (every single-user account: nothing written until a member joins).
 * - member    pk=USER#{account}, sk=MEMBER#{personId}: role, state active|removed, joinedAt, and the
 *             name/e-mail at join time (a removed member's item stays: the log and "sent by" name them).
 *             The first owner has none until ownership moves away from them.
 * - pointer   pk=PERSON#{personId}, sk=MEMBERSHIP: accountId, role (memberships.ts; the pre-token trigger).
 * - invitation pk=USER#{account}, sk=INVITE#{id}: email, role, state, invitedBy, validUntil (ISO: the
 *             link's 7 days), tokenHash, language, the e-mail's delivery (`emailDelivery`); the
 *             table's TTL (`expiresAt`, epoch s) 30 days after validUntil, like the two items below.
 * - token     pk=INVITETOKEN#{sha256(token)}, sk=INVITE: accountId, inviteId (the link's lookup).
 * - one pending invitation per e-mail: pk=USER#{account}, sk=INVITEMAIL#{sha256(email)}: inviteId, validUntil.
 *
 * Joining, leaving, removal, role changes and transfers are each ONE transaction over the counter,
 * the member item and the pointer: the seat limit is the counter's condition, never a read.
 * Also the TeamMembers port (the account's active people, owner first, from their own profiles).
 */
import { GetCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { isMemberRole, type AssignableRole, type MemberRole } from '../../contract/team.js';
import type {
  AcceptOutcome,
  InviteOutcome,
  MemberRecord,
  RenewOutcome,
  StoredInvitation,
  StoredMember,
  TeamMembers,
  TeamRepository,
  TeamState,
} from '../../domain/team/ports.js';
import { batchGetItems } from './batch.js';
import { emailHash, userPk } from './keys.js';
import { MEMBERSHIP_SK, personPk } from './memberships.js';
import { queryItems } from './query-items.js';
import { cancellationReasons, transactOrFailedAt, transactWrite, type TransactItem } from './transact.js';

type Item = Record<string, unknown>;

export const TEAM_SK = 'TEAM';
export const memberSk = (personId: string) => `MEMBER#${personId}`;
export const inviteSk = (id: string) => `INVITE#${id}`;
export const inviteMailSk = (email: string) => `INVITEMAIL#${emailHash(email)}`;
export const inviteTokenKey = (tokenHash: string) => ({ pk: `INVITETOKEN#${tokenHash}`, sk: 'INVITE' });
const PROFILE = 'PROFILE';
/** Invitations read for the team page (pending and the last 30 days' others are far fewer). */
const INVITATIONS_READ_CAP = 500;
/** How long a closed or expired invitation (and its link's lookup) is kept. */
const INVITE_KEEP_S = 30 * 86_400;

const epochS = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function toMember(item: Item): StoredMember | null {
  const sk = str(item.sk);
  if (!sk.startsWith('MEMBER#') || !isMemberRole(item.role)) return null;
  return {
    personId: sk.slice('MEMBER#'.length),
    role: item.role,
    state: item.state === 'removed' ? 'removed' : 'active',
    joinedAt: str(item.joinedAt),
    name: str(item.name),
    email: str(item.email),
  };
}

function toInvitation(item: Item): StoredInvitation | null {
  const role = item.role === 'admin' || item.role === 'agent' ? item.role : null;
  const state = item.state === 'pending' || item.state === 'accepted' || item.state === 'revoked' ? item.state : null;
  if (!role || !state || typeof item.id !== 'string') return null;
  return {
    id: item.id,
    accountId: str(item.accountId),
    email: str(item.email),
    role,
    state,
    invitedBy: str(item.invitedBy),
    createdAt: str(item.createdAt),
    expiresAt: str(item.validUntil),
    tokenHash: str(item.tokenHash),
    language: item.language === 'es' ? 'es' : 'en',
    ...(typeof item.closedAt === 'string' ? { closedAt: item.closedAt } : {}),
    ...(typeof item.acceptedBy === 'string' ? { acceptedBy: item.acceptedBy } : {}),
  };
}

export class DynamoTeamRepository implements TeamRepository, TeamMembers {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async getItem(pk: string, sk: string): Promise<Item | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk }, ConsistentRead: true }));
    return Item as Item | undefined;
  }

  async team(accountId: string): Promise<TeamState> {
    const item = await this.getItem(userPk(accountId), TEAM_SK);
    return { ownerId: str(item?.ownerId) || accountId, seatsUsed: typeof item?.seatsUsed === 'number' ? item.seatsUsed : 1 };
  }

  async member(accountId: string, personId: string): Promise<StoredMember | null> {
    const item = await this.getItem(userPk(accountId), memberSk(personId));
    return item ? toMember(item) : null;
  }

  async names(accountId: string, personIds: readonly string[]): Promise<Map<string, { name: string; email: string }>> {
    const ids = [...new Set(personIds.filter((id) => /^[A-Za-z0-9-]{1,64}$/.test(id)))];
    const out = new Map<string, { name: string; email: string }>();
    if (ids.length === 0) return out;
    const keys = ids.flatMap((id) => [
      { pk: userPk(id), sk: PROFILE },
      { pk: userPk(accountId), sk: memberSk(id) },
    ]);
    const items = await batchGetItems(this.db, this.tableName, keys);
    // The member item's name first, then the profile's over it: the person's own current name wins.
    for (const item of items.filter((i) => str(i.sk).startsWith('MEMBER#'))) {
      const m = toMember(item);
      if (m) out.set(m.personId, { name: m.name, email: m.email });
    }
    for (const item of items.filter((i) => i.sk === PROFILE)) out.set(str(item.pk).slice('USER#'.length), { name: str(item.name), email: str(item.email) });
    return out;
  }

  // ---- TeamMembers (the inbox, notifications and the team page read the account's people) ----

  async list(accountId: string): Promise<MemberRecord[]> {
    const [team, items] = await Promise.all([
      this.team(accountId),
      queryItems(this.db, {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :m)',
        FilterExpression: '#state = :active',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':pk': userPk(accountId), ':m': 'MEMBER#', ':active': 'active' },
        ConsistentRead: true,
      }),
    ]);
    // The owner first, then by when each joined.
    const members = items
      .map(toMember)
      .filter((m): m is StoredMember => m !== null && m.personId !== team.ownerId)
      .sort((a, b) => a.joinedAt.localeCompare(b.joinedAt));
    const people = [team.ownerId, ...members.map((m) => m.personId)];
    const profiles = await this.profiles(people);
    const ownerItem = items.map(toMember).find((m) => m?.personId === team.ownerId) ?? null;
    const records: MemberRecord[] = [];
    const owner = this.record(accountId, team.ownerId, 'owner', ownerItem, profiles.get(team.ownerId));
    if (owner) records.push(owner);
    for (const m of members) {
      const record = this.record(accountId, m.personId, m.role, m, profiles.get(m.personId));
      if (record) records.push(record);
    }
    return records;
  }

  async get(accountId: string, personId: string): Promise<MemberRecord | null> {
    const [team, member, profile] = await Promise.all([this.team(accountId), this.member(accountId, personId), this.getItem(userPk(personId), PROFILE)]);
    if (personId === team.ownerId) return this.record(accountId, personId, 'owner', member, profile);
    if (!member || member.state !== 'active') return null;
    return this.record(accountId, personId, member.role, member, profile);
  }

  private async profiles(personIds: readonly string[]): Promise<Map<string, Item>> {
    const items = await batchGetItems(this.db, this.tableName, [...new Set(personIds)].map((id) => ({ pk: userPk(id), sk: PROFILE })));
    return new Map(items.map((i) => [str(i.pk).slice('USER#'.length), i]));
  }

  /** A person as the product needs them; the owner without a profile or member item is none. */
  private record(accountId: string, personId: string, role: MemberRole, member: StoredMember | null, profile: Item | undefined): MemberRecord | null {
    if (!profile && !member) return null;
    return {
      personId,
      accountId,
      role,
      name: str(profile?.name) || member?.name || '',
      email: str(profile?.email) || member?.email || '',
      phoneNumber: str(profile?.phoneNumber),
      language: profile?.language === 'es' ? 'es' : 'en',
      joinedAt: member?.joinedAt || str(profile?.createdAt),
    };
  }

  // ---- Invitations ----

  async createInvitation(invitation: StoredInvitation, seatLimit: number, now: string): Promise<InviteOutcome> {
    const pk = userPk(invitation.accountId);
    const keepUntil = epochS(invitation.expiresAt) + INVITE_KEEP_S;
    const items: TransactItem[] = [
      // A full account invites nobody (a pending invitation does not hold a seat: accepting checks again).
      {
        ConditionCheck: {
          TableName: this.tableName,
          Key: { pk, sk: TEAM_SK },
          ConditionExpression: 'attribute_not_exists(seatsUsed) OR seatsUsed < :limit',
          ExpressionAttributeValues: { ':limit': seatLimit },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { pk, sk: inviteMailSk(invitation.email), entity: 'inviteMail', inviteId: invitation.id, validUntil: invitation.expiresAt, expiresAt: keepUntil },
          ConditionExpression: 'attribute_not_exists(pk) OR validUntil < :now',
          ExpressionAttributeValues: { ':now': now },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { pk, sk: inviteSk(invitation.id), entity: 'invitation', ...invitation, validUntil: invitation.expiresAt, expiresAt: keepUntil },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { ...inviteTokenKey(invitation.tokenHash), entity: 'inviteToken', accountId: invitation.accountId, inviteId: invitation.id, expiresAt: keepUntil },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    const failed = await transactOrFailedAt(this.db, items);
    if (failed === null) return 'created';
    if (failed === 0) return 'seatsFull';
    if (failed === 1) return 'alreadyInvited';
    throw new Error('invitation: an id or token collided');
  }

  async invitation(accountId: string, id: string): Promise<StoredInvitation | null> {
    const item = await this.getItem(userPk(accountId), inviteSk(id));
    return item ? toInvitation(item) : null;
  }

  async invitationByToken(tokenHash: string): Promise<StoredInvitation | null> {
    const { pk, sk } = inviteTokenKey(tokenHash);
    const lookup = await this.getItem(pk, sk);
    if (!lookup || typeof lookup.accountId !== 'string' || typeof lookup.inviteId !== 'string') return null;
    const invitation = await this.invitation(lookup.accountId, lookup.inviteId);
    // A renewed invitation's old token no longer names it.
    return invitation && invitation.tokenHash === tokenHash ? invitation : null;
  }

  async invitations(accountId: string): Promise<StoredInvitation[]> {
    const items = await queryItems(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :i)',
        ExpressionAttributeValues: { ':pk': userPk(accountId), ':i': 'INVITE#' },
        ScanIndexForward: false,
        ConsistentRead: true,
      },
      INVITATIONS_READ_CAP,
    );
    return items.map(toInvitation).filter((i): i is StoredInvitation => i !== null);
  }

  async revokeInvitation(accountId: string, id: string, at: string): Promise<boolean> {
    const invitation = await this.invitation(accountId, id);
    if (!invitation || invitation.state !== 'pending') return false;
    const close: TransactItem = {
      Update: {
        TableName: this.tableName,
        Key: { pk: userPk(accountId), sk: inviteSk(id) },
        UpdateExpression: 'SET #state = :revoked, closedAt = :at',
        ConditionExpression: '#state = :pending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':pending': 'pending', ':at': at },
      },
    };
    // The e-mail's pending slot goes with it, unless a newer invitation holds it (this one had expired).
    const slot: TransactItem = {
      Delete: { TableName: this.tableName, Key: { pk: userPk(accountId), sk: inviteMailSk(invitation.email) }, ConditionExpression: 'inviteId = :id', ExpressionAttributeValues: { ':id': id } },
    };
    let failed = await transactOrFailedAt(this.db, [close, slot]);
    if (failed === 1) failed = await transactOrFailedAt(this.db, [close]);
    return failed === null;
  }

  async renewInvitation(accountId: string, id: string, expectedHash: string, next: { tokenHash: string; expiresAt: string }, now: string): Promise<RenewOutcome> {
    const invitation = await this.invitation(accountId, id);
    if (!invitation) return 'changed';
    const pk = userPk(accountId);
    const keepUntil = epochS(next.expiresAt) + INVITE_KEEP_S;
    const failed = await transactOrFailedAt(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: { pk, sk: inviteSk(id) },
          UpdateExpression: 'SET tokenHash = :hash, validUntil = :until, expiresAt = :ttl',
          ConditionExpression: '#state = :pending AND tokenHash = :old',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':hash': next.tokenHash, ':until': next.expiresAt, ':ttl': keepUntil, ':pending': 'pending', ':old': expectedHash },
        },
      },
      // One pending invitation per e-mail: this one keeps (or takes back) the slot unless another holds it.
      {
        Put: {
          TableName: this.tableName,
          Item: { pk, sk: inviteMailSk(invitation.email), entity: 'inviteMail', inviteId: id, validUntil: next.expiresAt, expiresAt: keepUntil },
          ConditionExpression: 'attribute_not_exists(pk) OR inviteId = :id OR validUntil < :now',
          ExpressionAttributeValues: { ':id': id, ':now': now },
        },
      },
      { Delete: { TableName: this.tableName, Key: inviteTokenKey(expectedHash) } },
      {
        Put: {
          TableName: this.tableName,
          Item: { ...inviteTokenKey(next.tokenHash), entity: 'inviteToken', accountId, inviteId: id, expiresAt: keepUntil },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
    if (failed === null) return 'renewed';
    return failed === 1 ? 'alreadyInvited' : 'changed';
  }

  // ---- Joining, roles, removal, ownership ----

  async accept(input: { invitation: StoredInvitation; personId: string; name: string; email: string; seatLimit: number; at: string }): Promise<AcceptOutcome> {
    const { invitation, personId, at } = input;
    const accountId = invitation.accountId;
    const pk = userPk(accountId);
    const items: TransactItem[] = [
      // 0: the seat, counted and limited by the counter's own condition.
      {
        Update: {
          TableName: this.tableName,
          Key: { pk, sk: TEAM_SK },
          UpdateExpression: 'SET seatsUsed = if_not_exists(seatsUsed, :one) + :one, ownerId = if_not_exists(ownerId, :account), entity = :entity',
          ConditionExpression: 'attribute_not_exists(seatsUsed) OR seatsUsed < :limit',
          ExpressionAttributeValues: { ':one': 1, ':account': accountId, ':limit': input.seatLimit, ':entity': 'team' },
        },
      },
      // 1: the member item (a removed member may come back).
      {
        Put: {
          TableName: this.tableName,
          Item: { pk, sk: memberSk(personId), entity: 'member', personId, role: invitation.role, state: 'active', joinedAt: at, name: input.name, email: input.email, inviteId: invitation.id },
          ConditionExpression: 'attribute_not_exists(pk) OR #state = :removed',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':removed': 'removed' },
        },
      },
      // 2: the person's pointer: one account per person.
      {
        Put: {
          TableName: this.tableName,
          Item: { pk: personPk(personId), sk: MEMBERSHIP_SK, entity: 'membership', accountId, role: invitation.role, since: at },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      // 3: the invitation, still pending, unexpired and with this token.
      {
        Update: {
          TableName: this.tableName,
          Key: { pk, sk: inviteSk(invitation.id) },
          UpdateExpression: 'SET #state = :accepted, closedAt = :at, acceptedBy = :person',
          ConditionExpression: '#state = :pending AND validUntil > :at AND tokenHash = :hash',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':accepted': 'accepted', ':pending': 'pending', ':at': at, ':person': personId, ':hash': invitation.tokenHash },
        },
      },
      // 4: the e-mail's pending slot is free again.
      { Delete: { TableName: this.tableName, Key: { pk, sk: inviteMailSk(invitation.email) }, ConditionExpression: 'attribute_not_exists(pk) OR inviteId = :id', ExpressionAttributeValues: { ':id': invitation.id } } },
      // 5: nobody leaves a paid account of their own behind by joining another.
      {
        ConditionCheck: {
          TableName: this.tableName,
          Key: { pk: userPk(personId), sk: 'SUBSCRIPTION' },
          ConditionExpression: 'attribute_not_exists(#status) OR NOT (#status IN (:active, :trialing))',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':active': 'active', ':trialing': 'trialing' },
        },
      },
    ];
    try {
      await transactWrite(this.db, items);
      return 'joined';
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      const failedAt = (i: number) => reasons[i]?.code === 'ConditionalCheckFailed';
      if (failedAt(3) || failedAt(4)) return 'invitationChanged';
      if (failedAt(1)) return 'alreadyMember';
      if (failedAt(2)) return reasons[2]?.item?.accountId === accountId ? 'alreadyMember' : 'memberOfAnotherAccount';
      if (failedAt(5)) return 'ownsPaidAccount';
      if (failedAt(0)) return 'seatsFull';
      throw error;
    }
  }

  async changeRole(accountId: string, personId: string, from: AssignableRole, to: AssignableRole): Promise<boolean> {
    const failed = await transactOrFailedAt(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: { pk: userPk(accountId), sk: memberSk(personId) },
          UpdateExpression: 'SET #role = :to',
          ConditionExpression: '#state = :active AND #role = :from',
          ExpressionAttributeNames: { '#role': 'role', '#state': 'state' },
          ExpressionAttributeValues: { ':to': to, ':from': from, ':active': 'active' },
        },
      },
      this.pointerRole(accountId, personId, to),
    ]);
    return failed === null;
  }

  async remove(accountId: string, personId: string, at: string): Promise<boolean> {
    const failed = await transactOrFailedAt(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: { pk: userPk(accountId), sk: memberSk(personId) },
          UpdateExpression: 'SET #state = :removed, removedAt = :at',
          ConditionExpression: '#state = :active AND #role <> :owner',
          ExpressionAttributeNames: { '#state': 'state', '#role': 'role' },
          ExpressionAttributeValues: { ':removed': 'removed', ':active': 'active', ':owner': 'owner', ':at': at },
        },
      },
      { Delete: { TableName: this.tableName, Key: { pk: personPk(personId), sk: MEMBERSHIP_SK }, ConditionExpression: 'accountId = :account', ExpressionAttributeValues: { ':account': accountId } } },
      {
        Update: {
          TableName: this.tableName,
          Key: { pk: userPk(accountId), sk: TEAM_SK },
          UpdateExpression: 'ADD seatsUsed :minus',
          ConditionExpression: 'seatsUsed > :one AND ownerId <> :person',
          ExpressionAttributeValues: { ':minus': -1, ':one': 1, ':person': personId },
        },
      },
    ]);
    return failed === null;
  }

  async transferOwnership(accountId: string, from: string, to: string, at: string, fromJoinedAt: string): Promise<boolean> {
    const pk = userPk(accountId);
    const failed = await transactOrFailedAt(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: { pk, sk: TEAM_SK },
          UpdateExpression: 'SET ownerId = :to',
          ConditionExpression: 'ownerId = :from',
          ExpressionAttributeValues: { ':to': to, ':from': from },
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: { pk, sk: memberSk(to) },
          UpdateExpression: 'SET #role = :owner',
          ConditionExpression: '#state = :active AND #role = :admin',
          ExpressionAttributeNames: { '#role': 'role', '#state': 'state' },
          ExpressionAttributeValues: { ':owner': 'owner', ':admin': 'admin', ':active': 'active' },
        },
      },
      this.pointerRole(accountId, to, 'owner'),
      // The old owner stays as an admin, with a member item and a pointer of their own (even the
      // first owner: without a pointer they would read as this account's owner).
      {
        Update: {
          TableName: this.tableName,
          Key: { pk, sk: memberSk(from) },
          UpdateExpression: 'SET #role = :admin, #state = :active, joinedAt = if_not_exists(joinedAt, :joined), personId = :from, entity = :entity',
          ExpressionAttributeNames: { '#role': 'role', '#state': 'state' },
          ExpressionAttributeValues: { ':admin': 'admin', ':active': 'active', ':joined': fromJoinedAt || at, ':from': from, ':entity': 'member' },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { pk: personPk(from), sk: MEMBERSHIP_SK, entity: 'membership', accountId, role: 'admin', since: at },
          ConditionExpression: 'attribute_not_exists(pk) OR accountId = :account',
          ExpressionAttributeValues: { ':account': accountId },
        },
      },
    ]);
    return failed === null;
  }

  private pointerRole(accountId: string, personId: string, role: MemberRole): TransactItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: { pk: personPk(personId), sk: MEMBERSHIP_SK },
        UpdateExpression: 'SET #role = :role',
        ConditionExpression: 'accountId = :account',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':role': role, ':account': accountId },
      },
    };
  }

  /** One transaction (retried while it only collides); null when written, else the index of the first failed condition. */
}
