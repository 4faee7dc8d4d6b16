/**
 * Issue 33: the ports of patients' data under the owner's control. The domain (service.ts, jobs.ts)
 * walks a person's data through PersonDataParts — one per kind of data, each in its own adapter —
 * so erasure, export and the lookup's counts never know how a kind is stored.
 *
 * Every part's erase is idempotent: run twice, or again after a crash half-way, it deletes what is
 * left and counts only what it deleted this time. The job records each finished step on its item,
 * so a retry goes on from the first unfinished one.
 */
import type {
  OptOutState,
  PersonDataCounts,
  PrivacyJobKind,
  PrivacyJobStatus,
  PrivacySettings,
  PrivacyStep,
} from '../../contract/privacy.js';

export type { OptOutState, PersonDataCounts, PrivacyJobKind, PrivacyJobStatus, PrivacySettings, PrivacyStep };

/**
 * One person of an account, resolved once by the service (domain/privacy/person.ts): the contact
 * (when saved) and the phone number in E.164 (the contact's, or the one typed, read with the
 * account's country: "612 34 56 78" and "+34 612 34 56 78" are the same person). `waId` is the
 * number as WhatsApp names it (E.164 digits without '+').
 */
export interface PersonKey {
  accountId: string;
  contactId: string | null;
  e164: string | null;
  waId: string | null;
}

/** What a step may tell the job while it runs (the progress the dashboard shows). */
export interface StepContext {
  jobId: string;
  now: Date;
  /** Items handled so far in this step (called every few hundred items; cheap, best effort). */
  progress(items: number): Promise<void>;
  /**
   * True when the function is close to its timeout: the step stops at a safe point and returns
   * `{ done: false }`; the job queues itself again and the step goes on from what is left.
   */
  shouldYield(): boolean;
  /**
   * Ids this job has met (its conversations, calls, bookings), kept on the job item as string sets,
   * so a later step (the notifications') or a retry after a crash finds them once their items are
   * gone. Remember BEFORE deleting: a crash in between must not lose them.
   */
  remember(kind: RememberedKind, ids: readonly string[]): Promise<void>;
  remembered(kind: RememberedKind): Promise<string[]>;
}

export type RememberedKind = 'conversation' | 'call' | 'booking';

export interface StepOutcome {
  /** What this run deleted (or exported), by kind. */
  counts: Partial<PersonDataCounts>;
  /** false = stopped early (shouldYield); run it again. */
  done: boolean;
}

/** Where an export's files go (a streamed ZIP in the uploads bucket; paths are inside the ZIP). */
export interface ExportWriter {
  json(path: string, value: unknown): Promise<void>;
  text(path: string, text: string): Promise<void>;
  /** Rows of cells; written as UTF-8 CSV with a BOM and ';' (what Excel in Spain opens). */
  csv(path: string, rows: ReadonlyArray<ReadonlyArray<string | number | null>>): Promise<void>;
  /** An object of ours (uploads bucket: WhatsApp media, attachments), streamed into the ZIP. */
  object(path: string, key: string): Promise<void>;
  /** Bytes from elsewhere (a Twilio recording), streamed. */
  stream(path: string, body: AsyncIterable<Uint8Array>): Promise<void>;
}

/** One kind of a person's data (calls, conversations, bookings, notifications, the contact). */
export interface PersonDataPart {
  readonly step: PrivacyStep;
  /** What is held now (for the lookup's "what will go"). */
  count(person: PersonKey): Promise<Partial<PersonDataCounts>>;
  /** Whether something of theirs is live now (an open conversation, a call in progress). */
  active?(person: PersonKey): Promise<{ conversation?: boolean; call?: boolean }>;
  /** Delete (or anonymise, for bookings and counters) what is held. Idempotent; resumable. */
  erase(person: PersonKey, ctx: StepContext): Promise<StepOutcome>;
  /** Write what is held into the export. */
  export(person: PersonKey, out: ExportWriter, ctx: StepContext): Promise<StepOutcome>;
}

// ---- Jobs ----

export interface StoredPrivacyJob {
  id: string;
  accountId: string;
  kind: PrivacyJobKind;
  status: PrivacyJobStatus;
  /** While it runs: who (removed from the item when an erasure is done — the report keeps no personal data). */
  person: PersonKey | null;
  /**
   * A label for the dashboard while it runs ("Ana López", "+34 612…78"); removed with `person` from
   * an erasure; an export keeps it (the file's name) until its item expires, a week after the file.
   */
  personLabel: string | null;
  stepsDone: PrivacyStep[];
  currentStep: PrivacyStep | null;
  items: number;
  counts: PersonDataCounts;
  requestedBy: { id: string; name: string; kind?: 'member' | 'apiKey' } | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  failure: string | null;
  /** An export's ZIP (uploads bucket key), its size and when it is deleted. */
  file: { key: string; bytes: number; fileName: string; expiresAt: string } | null;
  /**
   * A step begun and not finished: what it held when first begun (its part's count) and what its
   * earlier runs reported (a yield). A run that crashed reports nothing; the step's final counts
   * are then at least what it held (domain/privacy/jobs.ts).
   */
  unfinished?: Partial<Record<PrivacyStep, { baseline: Partial<PersonDataCounts>; partial: Partial<PersonDataCounts> }>>;
}

export interface PrivacyJobs {
  /**
   * Create the job, unless one of the same kind for the same person is queued or running: then
   * that one (two clicks, two tabs, two admins at once → one job). Keyed by a hash of the person.
   */
  start(job: Omit<StoredPrivacyJob, 'status' | 'stepsDone' | 'currentStep' | 'items' | 'counts' | 'updatedAt' | 'finishedAt' | 'failure' | 'file'>): Promise<{ job: StoredPrivacyJob; created: boolean }>;
  get(accountId: string, jobId: string): Promise<StoredPrivacyJob | null>;
  page(accountId: string, cursor: string | null, limit: number): Promise<{ jobs: StoredPrivacyJob[]; cursor: string | null }>;
  /** Step started / progressed / finished (adds to counts), in one UpdateItem each. */
  stepStarted(accountId: string, jobId: string, step: PrivacyStep): Promise<void>;
  progress(accountId: string, jobId: string, items: number): Promise<void>;
  stepFinished(accountId: string, jobId: string, step: PrivacyStep, counts: Partial<PersonDataCounts>): Promise<void>;
  finish(accountId: string, jobId: string, outcome: { status: 'done' | 'failed'; failure?: string; file?: StoredPrivacyJob['file'] }): Promise<void>;
  /** The step's `unfinished` record (baseline kept from its first run; partial replaced). */
  stepUnfinished(accountId: string, jobId: string, step: PrivacyStep, record: { baseline: Partial<PersonDataCounts>; partial: Partial<PersonDataCounts> }): Promise<void>;
  /** An export run again from the start (its ZIP cannot be resumed): steps, counts and items cleared. */
  restart(accountId: string, jobId: string): Promise<void>;
  /** StepContext.remember / remembered: string sets on the job item. */
  remember(accountId: string, jobId: string, kind: RememberedKind, ids: readonly string[]): Promise<void>;
  remembered(accountId: string, jobId: string, kind: RememberedKind): Promise<string[]>;
  /** The account's jobs about this person (matched by the hash the person lock uses; no Scan: the account's jobs are few). */
  ofPerson(accountId: string, person: PersonKey): Promise<StoredPrivacyJob[]>;
  /** Deletes the job item (an erased person's export). Idempotent. */
  remove(accountId: string, jobId: string): Promise<void>;
  /** Removes who the job is about (person, personLabel, the person's hash) from its item. Idempotent. */
  forgetPerson(accountId: string, jobId: string): Promise<void>;
}

// ---- Settings, opt-outs ----

export interface PrivacySettingsStore {
  /** The account's settings; absent = the defaults (notices on for an EU/EEA country). Warm containers may cache for a minute. */
  get(accountId: string): Promise<PrivacySettings>;
  /** Saves the whole object; answers what was saved before (null: nothing, or unreadable). */
  put(accountId: string, settings: PrivacySettings): Promise<PrivacySettings | null>;
}

export interface OptOuts {
  get(accountId: string, e164: string): Promise<OptOutState | null>;
  /** One BatchGetItem for a page of numbers (the contacts list, the inbox). */
  many(accountId: string, e164s: readonly string[]): Promise<Map<string, OptOutState>>;
  set(accountId: string, e164: string, state: OptOutState): Promise<void>;
  clear(accountId: string, e164: string): Promise<void>;
}
