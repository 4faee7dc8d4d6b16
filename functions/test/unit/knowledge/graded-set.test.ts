/**
 * Guards retrieval quality on the graded set (functions/test/fixtures/knowledge-eval): the same
 * evaluation `npm run bench` prints (bench-knowledge-eval.ts), asserted against the targets
 * for hybrid retrieval with the local deterministic embedding. A change to extraction, chunking,
 * analysis, ranking or the default threshold that loses answers or stops refusing fails here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MIN_RELEVANCE } from '../../../src/contract/agents.js';
import { EVAL_AGENTS, evalFiles } from '../../fixtures/knowledge-eval/content.js';
import { type EvalReport, EVAL_TARGETS, evaluateGradedSet, meetsTargets, type ModeSummary } from '../../fixtures/knowledge-eval/evaluate.js';
import { BLIND_TEST_QUESTIONS } from '../../fixtures/knowledge-eval/blind-test.js';
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

  it(`finds the answer in the top 3 for ≥ ${EVAL_TARGETS.recallAt3 * 100} % of the answerable questions, overall and on each multi-document agent`, () => {
    const notInTop3 = misses((r) => r.question.expect !== null && (r.rank === null || r.rank > 3));
    expect(hybrid().recallAt3, `not in the top 3:\n${notInTop3.join('\n')}`).toBeGreaterThanOrEqual(EVAL_TARGETS.recallAt3);
    for (const s of report.perAgent.filter((p) => p.mode === 'hybrid')) {
      expect(s.recallAt3, `${s.agent}:\n${notInTop3.join('\n')}`).toBeGreaterThanOrEqual(EVAL_TARGETS.recallAt3);
    }
  });

  it(`refuses ≥ ${EVAL_TARGETS.unanswerableRefused * 100} % of the unanswerable questions (no passage the runtime keeps reaches the default ${DEFAULT_MIN_RELEVANCE})`, () => {
    const answered = misses((r) => r.question.expect === null && !r.refused);
    expect(hybrid().unanswerableRefused, `answered although unanswerable:\n${answered.join('\n')}`).toBeGreaterThanOrEqual(EVAL_TARGETS.unanswerableRefused);
  });

  it('refuses none of the answerable questions (a passage the runtime keeps reaches the default threshold for each)', () => {
    expect(hybrid().answerableRefused, misses((r) => r.question.expect !== null && r.refused).join('\n')).toBe(EVAL_TARGETS.answerableRefused);
  });

  it('meets every target the issue names (what the bench checks)', () => {
    expect(meetsTargets(report).misses).toEqual([]);
  });
});

/**
 * The blind test set (written after the tuning, never tuned on) has no target: these are the levels
 * reached when it was added, kept as floors so a change that only fits the graded set shows here.
 * Raise them as retrieval improves; never lower them to pass.
 */
const BLIND_FLOORS = { recallAt3: 0.94, unanswerableRefused: 0.66, answerableRefused: 0.26 } as const;

describe('retrieval on the blind test set (hybrid, local embedding): no regression of what generalises', () => {
  let blind: ModeSummary;
  beforeAll(async () => {
    blind = (await evaluateGradedSet({ questions: BLIND_TEST_QUESTIONS })).summaries.find((s) => s.mode === 'hybrid')!;
  }, 120_000);

  it(`keeps recall@3 ≥ ${BLIND_FLOORS.recallAt3 * 100} %, unanswerable refused ≥ ${BLIND_FLOORS.unanswerableRefused * 100} % and answerable refused ≤ ${BLIND_FLOORS.answerableRefused * 100} %`, () => {
    expect(blind.recallAt3).toBeGreaterThanOrEqual(BLIND_FLOORS.recallAt3);
    expect(blind.unanswerableRefused).toBeGreaterThanOrEqual(BLIND_FLOORS.unanswerableRefused);
    expect(blind.answerableRefused).toBeLessThanOrEqual(BLIND_FLOORS.answerableRefused);
  });
});
