//! The search's own account of its work, counted as DLX1 counts it.
//!
//! * `nodes`: nodes of the search tree. One for every entry to a level
//!   (DLX1's `forward`), plus one for every solution found.
//! * `updates`: link removals. One when an item leaves its list in `cover`,
//!   and one for every node unlinked from an item's list while hiding an
//!   option (also inside `purify`). Undoing work is not counted.
//! * `solutions`: exact covers found.
//! * `guesses`: branch points, the nodes whose item had two options or
//!   more (with multiplicities: two moves or more): where the search could
//!   not tell which option to take and had to try. Forced nodes and dead
//!   ends are not guesses. Sudoku solvers report this figure (tdoku: 65 a
//!   puzzle on the hardest sets); fewer guesses is reasoning, not speed.
//! * `probes`, `pruned`: options tried, and options removed, by the
//!   lookahead of [`Branching::Lookahead`](crate::dlx::Branching::Lookahead)
//!   (0 with the other rules). The updates made while probing count in
//!   `updates`; a probe is not a node.
//!
//! `Stats` adds with `+=`, so totals over many puzzles or threads are a sum,
//! and subtracts with `-`: the work between two readings.

use std::ops::{AddAssign, Sub};

/// Counters of a search (see the module documentation for what they count).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Search-tree nodes, DLX1's `nodes`.
    pub nodes: u64,
    /// Link removals, DLX1's `updates`.
    pub updates: u64,
    /// Exact covers found.
    pub solutions: u64,
    /// Branch points: nodes whose item had two options or more.
    pub guesses: u64,
    /// Options tried by lookahead probes.
    pub probes: u64,
    /// Options that lookahead removed (their forced consequences left a
    /// primary item with no option), and branches that the branch and bound
    /// of [`Solver::best`](crate::dlx::Solver::best) did not search.
    pub pruned: u64,
}

impl AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.nodes += other.nodes;
        self.updates += other.updates;
        self.solutions += other.solutions;
        self.guesses += other.guesses;
        self.probes += other.probes;
        self.pruned += other.pruned;
    }
}

impl Sub for Stats {
    type Output = Stats;
    /// The work done between reading `other` and reading `self` (counters
    /// only grow; each difference stops at 0).
    fn sub(self, other: Stats) -> Stats {
        Stats {
            nodes: self.nodes.saturating_sub(other.nodes),
            updates: self.updates.saturating_sub(other.updates),
            solutions: self.solutions.saturating_sub(other.solutions),
            guesses: self.guesses.saturating_sub(other.guesses),
            probes: self.probes.saturating_sub(other.probes),
            pruned: self.pruned.saturating_sub(other.pruned),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_assign_sums_every_field() {
        let mut a = Stats {
            nodes: 1,
            updates: 2,
            solutions: 3,
            guesses: 6,
            probes: 4,
            pruned: 5,
        };
        a += Stats {
            nodes: 10,
            updates: 20,
            solutions: 30,
            guesses: 60,
            probes: 40,
            pruned: 50,
        };
        assert_eq!(
            a,
            Stats {
                nodes: 11,
                updates: 22,
                solutions: 33,
                guesses: 66,
                probes: 44,
                pruned: 55,
            }
        );
    }
}
