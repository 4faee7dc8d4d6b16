/**
 * Guards retrieval quality on the graded set (functions/test/fixtures/knowledge-eval): the same
 * evaluation `npm run bench` prints (bench-knowledge-eval.ts), asserted against the issues' targets
 * for hybrid retrieval with the local deterministic embedding, on one-business agents (each
 * business's files alone) and on the mixed agent (every Spanish business's files together). A
 * change to extraction, chunking, analysis, ranking or the default threshold that loses answers,
 * refuses what the documents answer, or makes the gate depend on the rest of the index fails here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MIN_RELEVANCE } from '../../../src/contract/agents.js';
import { EVAL_AGENTS, evalFiles } from '../../fixtures/knowledge-eval/content.js';
import { UNANSWERED_MARKER } from '../../../src/domain/agents/runtime/prompt.js';
import type { ChatModel } from '../../../src/domain/ai/ports.js';
import { type EvalReport, EVAL_TARGETS, evaluateGradedSet, evaluateModelRefusals, meetsTargets, MIXED_AGENT, type ModeSummary } from '../../fixtures/knowledge-eval/evaluate.js';
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

  it('has the usual set-up of issue 28 — one business with a handful of files — and a mixed agent holding several businesses', () => {
    expect(EVAL_AGENTS.some((a) => evalFiles(a).length <= 5 && EVAL_QUESTIONS.filter((q) => q.agent === a.id).length >= 20)).toBe(true);
    expect(MIXED_AGENT.businesses.length).toBeGreaterThanOrEqual(3);
    expect(EVAL_QUESTIONS.some((q) => q.question === '¿Dónde está vuestro almacén?')).toBe(true);
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

  it(`refuses ≤ ${EVAL_TARGETS.answerableRefused * 100} % of the answerable questions on every one-business agent and on the mixed agent (no passage the runtime keeps reaches the default ${DEFAULT_MIN_RELEVANCE})`, () => {
    const refused = [...misses((r) => r.question.expect !== null && r.refused), ...report.mixed.hybrid.filter((r) => r.question.expect !== null && r.refused).map((r) => `mixed: ${r.question.question}`)];
    for (const s of report.perAgent.filter((p) => p.mode === 'hybrid')) {
      expect(s.answerableRefused, `${s.agent}:\n${refused.join('\n')}`).toBeLessThanOrEqual(EVAL_TARGETS.answerableRefused);
    }
  });

  it('the gate does not depend on what else the index holds: a passage has the same relevance in its business\'s agent and in the mixed agent', () => {
    const key = (r: EvalReport['results']['hybrid'][number], t: { source: string; text: string }) => `${r.question.agent}|${r.question.question}|${t.source}|${t.text}`;
    const alone = new Map(report.results.hybrid.flatMap((r) => r.top.map((t) => [key(r, t), t.relevance] as const)));
    let compared = 0;
    for (const r of report.mixed.hybrid) {
      for (const t of r.top) {
        const own = alone.get(key(r, t));
        if (own === undefined) continue;
        expect(t.relevance, `${r.question.question} → ${t.source}`).toBe(own);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  /**
   * Unanswerable questions refused by the gate are reported, not targeted (issue 28): the gate only
   * refuses when retrieval found nothing related; whether related passages hold the answer is the
   * model's call. A floor at the level reached, so a gate that stops refusing anything shows here.
   */
  it('still refuses unanswerable questions for which retrieval found nothing related (floor at the level reached)', () => {
    expect(hybrid().unanswerableRefused, misses((r) => r.question.expect === null && !r.refused).join('\n')).toBeGreaterThanOrEqual(0.15);
  });

  it('meets every target the issue names (what the bench checks)', () => {
    expect(meetsTargets(report).misses).toEqual([]);
  });

  it('counts the final refusals through the runtime as the bench does with a real model: the gate’s, plus every reply the model marks', async () => {
    const replying = (content: string): ChatModel => ({ complete: async () => ({ content, toolCalls: [], finishReason: 'stop' }) });
    const answering = await evaluateModelRefusals(report, { model: replying('Sí, claro.'), modelName: 'gpt-4o' });
    const knowing = await evaluateModelRefusals(report, { model: replying(`${UNANSWERED_MARKER} No lo sé.`), modelName: 'gpt-4o' });

    expect(answering.map((r) => r.agent)).toEqual(report.perAgent.filter((s) => s.mode === 'hybrid').map((s) => s.agent));
    for (const r of answering) {
      const gate = report.perAgent.find((s) => s.mode === 'hybrid' && s.agent === r.agent)!;
      expect(r.answerableRefused, r.agent).toBeCloseTo(gate.answerableRefused, 5);
      expect(r.unanswerableRefused, r.agent).toBeCloseTo(gate.unanswerableRefused, 5);
    }
    for (const r of knowing) expect([r.answerableRefused, r.unanswerableRefused], r.agent).toEqual([1, 1]);
  });
});

/**
 * The blind test set (written after the tuning, never tuned on) is the acceptance set of issue 28's
 * target: answerable refused ≤ 5 % per one-business agent. Recall@3 and unanswerable refused by the
 * gate have no target: these are the levels reached, kept as floors so a change that only fits the
 * graded set shows here. Raise them as retrieval improves; never lower them to pass. (Unanswerable
 * refused was 66 % when the gate was also the final "I don't know"; since issue 28 that is the
 * model's, and the gate refuses only what found nothing related.)
 */
const BLIND_FLOORS = { recallAt3: 0.94, unanswerableRefused: 0.13 } as const;

describe('retrieval on the blind test set (hybrid, local embedding): the acceptance set, and no regression of what generalises', () => {
  let report: EvalReport;
  let blind: ModeSummary;
  beforeAll(async () => {
    report = await evaluateGradedSet({ questions: BLIND_TEST_QUESTIONS });
    blind = report.summaries.find((s) => s.mode === 'hybrid')!;
  }, 120_000);

  it(`refuses ≤ ${EVAL_TARGETS.answerableRefused * 100} % of the answerable questions on every one-business agent`, () => {
    expect(meetsTargets(report, 'blind').misses).toEqual([]);
  });

  it(`keeps recall@3 ≥ ${BLIND_FLOORS.recallAt3 * 100} % and unanswerable refused by the gate ≥ ${BLIND_FLOORS.unanswerableRefused * 100} %`, () => {
    expect(blind.recallAt3).toBeGreaterThanOrEqual(BLIND_FLOORS.recallAt3);
    expect(blind.unanswerableRefused).toBeGreaterThanOrEqual(BLIND_FLOORS.unanswerableRefused);
  });
});
