//! The residual matrix: the subproblem left once some options are
//! committed, as a matrix of its own.
//!
//! Committing options (a puzzle's givens, a subtree's path) covers their
//! items; what is left to solve is the original problem restricted to the
//! items not yet covered and the options that still fit. A search can
//! preselect the options instead ([`Solver::preselect_all`]), and does for
//! easy problems, where building anything per problem costs more than it
//! saves. But a long search on a matrix whose covered part is large walks
//! and copies that part at every node: a minimal 25×25 Sudoku keeps about
//! 2,100 of its 15,625 options and 1,400 of its 2,500 items, and its
//! lookahead search takes 0.67–0.84 of the time on the residual, the same
//! tree (BENCHMARKS.md, "The residual matrix").
//!
//! Invariants, which make the residual's solutions exactly the original's
//! that contain the committed options (each mapped back by
//! [`Residual::original_option`], plus the committed ones):
//! * an item is kept when it can still be covered: a primary item whose
//!   upper bound the committed options have not reached (its bounds lowered
//!   by their count: exact cover's (1, 1) becomes covered), a secondary item
//!   they do not hold;
//! * an option is kept when it is not committed, not ignored, and fits:
//!   every primary item kept, every secondary item kept or held by the
//!   committed options in the option's own color (Knuth's *purified* item:
//!   it is left out of the option, which can no longer clash on it);
//! * items and options keep their order, names, colors and costs, so a
//!   search on the residual visits its options in the original's order.
//!
//! [`Solver::preselect_all`]: crate::dlx::Solver::preselect_all

use super::{BuildError, BuildErrorKind, Matrix, MatrixBuilder};
use crate::dlx::index::{ColorId, ItemId, OptionId};
use crate::dlx::search::PreselectError;
use std::fmt;
use std::sync::Arc;

/// The subproblem of a [`Matrix`] once some options are committed
/// ([`Matrix::residual`]), with the way back to the original's ids.
#[derive(Clone, Debug)]
pub struct Residual {
    matrix: Arc<Matrix>,
    /// The original id of each residual option.
    options: Vec<OptionId>,
    /// The original id of each residual item.
    items: Vec<ItemId>,
}

impl Residual {
    /// The residual matrix.
    pub fn matrix(&self) -> &Matrix {
        &self.matrix
    }

    /// The residual matrix, shared (a solver that owns what it searches
    /// holds it beside this residual).
    pub(crate) fn shared(&self) -> Arc<Matrix> {
        self.matrix.clone()
    }

    /// The original id of residual option `option` (itself when out of
    /// range: no such option in the residual).
    pub fn original_option(&self, option: OptionId) -> OptionId {
        self.options
            .get(option.as_usize())
            .copied()
            .unwrap_or(option)
    }

    /// The original id of residual item `item` (itself when out of range).
    pub fn original_item(&self, item: ItemId) -> ItemId {
        self.items.get(item.as_usize()).copied().unwrap_or(item)
    }
}

/// Why [`Matrix::residual`] made no matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResidualError {
    /// The options cannot be committed together (or one does not exist or
    /// is ignored): the refusal [`Solver::preselect`] gives.
    ///
    /// [`Solver::preselect`]: crate::dlx::Solver::preselect
    Refused(PreselectError),
    /// Every item is covered: the committed options are the only solution
    /// (every primary item's upper bound is reached, so its lower one too).
    Covered,
    /// The builder refused the residual (it cannot, being a part of a
    /// matrix it built: kept so that no input panics).
    Build(BuildError),
}

impl fmt::Display for ResidualError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResidualError::Refused(e) => e.fmt(f),
            ResidualError::Covered => f.write_str("the committed options cover every item"),
            ResidualError::Build(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ResidualError {}

/// What the committed options did to one item.
#[derive(Clone, Copy, Debug, Default)]
struct Held {
    /// How many committed options hold it.
    count: u32,
    /// The color they gave it (a secondary item's; 0 for none).
    color: u32,
    /// The last committed option holding it (`u32::MAX`: none).
    by: u32,
}

impl Matrix {
    /// The subproblem left once `committed` are in the solution: the items
    /// they leave open and the options that still fit, as a matrix of its
    /// own (see the module's invariants). Its solutions, each mapped back
    /// by [`Residual::original_option`] and joined to `committed`, are
    /// exactly the original's solutions that contain `committed`.
    ///
    /// ```
    /// use dlx::{MatrixBuilder, OptionId, Solver};
    ///
    /// // TAOCP 7.2.2.1's example; its one solution holds "A D" (option 3).
    /// let mut b = MatrixBuilder::new();
    /// for name in ["A", "B", "C", "D", "E", "F", "G"] {
    ///     b.primary(name).unwrap();
    /// }
    /// for option in ["C E F", "A D G", "B C F", "A D", "B G", "D E G"] {
    ///     b.option_by_names(option.split(' ')).unwrap();
    /// }
    /// let m = b.build().unwrap();
    /// let r = m.residual(&[OptionId::new(3).unwrap()]).unwrap();
    /// assert_eq!(r.matrix().item_count(), 5); // B C E F G
    /// assert_eq!(r.matrix().option_count(), 3); // C E F, B C F, B G
    /// let mut s = Solver::new(r.matrix());
    /// let first = s.first_solution().unwrap().unwrap();
    /// let found: Vec<usize> = first.iter().map(|&o| r.original_option(o).as_usize()).collect();
    /// assert_eq!(found, [0, 4]); // C E F and B G
    /// ```
    pub fn residual(&self, committed: &[OptionId]) -> Result<Residual, ResidualError> {
        let (held, is_committed) = self.held(committed)?;
        let primary = self.primary_count();
        let kept = |i: usize, h: &Held| {
            if i < primary {
                self.bounds(ItemId::must(i)).map_or(0, |(_, hi)| hi) > h.count
            } else {
                h.count == 0
            }
        };
        let mut b = MatrixBuilder::new();
        // Residual id + 1 of each original item (0: not kept).
        let mut new_item = vec![0u32; self.item_count()];
        let mut items = Vec::new();
        for (i, h) in held.iter().enumerate() {
            if !kept(i, h) {
                continue;
            }
            let id = self
                .declare_item_like(&mut b, i)
                .map_err(ResidualError::Build)?;
            if let Some((lo, hi)) = self.bounds(ItemId::must(i)).filter(|_| self.has_bounds()) {
                let c = h.count;
                if (lo.saturating_sub(c), hi - c) != (1, 1) {
                    // Kept: hi − c ≥ 1, and lo − c ≤ hi − c.
                    b.set_bounds(id, lo.saturating_sub(c), hi - c)
                        .map_err(ResidualError::Build)?;
                }
            }
            new_item[i] = id.as_usize() as u32 + 1;
            items.push(ItemId::must(i));
        }
        if items.is_empty() {
            return Err(ResidualError::Covered);
        }
        // Residual color ids, interned as first met.
        let mut new_color: Vec<Option<ColorId>> = vec![None; self.color_names.len()];
        let mut options = Vec::new();
        let mut entries: Vec<(ItemId, Option<ColorId>)> = Vec::new();
        let searched = is_committed.iter().zip(&self.option_node);
        'options: for (k, (&committed, &node)) in searched.enumerate() {
            let o = OptionId::must(k);
            if committed || node == u32::MAX {
                continue;
            }
            entries.clear();
            for (item, color) in self.option_items(o) {
                let i = item.as_usize();
                let h = &held[i];
                if new_item[i] != 0 {
                    let color = match color {
                        None => None,
                        Some(c) => Some(match new_color[c.as_usize()] {
                            Some(nc) => nc,
                            None => {
                                let nc =
                                    b.color(self.color_name(c)).map_err(ResidualError::Build)?;
                                new_color[c.as_usize()] = Some(nc);
                                nc
                            }
                        }),
                    };
                    entries.push((ItemId::must(new_item[i] as usize - 1), color));
                } else if i < primary
                    || h.color == 0
                    || color.map(|c| c.as_usize() as u32 + 1) != Some(h.color)
                {
                    // A covered primary item, or a secondary one held in
                    // another color (or with none): the option cannot fit.
                    continue 'options;
                }
                // Else a secondary item held in this option's color: purified.
            }
            let id = b
                .colored_option(entries.iter().copied())
                .map_err(ResidualError::Build)?;
            if self.has_costs() {
                b.set_cost(id, self.cost(o)).map_err(ResidualError::Build)?;
            }
            options.push(o);
        }
        let matrix = b.build().map_err(|e| match e.kind() {
            BuildErrorKind::NoItems => ResidualError::Covered,
            _ => ResidualError::Build(e),
        })?;
        Ok(Residual {
            matrix: Arc::new(matrix),
            options,
            items,
        })
    }

    /// What `committed` hold of each item, and which options they are; or
    /// the first refusal: an option that does not exist or is ignored, one
    /// committed twice, or one taking a primary item past its upper bound
    /// or a secondary item in another color (or an uncolored one twice).
    fn held(&self, committed: &[OptionId]) -> Result<(Vec<Held>, Vec<bool>), ResidualError> {
        let refuse = |e| Err(ResidualError::Refused(e));
        let mut held = vec![
            Held {
                by: u32::MAX,
                ..Held::default()
            };
            self.item_count()
        ];
        let mut is_committed = vec![false; self.option_count()];
        let primary = self.primary_count();
        for &o in committed {
            let k = o.as_usize();
            if k >= self.option_count() {
                return refuse(PreselectError::UnknownOption(o));
            }
            if self.option_node[k] == u32::MAX {
                return refuse(PreselectError::IgnoredOption(o));
            }
            if is_committed[k] {
                return refuse(PreselectError::Conflict { option: o, with: o });
            }
            is_committed[k] = true;
            for (item, color) in self.option_items(o) {
                let i = item.as_usize();
                let h = &mut held[i];
                let color = color.map_or(0, |c| c.as_usize() as u32 + 1);
                let clash = if i < primary {
                    let hi = self.bounds(item).map_or(1, |(_, hi)| hi);
                    h.count >= hi
                } else {
                    h.count > 0 && (color == 0 || h.color != color)
                };
                if clash {
                    let with = OptionId::must(h.by as usize);
                    return refuse(PreselectError::Conflict { option: o, with });
                }
                h.count += 1;
                h.color = color;
                h.by = k as u32;
            }
        }
        Ok((held, is_committed))
    }
}
