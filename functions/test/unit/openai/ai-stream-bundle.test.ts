/**
 * The voice relay's AI composition stays SDK-free (issue 16: a small WebSocket function starts
 * fast): a bundle of an entry using streamingAiConnector() holds no file of the `openai` package,
 * while the same entry over aiConnector() does (so the check itself can see the SDK).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const composition = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src/composition');
const dir = mkdtempSync(path.join(tmpdir(), 'ai-stream-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bundledPackages(file: string, name: string): Promise<{ inputs: string[]; bytes: number }> {
  const entry = path.join(dir, `${name}.ts`);
  writeFileSync(
    entry,
    `import { ${name} } from ${JSON.stringify(path.join(composition, file))};\n` +
      `export const handler = async (userId: string) => ((await ${name}().forUser(userId))?.chat ? 'model' : 'none');\n`,
  );
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    minify: true,
    write: false,
    metafile: true,
    outfile: path.join(dir, `${name}.mjs`),
    logLevel: 'error',
  });
  return { inputs: Object.keys(result.metafile.inputs), bytes: result.outputFiles[0]!.contents.length };
}

const fromOpenAiPackage = (input: string) => /node_modules\/openai\//.test(input);

describe('streamingAiConnector bundle', () => {
  it('contains nothing of the openai package, unlike aiConnector', async () => {
    const streaming = await bundledPackages('ai-stream.ts', 'streamingAiConnector');
    const sdk = await bundledPackages('ai.ts', 'aiConnector');

    expect(streaming.inputs.filter(fromOpenAiPackage)).toEqual([]);
    expect(sdk.inputs.some(fromOpenAiPackage)).toBe(true);
    expect(streaming.bytes).toBeLessThan(sdk.bytes - 100 * 1024);
  }, 60_000);
});
