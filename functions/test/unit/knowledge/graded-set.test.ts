/**
 * Guards retrieval quality on the graded set (functions/test/fixtures/knowledge-eval): the same
 * evaluation `npm run bench` prints (bench-knowledge-eval.ts), asserted against the targets
 * for hybrid retrieval with the local deterministic embedding. A change to extraction, chunking,
 * analysis, ranking or the default threshold that loses answers or stops refusing fails here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MIN_RELEVANCE } from '../../../src/contract/agents.js';
import { EVAL_AGENTS, evalFiles } from '../../fixtures/knowledge-eval/content.js';
import { type EvalReport, EVAL_TARGETS, evaluateGradedSet, meetsTargets } from '../../fixtures/knowledge-eval/evaluate.js';
import { EVAL_QUESTIONS } from '../../fixtures/knowledge-eval/questions.js';

describe('the graded set', () => {
  it('is what the issue asks for: several agents in two languages, every agent with all four formats, ≥ 60 questions incl. ≥ 10 unanswerable and some follow-ups', () => {
    expect(EVAL_AGENTS.length).toBeGreaterThanOrEqual(3);
    expect(new Set(EVAL_AGENTS.map((a) => a.language))).toEqual(new Set(['es', 'en']));
    for (const agent of EVAL_AGENTS) {
      expect(agent.documents.length).toBeGreaterThanOrEqual(4);
      expect(new Set(evalFiles(agent).map((f) => f.format))).toEqual(new Set(['pdf', 'docx', 'doc', 'txt']));
      expect(agent.documents.some((d) => d.formats.length > 1)).toBe(true);
      expect(agent.documents.some((d) => d.spec.blocks.some((b) => b.kind === 'table'))).toBe(true);
    }
    expect(EVAL_QUESTIONS.length).toBeGreaterThanOrEqual(60);
    expect(EVAL_QUESTIONS.filter((q) => q.expect === null).length).toBeGreaterThanOrEqual(10);
    expect(EVAL_QUESTIONS.filter((q) => q.history).length).toBeGreaterThanOrEqual(3);
  });
});

/**
 * Where the targets are not met yet, the level reached guards against regressions: hybrid
 * recall@3 of the weakest agent (dental: 90 %) and the share of answerable questions refused (24.7 %
 * at the default threshold). Raise them as retrieval improves; never lower them to pass.
 */
const FLOORS = { recallAt3PerAgent: 0.9, answerableRefused: 0.25 } as const;

describe('retrieval on the graded set (hybrid, local embedding)', () => {
  let report: EvalReport;
  beforeAll(async () => {
    report = await evaluateGradedSet();
  }, 120_000);

  const hybrid = () => report.summaries.find((s) => s.mode === 'hybrid')!;
  const misses = (pick: (r: EvalReport['results']['hybrid'][number]) => boolean) =>
    report.results.hybrid.filter(pick).map((r) => `[${r.question.agent}] ${r.question.question} (best relevance ${r.bestRelevance})`);

  it('every committed file is ingested into chunks', () => {
    for (const agent of report.agents) for (const [file, chunks] of Object.entries(agent.chunksPerFile)) expect(chunks, file).toBeGreaterThan(0);
  });

  it(`finds the answer in the top 3 for ≥ ${EVAL_TARGETS.recallAt3 * 100} % of the answerable questions overall, and for ≥ ${FLOORS.recallAt3PerAgent * 100} % on each multi-document agent`, () => {
    const notInTop3 = misses((r) => r.question.expect !== null && (r.rank === null || r.rank > 3));
    expect(hybrid().recallAt3, `not in the top 3:\n${notInTop3.join('\n')}`).toBeGreaterThanOrEqual(EVAL_TARGETS.recallAt3);
    for (const s of report.perAgent.filter((p) => p.mode === 'hybrid')) {
      expect(s.recallAt3, `${s.agent}:\n${notInTop3.join('\n')}`).toBeGreaterThanOrEqual(FLOORS.recallAt3PerAgent);
    }
  });

  it(`refuses ≥ ${EVAL_TARGETS.unanswerableRefused * 100} % of the unanswerable questions (no passage the runtime keeps reaches the default ${DEFAULT_MIN_RELEVANCE})`, () => {
    const answered = misses((r) => r.question.expect === null && !r.refused);
    expect(hybrid().unanswerableRefused, `answered although unanswerable:\n${answered.join('\n')}`).toBeGreaterThanOrEqual(EVAL_TARGETS.unanswerableRefused);
  });

  it(`refuses at most ${FLOORS.answerableRefused * 100} % of the answerable questions (the floor reached so far; the issue's target is 0)`, () => {
    expect(hybrid().answerableRefused, misses((r) => r.question.expect !== null && r.refused).join('\n')).toBeLessThanOrEqual(FLOORS.answerableRefused);
  });

  // Expected to fail until every target of issue 18 is met (answerable questions are still refused:
  // paraphrases the local hashed embedding cannot see, e.g. "aparcar" for "parking"). When it starts
  // passing, vitest reports this test as failed: drop `.fails` and the floors above.
  it.fails('meets every target the issue names (not yet)', () => {
    expect(meetsTargets(report).misses).toEqual([]);
  });
});
