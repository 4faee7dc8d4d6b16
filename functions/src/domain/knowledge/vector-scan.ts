/**
 * The vector half's hot loop: the dot product of one query with every row of an n × dims float32
 * matrix (5,000 × 1,536 = 7.7 M multiply-adds per query). Plain JavaScript runs it scalar; a tiny
 * WebAssembly function (below, ~150 bytes, assembled here by hand) runs it with 128-bit SIMD,
 * four lanes and two accumulators, several times faster. The matrix then lives in the module's
 * linear memory (one WebAssembly.Memory per agent index, sized once, never grown) and
 * `data` is a Float32Array view of it. Where SIMD is unavailable, or dims is not a multiple of 8,
 * the same interface runs in JavaScript over an ordinary Float32Array.
 *
 *   (func (export "dots") (param $m i32) (param $q i32) (param $out i32) (param $n i32) (param $rowBytes i32)
 *     for i < n: acc0 = acc1 = 0; for j < rowBytes step 32: acc0 += m[row+j..+16) * q[j..+16); acc1 += (+16)
 *                out[i] = Σ lanes(acc0 + acc1); row += rowBytes)
 */

export interface VectorMatrix {
  readonly rows: number;
  readonly dims: number;
  /** rows × dims, row-major: write the vectors here. */
  readonly data: Float32Array;
  /** Dot product of `query` (dims long) with every row. Returns a new array (length rows). */
  scores(query: Float32Array): Float32Array;
  /** Which implementation runs (for the bench and tests). */
  readonly kind: 'wasm-simd' | 'js';
}

// ---- the WebAssembly module, assembled by hand

const SIMD = 0xfd;
const op = {
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  get: 0x20,
  set: 0x21,
  i32const: 0x41,
  i32geU: 0x4f,
  i32add: 0x6a,
  i32shl: 0x74,
  f32add: 0x92,
  f32store: 0x38,
} as const;
const VOID = 0x40;
// params 0..4: m, q, out, n, rowBytes; locals 5..7 (i32): i, j, row; 8..9 (v128): acc0, acc1
const [M, Q, OUT, N, ROW_BYTES, I, J, ROW, ACC0, ACC1] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
const v128load = (offset: number) => [SIMD, 0x00, 0x04, offset];
const f32x4add = [SIMD, 0xe4, 0x01];
const f32x4mul = [SIMD, 0xe6, 0x01];
const v128zero = [SIMD, 0x0c, ...new Array<number>(16).fill(0)];
const lane = (l: number) => [SIMD, 0x1f, l];

const body = [
  0x02, 0x03, 0x7f, 0x02, 0x7b, // locals: 3 × i32, 2 × v128
  op.get, M, op.set, ROW,
  op.i32const, 0, op.set, I,
  op.block, VOID,
  op.loop, VOID,
  op.get, I, op.get, N, op.i32geU, op.brIf, 1,
  ...v128zero, op.set, ACC0,
  ...v128zero, op.set, ACC1,
  op.i32const, 0, op.set, J,
  op.block, VOID,
  op.loop, VOID,
  op.get, J, op.get, ROW_BYTES, op.i32geU, op.brIf, 1,
  op.get, ACC0,
  op.get, ROW, op.get, J, op.i32add, ...v128load(0),
  op.get, Q, op.get, J, op.i32add, ...v128load(0),
  ...f32x4mul, ...f32x4add, op.set, ACC0,
  op.get, ACC1,
  op.get, ROW, op.get, J, op.i32add, ...v128load(16),
  op.get, Q, op.get, J, op.i32add, ...v128load(16),
  ...f32x4mul, ...f32x4add, op.set, ACC1,
  op.get, J, op.i32const, 32, op.i32add, op.set, J,
  op.br, 0,
  op.end,
  op.end,
  // out[i] = Σ lanes(acc0 + acc1)
  op.get, OUT, op.get, I, op.i32const, 2, op.i32shl, op.i32add,
  op.get, ACC0, op.get, ACC1, ...f32x4add, op.set, ACC0,
  op.get, ACC0, ...lane(0),
  op.get, ACC0, ...lane(1), op.f32add,
  op.get, ACC0, ...lane(2), op.f32add,
  op.get, ACC0, ...lane(3), op.f32add,
  op.f32store, 0x02, 0x00,
  op.get, ROW, op.get, ROW_BYTES, op.i32add, op.set, ROW,
  op.get, I, op.i32const, 1, op.i32add, op.set, I,
  op.br, 0,
  op.end,
  op.end,
  op.end, // function
];

const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content];
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}
const name = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];

const WASM = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]), // type: (i32 ×5) → ()
  ...section(2, [0x01, ...name('env'), ...name('memory'), 0x02, 0x00, 0x01]), // import env.memory, min 1 page
  ...section(3, [0x01, 0x00]), // one function of type 0
  ...section(7, [0x01, ...name('dots'), 0x00, 0x00]), // export "dots" = func 0
  ...section(10, [0x01, ...uleb(body.length), ...body]),
]);

/** The slice of the WebAssembly JS API used here (the project's TypeScript libs do not declare it as a value). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
}
const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: object | null | undefined;
function simdModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = wasm?.validate(WASM) ? new wasm.Module(WASM) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

const PAGE = 65_536;

/** Σ a[aOffset + j] · b[j] for j < dims, unrolled by 4 (the scan without SIMD, and vector norms). */
export function dot(a: Float32Array, aOffset: number, b: Float32Array, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j + 3 < dims; j += 4) {
    s0 += a[aOffset + j]! * b[j]!;
    s1 += a[aOffset + j + 1]! * b[j + 1]!;
    s2 += a[aOffset + j + 2]! * b[j + 2]!;
    s3 += a[aOffset + j + 3]! * b[j + 3]!;
  }
  for (; j < dims; j++) s0 += a[aOffset + j]! * b[j]!;
  return s0 + s1 + s2 + s3;
}

export function createVectorMatrix(rows: number, dims: number, options: { allowWasm?: boolean } = {}): VectorMatrix {
  const module = options.allowWasm === false || dims % 8 !== 0 || rows === 0 ? null : simdModule();
  if (module && wasm) {
    const matrixBytes = rows * dims * 4;
    const queryOffset = matrixBytes;
    const outOffset = queryOffset + dims * 4;
    const total = outOffset + rows * 4;
    if (total < 2 ** 31) {
      const memory = new wasm.Memory({ initial: Math.ceil(total / PAGE) });
      const instance = new wasm.Instance(module, { env: { memory } });
      const dots = instance.exports.dots as (m: number, q: number, out: number, n: number, rowBytes: number) => void;
      const data = new Float32Array(memory.buffer, 0, rows * dims);
      const query = new Float32Array(memory.buffer, queryOffset, dims);
      const out = new Float32Array(memory.buffer, outOffset, rows);
      return {
        rows,
        dims,
        data,
        kind: 'wasm-simd',
        scores(q) {
          query.set(q.subarray(0, dims));
          dots(0, queryOffset, outOffset, rows, dims * 4);
          return out.slice();
        },
      };
    }
  }
  const data = new Float32Array(rows * dims);
  return {
    rows,
    dims,
    data,
    kind: 'js',
    scores(q) {
      const out = new Float32Array(rows);
      for (let i = 0; i < rows; i++) {
        out[i] = dot(data, i * dims, q, dims);
      }
      return out;
    },
  };
}
