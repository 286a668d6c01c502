//! The native limit of the pairing arithmetic on this host (not part of the package): blst 0.3.17's
//! base-field products, tower products and pairing on one thread, for the per-product ratios of
//! docs/pairing.md (pippin's Wasm over blst's assembly).
//!
//!   pairing-native [--rounds 9] [--ms 200]
//!
//! Each operation runs in batches of `--ms` milliseconds, `--rounds` times (the first round warms up
//! and is dropped); stdout gets one line per operation, `<name>\t<median ns per call>`. Products are
//! chained (each result is the next input) so the time is the latency of one dependent product, as in
//! a Miller loop or a final exponentiation (fp_sqrt: a square then its root, the root dominating; fr_mul: the
//! scalar field's product, c-kzg's barycentric evaluation). The pairing cases: e(a·G1, G2)·e(−G1, a·G2) = 1 by
//! blst_miller_loop_n (two pairs) + blst_final_exp + blst_fp12_is_one (what c-kzg 4.1.0's
//! pairings_verify calls), and with both G2 points' lines precomputed (blst_precompute_lines,
//! blst_miller_loop_lines). Then what else a verifier does natively: G1 and G2 scalar multiplications (255-bit),
//! G1 decompression (blst_p1_uncompress) and the subgroup check (blst_p1_affine_in_g1). Every check's
//! result is asserted before timing.
use blst::*;
use std::hint::black_box;
use std::time::Instant;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    xs[xs.len() / 2]
}

/// ns per call of `f` (which runs `k` calls), median over rounds of about `ms` milliseconds each.
fn time<F: FnMut(usize)>(rounds: usize, ms: f64, mut f: F) -> f64 {
    // calibrate the batch size to ≈ ms
    let mut k = 1usize;
    loop {
        let t = Instant::now();
        f(k);
        let el = t.elapsed().as_secs_f64() * 1e3;
        if el > ms / 4.0 || k > 1 << 30 {
            k = ((k as f64) * ms / el.max(1e-6)).max(1.0) as usize;
            break;
        }
        k *= 4;
    }
    let mut out = Vec::new();
    for r in 0..=rounds {
        let t = Instant::now();
        f(k);
        let ns = t.elapsed().as_secs_f64() * 1e9 / k as f64;
        if r > 0 {
            out.push(ns);
        }
    }
    median(out)
}

/// ns per step of a chain x ← step(x) from x0 (each result the next input: the latency of one product).
fn chain<T: Copy>(rounds: usize, ms: f64, x0: T, step: impl Fn(&mut T)) -> f64 {
    time(rounds, ms, |k| {
        let mut x = x0;
        for _ in 0..k {
            step(&mut x);
        }
        black_box(x);
    })
}

/// ns per call of `f`, its input passed through black_box.
fn each(rounds: usize, ms: f64, f: impl Fn()) -> f64 {
    time(rounds, ms, |k| {
        for _ in 0..k {
            f();
        }
    })
}

fn fp(v: u64) -> blst_fp {
    let mut out = blst_fp::default();
    let limbs = [v, v.rotate_left(17) ^ 0x1234, v.rotate_left(33), v ^ 0xdead_beef, v.rotate_left(7), 0x0fff_ffff];
    unsafe { blst_fp_from_uint64(&mut out, limbs.as_ptr()) };
    out
}

fn fr(v: u64) -> blst_fr {
    let mut out = blst_fr::default();
    let limbs = [v, v.rotate_left(29), v ^ 0x5555, 0x0fff_ffff];
    unsafe { blst_fr_from_uint64(&mut out, limbs.as_ptr()) };
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str, def: f64| -> f64 {
        args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(|v| v.parse().expect("a number")).unwrap_or(def)
    };
    let rounds = flag("--rounds", 9.0) as usize;
    let ms = flag("--ms", 200.0);

    let (a, b) = (fp(0x0123_4567_89ab_cdef), fp(0xfedc_ba98_7654_3210));
    let a2 = blst_fp2 { fp: [a, b] };
    let b2 = blst_fp2 { fp: [b, a] };
    let line = |name: &str, ns: f64| println!("{name}\t{ns:.2}");

    line("fp_mul", chain(rounds, ms, a, |x| unsafe { blst_fp_mul(x, x, &b) }));
    line("fp_sqr", chain(rounds, ms, a, |x| unsafe { blst_fp_sqr(x, x) }));
    line("fp_inverse", chain(rounds, ms, a, |x| unsafe { blst_fp_inverse(x, x) }));
    line("fp_sqrt", chain(rounds, ms, a, |x| unsafe {
        let mut y = *x;
        blst_fp_sqr(&mut y, x);
        blst_fp_sqrt(x, &y);
    }));
    let (ra, rb) = (fr(0x0123_4567_89ab_cdef), fr(0x0fed_cba9_8765_4321));
    line("fr_mul", chain(rounds, ms, ra, |x| unsafe { blst_fr_mul(x, x, &rb) }));
    line("fp2_mul", chain(rounds, ms, a2, |x| unsafe { blst_fp2_mul(x, x, &b2) }));
    line("fp2_sqr", chain(rounds, ms, a2, |x| unsafe { blst_fp2_sqr(x, x) }));

    // points: P = a·G1, Q = G2, the check e(aP... ) with a small scalar a
    let scalar: [u8; 32] = { let mut s = [0u8; 32]; s[0] = 0x33; s[1] = 0xaa; s[2] = 0x55; s[3] = 0x55; s };
    let q1 = unsafe { *blst_p2_affine_generator() };
    let (mut p1, mut np, mut q2) = (blst_p1_affine::default(), blst_p1_affine::default(), blst_p2_affine::default());
    unsafe {
        let mut t = blst_p1::default();
        blst_p1_mult(&mut t, blst_p1_generator(), scalar.as_ptr(), 32);
        blst_p1_to_affine(&mut p1, &t);
        let mut g = *blst_p1_generator();
        blst_p1_cneg(&mut g, true);
        blst_p1_to_affine(&mut np, &g);
        let mut u = blst_p2::default();
        blst_p2_mult(&mut u, blst_p2_generator(), scalar.as_ptr(), 32);
        blst_p2_to_affine(&mut q2, &u);
    }
    let ps = [&p1 as *const blst_p1_affine, &np as *const blst_p1_affine];
    let qs = [&q1 as *const blst_p2_affine, &q2 as *const blst_p2_affine];
    let check2 = || unsafe {
        let mut f = blst_fp12::default();
        blst_miller_loop_n(&mut f, qs.as_ptr(), ps.as_ptr(), 2);
        let mut g = blst_fp12::default();
        blst_final_exp(&mut g, &f);
        blst_fp12_is_one(&g)
    };
    let mut lines1 = vec![blst_fp6::default(); 68];
    let mut lines2 = vec![blst_fp6::default(); 68];
    unsafe {
        blst_precompute_lines(lines1.as_mut_ptr(), &q1);
        blst_precompute_lines(lines2.as_mut_ptr(), &q2);
    }
    let check2_prepared = || unsafe {
        let (mut f, mut g) = (blst_fp12::default(), blst_fp12::default());
        blst_miller_loop_lines(&mut f, lines1.as_ptr(), &p1);
        blst_miller_loop_lines(&mut g, lines2.as_ptr(), &np);
        blst_fp12_mul(&mut f, &f, &g);
        blst_final_exp(&mut g, &f);
        blst_fp12_is_one(&g)
    };
    assert!(check2(), "blst: e(aG1, G2)·e(−G1, aG2) ≠ 1");
    assert!(check2_prepared(), "blst: the prepared check ≠ 1");
    let mut f1 = blst_fp12::default();
    unsafe { blst_miller_loop(&mut f1, &q1, &p1) };
    let f1c = f1;

    line("fp12_mul", chain(rounds, ms, f1c, |x| unsafe { blst_fp12_mul(x, x, &f1c) }));
    line("fp12_sqr", chain(rounds, ms, f1c, |x| unsafe { blst_fp12_sqr(x, x) }));
    let mut cyc = blst_fp12::default();
    unsafe { blst_final_exp(&mut cyc, &f1c) };
    line("fp12_cyclotomic_sqr", chain(rounds, ms, cyc, |x| unsafe { blst_fp12_cyclotomic_sqr(x, x) }));
    line("miller_loop_1", each(rounds, ms, || {
        let mut f = blst_fp12::default();
        unsafe { blst_miller_loop(&mut f, &q1, black_box(&p1)) };
        black_box(f);
    }));
    line("miller_loop_n_2", each(rounds, ms, || {
        let mut f = blst_fp12::default();
        unsafe { blst_miller_loop_n(&mut f, qs.as_ptr(), black_box(ps.as_ptr()), 2) };
        black_box(f);
    }));
    line("miller_loop_lines_1", each(rounds, ms, || {
        let mut f = blst_fp12::default();
        unsafe { blst_miller_loop_lines(&mut f, lines1.as_ptr(), black_box(&p1)) };
        black_box(f);
    }));
    line("final_exp", each(rounds, ms, || {
        let mut g = blst_fp12::default();
        unsafe { blst_final_exp(&mut g, black_box(&f1c)) };
        black_box(g);
    }));
    line("pairing_check_2", each(rounds, ms, || {
        black_box(check2());
    }));
    line("pairing_check_2_prepared", each(rounds, ms, || {
        black_box(check2_prepared());
    }));
    // what else a verifier does natively: G1 and G2 scalar multiplications by 255-bit scalars
    let s255: [u8; 32] = { let mut s = [0x5au8; 32]; s[31] = 0x3f; s };
    line("g1_mult_255", each(rounds, ms, || {
        let mut t = blst_p1::default();
        unsafe { blst_p1_mult(&mut t, blst_p1_generator(), black_box(s255.as_ptr()), 255) };
        black_box(t);
    }));
    line("g2_mult_255", each(rounds, ms, || {
        let mut t = blst_p2::default();
        unsafe { blst_p2_mult(&mut t, blst_p2_generator(), black_box(s255.as_ptr()), 255) };
        black_box(t);
    }));
    let mut compressed = [0u8; 48];
    unsafe { blst_p1_affine_compress(compressed.as_mut_ptr(), &p1) };
    // c-kzg's bytes_to_kzg_commitment / proof: decompression (a square root) and the subgroup check
    line("g1_uncompress", each(rounds, ms, || {
        let mut q = blst_p1_affine::default();
        unsafe { blst_p1_uncompress(&mut q, black_box(compressed.as_ptr())) };
        black_box(q);
    }));
    line("g1_in_group", each(rounds, ms, || {
        black_box(unsafe { blst_p1_affine_in_g1(black_box(&p1)) });
    }));
}
