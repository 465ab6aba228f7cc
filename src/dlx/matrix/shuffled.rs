//! The same problem in a random order: options shuffled, primary items
//! shuffled among themselves.
//!
//! A search tries an item's options in the matrix's order and, among items
//! of equal len, takes the first; on a shuffled matrix a search that stops
//! at its first solution (a complete search: it finds one whenever there
//! is one) returns a random solution. Random, not uniform: a solution
//! reached through fewer choices is likelier. That is what
//! `random_solution` in the front ends is.
//!
//! Invariants: the shuffled matrix has the same items (names, bounds,
//! primary or secondary), the same options (items, colors, costs) and so
//! the same solutions, each option `k` of it being option
//! [`Shuffled::original_option`]`(k)` of the original; secondary items keep
//! their order (they are never chosen).

use super::{BuildError, Matrix, MatrixBuilder};
use crate::dlx::index::{ColorId, ItemId, OptionId};
use rand::seq::SliceRandom;

/// A [`Matrix`] with its options and primary items in a random order
/// ([`Matrix::shuffled`]), and the way back to the original's option ids.
#[derive(Clone, Debug)]
pub struct Shuffled {
    matrix: Matrix,
    /// The original id of each option.
    options: Vec<OptionId>,
}

impl Shuffled {
    /// The shuffled matrix.
    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// The matrix, owned (to move into a solver).
    pub fn into_parts(self) -> (Matrix, Vec<OptionId>) {
        (self.matrix, self.options)
    }

    /// The original id of option `option` of the shuffled matrix (itself
    /// when out of range).
    pub fn original_option(&self, option: OptionId) -> OptionId {
        self.options
            .get(option.as_usize())
            .copied()
            .unwrap_or(option)
    }
}

impl Matrix {
    /// The same problem with its options, and its primary items among
    /// themselves, in an order drawn from `rng` (see the module's
    /// invariants). The first solution of a search on it, mapped back by
    /// [`Shuffled::original_option`], is a random solution of this matrix.
    ///
    /// ```
    /// use dlx::{problems, Solver};
    /// use rand::SeedableRng;
    ///
    /// let queens = problems::queens(8).unwrap();
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    /// let shuffled = queens.shuffled(&mut rng).unwrap();
    /// let first = Solver::new(shuffled.matrix()).first_solution().unwrap().unwrap();
    /// let solution: Vec<_> = first.iter().map(|&o| shuffled.original_option(o)).collect();
    /// dlx::verify_cover(&queens, &solution).unwrap();
    /// ```
    pub fn shuffled(&self, rng: &mut impl rand::Rng) -> Result<Shuffled, BuildError> {
        let primary = self.primary_count();
        let mut order: Vec<usize> = (0..primary).collect();
        order.shuffle(rng);
        order.extend(primary..self.item_count());
        let mut b = MatrixBuilder::new();
        // The new id of each original item.
        let mut new_item = vec![ItemId::must(0); self.item_count()];
        for &i in &order {
            let id = self.declare_item_like(&mut b, i)?;
            if let Some((lo, hi)) = self.bounds(ItemId::must(i)) {
                if (lo, hi) != (1, 1) {
                    b.set_bounds(id, lo, hi)?;
                }
            }
            new_item[i] = id;
        }
        // Colors in their original order, so that ids agree.
        let colors = (0..self.color_names.len())
            .map(|c| b.color(self.color_name(ColorId::must(c))))
            .collect::<Result<Vec<_>, _>>()?;
        let mut options: Vec<OptionId> = (0..self.option_count()).map(OptionId::must).collect();
        options.shuffle(rng);
        let mut entries = Vec::new();
        for &o in &options {
            entries.clear();
            entries.extend(self.option_items(o).map(|(item, color)| {
                (
                    new_item[item.as_usize()],
                    color.and_then(|c| colors.get(c.as_usize()).copied()),
                )
            }));
            let id = b.colored_option(entries.iter().copied())?;
            let cost = self.cost(o);
            if cost != 0 {
                b.set_cost(id, cost)?;
            }
        }
        Ok(Shuffled {
            matrix: b.build()?,
            options,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::dlx::{knuth, verify_cover, Solver};
    use crate::problems;
    use rand::SeedableRng;
    use std::collections::BTreeSet;

    #[test]
    #[cfg_attr(
        miri,
        ignore = "no unsafe code of its own: the kernels' tests run under Miri"
    )]
    fn the_same_solutions_and_random_first_ones() {
        // Colors, bounds, costs and an ignored option come along.
        let text = "A 2|B C | x y\nA x:red\nB y:blue |3\nB C\nB\nC y:blue x:red\nx\n";
        let m = knuth::read(text.as_bytes()).unwrap();
        let all = |m: &crate::dlx::Matrix, back: &dyn Fn(crate::dlx::OptionId) -> usize| {
            let mut s = Solver::new(m);
            s.solutions()
                .map(|sol| sol.into_iter().map(back).collect::<BTreeSet<_>>())
                .collect::<BTreeSet<_>>()
        };
        let want = all(&m, &|o| o.as_usize());
        assert!(!want.is_empty());
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        for _ in 0..10 {
            let sh = m.shuffled(&mut rng).unwrap();
            assert_eq!(sh.matrix().ignored_options().len(), 1);
            assert_eq!(
                all(sh.matrix(), &|o| sh.original_option(o).as_usize()),
                want
            );
            for k in 0..m.option_count() {
                let o = crate::dlx::OptionId::must(k);
                let orig = sh.original_option(o);
                assert_eq!(sh.matrix().cost(o), m.cost(orig));
            }
        }
        // Queens 8: the first solutions of shuffled matrices differ.
        let queens = problems::queens(8).unwrap();
        let mut firsts = BTreeSet::new();
        for _ in 0..20 {
            let sh = queens.shuffled(&mut rng).unwrap();
            let first = Solver::new(sh.matrix()).first_solution().unwrap().unwrap();
            let mut sol: Vec<_> = first.iter().map(|&o| sh.original_option(o)).collect();
            verify_cover(&queens, &sol).unwrap();
            sol.sort();
            firsts.insert(sol);
        }
        assert!(
            firsts.len() > 5,
            "{} distinct first solutions",
            firsts.len()
        );
    }
}
