import { defineConfig } from 'vitest/config';

/**
 * Test projects (run one with `vitest run --project <name>`):
 * - unit:        domain rules, validators, formatters: nothing external
 * - integration: handlers through the local gateway against DynamoDB Local, cognito-local,
 *                s3rver and the SES mailbox, started once by the global setup
 * - infra:       CDK assertions and cdk-nag
 * - e2e:         headless Chromium against the whole local runtime
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['functions/test/unit/**/*.test.ts', 'frontend/src/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['functions/test/integration/**/*.test.ts'],
          globalSetup: ['functions/test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // One local stack serves every file; files run in parallel against it.
          fileParallelism: true,
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
          fileParallelism: false,
        },
      },
    ],
  },
});
