/**
 * The Lambda bundles' esbuild settings (infra/lib/bundling.ts) produce code that works: an AWS SDK
 * call made from a bundle built with them signs with the environment's credentials (the
 * credential-provider alias) and decodes the answer, while the SDK's event-stream code, which no
 * call of ours uses, is not in the bundle (the @smithy/core/event-streams alias).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildOptions, functionsDir, repoRoot } from '../lib/bundling.js';

const run = promisify(execFile);
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentdesk-bundling-'));
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

/** Builds `source` (TypeScript, resolved from functions/) with the stack's settings; returns the file and its inputs. */
async function bundle(name: string, source: string) {
  const outfile = path.join(outDir, name, 'index.mjs');
  const { entryPoints: _entry, ...options } = esbuildOptions(path.join(functionsDir, 'src/handlers/agents.ts'), outfile);
  const result = await esbuild.build({
    ...options,
    stdin: { contents: source, resolveDir: functionsDir, sourcefile: `${name}.ts`, loader: 'ts' },
    metafile: true,
    absWorkingDir: repoRoot,
  });
  return { outfile, inputs: Object.keys(result.metafile.inputs) };
}

const lambdaEnv = (extra: Record<string, string>) => ({
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'AKIDBUNDLETEST',
  AWS_SECRET_ACCESS_KEY: 'bundle-test-secret',
  AWS_SESSION_TOKEN: 'bundle-test-session',
  ...extra,
});

describe('Lambda bundling', () => {
  it('makes a signed DynamoDB call from a bundle without the SDK event-stream code', async () => {
    const requests: { target?: string; authorization?: string; body: string }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        requests.push({ target: req.headers['x-amz-target'] as string, authorization: req.headers.authorization, body });
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ Item: { pk: { S: 'USER#1' }, name: { S: 'Muñoz' } } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { outfile, inputs } = await bundle(
        'dynamo-call',
        `import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
         const client = new DynamoDBClient({ endpoint: process.env.TEST_ENDPOINT });
         const out = await client.send(new GetItemCommand({ TableName: 'agentdesk', Key: { pk: { S: 'USER#1' } } }));
         console.log(JSON.stringify(out.Item));`,
      );
      expect(inputs.filter((i) => i.includes('@smithy/core/dist-es/submodules/event-streams/'))).toEqual([]);
      expect(inputs).toContain('functions/src/adapters/aws/no-event-streams.ts');

      const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const { stdout } = await run(process.execPath, [outfile], { env: lambdaEnv({ TEST_ENDPOINT: endpoint }), cwd: outDir });

      expect(JSON.parse(stdout.trim())).toEqual({ pk: { S: 'USER#1' }, name: { S: 'Muñoz' } });
      expect(requests).toHaveLength(1);
      expect(requests[0]!.target).toBe('DynamoDB_20120810.GetItem');
      expect(requests[0]!.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDBUNDLETEST\/\d{8}\/eu-west-1\/dynamodb\/aws4_request/);
      expect(JSON.parse(requests[0]!.body)).toEqual({ TableName: 'agentdesk', Key: { pk: { S: 'USER#1' } } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('fails an event-stream operation in a bundle with a message naming the alias', async () => {
    const { outfile } = await bundle(
      'event-streams',
      `const { eventStreamSerdeProvider } = await import('@smithy/core/event-streams');
       try { eventStreamSerdeProvider({} as never); } catch (error) { console.log((error as Error).message); }`,
    );
    const { stdout } = await run(process.execPath, [outfile], { env: lambdaEnv({}), cwd: outDir });
    expect(stdout.trim()).toBe('AWS SDK event streams are not bundled (infra/lib/bundling.ts aliases @smithy/core/event-streams)');
  });
});
