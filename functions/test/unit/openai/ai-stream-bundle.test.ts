/**
 * The AI compositions stay SDK-free (issue 16: a small WebSocket function starts fast; issue 28:
 * every function that calls the model, ~147 KB less each): a bundle of an entry using
 * streamingAiConnector() (the relay) or aiConnector() (every other function) holds no file of the
 * `openai` package, while an entry over the SDK adapter the tests keep as the wire format's oracle
 * does (so the check itself can see the SDK).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const composition = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src/composition');
const sdkOracle = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../support/openai-sdk/model.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'ai-stream-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bundledPackages(file: string, name: string): Promise<{ inputs: string[]; bytes: number }> {
  return bundle(
    name,
    `import { ${name} } from ${JSON.stringify(path.join(composition, file))};\n` +
      `export const handler = async (userId: string) => ((await ${name}().forUser(userId))?.chat ? 'model' : 'none');\n`,
  );
}

async function bundle(name: string, source: string): Promise<{ inputs: string[]; bytes: number }> {
  const entry = path.join(dir, `${name}.ts`);
  writeFileSync(entry, source);
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

describe('AI composition bundles', () => {
  it('contain nothing of the openai package, unlike the SDK oracle', async () => {
    const streaming = await bundledPackages('ai-stream.ts', 'streamingAiConnector');
    const connector = await bundledPackages('ai.ts', 'aiConnector');
    const sdk = await bundle(
      'sdkOracle',
      `import { OpenAiModel } from ${JSON.stringify(sdkOracle)};\n` +
        `export const handler = (apiKey: string) => new OpenAiModel({ apiKey, guard: () => Promise.reject(new Error('no')) }).verify('gpt-4o');\n`,
    );

    expect(streaming.inputs.filter(fromOpenAiPackage)).toEqual([]);
    expect(connector.inputs.filter(fromOpenAiPackage)).toEqual([]);
    expect(sdk.inputs.some(fromOpenAiPackage)).toBe(true);
    expect(connector.bytes).toBeLessThan(streaming.bytes + 8 * 1024);
  }, 60_000);
});
