//! Native MSM peer for `npm run bench:msm` (driven by bench/peers/native.ts; not part of the package).
//!
//!   msm-native <blst|arkworks> <bls12-381|bn254> <threads> <n>
//!
//! Protocol (stdin binary, then text lines; stdout text lines):
//! 1. stdin: n points (x ‖ y, each coordinate big-endian: 48 bytes for BLS12-381, 32 for BN254),
//!    then n scalars (32 bytes little-endian, below r): bench/inputs.ts's layout.
//! 2. The points are decoded and checked to be on the curve, the scalars converted (untimed); then
//!    stdout gets `ready <threads>` (the threads the MSM will use), or `unavailable <reason>` and
//!    the process exits 0 (e.g. fewer CPUs than asked).
//! 3. Each stdin line `run` runs the MSM once and prints `<ns> <x hex> <y hex>` (affine, canonical)
//!    or `<ns> infinity`; ns is the MSM and the conversion of its result to affine, timed here
//!    (no process start, no pipe, no input parsing). EOF ends the process.
//!
//! Errors: a message on stderr and exit code 1.
//!
//! Threads: the build with feature `single` has blst's thread pool compiled out (blst's
//! `no-threads`) and arkworks serial; it takes threads = 1 only. The default build (plus
//! `parallel`) takes threads ≥ 2: the process's CPU affinity is cut to the first `threads` CPUs it
//! may run on before blst's pool is created, since blst sizes its pool to the CPUs it sees
//! (num_cpus, which reads the affinity mask); arkworks runs inside a rayon pool of `threads`.
use std::io::{self, BufRead, Read, Write};
use std::time::Instant;

type Outcome = Result<(), String>;

/// One MSM implementation with its inputs already in its own format.
trait Msm {
    /// Runs the MSM; None = the point at infinity, else (x, y) as big-endian bytes.
    fn run(&self) -> Option<(Vec<u8>, Vec<u8>)>;
}

fn hex(bytes: &[u8]) -> String {
    let s: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let t = s.trim_start_matches('0');
    if t.is_empty() { "0".into() } else { t.into() }
}

mod blst_peer {
    use super::Msm;
    use blst::*;

    /// BLS12-381 G1 through `<[blst_p1_affine] as MultiPoint>::mult` (blst's Pippenger, the code
    /// behind `p1_affines::mult`; points are not validated by it).
    pub struct Blst {
        points: Vec<blst_p1_affine>,
        scalars: Vec<u8>,
    }

    /// Decodes with `blst_p1_deserialize` (the ZCash uncompressed form; the inputs carry no flag
    /// bits): rejects coordinates ≥ p and points off the curve, not subgroup membership.
    pub fn setup(points: &[u8], scalars: &[u8], n: usize) -> Result<Blst, String> {
        let mut out = vec![blst_p1_affine::default(); n];
        for (i, p) in out.iter_mut().enumerate() {
            let err = unsafe { blst_p1_deserialize(p, points[96 * i..].as_ptr()) };
            if err != BLST_ERROR::BLST_SUCCESS {
                return Err(format!("blst: point {i}: {err:?}"));
            }
        }
        Ok(Blst { points: out, scalars: scalars.to_vec() })
    }

    impl Msm for Blst {
        fn run(&self) -> Option<(Vec<u8>, Vec<u8>)> {
            // scalars are 32-byte LE below r < 2^255: 255 bits each
            let sum: blst_p1 = self.points.as_slice().mult(&self.scalars, 255);
            if unsafe { blst_p1_is_inf(&sum) } {
                return None;
            }
            let mut affine = blst_p1_affine::default();
            let mut bytes = [0u8; 96];
            unsafe {
                blst_p1_to_affine(&mut affine, &sum);
                blst_p1_affine_serialize(bytes.as_mut_ptr(), &affine);
            }
            Some((bytes[..48].to_vec(), bytes[48..].to_vec()))
        }
    }
}

#[cfg(feature = "arkworks")]
mod ark_peer {
    use super::Msm;
    use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
    use ark_ec::{CurveGroup, VariableBaseMSM};
    use ark_ff::{BigInteger, PrimeField};

    /// G1 of an arkworks short-Weierstrass curve through `VariableBaseMSM::msm` (scalars in
    /// Montgomery form; the MSM converts them to integers, inside the timing).
    pub struct Ark<P: SWCurveConfig> {
        bases: Vec<Affine<P>>,
        scalars: Vec<P::ScalarField>,
        coord: usize,
        /// rayon pool the MSM runs in (the `parallel` build), None = the calling thread
        #[cfg(feature = "parallel")]
        pool: Option<rayon::ThreadPool>,
    }

    /// A canonical big-endian field element (rejects values ≥ the modulus).
    fn field<F: PrimeField>(bytes: &[u8]) -> Option<F> {
        let f = F::from_be_bytes_mod_order(bytes);
        (f.into_bigint().to_bytes_be().as_slice() == bytes).then_some(f)
    }

    pub fn setup<P: SWCurveConfig>(points: &[u8], scalars: &[u8], n: usize, coord: usize, threads: usize) -> Result<Ark<P>, String>
    where
        P::BaseField: PrimeField,
    {
        let mut bases = Vec::with_capacity(n);
        for i in 0..n {
            let at = &points[2 * coord * i..2 * coord * (i + 1)];
            let (x, y) = match (field::<P::BaseField>(&at[..coord]), field::<P::BaseField>(&at[coord..])) {
                (Some(x), Some(y)) => (x, y),
                _ => return Err(format!("arkworks: point {i}: coordinate not below p")),
            };
            let p = Affine::<P>::new_unchecked(x, y);
            if !p.is_on_curve() {
                return Err(format!("arkworks: point {i}: not on the curve"));
            }
            bases.push(p);
        }
        let scalars = scalars.chunks_exact(32).map(P::ScalarField::from_le_bytes_mod_order).collect();
        #[cfg(feature = "parallel")]
        let pool = if threads > 1 {
            Some(rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?)
        } else {
            None
        };
        #[cfg(not(feature = "parallel"))]
        if threads != 1 {
            return Err("arkworks: this build is serial".into());
        }
        Ok(Ark {
            bases,
            scalars,
            coord,
            #[cfg(feature = "parallel")]
            pool,
        })
    }

    impl<P: SWCurveConfig> Ark<P> {
        fn msm(&self) -> Projective<P> {
            let go = || Projective::<P>::msm(&self.bases, &self.scalars).expect("lengths match");
            #[cfg(feature = "parallel")]
            if let Some(pool) = &self.pool {
                return pool.install(go);
            }
            go()
        }
    }

    impl<P: SWCurveConfig> Msm for Ark<P>
    where
        P::BaseField: PrimeField,
    {
        fn run(&self) -> Option<(Vec<u8>, Vec<u8>)> {
            let a = self.msm().into_affine();
            if a.infinity {
                return None;
            }
            let be = |f: P::BaseField| {
                let mut v = f.into_bigint().to_bytes_be();
                v.drain(..v.len() - self.coord);
                v
            };
            Some((be(a.x), be(a.y)))
        }
    }
}

/// Cuts this process's CPU affinity to the first `threads` CPUs it may use, so that blst's pool
/// (sized by num_cpus at its first use) has `threads` threads. Err = fewer CPUs than that.
#[cfg(not(feature = "single"))]
fn limit_cpus(threads: usize) -> Result<(), String> {
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Err("sched_getaffinity failed".into());
        }
        let mut keep: libc::cpu_set_t = std::mem::zeroed();
        let mut count = 0;
        for cpu in 0..libc::CPU_SETSIZE as usize {
            if count < threads && libc::CPU_ISSET(cpu, &set) {
                libc::CPU_SET(cpu, &mut keep);
                count += 1;
            }
        }
        if count < threads {
            return Err(format!("{threads} threads asked, this process may run on {count} CPU(s)"));
        }
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &keep) != 0 {
            return Err("sched_setaffinity failed".into());
        }
    }
    let seen = num_cpus::get();
    if seen != threads {
        return Err(format!("{threads} threads asked, blst's pool would have {seen} (CPU quota?)"));
    }
    Ok(())
}

fn main() {
    if let Err(e) = real_main() {
        eprintln!("msm-native: {e}");
        std::process::exit(1);
    }
}

fn real_main() -> Outcome {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [lib, curve, threads, n] = args.as_slice() else {
        return Err("usage: msm-native <blst|arkworks> <bls12-381|bn254> <threads> <n>".into());
    };
    let threads: usize = threads.parse().map_err(|_| format!("bad thread count {threads}"))?;
    let n: usize = n.parse().map_err(|_| format!("bad n {n}"))?;
    let coord = match curve.as_str() {
        "bls12-381" => 48,
        "bn254" => 32,
        _ => return Err(format!("unknown curve {curve}")),
    };
    let mut stdin = io::stdin().lock();
    let mut points = vec![0u8; n * 2 * coord];
    let mut scalars = vec![0u8; n * 32];
    stdin.read_exact(&mut points).map_err(|e| format!("reading points: {e}"))?;
    stdin.read_exact(&mut scalars).map_err(|e| format!("reading scalars: {e}"))?;
    let mut out = io::stdout().lock();
    let unavailable = |out: &mut io::StdoutLock, why: String| -> Outcome {
        writeln!(out, "unavailable {why}").map_err(|e| e.to_string())
    };

    #[cfg(feature = "single")]
    if threads != 1 {
        return unavailable(&mut out, "the one-thread build takes threads = 1".into());
    }
    #[cfg(not(feature = "single"))]
    {
        if threads < 2 {
            return unavailable(&mut out, "the threaded build takes threads ≥ 2".into());
        }
        if let Err(why) = limit_cpus(threads) {
            return unavailable(&mut out, why);
        }
    }

    let msm: Box<dyn Msm> = match (lib.as_str(), curve.as_str()) {
        ("blst", "bls12-381") => Box::new(blst_peer::setup(&points, &scalars, n)?),
        ("blst", _) => return unavailable(&mut out, "blst has BLS12-381 only".into()),
        #[cfg(feature = "arkworks")]
        ("arkworks", "bls12-381") => Box::new(ark_peer::setup::<ark_bls12_381::g1::Config>(&points, &scalars, n, coord, threads)?),
        #[cfg(feature = "arkworks")]
        ("arkworks", "bn254") => Box::new(ark_peer::setup::<ark_bn254::g1::Config>(&points, &scalars, n, coord, threads)?),
        _ => return Err(format!("unknown library {lib}")),
    };
    drop(points);
    writeln!(out, "ready {threads}").and_then(|_| out.flush()).map_err(|e| e.to_string())?;

    for line in stdin.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim() != "run" {
            return Err(format!("unknown command {line:?}"));
        }
        let t0 = Instant::now();
        let r = msm.run();
        let ns = t0.elapsed().as_nanos();
        match r {
            None => writeln!(out, "{ns} infinity"),
            Some((x, y)) => writeln!(out, "{ns} {} {}", hex(&x), hex(&y)),
        }
        .and_then(|_| out.flush())
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}
