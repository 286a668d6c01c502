/**
 * Reference map_to_curve for BLS12-381 (EIP-2537 BLS12_MAP_FP_TO_G1 and BLS12_MAP_FP2_TO_G2) on plain
 * bigints: the simplified SWU map to an isogenous curve E′ (RFC 9380 §6.6.2), the 11-isogeny
 * (G1) or 3-isogeny (G2) to E (§6.6.3, Appendix E.2 and E.3), then cofactor clearing by h_eff
 * (§7; G2 with ψ, Appendix G.3). Variable time (inputs are public in the EVM).
 *
 * Constants: E′ (A′, B′), Z, h_eff and the isogeny coefficients k_(i,j) as the EIP lists them
 * (ethereum/EIPs assets/eip-2537/field_to_curve.md, CC0), equal to RFC 9380's. The tests check
 * every mapped point against @noble/curves' map and the EIP's vectors, and that E′ points map onto E.
 */
import { RefField } from './field.js';
import { RefFp2, type Fp2 } from './fp2.js';
import { bls12_381, bls12_381G2 } from '../curves/bls12-381.js';

/** The operations the map needs of F_p or F_p²: T is bigint or Fp2. */
interface Ops<T> {
  zero: T;
  one: T;
  add(a: T, b: T): T;
  sub(a: T, b: T): T;
  mul(a: T, b: T): T;
  sqr(a: T): T;
  neg(a: T): T;
  inv(a: T): T;
  eq(a: T, b: T): boolean;
  isZero(a: T): boolean;
  /** a square root when a is a square, else undefined */
  sqrt(a: T): T | undefined;
  /** RFC 9380 §4.1 */
  sgn0(a: T): 0 | 1;
}

/** An affine point, null for infinity. */
export type MapPoint<T> = { x: T; y: T } | null;

const p = bls12_381.p;
const Fp = new RefField(p);
const F2 = new RefFp2(p);

const fpOps: Ops<bigint> = {
  zero: 0n,
  one: 1n,
  add: (a, b) => Fp.add(a, b),
  sub: (a, b) => Fp.sub(a, b),
  mul: (a, b) => Fp.mul(a, b),
  sqr: (a) => Fp.sqr(a),
  neg: (a) => Fp.neg(a),
  inv: (a) => Fp.inv(a),
  eq: (a, b) => a === b,
  isZero: (a) => a === 0n,
  // p ≡ 3 (mod 4): a^((p+1)/4) is a root exactly when a is a square
  sqrt: (a) => {
    const r = Fp.pow(a, (p + 1n) / 4n);
    return Fp.sqr(r) === Fp.mod(a) ? r : undefined;
  },
  sgn0: (a) => (a & 1n ? 1 : 0),
};
const fp2Ops: Ops<Fp2> = {
  zero: F2.zero,
  one: F2.one,
  add: (a, b) => F2.add(a, b),
  sub: (a, b) => F2.sub(a, b),
  mul: (a, b) => F2.mul(a, b),
  sqr: (a) => F2.sqr(a),
  neg: (a) => F2.neg(a),
  inv: (a) => F2.inv(a),
  eq: (a, b) => F2.eq(a, b),
  isZero: (a) => F2.isZero(a),
  sqrt: (a) => F2.sqrt(a),
  sgn0: (a) => ((a[0] & 1n) === 1n || (a[0] === 0n && (a[1] & 1n) === 1n) ? 1 : 0),
};

/** One curve's map: E′ and Z for SWU, the isogeny's coefficient lists (lowest degree first), h_eff. */
interface MapParams<T> {
  A: T;
  B: T;
  Z: T;
  /** x_num, x_den, y_num, y_den; the dens are monic (their leading 1 is implicit) */
  iso: readonly [readonly T[], readonly T[], readonly T[], readonly T[]];
}

/** The 11-isogeny E′ → E of G1 (EIP-2537 field_to_curve.md, "Fp-to-G1 mapping"). */
const G1_MAP: MapParams<bigint> = {
  A: 0x144698a3b8e9433d693a02c96d4982b0ea985383ee66a8d8e8981aefd881ac98936f8da0e0f97f5cf428082d584c1dn,
  B: 0x12e2908d11688030018b12e8753eee3b2016c1f0f24f4070a0b9c14fcef35ef55a23215a316ceaa5d1cc48e98e172be0n,
  Z: 11n,
  iso: [
    // G1 k_(1,j), j = 0…11
    [0x11a05f2b1e833340b809101dd99815856b303e88a2d7005ff2627b56cdb4e2c85610c2d5f2e62d6eaeac1662734649b7n, 0x17294ed3e943ab2f0588bab22147a81c7c17e75b2f6a8417f565e33c70d1e86b4838f2a6f318c356e834eef1b3cb83bbn, 0xd54005db97678ec1d1048c5d10a9a1bce032473295983e56878e501ec68e25c958c3e3d2a09729fe0179f9dac9edcb0n, 0x1778e7166fcc6db74e0609d307e55412d7f5e4656a8dbf25f1b33289f1b330835336e25ce3107193c5b388641d9b6861n, 0xe99726a3199f4436642b4b3e4118e5499db995a1257fb3f086eeb65982fac18985a286f301e77c451154ce9ac8895d9n, 0x1630c3250d7313ff01d1201bf7a74ab5db3cb17dd952799b9ed3ab9097e68f90a0870d2dcae73d19cd13c1c66f652983n, 0xd6ed6553fe44d296a3726c38ae652bfb11586264f0f8ce19008e218f9c86b2a8da25128c1052ecaddd7f225a139ed84n, 0x17b81e7701abdbe2e8743884d1117e53356de5ab275b4db1a682c62ef0f2753339b7c8f8c8f475af9ccb5618e3f0c88en, 0x80d3cf1f9a78fc47b90b33563be990dc43b756ce79f5574a2c596c928c5d1de4fa295f296b74e956d71986a8497e317n, 0x169b1f8e1bcfa7c42e0c37515d138f22dd2ecb803a0c5c99676314baf4bb1b7fa3190b2edc0327797f241067be390c9en, 0x10321da079ce07e272d8ec09d2565b0dfa7dccdde6787f96d50af36003b14866f69b771f8c285decca67df3f1605fb7bn, 0x6e08c248e260e70bd1e962381edee3d31d79d7e22c837bc23c0bf1bc24c6b68c24b1b80b64d391fa9c8ba2e8ba2d229n],
    // G1 k_(2,j), j = 0…9
    [0x8ca8d548cff19ae18b2e62f4bd3fa6f01d5ef4ba35b48ba9c9588617fc8ac62b558d681be343df8993cf9fa40d21b1cn, 0x12561a5deb559c4348b4711298e536367041e8ca0cf0800c0126c2588c48bf5713daa8846cb026e9e5c8276ec82b3bffn, 0xb2962fe57a3225e8137e629bff2991f6f89416f5a718cd1fca64e00b11aceacd6a3d0967c94fedcfcc239ba5cb83e19n, 0x3425581a58ae2fec83aafef7c40eb545b08243f16b1655154cca8abc28d6fd04976d5243eecf5c4130de8938dc62cd8n, 0x13a8e162022914a80a6f1d5f43e7a07dffdfc759a12062bb8d6b44e833b306da9bd29ba81f35781d539d395b3532a21en, 0xe7355f8e4e667b955390f7f0506c6e9395735e9ce9cad4d0a43bcef24b8982f7400d24bc4228f11c02df9a29f6304a5n, 0x772caacf16936190f3e0c63e0596721570f5799af53a1894e2e073062aede9cea73b3538f0de06cec2574496ee84a3an, 0x14a7ac2a9d64a8b230b3f5b074cf01996e7f63c21bca68a81996e1cdf9822c580fa5b9489d11e2d311f7d99bbdcc5a5en, 0xa10ecf6ada54f825e920b3dafc7a3cce07f8d1d7161366b74100da67f39883503826692abba43704776ec3a79a1d641n, 0x95fc13ab9e92ad4476d6e3eb3a56680f682b4ee96f7d03776df533978f31c1593174e4b4b7865002d6384d168ecdd0an],
    // G1 k_(3,j), j = 0…15
    [0x90d97c81ba24ee0259d1f094980dcfa11ad138e48a869522b52af6c956543d3cd0c7aee9b3ba3c2be9845719707bb33n, 0x134996a104ee5811d51036d776fb46831223e96c254f383d0f906343eb67ad34d6c56711962fa8bfe097e75a2e41c696n, 0xcc786baa966e66f4a384c86a3b49942552e2d658a31ce2c344be4b91400da7d26d521628b00523b8dfe240c72de1f6n, 0x1f86376e8981c217898751ad8746757d42aa7b90eeb791c09e4a3ec03251cf9de405aba9ec61deca6355c77b0e5f4cbn, 0x8cc03fdefe0ff135caf4fe2a21529c4195536fbe3ce50b879833fd221351adc2ee7f8dc099040a841b6daecf2e8fedbn, 0x16603fca40634b6a2211e11db8f0a6a074a7d0d4afadb7bd76505c3d3ad5544e203f6326c95a807299b23ab13633a5f0n, 0x4ab0b9bcfac1bbcb2c977d027796b3ce75bb8ca2be184cb5231413c4d634f3747a87ac2460f415ec961f8855fe9d6f2n, 0x987c8d5333ab86fde9926bd2ca6c674170a05bfe3bdd81ffd038da6c26c842642f64550fedfe935a15e4ca31870fb29n, 0x9fc4018bd96684be88c9e221e4da1bb8f3abd16679dc26c1e8b6e6a1f20cabe69d65201c78607a360370e577bdba587n, 0xe1bba7a1186bdb5223abde7ada14a23c42a0ca7915af6fe06985e7ed1e4d43b9b3f7055dd4eba6f2bafaaebca731c30n, 0x19713e47937cd1be0dfd0b8f1d43fb93cd2fcbcb6caf493fd1183e416389e61031bf3a5cce3fbafce813711ad011c132n, 0x18b46a908f36f6deb918c143fed2edcc523559b8aaf0c2462e6bfe7f911f643249d9cdf41b44d606ce07c8a4d0074d8en, 0xb182cac101b9399d155096004f53f447aa7b12a3426b08ec02710e807b4633f06c851c1919211f20d4c04f00b971ef8n, 0x245a394ad1eca9b72fc00ae7be315dc757b3b080d4c158013e6632d3c40659cc6cf90ad1c232a6442d9d3f5db980133n, 0x5c129645e44cf1102a159f748c4a3fc5e673d81d7e86568d9ab0f5d396a7ce46ba1049b6579afb7866b1e715475224bn, 0x15e6be4e990f03ce4ea50b3b42df2eb5cb181d8f84965a3957add4fa95af01b2b665027efec01c7704b456be69c8b604n],
    // G1 k_(4,j), j = 0…14
    [0x16112c4c3a9c98b252181140fad0eae9601a6de578980be6eec3232b5be72e7a07f3688ef60c206d01479253b03663c1n, 0x1962d75c2381201e1a0cbd6c43c348b885c84ff731c4d59ca4a10356f453e01f78a4260763529e3532f6102c2e49a03dn, 0x58df3306640da276faaae7d6e8eb15778c4855551ae7f310c35a5dd279cd2eca6757cd636f96f891e2538b53dbf67f2n, 0x16b7d288798e5395f20d23bf89edb4d1d115c5dbddbcd30e123da489e726af41727364f2c28297ada8d26d98445f5416n, 0xbe0e079545f43e4b00cc912f8228ddcc6d19c9f0f69bbb0542eda0fc9dec916a20b15dc0fd2ededda39142311a5001dn, 0x8d9e5297186db2d9fb266eaac783182b70152c65550d881c5ecd87b6f0f5a6449f38db9dfa9cce202c6477faaf9b7acn, 0x166007c08a99db2fc3ba8734ace9824b5eecfdfa8d0cf8ef5dd365bc400a0051d5fa9c01a58b1fb93d1a1399126a775cn, 0x16a3ef08be3ea7ea03bcddfabba6ff6ee5a4375efa1f4fd7feb34fd206357132b920f5b00801dee460ee415a15812ed9n, 0x1866c8ed336c61231a1be54fd1d74cc4f9fb0ce4c6af5920abc5750c4bf39b4852cfe2f7bb9248836b233d9d55535d4an, 0x167a55cda70a6e1cea820597d94a84903216f763e13d87bb5308592e7ea7d4fbc7385ea3d529b35e346ef48bb8913f55n, 0x4d2f259eea405bd48f010a01ad2911d9c6dd039bb61a6290e591b36e636a5c871a5c29f4f83060400f8b49cba8f6aa8n, 0xaccbb67481d033ff5852c1e48c50c477f94ff8aefce42d28c0f9a88cea7913516f968986f7ebbea9684b529e2561092n, 0xad6b9514c767fe3c3613144b45f1496543346d98adf02267d5ceef9a00d9b8693000763e3b90ac11e99b138573345ccn, 0x2660400eb2e4f3b628bdd0d53cd76f2bf565b94e72927c1cb748df27942480e420517bd8714cc80d1fadc1326ed06f7n, 0xe0fa1d816ddc03e6b24255e0d7819c171c40f65e273b853324efcd6356caa205ca2f570f13497804415473a1d634b8fn],
  ],
};
/** The 3-isogeny E′ → E of G2 ("Fp2-to-G2 mapping"): A′ = 240·I, B′ = 1012·(1 + I), Z = −(2 + I). */
const G2_MAP: MapParams<Fp2> = {
  A: [0n, 240n],
  B: [1012n, 1012n],
  Z: [p - 2n, p - 1n],
  iso: [
    // G2 k_(1,j), j = 0…3
    [[0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97d6n, 0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97d6n], [0n, 0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71an], [0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71en, 0x8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38dn], [0x171d6541fa38ccfaed6dea691f5fb614cb14b4e7f4e810aa22d6108f142b85757098e38d0f671c7188e2aaaaaaaa5ed1n, 0n]],
    // G2 k_(2,j), j = 0…1
    [[0n, 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa63n], [0xcn, 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa9fn]],
    // G2 k_(3,j), j = 0…3
    [[0x1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c92f6812cfc71c71c6d706n, 0x1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c92f6812cfc71c71c6d706n], [0n, 0x5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97ben], [0x11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71cn, 0x8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38fn], [0x124c9ad43b6cf79bfbf7043de3811ad0761b0f37a1e26286b0e977c69aa274524e79097a56dc4bd9e1b371c71c718b10n, 0n]],
    // G2 k_(4,j), j = 0…2
    [[0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa8fbn, 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa8fbn], [0n, 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa9d3n], [0x12n, 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa99n]],
  ],
};

/** Simplified SWU onto E′: y² = x³ + A′x + B′ (RFC 9380 §6.6.2, the non-constant-time form). */
function swu<T>(F: Ops<T>, { A, B, Z }: MapParams<T>, u: T): { x: T; y: T } {
  const u2 = F.sqr(u);
  const zu2 = F.mul(Z, u2);
  const den = F.add(F.sqr(zu2), zu2); // Z²u⁴ + Zu²
  const g = (x: T) => F.add(F.mul(F.add(F.sqr(x), A), x), B);
  // exceptional case den = 0 (u = 0 among them): x1 = B/(Z·A), for which g(x1) is square by the choice of Z
  const x1 = F.isZero(den) ? F.mul(B, F.inv(F.mul(Z, A))) : F.mul(F.neg(F.mul(B, F.inv(A))), F.add(F.one, F.inv(den)));
  let x = x1;
  let y = F.sqrt(g(x1));
  if (y === undefined) {
    x = F.mul(zu2, x1);
    y = F.sqrt(g(x));
    if (y === undefined) throw new Error('map_to_curve: neither g(x1) nor g(x2) is a square (wrong constants)');
  }
  if (F.sgn0(u) !== F.sgn0(y)) y = F.neg(y);
  return { x, y };
}

/** Horner evaluation of Σ c_j·x^j (+ x^n when monic). */
function poly<T>(F: Ops<T>, c: readonly T[], x: T, monic: boolean): T {
  let acc = monic ? F.one : F.zero;
  let started = monic;
  for (let j = c.length - 1; j >= 0; j--) {
    acc = started ? F.add(F.mul(acc, x), c[j]!) : c[j]!;
    started = true;
  }
  return acc;
}

/** The isogeny E′ → E: (x_num/x_den, y·y_num/y_den); a zero denominator gives infinity (§6.6.3). */
function isoMap<T>(F: Ops<T>, { iso }: MapParams<T>, P: { x: T; y: T }): MapPoint<T> {
  const xd = poly(F, iso[1], P.x, true);
  const yd = poly(F, iso[3], P.x, true);
  if (F.isZero(xd) || F.isZero(yd)) return null;
  return { x: F.mul(poly(F, iso[0], P.x, false), F.inv(xd)), y: F.mul(F.mul(P.y, poly(F, iso[2], P.x, false)), F.inv(yd)) };
}

/** Jacobian (X, Y, Z) arithmetic on y² = x³ + b (a = 0), for the cofactor multiplications. */
type Jac<T> = [T, T, T];
function jacDouble<T>(F: Ops<T>, [X, Y, Z]: Jac<T>): Jac<T> {
  // dbl-2009-l (a = 0): 2M + 5S
  if (F.isZero(Z) || F.isZero(Y)) return [F.one, F.one, F.zero];
  const A = F.sqr(X);
  const B = F.sqr(Y);
  const C = F.sqr(B);
  const t = F.sub(F.sqr(F.add(X, B)), F.add(A, C));
  const D = F.add(t, t);
  const E = F.add(F.add(A, A), A);
  const X3 = F.sub(F.sqr(E), F.add(D, D));
  const C8 = F.add(F.add(F.add(C, C), F.add(C, C)), F.add(F.add(C, C), F.add(C, C)));
  const Y3 = F.sub(F.mul(E, F.sub(D, X3)), C8);
  const Z3 = F.mul(F.add(Y, Y), Z);
  return [X3, Y3, Z3];
}
/** J + affine Q (madd-2007-bl); Q ≠ infinity. */
function jacAddAffine<T>(F: Ops<T>, J: Jac<T>, Q: { x: T; y: T }): Jac<T> {
  const [X1, Y1, Z1] = J;
  if (F.isZero(Z1)) return [Q.x, Q.y, F.one];
  const Z1Z1 = F.sqr(Z1);
  const U2 = F.mul(Q.x, Z1Z1);
  const S2 = F.mul(F.mul(Q.y, Z1), Z1Z1);
  const H = F.sub(U2, X1);
  const r = F.sub(S2, Y1);
  if (F.isZero(H)) return F.isZero(r) ? jacDouble(F, J) : [F.one, F.one, F.zero];
  const HH = F.sqr(H);
  const I = F.add(F.add(HH, HH), F.add(HH, HH));
  const Jv = F.mul(H, I);
  const rr = F.add(r, r);
  const V = F.mul(X1, I);
  const X3 = F.sub(F.sub(F.sqr(rr), Jv), F.add(V, V));
  const Y3 = F.sub(F.mul(rr, F.sub(V, X3)), F.mul(F.add(Y1, Y1), Jv));
  const Z3 = F.sub(F.sqr(F.add(Z1, H)), F.add(Z1Z1, HH));
  return [X3, Y3, Z3];
}
function toAffine<T>(F: Ops<T>, [X, Y, Z]: Jac<T>): MapPoint<T> {
  if (F.isZero(Z)) return null;
  const zi = F.inv(Z);
  const zi2 = F.sqr(zi);
  return { x: F.mul(X, zi2), y: F.mul(Y, F.mul(zi2, zi)) };
}
/** [k]P for an integer k (negative: of −P), any point of the curve (no subgroup assumption). */
export function mulAny<T>(F: Ops<T>, P: MapPoint<T>, k: bigint): MapPoint<T> {
  if (P === null || k === 0n) return null;
  if (k < 0n) return mulAny(F, { x: P.x, y: F.neg(P.y) }, -k);
  let acc: Jac<T> = [F.one, F.one, F.zero];
  for (const bit of k.toString(2)) {
    acc = jacDouble(F, acc);
    if (bit === '1') acc = jacAddAffine(F, acc, P);
  }
  return toAffine(F, acc);
}
function addAny<T>(F: Ops<T>, P: MapPoint<T>, Q: MapPoint<T>): MapPoint<T> {
  if (P === null) return Q;
  if (Q === null) return P;
  return toAffine(F, jacAddAffine(F, [P.x, P.y, F.one], Q));
}
function negAny<T>(F: Ops<T>, P: MapPoint<T>): MapPoint<T> {
  return P === null ? null : { x: P.x, y: F.neg(P.y) };
}

/** h_eff of G1: 1 − u = 0xd201000000010001 (RFC 9380 §8.8.1). */
export const G1_H_EFF = 0xd201000000010001n;
/** The BLS parameter u (negative for BLS12-381). */
const U = -0xd201000000010000n;

/** ψ on E(F_p²) (untwist–Frobenius–twist), any point of the twist. */
function psi(P: MapPoint<Fp2>): MapPoint<Fp2> {
  if (P === null) return null;
  return { x: F2.mul(bls12_381G2.psiX, F2.conj(P.x)), y: F2.mul(bls12_381G2.psiY, F2.conj(P.y)) };
}

/**
 * h_eff·P on E′(F_p²) by Budroni–Pintore (RFC 9380 Appendix G.3):
 * [u² − u − 1]P + [u − 1]ψ(P) + ψ²(2P).
 */
export function clearCofactorG2(P: MapPoint<Fp2>): MapPoint<Fp2> {
  const F = fp2Ops;
  const t1 = mulAny(F, P, U); // [u]P
  const t2 = psi(P);
  let t3 = psi(psi(mulAny(F, P, 2n)));
  t3 = addAny(F, t3, negAny(F, t2)); // ψ²(2P) − ψ(P)
  const t4 = mulAny(F, addAny(F, t1, t2), U); // [u]([u]P + ψ(P))
  t3 = addAny(F, t3, t4);
  t3 = addAny(F, t3, negAny(F, t1));
  return addAny(F, t3, negAny(F, P));
}

/**
 * BLS12_MAP_FP_TO_G1: u ∈ F_p (canonical) ↦ a point of G1 (null: infinity).
 *
 * @example
 * ```ts
 * const P = mapFpToG1(1n); // on y² = x³ + 4, in the order-r subgroup
 * ```
 */
export function mapFpToG1(u: bigint): MapPoint<bigint> {
  if (u < 0n || u >= p) throw new RangeError('mapFpToG1: u is not a canonical element of F_p');
  return mulAny(fpOps, isoMap(fpOps, G1_MAP, swu(fpOps, G1_MAP, u)), G1_H_EFF);
}

/** BLS12_MAP_FP2_TO_G2: u ∈ F_p² (canonical [c0, c1]) ↦ a point of G2 (null: infinity). */
export function mapFp2ToG2(u: Fp2): MapPoint<Fp2> {
  if (u.some((c) => c < 0n || c >= p)) throw new RangeError('mapFp2ToG2: u is not a canonical element of F_p²');
  return clearCofactorG2(isoMap(fp2Ops, G2_MAP, swu(fp2Ops, G2_MAP, u)));
}

/** The steps apart, for tests: SWU onto E′ and the isogeny to E, before cofactor clearing. */
export const mapSteps = {
  g1: { swu: (u: bigint) => swu(fpOps, G1_MAP, u), iso: (P: { x: bigint; y: bigint }) => isoMap(fpOps, G1_MAP, P), A: G1_MAP.A, B: G1_MAP.B },
  g2: { swu: (u: Fp2) => swu(fp2Ops, G2_MAP, u), iso: (P: { x: Fp2; y: Fp2 }) => isoMap(fp2Ops, G2_MAP, P), A: G2_MAP.A, B: G2_MAP.B },
};
