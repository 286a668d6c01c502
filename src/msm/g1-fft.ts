/**
 * Radix-2 FFTs over G1 (points as coefficients, scalar-field roots of unity as twiddles), several
 * transforms of one size at once so that every layer is one round of batched affine additions
 * (src/msm/affine-batch.ts). Twiddles ±1 are skipped; the others are batched GLV multiplications.
 * Cost per layer of t transforms of size n: t·n batched additions + t·(n/2 − 1) multiplications.
 */
import { glvNaf, type AddOp, type AffineBatch, type Glv, type GlvNaf, type Points } from './affine-batch.js';

/** The twiddles of one domain: ω_N^e for a primitive N-th root ω_N, as GLV wNAF scalars (made once each). */
export class G1Twiddles {
  private readonly cache = new Map<number, GlvNaf>();

  constructor(
    /** N: the order of the root; transforms of any power-of-two size n ≤ N use ω_N^(N/n) */
    readonly order: number,
    /** ω_N^e (e < N) */
    private readonly power: (e: number) => bigint,
    private readonly glv: Glv,
  ) {}

  naf(e: number): GlvNaf {
    let g = this.cache.get(e);
    if (!g) this.cache.set(e, (g = glvNaf(this.power(e), this.glv)));
    return g;
  }
}

/** `count` G1 FFTs of `size` points, in two ping-pong point arrays of the batch's arena (transform t at t·size). */
export class G1Fft {
  a: Points;
  b: Points;

  constructor(
    private readonly batch: AffineBatch,
    private readonly twiddles: G1Twiddles,
    readonly count: number,
    readonly size: number,
  ) {
    if (!(Number.isInteger(Math.log2(size)) && size >= 2 && size <= twiddles.order)) throw new RangeError(`G1Fft: size ${size} is not a power of two in 2…${twiddles.order}`);
    this.a = batch.points(count * size);
    this.b = batch.points(count * size);
  }

  private swap(): Points {
    [this.a, this.b] = [this.b, this.a];
    return this.a;
  }

  /** Butterflies of one layer: out[i] = u + v, out[i + half] = u − v. */
  private butterflies(half: number, len: number): void {
    const ops: AddOp[] = [];
    const { size } = this;
    for (let t = 0; t < this.count; t++) {
      for (let i0 = t * size; i0 < (t + 1) * size; i0 += len) {
        for (let j = 0; j < half; j++) {
          const u: [Points, number] = [this.a, i0 + j];
          const v: [Points, number] = [this.a, i0 + j + half];
          ops.push({ dst: [this.b, i0 + j], a: u, b: v, neg: false });
          ops.push({ dst: [this.b, i0 + j + half], a: u, b: v, neg: true });
        }
      }
    }
    this.batch.addRound(ops);
    this.swap();
  }

  /** Multiplies point i0 + j + half of every group by the layer's twiddle j (j > 0). */
  private twiddleLayer(half: number, len: number, inverse: boolean): void {
    const idx: number[] = [];
    const glv: GlvNaf[] = [];
    const N = this.twiddles.order;
    const step = N / len;
    const { size } = this;
    for (let t = 0; t < this.count; t++) {
      for (let i0 = t * size; i0 < (t + 1) * size; i0 += len) {
        for (let j = 1; j < half; j++) {
          idx.push(i0 + j + half);
          glv.push(this.twiddles.naf(inverse ? N - j * step : j * step));
        }
      }
    }
    this.batch.mulBatch(this.a, idx, glv);
  }

  /** Decimation in time on `a` (bit-reversed in, natural out); inverse: ω⁻¹ twiddles, no 1/n. Returns the result array. */
  dit(inverse: boolean): Points {
    for (let len = 2; len <= this.size; len <<= 1) {
      const half = len >> 1;
      this.twiddleLayer(half, len, inverse);
      this.butterflies(half, len);
    }
    return this.a;
  }

  /** Decimation in frequency on `a` (natural in, bit-reversed out). Returns the result array. */
  dif(inverse: boolean): Points {
    for (let len = this.size; len >= 2; len >>= 1) {
      const half = len >> 1;
      this.butterflies(half, len);
      this.twiddleLayer(half, len, inverse);
    }
    return this.a;
  }
}
