/**
 * The account's deletion (issue 33): the owner asks (typed confirmation, checked by the handler),
 * a job removes everything — the subscription at Stripe, every member's login, the Twilio
 * recordings, the Google Calendar grant, every S3 object, every DynamoDB item — then e-mails the
 * owner and keeps an anonymous report.
 *
 * The job's state lives in a deletion item OUTSIDE the account's partition (the partition is what
 * goes), so it survives its own work. Each step is idempotent and recorded there when finished: a
 * retry after a crash, a second delivery or a resumed slice goes on from the first unfinished one.
 * The order matters: the steps that need the account's items to find what to delete elsewhere
 * (logins from the member items, recordings from the calls, the calendar grant) run before the
 * items go; who the people are is remembered on the deletion item BEFORE their logins go.
 *
 * The last step, `sweep`, runs in a job queued with a delay past the access tokens' lifetime
 * (SWEEP_DELAY_SECONDS): a member's token stays valid minutes after its login is gone, and a late
 * writer (a queued worker job, an in-flight webhook) can put items or objects back into the
 * emptied partitions after the items step. The sweep deletes the objects and items again and
 * counts what it found (sweptObjects, sweptItems); only then is the deletion done.
 */
import { SESSION_TOKENS } from '../../contract/session-tokens.js';
import { teamMessages } from '../../contract/team.js';
import { ForbiddenError } from '../errors.js';
import { accountDeletedEmail, type DeletionEmailLanguage } from './account-deletion-email.js';

export const ACCOUNT_DELETION_STEPS = ['subscription', 'logins', 'recordings', 'calendar', 'objects', 'items', 'email', 'sweep'] as const;
export type AccountDeletionStep = (typeof ACCOUNT_DELETION_STEPS)[number];

/** What the job deleted (the report keeps these figures, nothing personal). */
export interface AccountDeletionCounts {
  subscriptions: number;
  logins: number;
  recordings: number;
  calendars: number;
  objects: number;
  items: number;
  emails: number;
  /** What the final sweep found written back after the objects and items steps (late writers). */
  sweptObjects: number;
  sweptItems: number;
}
export const emptyDeletionCounts = (): AccountDeletionCounts => ({
  subscriptions: 0,
  logins: 0,
  recordings: 0,
  calendars: 0,
  objects: 0,
  items: 0,
  emails: 0,
  sweptObjects: 0,
  sweptItems: 0,
});

/** The sweep waits past the access tokens' lifetime, plus a minute's margin (SQS allows 900 s at most). */
export const SWEEP_DELAY_SECONDS = (SESSION_TOKENS.accessMinutes + 1) * 60;

/** A person of the account whose login goes with it. */
export interface DeletionPerson {
  personId: string;
  email: string;
}

export interface StoredAccountDeletion {
  accountId: string;
  state: 'running' | 'done';
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
  /** Who to write the final e-mail to, in their language; removed once the job is done. */
  owner: { email: string; name: string; language: DeletionEmailLanguage } | null;
  /** The account's people as they were when the logins step began (removed once done). */
  people: DeletionPerson[] | null;
  stepsDone: AccountDeletionStep[];
  counts: AccountDeletionCounts;
}

export interface AccountDeletions {
  /** Creates the deletion item unless one exists: then that one (a second request is the same deletion). */
  start(record: StoredAccountDeletion): Promise<{ deletion: StoredAccountDeletion; created: boolean }>;
  get(accountId: string): Promise<StoredAccountDeletion | null>;
  rememberPeople(accountId: string, people: DeletionPerson[]): Promise<void>;
  /** Adds to the counts; with `step`, records it done (once: a step already recorded adds nothing). */
  record(accountId: string, counts: Partial<AccountDeletionCounts>, step?: AccountDeletionStep): Promise<void>;
  /** state done, finishedAt, the report's TTL; the owner's address and the people removed. */
  finish(accountId: string, at: string, expiresAtSeconds: number): Promise<void>;
}

export interface DeletionPeopleSource {
  /** Who owns the account now (the team's items, read again: a stale token's claim is not enough). */
  ownerId(accountId: string): Promise<string>;
  /** The account's active people, the owner first, with their e-mail and language. */
  people(accountId: string): Promise<{ personId: string; email: string; name: string; language: string }[]>;
}

export interface AccountDeletionJob {
  accountId: string;
  resume?: number;
  /** The final sweep's run (queued with SWEEP_DELAY_SECONDS): the sweep step runs only in it. */
  sweep?: boolean;
}

/** A step's outcome: what it deleted this time; done false = stopped near the timeout, run it again. */
export interface DeletionStepOutcome {
  deleted: number;
  done: boolean;
}

export interface AccountDeletionDeps {
  deletions: AccountDeletions;
  people: DeletionPeopleSource;
  queue: { enqueue(job: AccountDeletionJob, delaySeconds?: number): Promise<void> };
  /** Cancels the account's subscription at the provider now (no refund); false when there is none to cancel. */
  subscription: { cancelNow(accountId: string): Promise<boolean> };
  /** Signs the login out everywhere and deletes it; false when there was none. */
  logins: { remove(email: string): Promise<boolean> };
  /** Deletes the person's pointer to this account (their sign-in would otherwise still name it). */
  memberships: { drop(personId: string, accountId: string): Promise<void> };
  /** Deletes the recordings of the account's calls at Twilio. */
  recordings: { deleteAll(accountId: string, shouldYield: () => boolean): Promise<DeletionStepOutcome> };
  /** Forgets the Google Calendar connection and revokes its grant; false when there was none. */
  calendar: { disconnect(accountId: string): Promise<boolean> };
  /** Every object of the account and of its people (the S3 key layouts are the adapters'). */
  objects: { deleteAll(accountId: string, personIds: readonly string[], shouldYield: () => boolean): Promise<DeletionStepOutcome> };
  /** Every item of a user id's partitions (and their lookups in shared partitions), and an e-mail's items. */
  items: {
    deleteAccount(userId: string, shouldYield: () => boolean): Promise<DeletionStepOutcome>;
    deleteEmail(email: string): Promise<number>;
  };
  mailer: { send(message: { to: string; subject: string; text: string; html: string }): Promise<void> };
  /** Whether an e-mail failure is lasting (the address refused): the job does not wait for it. */
  isLastingFailure(error: unknown): boolean;
  /** How long one run may work before it queues its next slice. */
  sliceMs: number;
  now?: () => number;
  log: { info(message: string, data: Record<string, unknown>): void; warn(message: string, data: Record<string, unknown>): void };
}

/** The anonymous report is kept a year. */
export const DELETION_REPORT_DAYS = 365;
/** A repeated request re-queues a deletion that has not moved for this long (its job was lost). */
const STALLED_MS = 15 * 60_000;

export type AccountDeletionRequestDeps = Pick<AccountDeletionDeps, 'deletions' | 'people' | 'queue' | 'now'>;

/** The route's half: POST /api/privacy/account-deletion, after the typed confirmation: the owner only, one deletion per account. */
export function createAccountDeletionRequests(deps: AccountDeletionRequestDeps) {
  const now = deps.now ?? Date.now;
  return {
    async request(accountId: string, personId: string): Promise<void> {
      const ownerId = await deps.people.ownerId(accountId);
      if (ownerId !== personId) throw new ForbiddenError(teamMessages.ownerOnly);
      const owner = (await deps.people.people(accountId)).find((p) => p.personId === personId);
      const at = new Date(now()).toISOString();
      const { deletion, created } = await deps.deletions.start({
        accountId,
        state: 'running',
        startedAt: at,
        updatedAt: at,
        finishedAt: null,
        owner: owner?.email ? { email: owner.email, name: owner.name, language: owner.language === 'es' ? 'es' : 'en' } : null,
        people: null,
        stepsDone: [],
        counts: emptyDeletionCounts(),
      });
      // A second request is the same deletion; it queues the job again only when that one seems lost.
      if (created || (deletion.state === 'running' && now() - Date.parse(deletion.updatedAt) > STALLED_MS)) {
        await deps.queue.enqueue({ accountId });
      }
    },
  };
}

/** The job (privacy-jobs, `accountDeletion`): the unfinished steps in order. */
export function createAccountDeletion(deps: AccountDeletionDeps) {
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();

  /** The people whose logins and own data go: remembered on the item before anything of theirs is deleted. */
  async function people(deletion: StoredAccountDeletion): Promise<DeletionPerson[]> {
    if (deletion.people) return deletion.people;
    const found = (await deps.people.people(deletion.accountId)).map((p) => ({ personId: p.personId, email: p.email }));
    // The account's own person (its first owner) has the account's partition even after a transfer.
    if (!found.some((p) => p.personId === deletion.accountId)) found.push({ personId: deletion.accountId, email: '' });
    await deps.deletions.rememberPeople(deletion.accountId, found);
    deletion.people = found;
    return found;
  }

  type Step = (d: StoredAccountDeletion, shouldYield: () => boolean) => Promise<{ counts: Partial<AccountDeletionCounts>; done: boolean }>;
  const steps: Record<AccountDeletionStep, Step> = {
    async subscription(d) {
      return { counts: { subscriptions: (await deps.subscription.cancelNow(d.accountId)) ? 1 : 0 }, done: true };
    },
    async logins(d) {
      let logins = 0;
      for (const person of await people(d)) {
        if (person.email && (await deps.logins.remove(person.email))) logins++;
        if (person.personId !== d.accountId) await deps.memberships.drop(person.personId, d.accountId);
      }
      return { counts: { logins }, done: true };
    },
    async recordings(d, shouldYield) {
      const out = await deps.recordings.deleteAll(d.accountId, shouldYield);
      return { counts: { recordings: out.deleted }, done: out.done };
    },
    async calendar(d) {
      return { counts: { calendars: (await deps.calendar.disconnect(d.accountId)) ? 1 : 0 }, done: true };
    },
    async objects(d, shouldYield) {
      const ids = (await people(d)).map((p) => p.personId);
      const out = await deps.objects.deleteAll(d.accountId, ids, shouldYield);
      return { counts: { objects: out.deleted }, done: out.done };
    },
    async items(d, shouldYield) {
      const everyone = await people(d);
      let items = 0;
      // Each person's own partitions too: their profile (name, e-mail, phone) is theirs, and with
      // their login gone nothing could ever read it again. The account's last: it holds the team.
      const subjects = [...everyone.map((p) => p.personId).filter((id) => id !== d.accountId), d.accountId];
      for (const subject of subjects) {
        const out = await deps.items.deleteAccount(subject, shouldYield);
        items += out.deleted;
        if (!out.done) return { counts: { items }, done: false };
      }
      for (const person of everyone) if (person.email) items += await deps.items.deleteEmail(person.email);
      if (d.owner) items += await deps.items.deleteEmail(d.owner.email);
      return { counts: { items }, done: true };
    },
    // The objects and items again, after the delay (idempotent): what late writers put back.
    async sweep(d, shouldYield) {
      const objects = await steps.objects(d, shouldYield);
      const counts = { sweptObjects: objects.counts.objects ?? 0, sweptItems: 0 };
      if (!objects.done) return { counts, done: false };
      const items = await steps.items(d, shouldYield);
      counts.sweptItems = items.counts.items ?? 0;
      return { counts, done: items.done };
    },
    async email(d) {
      if (!d.owner) return { counts: {}, done: true };
      try {
        await deps.mailer.send({ to: d.owner.email, ...accountDeletedEmail({ name: d.owner.name, language: d.owner.language, startedAt: d.startedAt }) });
      } catch (error) {
        // A refused address cannot be helped by waiting: the deletion is done all the same.
        if (!deps.isLastingFailure(error)) throw error;
        deps.log.warn('Account deletion: the final e-mail was refused', { accountId: d.accountId, error: String(error) });
        return { counts: {}, done: true };
      }
      return { counts: { emails: 1 }, done: true };
    },
  };

  return {
    /** One run of the job (a privacy-jobs message): the unfinished steps in order, until done or near the timeout. */
    async run(job: AccountDeletionJob, startedAtMs: number): Promise<void> {
      const deletion = await deps.deletions.get(job.accountId);
      if (!deletion) {
        deps.log.warn('Account deletion job without a deletion item: ignored', { accountId: job.accountId });
        return;
      }
      if (deletion.state === 'done') return;
      const shouldYield = () => now() - startedAtMs >= deps.sliceMs;
      const again = () => deps.queue.enqueue({ accountId: job.accountId, resume: (job.resume ?? 0) + 1, ...(job.sweep ? { sweep: true } : {}) });
      for (const step of ACCOUNT_DELETION_STEPS) {
        if (deletion.stepsDone.includes(step)) continue;
        // Any run that reaches the sweep before its delay queues the delayed one (a duplicate only sweeps twice, harmlessly).
        if (step === 'sweep' && !job.sweep) return deps.queue.enqueue({ accountId: job.accountId, sweep: true }, SWEEP_DELAY_SECONDS);
        if (shouldYield()) return again();
        const outcome = await steps[step](deletion, shouldYield);
        if (!outcome.done) {
          await deps.deletions.record(job.accountId, outcome.counts);
          return again();
        }
        await deps.deletions.record(job.accountId, outcome.counts, step);
        deletion.stepsDone.push(step);
      }
      await deps.deletions.finish(job.accountId, iso(), Math.floor(now() / 1000) + DELETION_REPORT_DAYS * 86_400);
      deps.log.info('Account deleted', { accountId: job.accountId });
    },
  };
}

export type AccountDeletionJobRunner = ReturnType<typeof createAccountDeletion>;
