//! Generators of classic exact-cover problems, as [`Matrix`]es.
//!
//! They exist to exercise and measure the core on problems with known answers
//! (tests, benches, `dlx gen`), and as examples of building matrices:
//!
//! * [`queens`]: N queens, rows and columns primary, diagonals secondary
//!   (OEIS A000170).
//! * [`langford`]: Langford pairs (OEIS A014552, doubled: both orientations).
//! * [`polyomino`]: packing pieces such as the 12 pentominoes into a box.

use crate::dlx::{BuildError, Matrix, MatrixBuilder};

pub mod polyomino;

/// N queens: items `r0…`, `c0…` (primary), `a0…` and `b0…` (the two kinds of
/// diagonal, secondary); one option `ri cj a(i+j) b(i-j+n-1)` per square.
///
/// ```
/// let m = dlx::problems::queens(8).unwrap();
/// assert_eq!(dlx::Solver::new(&m).count().solutions, 92);
/// ```
pub fn queens(n: usize) -> Result<Matrix, BuildError> {
    let mut b = MatrixBuilder::new();
    for i in 0..n {
        b.primary(&format!("r{i}"))?;
    }
    for j in 0..n {
        b.primary(&format!("c{j}"))?;
    }
    for d in 0..(2 * n).saturating_sub(1) {
        b.secondary(&format!("a{d}"))?;
    }
    for d in 0..(2 * n).saturating_sub(1) {
        b.secondary(&format!("b{d}"))?;
    }
    for i in 0..n {
        for j in 0..n {
            let names = [
                format!("r{i}"),
                format!("c{j}"),
                format!("a{}", i + j),
                format!("b{}", i + n - 1 - j),
            ];
            b.option_by_names(names.iter().map(String::as_str))?;
        }
    }
    b.build()
}

/// Langford pairs of order `n`: arrange 1,1,2,2,…,n,n so that the two `i`s
/// have `i` numbers between them. Items `v1…vn`, `s1…s2n`; one option
/// `vi sj sk` for each `i` and `k = j + i + 1 <= 2n`, in the order `i`, `j`.
/// Each arrangement is counted twice (it and its mirror image).
///
/// ```
/// let m = dlx::problems::langford(4).unwrap();
/// assert_eq!(dlx::Solver::new(&m).count().solutions, 2);
/// ```
pub fn langford(n: usize) -> Result<Matrix, BuildError> {
    let mut b = MatrixBuilder::new();
    for i in 1..=n {
        b.primary(&format!("v{i}"))?;
    }
    for j in 1..=2 * n {
        b.primary(&format!("s{j}"))?;
    }
    for i in 1..=n {
        for j in 1..=2 * n {
            let k = j + i + 1;
            if k > 2 * n {
                break;
            }
            let names = [format!("v{i}"), format!("s{j}"), format!("s{k}")];
            b.option_by_names(names.iter().map(String::as_str))?;
        }
    }
    b.build()
}
