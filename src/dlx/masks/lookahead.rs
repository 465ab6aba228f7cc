//! Lookahead on the masks engine ([`Branching::Lookahead`]): at a node
//! where nothing is forced, every active option is *probed*, options whose
//! probe fails are removed, and the search branches on the item whose
//! options promise the least work in all.
//!
//! The rule is the links engine's (`links/lookahead.rs` says it step by
//! step, and why), in this engine's representation, but for one thing: a
//! pass probes only the options that have a primary item of len
//! [`PROBED_LEN`] or less, and branches among those items (where no item
//! is that short, every option, among all items). The options of long
//! items rarely fail and are rarely branched on; on 25×25 Sudoku not
//! probing them does 5–22% less work in all, for a few more guesses.
//! 1. a probe copies the state being searched into a scratch state, commits
//!    the option there and then every option forced in turn (an item of len
//!    1), with the engine's own commit and forced stack, until nothing is
//!    forced or some primary item has no option left (the probe *fails*);
//!    the state being searched is not touched, so nothing is undone. In an
//!    aligned matrix (Sudoku) the probe copies and changes the masks alone
//!    and reads a len as its mask's bit count (`probe`): the same commits,
//!    a fifth less to copy and no lens to count down;
//! 2. a failed option is *removed* from the state being searched: hidden
//!    from each of its items, as a commit hides an option, its items going
//!    on the forced stack when their len falls to 1 or 0. An item left with
//!    one option keeps it alone (every option sharing an item with it is
//!    removed: unit propagation by removals), and an item left with none
//!    makes the node a dead end at once;
//! 3. after the pass, an item of len 1 is the next forced move (the next
//!    node where nothing is forced probes again); otherwise the search
//!    branches on the uncovered primary item (of len [`PROBED_LEN`] or
//!    less, where there is one) of least `Σ 1 / (1 + updates)` over its
//!    options (their probes' updates), leftmost on ties.
//!
//! On aligned matrices a pass probes in *groups* first ([`probe_groups`]):
//! for an item of len 2 with options `b` and `c`, every option `a` that
//! shares an item with `c` forces `b` (committing `a` hides `c`), so `a`'s
//! probe reaches every commit of `b`'s. The pass probes `b`, keeps the
//! state it left, and probes each such `a` from there: the same verdict
//! and the same updates (those of `b`'s probe and of `a`'s own), without
//! doing `b`'s work again (an `a` that `b`'s probe took out is probed
//! alone). Then the other options, as above; each option once a pass. A
//! removal made after `b`'s probe is not in the state kept: a probe from
//! it may then miss a failure (weaker, never wrong) or score differently.
//!
//! Removals need no trail: they change the state being searched before the
//! node saves it as a branch point, so backing down to any branch point
//! above restores a state without them, and the branch point's own options
//! are each tried from the state with them. Only options in no solution of
//! the node's subproblem are removed, so the solutions are exactly those of
//! the other rules; the tree, the nodes and the updates are this engine's
//! own. A probe that starts where a removal left an item forced does not
//! commit that item's option first: weaker, never wrong.
//!
//! Why: a probe on the links engine walks nodes spread over the whole
//! matrix (a 25×25 Sudoku's links are about a megabyte), here it clears
//! bits in one mask per item (10 KB for 25×25), all in L1 cache.
//!
//! [`Branching::Lookahead`]: crate::dlx::Branching::Lookahead

#![allow(unsafe_code)]

use std::ops::ControlFlow;

use super::state::{choose, Forced, Push, States};
use super::*;
use crate::dlx::search::driver::Enter;
use crate::dlx::stats::Stats;
use crate::dlx::unchecked::{at, set};

/// The scratch of the probes: a state to probe in (masks only: see
/// [`probe`]), its forced stack, each option's score (its last probe's
/// updates), and the probe in progress's marks of the items it covered.
#[derive(Clone, Debug)]
pub(super) struct Probes<M> {
    masks: Vec<M>,
    /// The scratch lens, for matrices that are not aligned (see [`probe`]).
    lens: Vec<u8>,
    forced: Forced,
    score: Vec<u32>,
    /// `covered[j] == probe`: item `j` was covered by the probe in progress
    /// (stamps, so that nothing is cleared between probes).
    covered: Vec<u32>,
    probe: u32,
    /// The base of the probes of a group: the masks after its head's probe
    /// (see [`probe_groups`]), and the stamp of that probe.
    base: Vec<M>,
    base_probe: u32,
    base_score: u64,
    /// `probed[r] == pass`: option `r` was probed in the pass in progress.
    probed: Vec<u32>,
    pass: u32,
}

impl<M: Mask> Probes<M> {
    pub(super) fn new(m: &MasksMatrix, s: &States<M>) -> Self {
        Probes {
            masks: s.masks.clone(),
            lens: s.lens.clone(),
            forced: Forced::new(m.primary),
            score: vec![0; m.options],
            covered: vec![0; s.masks.len()],
            probe: 0,
            base: s.masks.clone(),
            base_probe: 0,
            base_score: 0,
            probed: vec![0; m.options],
            pass: 0,
        }
    }

    /// Starts a probe: a fresh stamp (the marks cleared when the stamps run
    /// out).
    fn next_stamp(&mut self) {
        if self.probe == u32::MAX {
            self.covered.fill(0);
            self.probe = 0;
        }
        self.probe += 1;
    }

    /// Keeps the state of the probe just made (of `score` updates) as the
    /// base of the next probes of a group.
    fn keep_as_base(&mut self, score: u64) {
        std::mem::swap(&mut self.masks, &mut self.base);
        self.base_probe = self.probe;
        self.base_score = score;
    }

    /// Starts a pass: a fresh pass stamp, and fresh probe stamps when
    /// fewer than a group's worth are left (a group's probes must not
    /// wrap: they read their base's stamp).
    fn next_pass(&mut self) {
        if self.pass == u32::MAX {
            self.probed.fill(0);
            self.pass = 0;
        }
        self.pass += 1;
        if self.probe > u32::MAX - (1 << 20) {
            self.covered.fill(0);
            self.probe = 0;
        }
    }
}

/// The longest items whose options a pass probes: an option is probed when
/// one of its primary items has this len or less, and the search branches
/// among those items (every option is probed, and every item considered,
/// at a node whose items are all longer). Measured on Frisch's 25×25
/// (BENCHMARKS.md, "Probing short items"): 3 guesses 2–3× more, 5 and
/// more probe too much; 4 does 5–22% less work than probing every option.
pub(super) const PROBED_LEN: u8 = 4;

/// The lookahead pass at a node of level `l` where nothing is forced, then
/// what the search does there: a dead end, a forced move, or a branch point
/// (saved) on the item of least work.
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(super) unsafe fn look_ahead<M: Mask, const K: usize, const A: bool>(
    m: &MasksMatrix,
    s: &mut States<M>,
    p: &mut Probes<M>,
    l: usize,
    stats: &mut Stats,
) -> Enter {
    let most = if (0..m.primary).any(|i| (2..=PROBED_LEN).contains(&at(&s.lens, i))) {
        PROBED_LEN
    } else {
        u8::MAX
    };
    p.next_pass();
    if A && probe_groups::<M, K>(m, s, p, most, stats) {
        return Enter::DEAD;
    }
    // The active options, by their first items (matrix order on Sudoku,
    // whose options are listed cell by cell), each looked at again as it
    // comes: a removal may have taken it.
    for &(i, lead) in &m.leads {
        let i = i as usize;
        let mut options = at(&s.masks, i).to_u64() & lead;
        while options != 0 {
            let r = m.option_at(i, options.trailing_zeros());
            options &= options - 1;
            if at(&p.probed, r) != p.pass
                && active(m, &s.masks, r)
                && has_short_item::<M, K>(m, s, r, most)
            {
                probe_one::<M, K, A>(m, s, p, r, false, stats);
                if s.forced.dead {
                    return Enter::DEAD;
                }
            }
        }
    }
    match choose(&s.lens[..m.scan]) {
        None => super::search::solved::<M, K>(m, s, stats),
        Some((_, 0)) => Enter::DEAD,
        Some((j, 1)) => Enter::forced(Some(m.option_at(j, at(&s.masks, j).lowest()) as u32)),
        Some(_) => {
            let i = least_work(m, s, &p.score, most);
            let len = at(&s.lens, i);
            super::search::branch(m, s, l, i, len)
        }
    }
}

/// Whether option `r` is active in `masks`: its bit in its first item.
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn active<M: Mask>(m: &MasksMatrix, masks: &[M], r: usize) -> bool {
    let k = at(&m.opt_start, r) as usize;
    !(at(masks, at(&m.opt_item, k) as usize) & M::from_u64(at(&m.opt_bit, k))).is_zero()
}

/// Commits option `r` and every forced consequence in the scratch state,
/// a copy of the state being searched, or with `from_base` (aligned
/// matrices) of the state a group's head left, where `r` is still active
/// there. Returns whether some primary item ran out of options, the
/// updates made, and the head's updates when the probe started from its
/// state (0 otherwise): `r`'s score is their sum.
///
/// In an [aligned](MasksMatrix::aligned) matrix only the masks are copied
/// and changed ([`Scratch`]): an uncovered primary item's len is its mask's
/// bit count, so an item is forced or dead when its mask, after an option
/// is hidden, has one bit or none — unless it is secondary or covered (its
/// len in the state being searched above [`MAX_MASK_OPTIONS`], or covered
/// by this probe), the rare case, looked at only then. The items pushed,
/// their order and the updates are those of the engine's own commit, so
/// the tree is the same; the probe copies and writes a fifth less (25×25
/// Sudoku: 10 KB of masks, not 12.5 KB with the lens), 10% of a probe's
/// time (BENCHMARKS.md). Elsewhere an option hidden through the item being
/// covered would meet that item's empty mask every time, so the probe
/// copies the lens too and commits with the engine's commit.
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn probe<M: Mask, const K: usize, const A: bool>(
    m: &MasksMatrix,
    s: &States<M>,
    p: &mut Probes<M>,
    r: usize,
    from_base: bool,
) -> (bool, u64, u64) {
    if !A {
        let (failed, updates) = probe_with_lens::<M, K>(m, s, p, r);
        return (failed, updates, 0);
    }
    // An option the head's probe took out (hidden, or committed: it may
    // force the head as the head forces it) is probed from the state
    // being searched.
    let from_base = from_base && active(m, &p.base, r);
    if from_base {
        p.masks.copy_from_slice(&p.base);
    } else {
        p.masks.copy_from_slice(&s.masks);
    }
    p.forced.clear();
    p.next_stamp();
    let (base, head) = if from_base {
        (p.base_probe, p.base_score)
    } else {
        (p.probe, 0)
    };
    let mut scratch = Scratch {
        masks: &mut p.masks,
        lens: &s.lens,
        primary: m.primary,
        covered: &mut p.covered,
        probe: p.probe,
        base,
        push: Push {
            items: &mut p.forced.items,
            top: 0,
            zero: false,
        },
    };
    let mut updates = scratch.commit::<K>(m, r);
    loop {
        if scratch.push.zero {
            return (true, updates, head);
        }
        let mut next = None;
        while scratch.push.top > 0 {
            scratch.push.top -= 1;
            let j = at(scratch.push.items, scratch.push.top) as usize;
            let mask = at(scratch.masks, j);
            if !scratch.covered(j) && !mask.is_zero() && mask.drop_lowest().is_zero() {
                next = Some(m.option_at(j, mask.lowest()));
                break;
            }
        }
        let Some(q) = next else {
            return (false, updates, head);
        };
        updates += scratch.commit::<K>(m, q);
    }
}

/// [`probe`] with the lens copied too, and the engine's commit.
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn probe_with_lens<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &States<M>,
    p: &mut Probes<M>,
    r: usize,
) -> (bool, u64) {
    p.masks.copy_from_slice(&s.masks);
    p.lens.copy_from_slice(&s.lens);
    p.forced.clear();
    let mut updates = m.commit::<M, K, false, true>(&mut p.masks, &mut p.lens, &mut p.forced, r);
    loop {
        if p.forced.dead {
            return (true, updates);
        }
        let mut next = None;
        while let Some(j) = p.forced.pop() {
            let j = j as usize;
            if at(&p.lens, j) == 1 {
                next = Some(m.option_at(j, at(&p.masks, j).lowest()));
                break;
            }
        }
        let Some(q) = next else {
            return (false, updates);
        };
        updates += m.commit::<M, K, false, true>(&mut p.masks, &mut p.lens, &mut p.forced, q);
    }
}

/// A probe's view of its scratch state: the masks it changes, the lens of
/// the state being searched (which say what was covered there), its marks
/// and its forced stack.
struct Scratch<'a, M> {
    masks: &'a mut [M],
    lens: &'a [u8],
    primary: usize,
    covered: &'a mut [u32],
    probe: u32,
    /// The stamp of the probe this one starts from (its own otherwise).
    base: u32,
    push: Push<'a>,
}

impl<M: Mask> Scratch<'_, M> {
    /// Whether item `j` is secondary or covered (in the state being
    /// searched or by this probe).
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn covered(&self, j: usize) -> bool {
        j >= self.primary
            || usize::from(at(self.lens, j)) > MAX_MASK_OPTIONS
            || at(self.covered, j) == self.probe
            || at(self.covered, j) == self.base
    }

    /// [`MasksMatrix::commit`] of an aligned matrix on the masks alone: the
    /// same covers, hides, pushes and updates.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn commit<const K: usize>(&mut self, m: &MasksMatrix, r: usize) -> u64 {
        self.cover_aligned::<K, 0>(m, r)
            + self.cover_aligned::<K, 1>(m, r)
            + self.cover_aligned::<K, 2>(m, r)
            + self.cover_aligned::<K, 3>(m, r)
    }

    /// Covers the item at place `N` of option `r` and hides its other
    /// options from their other places (`MasksMatrix::cover_aligned`).
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn cover_aligned<const K: usize, const N: usize>(
        &mut self,
        m: &MasksMatrix,
        r: usize,
    ) -> u64 {
        if N >= K {
            return 0;
        }
        let (i, c) = m.slot::<M>(r * K + N);
        let mut rest = at(self.masks, i) & c;
        set(self.masks, i, M::default());
        set(self.covered, i, self.probe);
        let mut hidden = 0;
        while !rest.is_zero() {
            let q = m.option_at(i, rest.lowest());
            rest = rest.drop_lowest();
            hidden += 1;
            self.hide_at::<K, 0, N>(m, q);
            self.hide_at::<K, 1, N>(m, q);
            self.hide_at::<K, 2, N>(m, q);
            self.hide_at::<K, 3, N>(m, q);
        }
        hidden * (K as u64 - 1) + 1
    }

    /// Hides option `q` from its item at place `T`, unless `T` is `N` or
    /// past the option's `K` items.
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn hide_at<const K: usize, const T: usize, const N: usize>(
        &mut self,
        m: &MasksMatrix,
        q: usize,
    ) {
        if T < K && T != N {
            self.hide(m, q * K + T);
        }
    }

    /// Hides the option of place `t` from that place's item; pushes the item
    /// when its mask is left with one bit or none and it is an uncovered
    /// primary item (a dead end when none).
    #[inline(always)]
    /// # Safety
    /// The arguments hold this module's invariants (its documentation):
    /// every index taken from them is in bounds.
    unsafe fn hide(&mut self, m: &MasksMatrix, t: usize) {
        let (j, c) = m.slot::<M>(t);
        let mask = at(self.masks, j) & c;
        set(self.masks, j, mask);
        if mask.drop_lowest().is_zero() && !self.covered(j) {
            set(self.push.items, self.push.top, j as u32);
            self.push.top += 1;
            self.push.zero |= mask.is_zero();
        }
    }
}

/// Removes active option `r` from the state being searched: hidden from
/// each of its items, which go on the forced stack when their len falls to
/// 1 or 0.
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn remove<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &mut States<M>,
    r: usize,
    stats: &mut Stats,
) {
    stats.updates += super::search::hide_option::<M, K>(m, s, r);
    stats.pruned += 1;
}

/// Calls `f` on every active option other than `r` that shares an item
/// with option `r`, item by item: the options of an item are those active
/// when `f` reaches it (`f` may change the state); stops when `f` breaks.
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn each_sharing<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &mut States<M>,
    r: usize,
    mut f: impl FnMut(&mut States<M>, usize) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (from, to) = m.span::<K>(r);
    for t in from..to {
        let (j, clear) = m.slot::<M>(t);
        let mut rest = at(&s.masks, j) & clear;
        while !rest.is_zero() {
            let q = m.option_at(j, rest.lowest());
            rest = rest.drop_lowest();
            f(s, q)?;
        }
    }
    ControlFlow::Continue(())
}

/// Removes every active option that shares an item with option `r`, the
/// only option left of one of its items (which must take it).
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn keep_only<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &mut States<M>,
    r: usize,
    stats: &mut Stats,
) {
    let _ = each_sharing::<M, K>(m, s, r, |s, q| {
        remove::<M, K>(m, s, q, stats);
        ControlFlow::Continue(())
    });
}

/// Probes active option `r` (from a group's state with `from_base`) and
/// keeps its score; a failed option is removed, with unit propagation by
/// removals (the state is marked dead when some item is left with no
/// option). Returns whether it failed.
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn probe_one<M: Mask, const K: usize, const A: bool>(
    m: &MasksMatrix,
    s: &mut States<M>,
    p: &mut Probes<M>,
    r: usize,
    from_base: bool,
    stats: &mut Stats,
) -> bool {
    stats.probes += 1;
    set(&mut p.probed, r, p.pass);
    let (failed, updates, head) = probe::<M, K, A>(m, s, p, r, from_base);
    stats.updates += updates;
    p.score[r] = u32::try_from(updates + head).unwrap_or(u32::MAX);
    if !failed {
        return false;
    }
    remove::<M, K>(m, s, r, stats);
    while !s.forced.dead {
        let Some(j) = s.forced.pop() else { break };
        let j = j as usize;
        if at(&s.lens, j) == 1 {
            keep_only::<M, K>(m, s, m.option_at(j, at(&s.masks, j).lowest()), stats);
        }
    }
    true
}

/// Probes, first, the options of the items of len 2 in groups: an item's
/// option `b` (the group's head), then from the state its probe left
/// every probed option that hides the item's other option `c` (each
/// forces `b`, so its probe's state holds `b`'s: it goes on from there,
/// scored by both probes' updates). Every option is probed once a pass
/// ([`Probes::probed`]). Returns whether the node is a dead end.
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn probe_groups<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &mut States<M>,
    p: &mut Probes<M>,
    most: u8,
    stats: &mut Stats,
) -> bool {
    for i in 0..m.primary {
        for side in 0..2 {
            if at(&s.lens, i) != 2 {
                break;
            }
            let mask = at(&s.masks, i);
            let (lo, hi) = (mask.lowest(), mask.drop_lowest().lowest());
            let (b, c) = if side == 0 {
                (m.option_at(i, lo), m.option_at(i, hi))
            } else {
                (m.option_at(i, hi), m.option_at(i, lo))
            };
            if at(&p.probed, b) == p.pass {
                continue;
            }
            if probe_one::<M, K, true>(m, s, p, b, false, stats) {
                if s.forced.dead {
                    return true;
                }
                continue;
            }
            p.keep_as_base(u64::from(at(&p.score, b)));
            let group = each_sharing::<M, K>(m, s, c, |s, a| {
                if a == b
                    || at(&p.probed, a) == p.pass
                    || !active(m, &s.masks, a)
                    || !has_short_item::<M, K>(m, s, a, most)
                {
                    return ControlFlow::Continue(());
                }
                probe_one::<M, K, true>(m, s, p, a, true, stats);
                if s.forced.dead {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if group.is_break() {
                return true;
            }
        }
    }
    false
}

/// Whether option `r` has a primary item of len `most` or less (always,
/// when `most` is `u8::MAX`).
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn has_short_item<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &States<M>,
    r: usize,
    most: u8,
) -> bool {
    let (from, to) = m.span::<K>(r);
    most == u8::MAX || (from..to).any(|t| at(&s.lens, at(&m.opt_item, t) as usize) <= most)
}

/// The uncovered primary item of len `most` or less with the least
/// `Σ 1 / (1 + score)` over its active options, leftmost on ties (every
/// item has len 2 or more here, and one at most `most`).
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn least_work<M: Mask>(m: &MasksMatrix, s: &States<M>, score: &[u32], most: u8) -> usize {
    let (mut best, mut best_work) = (0, f64::INFINITY);
    for i in 0..m.primary {
        let mut mask = at(&s.masks, i);
        if mask.is_zero() || at(&s.lens, i) > most {
            continue;
        }
        let mut work = 0.0;
        while !mask.is_zero() && work < best_work {
            let q = m.option_at(i, mask.lowest());
            mask = mask.drop_lowest();
            work += 1.0 / (1.0 + f64::from(at(score, q)));
        }
        if work < best_work {
            best_work = work;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    //! The aligned probe (masks alone) against the probe with lens and the
    //! engine's own commit, option by option, on states along random paths.
    use super::*;
    use crate::dlx::MatrixBuilder;
    use rand::{Rng, SeedableRng};

    /// Latin squares of side `n` as exact cover: options (r, c, v) of three
    /// items, cell, row-value and column-value, always in that order.
    fn latin(n: usize) -> Matrix {
        let mut b = MatrixBuilder::new();
        let mut items = |p: &str| -> Vec<_> {
            (0..n * n)
                .map(|k| b.primary(&format!("{p}{k}")).unwrap())
                .collect()
        };
        let (cell, row, col) = (items("c"), items("r"), items("k"));
        for r in 0..n {
            for c in 0..n {
                for v in 0..n {
                    b.option(&[cell[r * n + c], row[r * n + v], col[c * n + v]])
                        .unwrap();
                }
            }
        }
        b.build().unwrap()
    }

    /// Every active option's two probes agree, at each state of `paths`
    /// random descents from the root (a random active option committed at
    /// each step, forced items left as they fall). Returns the probes
    /// compared and how many failed.
    ///
    /// # Safety
    /// `K` is `m`'s uniform option length (asserted first).
    unsafe fn agree<M: Mask, const K: usize>(m: &Matrix, paths: usize, seed: u64) -> (u64, u64) {
        let mm = MasksMatrix::new(m).unwrap();
        assert!(mm.aligned && mm.uniform == K);
        assert_eq!(mm.width as usize, 8 * std::mem::size_of::<M>());
        let mut s = States::<M>::new(&mm);
        s.reset(&mm);
        let mut p = Probes::new(&mm, &s);
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let (mut probes, mut failed, mut grouped) = (0, 0, 0);
        for _ in 0..paths {
            s.restart();
            let mut dead = false;
            loop {
                let live: Vec<usize> = (0..mm.options)
                    .filter(|&r| !at(&mm.ignored, r) && active(&mm, &s.masks, r))
                    .collect();
                for &r in &live {
                    let (fails, updates, _) = probe::<M, K, true>(&mm, &s, &mut p, r, false);
                    let aligned = (fails, updates);
                    assert_eq!(aligned, probe_with_lens::<M, K>(&mm, &s, &mut p, r));
                    probes += 1;
                    failed += u64::from(aligned.0);
                }
                grouped += groups_agree::<M, K>(&mm, &s, &mut p, &live);
                if live.is_empty() || dead {
                    break;
                }
                let r = live[rng.gen_range(0..live.len())];
                mm.commit::<M, K, true, true>(&mut s.masks, &mut s.lens, &mut s.forced, r);
                // The stack is the search's to pop; only its verdict is kept.
                dead = s.forced.dead;
                s.forced.clear();
            }
        }
        assert!(grouped > 0 || cfg!(miri));
        (probes, failed)
    }

    /// Every group of state `s` (an item of len 2, options `b` and `c`):
    /// each live option that hides `c`, probed from `b`'s probe, fails as
    /// its own probe does, and is scored as it is (the head's updates and
    /// its own). Returns the options compared.
    ///
    /// # Safety
    /// `s` and `p` were made for `mm`, and `K` is its uniform length.
    unsafe fn groups_agree<M: Mask, const K: usize>(
        mm: &MasksMatrix,
        s: &States<M>,
        p: &mut Probes<M>,
        live: &[usize],
    ) -> u64 {
        let mut compared = 0;
        for i in 0..mm.primary {
            if at(&s.lens, i) != 2 {
                continue;
            }
            let mask = at(&s.masks, i);
            let (b, c) = (
                mm.option_at(i, mask.lowest()),
                mm.option_at(i, mask.drop_lowest().lowest()),
            );
            let (failed, updates, _) = probe::<M, K, true>(mm, s, p, b, false);
            if failed {
                continue;
            }
            p.keep_as_base(updates);
            let items = |r: usize| {
                let (from, to) = mm.span::<K>(r);
                (from..to).map(|t| mm.opt_item[t]).collect::<Vec<_>>()
            };
            let of_c = items(c);
            for &a in live {
                if a == b || a == c || !items(a).iter().any(|j| of_c.contains(j)) {
                    continue;
                }
                let whole = probe::<M, K, true>(mm, s, p, a, false);
                let (failed, own, head) = probe::<M, K, true>(mm, s, p, a, true);
                assert_eq!(failed, whole.0, "option {a} below {b}");
                if !failed {
                    assert_eq!(own + head, whole.1, "option {a} below {b}");
                }
                compared += 1;
            }
        }
        compared
    }

    #[test]
    fn aligned_probes_are_the_engines_commits() {
        let paths = if cfg!(miri) { 1 } else { 20 };
        // SAFETY (each `agree`): `K` is each matrix's uniform length (4 for
        // queens and Sudoku, 3 for the Latin squares), which `agree` asserts.
        let mut results = unsafe {
            vec![
                // Secondary items: the diagonals.
                agree::<u16, 4>(
                    &crate::problems::queens(if cfg!(miri) { 5 } else { 8 }).unwrap(),
                    paths,
                    2,
                ),
                agree::<u16, 3>(&latin(if cfg!(miri) { 3 } else { 5 }), paths, 3),
            ]
        };
        if !cfg!(miri) {
            // Under Miri, queens 5 takes the same paths as a Sudoku matrix
            // (16-bit masks, options of 4 items) in a fifth of the time.
            let sudoku = crate::sudoku::SudokuMatrix::new(3).unwrap();
            // SAFETY: as above.
            results.push(unsafe { agree::<u16, 4>(sudoku.matrix(), paths, 1) });
            // 32-bit masks: items of 17 options.
            // SAFETY: as above.
            results.push(unsafe { agree::<u32, 3>(&latin(17), 2, 4) });
        }
        for (probes, failed) in results {
            // Both outcomes were met, many times.
            assert!(
                failed > 0 && failed < probes,
                "{probes} probes, {failed} failed"
            );
        }
    }
}
