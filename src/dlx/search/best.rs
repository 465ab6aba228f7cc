//! The k cheapest solutions of a matrix with costs (DLX5's question):
//! [`Cheapest`] keeps the k cheapest of the solutions offered to it, ties
//! in the order offered (so, from a search, in search order: deterministic);
//! [`Solver::best`](crate::dlx::Solver::best) offers it every solution of a
//! fresh search, within the budget.
//!
//! The search is a branch and bound, as DLX5's: once k solutions are kept,
//! the driver drops every branch whose cost so far plus a lower bound for
//! the rest is no cheaper than the k-th ([`CostBound`]). The lower bound is
//! DLX5's idea of a *tax* per item: each option's cost is shared out among
//! its primary items, each item's tax is the least share it gets from any
//! option, and the primary items still to cover owe at least their taxes
//! (an exact cover covers each once, so its cost is the sum of the shares
//! of the items it covers). Shares are exact fractions: costs are scaled by
//! the least common multiple of the options' numbers of primary items. With
//! multiplicities (items covered several times, or not at all) the taxes
//! are 0 and only the cost so far bounds. Pruned branches are counted in
//! [`Stats::pruned`](crate::dlx::Stats::pruned); the answer is the same as
//! an enumeration of the whole tree (tests check it against brute force).
//! With a budget the answer is the best among the solutions found, and
//! [`Best::complete`] says it is not proven.

use super::{Step, Steps};
use crate::dlx::{Matrix, OptionId};

/// A solution and its cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Costed {
    /// The sum of its options' costs.
    pub cost: u64,
    /// Its options, preselected ones first, as the search gives them.
    pub options: Vec<OptionId>,
}

/// The cheapest solutions found, cheapest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    /// At most k solutions, by cost, ties in search order.
    pub solutions: Vec<Costed>,
    /// Whether the whole tree was searched, so that these are the k
    /// cheapest of all; `false` after a budget: the best found so far.
    pub complete: bool,
}

/// Keeps the `k` cheapest solutions offered.
#[derive(Clone, Debug)]
pub struct Cheapest {
    k: usize,
    kept: Vec<Costed>,
}

impl Cheapest {
    /// Keeps the `k` cheapest.
    pub fn new(k: usize) -> Cheapest {
        Cheapest {
            k,
            kept: Vec::with_capacity(k.min(1024)),
        }
    }

    /// Whether a solution of `cost` would be kept: fewer than k kept, or
    /// cheaper than the dearest kept (a tie loses to the one offered first).
    pub fn wants(&self, cost: u64) -> bool {
        self.k > 0 && (self.kept.len() < self.k || self.kept.last().is_some_and(|c| cost < c.cost))
    }

    /// The cost a solution must be below to be kept, once k are kept.
    pub fn limit(&self) -> Option<u64> {
        if self.k > 0 && self.kept.len() == self.k {
            self.kept.last().map(|c| c.cost)
        } else {
            None
        }
    }

    /// Offers a solution: kept if [`wants`](Self::wants) says so, the
    /// dearest dropped when k are kept already. `options` is called only
    /// for a solution that is kept.
    pub fn offer(&mut self, cost: u64, options: impl FnOnce() -> Vec<OptionId>) {
        if !self.wants(cost) {
            return;
        }
        if self.kept.len() == self.k {
            self.kept.pop();
        }
        // After every solution of the same cost kept before it.
        let at = self.kept.partition_point(|c| c.cost <= cost);
        self.kept.insert(
            at,
            Costed {
                cost,
                options: options(),
            },
        );
    }

    /// The solutions kept, cheapest first; `complete` as the search says.
    pub fn finish(self, complete: bool) -> Best {
        Best {
            solutions: self.kept,
            complete,
        }
    }
}

/// The branch and bound's tables, kept by the driver while a
/// [`best`] search runs: per kernel cursor, its option (4 bytes a cursor:
/// the links engine's cursors are nodes); per option, its cost and tax
/// share; per level, the cost so far and the taxes still owed (all scaled
/// by `scale`); and the limit, the k-th best cost once k are kept.
#[derive(Clone, Debug)]
pub(crate) struct CostBound {
    /// Per cursor, its option's index, or `u32::MAX` (a null move).
    option: Vec<u32>,
    cost: Vec<u128>,
    share: Vec<u128>,
    spent: Vec<u128>,
    owed: Vec<u128>,
    /// The scaled cost a branch must beat; `u128::MAX` until k are kept.
    limit: u128,
    scale: u128,
}

impl CostBound {
    /// The tables for `s`'s search of `matrix`, levels `0..depth`, from the
    /// root below the preselected options.
    fn new(s: &impl Steps, matrix: &Matrix, depth: usize) -> CostBound {
        let options = matrix.option_count();
        let primary = |o: OptionId| {
            matrix
                .option_items(o)
                .filter(|&(i, _)| matrix.is_primary(i))
                .map(|(i, _)| i.as_usize())
        };
        // Taxes are sound for exact cover only.
        let taxed = !matrix.has_bounds();
        let mut scale: u128 = 1;
        if taxed {
            for o in (0..options).map(OptionId::must) {
                let n = primary(o).count() as u128;
                if n > 0 {
                    scale = lcm(scale, n);
                }
                if scale > 1 << 40 {
                    // Shares rounded down stay a lower bound.
                    scale = 1;
                    break;
                }
            }
        }
        let mut tax = vec![u128::MAX; matrix.primary_count()];
        if taxed {
            for o in (0..options).map(OptionId::must) {
                let n = primary(o).count() as u128;
                if n == 0 {
                    continue;
                }
                let share = u128::from(matrix.cost(o)) * scale / n;
                for i in primary(o) {
                    tax[i] = tax[i].min(share);
                }
            }
        }
        // An item no option covers owes nothing here: the search finds no
        // cover anyway.
        let tax: Vec<u128> = tax
            .iter()
            .map(|&t| if t == u128::MAX { 0 } else { t })
            .collect();
        let share: Vec<u128> = (0..options)
            .map(|o| primary(OptionId::must(o)).fold(0u128, |sum, i| sum.saturating_add(tax[i])))
            .collect();
        let cost: Vec<u128> = (0..options)
            .map(|o| u128::from(matrix.cost(OptionId::must(o))) * scale)
            .collect();
        let option: Vec<u32> = (0..matrix.nodes.len())
            .map(|c| match s.cursor_option(c as u32) {
                Some(o) if o.as_usize() < options => o.as_usize() as u32,
                _ => u32::MAX,
            })
            .collect();
        let mut covered = vec![false; matrix.primary_count()];
        let mut root_cost = 0;
        for &o in &s.driver().preselected {
            root_cost = u128::saturating_add(root_cost, u128::from(matrix.cost(o)) * scale);
            for i in primary(o) {
                covered[i] = true;
            }
        }
        let owed = (0..matrix.primary_count())
            .filter(|&i| !covered[i])
            .fold(0u128, |sum, i| sum.saturating_add(tax[i]));
        let mut b = CostBound {
            option,
            cost,
            share,
            spent: vec![0; depth + 1],
            owed: vec![0; depth + 1],
            limit: u128::MAX,
            scale,
        };
        b.spent[0] = root_cost;
        b.owed[0] = owed;
        b
    }

    /// Commits cursor `c` at level `level - 1`: whether the branch below it
    /// can still beat the limit.
    #[inline]
    pub(crate) fn keep(&mut self, level: usize, c: u32) -> bool {
        let (spent, owed) = (self.spent[level - 1], self.owed[level - 1]);
        // (A cursor past the table names no option: the dense engine's null
        // move.)
        let (spent, owed) = match self.option.get(c as usize).copied().unwrap_or(u32::MAX) {
            u32::MAX => (spent, owed),
            o => {
                let o = o as usize;
                (
                    spent.saturating_add(self.cost[o]),
                    owed - self.share[o].min(owed),
                )
            }
        };
        self.spent[level] = spent;
        self.owed[level] = owed;
        spent.saturating_add(owed) < self.limit
    }
}

fn lcm(a: u128, b: u128) -> u128 {
    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    a / gcd(a, b) * b
}

/// [`Solver::bound_costs`](crate::dlx::Solver::bound_costs), for any
/// engine: restarts the search, with the branch and bound's tables or
/// without them.
pub(crate) fn bound_costs(s: &mut impl Steps, matrix: &Matrix, on: bool) {
    s.restart();
    let bound = on.then(|| {
        let depth = s.driver().choice.len();
        Box::new(CostBound::new(s, matrix, depth))
    });
    s.driver_mut().bound = bound;
}

/// [`Solver::set_cost_limit`](crate::dlx::Solver::set_cost_limit), for
/// any engine.
pub(crate) fn set_cost_limit(s: &mut impl Steps, limit: Option<u64>) {
    if let Some(b) = &mut s.driver_mut().bound {
        b.limit = limit.map_or(u128::MAX, |l| u128::from(l) * b.scale);
    }
}

/// [`Solver::best`](crate::dlx::Solver::best), for any engine: a branch and
/// bound (see the module documentation).
pub(crate) fn best(s: &mut impl Steps, matrix: &Matrix, k: usize) -> Best {
    bound_costs(s, matrix, true);
    let mut cheapest = Cheapest::new(k);
    if k == 0 {
        set_cost_limit(s, Some(0));
    }
    let complete = loop {
        match s.next_solution() {
            Step::Solution => {
                let options = s.solution_vec();
                let cost = matrix.cost_of(options.iter().copied());
                cheapest.offer(cost, || options);
                set_cost_limit(s, cheapest.limit());
            }
            Step::Exhausted => break true,
            Step::Budget => break false,
        }
    };
    s.driver_mut().bound = None;
    cheapest.finish(complete)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlx::{knuth, Budget, Solver};

    #[test]
    fn keeps_the_k_cheapest_ties_in_order_offered() {
        let o = |k| vec![OptionId::must(k)];
        let mut c = Cheapest::new(3);
        for (k, cost) in [5, 3, 5, 1, 3, 9, 1].into_iter().enumerate() {
            c.offer(cost, || o(k));
        }
        let best = c.finish(true);
        let got: Vec<(u64, usize)> = best
            .solutions
            .iter()
            .map(|s| (s.cost, s.options[0].as_usize()))
            .collect();
        assert_eq!(got, [(1, 3), (1, 6), (3, 1)]);
        assert!(Cheapest::new(0).finish(true).solutions.is_empty());
    }

    #[test]
    fn the_cheapest_covers_of_a_small_matrix() {
        // Covers of A B C: {AB, C} 5+1, {A, BC} 2+2, {A, B, C} 2+3+1,
        // {ABC} 7.
        let m =
            knuth::read("A B C\nA B |5\nC |1\nA |2\nB C |2\nB |3\nA B C |7\n".as_bytes()).unwrap();
        let mut s = Solver::new(&m);
        let best = s.best(2);
        assert!(best.complete);
        let costs: Vec<u64> = best.solutions.iter().map(|c| c.cost).collect();
        assert_eq!(costs, [4, 6]);
        assert_eq!(best.solutions[0].options.len(), 2);
        assert_eq!(s.best(10).solutions.len(), 4);
        // Below a preselected option: its cost counts, its items owe no tax.
        s.preselect(OptionId::must(0)).unwrap();
        let best = s.best(2);
        let costs: Vec<u64> = best.solutions.iter().map(|c| c.cost).collect();
        assert_eq!(costs, [6]);
        s.reset();
        s.set_budget(Budget {
            nodes: Some(1),
            updates: None,
        });
        assert!(!s.best(1).complete);
    }
}
