/**
 * Array kernels over a prime field's elements (emitted for a curve's scalar field F_r where the
 * descriptor asks for them: BLS12-381 and BN254, for pippin/kzg and the Groth16 prover through
 * src/msm/fr-arrays.ts): radix-2 FFTs with a twiddle table, a bit-reversal permutation, powers,
 * pointwise sums, differences, products and scalings, x·y − z, an inner product, a strided gather,
 * and whole-array byte codecs (both endians).
 *
 * Every kernel is written over the field's own element kernels (`<f>_mul`, `<f>_add`, `<f>_sub`,
 * `<f>_from_bytes_be`, `<f>_to_bytes_le`/`_be`, `<f>_copy`, `<f>_set_zero`), so the same code
 * serves both limb layouts (./field.ts on 26…30-bit limbs, ./field64.ts on 64-bit limbs).
 *
 * Conventions (as ./field.ts): pointers are byte addresses, an array of count elements is count
 * consecutive elements of EB bytes (the layout's elementBytes), counts are element counts; element
 * inputs are in the redundant range [0, 2p) and outputs too; nothing is constant-time.
 */
import { FuncBuilder, I32, i32 } from './wat.js';
import type { FieldGen } from './field.js';

export class FieldVectorGen {
  constructor(readonly fg: FieldGen) {}

  describe(): string[] {
    return [`${this.fg.f} array kernels: ${this.fg.f}_fft, _bit_reverse, _powers, _vec_add, _vec_sub, _vec_mul, _vec_mul_sub, _vec_scale, _vec_sub_scalar, _dot, _gather, _from_bytes_le_batch, _from_bytes_be_batch, _from_bytes_be_raw_batch, _to_bytes_le_batch, _to_bytes_be_batch`];
  }

  emitAll(): void {
    this.emitFft();
    this.emitBitReverse();
    this.emitPowers();
    this.emitPointwise();
    this.emitDot();
    this.emitGather();
    this.emitCodecs();
  }

  private get EB(): number {
    return this.fg.L.elementBytes;
  }
  /** base + k·EB */
  private at(base: I32, k: I32): I32 {
    return i32.add(base, i32.mul(k, i32.const(this.EB)));
  }

  /**
   * In-place radix-2 FFT (Cooley–Tukey 1965) of n = 2^k elements, both orders without a
   * permutation (as src/kzg/fr.ts fftDit / fftDif, its bigint reference):
   * - dif = 0, decimation in time: a in bit-reversed order → a(w^j) in natural order; layers
   *   len = 2, 4, …, n; butterfly (u, v) ← (u + t·v, u − t·v);
   * - dif = 1, decimation in frequency: natural order → bit-reversed order; layers len = n, …, 2;
   *   butterfly (u, v) ← (u + v, (u − v)·t).
   * The twiddle of butterfly j of a layer of length len is tw[j·twStep·(n/len)]: tw holds w^i
   * (Montgomery form) at element i, for i < twStep·n/2, w a primitive (twStep·n)-th root (or its
   * inverse for an inverse transform, without the 1/n). So one table of w^i for a size N serves
   * every size n | N with twStep = N/n. The twiddle w^0 = 1 is skipped (no product).
   */
  private emitFft(): void {
    const { fg, EB } = this;
    const f = fg.f;
    fg.mb.func(`${f}_fft`, { a: 'i32', n: 'i32', tw: 'i32', twStep: 'i32', dif: 'i32', scratch: 'i32' }, undefined, [
      `${f}_fft(a, n, tw, twStep, dif, scratch): in-place radix-2 FFT of the n = 2^k elements at a (n ≥ 1; n = 1 is the identity).`,
      `dif = 0: decimation in time, bit-reversed order in, natural order out; dif = 1: decimation in frequency, natural in, bit-reversed out.`,
      `Butterfly j of a layer of length len takes the twiddle tw[j·twStep·(n/len)]: tw = (w^i) for i < twStep·n/2, w a primitive`,
      `(twStep·n)-th root of unity (its inverse: the inverse transform, not scaled by 1/n). Elements in [0, 2p) in and out.`,
      `tw and scratch must not overlap a. scratch: 1 element (${EB} bytes). Cost: (n/2)·log2(n) butterflies of ${f}_add + ${f}_sub,`,
      `and ${f}_mul for every twiddle other than w^0 ((n/2)·log2(n) − n + 1 products). Algorithm: Cooley–Tukey, as src/kzg/fr.ts fftDit / fftDif.`,
    ], (fb) => {
      const a = fb.param('a', 'i32');
      const n = fb.param('n', 'i32');
      const tw = fb.param('tw', 'i32');
      const twStep = fb.param('twStep', 'i32');
      const dif = fb.param('dif', 'i32');
      const t = fb.param('scratch', 'i32');
      const len = fb.local('len', 'i32');
      const half = fb.local('half', 'i32');
      const i0 = fb.local('i0', 'i32');
      const j = fb.local('j', 'i32');
      const u = fb.local('u', 'i32');
      const v = fb.local('v', 'i32');
      const w = fb.local('w', 'i32');
      const wStride = fb.local('wStride', 'i32');
      const halfBytes = fb.local('halfBytes', 'i32');
      /** One layer: for every group i0 (step len) and j < half: u = a[i0 + j], v = a[i0 + j + half]. */
      const layer = (butterfly: (first: boolean) => void) => {
        half.set(i32.shr_u(len.get, 1));
        halfBytes.set(i32.mul(half.get, i32.const(EB)));
        // twiddle stride in bytes: twStep·(n/len) elements
        wStride.set(i32.mul(i32.mul(twStep.get, i32.div_u(n.get, len.get)), i32.const(EB)));
        i0.set(i32.const(0));
        fb.loop((groups) => {
          u.set(this.at(a.get, i0.get));
          v.set(i32.add(u.get, halfBytes.get));
          fb.comment('j = 0: twiddle 1');
          butterfly(true);
          w.set(tw.get);
          fb.forRange(j, i32.const(1), half.get, 1, () => {
            u.set(i32.add(u.get, i32.const(EB)));
            v.set(i32.add(v.get, i32.const(EB)));
            w.set(i32.add(w.get, wStride.get));
            butterfly(false);
          });
          fb.brIf(groups, i32.lt_u(i0.tee(i32.add(i0.get, len.get)), n.get));
        });
      };
      fb.if(i32.lt_u(n.get, i32.const(2)), () => fb.ret());
      fb.if(i32.eqz(dif.get), () => {
        fb.comment('decimation in time: len = 2, 4, …, n; (u, v) ← (u + t·v, u − t·v)');
        len.set(i32.const(2));
        fb.loop((layers) => {
          layer((first) => {
            if (first) {
              fb.call(`${f}_sub`, t.get, u.get, v.get);
              fb.call(`${f}_add`, u.get, u.get, v.get);
              fb.call(`${f}_copy`, v.get, t.get);
            } else {
              fb.call(`${f}_mul`, t.get, v.get, w.get);
              fb.call(`${f}_sub`, v.get, u.get, t.get);
              fb.call(`${f}_add`, u.get, u.get, t.get);
            }
          });
          len.set(i32.shl(len.get, 1));
          fb.brIf(layers, i32.le_u(len.get, n.get));
        });
      }, () => {
        fb.comment('decimation in frequency: len = n, n/2, …, 2; (u, v) ← (u + v, (u − v)·t)');
        len.set(n.get);
        fb.loop((layers) => {
          layer((first) => {
            fb.call(`${f}_sub`, t.get, u.get, v.get);
            fb.call(`${f}_add`, u.get, u.get, v.get);
            if (first) fb.call(`${f}_copy`, v.get, t.get);
            else fb.call(`${f}_mul`, v.get, t.get, w.get);
          });
          len.set(i32.shr_u(len.get, 1));
          fb.brIf(layers, i32.ge_u(len.get, i32.const(2)));
        });
      });
    }, { scratch: EB });
  }

  /**
   * In-place bit-reversal permutation: a[i] ↔ a[rev(i)] for i < rev(i), rev reversing log2(n) bits.
   * rev(i) is kept incrementally (the reversed counter: clear the leading ones from the top bit down,
   * set the next), so no table; ≈ n/2 swaps of three element copies.
   */
  private emitBitReverse(): void {
    const { fg, EB } = this;
    const f = fg.f;
    fg.mb.func(`${f}_bit_reverse`, { a: 'i32', n: 'i32', scratch: 'i32' }, undefined, [
      `${f}_bit_reverse(a, n, scratch): permutes the n = 2^k elements at a in place, element i to position rev_k(i) (k-bit reversal; n = 1: identity).`,
      `Any element values (copied, not reduced). scratch: 1 element (${EB} bytes), not in a. Cost: (n − 2^⌈k/2⌉)/2 swaps, 3 ${f}_copy each,`,
      `and ≤ 2n steps of the reversed counter. Turns ${f}_fft's bit-reversed order into the natural one and back.`,
    ], (fb) => {
      const a = fb.param('a', 'i32');
      const n = fb.param('n', 'i32');
      const t = fb.param('scratch', 'i32');
      const i = fb.local('i', 'i32');
      const j = fb.local('j', 'i32');
      const bit = fb.local('bit', 'i32');
      const x = fb.local('x', 'i32');
      const y = fb.local('y', 'i32');
      j.set(i32.const(0));
      fb.forRange(i, i32.const(0), n.get, 1, () => {
        fb.if(i32.lt_u(i.get, j.get), () => {
          x.set(this.at(a.get, i.get));
          y.set(this.at(a.get, j.get));
          fb.call(`${f}_copy`, t.get, x.get);
          fb.call(`${f}_copy`, x.get, y.get);
          fb.call(`${f}_copy`, y.get, t.get);
        });
        fb.comment('j = rev(i + 1): clear the top ones of j, then set the first zero below them');
        bit.set(i32.shr_u(n.get, 1));
        fb.block((done) => {
          fb.loop((more) => {
            fb.brIf(done, i32.eqz(i32.and(j.get, bit.get)));
            j.set(i32.xor(j.get, bit.get));
            bit.set(i32.shr_u(bit.get, 1));
            fb.br(more);
          });
        });
        j.set(i32.or(j.get, bit.get));
      });
    }, { scratch: EB });
  }

  /** out[k] = s·g^k. */
  private emitPowers(): void {
    const { fg } = this;
    const f = fg.f;
    fg.mb.func(`${f}_powers`, { out: 'i32', s: 'i32', g: 'i32', count: 'i32' }, undefined, [
      `${f}_powers(out, s, g, count): out[k] = s·g^k for k < count (a running product: count − 1 ${f}_mul).`,
      `s and g must not lie in out[1…count) (s is read once, first; g at every step).`,
    ], (fb) => {
      const out = fb.param('out', 'i32');
      const g = fb.param('g', 'i32');
      const count = fb.param('count', 'i32');
      const k = fb.local('k', 'i32');
      const at = fb.local('at', 'i32');
      fb.if(i32.eqz(count.get), () => fb.ret());
      fb.call(`${f}_copy`, out.get, fb.param('s', 'i32').get);
      at.set(out.get);
      fb.forRange(k, i32.const(1), count.get, 1, () => {
        fb.call(`${f}_mul`, i32.add(at.get, i32.const(this.EB)), at.get, g.get);
        at.set(i32.add(at.get, i32.const(this.EB)));
      });
    });
  }

  /** Pointwise kernels: out[k] = x[k] + y[k], x[k] − y[k], x[k]·y[k], x[k]·y[k] − z[k], x[k]·s, x[k] − s. */
  private emitPointwise(): void {
    const { fg } = this;
    const f = fg.f;
    const EB = i32.const(this.EB);
    const each = (fb: FuncBuilder, count: I32, body: (o: I32, x: I32, k: I32) => void) => {
      const k = fb.local('k', 'i32');
      const o = fb.local('o', 'i32');
      const x = fb.local('xk', 'i32');
      o.set(fb.param('out', 'i32').get);
      x.set(fb.param('x', 'i32').get);
      fb.forRange(k, i32.const(0), count, 1, () => {
        body(o.get, x.get, k.get);
        o.set(i32.add(o.get, EB));
        x.set(i32.add(x.get, EB));
      });
    };
    fg.mb.func(`${f}_vec_mul`, { out: 'i32', x: 'i32', y: 'i32', count: 'i32' }, undefined, [
      `${f}_vec_mul(out, x, y, count): out[k] = x[k]·y[k] for k < count (count ${f}_mul). out may equal x or y (same start), else must not overlap them.`,
    ], (fb) => {
      const y = fb.local('yk', 'i32');
      y.set(fb.param('y', 'i32').get);
      each(fb, fb.param('count', 'i32').get, (o, x) => {
        fb.call(`${f}_mul`, o, x, y.get);
        y.set(i32.add(y.get, EB));
      });
    });
    for (const [op, sign] of [['add', '+'], ['sub', '−']] as const) {
      fg.mb.func(`${f}_vec_${op}`, { out: 'i32', x: 'i32', y: 'i32', count: 'i32' }, undefined, [
        `${f}_vec_${op}(out, x, y, count): out[k] = x[k] ${sign} y[k] for k < count (count ${f}_${op}). out may equal x or y (same start), else must not overlap them.`,
      ], (fb) => {
        const y = fb.local('yk', 'i32');
        y.set(fb.param('y', 'i32').get);
        each(fb, fb.param('count', 'i32').get, (o, x) => {
          fb.call(`${f}_${op}`, o, x, y.get);
          y.set(i32.add(y.get, EB));
        });
      });
    }
    fg.mb.func(`${f}_vec_mul_sub`, { out: 'i32', x: 'i32', y: 'i32', z: 'i32', count: 'i32', scratch: 'i32' }, undefined, [
      `${f}_vec_mul_sub(out, x, y, z, count, scratch): out[k] = x[k]·y[k] − z[k] for k < count (count ${f}_mul + ${f}_sub; Groth16's A·B − C on the coset).`,
      `out may equal x, y or z (same start), else must not overlap them. scratch: 1 element (${this.EB} bytes), in none of them.`,
    ], (fb) => {
      const y = fb.local('yk', 'i32');
      const z = fb.local('zk', 'i32');
      const t = fb.param('scratch', 'i32');
      y.set(fb.param('y', 'i32').get);
      z.set(fb.param('z', 'i32').get);
      each(fb, fb.param('count', 'i32').get, (o, x) => {
        fb.call(`${f}_mul`, t.get, x, y.get);
        fb.call(`${f}_sub`, o, t.get, z.get);
        y.set(i32.add(y.get, EB));
        z.set(i32.add(z.get, EB));
      });
    }, { scratch: this.EB });
    fg.mb.func(`${f}_vec_scale`, { out: 'i32', x: 'i32', s: 'i32', count: 'i32' }, undefined, [
      `${f}_vec_scale(out, x, s, count): out[k] = x[k]·s for k < count (count ${f}_mul). out may equal x; s must not lie in out.`,
    ], (fb) => {
      const s = fb.param('s', 'i32');
      each(fb, fb.param('count', 'i32').get, (o, x) => fb.call(`${f}_mul`, o, x, s.get));
    });
    fg.mb.func(`${f}_vec_sub_scalar`, { out: 'i32', x: 'i32', s: 'i32', count: 'i32' }, undefined, [
      `${f}_vec_sub_scalar(out, x, s, count): out[k] = x[k] − s for k < count (count ${f}_sub). out may equal x; s must not lie in out.`,
    ], (fb) => {
      const s = fb.param('s', 'i32');
      each(fb, fb.param('count', 'i32').get, (o, x) => fb.call(`${f}_sub`, o, x, s.get));
    });
  }

  /** out = Σ x[k]·y[k]. */
  private emitDot(): void {
    const { fg, EB } = this;
    const f = fg.f;
    fg.mb.func(`${f}_dot`, { out: 'i32', x: 'i32', y: 'i32', count: 'i32', scratch: 'i32' }, undefined, [
      `${f}_dot(out, x, y, count, scratch): out = Σ_{k < count} x[k]·y[k] (0 for count = 0); count ${f}_mul + count ${f}_add.`,
      `out may lie anywhere (written last). scratch: 2 elements (${2 * EB} bytes), not overlapping x or y.`,
    ], (fb) => {
      const x = fb.local('xk', 'i32');
      const y = fb.local('yk', 'i32');
      const k = fb.local('k', 'i32');
      const acc = fb.param('scratch', 'i32');
      const tmp = i32.add(acc.get, i32.const(EB));
      x.set(fb.param('x', 'i32').get);
      y.set(fb.param('y', 'i32').get);
      fb.call(`${f}_set_zero`, acc.get);
      fb.forRange(k, i32.const(0), fb.param('count', 'i32').get, 1, () => {
        fb.call(`${f}_mul`, tmp, x.get, y.get);
        fb.call(`${f}_add`, acc.get, acc.get, tmp);
        x.set(i32.add(x.get, i32.const(EB)));
        y.set(i32.add(y.get, i32.const(EB)));
      });
      fb.call(`${f}_copy`, fb.param('out', 'i32').get, acc.get);
    }, { scratch: 2 * EB });
  }

  /** out[k] = x[k·step]. */
  private emitGather(): void {
    const { fg, EB } = this;
    const f = fg.f;
    fg.mb.func(`${f}_gather`, { out: 'i32', x: 'i32', step: 'i32', count: 'i32' }, undefined, [
      `${f}_gather(out, x, step, count): out[k] = x[k·step] for k < count (a strided copy, step in elements, step = 0 broadcasts x[0]).`,
      `out must not overlap the elements read.`,
    ], (fb) => {
      const o = fb.local('o', 'i32');
      const x = fb.local('xk', 'i32');
      const k = fb.local('k', 'i32');
      const stride = fb.local('stride', 'i32');
      o.set(fb.param('out', 'i32').get);
      x.set(fb.param('x', 'i32').get);
      stride.set(i32.mul(fb.param('step', 'i32').get, i32.const(EB)));
      fb.forRange(k, i32.const(0), fb.param('count', 'i32').get, 1, () => {
        fb.call(`${f}_copy`, o.get, x.get);
        o.set(i32.add(o.get, i32.const(EB)));
        x.set(i32.add(x.get, stride.get));
      });
    });
  }

  /** Whole arrays ↔ canonical byte encodings. */
  private emitCodecs(): void {
    const { fg, EB } = this;
    const f = fg.f;
    const B = fg.L.byteLength;
    if (EB < B) throw new Error(`${f}: elements (${EB} bytes) smaller than their encoding (${B} bytes): the in-place codecs assume EB ≥ ${B}`);
    // count elements from consecutive B-byte integers, the last first (so out may equal src: EB ≥ B, and
    // each element's bytes are read before it is written); → the lowest index of one ≥ p, or −1
    const fromBytesBatch = (name: string, doc: string[], readOne: (fb: FuncBuilder, out: I32, src: I32) => I32) =>
      fg.mb.func(name, { out: 'i32', src: 'i32', count: 'i32' }, 'i32', doc, (fb) => {
        const out = fb.param('out', 'i32');
        const src = fb.param('src', 'i32');
        const k = fb.local('k', 'i32');
        const bad = fb.local('bad', 'i32');
        bad.set(i32.const(-1));
        fb.forRangeDown(k, fb.param('count', 'i32').get, () => {
          fb.if(i32.eqz(readOne(fb, this.at(out.get, k.get), i32.add(src.get, i32.mul(k.get, i32.const(B))))), () => bad.set(k.get));
        });
        fb.ret(bad.get);
      });
    for (const endian of ['le', 'be'] as const) {
      const E = endian.toUpperCase();
      fromBytesBatch(`${f}_from_bytes_${endian}_batch`, [
        `${f}_from_bytes_${endian}_batch(out, src, count) → −1 if all count ${B}-byte ${E} integers at src are < p, else the lowest index of one that is not.`,
        `out[k] = integer k (consecutive at src) in Montgomery form, all converted, valid or not (the caller decides).`,
        `Runs from the last element down, so out may equal src (EB = ${EB} ≥ ${B}: element k is written after every element below it was read,`,
        `and ${f}_from_bytes_${endian} reads its ${B} bytes before writing); else no overlap. Cost: count ${f}_from_bytes_${endian} (one Montgomery product by R² each).`,
      ], (fb, out, src) => fb.callExpr('i32', `${f}_from_bytes_${endian}`, out, src));
    }
    fromBytesBatch(`${f}_from_bytes_be_raw_batch`, [
      `${f}_from_bytes_be_raw_batch(out, src, count) → −1 if all count ${B}-byte BE integers at src are < p, else the lowest index of one that is not.`,
      `out[k] = integer k as it is, not converted: the Montgomery form of k·R⁻¹ (for callers that compute a function linear in the values`,
      `and multiply the result by R once). out may equal src as in ${f}_from_bytes_be_batch; else no overlap. Cost: count byte reads and comparisons.`,
    ], (fb, out, src) => fg.readBytes(fb, out, src, 'be').get);
    for (const endian of ['le', 'be'] as const) {
      fg.mb.func(`${f}_to_bytes_${endian}_batch`, { dst: 'i32', dstStride: 'i32', x: 'i32', count: 'i32' }, undefined, [
        `${f}_to_bytes_${endian}_batch(dst, dstStride, x, count): the canonical ${B}-byte ${endian.toUpperCase()} encoding of x[k] (Montgomery form in) at dst + k·dstStride, for k < count.`,
        `dst may equal x when ${B} ≤ dstStride ≤ EB (= ${EB}: every element is read before its bytes are written, and writes stay below unread elements); else no overlap.`,
        `Cost: count ${f}_to_bytes_${endian} (one Montgomery product by 1 and a conditional subtraction each).`,
      ], (fb) => {
        const d = fb.local('d', 'i32');
        const x = fb.local('xk', 'i32');
        const k = fb.local('k', 'i32');
        d.set(fb.param('dst', 'i32').get);
        x.set(fb.param('x', 'i32').get);
        fb.forRange(k, i32.const(0), fb.param('count', 'i32').get, 1, () => {
          fb.call(`${f}_to_bytes_${endian}`, d.get, x.get);
          d.set(i32.add(d.get, fb.param('dstStride', 'i32').get));
          x.set(i32.add(x.get, i32.const(EB)));
        });
      });
    }
  }
}
