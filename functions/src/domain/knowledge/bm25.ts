/**
 * Okapi BM25 over a fixed set of documents (the chunks of one agent), built once and queried
 * many times. Postings are typed arrays; a query touches only the documents holding its terms.
 *
 *   score(d, q) = Σ_{t ∈ q} idf(t) · tf(t,d)·(k1+1) / (tf(t,d) + k1·(1 − b + b·|d|/avgdl))
 *   idf(t)      = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))        (never negative)
 *
 * k1 = 1.2, b = 0.75 (the usual defaults). Query terms count once each.
 */
export interface Bm25Params {
  k1: number;
  b: number;
}

export interface Bm25Result {
  /** One score per document (0 when it holds none of the terms). */
  scores: Float32Array;
  /** The documents with a score > 0. */
  matched: number[];
  /** Highest score (0 when nothing matched). */
  max: number;
}

interface Postings {
  docs: Uint32Array;
  tfs: Uint16Array;
}

/**
 * The index as flat arrays (the compact index snapshot, snapshot.ts, stores them so a cold
 * function rebuilds the index without tokenising): term i's postings are docs/tfs[offsets[i] .. offsets[i+1]).
 */
export interface Bm25Parts {
  terms: string[];
  offsets: Uint32Array;
  docs: Uint32Array;
  tfs: Uint16Array;
  docLength: Uint32Array;
}

export class Bm25Index {
  readonly size: number;
  private readonly postings = new Map<string, Postings>();
  private readonly docLength: Uint32Array;
  private readonly avgLength: number;

  constructor(
    documents: readonly (readonly string[])[] | { parts: Bm25Parts },
    private readonly params: Bm25Params = { k1: 1.2, b: 0.75 },
  ) {
    if ('parts' in documents) {
      const { terms, offsets, docs, tfs, docLength } = documents.parts;
      this.size = docLength.length;
      this.docLength = docLength;
      let total = 0;
      for (const length of docLength) total += length;
      this.avgLength = this.size > 0 ? total / this.size || 1 : 1;
      terms.forEach((term, i) => this.postings.set(term, { docs: docs.subarray(offsets[i], offsets[i + 1]), tfs: tfs.subarray(offsets[i], offsets[i + 1]) }));
      return;
    }
    this.size = documents.length;
    this.docLength = new Uint32Array(documents.length);
    const building = new Map<string, { docs: number[]; tfs: number[] }>();
    let total = 0;
    documents.forEach((tokens, doc) => {
      this.docLength[doc] = tokens.length;
      total += tokens.length;
      const counts = new Map<string, number>();
      for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
      for (const [term, tf] of counts) {
        let p = building.get(term);
        if (!p) building.set(term, (p = { docs: [], tfs: [] }));
        p.docs.push(doc);
        p.tfs.push(Math.min(tf, 0xffff));
      }
    });
    this.avgLength = documents.length > 0 ? total / documents.length || 1 : 1;
    for (const [term, p] of building) this.postings.set(term, { docs: Uint32Array.from(p.docs), tfs: Uint16Array.from(p.tfs) });
  }

  /** An index from parts() of another (no tokenising). The caller checks the parts are consistent (snapshot.ts does). */
  static fromParts(parts: Bm25Parts, params?: Bm25Params): Bm25Index {
    return new Bm25Index({ parts }, params);
  }

  /** The postings and document lengths as flat arrays (terms in insertion order). */
  parts(): Bm25Parts {
    const terms = [...this.postings.keys()];
    const offsets = new Uint32Array(terms.length + 1);
    let total = 0;
    terms.forEach((term, i) => {
      offsets[i] = total;
      total += this.postings.get(term)!.docs.length;
    });
    offsets[terms.length] = total;
    const docs = new Uint32Array(total);
    const tfs = new Uint16Array(total);
    terms.forEach((term, i) => {
      const p = this.postings.get(term)!;
      docs.set(p.docs, offsets[i]);
      tfs.set(p.tfs, offsets[i]);
    });
    return { terms, offsets, docs, tfs, docLength: this.docLength };
  }

  /** Distinct terms in the index. */
  get vocabularySize(): number {
    return this.postings.size;
  }

  /** A term's idf; a term no document holds gets the highest (df = 0), so a query whose key words appear nowhere cannot score near its maximum. */
  idf(term: string, minDocuments = 0): number {
    const df = this.postings.get(term)?.docs.length ?? 0;
    return Math.log(1 + (Math.max(this.size, minDocuments) - df + 0.5) / (df + 0.5));
  }

  /** Whether document `doc` holds `term` (binary search in the term's postings, which are in document order). */
  holds(term: string, doc: number): boolean {
    const docs = this.postings.get(term)?.docs;
    if (!docs) return false;
    let lo = 0;
    let hi = docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = docs[mid]!;
      if (d === doc) return true;
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  search(queryTokens: readonly string[]): Bm25Result {
    const scores = new Float32Array(this.size);
    const matched: number[] = [];
    const { k1, b } = this.params;
    const n = this.size;
    for (const term of new Set(queryTokens)) {
      const p = this.postings.get(term);
      if (!p) continue;
      const df = p.docs.length;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < df; i++) {
        const doc = p.docs[i]!;
        const tf = p.tfs[i]!;
        const norm = k1 * (1 - b + (b * this.docLength[doc]!) / this.avgLength);
        if (scores[doc] === 0) matched.push(doc);
        scores[doc]! += (idf * tf * (k1 + 1)) / (tf + norm);
      }
    }
    let max = 0;
    for (const doc of matched) if (scores[doc]! > max) max = scores[doc]!;
    return { scores, matched, max };
  }
}
