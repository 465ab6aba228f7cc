//! Random small matrices and a brute force over them, for the test files
//! that check the search (and what is built on it) against answers found
//! apart from it.

use dlx::{verify_cover, Matrix, MatrixBuilder, OptionId};
use std::collections::BTreeSet;

/// Every solution, as a set of option indices, by trying every subset of
/// the options against `verify_cover`.
pub fn brute_force(m: &Matrix) -> BTreeSet<Vec<usize>> {
    let k = m.option_count();
    assert!(k <= 16, "too many options for the brute force");
    (0u32..1 << k)
        .map(|mask| (0..k).filter(|b| mask >> b & 1 == 1).collect::<Vec<_>>())
        .filter(|s| {
            let options: Vec<_> = s.iter().map(|&o| OptionId::must(o)).collect();
            verify_cover(m, &options).is_ok()
        })
        .collect()
}

/// A random matrix with multiplicities: up to 5 primary items (bounds from
/// 0:1 to 3:4, some exact), up to 2 secondary items, colored or not, up to
/// 12 options.
pub fn random_bounded(seed: u64) -> Matrix {
    random_bounded_with(seed, true)
}

/// [`random_bounded`], with colors only if `colored`; without them the
/// first item's bounds are never 1:1, so that the matrix has bounds.
pub fn random_bounded_with(seed: u64, colored: bool) -> Matrix {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut b = MatrixBuilder::new();
    let np = rng.gen_range(1..=5);
    let ns = rng.gen_range(0..=2);
    let primary: Vec<_> = (0..np)
        .map(|i| {
            let item = b.primary(&format!("p{i}")).unwrap();
            let lo = rng.gen_range(0..=3);
            let hi = rng.gen_range(lo.max(1)..=4);
            if !colored && i == 0 && (lo, hi) == (1, 1) {
                b.set_bounds(item, 0, 2).unwrap();
            } else if rng.gen_bool(0.7) || (!colored && i == 0) {
                b.set_bounds(item, lo, hi).unwrap();
            }
            item
        })
        .collect();
    for i in 0..ns {
        b.secondary(&format!("s{i}")).unwrap();
    }
    for _ in 0..rng.gen_range(1..=12) {
        let mut names: Vec<String> = (0..np)
            .filter(|_| rng.gen_bool(0.4))
            .map(|i| format!("p{i}"))
            .collect();
        if names.is_empty() {
            names.push(format!("p{}", rng.gen_range(0..np)));
        }
        for s in 0..ns {
            if rng.gen_bool(0.4) {
                let color = ["", ":r", ":g"][rng.gen_range(0..3)];
                let color = if colored { color } else { "" };
                names.push(format!("s{s}{color}"));
            }
        }
        b.option_by_names(names.iter().map(String::as_str)).unwrap();
    }
    let _ = primary;
    b.build().unwrap()
}
