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

export class Bm25Index {
  readonly size: number;
  private readonly postings = new Map<string, Postings>();
  private readonly docLength: Uint32Array;
  private readonly avgLength: number;

  constructor(
    documents: readonly (readonly string[])[],
    private readonly params: Bm25Params = { k1: 1.2, b: 0.75 },
  ) {
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

  /** Distinct terms in the index. */
  get vocabularySize(): number {
    return this.postings.size;
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
