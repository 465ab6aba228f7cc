//! An independent check that a set of options is an exact cover.
//!
//! It shares nothing with the search: it reads the options' items from the
//! matrix's plain entry lists (not the links) and counts. Tests run every
//! reported solution through it, so a bug in the dancing cannot hide behind a
//! matching count.

use std::fmt;

use super::index::{ColorId, OptionId};
use super::matrix::Matrix;

/// What [`verify_cover`] found wrong with a set of options.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CoverError {
    /// No such option in the matrix.
    UnknownOption(OptionId),
    /// The option is listed twice.
    RepeatedOption(OptionId),
    /// The option has no primary item: no search reports it.
    IgnoredOption(OptionId),
    /// A secondary item held by two options that do not agree on one color.
    SecondaryClash {
        /// The item's name.
        item: String,
        /// The second option that holds it.
        option: OptionId,
    },
    /// A primary item covered too few or too many times.
    PrimaryCount {
        /// The item's name.
        item: String,
        /// How many of the options hold it.
        uses: u32,
        /// Its bounds (1, 1 without multiplicities).
        bounds: (u32, u32),
    },
}

impl fmt::Display for CoverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoverError::UnknownOption(o) => write!(f, "option {o} does not exist"),
            CoverError::RepeatedOption(o) => write!(f, "option {o} is used twice"),
            CoverError::IgnoredOption(o) => write!(f, "option {o} has no primary item"),
            CoverError::SecondaryClash { item, option } => {
                write!(f, "item {item} is covered more than once (option {option})")
            }
            CoverError::PrimaryCount { item, uses, bounds } => {
                write!(f, "primary item {item} is covered {uses} times")?;
                match *bounds {
                    (1, 1) => Ok(()),
                    (lo, hi) if lo == hi => write!(f, " (not {lo})"),
                    (lo, hi) => write!(f, " (not {lo} to {hi})"),
                }
            }
        }
    }
}

impl std::error::Error for CoverError {}

/// Checks that `options` is a solution of `matrix`: every primary item
/// covered exactly once, or as many times as its multiplicities allow
/// ([`Matrix::bounds`]); every secondary item covered at most once, or by
/// several options that all give it the same color. Returns what is wrong.
pub fn verify_cover(matrix: &Matrix, options: &[OptionId]) -> Result<(), CoverError> {
    let n = matrix.item_count();
    let mut uses = vec![0u32; n];
    let mut color: Vec<Option<Option<ColorId>>> = vec![None; n];
    let mut seen = std::collections::HashSet::new();
    for &o in options {
        if o.as_usize() >= matrix.option_count() {
            return Err(CoverError::UnknownOption(o));
        }
        if !seen.insert(o) {
            return Err(CoverError::RepeatedOption(o));
        }
        if matrix.ignored_options().contains(&o) {
            return Err(CoverError::IgnoredOption(o));
        }
        for (item, c) in matrix.option_items(o) {
            let i = item.as_usize();
            uses[i] += 1;
            if matrix.is_primary(item) {
                continue;
            }
            match color[i] {
                None => color[i] = Some(c),
                Some(prev) => {
                    if prev.is_none() || prev != c {
                        return Err(CoverError::SecondaryClash {
                            item: matrix.item_name(item).to_string(),
                            option: o,
                        });
                    }
                }
            }
        }
    }
    for (i, &n) in uses.iter().enumerate().take(matrix.primary_count()) {
        let item = super::index::ItemId::must(i);
        let (lo, hi) = matrix.bounds(item).unwrap_or((1, 1));
        if n < lo || n > hi {
            return Err(CoverError::PrimaryCount {
                item: matrix.item_name(item).to_string(),
                uses: n,
                bounds: (lo, hi),
            });
        }
    }
    Ok(())
}

/// The most options [`brute_force_count`] takes: 2²⁰ subsets.
pub const BRUTE_FORCE_OPTIONS: usize = 20;

/// The number of solutions of `matrix`, by trying every subset of its
/// options against [`verify_cover`]: an oracle for tests of small matrices
/// that shares nothing with the search. `None` when the matrix has more than
/// [`BRUTE_FORCE_OPTIONS`] options.
pub fn brute_force_count(matrix: &Matrix) -> Option<u64> {
    let k = matrix.option_count();
    if k > BRUTE_FORCE_OPTIONS {
        return None;
    }
    let mut chosen = Vec::with_capacity(k);
    let count = (0u32..1 << k)
        .filter(|mask| {
            chosen.clear();
            chosen.extend((0..k).filter(|b| mask >> b & 1 == 1).map(OptionId::must));
            verify_cover(matrix, &chosen).is_ok()
        })
        .count();
    Some(count as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlx::knuth;

    #[test]
    fn brute_force_counts_taocp_and_refuses_large_matrices() {
        let taocp = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
        let m = knuth::read(taocp.as_bytes()).unwrap();
        assert_eq!(brute_force_count(&m), Some(1));
        let colored = "A B | x\nA x:0\nB x:0\nA B x:1\nB x:1\n";
        let m = knuth::read(colored.as_bytes()).unwrap();
        // {A x:0, B x:0} (x given one color twice) and {A B x:1}; not
        // {A x:0, B x:1}, whose colors clash.
        assert_eq!(brute_force_count(&m), Some(2));
        // DLX3's own example: A B once, C two or three times; one solution.
        let dlx3 = "A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";
        let m = knuth::read(dlx3.as_bytes()).unwrap();
        assert_eq!(brute_force_count(&m), Some(1));
        let chosen = [1, 3, 4].map(OptionId::must);
        assert_eq!(verify_cover(&m, &chosen), Ok(()));
        let e = verify_cover(&m, &[1, 4].map(OptionId::must)).unwrap_err();
        assert!(e.to_string().contains("B is covered 0 times"), "{e}");
        let e = verify_cover(&m, &[0].map(OptionId::must)).unwrap_err();
        assert!(
            e.to_string().contains("C is covered 0 times (not 2 to 3)"),
            "{e}"
        );
        let mut big = String::from("A\n");
        big.push_str(&"A\n".repeat(BRUTE_FORCE_OPTIONS + 1));
        let m = knuth::read(big.as_bytes()).unwrap();
        assert_eq!(brute_force_count(&m), None);
    }
}
