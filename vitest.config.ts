import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test projects (run one with `vitest run --project <name>`):
 * - unit:        domain rules, validators, formatters: nothing external (unit-isolated: the
 *                frontend's and the files that need fresh modules)
 * - integration: handlers through the local gateway against DynamoDB Local, cognito-local,
 *                s3rver and the SES mailbox, started once by the global setup
 * - infra:       CDK assertions and cdk-nag
 * - e2e:         headless Chromium against the whole local runtime
 */
/** Server unit files that must not share a module cache (see the unit-isolated project). */
const ISOLATED_UNIT_FILES = ['functions/test/unit/agents/ids.test.ts', 'functions/test/unit/http/role-gate.test.ts'];

/**
 * Files that take far longer than the rest, started first. On a clean clone (CI) Vitest has no
 * timings and starts the largest files first: the fault matrix (a 2 KB file, ~190 s of mostly
 * waiting on its own stack) started last and ran ~130 s alone at the end of the integration stage.
 */
const SLOW_FILES = [
  'functions/test/integration/fault-matrix.test.ts',
  'functions/test/integration/bookings-core.test.ts',
  'functions/test/integration/fuzz-routes.test.ts',
  'frontend/e2e/accessibility.test.ts',
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const found = SLOW_FILES.findIndex((file) => spec.moduleId.endsWith(file));
      return found === -1 ? SLOW_FILES.length : found;
    };
    // Array sort is stable: every other file keeps Vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['functions/test/unit/**/*.test.ts'],
          exclude: [...ISOLATED_UNIT_FILES],
          environment: 'node',
          // The server's unit files share each worker's module cache instead of importing
          // everything again per file: the stage is mostly imports (~75 s -> ~30 s on 2 cores).
          isolate: false,
          // Vitest's default is one worker fewer than the cores: 1 on CI's 2 cores.
          maxWorkers: 2,
        },
      },
      {
        test: {
          // Files that change module state others read: the frontend's i18n catalogues (the
          // feature bundles are merged into en.json/es.json's objects), and the id generator's
          // clock (its test moves it forward, past now). Each of these gets fresh modules.
          name: 'unit-isolated',
          include: ['frontend/src/**/*.test.{ts,tsx}', ...ISOLATED_UNIT_FILES],
          environment: 'node',
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['functions/test/integration/**/*.test.ts'],
          globalSetup: ['functions/test/support/global-setup.ts'],
          // 60 s: on CI's 2 cores, with infra's synth and the frontend build beside the four files,
          // a test whose body takes 2-3 s alone (a streamed call's set-up) once took over 30.
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One local stack serves every file; files run in parallel against it. Four at a time:
          // the files mostly wait (on the stack, DynamoDB Local, polls), so on 2 cores four take
          // ~270 s where Vitest's default of one worker fewer than the cores (1) took ~650 s.
          fileParallelism: true,
          maxWorkers: 4,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['infra/test/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['frontend/e2e/**/*.test.ts'],
          globalSetup: ['frontend/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Two files at a time against the one stack and Chromium server: a browser test mostly
          // waits (on the stack, the queue, a poll), so on CI's 2 cores two of them take ~6 min
          // where one after another took ~9.5. Each worker shares its module cache between its
          // files, so no file imports playwright-core, the AWS SDK and the test support again.
          fileParallelism: true,
          maxWorkers: 2,
          isolate: false,
        },
      },
    ],
  },
});
