//! Algorithm X with every len kept as *bit-sliced counters*: the *bits*
//! engine, for small uncolored matrices (at most 64 primary items and 512
//! options, no item in more than 255).
//!
//! The same algorithm as [`LinksSolver`](crate::dlx::LinksSolver), the same tree and
//! the same counters, with a third representation of the live matrix. Like
//! the dense engine ([`crate::dlx::DenseSolver`]) it keeps, per search level,
//! a *state* that is copied instead of undone, with one bit per option (still
//! active or not). Unlike it, the lens are not one integer per item but `B`
//! words, *planes*: bit `i` of plane `k` is bit `k` of primary item `i`'s
//! len; one more word holds the primary items still uncovered. Then:
//! * hiding an option subtracts 1 from the lens of all its primary items at
//!   once: a borrow rippling up the planes, `2·B` word operations, no loads
//!   or stores of lens;
//! * Knuth's choice (the least len, leftmost on ties) walks down the planes
//!   from the highest, keeping the candidates whose bit is 0 when there are
//!   any: `B` steps and a trailing-zeros count, however many items;
//! * committing an option clears, in one pass, every active option that
//!   shares an item with it: a mask per option, the union of its items'
//!   option masks, made once ([`BitsMatrix::new`]), instead of one cover
//!   per item;
//! * a state is `W + B + 1` words (queens 13: 3 + 4 + 1; Langford pairs 12:
//!   4 + 5 + 1), small enough to copy per node like a struct.
//!
//! `W` (words of option bits, 1 to 8) and `B` (planes, 3 to 8) are
//! compile-time constants, the matrix's own sizes (`by_shape!` picks the
//! copy of the search loop), so every loop over a state is unrolled. Both
//! matter: Langford pairs 12 took 10% more time with 6 planes than with the
//! 5 it needs, queens 13 4% more with 4 words than with 3.
//!
//! Invariants:
//! * state slot `2l` holds the state on entering level `l`, slot `2l + 1`
//!   the same after covering the level's branching item (skipped when that
//!   item has one option: committing the option covers it); levels below
//!   `level` are committed, as in the other engines;
//! * in a state, for every uncovered primary item `i` (bit `i` of the last
//!   word), the planes hold the number of active options containing `i`;
//!   the planes of covered items are never read (they may hold anything);
//! * no active option contains a covered item, primary or secondary; a len
//!   never goes below 0 (only an active option's items are decremented), so
//!   no borrow leaves the top plane.
//!
//! Counters are DLX1's, counted as the dense engine counts them: a hidden
//! option is as many updates as its items less one, a covered item one
//! more, a node every level entered and every solution. With any
//! [`Branching`] the tree is Knuth's: here the leftmost least len costs no
//! more than the first forced item, and a len of 0 or 1 is always least.

use super::engine::Shared;
use super::index::OptionId;
use super::search::driver::{Driver, Enter, Kernel};
use super::search::{conflict, engine_queries, Branching, PreselectError, Step};
use super::stats::Stats;
use super::unchecked::at;
use super::Matrix;
use super::{EngineError, EngineKind};
use std::fmt;

/// Calls a method generic over the state's shape `<W, B>` with the shape
/// of `matrix` (see [`WORD_SIZES`] and [`PLANE_SIZES`]).
macro_rules! by_shape {
    ($matrix:expr, $self:ident . $f:ident ( $($arg:expr),* )) => {
        match $matrix.words {
            1 => by_shape!(@planes 1, $matrix, $self.$f($($arg),*)),
            2 => by_shape!(@planes 2, $matrix, $self.$f($($arg),*)),
            3 => by_shape!(@planes 3, $matrix, $self.$f($($arg),*)),
            4 => by_shape!(@planes 4, $matrix, $self.$f($($arg),*)),
            5 => by_shape!(@planes 5, $matrix, $self.$f($($arg),*)),
            6 => by_shape!(@planes 6, $matrix, $self.$f($($arg),*)),
            7 => by_shape!(@planes 7, $matrix, $self.$f($($arg),*)),
            _ => by_shape!(@planes 8, $matrix, $self.$f($($arg),*)),
        }
    };
    (@planes $w:literal, $matrix:expr, $self:ident . $f:ident ( $($arg:expr),* )) => {
        match $matrix.planes {
            3 => $self.$f::<$w, 3>($($arg),*),
            4 => $self.$f::<$w, 4>($($arg),*),
            5 => $self.$f::<$w, 5>($($arg),*),
            6 => $self.$f::<$w, 6>($($arg),*),
            7 => $self.$f::<$w, 7>($($arg),*),
            _ => $self.$f::<$w, 8>($($arg),*),
        }
    };
}

/// Primary items the engine takes on: one word of planes.
pub const MAX_BITS_PRIMARY: usize = 64;
/// Options it takes on: words of active bits in a state.
pub const MAX_BITS_OPTIONS: usize = 64 * WORD_SIZES[WORD_SIZES.len() - 1];
/// The widths of option bits a state comes in (words); a matrix takes the
/// smallest that holds its options.
const WORD_SIZES: [usize; 8] = [1, 2, 3, 4, 5, 6, 7, 8];
/// The numbers of planes a state comes in; a matrix takes the smallest that
/// holds its longest item's len.
const PLANE_SIZES: [usize; 6] = [3, 4, 5, 6, 7, 8];

/// Why a matrix is not for the bits engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BitsError {
    /// The matrix has colors.
    Colors,
    /// It has this many primary items, over [`MAX_BITS_PRIMARY`].
    TooManyPrimary(usize),
    /// It has this many options, over [`MAX_BITS_OPTIONS`].
    TooManyOptions(usize),
    /// An item is in this many options, more than eight planes count.
    LongItem(usize),
}

impl fmt::Display for BitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BitsError::Colors => write!(f, "the matrix has colors"),
            BitsError::TooManyPrimary(n) => write!(
                f,
                "it has {n} primary items (the bits engine takes up to {MAX_BITS_PRIMARY})"
            ),
            BitsError::TooManyOptions(n) => write!(
                f,
                "it has {n} options (the bits engine takes up to {MAX_BITS_OPTIONS})"
            ),
            BitsError::LongItem(n) => write!(f, "an item is in {n} options (at most 255)"),
        }
    }
}

impl std::error::Error for BitsError {}

/// The fixed tables of the bits engine for one [`Matrix`]. Immutable; share
/// it between any number of [`BitsSolver`]s.
#[derive(Clone, Debug)]
pub struct BitsMatrix {
    primary: usize,
    options: usize,
    /// Words of option bits in a state (one of [`WORD_SIZES`]) and planes
    /// (one of [`PLANE_SIZES`]).
    words: usize,
    planes: usize,
    /// Option `r`'s items are `opt_items[opt_start[r]..opt_start[r + 1]]`.
    opt_start: Vec<u32>,
    opt_items: Vec<u32>,
    /// Option `r`'s primary items as bits, and its updates when hidden (its
    /// items less one).
    opt_bits: Vec<u64>,
    opt_cost: Vec<u32>,
    /// Item `i`'s options: `words` words from `masks[i * words]`.
    masks: Vec<u64>,
    /// The options that share an item with option `r` (itself included):
    /// `words` words from `conflicts[r * words]`, the union of its items'
    /// masks. Committing `r` clears them all in one pass.
    conflicts: Vec<u64>,
    /// The state before anything is chosen: option bits, planes, the
    /// uncovered primary items.
    root: Vec<u64>,
    /// Deepest level a search can reach.
    max_depth: usize,
}

impl BitsMatrix {
    /// The tables of `matrix`, or why it is not for this engine.
    pub fn new(matrix: &Matrix) -> Result<BitsMatrix, BitsError> {
        if matrix.has_colors() {
            return Err(BitsError::Colors);
        }
        let primary = matrix.primary_count();
        if primary > MAX_BITS_PRIMARY {
            return Err(BitsError::TooManyPrimary(primary));
        }
        let options = matrix.option_count();
        let Some(&words) = WORD_SIZES.iter().find(|&&w| 64 * w >= options) else {
            return Err(BitsError::TooManyOptions(options));
        };
        let items = matrix.item_count();
        let mut opt_start = Vec::with_capacity(options + 1);
        let mut opt_items = Vec::new();
        let mut opt_bits = Vec::with_capacity(options);
        let mut opt_cost = Vec::with_capacity(options);
        let mut masks = vec![0u64; items * words];
        let mut count = vec![0usize; primary];
        let mut active = vec![0u64; words];
        let mut min_primary = usize::MAX;
        opt_start.push(0);
        for r in 0..options {
            let o = OptionId::must(r);
            let mut bits = 0u64;
            for (i, _) in matrix.option_items(o) {
                opt_items.push(i.as_usize() as u32);
                if matrix.is_primary(i) {
                    bits |= 1 << i.as_usize();
                }
            }
            opt_start.push(opt_items.len() as u32);
            opt_bits.push(bits);
            opt_cost.push((matrix.option_items(o).len() as u32).saturating_sub(1));
            // An option without primary items is never chosen (DLX1).
            if bits != 0 {
                active[r / 64] |= 1 << (r % 64);
                min_primary = min_primary.min(bits.count_ones() as usize);
                for (i, _) in matrix.option_items(o) {
                    masks[i.as_usize() * words + r / 64] |= 1 << (r % 64);
                    if let Some(c) = count.get_mut(i.as_usize()) {
                        *c += 1;
                    }
                }
            }
        }
        let mut conflicts = vec![0u64; options * words];
        for r in 0..options {
            for &i in &opt_items[opt_start[r] as usize..opt_start[r + 1] as usize] {
                let i = i as usize;
                for w in 0..words {
                    conflicts[r * words + w] |= masks[i * words + w];
                }
            }
        }
        let most = count.iter().copied().max().unwrap_or(0);
        let need = (usize::BITS - most.leading_zeros()) as usize;
        let Some(&planes) = PLANE_SIZES.iter().find(|&&b| b >= need) else {
            return Err(BitsError::LongItem(most));
        };
        let mut root = active;
        let mut lens = vec![0u64; planes];
        for (i, &c) in count.iter().enumerate() {
            for (k, plane) in lens.iter_mut().enumerate() {
                *plane |= ((c >> k) as u64 & 1) << i;
            }
        }
        root.extend(lens);
        root.push(if primary == 64 {
            u64::MAX
        } else {
            (1u64 << primary) - 1
        });
        let max_depth = if min_primary == usize::MAX {
            0
        } else {
            primary / min_primary
        };
        Ok(BitsMatrix {
            primary,
            options,
            words,
            planes,
            opt_start,
            opt_items,
            opt_bits,
            opt_cost,
            masks,
            conflicts,
            root,
            max_depth,
        })
    }

    /// The number of options (as in the [`Matrix`] it was made from).
    pub fn option_count(&self) -> usize {
        self.options
    }

    /// Words of one search state.
    pub fn state_words(&self) -> usize {
        self.root.len()
    }

    fn option(&self, r: usize) -> &[u32] {
        &self.opt_items[self.opt_start[r] as usize..self.opt_start[r + 1] as usize]
    }

    /// The first option at or after `from` that contains item `i` and is
    /// active in `active` (`W` words).
    #[inline(always)]
    fn next_option<const W: usize>(&self, active: &[u64], i: usize, from: usize) -> Option<usize> {
        let mask = &self.masks[i * W..i * W + W];
        let mut w = from / 64;
        let mut allowed = u64::MAX << (from % 64);
        while w < W {
            let m = at(mask, w) & at(active, w) & allowed;
            if m != 0 {
                return Some(w * 64 + m.trailing_zeros() as usize);
            }
            allowed = u64::MAX;
            w += 1;
        }
        None
    }

    /// Covers item `i` in state `s` (`W` option words, `B` planes, the
    /// uncovered items): clears its active options, subtracting 1 from the
    /// lens of their primary items; returns DLX1's updates.
    #[inline(always)]
    fn cover<const W: usize, const B: usize>(&self, s: &mut [u64], i: usize) -> u64 {
        let updates = self.clear::<W, B>(s, &self.masks[i * W..i * W + W]);
        // Secondary items (numbered from `primary`) have no bit.
        s[W + B] &= !1u64.checked_shl(i as u32).unwrap_or(0);
        updates + 1
    }

    /// Covers every item of option `r` in state `s` but those already
    /// covered: clears the active options that conflict with `r`, and marks
    /// `r`'s primary items covered. Returns the updates of the hidden
    /// options only (DLX1 counts one more per item covered).
    #[inline(always)]
    fn cover_option<const W: usize, const B: usize>(&self, s: &mut [u64], r: usize) -> u64 {
        let updates = self.clear::<W, B>(s, &self.conflicts[r * W..r * W + W]);
        s[W + B] &= !at(&self.opt_bits, r);
        updates
    }

    /// Clears the active options of `mask` in state `s`, subtracting 1 from
    /// the lens of their primary items; returns their updates.
    #[inline(always)]
    fn clear<const W: usize, const B: usize>(&self, s: &mut [u64], mask: &[u64]) -> u64 {
        let mut updates = 0;
        let (active, rest) = s.split_at_mut(W);
        let planes = &mut rest[..B];
        for (w, word) in active.iter_mut().enumerate() {
            let mut m = at(mask, w) & *word;
            *word &= !m;
            while m != 0 {
                let r = w * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                // Subtract 1 from every len of `borrow`, lowest plane first.
                let mut borrow = at(&self.opt_bits, r);
                for plane in planes.iter_mut() {
                    let p = *plane;
                    *plane = p ^ borrow;
                    borrow &= !p;
                }
                updates += u64::from(at(&self.opt_cost, r));
            }
        }
        updates
    }
}

/// The branching item of a state's `planes` among the `uncovered` items
/// (not 0): the least len, leftmost on ties, and that len.
#[inline(always)]
fn choose<const B: usize>(planes: &[u64], uncovered: u64) -> (usize, u32) {
    let mut least = uncovered;
    for k in (0..B).rev() {
        let zero = least & !planes[k];
        if zero != 0 {
            least = zero;
        }
    }
    let i = least.trailing_zeros();
    let len = (0..B).fold(0, |len, k| len | ((planes[k] >> i) as u32 & 1) << k);
    (i as usize, len)
}

/// In `State::item`: the level's item had one option and was not covered
/// on its own.
const FORCED_FLAG: u32 = 1 << 31;

/// One search over a [`BitsMatrix`]: the search driver beside the states.
/// Allocated once by [`BitsSolver::new`]; solving, counting, preselecting
/// and resetting allocate nothing. The queries mirror
/// [`LinksSolver`](crate::dlx::LinksSolver)'s.
#[derive(Clone, Debug)]
pub struct BitsSolver<'m> {
    matrix: Shared<'m, BitsMatrix>,
    driver: Driver,
    state: State,
}

/// The kernel's scratch state.
#[derive(Clone, Debug)]
struct State {
    /// Every state slot, `slot` words each (see the module's invariants).
    states: Vec<u64>,
    /// Per level: the branching item (with [`FORCED_FLAG`]).
    item: Vec<u32>,
}

/// The bits kernel for states of `W` option words and `B` planes.
struct Bits<const W: usize, const B: usize>;

impl<const W: usize, const B: usize> Kernel for Bits<W, B> {
    type Tables = BitsMatrix;
    type State = State;
    const UNDOES: bool = false;

    fn start(_m: &BitsMatrix, _s: &mut State) {}

    #[inline(always)]
    fn enter(m: &BitsMatrix, s: &mut State, l: usize, stats: &mut Stats) -> Enter {
        let size = W + B + 1;
        let at = 2 * l;
        let here = &s.states[at * size..(at + 1) * size];
        let uncovered = here[W + B];
        if uncovered == 0 {
            // Only at the root: nothing to cover, the empty choice solves it.
            return Enter::Solved;
        }
        let (i, least) = choose::<B>(&here[W..W + B], uncovered);
        s.item[l] = i as u32;
        if least == 0 {
            // A dead end: DLX covers the item (one update) and finds nothing.
            stats.updates += 1;
            return Enter::DEAD;
        }
        let first = m.next_option::<W>(&here[..W], i, 0).map(|r| r as u32);
        if least == 1 {
            // Forced: `commit` covers the item too, from slot `2l` itself.
            s.item[l] = FORCED_FLAG | i as u32;
            return Enter::forced(first);
        }
        s.states
            .copy_within(at * size..(at + 1) * size, (at + 1) * size);
        let slot = &mut s.states[(at + 1) * size..(at + 2) * size];
        stats.updates += m.cover::<W, B>(slot, i);
        Enter::branch(first)
    }

    /// Commits option `r` at `l`: state slot `2l + 1` (`2l` when forced)
    /// plus `r`'s other items into slot `2l + 2`.
    #[inline(always)]
    fn commit(m: &BitsMatrix, s: &mut State, l: usize, r: u32, stats: &mut Stats) -> bool {
        let (size, r) = (W + B + 1, r as usize);
        // Covering r's items (all of them when forced, else all but the
        // branching item) is one update each.
        let forced = s.item[l] & FORCED_FLAG != 0;
        let from = 2 * l + usize::from(!forced);
        let to = 2 * l + 2;
        s.states
            .copy_within(from * size..(from + 1) * size, to * size);
        let slot = &mut s.states[to * size..(to + 1) * size];
        stats.updates +=
            m.cover_option::<W, B>(slot, r) + u64::from(at(&m.opt_cost, r)) + u64::from(forced);
        slot[W + B] == 0
    }

    #[inline(always)]
    fn retract(m: &BitsMatrix, s: &mut State, l: usize, r: u32) -> Option<u32> {
        let at = 2 * l * (W + B + 1);
        let i = (s.item[l] & !FORCED_FLAG) as usize;
        m.next_option::<W>(&s.states[at..at + W], i, r as usize + 1)
            .map(|r| r as u32)
    }

    fn leave(_m: &BitsMatrix, _s: &mut State, _l: usize) {}
}

impl<'m> BitsSolver<'m> {
    /// A solver over `matrix`, ready to search.
    pub fn new(matrix: &'m BitsMatrix) -> Self {
        Self::with_tables(Shared::Borrowed(matrix))
    }

    /// A solver over tables it may own.
    pub(crate) fn with_tables(matrix: Shared<'m, BitsMatrix>) -> Self {
        let slot = matrix.root.len();
        let mut s = BitsSolver {
            driver: Driver::new(matrix.max_depth, matrix.primary),
            state: State {
                states: vec![0; 2 * (matrix.max_depth + 2) * slot],
                item: vec![0; matrix.max_depth + 1],
            },
            matrix,
        };
        s.reset();
        s
    }

    /// The branching rule: Knuth's is this engine's only (its choice is the
    /// leftmost least len); any other is refused.
    pub fn set_branching(&mut self, branching: Branching) -> Result<(), EngineError> {
        EngineKind::Bits.check_rule(branching)
    }

    /// Undoes everything, preselected options included; zeroes the counters.
    pub fn reset(&mut self) {
        let slot = self.matrix.root.len();
        self.state.states[..slot].copy_from_slice(&self.matrix.root);
        self.driver.reset();
    }

    /// Abandons the search in progress (keeping preselected options).
    pub fn restart(&mut self) {
        // Nothing to undo: the root state is slot 0.
        self.driver
            .restart::<Bits<1, 3>>(&self.matrix, &mut self.state);
    }

    /// Commits to `option` before the search (see
    /// [`LinksSolver::preselect`](crate::dlx::LinksSolver::preselect)). Abandons any
    /// search in progress; undone by [`reset`](Self::reset).
    pub fn preselect(&mut self, option: OptionId) -> Result<(), PreselectError> {
        let tables = self.matrix.clone();
        let m = &*tables;
        let r = option.as_usize();
        if r >= m.options {
            return Err(PreselectError::UnknownOption(option));
        }
        if m.opt_bits[r] == 0 {
            return Err(PreselectError::IgnoredOption(option));
        }
        self.restart();
        if self.state.states[r / 64] >> (r % 64) & 1 == 0 {
            let held = self.driver.preselected.iter().map(|&q| {
                let q = q.as_usize();
                (q as u32, m.option(q))
            });
            return Err(conflict(option, m.option(r), held));
        }
        self.driver.stats.updates +=
            by_shape!(self.matrix, self.preselect_option(r)) + u64::from(m.opt_cost[r]) + 1;
        self.driver.preselected.push(option);
        self.driver.base = self.driver.stats;
        Ok(())
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        by_shape!(self.matrix, self.run())
    }

    /// Covers every item of option `r` in state slot 0 (preselecting).
    fn preselect_option<const W: usize, const B: usize>(&mut self, r: usize) -> u64 {
        self.matrix
            .cover_option::<W, B>(&mut self.state.states[..W + B + 1], r)
    }

    /// The driver over the kernel of shape `<W, B>`.
    fn run<const W: usize, const B: usize>(&mut self) -> Step {
        self.driver.run::<Bits<W, B>>(&self.matrix, &mut self.state)
    }
}

engine_queries!(BitsSolver, BitsSolutions, |_s, r| OptionId::must(
    r as usize
));

#[cfg(test)]
mod tests {
    //! Small searches over every path of the bits engine (several shapes of
    //! state, secondary items, ignored options, preselect, budget stop and
    //! resume), each against the DLX solver. Quick enough for Miri, which
    //! checks the unchecked reads.
    use super::*;
    use crate::dlx::search::engine_tests::{self, agree_with_links};
    use crate::dlx::Budget;
    use crate::dlx::{knuth, MatrixBuilder};
    use crate::problems;

    /// The bits engine against the links engine (see `agree_with_links`).
    fn agree(m: &Matrix) -> u64 {
        agree_with_links(m, &mut BitsSolver::new(&BitsMatrix::new(m).unwrap()))
    }

    #[test]
    fn same_tree_as_dlx_on_small_problems() {
        for (m, want) in engine_tests::small_problems() {
            assert_eq!(agree(&m), want);
        }
    }

    #[test]
    fn wide_states_secondary_items_and_ignored_options() {
        // 298 options (5 words), item `x0` in 7 of them (3 planes); 64
        // solutions (each run more doubles them, and Miri's time).
        let (m, ..) = engine_tests::wide(8);
        let bm = BitsMatrix::new(&m).unwrap();
        assert_eq!((bm.words, bm.planes), (5, 3));
        assert_eq!(bm.state_words(), 5 + 3 + 1);
        assert!(agree(&m) > 0);
        let mut solver = BitsSolver::new(&bm);
        assert_eq!(
            solver.preselect(OptionId::must(1)),
            Err(PreselectError::IgnoredOption(OptionId::must(1)))
        );
    }

    #[test]
    fn choose_takes_the_leftmost_least_len() {
        // Lens 5, 2, 7, 2, 0 (item 4 covered), in 3 planes.
        let lens = [5u64, 2, 7, 2, 0];
        let planes: Vec<u64> = (0..3)
            .map(|k| {
                lens.iter()
                    .enumerate()
                    .fold(0, |p, (i, &l)| p | (l >> k & 1) << i)
            })
            .collect();
        assert_eq!(choose::<3>(&planes, 0b01111), (1, 2));
        assert_eq!(choose::<3>(&planes, 0b01101), (3, 2));
        assert_eq!(choose::<3>(&planes, 0b00101), (0, 5));
        assert_eq!(choose::<3>(&planes, 0b10101), (4, 0));
    }

    #[test]
    fn preselect_budget_and_reset() {
        let m = problems::queens(6).unwrap();
        let b = BitsMatrix::new(&m).unwrap();
        let mut s = BitsSolver::new(&b);
        engine_tests::preselect_budget_and_reset(&m, &mut s, true);
        // The profile counts the nodes of each level.
        s.reset();
        s.set_budget(Budget::default());
        s.enable_profile();
        s.count();
        let profile = s.profile().unwrap();
        assert_eq!(profile[0], 1);
        assert_eq!(profile.iter().sum::<u64>(), s.stats().nodes);
    }

    #[test]
    #[cfg_attr(miri, ignore = "builds large matrices: slow under Miri")]
    fn limits_are_refused() {
        let m = knuth::read("A | s\nA s:x\nA s:y\n".as_bytes()).unwrap();
        assert_eq!(BitsMatrix::new(&m).unwrap_err(), BitsError::Colors);
        let many = |primary: usize, options: usize| {
            let mut b = MatrixBuilder::new();
            let items: Vec<_> = (0..primary)
                .map(|k| b.primary(&format!("i{k}")).unwrap())
                .collect();
            for r in 0..options {
                b.option(&[items[r % primary]]).unwrap();
            }
            BitsMatrix::new(&b.build().unwrap()).map(|b| (b.words, b.planes))
        };
        assert_eq!(many(64, 512), Ok((8, 4)));
        assert_eq!(many(65, 65), Err(BitsError::TooManyPrimary(65)));
        assert_eq!(many(64, 513), Err(BitsError::TooManyOptions(513)));
        assert_eq!(many(2, 510), Ok((8, 8)));
        assert_eq!(many(1, 256), Err(BitsError::LongItem(256)));
        assert!(BitsMatrix::new(crate::sudoku::SudokuMatrix::new(3).unwrap().matrix()).is_err());
        assert!(BitsMatrix::new(crate::sudoku::SudokuMatrix::new(2).unwrap().matrix()).is_ok());
    }
}
