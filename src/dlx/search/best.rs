//! The k cheapest solutions of a matrix with costs (DLX5's question):
//! [`Cheapest`] keeps the k cheapest of the solutions offered to it, ties
//! in the order offered (so, from a search, in search order: deterministic);
//! [`Solver::best`](crate::dlx::Solver::best) offers it every solution of a
//! fresh search, within the budget.
//!
//! This first version enumerates the whole tree: exact, and as fast as a
//! count, but without DLX5's branch and bound (a branch dropped once its
//! cost plus a lower bound for the rest passes the k-th best), which is what
//! large costed problems need. With a budget the answer is the best among
//! the solutions found, and [`Best::complete`] says it is not proven.

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

/// [`Solver::best`](crate::dlx::Solver::best), for any engine.
pub(crate) fn best(s: &mut impl Steps, matrix: &Matrix, k: usize) -> Best {
    s.restart();
    let mut cheapest = Cheapest::new(k);
    loop {
        match s.next_solution() {
            Step::Solution => {
                let options = s.solution_vec();
                let cost = matrix.cost_of(options.iter().copied());
                cheapest.offer(cost, || options);
            }
            Step::Exhausted => return cheapest.finish(true),
            Step::Budget => return cheapest.finish(false),
        }
    }
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
        s.set_budget(Budget {
            nodes: Some(1),
            updates: None,
        });
        assert!(!s.best(1).complete);
    }
}
