//! Cutting one search into subtrees ([`LinksSolver::split`](crate::dlx::LinksSolver::split)), so that they can be
//! searched apart — on several threads, by any engine.
//!
//! The split runs the search down to a depth and no further: each node it
//! reaches at that depth is handed out as a *subtree*, named by its prefix
//! (the options the search chose on the way down), and each solution met
//! above the depth as a solution. The depth counts *branch points*, levels
//! whose item had two options or more: forced levels do not count, so a
//! chain of forced choices is passed through in one split, and each level
//! of depth at least doubles the subtrees that do not die. Every solution of the problem is either one
//! of those or lies in exactly one subtree, so searching each subtree (after
//! preselecting its prefix) and adding up gives the whole search; taking the
//! pieces in the order given gives the one-thread order of solutions.
//!
//! With [`Branching::Knuth`](super::Branching::Knuth) a subtree's search is
//! the very subtree a one-thread search explores: the preselected prefix
//! leaves the same items with the same options in the same order, so the same
//! choices follow (the links, dense and bits engines, which walk one tree).
//! Then the split's counters plus each subtree's — counted after
//! preselecting — are exactly those of one search (tests check it). With
//! the other rules the pieces still partition the solutions, but a subtree's
//! search need not match: lookahead's removals at the levels above are not
//! carried down, and first-forced's memory of forced items starts empty.

use super::super::index::OptionId;
use super::super::stats::Stats;
use super::{Step, Steps};

/// What [`Solver::split`](crate::dlx::Solver::split) meets, in the order of a one-thread search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split<'a> {
    /// A node at the cut: the options the search chose above it (preselected
    /// options not included): one per branch point above it, and one per
    /// forced level.
    Subtree(&'a [OptionId]),
    /// A solution above the cut, as [`LinksSolver::solution`](crate::dlx::LinksSolver::solution)
    /// gives it (preselected options first).
    Solution(&'a [OptionId]),
}

/// [`LinksSolver::split`](crate::dlx::LinksSolver::split), for any engine: the driver's cut does the work.
pub(crate) fn split(s: &mut impl Steps, depth: usize, mut visit: impl FnMut(Split<'_>)) -> Stats {
    let budget = std::mem::take(&mut s.driver_mut().budget);
    s.restart();
    let start = s.stats();
    s.driver_mut().cut = depth;
    let mut prefix = Vec::with_capacity(depth);
    let mut solution = Vec::new();
    loop {
        match s.next_solution() {
            Step::Solution if s.driver().at_cut => {
                prefix.clear();
                prefix.extend(s.driver().chosen().iter().map(|&c| s.cursor_option(c)));
                visit(Split::Subtree(&prefix));
            }
            Step::Solution => {
                solution.clear();
                solution.extend(s.solution_vec());
                visit(Split::Solution(&solution));
            }
            Step::Exhausted | Step::Budget => break,
        }
    }
    let d = s.driver_mut();
    d.cut = usize::MAX;
    d.at_cut = false;
    d.budget = budget;
    let stats = s.stats() - start;
    s.restart();
    stats
}
