//! Algorithm M (TAOCP 7.2.2.1; Knuth's DLX3) on the bits engine's states:
//! exact cover with multiplicities, every per-item number a bit-sliced
//! counter.
//!
//! The operations of `search/mult.rs`, which has Algorithm M's steps once
//! for every engine, with the dense engine's slots (`dense/mult.rs`): the
//! same tree and DLX3's counters. DLX3's choice takes the least
//! `θ = len + min(slack, bound) - bound + 1`, then the least
//! `min(slack, bound)`, then the longest list, then the leftmost item. With
//! the *deficit* `d = max(bound - slack, 0)` (how many more times the item
//! must be used), `θ = len - d + 1`, and `bound = d + min(slack, bound)`. A
//! state keeps, per primary item, after the option bits:
//! * `θ - 1 + lift` (`lift` the largest lower bound, so that it is never
//!   negative) in the `B` planes that hold the lens without multiplicities:
//!   hiding an option takes 1 from its primary items' lanes as it takes 1
//!   from their lens, by the same borrow;
//! * a *tie key* in [`TIE_PLANES`] planes: `min(slack, bound)` shifted
//!   above the complement of `d` in `owed_planes` bits. Among items of
//!   equal `θ` and `min(slack, bound)` the longest list is the one of
//!   largest `d` (`len = θ - 1 + d`), so the least key is DLX3's tie-break.
//!   Using one of an item's bound adds 1 to the key (and to `θ`) while `d`
//!   is positive, else takes `2^owed_planes` from it: a whole option's
//!   items at once, lanes apart. The bits of the largest lower bound and of
//!   the largest slack must fit the four planes together
//!   ([`BitsError::LargeBounds`](super::BitsError::LargeBounds) else).
//!
//! Then the choice walks down `θ`'s planes keeping the lanes whose bit is 0
//! (the least), then down the key's likewise, and a trailing-zeros count
//! takes the leftmost: `B + 4` steps, however many items.
//!
//! Per level `l`: slot `2l` is the state on entering, slot `2l + 1` the
//! same after M4 (the item uses one of its bound; covered at none) and the
//! tweaks of the options tried so far at this level (hidden while the item
//! is active); the candidates are the item's options active in slot `2l`,
//! in order, then the null move ([`NULL_MOVE`]) when the item may take no
//! more.
//!
//! Counters are DLX3's, counted as the dense engine counts them: a node at
//! every entry; an update per item covered and per other item of each
//! option it hides; a tweak one (or the option's items when it hides it).
//! Covering an option's items is one pass over the union of their masks
//! (each hidden option counted once, as DLX3 hides it once).
//!
//! Why: on a matrix this small (two-queens 8: 64 options, 16 primary
//! items) the dense engine's work per node is mostly its choice and its
//! copies of lens and bounds; here the choice is a dozen word operations
//! and a state is ten words. The planes' loops run to their const ends (a
//! carry that stops early was 20% slower on two-queens 8: the branch
//! mispredicts).

#![allow(unsafe_code)]

use super::search::{BitsKernel, State};
use super::BitsMatrix;
use crate::dlx::index::{ItemId, OptionId};
use crate::dlx::search::mult::{AlgorithmM, Choice, Levels, MultOps};
use crate::dlx::search::{latest_conflict, split, PreselectError, NULL_MOVE};
use crate::dlx::stats::Stats;
use crate::dlx::unchecked::{at, at_mut, copy_slot, span, span_mut, split_mut};
use crate::dlx::{EngineKind, Subtree};

/// The value of lane `i` in bit-sliced `planes`.
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn lane(planes: &[u64], i: usize) -> u32 {
    (0..planes.len()).fold(0, |v, k| v | ((at(planes, k) >> i) as u32 & 1) << k)
}

/// Takes 1 from every lane of `lanes` (each at least 1).
#[inline(always)]
fn decrement(planes: &mut [u64], mut borrow: u64) {
    for p in planes {
        let v = *p;
        *p = v ^ borrow;
        borrow &= !v;
    }
}

/// Adds 1 to every lane of `lanes` (none overflows: see the callers).
#[inline(always)]
fn increment(planes: &mut [u64], mut carry: u64) {
    for p in planes {
        let v = *p;
        *p = v ^ carry;
        carry &= v;
    }
}

/// Planes of an item's tie key (the module's documentation).
pub(super) const TIE_PLANES: usize = 4;

impl BitsMatrix {
    /// M3: the item to branch on among the open ones of state `s` (not
    /// none), by DLX3's order (the module's documentation): the least `θ`,
    /// then the least tie key, each walked from its top plane.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn choose_bounded<const W: usize, const B: usize>(&self, s: &[u64]) -> usize {
        let mut least = at(s, W + B + TIE_PLANES);
        for k in (W..W + B + TIE_PLANES).rev() {
            // θ's planes are below the tie key's: walk them first.
            let k = if k >= W + TIE_PLANES {
                k - TIE_PLANES
            } else {
                k + B
            };
            let z = least & !at(s, k);
            if z != 0 {
                least = z;
            }
        }
        least.trailing_zeros() as usize
    }

    /// Item `i`'s `θ - 1 + lift`, `min(slack, bound)` and deficit in state
    /// `s`.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn lanes_of<const W: usize, const B: usize>(
        &self,
        s: &[u64],
        i: usize,
    ) -> (u32, u32, u32) {
        let d = self.owed_planes;
        let tie = lane(span(s, W + B, TIE_PLANES), i);
        let full = (1u32 << d) - 1;
        (lane(span(s, W, B), i), tie >> d, full - (tie & full))
    }

    /// Uses one of the bound of every item of `lanes` (open primary
    /// items, bound at least 1) in state `s`; returns those whose bound is
    /// now 0. Where the deficit is positive it falls (the tie key rises by
    /// one) and `θ` rises; else `min(slack, bound)` falls (the key falls by
    /// `2^owed_planes`). No carry or borrow leaves its field: `θ - 1 + lift`
    /// stays at most the len plus `lift`, the deficit at least 0,
    /// `min(slack, bound)` at least 0.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn use_bounds<const W: usize, const B: usize>(&self, s: &mut [u64], lanes: u64) -> u64 {
        let (theta, tie) = split_mut(span_mut(s, W, B + TIE_PLANES), B);
        // Lanes whose deficit is 0 (its complement all ones), and whose
        // `min(slack, bound)` is not.
        let owes = &self.owed_mask;
        let settled = |tie: &[u64]| (0..TIE_PLANES).fold(u64::MAX, |a, k| a & (tie[k] | !owes[k]));
        let spare = |tie: &[u64]| (0..TIE_PLANES).fold(0, |a, k| a | (tie[k] & !owes[k]));
        let owed = lanes & !settled(tie);
        if owed != 0 {
            increment(tie, owed);
            increment(theta, owed);
        }
        if lanes != owed {
            decrement(&mut tie[self.owed_planes..], lanes & !owed);
        }
        lanes & settled(tie) & !spare(tie)
    }

    /// Covers the primary items of `lanes` and, with `option`, that
    /// option's secondary items, in state `s`: one pass hides every active
    /// option of theirs. Returns DLX3's updates (one per item covered, and
    /// each hidden option's other items).
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn cover_bounded<const W: usize, const B: usize>(
        &self,
        s: &mut [u64],
        lanes: u64,
        option: Option<usize>,
    ) -> u64 {
        let mut mask = [0u64; W];
        let mut items = u64::from(lanes.count_ones());
        if let Some(r) = option {
            mask.copy_from_slice(span(&self.sec_conflicts, r * W, W));
            items += u64::from(at(&self.sec_count, r));
        }
        let mut m = lanes;
        while m != 0 {
            let j = m.trailing_zeros() as usize;
            m &= m - 1;
            for (w, word) in mask.iter_mut().enumerate() {
                *word |= at(&self.masks, j * W + w);
            }
        }
        let updates = self.clear::<W, B>(s, &mask);
        *at_mut(s, W + B + TIE_PLANES) &= !lanes;
        updates + items
    }

    /// A tweak that hides option `r` (its item still open): clears its bit
    /// and takes 1 from its primary items' `θ`. Returns its items, DLX3's
    /// updates for the tweak.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn hide_bounded<const W: usize, const B: usize>(&self, s: &mut [u64], r: usize) -> u64 {
        *at_mut(s, r / 64) &= !(1u64 << (r % 64));
        decrement(span_mut(s, W, B), at(&self.opt_bits, r));
        u64::from(at(&self.opt_cost, r)) + 1
    }

    /// M6 for every item of option `r` but those of `skip`: a primary item
    /// uses one of its bound and is covered when none is left; a secondary
    /// item is covered. Returns the updates.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn commit_bounded<const W: usize, const B: usize>(
        &self,
        s: &mut [u64],
        r: usize,
        skip: u64,
    ) -> u64 {
        let spent = self.use_bounds::<W, B>(s, at(&self.opt_bits, r) & !skip);
        self.cover_bounded::<W, B>(s, spent, Some(r))
    }
}

/// Algorithm M's operations on the bits engine's states (`search/mult.rs`
/// has the steps), states of `W` option words and `B` planes of `θ` (and
/// [`TIE_PLANES`] of the tie key).
pub(super) struct BitsOps<const W: usize, const B: usize>;

/// The Algorithm M kernel on the bits engine's states.
pub(super) type BitsMult<const W: usize, const B: usize> = AlgorithmM<BitsOps<W, B>>;

impl<const W: usize, const B: usize> BitsKernel for BitsMult<W, B> {
    const W: usize = W;
    const B: usize = B;
}

impl<const W: usize, const B: usize> BitsOps<W, B> {
    /// Words of a state: option bits, `θ`'s planes, the tie key's, the
    /// open items.
    const SIZE: usize = W + B + TIE_PLANES + 1;
    /// The word of the open items.
    const OPEN: usize = W + B + TIE_PLANES;
}

// The slots read and written below exist: the driver enters at most
// `max_depth` levels, and there are `2 * (max_depth + 2)` slots (`mod.rs`).
impl<const W: usize, const B: usize> MultOps for BitsOps<W, B> {
    type Tables = BitsMatrix;
    type State = State;
    const UNDOES: bool = false;

    #[inline(always)]
    fn null(_i: usize) -> u32 {
        NULL_MOVE
    }

    #[inline(always)]
    fn levels<'a>(s: &'a mut State) -> Levels<'a> {
        s.mult.with(&mut s.item)
    }

    unsafe fn start(_m: &BitsMatrix, _s: &mut State) {}

    /// M3 on slot `2l`.
    #[inline(always)]
    unsafe fn choose(m: &BitsMatrix, s: &mut State, l: usize) -> Option<Choice> {
        let here = span(&s.states, 2 * l * Self::SIZE, Self::SIZE);
        if at(here, Self::OPEN) == 0 {
            return None;
        }
        let i = m.choose_bounded::<W, B>(here);
        let (theta, spare, owed) = m.lanes_of::<W, B>(here, i);
        Some(Choice {
            item: i,
            theta: theta as i32 - m.lift as i32 + 1,
            // `theta` is `θ - 1 + lift` and the len `θ - 1 + owed`.
            len: theta + owed - m.lift,
            bound: spare + owed,
            slack: u32::from(at(&m.slack, i)),
        })
    }

    /// M4 into slot `2l + 1`.
    #[inline(always)]
    unsafe fn use_one(
        m: &BitsMatrix,
        s: &mut State,
        l: usize,
        i: usize,
        _bound: u32,
        stats: &mut Stats,
    ) -> Option<u32> {
        let size = Self::SIZE;
        let first = m.next_option::<W>(span(&s.states, 2 * l * size, W), i, 0);
        let slot = copy_slot(&mut s.states, size, 2 * l, 2 * l + 1);
        let spent = m.use_bounds::<W, B>(slot, 1 << i);
        if spent != 0 {
            stats.updates += m.cover_bounded::<W, B>(slot, spent, None);
        }
        first.map(|r| r as u32)
    }

    /// The tweak in slot `2l + 1`: the option hidden while its item is
    /// open; else only the cursor moves.
    #[inline(always)]
    unsafe fn tweak(m: &BitsMatrix, s: &mut State, l: usize, _i: usize, r: u32, hide: bool) -> u64 {
        if !hide {
            return 1;
        }
        let size = Self::SIZE;
        m.hide_bounded::<W, B>(
            span_mut(&mut s.states, (2 * l + 1) * size, size),
            r as usize,
        )
    }

    /// M6 into slot `2l + 2`.
    #[inline(always)]
    unsafe fn commit(
        m: &BitsMatrix,
        s: &mut State,
        l: usize,
        i: usize,
        r: u32,
        stats: &mut Stats,
    ) -> bool {
        let slot = copy_slot(&mut s.states, Self::SIZE, 2 * l + 1, 2 * l + 2);
        stats.updates += m.commit_bounded::<W, B>(slot, r as usize, 1 << i);
        at(slot, Self::OPEN) == 0
    }

    /// The null move into slot `2l + 2`.
    #[inline(always)]
    unsafe fn end(_m: &BitsMatrix, s: &mut State, l: usize, i: usize, active: bool) -> bool {
        let slot = copy_slot(&mut s.states, Self::SIZE, 2 * l + 1, 2 * l + 2);
        let open = at_mut(slot, Self::OPEN);
        if active {
            // The item ends, its options all tweaked away.
            *open &= !(1u64 << i);
        }
        *open == 0
    }

    /// The next of item `i`'s options active on entering (slot `2l`).
    #[inline(always)]
    unsafe fn next(m: &BitsMatrix, s: &mut State, l: usize, i: usize, r: u32) -> Option<u32> {
        let here = span(&s.states, 2 * l * Self::SIZE, W);
        m.next_option::<W>(here, i, r as usize + 1)
            .map(|q| q as u32)
    }
}

impl BitsMatrix {
    /// Preselects option `r` with multiplicities into the root state `s`:
    /// the option is used (hidden), then committed item by item. An option
    /// no longer active is a conflict (an item whose bound is used up has
    /// none active). Returns the updates.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn preselect_bounded<const W: usize, const B: usize>(
        &self,
        s: &mut [u64],
        r: usize,
    ) -> Result<u64, ()> {
        if s[r / 64] >> (r % 64) & 1 == 0 {
            return Err(());
        }
        Ok(self.hide_bounded::<W, B>(s, r) + self.commit_bounded::<W, B>(s, r, 0))
    }

    /// Takes option `r` out of the root state `s` without counting (a
    /// subtree's excluded option). Whether it was active.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn exclude<const W: usize, const B: usize>(
        &self,
        s: &mut [u64],
        r: usize,
    ) -> bool {
        if s[r / 64] >> (r % 64) & 1 == 0 {
            return false;
        }
        self.hide_bounded::<W, B>(s, r);
        true
    }

    /// Ends primary item `i` in the root state `s` (a subtree's retired
    /// item): its options left are excluded and it takes no more. Refused
    /// for a secondary item or one whose lower bound is not met.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn retire<const W: usize, const B: usize>(
        &self,
        s: &mut [u64],
        i: usize,
    ) -> Result<(), PreselectError> {
        if i >= self.primary {
            return Err(PreselectError::NotRetirable(ItemId::must(i)));
        }
        let (_, spare, owed) = self.lanes_of::<W, B>(s, i);
        if spare + owed > u32::from(self.slack[i]) {
            return Err(PreselectError::NotRetirable(ItemId::must(i)));
        }
        let open = W + B + TIE_PLANES;
        if s[open] >> i & 1 == 0 {
            return Ok(());
        }
        while let Some(r) = self.next_option::<W>(&s[..W], i, 0) {
            self.exclude::<W, B>(s, r);
        }
        s[open] &= !(1u64 << i);
        Ok(())
    }

    /// The options level `l` tweaked before choosing `r` (all of its
    /// item's after a null move): item `i`'s options active on entering
    /// (`here`) before `r`.
    pub(super) fn tweaked(&self, here: &[u64], i: usize, r: u32, into: &mut Vec<OptionId>) {
        let w = self.words;
        for q in 0..(r as usize).min(self.options) {
            if here[q / 64] >> (q % 64) & 1 != 0 && self.masks[i * w + q / 64] >> (q % 64) & 1 != 0
            {
                into.push(OptionId::must(q));
            }
        }
    }
}

impl<'m> super::BitsSolver<'m> {
    /// Starts over below `sub`, a subtree of [`split`](Self::split) (or one
    /// a job line names): a [`reset`](Self::reset); with multiplicities,
    /// `sub.excluded` leave the search, `sub.options` are preselected in
    /// order and `sub.retired` take no more options, as
    /// [`LinksSolver::preselect_subtree`](crate::dlx::LinksSolver::preselect_subtree)
    /// does; without them a subtree that excludes or retires is refused
    /// ([`PreselectError::Unsupported`]). On a refusal nothing is kept.
    pub fn preselect_subtree(&mut self, sub: &Subtree) -> Result<(), PreselectError> {
        split::preselect_root_subtree(self, sub, EngineKind::Bits)
    }

    /// The subtree below the node where the search is paused (at the cut
    /// of [`split`](Self::split)), preselected options not included: with
    /// multiplicities, also each level's tweaked options and the items its
    /// null moves ended.
    pub(crate) fn subtree_path(&self, into: &mut Subtree) {
        split::root_subtree_path(self, into);
    }

    /// [`preselect`](Self::preselect) with multiplicities: the option is
    /// used once and committed item by item; an excluded option, or one no
    /// longer active, is refused.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn preselect_bounded<const W: usize, const B: usize>(
        &mut self,
        option: OptionId,
    ) -> Result<(), PreselectError> {
        let tables = self.matrix.clone();
        let m = &*tables;
        if self.driver.excluded.contains(&option) {
            return Err(PreselectError::Excluded(option));
        }
        let r = option.as_usize();
        let size = m.root.len();
        match m.preselect_bounded::<W, B>(&mut self.state.states[..size], r) {
            Ok(updates) => self.driver.stats.updates += updates,
            Err(()) => {
                let preselected = &self.driver.preselected;
                return Err(latest_conflict(option, m.option(r), preselected, |q| {
                    m.option(q)
                }));
            }
        }
        self.driver.preselected.push(option);
        self.driver.base = self.driver.stats;
        Ok(())
    }

    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn exclude_at<const W: usize, const B: usize>(&mut self, r: usize) -> bool {
        let size = self.matrix.root.len();
        self.matrix
            .exclude::<W, B>(&mut self.state.states[..size], r)
    }

    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn retire_at<const W: usize, const B: usize>(
        &mut self,
        i: usize,
    ) -> Result<(), PreselectError> {
        let size = self.matrix.root.len();
        self.matrix
            .retire::<W, B>(&mut self.state.states[..size], i)
    }
}

impl split::RootSteps for super::BitsSolver<'_> {
    fn bounded(&self) -> bool {
        self.matrix.bounded
    }

    fn options(&self) -> usize {
        self.matrix.options
    }

    fn ignored(&self, r: usize) -> bool {
        self.matrix.opt_bits[r] == 0
    }

    fn exclude_root(&mut self, r: usize) -> bool {
        if r >= self.matrix.options {
            return false;
        }
        // SAFETY: `r` is an option of the matrix (checked just above), the
        // root state is this solver's own and the table names its shape.
        macro_rules! go {
            ($k:ty) => {
                self.exclude_at::<{ <$k as BitsKernel>::W }, { <$k as BitsKernel>::B }>(r)
            };
        }
        unsafe { bits_kernels!(match self.matrix.shape(), go;) }
    }

    fn retire_root(&mut self, i: usize) -> Result<(), PreselectError> {
        // SAFETY: `retire` refuses an `i` past the primary items before it
        // indexes; the root state is this solver's own and the table names
        // its shape.
        macro_rules! go {
            ($k:ty) => {
                self.retire_at::<{ <$k as BitsKernel>::W }, { <$k as BitsKernel>::B }>(i)
            };
        }
        unsafe { bits_kernels!(match self.matrix.shape(), go;) }
    }

    fn level_item(&self, l: usize) -> usize {
        self.state.item[l] as usize
    }

    fn tweaked(&self, l: usize, r: u32, into: &mut Vec<OptionId>) {
        let size = self.matrix.root.len();
        let here = &self.state.states[2 * l * size..(2 * l + 1) * size];
        self.matrix.tweaked(here, self.level_item(l), r, into);
    }
}

#[cfg(test)]
mod tests {
    //! Algorithm M on small matrices against the links engine (same
    //! solutions in order, nodes, updates), with slack and secondary items,
    //! preselection and a budget that pauses the search; quick enough for
    //! Miri, which checks the unchecked reads.
    use super::super::{BitsError, BitsSolver};
    use super::*;
    use crate::dlx::search::engine_tests::{agree_with_links, budget_pauses_and_resumes};
    use crate::dlx::search::Budget;
    use crate::dlx::{knuth, Matrix};
    use crate::problems;

    fn read(text: &str) -> Matrix {
        knuth::read(text.as_bytes()).unwrap()
    }

    #[test]
    fn same_tree_as_links() {
        let mixed = "2:3|A B 0:1|C | x\nA B\nA x\nA C\nB x\nC\nA\nB C x\n";
        for m in [problems::two_queens(4).unwrap(), read(mixed)] {
            let b = BitsMatrix::new(&m).unwrap();
            assert!(agree_with_links(&m, &mut BitsSolver::new(&b)) > 0);
        }
        // Slack of three bits and a lower bound of one: the tie key full.
        let m = read("0:7|A 1|B 1:2|C\nA B\nA\nA C\nB C\nC\nA\n");
        let b = BitsMatrix::new(&m).unwrap();
        assert_eq!((b.owed_planes, b.owed_mask[0], b.owed_mask[1]), (1, !0, 0));
        assert!(agree_with_links(&m, &mut BitsSolver::new(&b)) > 0);
    }

    #[test]
    fn the_choice_is_dlx3s() {
        // SAFETY (the calls below): the root state is the tables' own, of
        // their shape <1, 4>.
        // B and A: θ = 2 (lens 2; B may be used twice, once owed); B has
        // slack, A none: A. C: θ = 3.
        let m = read("1:2|B A C\nB A\nB\nA\nC\nC\nC\n");
        let b = BitsMatrix::new(&m).unwrap();
        assert_eq!((b.words, b.planes), (1, 4));
        assert_eq!(
            unsafe { b.lanes_of::<1, 4>(&b.root, 0) },
            (2 - 1 + b.lift, 1, 1),
            "B: θ - 1 + lift, min(slack, bound), deficit"
        );
        assert_eq!(unsafe { b.choose_bounded::<1, 4>(&b.root) }, 1);
        // E and D: θ = 2, no slack; D's list is the longer (3, owing 2).
        let m = read("E 2|D\nE D\nE\nD\nD\n");
        let b = BitsMatrix::new(&m).unwrap();
        assert_eq!(
            unsafe { b.lanes_of::<1, 4>(&b.root, 1) },
            (2 - 1 + b.lift, 0, 2)
        );
        assert_eq!(unsafe { b.choose_bounded::<1, 4>(&b.root) }, 1);
    }

    #[test]
    fn too_large_bounds_are_refused() {
        // 3 bits of slack and 2 of lower bound.
        let m = read("2:9|A B\nA\nB\n");
        assert_eq!(BitsMatrix::new(&m).unwrap_err(), BitsError::LargeBounds);
        assert!(BitsMatrix::new(&read("15|A B\nA\nB\n")).is_ok());
        // A's counter holds its 254 options plus the lift of 2: nine bits.
        let long = format!("2|A 2|B\nA B\n{}", "A\n".repeat(253));
        assert_eq!(
            BitsMatrix::new(&read(&long)).unwrap_err(),
            BitsError::LongItem(254)
        );
        let long = format!("2|A 2|B\nA B\n{}", "A\n".repeat(252));
        assert!(BitsMatrix::new(&read(&long)).is_ok());
    }

    #[test]
    fn preselect_and_a_budget_that_pauses() {
        let m = problems::two_queens(4).unwrap();
        let b = BitsMatrix::new(&m).unwrap();
        let (mut whole, mut s) = (BitsSolver::new(&b), BitsSolver::new(&b));
        budget_pauses_and_resumes(&mut whole, &mut s, 7);
        // A preselected option: the links engine's search below it.
        let mut links = crate::dlx::LinksSolver::new(&m);
        s.reset();
        s.set_budget(Budget::default());
        for o in [OptionId::must(1), OptionId::must(2)] {
            s.preselect(o).unwrap();
            links.preselect(o).unwrap();
        }
        assert_eq!(s.count(), links.count());
        assert_eq!(s.stats(), links.stats());
        assert!(matches!(
            s.preselect(OptionId::must(0)),
            Err(PreselectError::Conflict { .. })
        ));
    }
}
