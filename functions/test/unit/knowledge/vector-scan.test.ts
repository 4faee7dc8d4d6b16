import { describe, expect, it } from 'vitest';
import { createVectorMatrix } from '../../../src/domain/knowledge/vector-scan.js';

function fill(data: Float32Array, seed: number) {
  let x = seed;
  for (let i = 0; i < data.length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    data[i] = x / 2147483648 - 0.5;
  }
}

describe('createVectorMatrix', () => {
  it('runs the dot products with WebAssembly SIMD on this Node, matching plain JavaScript', () => {
    const [rows, dims] = [300, 1536];
    const simd = createVectorMatrix(rows, dims);
    const js = createVectorMatrix(rows, dims, { allowWasm: false });
    expect(simd.kind).toBe('wasm-simd');
    expect(js.kind).toBe('js');
    fill(simd.data, 7);
    js.data.set(simd.data);
    const q = new Float32Array(dims);
    fill(q, 99);

    const a = simd.scores(q);
    const b = js.scores(q);

    expect(a).toHaveLength(rows);
    for (let i = 0; i < rows; i++) expect(a[i]).toBeCloseTo(b[i]!, 3);
    // Exact on a hand-checkable row.
    simd.data.fill(0, 0, dims);
    simd.data[0] = 2;
    simd.data[dims - 1] = 3;
    expect(simd.scores(q)[0]).toBeCloseTo(2 * q[0]! + 3 * q[dims - 1]!, 5);
  });

  it('returns a fresh array each call (a later query does not change an earlier result)', () => {
    const m = createVectorMatrix(4, 8);
    m.data.fill(1);
    const first = m.scores(new Float32Array(8).fill(1));
    m.scores(new Float32Array(8).fill(2));
    expect([...first]).toEqual([8, 8, 8, 8]);
  });

  it('falls back to JavaScript when dims is not a multiple of 8, and handles no rows', () => {
    const m = createVectorMatrix(3, 5);
    expect(m.kind).toBe('js');
    m.data.set([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1]);
    expect([...m.scores(Float32Array.from([1, 2, 3, 4, 5]))]).toEqual([1, 2, 15]);
    expect(createVectorMatrix(0, 1536).scores(new Float32Array(1536))).toHaveLength(0);
  });
});
