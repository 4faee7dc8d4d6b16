/**
 * The local queue's write-ahead journal (issue 34): what the dispatcher promised survives a crash
 * of `npm start` (kill -9, a power cut), and a job it saw finish is never run again.
 *
 * One append-only file of JSON lines under the data dir. Each write() appends its entries in one
 * write and fdatasyncs before returning, so the SQS endpoint answers SendMessage only once the
 * message is on disk, and a job's `done` is on disk before anything else happens. On open the
 * file is replayed (a torn last line, from a crash mid-write, is ignored), then rewritten with
 * only what is still live (compaction: tmp file, fsync, rename, fsync of the folder); it is
 * compacted again while running once it holds mostly finished entries.
 *
 * Entries:
 *   sent     a message accepted (or redriven, or written by compaction): its full state
 *   received these messages were handed to a worker (their receive counts)
 *   failed   a delivery failed: when the message is visible again and its error
 *   done     these messages were processed: gone
 *   dead     a message moved to the dead-letter list (its full dead letter)
 * A message `received` but neither `failed` nor `done` when the journal is opened was in flight
 * when the runtime died: it is delivered again (once, its receive count kept), as SQS does when a
 * consumer dies.
 */
import { closeSync, existsSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** A message as the dispatcher keeps it (see sqs-dispatcher.ts). */
export interface JournalMessage {
  queue: string;
  messageId: string;
  body: string;
  md5OfBody: string;
  messageAttributes: Record<string, unknown>;
  sentTimestamp: number;
  firstReceiveTimestamp?: number;
  receiveCount: number;
  visibleAt: number;
  lastError: string;
  error?: unknown;
  messageGroupId?: string;
  messageDeduplicationId?: string;
}

/** A dead letter (sqs-dispatcher.ts DeadLetter): kept whole. */
export interface JournalDeadLetter {
  queue: string;
  messageId: string;
}

export type JournalEntry =
  | { t: 'sent'; m: JournalMessage }
  | { t: 'received'; at: number; ids: string[]; counts: number[] }
  | { t: 'failed'; id: string; visibleAt: number; lastError: string; error?: unknown }
  | { t: 'done'; ids: string[] }
  | { t: 'dead'; d: JournalDeadLetter };

export interface JournalState<D extends JournalDeadLetter = JournalDeadLetter> {
  /** Messages not yet processed, in the order they were sent. */
  messages: JournalMessage[];
  /** Ids among them that were in a worker's hands when the journal was last written. */
  inFlight: Set<string>;
  deadLetters: D[];
}

/** Entries appended since the last compaction before one is considered while running. */
const COMPACT_AFTER_ENTRIES = 5_000;

export class QueueJournal {
  private fd: number | undefined;
  private appended = 0;

  private constructor(private readonly file: string) {}

  /** Opens (creating) the journal: replays it, compacts it, and returns what was live. */
  static open<D extends JournalDeadLetter>(file: string): { journal: QueueJournal; state: JournalState<D> } {
    mkdirSync(dirname(file), { recursive: true });
    const state = existsSync(file) ? replay<D>(readFileSync(file, 'utf8')) : { messages: [], inFlight: new Set<string>(), deadLetters: [] };
    const journal = new QueueJournal(file);
    journal.rewrite(state);
    return { journal, state };
  }

  /** Appends the entries and waits until they are on disk. A closed journal ignores them. */
  write(entries: JournalEntry[]): void {
    if (this.fd === undefined || entries.length === 0) return;
    writeSync(this.fd, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    fdatasyncSync(this.fd);
    this.appended += entries.length;
  }

  /** Whether enough finished entries piled up to compact, given how many are live. */
  wantsCompaction(live: number): boolean {
    return this.fd !== undefined && this.appended > COMPACT_AFTER_ENTRIES && this.appended > 4 * live;
  }

  /** Replaces the file with exactly `state` (durably: tmp, fsync, rename, fsync of the folder). */
  rewrite(state: JournalState): void {
    const entries: JournalEntry[] = [
      ...state.deadLetters.map((d): JournalEntry => ({ t: 'dead', d })),
      ...state.messages.map((m): JournalEntry => ({ t: 'sent', m })),
    ];
    const inFlight = state.messages.filter((m) => state.inFlight.has(m.messageId));
    if (inFlight.length > 0) entries.push({ t: 'received', at: Date.now(), ids: inFlight.map((m) => m.messageId), counts: inFlight.map((m) => m.receiveCount) });
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (this.fd !== undefined) closeSync(this.fd);
    renameSync(tmp, this.file);
    syncFolder(dirname(this.file));
    this.fd = openSync(this.file, 'a');
    this.appended = 0;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

function syncFolder(folder: string): void {
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The live state a journal's text describes. */
export function replay<D extends JournalDeadLetter>(text: string): JournalState<D> {
  const live = new Map<string, JournalMessage>();
  const dead = new Map<string, D>();
  const inFlight = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let entry: JournalEntry;
    try {
      entry = JSON.parse(line) as JournalEntry;
    } catch {
      // A line torn by a crash mid-write: what it said was never acknowledged.
      continue;
    }
    switch (entry.t) {
      case 'sent':
        live.set(entry.m.messageId, entry.m);
        dead.delete(entry.m.messageId);
        inFlight.delete(entry.m.messageId);
        break;
      case 'received':
        entry.ids.forEach((id, i) => {
          const m = live.get(id);
          if (!m) return;
          m.receiveCount = entry.counts[i] ?? m.receiveCount + 1;
          m.firstReceiveTimestamp ??= entry.at;
          inFlight.add(id);
        });
        break;
      case 'failed': {
        const m = live.get(entry.id);
        if (m) Object.assign(m, { visibleAt: entry.visibleAt, lastError: entry.lastError, error: entry.error });
        inFlight.delete(entry.id);
        break;
      }
      case 'done':
        for (const id of entry.ids) {
          live.delete(id);
          inFlight.delete(id);
        }
        break;
      case 'dead':
        live.delete(entry.d.messageId);
        inFlight.delete(entry.d.messageId);
        dead.set(entry.d.messageId, entry.d as D);
        break;
    }
  }
  return { messages: [...live.values()], inFlight, deadLetters: [...dead.values()] };
}
