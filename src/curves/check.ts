/**
 * Computational sanity check of a CurveParams record. Every property is verified
 * by arithmetic on the reference implementation; nothing is taken on trust.
 */
import { modPow } from '../reference/arith.js';
import { RefCurve } from '../reference/curve.js';
import { RefField } from '../reference/field.js';
import type { CurveParams } from './types.js';

const SMALL_PRIMES = [2n, 3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n, 43n, 47n, 53n, 59n, 61n, 67n, 71n, 73n];


/**
 * Miller–Rabin with the fixed bases 2..73 (the first 21 primes). Deterministic for
 * n < 3.3·10^24 and, for larger n, a composite passes all 21 bases with probability
 * far below anything that matters for fixed, published parameters.
 */
export function isProbablePrime(n: bigint): boolean {
  if (n < 2n) return false;
  for (const q of SMALL_PRIMES) {
    if (n === q) return true;
    if (n % q === 0n) return false;
  }
  let d = n - 1n;
  let s = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    s++;
  }
  for (const a of SMALL_PRIMES) {
    let x = modPow(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    let composite = true;
    for (let i = 1; i < s; i++) {
      x = (x * x) % n;
      if (x === n - 1n) {
        composite = false;
        break;
      }
    }
    if (composite) return false;
  }
  return true;
}

function check(cond: boolean, c: CurveParams, what: string): void {
  if (!cond) throw new Error(`checkCurveParams(${c.name}): ${what}`);
}

/**
 * Throws an Error naming the first failed property. Verifies:
 * - p and r are (probable) primes, a and b are canonical and the curve is non-singular;
 * - G1 is a finite point on the curve with r·G1 = O (so, r being prime, G1 has order r);
 * - h1·r lies in the Hasse interval |p + 1 - h1·r| <= 2·sqrt(p), and (h1·r)·Q = O for a
 *   few points Q of E(F_p) found by scanning x = 0, 1, 2, ...
 *   When r > 4·sqrt(p) (true for BLS12-381) the first two facts already prove
 *   #E = h1·r: r | #E because G has order r, and the Hasse interval then holds only one
 *   multiple of r. The point test is what catches a wrong cofactor on curves with a
 *   small r (where several multiples of r fit in the interval);
 * - beta³ = 1 ≠ beta in F_p and lambda³ = 1 ≠ lambda in F_r;
 * - lambda·G1 = (beta·G1.x, G1.y).
 */
export function checkCurveParams(c: CurveParams): void {
  check(typeof c.name === 'string' && c.name.length > 0, c, 'name must be a non-empty string');
  check(c.p > 3n && isProbablePrime(c.p), c, 'p is not prime');
  check(c.r > 3n && isProbablePrime(c.r), c, 'r is not prime');
  const Fp = new RefField(c.p);
  const Fr = new RefField(c.r);
  check(Fp.isValid(c.a) && Fp.isValid(c.b), c, 'a and b must be in [0, p)');
  const disc = Fp.add(Fp.mul(4n, Fp.pow(c.a, 3n)), Fp.mul(27n, Fp.sqr(c.b)));
  check(disc !== 0n, c, 'curve is singular (4a³ + 27b² = 0)');

  const curve = new RefCurve(c);
  const G = c.G1;
  check(curve.isOnCurve(G), c, 'generator is not on the curve');
  check(curve.mul(G, c.r) === null, c, 'r·G != O');

  check(c.h1 > 0n, c, 'cofactor must be positive');
  const order = c.h1 * c.r;
  const trace = c.p + 1n - order;
  check(trace * trace <= 4n * c.p, c, 'h1·r is outside the Hasse interval');
  let found = 0;
  for (let x = 0n; found < 3 && x < c.p && x < 10_000n; x++) {
    const rhs = Fp.add(Fp.add(Fp.pow(x, 3n), Fp.mul(c.a, x)), c.b);
    const y = Fp.sqrt(rhs);
    if (y === undefined) continue;
    const Q = { x, y };
    check(curve.mul(Q, order) === null, c, `(h1·r)·Q != O for Q with x = ${x}`);
    found++;
  }
  check(found > 0, c, 'could not find a test point for the cofactor check');

  check(Fp.pow(c.beta, 3n) === 1n && Fp.mod(c.beta) !== 1n, c, 'beta is not a primitive cube root of unity in Fp');
  check(Fr.pow(c.lambda, 3n) === 1n && Fr.mod(c.lambda) !== 1n, c, 'lambda is not a primitive cube root of unity in Fr');
  check(curve.eq(curve.mul(G, Fr.mod(c.lambda)), curve.endo(G)), c, 'lambda·G != (beta·G.x, G.y)');
}
