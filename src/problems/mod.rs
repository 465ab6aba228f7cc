//! Generators of classic exact-cover problems, as [`Matrix`]es.
//!
//! They exist to exercise and measure the core on problems with known answers
//! (tests, benches, `dlx gen`), and as examples of building matrices:
//!
//! * [`queens`]: N queens, rows and columns primary, diagonals secondary
//!   (OEIS A000170).
//! * [`two_queens`]: two queens in every row and column, at most two on a
//!   diagonal (DLX3's multiplicities: `2|` rows and columns, `0:2|`
//!   diagonals).
//! * [`langford`]: Langford pairs (OEIS A014552, doubled: both orientations).
//! * [`polyomino`]: packing pieces such as the 12 pentominoes into a box.
//! * [`dominoes`]: domino tilings of a board with a cost on each domino
//!   (DLX5's costs: the cheapest tiling is a minimum-weight perfect
//!   matching of the grid graph; tilings of 2n×2n boards: OEIS A004003).

use crate::dlx::{BuildError, Matrix, MatrixBuilder};

pub mod polyomino;
pub mod tiling;

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
    squares(&mut b, n)?;
    b.build()
}

/// The options of [`queens`] and [`two_queens`]: one per square of the
/// `n × n` board, `ri cj a(i+j) b(i-j+n-1)`, row by row.
fn squares(b: &mut MatrixBuilder, n: usize) -> Result<(), BuildError> {
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
    Ok(())
}

/// Two queens in every row and every column of an `n × n` board, at most
/// two on any diagonal: Knuth's multiplicities (DLX3) at work. Items
/// `2|r0…`, `2|c0…` (each covered exactly twice), `0:2|a0…` and `0:2|b0…`
/// (the diagonals: none, one or two queens), all primary; one option per
/// square, as in [`queens`]. (With at most one queen a diagonal there is no
/// solution: 2n queens, 2n − 1 diagonals of each kind.)
///
/// ```
/// let m = dlx::problems::two_queens(4).unwrap();
/// assert!(m.has_bounds());
/// assert_eq!(dlx::Solver::new(&m).count().solutions, 11);
/// ```
pub fn two_queens(n: usize) -> Result<Matrix, BuildError> {
    let mut b = MatrixBuilder::new();
    for i in 0..2 * n {
        let name = if i < n {
            format!("r{i}")
        } else {
            format!("c{}", i - n)
        };
        let item = b.primary(&name)?;
        b.set_bounds(item, 2, 2)?;
    }
    for kind in ["a", "b"] {
        for d in 0..(2 * n).saturating_sub(1) {
            let item = b.primary(&format!("{kind}{d}"))?;
            b.set_bounds(item, 0, 2)?;
        }
    }
    squares(&mut b, n)?;
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

/// Domino tilings of a `rows × cols` board, each domino with a cost from
/// `seed`: items `r{i}c{j}` (primary), one option per domino — for each
/// cell in row-major order, the horizontal one starting there, then the
/// vertical one — with cost 1 to 9 (a SplitMix64 of the seed and the
/// option's index, the same on every machine and version). `dlx cover
/// --best 1` finds a minimum-weight perfect matching of the grid graph.
///
/// ```
/// let m = dlx::problems::dominoes(4, 4, 1).unwrap();
/// assert_eq!(dlx::Solver::new(&m).count().solutions, 36);
/// assert!(m.has_costs());
/// ```
pub fn dominoes(rows: usize, cols: usize, seed: u64) -> Result<Matrix, BuildError> {
    let mut b = MatrixBuilder::new();
    for i in 0..rows {
        for j in 0..cols {
            b.primary(&format!("r{i}c{j}"))?;
        }
    }
    let mut k = 0u64;
    for i in 0..rows {
        for j in 0..cols {
            for (di, dj) in [(0, 1), (1, 0)] {
                let (i2, j2) = (i + di, j + dj);
                if i2 >= rows || j2 >= cols {
                    continue;
                }
                let names = [format!("r{i}c{j}"), format!("r{i2}c{j2}")];
                let option = b.option_by_names(names.iter().map(String::as_str))?;
                b.set_cost(
                    option,
                    1 + splitmix64(seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15)) % 9,
                )?;
                k += 1;
            }
        }
    }
    b.build()
}

/// SplitMix64's output function: a well-mixed 64-bit value of `x`.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
