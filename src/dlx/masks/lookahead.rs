//! Lookahead on the masks engine ([`Branching::Lookahead`]): at a node
//! where nothing is forced, every active option is *probed*, options whose
//! probe fails are removed, and the search branches on the item whose
//! options promise the least work in all.
//!
//! The rule is the links engine's (`links/lookahead.rs` says it step by
//! step, and why), in this engine's representation:
//! 1. a probe copies the state being searched into a scratch state, commits
//!    the option there and then every option forced in turn (an item of len
//!    1), with the engine's own commit and forced stack, until nothing is
//!    forced or some primary item has no option left (the probe *fails*);
//!    the state being searched is not touched, so nothing is undone;
//! 2. a failed option is *removed* from the state being searched: hidden
//!    from each of its items, as a commit hides an option, its items going
//!    on the forced stack when their len falls to 1 or 0. An item left with
//!    one option keeps it alone (every option sharing an item with it is
//!    removed: unit propagation by removals), and an item left with none
//!    makes the node a dead end at once;
//! 3. after the pass, an item of len 1 is the next forced move (the next
//!    node where nothing is forced probes again); otherwise the search
//!    branches on the uncovered primary item of least `Σ 1 / (1 + updates)`
//!    over its options (their probes' updates), leftmost on ties.
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

use super::state::{choose, Forced, Push, States};
use super::*;
use crate::dlx::search::driver::Enter;
use crate::dlx::stats::Stats;
use crate::dlx::unchecked::at;

/// The scratch of the probes: a state to probe in, its forced stack, and
/// each option's score (its last probe's updates).
#[derive(Clone, Debug)]
pub(super) struct Probes<M> {
    masks: Vec<M>,
    lens: Vec<u8>,
    forced: Forced,
    score: Vec<u32>,
}

impl<M: Mask> Probes<M> {
    pub(super) fn new(m: &MasksMatrix, s: &States<M>) -> Self {
        Probes {
            masks: s.masks.clone(),
            lens: s.lens.clone(),
            forced: Forced::new(m.primary),
            score: vec![0; m.options],
        }
    }
}

/// The lookahead pass at a node of level `l` where nothing is forced, then
/// what the search does there: a dead end, a forced move, or a branch point
/// (saved) on the item of least work.
pub(super) fn look_ahead<M: Mask, const K: usize, const A: bool>(
    m: &MasksMatrix,
    s: &mut States<M>,
    p: &mut Probes<M>,
    l: usize,
    stats: &mut Stats,
) -> Enter {
    for r in 0..m.options {
        if at(&m.ignored, r) || !active(m, &s.masks, r) {
            continue;
        }
        stats.probes += 1;
        let (failed, updates) = probe::<M, K, A>(m, s, p, r);
        stats.updates += updates;
        p.score[r] = u32::try_from(updates).unwrap_or(u32::MAX);
        if !failed {
            continue;
        }
        remove::<M, K>(m, s, r, stats);
        // Unit propagation by removals.
        while !s.forced.dead {
            let Some(j) = s.forced.pop() else { break };
            let j = j as usize;
            if at(&s.lens, j) == 1 {
                keep_only::<M, K>(m, s, m.option_at(j, at(&s.masks, j).lowest()), stats);
            }
        }
        if s.forced.dead {
            return Enter::DEAD;
        }
    }
    match choose(&s.lens[..m.scan]) {
        None => Enter::Solved,
        Some((_, 0)) => Enter::DEAD,
        Some((j, 1)) => Enter::forced(Some(m.option_at(j, at(&s.masks, j).lowest()) as u32)),
        Some(_) => {
            let i = least_work(m, s, &p.score);
            let len = at(&s.lens, i);
            super::search::branch(m, s, l, i, len)
        }
    }
}

/// Whether option `r` is active in `masks`: its bit in its first item.
#[inline(always)]
fn active<M: Mask>(m: &MasksMatrix, masks: &[M], r: usize) -> bool {
    let k = at(&m.opt_start, r) as usize;
    !(at(masks, at(&m.opt_item, k) as usize) & M::from_u64(at(&m.opt_bit, k))).is_zero()
}

/// Commits option `r` and every forced consequence in the scratch state,
/// a copy of the state being searched. Returns whether some primary item
/// ran out of options, and the updates made.
fn probe<M: Mask, const K: usize, const A: bool>(
    m: &MasksMatrix,
    s: &States<M>,
    p: &mut Probes<M>,
    r: usize,
) -> (bool, u64) {
    p.masks.copy_from_slice(&s.masks);
    p.lens.copy_from_slice(&s.lens);
    p.forced.clear();
    let mut updates = m.commit::<M, K, A, true>(&mut p.masks, &mut p.lens, &mut p.forced, r);
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
        updates += m.commit::<M, K, A, true>(&mut p.masks, &mut p.lens, &mut p.forced, q);
    }
}

/// Removes active option `r` from the state being searched: hidden from
/// each of its items, which go on the forced stack when their len falls to
/// 1 or 0.
fn remove<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &mut States<M>,
    r: usize,
    stats: &mut Stats,
) {
    let mut push = Push {
        items: &mut s.forced.items,
        top: s.forced.top,
        zero: false,
    };
    let (from, to) = m.span::<K>(r);
    for t in from..to {
        m.hide_slot::<M, true>(&mut s.masks, &mut s.lens, &mut push, t);
    }
    s.forced.top = push.top;
    s.forced.dead |= push.zero;
    stats.updates += (to - from) as u64;
    stats.pruned += 1;
}

/// Removes every active option that shares an item with option `r`, the
/// only option left of one of its items (which must take it).
fn keep_only<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &mut States<M>,
    r: usize,
    stats: &mut Stats,
) {
    let (from, to) = m.span::<K>(r);
    for t in from..to {
        let (j, clear) = m.slot::<M>(t);
        let mut rest = at(&s.masks, j) & clear;
        while !rest.is_zero() {
            let q = m.option_at(j, rest.lowest());
            rest = rest.drop_lowest();
            remove::<M, K>(m, s, q, stats);
        }
    }
}

/// The uncovered primary item of least `Σ 1 / (1 + score)` over its active
/// options, leftmost on ties (every item has len 2 or more here).
fn least_work<M: Mask>(m: &MasksMatrix, s: &States<M>, score: &[u32]) -> usize {
    let (mut best, mut best_work) = (0, f64::INFINITY);
    for i in 0..m.primary {
        let mut mask = at(&s.masks, i);
        if mask.is_zero() {
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
