//! Cutting one search into subtrees ([`LinksSolver::split`](crate::dlx::LinksSolver::split)), so that they can be
//! searched apart — on several threads, by any engine.
//!
//! The split runs the search down to a depth and no further. The depth
//! counts *branch points*, levels whose item had two options or more:
//! forced levels do not count, so a chain of forced choices is passed
//! through in one split, and each level of depth at least doubles the
//! subtrees that do not die. Below `depth` branch points, the search goes
//! on through forced levels and dead ends, and pauses on reaching the next
//! branch point, before entering it: that node is handed out as a
//! *subtree*, named by its prefix (every option the search chose on the way
//! down, forced ones included), and each solution met above it as a
//! solution. Every solution of the problem is either one of those or lies in
//! exactly one subtree, so searching each subtree (after preselecting its
//! prefix) and adding up gives the whole search; taking the pieces in the
//! order given gives the one-thread order of solutions.
//!
//! A subtree's search is then the very subtree a one-thread search
//! explores. The preselected prefix leaves the same items with the same
//! options in the same order; and at a branch point no item is forced, so
//! first-forced's memory of items just forced has nothing to add there,
//! and its search, like Knuth's, chooses as one search would. Then the
//! split's counters plus each subtree's — counted after preselecting — are
//! exactly those of one search, with [`Branching::Knuth`](super::Branching::Knuth)
//! on the links, dense and bits engines and with `FirstForced` on links,
//! dense and masks (tests check both). Lookahead's pieces still partition
//! the solutions, but its removals at the levels above are not carried
//! down, so its subtrees' searches differ.

use super::super::index::OptionId;
use super::super::stats::Stats;
use super::{Step, Steps};

/// What [`Solver::split`](crate::dlx::Solver::split) meets, in the order of a one-thread search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split<'a> {
    /// A branch point below the cut, not entered: the options the search
    /// chose above it (preselected options not included), one per branch
    /// point and one per forced level.
    Subtree(&'a [OptionId]),
    /// A solution above the cut, as [`LinksSolver::solution`](crate::dlx::LinksSolver::solution)
    /// gives it (preselected options first).
    Solution(&'a [OptionId]),
}

/// [`LinksSolver::split`](crate::dlx::LinksSolver::split), for any engine: the driver's cut does the work.
pub(crate) fn split(s: &mut impl Steps, depth: usize, mut visit: impl FnMut(Split<'_>)) -> Stats {
    if s.driver().uncuttable {
        // The whole search, below the preselected options, is one subtree.
        s.restart();
        visit(Split::Subtree(&[]));
        return Stats::default();
    }
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
                prefix.extend(
                    s.driver()
                        .chosen()
                        .iter()
                        .filter_map(|&c| s.cursor_option(c)),
                );
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
