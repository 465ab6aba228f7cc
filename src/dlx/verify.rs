//! An independent check that a set of options is an exact cover.
//!
//! It shares nothing with the search: it reads the options' items from the
//! matrix's plain entry lists (not the links) and counts. Tests run every
//! reported solution through it, so a bug in the dancing cannot hide behind a
//! matching count.

use super::index::{ColorId, OptionId};
use super::matrix::Matrix;

/// Checks that `options` is a solution of `matrix`: every primary item
/// covered exactly once; every secondary item covered at most once, or by
/// several options that all give it the same color. Returns what is wrong.
pub fn verify_cover(matrix: &Matrix, options: &[OptionId]) -> Result<(), String> {
    let n = matrix.item_count();
    let mut uses = vec![0u32; n];
    let mut color: Vec<Option<Option<ColorId>>> = vec![None; n];
    let mut seen = std::collections::HashSet::new();
    for &o in options {
        if o.as_usize() >= matrix.option_count() {
            return Err(format!("option {o} does not exist"));
        }
        if !seen.insert(o) {
            return Err(format!("option {o} is used twice"));
        }
        if matrix.ignored_options().contains(&o) {
            return Err(format!("option {o} has no primary item"));
        }
        for (item, c) in matrix.option_items(o) {
            let i = item.as_usize();
            uses[i] += 1;
            match color[i] {
                None => color[i] = Some(c),
                Some(prev) => {
                    if matrix.is_primary(item) || prev.is_none() || prev != c {
                        return Err(format!(
                            "item {} is covered more than once (option {o})",
                            matrix.item_name(item)
                        ));
                    }
                }
            }
        }
    }
    for (i, &n) in uses.iter().enumerate().take(matrix.primary_count()) {
        if n != 1 {
            let item = super::index::ItemId::must(i);
            return Err(format!(
                "primary item {} is covered {n} times",
                matrix.item_name(item)
            ));
        }
    }
    Ok(())
}
