//! Algorithm M (TAOCP 7.2.2.1; Knuth's DLX3) on the dense engine's states:
//! exact cover with multiplicities, undone by copying.
//!
//! The operations of `search/mult.rs`, which has Algorithm M's steps once
//! for every engine (the same tree and DLX3's counters on each), on the
//! dense representation: a state slot is the active bits, a `u16`
//! len per primary item ([`COVERED`] once the item is covered or ended) and
//! a `u16` bound per primary item (how many more options may use it); each
//! item's slack (upper bound less lower) is fixed, in the tables. Where
//! DLX3's order packs into 16 bits ([`NarrowKey`]) the slot keeps each
//! item's key in place of its len: an option hidden takes a fixed step
//! from its items' keys as it would take 1 from their lens, an item's key
//! is made again when its bound falls, and the choice only compares.
//!
//! Per level `l` (the bookkeeping of item, bound, slack and untried
//! candidates is `search/mult.rs`'s): slot `2l` is the state on entering;
//! slot `2l + 1` the same after M4 (the chosen item uses one of its bound,
//! and is covered when none is left) and after the *tweaks* of the options tried so far
//! at this level. A tweak takes the option out of the item's list: while
//! the item is still active the option is hidden in slot `2l + 1` (cleared,
//! its items' lens decremented), so that deeper levels, which may choose
//! the item again, and the later options of this level, never see it;
//! once the item is covered its options are hidden already, and the
//! tweak only moves the level's cursor. The candidates are the item's
//! options active in slot `2l`, in order, then the *null move* (the cursor
//! [`NULL`]: no option, the item ends) when the item may take no more.
//!
//! The kernel reads and splits slots without bounds checks, as the plain
//! one does (`mod.rs`); here a slot is `words + 2 · lw` words (the active
//! bits, then lens and bounds of `lw` words each).
//!
//! Counters are DLX3's, as the links engine counts them: a node at every
//! entry; an update per link a cover removes (one for the item, one per
//! other item of each option hidden), per tweak (one, or the option's
//! items when it hides it). A node whose branching degree θ is 0 or less
//! is a dead end that changes nothing.
//!
//! Why: DLX3's choice scans every active item at every node, and that
//! scan is most of its work (38% of the links engine's instructions on
//! two-queens 7). Here it is a pass or two over short arrays in L1 cache,
//! keys compared without branches, a chunk of items at a time; keeping the
//! keys in the state spares computing them (two-queens 7: 6% fewer
//! instructions in all).

#![allow(unsafe_code)]

use super::search::{lens, lens_ref, State};
use super::{DenseMatrix, COVERED};
use crate::dlx::index::{ItemId, OptionId};
use crate::dlx::search::mult::{AlgorithmM, Choice, Levels, MultOps};
use crate::dlx::search::{split, PreselectError, NULL_MOVE};
use crate::dlx::stats::Stats;
use crate::dlx::unchecked::{at, at_mut, copy_slot, span, span_mut, split_mut};
use crate::dlx::{EngineKind, Subtree};

/// The cursor of the null move: no option's (the solver's solutions leave
/// it out).
pub(super) const NULL: u32 = NULL_MOVE;

/// Lanes of the choice's passes: lens and bounds are kept for a multiple
/// of eight items, the items past the last primary one ended ([`COVERED`],
/// bound and slack 0), so that no pass has a tail.
pub(super) const LANES: usize = 8;

/// The three parts of a state slot: active bits, lens, bounds (each for
/// the primary items rounded up to [`LANES`]).
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(super) unsafe fn parts<'a>(
    m: &DenseMatrix,
    slot: &'a mut [u64],
) -> (&'a mut [u64], &'a mut [u16], &'a mut [u16]) {
    // A slot is `m.words + 2 * lw` words (`DenseSolver::with_tables`).
    let lw = m.len_words();
    let (active, rest) = split_mut(slot, m.words);
    let (len, bound) = split_mut(rest, lw);
    (active, lens(len), lens(span_mut(bound, 0, lw)))
}

/// M3: the item to branch on and its branching degree θ (`i32::MAX` when
/// no primary item is active). DLX3's order — least
/// `θ = len + min(slack, bound) - bound + 1`, then least
/// `min(slack, bound)`, then longest list, then leftmost — is one `u64`
/// key per item (θ biased by 2¹⁷ in the top 18 bits, then the three
/// others in 16, 16 and 14 bits: lens and bounds are below 2¹⁶, items
/// below 2¹⁴ as a state of 8 KB holds at most 2,048), its least found
/// without branches. With `FORCED` the leftmost item whose θ is 1 or less
/// is taken at once (first-forced).
#[inline(always)]
fn choose<const FORCED: bool>(len: &[u16], bound: &[u16], slack: &[u16]) -> (usize, i32) {
    let n = len.len().min(bound.len()).min(slack.len());
    let mut best = u64::MAX;
    for k in 0..n {
        let l = i32::from(len[k]);
        let b = i32::from(bound[k]);
        let s = i32::from(slack[k]).min(b);
        let t = l + s - b + 1;
        let key = ((t + (1 << 17)) as u64) << 46
            | (s as u64) << 30
            | ((0xFFFF - l) as u64) << 14
            | k as u64;
        let live = len[k] != COVERED;
        if FORCED && live && t <= 1 {
            return (k, t);
        }
        best = best.min(if live { key } else { u64::MAX });
    }
    if best == u64::MAX {
        (usize::MAX, i32::MAX)
    } else {
        ((best & 0x3FFF) as usize, (best >> 46) as i32 - (1 << 17))
    }
}

/// How [`choose_keys`] and [`choose_wide`] pack DLX3's order into a key of 16 or 32 bits,
/// when the matrix's lens and bounds are small enough (two-queens 8 takes
/// 10 bits, pentominoes with `0:2|` pieces 18): `θ + v - 1` (with `v` the
/// largest upper bound, so never below 0) shifted by `theta`,
/// `min(slack, bound)` shifted by `slack`, and `longest - len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct NarrowKey {
    theta: u32,
    slack: u32,
    longest: u32,
    most: u32,
    /// Whether the key takes 32 bits (else 16).
    pub(super) wide: bool,
}

impl NarrowKey {
    /// The packing for items of at most `longest` options and upper bounds
    /// of at most `most`, if the key fits in 15 or 31 bits (so that it
    /// stays below the key of an item gone, all ones).
    pub(super) fn new(longest: u16, most: u16) -> Option<NarrowKey> {
        let bits = |x: u32| 32 - x.leading_zeros();
        let (longest, most) = (u32::from(longest), u32::from(most));
        let (l, s, t) = (bits(longest), bits(most), bits(longest + most));
        (l + s + t <= 31).then_some(NarrowKey {
            theta: l + s,
            slack: l,
            longest,
            most,
            wide: l + s + t > 15,
        })
    }

    /// The key of an item of len `len`, bound `b` and slack `slack` (16
    /// bits when not `wide`).
    #[inline(always)]
    pub(super) fn key(&self, len: u16, b: u16, slack: u16) -> u32 {
        let (l, b) = (u32::from(len), u32::from(b));
        let s = u32::from(slack).min(b);
        (l + s + self.most - b) << self.theta | s << self.slack | (self.longest - l)
    }

    /// The len a key holds ([`COVERED`] for an item gone).
    #[inline(always)]
    fn len(&self, key: u16) -> u16 {
        if key == COVERED {
            COVERED
        } else {
            (self.longest - (u32::from(key) & ((1 << self.slack) - 1))) as u16
        }
    }

    /// The keys below this one are of items whose θ is 1 or less.
    #[inline(always)]
    fn forced(&self) -> u32 {
        (self.most + 1) << self.theta
    }

    /// θ of an item from its key.
    #[inline(always)]
    fn degree(&self, key: u32) -> i32 {
        (key >> self.theta) as i32 - self.most as i32 + 1
    }

    /// What one option fewer takes from a key: one from θ, one more to
    /// `longest - len` (neither part leaves its bits: θ's part stays at
    /// least the len, the len at least 0).
    #[inline(always)]
    fn step(&self) -> u16 {
        ((1u32 << self.theta) - 1) as u16
    }
}

/// The item to branch on among `keys`, whole chunks of [`LANES`]: with
/// `FORCED` the leftmost key below `forced` (first-forced), if any; else
/// the least, leftmost on ties. Each pass compares whole chunks, so that
/// it is vectorized. `None` when every key is `gone`.
#[inline(always)]
fn pick<K: Copy + Ord, const FORCED: bool>(keys: &[K], gone: K, forced: K) -> Option<usize> {
    // The leftmost key for which `hit` holds: the chunk by a whole-chunk
    // fold, then the place in it.
    let find = |hit: &dyn Fn(K) -> bool| -> Option<usize> {
        for (c, chunk) in keys.chunks_exact(LANES).enumerate() {
            if chunk.iter().fold(false, |a, &key| a | hit(key)) {
                return Some(c * LANES + chunk.iter().position(|&key| hit(key)).unwrap_or(0));
            }
        }
        None
    };
    if FORCED {
        if let Some(i) = find(&|key| key < forced) {
            return Some(i);
        }
    }
    let least = keys
        .chunks_exact(LANES)
        .fold([gone; LANES], |mut a, chunk| {
            for i in 0..LANES {
                a[i] = a[i].min(chunk[i]);
            }
            a
        })
        .into_iter()
        .fold(gone, K::min);
    if least == gone {
        return None;
    }
    find(&|key| key == least)
}

/// M3 where the state keeps the items' keys ([`DenseMatrix::keyed`]): the
/// choice only compares. Not inlined: so the passes were vectorized,
/// inlined into the search loop they were not.
#[inline(never)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn choose_keys<const FORCED: bool>(keys: &[u16], k: NarrowKey) -> (usize, i32) {
    let keys = &keys[..keys.len() / LANES * LANES];
    match pick::<u16, FORCED>(keys, COVERED, k.forced() as u16) {
        Some(i) => (i, k.degree(u32::from(at(keys, i)))),
        None => (usize::MAX, i32::MAX),
    }
}

/// M3 with keys of 31 bits: computed from the lens and bounds into `keys`
/// in one pass (vectorized), then [`pick`]; compared as `i32`, which SSE2
/// compares in 32-bit lanes. Not inlined, as [`choose_keys`].
#[inline(never)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn choose_wide<const FORCED: bool>(
    len: &[u16],
    bound: &[u16],
    slack: &[u16],
    keys: &mut [i32],
    k: NarrowKey,
) -> (usize, i32) {
    let n = len.len() / LANES * LANES;
    let (len, bound, slack, keys) = (&len[..n], &bound[..n], &slack[..n], &mut keys[..n]);
    // `NarrowKey::key` in `i32` lanes, which vectorize better than `u32`.
    let (longest, most) = (k.longest as i32, k.most as i32);
    for i in 0..n {
        let (l, b) = (i32::from(len[i]), i32::from(bound[i]));
        let s = i32::from(slack[i]).min(b);
        let key = (l + s + most - b) << k.theta | s << k.slack | (longest - l);
        keys[i] = if len[i] == COVERED { i32::MAX } else { key };
    }
    match pick::<i32, FORCED>(keys, i32::MAX, k.forced() as i32) {
        Some(i) => (i, k.degree(at(keys, i) as u32)),
        None => (usize::MAX, i32::MAX),
    }
}

impl DenseMatrix {
    /// The key a state keeps in place of each primary item's len, when
    /// DLX3's order fits in 16 bits: then the choice only compares, and
    /// hiding an option takes [`NarrowKey::step`] from its items' keys.
    #[inline(always)]
    pub(super) fn keyed(&self) -> Option<NarrowKey> {
        self.narrow.filter(|k| !k.wide)
    }

    // These take the kernel's `KEY`: the state keeps keys when it is 16
    // (the passes before a search ask `keyed`), so that the kernels of
    // the other keys pay nothing for them.

    /// What a hidden option takes from each of its primary items' entries.
    #[inline(always)]
    fn step<const KEY: u8>(&self) -> u16 {
        match self.narrow {
            Some(k) if KEY == 16 => k.step(),
            _ => 1,
        }
    }

    /// The len of primary item `i` in a state's lens part.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn len_at<const KEY: u8>(&self, len: &[u16], i: usize) -> u16 {
        let v = at(len, i);
        match self.narrow {
            Some(k) if KEY == 16 => k.len(v),
            _ => v,
        }
    }

    /// After item `j`'s bound fell to `b` (not 0): its key, when the state
    /// keeps keys.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn rekey<const KEY: u8>(&self, len: &mut [u16], j: usize, b: u16) {
        if let (Some(k), 16) = (self.narrow, KEY) {
            let e = at_mut(len, j);
            *e = k.key(k.len(*e), b, at(&self.slack, j)) as u16;
        }
    }

    /// The root slot's entries of the primary items, lens or keys, into
    /// `len` (whole chunks; the items past the last primary one ended).
    pub(super) fn root_entries(&self, len: &mut [u16]) {
        let p = self.primary;
        len[..p].copy_from_slice(&self.root_len);
        len[p..].fill(COVERED);
        if let Some(k) = self.keyed() {
            for (i, e) in len[..p].iter_mut().enumerate() {
                *e = k.key(*e, self.root_bound[i], self.slack[i]) as u16;
            }
        }
    }

    /// Hides option `r` (a tweak while its item is active): clears its bit
    /// and decrements its primary items' lens. Returns its items, DLX3's
    /// updates for the tweak (its node in the item's list and the others).
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn hide_option<const KEY: u8>(
        &self,
        active: &mut [u64],
        len: &mut [u16],
        r: usize,
    ) -> u64 {
        let step = self.step::<KEY>();
        *at_mut(active, r / 64) &= !(1u64 << (r % 64));
        let (s, p, e) = (
            at(&self.opt_start, r) as usize,
            at(&self.opt_pend, r) as usize,
            at(&self.opt_start, r + 1) as usize,
        );
        for q in s..p {
            let l = at_mut(len, at(&self.opt_items, q) as usize);
            *l = l.wrapping_sub(step);
        }
        (e - s) as u64
    }

    /// M6 for every item of option `r` but `skip`: a primary item uses one
    /// of its bound and is covered when none is left; a secondary item is
    /// covered. Returns the updates.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn commit_bounded<const UL: usize, const UP: usize, const KEY: u8>(
        &self,
        slot: &mut [u64],
        left: &mut u32,
        watch: &mut super::search::Watch,
        r: usize,
        skip: usize,
    ) -> u64 {
        let (active, len, bound) = parts(self, slot);
        let (start, end) = (
            at(&self.opt_start, r) as usize,
            at(&self.opt_start, r + 1) as usize,
        );
        let mut updates = 0;
        for q in start..end {
            let j = at(&self.opt_items, q) as usize;
            if j == skip {
                continue;
            }
            if j < self.primary {
                let b = at_mut(bound, j);
                *b -= 1;
                if *b != 0 {
                    self.rekey::<KEY>(len, j, *b);
                    continue;
                }
            }
            updates += self.cover::<UL, UP, false>(active, len, left, watch, j, self.step::<KEY>());
        }
        updates
    }
}

/// Algorithm M's operations on the dense states (`search/mult.rs` has the
/// steps): `FORCED` for first-forced; `KEY` the bits of the tables'
/// [`NarrowKey`] (16 or 32; else the 64-bit key); `UL` and `UP` the common
/// option length and primary count, for covering by arithmetic.
pub(super) struct DenseOps<const FORCED: bool, const KEY: u8, const UL: usize, const UP: usize>;

/// The Algorithm M kernel on the dense states.
pub(super) type DenseMult<const FORCED: bool, const KEY: u8, const UL: usize, const UP: usize> =
    AlgorithmM<DenseOps<FORCED, KEY, UL, UP>>;

// The slots read and written below exist: the driver enters at most
// `max_depth` levels, and there are `2 * (max_depth + 2)` slots.
impl<const FORCED: bool, const KEY: u8, const UL: usize, const UP: usize> MultOps
    for DenseOps<FORCED, KEY, UL, UP>
{
    type Tables = DenseMatrix;
    type State = State;
    const UNDOES: bool = false;

    #[inline(always)]
    fn null(_i: usize) -> u32 {
        NULL
    }

    #[inline(always)]
    fn levels<'a>(s: &'a mut State) -> Levels<'a> {
        s.mult.with(&mut s.item)
    }

    unsafe fn start(_m: &DenseMatrix, _s: &mut State) {}

    /// M3 on slot `2l`.
    #[inline(always)]
    unsafe fn choose(m: &DenseMatrix, s: &mut State, l: usize) -> Option<Choice> {
        let size = s.slot;
        if s.left[2 * l] == 0 {
            return None;
        }
        let here = span(&s.states, 2 * l * size, size);
        let lw = m.len_words();
        let len = lens_ref(span(here, m.words, lw));
        let bound = lens_ref(span(here, m.words + lw, lw));
        let (i, theta) = match (KEY, m.narrow) {
            (16, Some(k)) => choose_keys::<FORCED>(len, k),
            (32, Some(k)) => choose_wide::<FORCED>(len, bound, &m.slack, &mut s.keys32, k),
            _ => choose::<FORCED>(len, bound, &m.slack),
        };
        // Every item left is ended, none uncovered: a solution.
        (theta != i32::MAX).then(|| Choice {
            item: i,
            theta,
            len: u32::from(m.len_at::<KEY>(len, i)),
            bound: u32::from(at(bound, i)),
            slack: u32::from(at(&m.slack, i)),
        })
    }

    /// M4 into slot `2l + 1`.
    #[inline(always)]
    unsafe fn use_one(
        m: &DenseMatrix,
        s: &mut State,
        l: usize,
        i: usize,
        b: u32,
        stats: &mut Stats,
    ) -> Option<u32> {
        let size = s.slot;
        let first = m.next_option(span(&s.states, 2 * l * size, m.words), i, 0);
        let slot = copy_slot(&mut s.states, size, 2 * l, 2 * l + 1);
        let (active, len, bound) = parts(m, slot);
        *at_mut(bound, i) = b as u16;
        let mut left = s.left[2 * l];
        if b == 0 {
            stats.updates +=
                m.cover::<UL, UP, false>(active, len, &mut left, &mut s.watch, i, m.step::<KEY>());
        } else {
            m.rekey::<KEY>(len, i, b as u16);
        }
        s.left[2 * l + 1] = left;
        first.map(|r| r as u32)
    }

    /// The tweak in slot `2l + 1`: the option hidden while its item is
    /// active; else only the cursor moves.
    #[inline(always)]
    unsafe fn tweak(
        m: &DenseMatrix,
        s: &mut State,
        l: usize,
        _i: usize,
        r: u32,
        hide: bool,
    ) -> u64 {
        if !hide {
            return 1;
        }
        let size = s.slot;
        let (active, len, _) = parts(m, span_mut(&mut s.states, (2 * l + 1) * size, size));
        m.hide_option::<KEY>(active, len, r as usize)
    }

    /// M6 into slot `2l + 2`.
    #[inline(always)]
    unsafe fn commit(
        m: &DenseMatrix,
        s: &mut State,
        l: usize,
        i: usize,
        r: u32,
        stats: &mut Stats,
    ) -> bool {
        let (from, to) = (2 * l + 1, 2 * l + 2);
        let mut left = s.left[from];
        let slot = copy_slot(&mut s.states, s.slot, from, to);
        stats.updates +=
            m.commit_bounded::<UL, UP, KEY>(slot, &mut left, &mut s.watch, r as usize, i);
        s.left[to] = left;
        left == 0
    }

    /// The null move into slot `2l + 2`.
    #[inline(always)]
    unsafe fn end(m: &DenseMatrix, s: &mut State, l: usize, i: usize, active: bool) -> bool {
        let (from, to) = (2 * l + 1, 2 * l + 2);
        let mut left = s.left[from];
        let slot = copy_slot(&mut s.states, s.slot, from, to);
        if active {
            // The item ends, its options all tweaked away.
            *at_mut(parts(m, slot).1, i) = COVERED;
            left -= 1;
        }
        s.left[to] = left;
        left == 0
    }

    /// The next of item `i`'s options active on entering (slot `2l`).
    #[inline(always)]
    unsafe fn next(m: &DenseMatrix, s: &mut State, l: usize, i: usize, r: u32) -> Option<u32> {
        let here = span(&s.states, 2 * l * s.slot, m.words);
        m.next_option(here, i, r as usize + 1).map(|q| q as u32)
    }
}

impl DenseMatrix {
    /// Preselects option `r` with multiplicities into the root slot
    /// `slot`: the option is used (hidden), then committed item by item.
    /// A primary item with no bound left, or an option no longer active,
    /// is a conflict (checked before anything changes). Returns the
    /// updates.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn preselect_bounded(
        &self,
        slot: &mut [u64],
        left: &mut u32,
        watch: &mut super::search::Watch,
        r: usize,
    ) -> Result<u64, ()> {
        let (active, len, bound) = parts(self, slot);
        let full = self
            .option(r)
            .iter()
            .any(|&j| (j as usize) < self.primary && bound[j as usize] == 0);
        if full || active[r / 64] >> (r % 64) & 1 == 0 {
            return Err(());
        }
        Ok(if self.keyed().is_some() {
            self.hide_option::<16>(active, len, r)
                + self.commit_bounded::<0, 0, 16>(slot, left, watch, r, usize::MAX)
        } else {
            self.hide_option::<0>(active, len, r)
                + self.commit_bounded::<0, 0, 0>(slot, left, watch, r, usize::MAX)
        })
    }

    /// Takes option `r` out of the root slot without counting (a
    /// subtree's excluded option). Whether it was active.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn exclude(&self, slot: &mut [u64], r: usize) -> bool {
        let (active, len, _) = parts(self, slot);
        if active[r / 64] >> (r % 64) & 1 == 0 {
            return false;
        }
        if self.keyed().is_some() {
            self.hide_option::<16>(active, len, r);
        } else {
            self.hide_option::<0>(active, len, r);
        }
        true
    }

    /// Ends primary item `i` in the root slot (a subtree's retired item):
    /// its options left are excluded and it takes no more. Refused for a
    /// secondary item or one whose lower bound is not met.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn retire(
        &self,
        slot: &mut [u64],
        left: &mut u32,
        i: usize,
    ) -> Result<(), PreselectError> {
        if i >= self.primary {
            return Err(PreselectError::NotRetirable(ItemId::must(i)));
        }
        let (_, len, bound) = parts(self, slot);
        let b = bound[i];
        if b > self.slack[i] {
            return Err(PreselectError::NotRetirable(ItemId::must(i)));
        }
        if len[i] == COVERED {
            return Ok(());
        }
        let mut from = 0;
        while let Some(r) = self.next_option(&slot[..self.words], i, from) {
            self.exclude(slot, r);
            from = r + 1;
        }
        *at_mut(parts(self, slot).1, i) = COVERED;
        *left -= 1;
        Ok(())
    }

    /// The options level `l` tweaked before choosing `r` (all of its
    /// item's after a null move): its item's options active on entering
    /// (`here`) before `r`.
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    pub(super) unsafe fn tweaked(&self, here: &[u64], i: usize, r: u32, into: &mut Vec<OptionId>) {
        let mut from = 0;
        while let Some(q) = self.next_option(&here[..self.words], i, from) {
            if q >= r as usize {
                break;
            }
            into.push(OptionId::must(q));
            from = q + 1;
        }
    }
}

impl<'m> super::DenseSolver<'m> {
    /// Starts over below `sub`, a subtree of [`split`](Self::split) (or one
    /// a job line names): a [`reset`](Self::reset); with multiplicities,
    /// `sub.excluded` leave the search, `sub.options` are preselected in
    /// order and `sub.retired` take no more options, as
    /// [`LinksSolver::preselect_subtree`](crate::dlx::LinksSolver::preselect_subtree)
    /// does; without them a subtree that excludes or retires is refused
    /// ([`PreselectError::Unsupported`]). On a refusal nothing is kept.
    pub fn preselect_subtree(&mut self, sub: &Subtree) -> Result<(), PreselectError> {
        split::preselect_root_subtree(self, sub, EngineKind::Dense)
    }

    /// The subtree below the node where the search is paused (at the cut
    /// of [`split`](Self::split)), preselected options not included: with
    /// multiplicities, also each level's tweaked options and the items its
    /// null moves ended.
    pub(crate) fn subtree_path(&self, into: &mut Subtree) {
        split::root_subtree_path(self, into);
    }
}

impl split::RootSteps for super::DenseSolver<'_> {
    fn bounded(&self) -> bool {
        self.matrix.bounded
    }

    fn options(&self) -> usize {
        self.matrix.options
    }

    fn ignored(&self, r: usize) -> bool {
        let m = &*self.matrix;
        !m.option(r).iter().any(|&i| (i as usize) < m.primary)
    }

    fn exclude_root(&mut self, r: usize) -> bool {
        if r >= self.matrix.options {
            return false;
        }
        let s = &mut self.state;
        // SAFETY: `r` is an option of the matrix (checked above), and the
        // root slot is this solver's own, made for its tables.
        unsafe { self.matrix.exclude(&mut s.states[..s.slot], r) }
    }

    fn retire_root(&mut self, i: usize) -> Result<(), PreselectError> {
        let s = &mut self.state;
        // SAFETY: `retire` refuses an `i` past the primary items before it
        // indexes; the root slot is this solver's own.
        unsafe {
            self.matrix
                .retire(&mut s.states[..s.slot], &mut s.left[0], i)
        }
    }

    fn level_item(&self, l: usize) -> usize {
        self.state.item[l] as usize
    }

    fn tweaked(&self, l: usize, r: u32, into: &mut Vec<OptionId>) {
        let size = self.state.slot;
        let here = &self.state.states[2 * l * size..(2 * l + 1) * size];
        let i = self.level_item(l);
        if i >= self.matrix.primary {
            return;
        }
        // SAFETY: `here` is a whole state slot (sliced, checked, above) and
        // `i` a primary item (checked above); `r` only bounds the walk.
        unsafe { self.matrix.tweaked(here, i, r, into) };
    }
}

#[cfg(test)]
mod tests {
    //! Algorithm M on small matrices against the links engine (same
    //! solutions in order, nodes, updates), through both keys of the
    //! choice, with a budget that pauses the search; quick enough for
    //! Miri, which checks the unchecked indexing and the lens' views.
    use super::*;
    use crate::dlx::search::engine_tests::{agree_with_links, budget_pauses_and_resumes};
    use crate::dlx::{knuth, DenseSolver, Matrix};
    use crate::problems;

    fn small() -> Vec<Matrix> {
        let mixed = "2:3|A B 0:1|C | x\nA B\nA x\nA C\nB x\nC\nA\nB C x\n";
        vec![
            problems::two_queens(4).unwrap(),
            knuth::read(mixed.as_bytes()).unwrap(),
        ]
    }

    #[test]
    fn same_tree_as_links_by_either_key() {
        for m in small() {
            let mut d = DenseMatrix::new(&m).unwrap();
            assert!(d.narrow.is_some_and(|k| !k.wide));
            let n = agree_with_links(&m, &mut DenseSolver::new(&d));
            assert!(n > 0);
            d.narrow = None;
            assert_eq!(agree_with_links(&m, &mut DenseSolver::new(&d)), n);
        }
    }

    #[test]
    fn thirty_two_bit_keys() {
        // A is in 64 options, B takes 2: 7 bits of len, 2 of slack, 7 of θ.
        let mut text = String::from("0:1|A 2|B\nA B\nB\nB\n");
        text.push_str(&"A\n".repeat(63));
        let m = knuth::read(text.as_bytes()).unwrap();
        let mut d = DenseMatrix::new(&m).unwrap();
        assert!(d.narrow.is_some_and(|k| k.wide));
        assert_eq!(agree_with_links(&m, &mut DenseSolver::new(&d)), 66);
        d.narrow = None;
        assert_eq!(agree_with_links(&m, &mut DenseSolver::new(&d)), 66);
    }

    #[test]
    fn pentomino_shaped_options_with_wide_keys() {
        // O, P and U up to twice in a 2×5 box: every option a piece and
        // five cells, the kernel of uniform options of six primary items;
        // keys of 32 bits as 6×6 boards take (here by a larger packing).
        use crate::problems::polyomino::{packing_up_to, PENTOMINOES};
        let pieces = [PENTOMINOES[0], PENTOMINOES[1], PENTOMINOES[6]];
        let m = packing_up_to(&pieces, 2, 5, 2).unwrap();
        let mut d = DenseMatrix::new(&m).unwrap();
        assert_eq!((d.uniform, d.uniform_primary), (6, 6));
        d.narrow = NarrowKey::new(4_000, 2);
        assert!(d.narrow.is_some_and(|k| k.wide));
        assert!(agree_with_links(&m, &mut DenseSolver::new(&d)) > 0);
    }

    #[test]
    fn a_keys_step_is_one_option_fewer() {
        let k = NarrowKey::new(8, 3).unwrap();
        assert!(!k.wide);
        for len in 1..=8u16 {
            for b in 1..=3u16 {
                for slack in 0..=2u16 {
                    let key = k.key(len, b, slack);
                    assert!(key < u32::from(COVERED));
                    assert_eq!(k.len(key as u16), len);
                    assert_eq!(key - u32::from(k.step()), k.key(len - 1, b, slack));
                    let theta = i32::from(len) + i32::from(slack.min(b)) - i32::from(b) + 1;
                    assert_eq!(k.degree(key), theta);
                }
            }
        }
        assert_eq!(k.len(COVERED), COVERED);
    }

    #[test]
    fn narrow_keys_only_where_they_fit() {
        assert!(NarrowKey::new(8, 2).is_some_and(|k| !k.wide));
        // 12 bits of len, 2 of slack, 13 of θ: 32 bits.
        assert!(NarrowKey::new(4_000, 2).is_some_and(|k| k.wide));
        assert!(NarrowKey::new(40_000, 2).is_none());
        assert!(NarrowKey::new(u16::MAX - 1, 1).is_none());
    }

    #[test]
    fn a_budget_pauses_and_resumes_the_same_search() {
        let m = problems::two_queens(4).unwrap();
        let d = DenseMatrix::new(&m).unwrap();
        let (mut whole, mut s) = (DenseSolver::new(&d), DenseSolver::new(&d));
        budget_pauses_and_resumes(&mut whole, &mut s, 7);
    }
}
