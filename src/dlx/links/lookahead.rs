//! Lookahead at branch points ([`Branching::Lookahead`]): failed-option
//! pruning, and branching on the item whose options together force the most.
//!
//! Plain DLX propagates only what *len* shows: an item with one option left
//! is taken at once (a forced node), an item with none ends the branch. On
//! some instances a wrong early choice is refuted only a hundred levels
//! further down, and the tree explodes: DLX searched 400 million nodes on a
//! minimal 25×25 Sudoku without finding its solution. Lookahead, in the
//! manner of lookahead SAT solvers, pays a lot per node to need few nodes.
//! At a *branch point* (every active primary item has len 2 or more):
//!
//! 1. every active option is *probed*, once: committed, then every forced
//!    consequence committed too (items left with one option), until nothing
//!    is forced or some primary item has no option left; then all is undone;
//! 2. an option whose probe emptied a primary item is in no solution of this
//!    subtree, so it is *removed* (all its nodes leave their lists) and
//!    recorded on a trail. When a removal leaves an item one option, every
//!    option clashing with that one is removed too (unit propagation by
//!    removals, repeated); the pass goes on in the smaller problem, and ends
//!    at once if some item has no option left;
//! 3. after the pass, an item with one option left is taken by the search as
//!    an ordinary forced node (the next branch point probes again); otherwise
//!    the search branches on the item whose branches promise the least work
//!    in all: each of its options counts `1 / (1 + updates)`, the updates
//!    its probe made (a branch whose probe forced much starts from a small
//!    problem), and the item of least sum is taken, leftmost on ties. Every
//!    active primary item competes, whatever its len: an item of three
//!    options that each force much can beat one of two that force little.
//!
//! The choice was the item of smallest len of the most updates (the largest
//! product of `1 + updates`) before 2026-11-24. The sum above, with no len
//! rule, makes fewer guesses on each of the 15 of Frisch's minimal 25×25
//! puzzles proven within 80 s (up to 44% fewer), and takes 8–41% less time
//! on 10 of them, within 7% on the other five; pentominoes 3×20 takes
//! 0.21 s instead of 0.78 (BENCHMARKS.md, "Lookahead: the least work in
//! all").
//!
//! One pass per branch point, not passes to a fixpoint: on the minimal 25×25
//! puzzles repeating passes found a little more and cost 1.7× the time.
//!
//! Invariants: removals made while entering level `l` sit on the trail above
//! `marks[l]` and are undone, last first, right after the level's branching
//! item is uncovered, so they nest with everything else the dancing does
//! (LIFO). A probe leaves the links as it found them. Only options that lead
//! to no solution are removed and branching stays complete, so the solutions
//! are exactly those of plain DLX (in another order); `nodes` and `updates`
//! differ. The probes use the uncolored dancing: for a matrix with colors
//! the rule falls back to [`Branching::FirstForced`].
//!
//! The masks engine looks ahead by the same rule (`masks/lookahead.rs`), in
//! about half the time where it applies (no item in more than 64 options):
//! the library picks it there.
//!
//! [`Branching::Lookahead`]: super::Branching::Lookahead
//! [`Branching::FirstForced`]: super::Branching::FirstForced

#![allow(unsafe_code)]

use super::dance::{
    choose_forced, commit_others, cover, remove_option, restore_option, uncommit_others, uncover,
    COVERED,
};
use super::LinksState;
use crate::dlx::stats::Stats;

/// Probes between two looks at the deadline and the cancel handle.
const PROBES_BETWEEN_LOOKS: u64 = 16;

impl LinksState<'_> {
    /// Runs the lookahead at a branch point of the current level and returns
    /// the item to branch on (possibly one that removals left forced or
    /// dead). Removals go on the trail above `marks[level]`, set by the caller.
    /// Probes made after a removal may start with items already forced; they
    /// are then weaker (those items are not committed first), never wrong.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn look_ahead<const UL: usize>(&mut self, stats: &mut Stats) -> usize {
        let n_primary = self.matrix.primary_count();
        for k in 0..self.matrix.option_node.len() {
            let start = self.matrix.option_node[k];
            if start == u32::MAX || !self.is_active(start as usize) {
                continue;
            }
            // One node's probes may take seconds on a large matrix: past
            // the deadline, or cancelled, the rest are skipped (a lookahead
            // cut short prunes less, never wrongly), and the driver stops
            // the search at its next look.
            if stats.probes.is_multiple_of(PROBES_BETWEEN_LOOKS)
                && self.stop.as_ref().is_some_and(|l| l.stop_now().is_some())
            {
                break;
            }
            stats.probes += 1;
            let (failed, updates) = self.probe::<UL>(start as usize, stats);
            self.score[k] = updates;
            if !failed {
                continue;
            }
            self.watch.clear();
            self.remove(start as usize, stats);
            // Unit propagation by removals: an item left with one option
            // keeps it alone in every list; a dead item ends the pass.
            loop {
                let x = self.watch.pop_forced(&self.nodes, n_primary);
                if x == 0 {
                    break;
                }
                if self.nodes[x].itm == 0 {
                    self.watch.clear();
                    return x;
                }
                self.keep_only(self.nodes[x].down as usize, stats);
            }
            self.watch.clear();
        }
        let best = choose_forced(&self.nodes, self.matrix.primary_count());
        if self.nodes[best].itm <= 1 {
            return best;
        }
        self.least_work()
    }

    /// Removes the option of node `p` from every list, on the trail.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn remove(&mut self, p: usize, stats: &mut Stats) {
        stats.updates += remove_option(&mut self.nodes, &mut self.watch, p);
        self.removed.push(p as u32);
        stats.pruned += 1;
    }

    /// Removes every option that shares an item with node `p`'s option, which
    /// its items must then take (one of them had no other option left).
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn keep_only(&mut self, p: usize, stats: &mut Stats) {
        let first = self.matrix.first_spacer();
        let mut x = p;
        while self.nodes[x - 1].itm > 0 {
            x -= 1;
        }
        while self.nodes[x].itm > 0 {
            let mut r = self.nodes[self.nodes[x].itm as usize].down as usize;
            while r > first {
                let next = self.nodes[r].down as usize;
                if r != x {
                    self.remove(r, stats);
                }
                r = next;
            }
            x += 1;
        }
    }

    /// The active primary item of least `Σ 1 / (1 + updates)` over its
    /// options (their probes' updates, fresh from this pass); leftmost on
    /// ties.
    fn least_work(&self) -> usize {
        let first = self.matrix.first_spacer();
        let (nodes, items) = (&self.nodes, &self.items);
        let (mut best, mut best_work) = (0, f64::INFINITY);
        let mut k = items[0].next as usize;
        while k != 0 {
            let mut work = 0.0;
            let mut r = nodes[k].down as usize;
            while r > first && work < best_work {
                let option = self.matrix.option_of_node(r).as_usize();
                work += 1.0 / (1.0 + f64::from(self.score[option]));
                r = nodes[r].down as usize;
            }
            if work < best_work {
                best_work = work;
                best = k;
            }
            k = items[k].next as usize;
        }
        best
    }

    /// Whether the option starting at node `start` is in the current
    /// subproblem: its first node is linked and its item is not covered (its
    /// len does not carry [`COVERED`]).
    fn is_active(&self, start: usize) -> bool {
        let nodes = &self.nodes;
        let node = nodes[start];
        nodes[node.up as usize].down as usize == start && nodes[node.itm as usize].itm < COVERED
    }

    /// Tries the option of node `p`: commits it and every forced consequence.
    /// Returns whether some primary item ran out of options, and the updates
    /// made (saturated to `u32`). The links are restored before returning.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn probe<const UL: usize>(&mut self, p: usize, stats: &mut Stats) -> (bool, u32) {
        let first = self.matrix.first_spacer();
        let n_primary = self.matrix.primary_count();
        let (nodes, items, colors, w) = (
            &mut self.nodes,
            &mut self.items,
            &mut self.colors,
            &mut self.watch,
        );
        let stack = &mut self.probe_stack;
        // At a branch point no primary item has len 1 or less, so the watch
        // sees every item that becomes forced from here on.
        w.clear();
        stack.clear();
        let mut updates = 0;
        let mut q = p;
        let failed = loop {
            let c = nodes[q].itm as usize;
            updates += cover::<false, true, UL>(nodes, items, colors, w, c, first);
            updates += commit_others::<false, true, UL>(nodes, items, colors, w, q, first);
            stack.push(q as u32);
            if items[0].next == 0 {
                break false;
            }
            let x = w.pop_forced(nodes, n_primary);
            if x == 0 {
                break false;
            }
            if nodes[x].itm == 0 {
                break true;
            }
            q = nodes[x].down as usize;
        };
        while let Some(q) = stack.pop() {
            let q = q as usize;
            uncommit_others::<false, UL>(nodes, items, colors, q, first);
            let c = nodes[q].itm as usize;
            uncover::<false, UL>(nodes, items, colors, c, first);
        }
        stats.updates += updates;
        (failed, u32::try_from(updates).unwrap_or(u32::MAX))
    }

    /// Puts back the options removed above `mark`, last removed first.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn restore_removed(&mut self, mark: usize) {
        while self.removed.len() > mark {
            if let Some(p) = self.removed.pop() {
                restore_option(&mut self.nodes, p as usize);
            }
        }
    }
}
