//! MSM test vectors for pippin, computed with the arkworks curve crates.
//!
//! Run from the repository root with `scripts/make-vectors.sh` (or `cargo run --release` in
//! vectors/). For each curve it writes `vectors/<curve>.json` holding
//! - the constants arkworks uses for the curve: p, r, a, b, the G1 generator, the cofactor and the
//!   GLV endomorphism pair (ENDO_COEFFS[0], LAMBDA) from `GLVConfig`;
//! - MSM cases: points (affine 0x-hex, `null` for the point at infinity), scalars as unreduced
//!   integers below 2^256 (0x-hex; arkworks reduces them mod r) and the expected sum;
//! - points next to their `serialize_uncompressed` / `serialize_compressed` bytes (hex);
//! - for BLS12-381 and BN254, a member `g2` with the same for G2 (b, generator, cofactor, GLV pair;
//!   cases; samples P and -P, so both "larger y" flags occur), F_p² elements as [c0, c1] with
//!   x = c0 + c1·i. ark-bls12-381 serializes G2 in the ZCash format; its samples also carry
//!   ark-ec's generic encoding (`ark_ec_uncompressed` / `ark_ec_compressed`).
//!
//! Every expected MSM result is computed twice, by `VariableBaseMSM::msm` and by a naive sum of
//! textbook double-and-add products written here (no GLV, no windows), and the program panics
//! unless both agree. A third sum with arkworks' own scalar multiplication (`Projective * Fr`,
//! GLV-based on the curves that implement it) must agree too. Every serialized sample must
//! deserialize to its point. The random inputs come from a ChaCha20 stream with a fixed seed per
//! curve (and group), so the output is reproducible byte for byte for a given Cargo.lock.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use ark_bls12_381::g2::Config as Bls12381G2;
use ark_ec::scalar_mul::glv::GLVConfig;
use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AdditiveGroup, AffineRepr, CurveConfig, CurveGroup, VariableBaseMSM};
use ark_ff::{BigInteger, BitIteratorBE, Field, PrimeField, UniformRand, Zero};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};
use ark_std::rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// What produced the files; written into each of them.
const PRODUCER: &str = "pippin vectors/src/main.rs (arkworks 0.5 crates; exact versions in vectors/Cargo.lock)";

type Fr<C> = <C as CurveConfig>::ScalarField;

/// A scalar as the unreduced 256-bit integer that goes into the file (big-endian bytes).
type Raw = [u8; 32];

fn hex_bytes(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        write!(s, "{b:02x}").unwrap();
    }
    s
}

/// Big-endian bytes as a minimal 0x-hex integer ("0x0" for zero).
fn hex_int(bytes_be: &[u8]) -> String {
    let h = hex_bytes(bytes_be);
    let t = h.trim_start_matches('0');
    format!("0x{}", if t.is_empty() { "0" } else { t })
}

fn hex_field<F: PrimeField>(x: F) -> String {
    hex_int(&x.into_bigint().to_bytes_be())
}

fn hex_limbs(limbs: &[u64]) -> String {
    let mut be = Vec::with_capacity(limbs.len() * 8);
    for l in limbs.iter().rev() {
        be.extend_from_slice(&l.to_be_bytes());
    }
    hex_int(&be)
}

fn big_to_raw<B: BigInteger>(b: &B) -> Raw {
    let be = b.to_bytes_be();
    assert!(be.len() >= 32, "scalar bigint narrower than 256 bits");
    let (high, low) = be.split_at(be.len() - 32);
    assert!(high.iter().all(|&x| x == 0), "scalar does not fit in 256 bits");
    low.try_into().unwrap()
}

fn raw_of<C: SWCurveConfig>(s: Fr<C>) -> Raw {
    big_to_raw(&s.into_bigint())
}

fn reduce<C: SWCurveConfig>(raw: &Raw) -> Fr<C> {
    Fr::<C>::from_be_bytes_mod_order(raw)
}

/// r + k as a raw scalar (k small), or None if it does not fit in 256 bits.
fn modulus_plus<C: SWCurveConfig>(k: u64, times: u64) -> Option<Raw> {
    let mut acc = <Fr<C> as PrimeField>::BigInt::from(0u64);
    for _ in 0..times {
        if acc.add_with_carry(&Fr::<C>::MODULUS) {
            return None;
        }
    }
    if acc.add_with_carry(&<Fr<C> as PrimeField>::BigInt::from(k)) {
        return None;
    }
    let be = acc.to_bytes_be();
    if be.len() > 32 && be[..be.len() - 32].iter().any(|&x| x != 0) {
        return None;
    }
    Some(big_to_raw(&acc))
}

/// A field element as JSON: a 0x-hex string, or [c0, c1] for c0 + c1·i in F_p².
fn field_json<F: Field>(x: F) -> String {
    let parts: Vec<String> = x.to_base_prime_field_elements().map(|c| format!("\"{}\"", hex_field(c))).collect();
    match parts.as_slice() {
        [one] => one.clone(),
        _ => format!("[{}]", parts.join(", ")),
    }
}

fn point_json<C: SWCurveConfig>(p: &Affine<C>) -> String {
    match p.xy() {
        None => "null".to_string(),
        Some((x, y)) => format!("{{\"x\": {}, \"y\": {}}}", field_json(x), field_json(y)),
    }
}

/// Textbook left-to-right double-and-add over the bits of the reduced scalar.
fn naive_mul<C: SWCurveConfig>(p: &Affine<C>, s: &Fr<C>) -> Projective<C> {
    let mut acc = Projective::<C>::zero();
    for bit in BitIteratorBE::without_leading_zeros(s.into_bigint()) {
        acc.double_in_place();
        if bit {
            acc += p;
        }
    }
    acc
}

struct Case<C: SWCurveConfig> {
    name: String,
    note: String,
    points: Vec<Affine<C>>,
    scalars: Vec<Raw>,
}

struct Builder<C: SWCurveConfig> {
    rng: ChaCha20Rng,
    cases: Vec<Case<C>>,
}

impl<C: SWCurveConfig + GLVConfig> Builder<C> {
    fn point(&mut self) -> Affine<C> {
        Projective::<C>::rand(&mut self.rng).into_affine()
    }

    fn points(&mut self, n: usize) -> Vec<Affine<C>> {
        let v: Vec<_> = (0..n).map(|_| Projective::<C>::rand(&mut self.rng)).collect();
        Projective::normalize_batch(&v)
    }

    /// Uniform below r.
    fn scalar(&mut self) -> Raw {
        raw_of::<C>(Fr::<C>::rand(&mut self.rng))
    }

    /// Uniform 256-bit integer: usually ≥ r, so it exercises the reduction.
    fn wide_scalar(&mut self) -> Raw {
        let mut b = [0u8; 32];
        self.rng.fill(&mut b[..]);
        b
    }

    fn add(&mut self, name: &str, note: &str, points: Vec<Affine<C>>, scalars: Vec<Raw>) {
        assert_eq!(points.len(), scalars.len(), "case {name}: length mismatch");
        self.cases.push(Case { name: name.to_string(), note: note.to_string(), points, scalars });
    }
}

fn small(k: u64) -> Raw {
    let mut b = [0u8; 32];
    b[24..].copy_from_slice(&k.to_be_bytes());
    b
}

/// The MSM cases; `random_sizes` are the n of the random-n cases (the 7 and above get the special
/// scalars).
fn build_cases<C: SWCurveConfig + GLVConfig>(seed: u64, random_sizes: &[usize]) -> Vec<Case<C>> {
    let mut b = Builder::<C> { rng: ChaCha20Rng::seed_from_u64(seed), cases: Vec::new() };
    let r_minus_1 = raw_of::<C>(-Fr::<C>::from(1u64));
    let r = modulus_plus::<C>(0, 1).unwrap();
    let r_plus_1 = modulus_plus::<C>(1, 1).unwrap();
    let two_r_minus_1 = {
        let mut m = Fr::<C>::MODULUS;
        m.mul2();
        m.sub_with_borrow(&<Fr<C> as PrimeField>::BigInt::from(1u64));
        big_to_raw(&m)
    };
    let max256 = [0xffu8; 32];
    let specials = [small(0), small(1), r_minus_1, r, r_plus_1, two_r_minus_1, max256, small(2)];

    b.add("empty", "n = 0: the sum is the point at infinity", vec![], vec![]);

    // Random cases. n = 1 and 2 use uniform scalars; from n = 7 on the first entries are the
    // special scalars 0, 1, r-1, r, r+1, 2r-1, 2^256-1, 2 (as many as fit), then every third
    // scalar is a uniform 256-bit integer (mostly ≥ r) and the rest are uniform below r.
    for &n in random_sizes {
        let points = b.points(n);
        let scalars: Vec<Raw> = (0..n)
            .map(|i| {
                if n >= 7 && i < specials.len() {
                    specials[i]
                } else if n >= 7 && i % 3 == 0 {
                    b.wide_scalar()
                } else {
                    b.scalar()
                }
            })
            .collect();
        b.add(&format!("random-{n}"), "random subgroup points; scalars as described in the program", points, scalars);
    }

    let n = 16;
    let pts = b.points(n);
    b.add("all-zero-scalars", "every scalar is 0: the sum is infinity", pts, vec![small(0); n]);
    let pts = b.points(n);
    b.add("all-r-minus-1", "every scalar is r - 1: the sum is -(P_1 + ... + P_n)", pts, vec![r_minus_1; n]);
    let pts = b.points(n);
    b.add("all-r", "every scalar is r (≡ 0): the sum is infinity", pts, vec![r; n]);
    let s = b.scalar();
    let pts = b.points(32);
    b.add("all-equal-scalars", "one random scalar for all points (all land in the same buckets)", pts, vec![s; 32]);
    let pts = b.points(32);
    b.add("all-one-scalars", "every scalar is 1: the plain sum of the points", pts, vec![small(1); 32]);

    let p = b.point();
    let sc: Vec<Raw> = (0..16).map(|_| b.scalar()).collect();
    b.add("repeated-point", "one point 16 times with random scalars", vec![p; 16], sc);
    let p = b.point();
    let s = b.scalar();
    b.add("repeated-point-equal-scalars", "one point 16 times with one scalar (bucket doublings)", vec![p; 16], vec![s; 16]);

    let base = b.points(8);
    let mut pts = Vec::new();
    let mut sc = Vec::new();
    for q in &base {
        let s = b.scalar();
        pts.push(*q);
        sc.push(s);
        pts.push(-*q);
        sc.push(s);
    }
    b.add("p-and-neg-p", "pairs P, -P with equal scalars: the sum is infinity", pts, sc);
    let q = b.point();
    let extra = b.point();
    let s = b.scalar();
    let t = b.scalar();
    b.add(
        "p-and-neg-p-mixed",
        "P, -P with equal scalars among other terms, and P with s and r - s",
        vec![q, extra, -q, q, q],
        vec![s, t, s, small(5), raw_of::<C>(-Fr::<C>::from(5u64))],
    );

    let mut pts = b.points(16);
    for i in (0..16).step_by(3) {
        pts[i] = Affine::<C>::identity();
    }
    let sc: Vec<Raw> = (0..16).map(|_| b.scalar()).collect();
    b.add("infinity-mixed", "every third point (from index 0) is the point at infinity", pts, sc);
    let sc: Vec<Raw> = (0..4).map(|_| b.scalar()).collect();
    b.add("all-infinity", "only points at infinity", vec![Affine::<C>::identity(); 4], sc);

    // Arithmetic progression P_i = P_0 + i·Q: partial sums of neighbours collide often.
    let p0 = b.point().into_group();
    let qq = b.point().into_group();
    let prog = |n: usize| -> Vec<Affine<C>> {
        let v: Vec<_> = (0..n).map(|i| p0 + qq * Fr::<C>::from(i as u64)).collect();
        Projective::normalize_batch(&v)
    };
    let sc: Vec<Raw> = (0..64).map(|_| b.scalar()).collect();
    b.add("progression-random-scalars", "P_i = P_0 + i·Q, random scalars", prog(64), sc);
    b.add("progression-one-scalars", "P_i = P_0 + i·Q, all scalars 1", prog(32), vec![small(1); 32]);
    let sc: Vec<Raw> = (0..32).map(|i| small(i as u64 % 4 + 1)).collect();
    b.add("progression-small-scalars", "P_i = P_0 + i·Q, scalars 1, 2, 3, 4, 1, 2, ...", prog(32), sc);

    let pts = b.points(64);
    let sc: Vec<Raw> = (0..64).map(|_| small(b.rng.gen_range(0..16))).collect();
    b.add("small-scalars", "scalars in [0, 16)", pts, sc);
    let pts = b.points(32);
    let sc: Vec<Raw> = (0..32)
        .map(|i| {
            let mut v = [0u8; 32];
            let bit = (i * 8) % 256;
            v[31 - bit / 8] = 1 << (bit % 8);
            v
        })
        .collect();
    b.add("power-of-two-scalars", "scalars 2^(8i mod 256): single set bits at window edges", pts, sc);

    // Scalars around both cube roots of unity mod r (the GLV lambda and its square), and r/2.
    let lam = C::LAMBDA;
    let lam2 = lam * lam;
    let one = Fr::<C>::from(1u64);
    let half = {
        let mut m = Fr::<C>::MODULUS;
        m.div2();
        big_to_raw(&m)
    };
    let glv_scalars: Vec<Raw> = vec![
        raw_of::<C>(lam),
        raw_of::<C>(lam - one),
        raw_of::<C>(lam + one),
        raw_of::<C>(-lam),
        raw_of::<C>(lam2),
        raw_of::<C>(lam2 - one),
        raw_of::<C>(lam2 + one),
        raw_of::<C>(-lam2),
        half,
        raw_of::<C>(Fr::<C>::from_be_bytes_mod_order(&half) + one),
    ];
    let pts = b.points(glv_scalars.len());
    b.add("glv-edge-scalars", "scalars λ, λ-1, λ+1, -λ, λ², λ²-1, λ²+1, -λ², (r-1)/2, (r+1)/2", pts, glv_scalars);

    b.cases
}

const EXPECTED_BY: &str =
    "VariableBaseMSM::msm, checked equal to a naive double-and-add sum and to a sum of arkworks scalar multiplications";

/// The generator, after checking that it is in the subgroup and that LAMBDA acts on it as
/// (ENDO_COEFFS[0]·x, y).
fn checked_generator<C: SWCurveConfig + GLVConfig>(what: &str) -> Affine<C> {
    let g = Affine::<C>::generator();
    assert!(g.is_on_curve() && g.is_in_correct_subgroup_assuming_on_curve(), "{what}: generator");
    let lambda_g = naive_mul::<C>(&g, &C::LAMBDA).into_affine();
    assert_eq!(lambda_g, C::endomorphism_affine(&g), "{what}: LAMBDA·G != (ENDO_COEFFS[0]·x, y)");
    g
}

/// The members of "constants" from "b" on (b, generator, cofactor, GLV pair) and its closing brace.
fn constants_from_b<C: SWCurveConfig + GLVConfig>(out: &mut String, g: &Affine<C>) {
    writeln!(out, "    \"b\": {},", field_json(C::COEFF_B)).unwrap();
    writeln!(out, "    \"generator\": {},", point_json::<C>(g)).unwrap();
    writeln!(out, "    \"cofactor\": \"{}\",", hex_limbs(C::COFACTOR)).unwrap();
    writeln!(out, "    \"glv_beta\": {},", field_json(C::ENDO_COEFFS[0])).unwrap();
    writeln!(out, "    \"glv_lambda\": \"{}\"", hex_field(C::LAMBDA)).unwrap();
    writeln!(out, "  }},").unwrap();
}

/// `p` serialized by its curve config; panics unless the bytes deserialize (validated) to `p`.
fn serialized<C: SWCurveConfig>(p: &Affine<C>, compress: Compress) -> Vec<u8> {
    let mut bytes = Vec::new();
    p.serialize_with_mode(&mut bytes, compress).unwrap();
    assert_eq!(bytes.len(), p.serialized_size(compress));
    let back = Affine::<C>::deserialize_with_mode(&bytes[..], compress, Validate::Yes).expect("deserialize");
    assert_eq!(back, *p, "serialization round trip");
    bytes
}

/// No members beyond a sample's point and bytes.
fn no_members<C: SWCurveConfig>(_: &Affine<C>) -> String {
    String::new()
}

/// The members "cases" and "serialization" of a file or of its "g2" object (two spaces deep, no
/// newline after the last "]"), after checking every expected sum three ways; `members` adds to
/// each sample's object.
fn cases_and_samples<C: SWCurveConfig>(
    what: &str,
    cases: &[Case<C>],
    samples: &[Affine<C>],
    members: &dyn Fn(&Affine<C>) -> String,
) -> String {
    let mut out = String::new();
    writeln!(out, "  \"cases\": [").unwrap();
    for (ci, case) in cases.iter().enumerate() {
        let reduced: Vec<Fr<C>> = case.scalars.iter().map(reduce::<C>).collect();
        let fast = Projective::<C>::msm(&case.points, &reduced).expect("lengths match");
        let mut naive = Projective::<C>::zero();
        let mut via_mul = Projective::<C>::zero();
        for (p, s) in case.points.iter().zip(&reduced) {
            naive += naive_mul::<C>(p, s);
            via_mul += p.into_group() * s;
        }
        assert_eq!(fast, naive, "{what}/{}: msm != naive sum", case.name);
        assert_eq!(fast, via_mul, "{what}/{}: msm != sum of scalar muls", case.name);
        for p in &case.points {
            assert!(p.is_on_curve() && p.is_in_correct_subgroup_assuming_on_curve(), "{what}/{}: bad input", case.name);
        }
        let expected = fast.into_affine();

        writeln!(out, "    {{").unwrap();
        writeln!(out, "      \"name\": \"{}\",", case.name).unwrap();
        writeln!(out, "      \"note\": \"{}\",", case.note).unwrap();
        writeln!(out, "      \"n\": {},", case.points.len()).unwrap();
        let pts: Vec<String> = case.points.iter().map(point_json::<C>).collect();
        let scs: Vec<String> = case.scalars.iter().map(|s| format!("\"{}\"", hex_int(s))).collect();
        if pts.is_empty() {
            writeln!(out, "      \"points\": [],").unwrap();
            writeln!(out, "      \"scalars\": [],").unwrap();
        } else {
            writeln!(out, "      \"points\": [\n        {}\n      ],", pts.join(",\n        ")).unwrap();
            writeln!(out, "      \"scalars\": [\n        {}\n      ],", scs.join(",\n        ")).unwrap();
        }
        writeln!(out, "      \"expected\": {}", point_json::<C>(&expected)).unwrap();
        writeln!(out, "    }}{}", if ci + 1 < cases.len() { "," } else { "" }).unwrap();
    }
    writeln!(out, "  ],").unwrap();

    writeln!(out, "  \"serialization\": [").unwrap();
    for (i, p) in samples.iter().enumerate() {
        writeln!(
            out,
            "    {{\"point\": {}, \"uncompressed\": \"{}\", \"compressed\": \"{}\"{}}}{}",
            point_json::<C>(p),
            hex_bytes(&serialized(p, Compress::No)),
            hex_bytes(&serialized(p, Compress::Yes)),
            members(p),
            if i + 1 < samples.len() { "," } else { "" }
        )
        .unwrap();
    }
    write!(out, "  ]").unwrap();
    out
}

/// The "g2" object of a pairing curve's file, indented for its place: G2's b, generator, cofactor
/// and GLV pair, the MSM cases (random sizes 1, 2, 7, 50) and the samples G, -G, P and -P for three
/// random P (so both "larger y" flags occur), infinity; `members` adds to each sample's object.
fn g2_section<C: SWCurveConfig + GLVConfig>(name: &str, seed: u64, members: &dyn Fn(&Affine<C>) -> String) -> String {
    let what = format!("{name}/g2");
    let g = checked_generator::<C>(&what);
    let mut out = String::new();
    writeln!(out, "{{").unwrap();
    writeln!(out, "  \"seed\": {seed},").unwrap();
    writeln!(out, "  \"expected_by\": \"{EXPECTED_BY}\",").unwrap();
    writeln!(out, "  \"constants\": {{").unwrap();
    constants_from_b::<C>(&mut out, &g);

    let cases = build_cases::<C>(seed, &[1, 2, 7, 50]);
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ 0x5e71a1);
    let mut samples = vec![g, -g];
    for _ in 0..3 {
        let p = Projective::<C>::rand(&mut rng).into_affine();
        samples.extend([p, -p]);
    }
    samples.push(Affine::<C>::identity());
    out += &cases_and_samples(&what, &cases, &samples, members);
    write!(out, "\n}}").unwrap();
    out.replace('\n', "\n  ")
}

/// BLS12-381's G2 with ark-ec's generic short-Weierstrass encoding (x then y, each c0‖c1
/// little-endian, flags in the top bits of the last byte), which ark-bls12-381 replaces by the
/// ZCash format. pippin's BLS12-381 'arkworks' format is this one.
struct ArkEcBls12381G2;

impl CurveConfig for ArkEcBls12381G2 {
    type BaseField = <Bls12381G2 as CurveConfig>::BaseField;
    type ScalarField = <Bls12381G2 as CurveConfig>::ScalarField;
    const COFACTOR: &'static [u64] = Bls12381G2::COFACTOR;
    const COFACTOR_INV: Self::ScalarField = Bls12381G2::COFACTOR_INV;
}

impl SWCurveConfig for ArkEcBls12381G2 {
    const COEFF_A: Self::BaseField = Bls12381G2::COEFF_A;
    const COEFF_B: Self::BaseField = Bls12381G2::COEFF_B;
    const GENERATOR: Affine<Self> = Affine::new_unchecked(Bls12381G2::GENERATOR.x, Bls12381G2::GENERATOR.y);
}

/// The members "ark_ec_uncompressed" / "ark_ec_compressed" of a BLS12-381 G2 sample.
fn ark_ec_members(p: &Affine<Bls12381G2>) -> String {
    let q = match p.xy() {
        None => Affine::<ArkEcBls12381G2>::identity(),
        Some((x, y)) => Affine::new_unchecked(x, y),
    };
    format!(
        ", \"ark_ec_uncompressed\": \"{}\", \"ark_ec_compressed\": \"{}\"",
        hex_bytes(&serialized(&q, Compress::No)),
        hex_bytes(&serialized(&q, Compress::Yes))
    )
}

/// Writes vectors/<name>.json; `g2` is the file's "g2" object, if any.
fn write_curve<C: SWCurveConfig + GLVConfig>(name: &str, seed: u64, out_dir: &Path, g2: Option<String>) -> (PathBuf, usize)
where
    C::BaseField: PrimeField,
{
    let g = checked_generator::<C>(name);

    let mut out = String::new();
    writeln!(out, "{{").unwrap();
    writeln!(out, "  \"curve\": \"{name}\",").unwrap();
    writeln!(out, "  \"producer\": \"{PRODUCER}\",").unwrap();
    writeln!(out, "  \"seed\": {seed},").unwrap();
    writeln!(out, "  \"expected_by\": \"{EXPECTED_BY}\",").unwrap();
    writeln!(out, "  \"constants\": {{").unwrap();
    writeln!(out, "    \"p\": \"{}\",", hex_int(&C::BaseField::MODULUS.to_bytes_be())).unwrap();
    writeln!(out, "    \"r\": \"{}\",", hex_int(&Fr::<C>::MODULUS.to_bytes_be())).unwrap();
    writeln!(out, "    \"a\": \"{}\",", hex_field(C::COEFF_A)).unwrap();
    constants_from_b::<C>(&mut out, &g);

    let cases = build_cases::<C>(seed, &[1, 2, 7, 64, 300]);
    // Serialization samples: generator, its negation, random points, infinity.
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ 0x5e71a1);
    let mut samples = vec![g, -g];
    for _ in 0..4 {
        samples.push(Projective::<C>::rand(&mut rng).into_affine());
    }
    samples.push(Affine::<C>::identity());
    out += &cases_and_samples(name, &cases, &samples, &no_members::<C>);
    match g2 {
        None => writeln!(out).unwrap(),
        Some(g2) => writeln!(out, ",\n  \"g2\": {g2}").unwrap(),
    }
    writeln!(out, "}}").unwrap();

    let path = out_dir.join(format!("{name}.json"));
    fs::write(&path, &out).expect("write vector file");
    (path, out.len())
}

fn main() {
    // Files go next to Cargo.toml (vectors/), wherever cargo is run from.
    let out_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bls12_381_g2 = g2_section::<Bls12381G2>("bls12-381", 3812, &ark_ec_members);
    let bn254_g2 = g2_section::<ark_bn254::g2::Config>("bn254", 2542, &no_members::<ark_bn254::g2::Config>);
    let written = [
        write_curve::<ark_bls12_381::g1::Config>("bls12-381", 381, &out_dir, Some(bls12_381_g2)),
        write_curve::<ark_bn254::g1::Config>("bn254", 254, &out_dir, Some(bn254_g2)),
        write_curve::<ark_bls12_377::g1::Config>("bls12-377", 377, &out_dir, None),
        write_curve::<ark_pallas::PallasConfig>("pallas", 0x9a11a5, &out_dir, None),
        write_curve::<ark_vesta::VestaConfig>("vesta", 0x7e57a, &out_dir, None),
    ];
    for (path, len) in written {
        println!("wrote {} ({len} bytes)", path.display());
    }
}
