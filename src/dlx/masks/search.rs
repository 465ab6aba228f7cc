//! The masks engine's search: the kernel the one driver runs over
//! [`States`] (forced moves committed in place, branch points saved and
//! jumped back to), and [`MasksSolver`], its solver.

#![allow(unsafe_code)]

use super::state::{choose, Push, States};
use super::*;
use crate::dlx::engine::Shared;
use crate::dlx::index::OptionId;
use crate::dlx::propagate::{Live, Propagator};
use crate::dlx::search::driver::{Driver, Enter, Kernel, AGAIN};
use crate::dlx::search::strategy::{Scores, Strategy};
use crate::dlx::search::{engine_queries, Branching, PreselectError, Step};
use crate::dlx::stats::Stats;
use crate::dlx::unchecked::{at, set};
use crate::dlx::{EngineError, EngineKind, Subtree};
use std::sync::Arc;

/// The states, in the mask type the matrix needs.
#[derive(Clone, Debug)]
enum Width {
    W16(States<u16>),
    W32(States<u32>),
    W64(States<u64>),
}

/// Calls `$f` with the states of `$w`, whatever their mask type.
macro_rules! by_width {
    ($w:expr, $s:ident => $e:expr) => {
        match $w {
            Width::W16($s) => $e,
            Width::W32($s) => $e,
            Width::W64($s) => $e,
        }
    };
}

/// One search over a [`MasksMatrix`]: the search driver beside the states and
/// the branch points. Solving, counting, preselecting and resetting allocate
/// nothing, once a search has gone as deep as it will (saved states are
/// added as a search first reaches a new depth). The queries mirror
/// [`LinksSolver`](crate::dlx::LinksSolver)'s.
#[derive(Clone, Debug)]
pub struct MasksSolver<'m> {
    matrix: Shared<'m, MasksMatrix>,
    driver: Driver,
    states: Width,
}

/// The masks engine's kernel table (see
/// [`kernel_table!`](crate::dlx::search::driver::kernel_table)), each line
/// compiled for each of the three mask widths ([`Width`]): the key is
/// `(uniform option length, aligned places)`, the common lengths (3: the
/// Sudoku matrix's cells and houses; 4) with a copy of their own.
macro_rules! masks_kernels {
    ($($how:tt)*) => {
        $crate::dlx::search::driver::kernel_table! { $($how)*
            (3, false) => Masks<_, 3, false>,
            (3, true) => Masks<_, 3, true>,
            (4, false) => Masks<_, 4, false>,
            (4, true) => Masks<_, 4, true>,
            _ => Masks<_, 0, false>,
        }
    };
}

/// The masks kernel: masks of type `M`, options of `K` items (0: mixed),
/// aligned places when `A`.
struct Masks<M, const K: usize, const A: bool>(std::marker::PhantomData<M>);

impl<M: Mask, const K: usize, const A: bool> Kernel for Masks<M, K, A> {
    type Tables = MasksMatrix;
    type State = States<M>;
    const UNDOES: bool = false;
    const JUMPS: bool = true;

    unsafe fn start(_m: &MasksMatrix, s: &mut States<M>) {
        s.restart();
    }

    /// The next option to commit in the state being searched: a forced one,
    /// else the first option of a new branch point (after intersections,
    /// near the root, where asked).
    #[inline(always)]
    unsafe fn enter(m: &MasksMatrix, s: &mut States<M>, l: usize, stats: &mut Stats) -> Enter {
        enter_node::<M, K, A>(m, s, l, stats)
    }

    #[inline(always)]
    unsafe fn commit(
        m: &MasksMatrix,
        s: &mut States<M>,
        l: usize,
        r: u32,
        stats: &mut Stats,
    ) -> bool {
        let r = r as usize;
        stats.updates += if s.knuth {
            // Nothing forced is stacked: Knuth's rule scans every node.
            let updates = m.commit::<M, K, A, false>(&mut s.masks, &mut s.lens, &mut s.forced, r);
            // DLX1 covered the item at `enter` (hiding `r` from the
            // option's other items) and covers the option's other items
            // here; the commit covered them all and did not hide `r`.
            let (from, to) = m.span::<K>(r);
            updates + (to - from - 1) as u64 - at(&s.cover, l)
        } else {
            if s.propagator.is_some() {
                m.note_chosen::<K>(&mut s.chosen, r);
                s.last = r as u32;
                if s.chain == u32::MAX && !s.two_way {
                    s.chain = r as u32;
                }
            }
            m.commit::<M, K, A, true>(&mut s.masks, &mut s.lens, &mut s.forced, r)
        };
        // Whether that covered the last primary item is found by the next
        // scan (`enter`).
        false
    }

    unsafe fn retract(_m: &MasksMatrix, _s: &mut States<M>, _l: usize, _r: u32) -> Option<u32> {
        // Never called: the driver backs down by `resume`.
        None
    }

    unsafe fn leave(_m: &MasksMatrix, _s: &mut States<M>, _l: usize) {}

    /// `enter` saved the state and pushed the branch point: popped, with
    /// the state unchanged since.
    unsafe fn abandon(_m: &MasksMatrix, s: &mut States<M>, _l: usize) {
        s.branches.top -= 1;
    }

    /// Backtracks to the innermost branch point with an option left and
    /// restores its state; two ways (and where the driver allows it), that
    /// branch point is left, its first option hidden from the state, and
    /// its level is entered again (`AGAIN`).
    #[inline(always)]
    unsafe fn resume(m: &MasksMatrix, s: &mut States<M>, again: bool) -> Option<(usize, u32)> {
        // Back at a branch point: no chain is started yet.
        s.chain = u32::MAX;
        while s.branches.top > 0 {
            let t = s.branches.top - 1;
            let rest = s.branches.rest[t];
            if rest == 0 {
                s.branches.top = t;
                continue;
            }
            s.restore(t);
            if s.two_way && again {
                // The option tried (the one not in `rest`) leaves the
                // branch point's state, which is entered again: where to
                // branch is chosen anew. A dead end met there is blamed
                // on it.
                s.branches.top = t;
                s.branches.again = true;
                let i = s.branches.item[t] as usize;
                let tried = at(&s.masks, i).to_u64() & !rest;
                let q = m.option_at(i, tried.trailing_zeros());
                // SAFETY: `q` is the active option of item `i` tried at
                // this branch point: the state just restored is the branch
                // point's, where `rest` holds the others (two ways, `rest`
                // is never moved on), and the forced stack was emptied.
                hide_option::<M, K>(m, s, q);
                s.last = q as u32;
                return Some((s.branches.level[t] as usize, AGAIN));
            }
            s.branches.rest[t] = rest & (rest - 1);
            let r = m.option_at(s.branches.item[t] as usize, rest.trailing_zeros());
            return Some((s.branches.level[t] as usize, r as u32));
        }
        None
    }

    /// The shallowest branch point with options left hands them all over:
    /// its `rest` is emptied, so `resume` passes it by.
    unsafe fn give_away(m: &MasksMatrix, s: &mut States<M>) -> Option<(usize, Vec<u32>)> {
        let b = &mut s.branches;
        // Past a branch point entered again, the state has options taken
        // out that a subtree's path does not name: nothing is given.
        let t = (0..b.top)
            .take_while(|&t| !b.hidden[t])
            .find(|&t| b.rest[t] != 0)?;
        let mut rest = std::mem::take(&mut b.rest[t]);
        let item = b.item[t] as usize;
        let mut options = Vec::with_capacity(rest.count_ones() as usize);
        while rest != 0 {
            options.push(m.option_at(item, rest.trailing_zeros()) as u32);
            rest &= rest - 1;
        }
        Some((b.level[t] as usize, options))
    }
}

/// Hides active option `q` from the state being searched: it leaves each
/// of its items, which go on the forced stack when their len falls to 1
/// or 0. Returns the updates (its items).
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// `q` is an active option of the state, and the forced stack has room
/// for its items.
pub(super) unsafe fn hide_option<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &mut States<M>,
    q: usize,
) -> u64 {
    let mut push = Push {
        items: &mut s.forced.items,
        top: s.forced.top,
        zero: false,
    };
    let (qf, qt) = m.span::<K>(q);
    for u in qf..qt {
        m.hide_slot::<M, true>(&mut s.masks, &mut s.lens, &mut push, u);
    }
    let (top, zero) = (push.top, push.zero);
    s.forced.top = top;
    s.forced.dead |= zero;
    (qt - qf) as u64
}

/// The kernel's `enter`: the next option to commit, a forced one, else
/// the first option of a new branch point (after intersections near the
/// root, where asked). Its dead ends are blamed on the last move for the
/// conflict scores where a propagator is set (a check on the dead-end
/// paths only, not at every node).
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn enter_node<M: Mask, const K: usize, const A: bool>(
    m: &MasksMatrix,
    s: &mut States<M>,
    l: usize,
    stats: &mut Stats,
) -> Enter {
    let forced = |r: usize| Enter::forced(Some(r as u32));
    if s.knuth {
        return knuth::<M, K>(m, s, l, stats);
    }
    // A dead end first: no forced move in a dead state.
    let f = &mut s.forced;
    if f.dead {
        return s.dead_end(m);
    }
    while let Some(j) = f.pop() {
        let j = j as usize;
        let len = at(&s.lens, j);
        debug_assert_ne!(len, 0, "a len of 0 marks the state dead");
        if len == 1 {
            return forced(m.option_at(j, at(&s.masks, j).lowest()));
        }
    }
    let Some((i, len)) = choose(&s.lens[..m.scan]) else {
        return solved::<M, K>(m, s, stats);
    };
    match len {
        0 => s.dead_end(m),
        1 => forced(m.option_at(i, at(&s.masks, i).lowest())),
        _ if s.branches.top < s.intersect_depth || s.propagator.is_some() => {
            let e = looking::<M, K, A>(m, s, l, i, stats);
            // The propagator has judged the chain: the next commit starts
            // another.
            let chain = std::mem::replace(&mut s.chain, u32::MAX);
            if e == Enter::DEAD {
                return s.dead_end_propagated(m, chain);
            }
            e
        }
        _ => branch(m, s, l, i, len),
    }
}

/// Every primary item is covered: a solution, unless the propagator
/// enforces a rule the matrix leaves out (`States::enforce`) and finds it
/// broken, a dead end like any other (its blame scored).
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(super) unsafe fn solved<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &mut States<M>,
    stats: &mut Stats,
) -> Enter {
    if s.enforce && propagated::<M, K>(m, s, 0, stats) == Err(Enter::DEAD) {
        return s.dead_end(m);
    }
    Enter::Solved
}

/// Where a search that propagates branches ([`Scores::pick`], the
/// strategy's rule): the item of most conflict score per option, `i` (the
/// leftmost least len) while none scores and without scores; an item of
/// two options by its options' first items where the strategy asks for
/// pairs. With the item, the bit of its option to try first: the lowest,
/// or a pair's of higher score.
///
/// [`Scores::pick`]: crate::dlx::search::strategy::Scores
pub(super) fn pick<M: Mask>(m: &MasksMatrix, s: &States<M>, i: usize) -> (usize, u32) {
    let mask = |j: usize| s.masks.get(j).map_or(0, |x| x.to_u64());
    if !s.scores.is_on() {
        return (i, mask(i).trailing_zeros());
    }
    // A covered item's len is past `MAX_MASK_OPTIONS`: none to branch on.
    let (lens, most) = (&s.lens[..m.scan], MAX_MASK_OPTIONS as u64);
    // The first item of the option at bit `b` of item `j`.
    let lead = |j: usize, b: u32| {
        let r = m
            .item_start
            .get(j)
            .and_then(|&f| m.item_opt.get(f as usize + b as usize));
        r.and_then(|&r| m.opt_start.get(r as usize))
            .and_then(|&t| m.opt_item.get(t as usize))
            .map_or(j, |&item| item as usize)
    };
    let bits = |j: usize| {
        let both = mask(j);
        (
            both.trailing_zeros(),
            (both & both.wrapping_sub(1)).trailing_zeros(),
        )
    };
    let leads = |j: usize| {
        let (b0, b1) = bits(j);
        (lead(j, b0), lead(j, b1))
    };
    let (best, second) = s.scores.pick(lens, most, i, leads);
    let (b0, b1) = bits(best);
    (best, if second { b1 } else { b0 })
}

/// A node entered by Knuth's rule alone (DLX1's tree): the leftmost item
/// of least len, whatever the forced stack holds, with DLX1's updates for
/// covering it (one, and an option's items less one for each of its
/// options).
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds; `l` is at most the matrix's
/// `max_depth`.
unsafe fn knuth<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &mut States<M>,
    l: usize,
    stats: &mut Stats,
) -> Enter {
    let Some((i, len)) = choose(&s.lens[..m.scan]) else {
        return Enter::Solved;
    };
    let cover = m.cover_cost::<M, K>(i, at(&s.masks, i), len);
    stats.updates += cover;
    match len {
        0 => Enter::DEAD,
        1 => {
            set(&mut s.cover, l, cover);
            Enter::forced(Some(m.option_at(i, at(&s.masks, i).lowest()) as u32))
        }
        _ => {
            set(&mut s.cover, l, cover);
            branch(m, s, l, i, len)
        }
    }
}

/// Saves the state as a new branch point at level `l`, on item `i` of len
/// `len`, and enters its first option.
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
pub(super) unsafe fn branch<M: Mask>(
    m: &MasksMatrix,
    s: &mut States<M>,
    l: usize,
    i: usize,
    len: u8,
) -> Enter {
    let first = at(&s.masks, i).lowest();
    branch_at(m, s, l, (i, first), len)
}

/// Saves the state as a new branch point at level `l`, on item `i` of len
/// `len`, and enters its option at bit `first` (then the others, lowest
/// first).
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds; bit `first` of `i`'s mask is
/// set.
pub(super) unsafe fn branch_at<M: Mask>(
    m: &MasksMatrix,
    s: &mut States<M>,
    l: usize,
    (i, first): (usize, u32),
    len: u8,
) -> Enter {
    let mask = at(&s.masks, i).to_u64();
    let t = s.branches.top;
    s.save(t);
    let b = &mut s.branches;
    if b.level.len() == t {
        b.level.push(0);
        b.item.push(0);
        b.rest.push(0);
        b.hidden.push(false);
    }
    b.level[t] = l as u32;
    b.item[t] = i as u32;
    b.rest[t] = mask & !(1 << first);
    b.hidden[t] = std::mem::take(&mut b.again);
    b.top = t + 1;
    Enter::branch(Some(m.option_at(i, first) as u32), len as u32)
}

/// A node where nothing is forced and the search looks before it branches
/// (on item `i`, unless the look says otherwise): the propagator first,
/// where one is set ([`propagated`]); then, when it looks ahead, at
/// every such node, the probes
/// ([`lookahead::look_ahead`](super::lookahead::look_ahead)); else, near the
/// root, intersections ([`look`]), then what the looks so far say of the
/// nodes below (`States::after_look`). Out of line, so that the plain
/// path's code stays as it was.
#[inline(never)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn looking<M: Mask, const K: usize, const A: bool>(
    m: &MasksMatrix,
    s: &mut States<M>,
    l: usize,
    mut i: usize,
    stats: &mut Stats,
) -> Enter {
    if s.propagator.is_some() {
        i = match propagated::<M, K>(m, s, i, stats) {
            Ok(j) => j,
            Err(enter) => return enter,
        };
        if s.probes.is_none() && s.branches.top >= s.intersect_depth {
            let pick = pick(m, s, i);
            let len = at(&s.lens, pick.0);
            return branch_at(m, s, l, pick, len);
        }
    }
    if let Some(mut probes) = s.probes.take() {
        let enter = super::lookahead::look_ahead::<M, K, A>(m, s, &mut probes, l, stats);
        s.probes = Some(probes);
        return enter;
    }
    let enter = look::<M, K>(m, s, l, i, stats);
    s.after_look();
    enter
}

/// What the state says after options were hidden at a node: a dead end, a
/// forced move, a solution, or (`Ok`) the item of least len to branch on.
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn after_hiding<M: Mask>(m: &MasksMatrix, s: &mut States<M>) -> Result<usize, Enter> {
    let f = &mut s.forced;
    if f.dead {
        return Err(Enter::DEAD);
    }
    while let Some(j) = f.pop() {
        let j = j as usize;
        if at(&s.lens, j) == 1 {
            return Err(Enter::forced(Some(
                m.option_at(j, at(&s.masks, j).lowest()) as u32,
            )));
        }
    }
    match choose(&s.lens[..m.scan]) {
        // Not met: hiding covers no item, and the callers had one
        // uncovered (a solution is entered by `enter_node`, through
        // `solved`, which asks an enforcing propagator).
        None => Err(Enter::Solved),
        Some((_, 0)) => Err(Enter::DEAD),
        Some((j, 1)) => Err(Enter::forced(Some(
            m.option_at(j, at(&s.masks, j).lowest()) as u32,
        ))),
        Some((j, _)) => Ok(j),
    }
}

/// Runs the state's propagator until it hides nothing more or leaves
/// something forced or a dead end: `Ok` with the item to branch on (`i`,
/// or the item of least len it left), else what to enter.
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds; a propagator is set.
unsafe fn propagated<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &mut States<M>,
    mut i: usize,
    stats: &mut Stats,
) -> Result<usize, Enter> {
    let Some(p) = s.propagator.take() else {
        return Ok(i);
    };
    let result = loop {
        let mut live = MasksLive::<M, K> {
            m,
            masks: &mut s.masks,
            lens: &mut s.lens,
            chosen: &s.chosen,
            memory: &mut s.memory,
            push: Push {
                items: &mut s.forced.items,
                top: s.forced.top,
                zero: false,
            },
            updates: 0,
            hidden: 0,
        };
        let alive = p.propagate(&mut live);
        let (top, zero, updates, hidden) =
            (live.push.top, live.push.zero, live.updates, live.hidden);
        s.forced.top = top;
        s.forced.dead |= zero || !alive;
        stats.updates += updates;
        if hidden == 0 && alive {
            break Ok(i);
        }
        match after_hiding(m, s) {
            Ok(j) => i = j,
            Err(enter) => break Err(enter),
        }
    };
    s.propagator = Some(p);
    result
}

/// The masks state as a [`Propagator`] sees it ([`Live`]): the search's
/// masks and lens, hiding as intersections do.
struct MasksLive<'a, M, const K: usize> {
    m: &'a MasksMatrix,
    masks: &'a mut [M],
    lens: &'a mut [u8],
    chosen: &'a [u32],
    memory: &'a mut [u64],
    push: Push<'a>,
    /// Updates (an item an option leaves) and options hidden so far.
    updates: u64,
    hidden: u64,
}

impl<M: Mask, const K: usize> Live for MasksLive<'_, M, K> {
    fn options(&self, item: usize) -> u64 {
        self.masks.get(item).map_or(0, |x| x.to_u64())
    }

    fn options_from(&self, first: usize, out: &mut [u64]) {
        let masks = self.masks.get(first..).unwrap_or(&[]);
        let (known, past) = out.split_at_mut(masks.len().min(out.len()));
        for (o, m) in known.iter_mut().zip(masks) {
            *o = m.to_u64();
        }
        past.fill(0);
    }

    fn option_at(&self, item: usize, bit: u32) -> Option<OptionId> {
        let m = self.m;
        let from = *m.item_start.get(item)? as usize;
        let to = *m.item_start.get(item + 1)? as usize;
        let k = from.checked_add(bit as usize).filter(|&k| k < to)?;
        Some(OptionId::must(m.item_opt[k] as usize))
    }

    fn chosen(&self, item: usize) -> Option<OptionId> {
        let covered = item < self.m.primary && usize::from(self.lens[item]) > MAX_MASK_OPTIONS;
        covered.then(|| OptionId::must(self.chosen[item] as usize))
    }

    fn state(&mut self) -> &mut [u64] {
        self.memory
    }

    fn hide(&mut self, item: usize, options: u64) {
        let Some(&mask) = self.masks.get(item) else {
            return;
        };
        let mut gone = mask & M::from_u64(options);
        self.hidden += u64::from(gone.to_u64().count_ones());
        while !gone.is_zero() {
            // SAFETY: `item` is an item of the matrix (its mask exists) and
            // `gone` holds active options of it only, whose bits are below
            // its option count; hiding them keeps the module's invariants
            // (the forced stack has room for every len that falls to 1 or
            // 0 between two saved states), as intersections do.
            unsafe {
                let q = self.m.option_at(item, gone.lowest());
                gone = gone.drop_lowest();
                let (qf, qt) = self.m.span::<K>(q);
                self.updates += (qt - qf) as u64;
                for u in qf..qt {
                    self.m
                        .hide_slot::<M, true>(self.masks, self.lens, &mut self.push, u);
                }
            }
        }
    }
}

/// Intersections until they hide nothing more, or leave something forced
/// or a dead end, then the branch point on item `i` (or on the item of
/// least len they left); the propagator, where one is set, runs again
/// after each look that hid something.
#[inline(always)]
/// # Safety
/// The arguments hold this module's invariants (its documentation):
/// every index taken from them is in bounds.
unsafe fn look<M: Mask, const K: usize>(
    m: &MasksMatrix,
    s: &mut States<M>,
    l: usize,
    mut i: usize,
    stats: &mut Stats,
) -> Enter {
    s.looks += 1;
    loop {
        let (hidden, options) = m.intersect::<M, K>(&mut s.masks, &mut s.lens, &mut s.forced);
        s.looks_hid += options;
        if hidden == 0 {
            let pick = pick(m, s, i);
            let len = at(&s.lens, pick.0);
            return branch_at(m, s, l, pick, len);
        }
        stats.updates += hidden;
        i = match after_hiding(m, s) {
            Ok(j) => j,
            Err(enter) => return enter,
        };
        if s.propagator.is_some() {
            i = match propagated::<M, K>(m, s, i, stats) {
                Ok(j) => j,
                Err(enter) => return enter,
            };
        }
    }
}

impl<'m> MasksSolver<'m> {
    /// The tables searched (for threads to share).
    pub(crate) fn tables(&self) -> &MasksMatrix {
        &self.matrix
    }

    /// A solver over `matrix`, ready to search with Knuth's rule (as every
    /// engine's solver; [`set_branching`](Self::set_branching) for another).
    pub fn new(matrix: &'m MasksMatrix) -> Self {
        Self::with_rule(Shared::Borrowed(matrix), Branching::Knuth)
    }

    /// A solver over tables it may own.
    pub(crate) fn with_tables(matrix: Shared<'m, MasksMatrix>) -> Self {
        let states = match matrix.width {
            16 => Width::W16(States::new(&matrix)),
            32 => Width::W32(States::new(&matrix)),
            _ => Width::W64(States::new(&matrix)),
        };
        let mut s = MasksSolver {
            driver: Driver::new(matrix.max_depth, matrix.primary),
            states,
            matrix,
        };
        s.reset();
        s
    }

    /// The branching rule: forced moves first (see the module
    /// documentation), which is [`Branching::FirstForced`], and with
    /// [`Branching::Lookahead`] probes at every node where nothing is
    /// forced (`lookahead.rs`); or [`Branching::Knuth`], DLX1's tree with
    /// its nodes and updates (the forced stack unused, no intersections).
    /// Abandons the search in progress.
    pub fn set_branching(&mut self, branching: Branching) -> Result<(), EngineError> {
        EngineKind::Masks.check_rule(branching)?;
        self.set_rule(branching);
        self.restart();
        Ok(())
    }

    /// Searches with `branching` from the next search on.
    fn set_rule(&mut self, branching: Branching) {
        self.look_ahead(branching == Branching::Lookahead);
        by_width!(&mut self.states, s => s.knuth = branching == Branching::Knuth);
    }

    /// A solver over `tables` searching with `branching`, a rule the masks
    /// engine takes (the caller checked it: [`EngineKind::supports`]).
    pub(crate) fn with_rule(tables: Shared<'m, MasksMatrix>, branching: Branching) -> Self {
        debug_assert!(EngineKind::Masks.supports(branching));
        let mut s = Self::with_tables(tables);
        s.set_rule(branching);
        s
    }

    /// Whether nodes where nothing is forced probe (the probes' scratch is
    /// made or dropped).
    fn look_ahead(&mut self, looking: bool) {
        let m = &*self.matrix;
        by_width!(&mut self.states, s => {
            if looking != s.probes.is_some() {
                s.probes = looking.then(|| Box::new(super::lookahead::Probes::new(m, s)));
            }
            s.intersect_depth = s.first_depth();
        });
    }

    /// The branching rule searched with.
    pub fn branching(&self) -> Branching {
        if by_width!(&self.states, s => s.knuth) {
            Branching::Knuth
        } else if by_width!(&self.states, s => s.probes.is_some()) {
            Branching::Lookahead
        } else {
            Branching::FirstForced
        }
    }

    /// Looks for intersections (`MasksMatrix::intersect`: an item with two
    /// options left, both of which have another item, leaves that item's
    /// other options out; locked candidates on Sudoku) at the nodes where
    /// nothing is forced, as `looks` says (default: never). Another tree,
    /// the same solutions: fewer guesses, each node where nothing is forced
    /// dearer, so how far to look is where the guesses saved pay (the
    /// Sudoku layer's choice is measured in BENCHMARKS.md). Only the Sudoku
    /// layer asks for it, for searches it never cuts into subtrees (a
    /// subtree's search could not know how many branch points are above
    /// it).
    pub(crate) fn set_intersections(&mut self, looks: Intersections) {
        let (depth, while_paying) = looks.parts();
        by_width!(&mut self.states, s => {
            s.fixed_depth = depth;
            s.while_paying = while_paying;
            s.intersect_depth = s.first_depth();
        });
    }

    /// Runs `propagator` at the nodes where nothing is forced, searching
    /// first-forced or with lookahead (never by Knuth's rule, whose tree is
    /// DLX1's); `None` for none. See [`Propagator`] for its contract.
    pub fn set_propagator(&mut self, propagator: Option<Arc<dyn Propagator>>, strategy: Strategy) {
        let m = &*self.matrix;
        by_width!(&mut self.states, s => {
            s.propagator = propagator.clone();
            s.enforce = propagator.as_ref().is_some_and(|p| p.enforces());
            s.memory = vec![0; propagator.as_ref().map_or(0, |p| p.state_words())];
            s.scores = if propagator.is_some() {
                Scores::new(m.scan, strategy)
            } else {
                Scores::default()
            };
            s.two_way = propagator.is_some() && strategy.branches_two_ways();
            s.pairs = propagator.is_some() && strategy.branches_on_pairs();
        });
    }

    /// Undoes everything, preselected options included; zeroes the counters.
    pub fn reset(&mut self) {
        let m = &*self.matrix;
        by_width!(&mut self.states, s => s.reset(m));
        self.driver.reset();
    }

    /// Hands over the untried options of the shallowest branch point of
    /// the paused search (after a budget stop or a solution), each as a
    /// subtree: the options chosen above that branch point (preselected ones
    /// not included, as in [`split`](Self::split)'s subtrees), then the
    /// option. This search then skips them, so it and the subtrees' searches
    /// (each after [`preselect_subtree`](Self::preselect_subtree)) find
    /// every solution once between them. `None` when the search is not
    /// paused inside its tree or has no branch point with an option left.
    /// With lookahead the subtrees' searches do not have the removals made
    /// above them, so they make their own.
    pub fn give_away(&mut self) -> Option<Vec<Subtree>> {
        let (m, d) = (&*self.matrix, &mut self.driver);
        // SAFETY: the states were made for these tables by `with_tables` and
        // kept since by the kernel and this solver's preselection; giving
        // away reads the kernel's own branch points, whatever its `K` and
        // `A` (which shape only how options are committed).
        let (path, options) =
            unsafe { by_width!(&mut self.states, s => d.give_away::<Masks<_, 0, false>>(m, s))? };
        Some(Subtree::given_away(&path, &options))
    }

    /// Abandons the search in progress (keeping preselected options).
    pub fn restart(&mut self) {
        // Nothing to undo: the root state is copied in when the search
        // starts (`Kernel::start`).
        let (m, d) = (&*self.matrix, &mut self.driver);
        // SAFETY: the masks kernel does not undo (`UNDOES` is false), so
        // restarting calls none of its steps.
        unsafe { by_width!(&mut self.states, s => d.restart::<Masks<_, 0, false>>(m, s)) };
    }

    /// Commits to `option` before the search (see
    /// [`LinksSolver::preselect`](crate::dlx::LinksSolver::preselect)). Abandons any
    /// search in progress; undone by [`reset`](Self::reset).
    pub fn preselect(&mut self, option: OptionId) -> Result<(), PreselectError> {
        self.preselect_each(std::slice::from_ref(&option))
    }

    /// Replaces every preselection by `options`: as [`reset`](Self::reset)
    /// followed by [`preselect`](Self::preselect) of each, in one call (the
    /// matrix's shape is looked at once, not per option: a Sudoku's givens
    /// are preselected this way). On a refusal nothing is preselected, as
    /// with [`LinksSolver::preselect_all`](crate::dlx::LinksSolver::preselect_all).
    pub fn preselect_all(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
        self.reset();
        let result = self.preselect_each(options);
        if result.is_err() {
            self.reset();
        }
        result
    }

    /// Preselects each of `options` in order, stopping at the first refused.
    fn preselect_each(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
        let m = &*self.matrix;
        let before = self.driver.preselected.len();
        let (held, updates) = (&mut self.driver.preselected, &mut self.driver.stats.updates);
        // SAFETY: the states were made for these tables (`with_tables`);
        // the state's `preselect` refuses an option past the matrix's before
        // it indexes, and each arm commits options as the matrix lays them
        // out (uniform length, alignment, or the general 0).
        let result = unsafe {
            match (m.uniform, m.aligned) {
                (3, false) => {
                    by_width!(&mut self.states, s => s.preselect::<3, false>(m, options, held, updates))
                }
                (3, true) => {
                    by_width!(&mut self.states, s => s.preselect::<3, true>(m, options, held, updates))
                }
                (4, false) => {
                    by_width!(&mut self.states, s => s.preselect::<4, false>(m, options, held, updates))
                }
                (4, true) => {
                    by_width!(&mut self.states, s => s.preselect::<4, true>(m, options, held, updates))
                }
                _ => {
                    by_width!(&mut self.states, s => s.preselect::<0, false>(m, options, held, updates))
                }
            }
        };
        // A search in progress is abandoned once something is preselected
        // (a refused first option changes nothing).
        if self.driver.preselected.len() > before {
            self.restart();
        }
        result
    }

    /// Continues the search to its next solution.
    pub fn next_solution(&mut self) -> Step {
        let (m, d) = (&*self.matrix, &mut self.driver);
        // SAFETY: the states were made for these tables (`with_tables`) and
        // kept since by the kernel and this solver's preselection; each arm
        // names the kernel of the tables' shape (uniform length and
        // alignment, or the general 0), and `by_width!` the masks' width.
        unsafe {
            by_width!(&mut self.states, s => {
                macro_rules! go {
                    ($k:ty) => {
                        d.run::<$k>(m, s)
                    };
                }
                masks_kernels!(match (m.uniform, m.aligned), go;)
            })
        }
    }
}

engine_queries!(MasksSolver, MasksSolutions, |_s, r| Some(OptionId::must(
    r as usize
)));
crate::dlx::search::plain_subtrees!(MasksSolver, EngineKind::Masks);

impl<'m> crate::dlx::engine::Registered<'m> for MasksSolver<'m> {
    type Tables = MasksMatrix;
    const RULES: &'static str = "every rule";
    // Each line of the table for each width.
    const KERNELS: usize = 3 * masks_kernels!(count;);

    fn supports(_branching: Branching) -> bool {
        true
    }

    fn looks_for_intersections(branching: Branching) -> bool {
        branching == Branching::FirstForced
    }

    fn build(matrix: &crate::dlx::Matrix) -> Result<MasksMatrix, String> {
        MasksMatrix::new(matrix).map_err(|e| e.to_string())
    }

    fn options_of(tables: &MasksMatrix) -> Option<usize> {
        Some(tables.option_count())
    }

    fn over(
        _matrix: Shared<'m, crate::dlx::Matrix>,
        tables: Shared<'m, MasksMatrix>,
        branching: Branching,
    ) -> Self {
        MasksSolver::with_rule(tables, branching)
    }

    fn tables_of(&self) -> &MasksMatrix {
        self.tables()
    }

    fn switch_rule(&mut self, branching: Branching) -> Result<(), EngineError> {
        self.set_branching(branching)
    }

    fn preselect_each(&mut self, options: &[OptionId]) -> Result<(), PreselectError> {
        self.preselect_all(options)
    }

    fn hand_over(&mut self) -> Option<Vec<Subtree>> {
        self.give_away()
    }

    fn gives_away(&self) -> bool {
        true
    }

    fn scores(&self) -> Option<Scores> {
        by_width!(&self.states, s => s.scores.is_on().then(|| s.scores.clone()))
    }

    fn seed_scores(&mut self, seed: Option<&Scores>) {
        by_width!(&mut self.states, s => s.scores.seed(seed));
    }

    fn intersect(&mut self, looks: Intersections) -> bool {
        self.set_intersections(looks);
        true
    }

    fn propagates(branching: Branching) -> bool {
        branching != Branching::Knuth
    }

    fn propagate(&mut self, propagator: Option<Arc<dyn Propagator>>, strategy: Strategy) -> bool {
        self.set_propagator(propagator, strategy);
        true
    }
}

#[cfg(test)]
mod tests {
    //! Small searches over every path of the masks engine (each mask width,
    //! uniform and mixed option lengths, secondary items, ignored options,
    //! preselect, budget stop and resume), each against the links engine.
    //! Quick enough for Miri, which checks the unchecked reads and writes.
    use super::*;
    use crate::dlx::search::engine_tests::{self, dense_random, same_solutions_as_links, Clashes};
    use crate::dlx::Budget;
    use crate::dlx::{knuth, MatrixBuilder};
    use crate::problems;

    /// The masks engine against the links engine: the same solutions,
    /// first-forced and by Knuth's rule (then the same counters too).
    fn agree(m: &Matrix) -> u64 {
        let mm = MasksMatrix::new(m).unwrap();
        let mut knuth = MasksSolver::new(&mm);
        let n = same_solutions_as_links(m, &mut knuth);
        let mut links = crate::dlx::LinksSolver::new(m);
        links.count();
        assert_eq!(knuth.stats(), links.stats());
        assert_eq!(same_solutions_as_links(m, &mut first_forced(&mm)), n);
        n
    }

    /// A solver searching first-forced (intersections and lookahead are
    /// first-forced's).
    fn first_forced(mm: &MasksMatrix) -> MasksSolver<'_> {
        let mut s = MasksSolver::new(mm);
        s.set_branching(Branching::FirstForced).unwrap();
        s
    }

    #[test]
    fn same_solutions_as_dlx_on_small_problems() {
        for (m, want) in engine_tests::small_problems() {
            assert_eq!(agree(&m), want);
        }
    }

    #[test]
    fn sudoku_4x4_grids() {
        // All 288 filled 4×4 grids: 64 items of 4 options, 16-bit masks.
        let cover = crate::sudoku::SudokuMatrix::new(2).unwrap();
        let m = MasksMatrix::new(cover.matrix()).unwrap();
        assert_eq!((m.width, m.uniform), (16, 4));
        if cfg!(miri) {
            // The first row given (1 2 3 4): 12 grids, quick under Miri.
            let mut s = MasksSolver::new(&m);
            for c in 0..4 {
                s.preselect(cover.option(0, c, c as u8 + 1)).unwrap();
            }
            let mut n = 0;
            while s.next_solution() == Step::Solution {
                let sol: Vec<_> = s.solution().collect();
                crate::dlx::verify_cover(cover.matrix(), &sol).unwrap();
                n += 1;
            }
            assert_eq!(n, 12);
        } else {
            assert_eq!(agree(cover.matrix()), 288);
        }
    }

    /// Three-dimensional matching on 3 × `n` items: the options
    /// (a, b, c) with a + b + c even, written a-b-c (aligned) or, for
    /// the first option, b-a-c (not aligned).
    fn matching(n: usize, aligned: bool) -> Matrix {
        let mut b = MatrixBuilder::new();
        let g: Vec<Vec<_>> = ["a", "b", "c"]
            .iter()
            .map(|p| {
                (0..n)
                    .map(|k| b.primary(&format!("{p}{k}")).unwrap())
                    .collect()
            })
            .collect();
        for x in 0..n {
            for y in 0..n {
                for z in (0..n).filter(|z| (x + y + z) % 2 == 0) {
                    if !aligned && (x, y, z) == (0, 0, 0) {
                        b.option(&[g[1][y], g[0][x], g[2][z]]).unwrap();
                    } else {
                        b.option(&[g[0][x], g[1][y], g[2][z]]).unwrap();
                    }
                }
            }
        }
        b.build().unwrap()
    }

    #[test]
    fn aligned_matrices() {
        let sudoku = crate::sudoku::SudokuMatrix::new(2).unwrap();
        let queens = problems::queens(6).unwrap();
        let langford = problems::langford(4).unwrap();
        for (m, aligned) in [(sudoku.matrix(), true), (&queens, true), (&langford, false)] {
            assert_eq!(MasksMatrix::new(m).unwrap().aligned, aligned);
        }
        // The same problem either way: the same solutions as links.
        // Not 3: the three triples of a cover would add up to 9, odd.
        let n = if cfg!(miri) { 4 } else { 5 };
        let (yes, no) = (matching(n, true), matching(n, false));
        assert!(MasksMatrix::new(&yes).unwrap().aligned);
        assert!(!MasksMatrix::new(&no).unwrap().aligned);
        let count = agree(&yes);
        assert!(count > 0);
        assert_eq!(agree(&no), count);
    }

    #[test]
    fn secondary_items_and_ignored_options() {
        // `s` is in 280 + 8 options: 64-bit masks would not hold it.
        let (m, ..) = engine_tests::wide(8);
        assert_eq!(MasksMatrix::new(&m).unwrap_err(), MasksError::LongItem(288));
        // With 30 options of `s` alone (32-bit masks), mixed lengths.
        let mut b = MatrixBuilder::new();
        let x: Vec<_> = (0..4)
            .map(|k| b.primary(&format!("x{k}")).unwrap())
            .collect();
        let s = b.secondary("s").unwrap();
        for _ in 0..20 {
            b.option(&[s]).unwrap();
        }
        for k in 0..8 {
            b.option(&[x[k % 4], x[(k + 1) % 4], s]).unwrap();
            b.option(&[x[k % 4]]).unwrap();
        }
        let m = b.build().unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        assert_eq!((mm.width, mm.uniform), (32, 0));
        assert_eq!(agree(&m), 48);
        let mut solver = MasksSolver::new(&mm);
        assert_eq!(
            solver.preselect(OptionId::must(1)),
            Err(PreselectError::IgnoredOption(OptionId::must(1)))
        );
    }

    #[test]
    fn wide_masks() {
        // Langford pairs 8 and queens 8: 16-bit masks, 3 and 4 items an
        // option.
        // (Under Miri, Langford pairs 4 and queens 6.)
        let (l, q) = if cfg!(miri) { (4, 6) } else { (8, 8) };
        let m = problems::langford(l).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        assert_eq!((mm.width, mm.uniform), (16, 3));
        assert_eq!(agree(&m), if cfg!(miri) { 2 } else { 300 });
        let m = problems::queens(q).unwrap();
        assert_eq!(agree(&m), if cfg!(miri) { 4 } else { 92 });
        // One item in 40 options: 64-bit masks.
        let mut b = MatrixBuilder::new();
        let a = b.primary("a").unwrap();
        let c = b.primary("c").unwrap();
        for k in 0..40 {
            if k % 3 == 0 {
                b.option(&[a, c]).unwrap();
            } else {
                b.option(&[a]).unwrap();
            }
        }
        b.option(&[c]).unwrap();
        let m = b.build().unwrap();
        assert_eq!(MasksMatrix::new(&m).unwrap().width, 64);
        assert_eq!(agree(&m), 14 + 26);
    }

    #[test]
    fn intersections_keep_every_solution() {
        use rand::SeedableRng;
        // Sudoku 4×4 (pointing and claiming), the small problems, and
        // random matrices: with intersections at every depth, the links
        // engine's solutions; and the tree is another in some of them.
        let cases = if cfg!(miri) { 3 } else { 600 };
        let mut rng = rand::rngs::StdRng::seed_from_u64(19);
        let sudoku = crate::sudoku::SudokuMatrix::new(2).unwrap();
        let mut matrices = vec![sudoku.matrix().clone()];
        matrices.extend(engine_tests::small_problems().into_iter().map(|(m, _)| m));
        matrices.extend((0..cases).map(|_| dense_random(&mut rng)));
        let mut other_trees = 0;
        for (k, m) in matrices.iter().enumerate() {
            let mm = MasksMatrix::new(m).unwrap();
            let mut plain = first_forced(&mm);
            let mut looking = first_forced(&mm);
            looking.set_intersections(Intersections::Depth(usize::MAX));
            let mut auto = first_forced(&mm);
            auto.set_intersections(Intersections::Auto);
            if cfg!(miri) && k == 0 {
                // Sudoku 4×4 under Miri: the first row given.
                for s in [&mut plain, &mut looking] {
                    for c in 0..4 {
                        s.preselect(sudoku.option(0, c, c as u8 + 1)).unwrap();
                    }
                }
                assert_eq!(looking.count().solutions, plain.count().solutions);
                other_trees += usize::from(plain.stats() != looking.stats());
                continue;
            }
            let n = same_solutions_as_links(m, &mut looking);
            assert_eq!(plain.count().solutions, n);
            assert_eq!(same_solutions_as_links(m, &mut auto), n);
            other_trees += usize::from(plain.stats() != looking.stats());
        }
        assert!(other_trees > 0, "no intersection was ever found");
    }

    #[test]
    fn a_propagator_keeps_every_solution_and_prunes() {
        use rand::SeedableRng;
        // Random matrices, Sudoku 4×4 and the small problems, first-forced
        // and with lookahead: with the clash propagator, the links engine's
        // solutions; it runs, hides options, and `chosen` names the
        // options that covered items.
        let cases = if cfg!(miri) { 3 } else { 400 };
        let mut rng = rand::rngs::StdRng::seed_from_u64(31);
        let sudoku = crate::sudoku::SudokuMatrix::new(2).unwrap();
        let mut matrices = vec![];
        if !cfg!(miri) {
            matrices.push(sudoku.matrix().clone());
            matrices.extend(engine_tests::small_problems().into_iter().map(|(m, _)| m));
        }
        matrices.extend((0..cases).map(|_| dense_random(&mut rng)));
        let (mut runs, mut hid, mut seen) = (0, 0, 0);
        for m in &matrices {
            let mm = MasksMatrix::new(m).unwrap();
            for rule in [Branching::FirstForced, Branching::Lookahead] {
                let p = Clashes::new(m);
                let mut s = MasksSolver::new(&mm);
                s.set_branching(rule).unwrap();
                s.set_propagator(Some(p.clone()), Strategy::new());
                same_solutions_as_links(m, &mut s);
                runs += Clashes::count(&p.runs);
                hid += Clashes::count(&p.hid);
                seen += Clashes::count(&p.chosen_seen);
                assert_eq!(Clashes::count(&p.chosen_wrong), 0);
            }
        }
        if !cfg!(miri) {
            assert!(
                runs > 100 && hid > 20 && seen > 20,
                "{runs} runs, {hid} hidden, {seen} chosen"
            );
        }
    }

    /// A propagator that keeps, in its words of the state, the number of
    /// active options its last call on the path saw (word 0) and how many
    /// calls the path has had (word 1), and counts the calls that found
    /// more options than the path's last call did (none, where the words
    /// are restored with the state: options only go along a path) and
    /// those that found the words zero (a search's first call, or one
    /// just after a dead end's).
    #[derive(Debug)]
    struct PathWords {
        inner: Arc<Clashes>,
        items: usize,
        calls: std::sync::atomic::AtomicU64,
        fresh: std::sync::atomic::AtomicU64,
        grown: std::sync::atomic::AtomicU64,
        deepest: std::sync::atomic::AtomicU64,
    }

    impl Propagator for PathWords {
        fn propagate(&self, live: &mut dyn Live) -> bool {
            use std::sync::atomic::Ordering::Relaxed;
            let now: u64 = (0..self.items)
                .map(|i| u64::from(live.options(i).count_ones()))
                .sum();
            let state = live.state();
            assert_eq!(state.len(), 2, "the words asked for");
            self.calls.fetch_add(1, Relaxed);
            if state[1] == 0 {
                self.fresh.fetch_add(1, Relaxed);
            } else if now > state[0] {
                self.grown.fetch_add(1, Relaxed);
            }
            state[0] = now;
            state[1] += 1;
            self.deepest.fetch_max(state[1], Relaxed);
            self.inner.propagate(live)
        }

        fn state_words(&self) -> usize {
            2
        }
    }

    #[test]
    fn a_propagators_words_are_restored_with_the_state() {
        use rand::SeedableRng;
        use std::sync::atomic::Ordering::Relaxed;
        // Random matrices and queens 6, one way and two ways: the words a
        // call finds are those the last call on its path left (never a
        // count of options larger than the one it sees: the words of a
        // deeper node, not restored, would be), zero as each search
        // starts; the solutions are the links engine's.
        let mut rng = rand::rngs::StdRng::seed_from_u64(47);
        let mut matrices: Vec<Matrix> = (0..if cfg!(miri) { 3 } else { 200 })
            .map(|_| dense_random(&mut rng))
            .collect();
        if !cfg!(miri) {
            matrices.push(problems::queens(6).unwrap());
        }
        let (mut calls, mut fresh, mut deepest, mut searches) = (0, 0, 0, 0);
        for m in &matrices {
            let mm = MasksMatrix::new(m).unwrap();
            for two_way in [false, true] {
                let inner = Clashes::new(m);
                let p = Arc::new(PathWords {
                    inner,
                    items: m.item_count(),
                    calls: 0.into(),
                    fresh: 0.into(),
                    grown: 0.into(),
                    deepest: 0.into(),
                });
                let mut s = MasksSolver::new(&mm);
                s.set_branching(Branching::FirstForced).unwrap();
                let propagator: Arc<dyn Propagator> = p.clone();
                s.set_propagator(Some(propagator), Strategy::new().two_way(two_way));
                same_solutions_as_links(m, &mut s);
                // A second search starts from zero words again.
                let before = p.fresh.load(Relaxed);
                s.restart();
                s.count();
                searches += 2;
                assert!(p.calls.load(Relaxed) == 0 || p.fresh.load(Relaxed) > before);
                assert_eq!(p.grown.load(Relaxed), 0, "words of another path");
                calls += p.calls.load(Relaxed);
                fresh += p.fresh.load(Relaxed);
                deepest = deepest.max(p.deepest.load(Relaxed));
            }
        }
        if !cfg!(miri) {
            assert!(
                calls > 4 * fresh && deepest > 3 && fresh >= searches / 2,
                "{calls} calls, {fresh} from zero, {deepest} deep, {searches} searches"
            );
        }
    }

    #[test]
    fn pairs_branch_on_an_item_of_two_by_its_options_cells() {
        // Sudoku 4×4: cell 0 with its four digits, row 0's digit 1 left
        // in cells 1 and 2 (item 16, two options). With pairs, the row's
        // digit scores half its higher cell's score, wins where that is at
        // least cell 0's score per option, and the option of that cell
        // goes first; a cell of two is scored as itself, and wins a tie.
        let sudoku = crate::sudoku::SudokuMatrix::new(2).unwrap();
        let m = sudoku.matrix();
        let mm = MasksMatrix::new(m).unwrap();
        let mut st = States::<u16>::new(&mm);
        st.lens.fill(u8::MAX);
        let row = 16;
        // The bit of `row`'s option in cell `c`.
        let bit = |c: usize| {
            (0..4u32)
                .find(|&b| {
                    let r = mm.item_opt[mm.item_start[row] as usize + b as usize];
                    m.option_items(OptionId::must(r as usize)).next().unwrap().0
                        == crate::dlx::ItemId::must(c)
                })
                .unwrap()
        };
        st.masks[row] = (1 << bit(1)) | (1 << bit(2));
        (st.lens[0], st.lens[row]) = (4, 2);
        let scores = |pairs: bool, x: &[(usize, u32)]| {
            let mut s = Scores::new(mm.scan, Strategy::new().pairs(pairs));
            for &(j, x) in x {
                s.set(j, x);
            }
            s
        };
        st.scores = scores(false, &[(0, 4), (1, 1), (2, 3)]);
        assert_eq!(pick(&mm, &st, 0), (0, 0), "no pairs asked");
        st.scores = scores(true, &[(0, 4), (1, 1), (2, 3)]);
        assert_eq!(pick(&mm, &st, 0), (row, bit(2)));
        // 2 / 2 = 4 / 4: the pair
        st.scores = scores(true, &[(0, 4), (1, 2), (2, 1)]);
        assert_eq!(pick(&mm, &st, 0), (row, bit(1)));
        // 1 / 2 below 4 / 4
        st.scores = scores(true, &[(0, 4), (1, 1), (2, 1)]);
        assert_eq!(pick(&mm, &st, 0), (0, 0));
        // Cell 0 at two options: pairs are not looked for.
        st.lens[0] = 2;
        st.masks[0] = 0b1100;
        st.scores = scores(true, &[(0, 4), (1, 9), (2, 9)]);
        assert_eq!(pick(&mm, &st, 0), (0, 2));
        st.lens[0] = 4;
        st.masks[0] = 0b1111;
        // Cell 5 of two at 20: 20 / 2 = 40 / 4, a tie, which an item of
        // two wins; at 19 it does not.
        (st.lens[5], st.masks[5]) = (2, 0b110);
        st.scores = scores(true, &[(0, 40), (1, 9), (2, 9), (5, 20)]);
        assert_eq!(pick(&mm, &st, 0), (5, 1));
        st.scores = scores(true, &[(0, 40), (1, 9), (2, 9), (5, 19)]);
        assert_eq!(pick(&mm, &st, 0), (0, 0));
    }

    #[test]
    fn conflict_scores_choose_where_to_branch() {
        // `pick`: the most score per option among items of len 2 or more,
        // the first on a tie; the leftmost least len while none scores.
        let m = problems::queens(6).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        let mut st = States::<u64>::new(&mm);
        st.lens.fill(u8::MAX);
        (st.lens[0], st.lens[1], st.lens[2], st.lens[5]) = (3, 2, 4, 1);
        st.scores = Scores::new(mm.scan, Strategy::new());
        assert_eq!(pick(&mm, &st, 1).0, 1);
        st.scores.set(0, 3);
        st.scores.set(2, 8);
        assert_eq!(pick(&mm, &st, 1).0, 2);
        st.scores.set(1, 4); // 4 / 2 = 8 / 4: the first
        assert_eq!(pick(&mm, &st, 1).0, 1);
        st.scores.set(5, 100); // forced: never
        st.scores.set(7, 100); // covered: never
        assert_eq!(pick(&mm, &st, 1).0, 1);
        st.scores = Scores::default();
        assert_eq!(pick(&mm, &st, 0).0, 0);
        // A dead end is blamed on each item of the option committed last
        // (of those the lens scan), and on nothing before a commit.
        st.scores = Scores::new(mm.scan, Strategy::new());
        assert_eq!(st.dead_end(&mm), Enter::DEAD);
        assert!(st.scores.all().iter().all(|&x| x == 0));
        st.last = 7;
        st.dead_end(&mm);
        st.dead_end(&mm);
        let mine: Vec<usize> = mm.option(7).iter().map(|&i| i as usize).collect();
        for (j, &x) in st.scores.all().iter().enumerate() {
            let want = if mine.contains(&j) { 2 } else { 0 };
            assert_eq!(x, want, "item {j} of {mine:?}");
        }
        // With `Blame::FirstItem`, on the option's first item alone.
        let mut first = Scores::new(mm.scan, Strategy::new().blame(crate::dlx::Blame::FirstItem));
        for (j, &x) in st.scores.all().iter().enumerate() {
            first.set(j, x);
        }
        st.scores = first;
        st.dead_end(&mm);
        for (j, &x) in st.scores.all().iter().enumerate() {
            let want = if j == mine[0] {
                3
            } else if mine.contains(&j) {
                2
            } else {
                0
            };
            assert_eq!(x, want, "item {j} of {mine:?}");
        }
        // A dead end the propagator found is blamed on the chain's first
        // option too, where it is another; on the last alone where the
        // chain is the last or none.
        let other = (0..mm.opt_start.len() - 1)
            .find(|&r| r != 7 && !mm.option(r).is_empty())
            .unwrap();
        let theirs: Vec<usize> = mm.option(other).iter().map(|&i| i as usize).collect();
        let count = |j: usize| usize::from(mine.contains(&j)) + usize::from(theirs.contains(&j));
        st.scores = Scores::new(mm.scan, Strategy::new());
        st.dead_end_propagated(&mm, other as u32);
        for (j, &x) in st.scores.all().iter().enumerate() {
            assert_eq!(x as usize, count(j), "item {j} of {mine:?} and {theirs:?}");
        }
        assert_eq!(st.last, 7);
        st.scores = Scores::new(mm.scan, Strategy::new());
        st.dead_end_propagated(&mm, 7);
        st.dead_end_propagated(&mm, u32::MAX);
        for (j, &x) in st.scores.all().iter().enumerate() {
            let want = if mine.contains(&j) { 2 } else { 0 };
            assert_eq!(x, want, "item {j} of {mine:?}");
        }
        // A search with a propagator scores its dead ends; one without
        // keeps none; each search starts from nothing (the same search
        // twice, the same scores).
        // (Under Miri, queens 6 and a propagator that hides nothing: the
        // search's own dead ends score. With the clash propagator, the
        // test's own brute force, it took 260 s there.)
        let (n, all) = if cfg!(miri) { (6, 4) } else { (8, 92) };
        let m = problems::queens(n).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        let mut s = first_forced(&mm);
        let scored =
            |s: &MasksSolver<'_>| by_width!(&s.states, st => st.scores.all().iter().sum::<u32>());
        assert_eq!(s.count().solutions, all);
        assert_eq!(scored(&s), 0);
        let propagator: Arc<dyn Propagator> = match cfg!(miri) {
            true => Arc::new(Idle),
            false => Clashes::new(&m),
        };
        s.set_propagator(Some(propagator), Strategy::new());
        assert_eq!(s.count().solutions, all);
        let once = scored(&s);
        assert!(once > 0, "{once}");
        if cfg!(miri) {
            // The searches below run the kernel's code above again.
            return;
        }
        s.restart();
        assert_eq!(s.count().solutions, all);
        assert_eq!(scored(&s), once);
        // A strategy that asks for the first item's blame gets it: the
        // same dead ends score fewer items, and the solutions stay.
        let first = Strategy::new().blame(crate::dlx::Blame::FirstItem);
        s.set_propagator(Some(Clashes::new(&m)), first);
        assert!(by_width!(&s.states, st => st.scores.strategy() == first));
        assert_eq!(s.count().solutions, all);
        let first = scored(&s);
        assert!(0 < first && first < once, "{first} of {once}");
    }

    #[test]
    fn the_items_a_strategy_leads_with_start_at_its_score() {
        // `Strategy::lead`: those items' scores start at its score as a
        // search starts (clipped to the scanned items), so `pick` takes the
        // one of them with fewest options over an item of fewer outside
        // them.
        let m = problems::queens(6).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        let mut s = first_forced(&mm);
        s.set_propagator(Some(Arc::new(Idle)), Strategy::new().lead(4, 1));
        // As a search starts (`Kernel::start`).
        by_width!(&mut s.states, st => st.restart());
        let scores = by_width!(&s.states, st => st.scores.all().to_vec());
        let want: Vec<u32> = (0..mm.scan).map(|j| u32::from(j < 4)).collect();
        assert_eq!(scores, want);
        let mut st = States::<u64>::new(&mm);
        st.lens.fill(u8::MAX);
        (st.lens[0], st.lens[2], st.lens[3], st.lens[5]) = (5, 5, 4, 2);
        st.scores = Scores::new(mm.scan, Strategy::new().lead(4, 1));
        assert_eq!(pick(&mm, &st, 5).0, 3);
        // Past the scanned items: clipped, never out of bounds.
        s.set_propagator(Some(Arc::new(Idle)), Strategy::new().lead(usize::MAX, 2));
        by_width!(&mut s.states, st => st.restart());
        let scores = by_width!(&s.states, st => st.scores.all().to_vec());
        assert_eq!(scores, vec![2; mm.scan]);
        // None named: all start at 0, and the search finds what it did.
        s.set_propagator(Some(Arc::new(Idle)), Strategy::new());
        assert_eq!(s.count().solutions, 4);
    }

    /// A propagator that hides nothing.
    #[derive(Debug)]
    struct Idle;

    impl Propagator for Idle {
        fn propagate(&self, _live: &mut dyn Live) -> bool {
            true
        }
    }

    #[test]
    fn two_ways_and_pairs_keep_every_solution() {
        use rand::SeedableRng;
        // Random matrices, Sudoku 4×4 and the small problems, first-forced
        // and with lookahead, with a propagator that hides nothing and with
        // the clash propagator: two ways, the links engine's solutions, in
        // a tree another than one way's (in some); a budget that pauses
        // the search every 3 nodes (in a node entered again, too) leaves
        // the same search; a split's subtrees and the solutions above its
        // cut are every solution once (no node above the cut is entered
        // again, so a subtree is its path).
        // (Under Miri one random matrix, without the clash propagator, the
        // test's own brute force.)
        let cases = if cfg!(miri) { 1 } else { 150 };
        let mut rng = rand::rngs::StdRng::seed_from_u64(37);
        let sudoku = crate::sudoku::SudokuMatrix::new(2).unwrap();
        let mut matrices = vec![];
        if !cfg!(miri) {
            matrices.push(sudoku.matrix().clone());
            matrices.push(problems::queens(7).unwrap());
            matrices.extend(engine_tests::small_problems().into_iter().map(|(m, _)| m));
        }
        matrices.extend((0..cases).map(|_| dense_random(&mut rng)));
        // The same with pairs (`pick`: an item of two options branched on
        // by its options' first items), one way and two ways.
        let (mut differ, mut paused, mut split) = ([0; 3], 0, 0);
        for m in &matrices {
            let mm = MasksMatrix::new(m).unwrap();
            for (rule, clashes, ways) in ways_to_branch() {
                // (Under Miri, two ways with pairs and without.)
                if (clashes || ways == 1) && cfg!(miri) {
                    continue;
                }
                let inner = || -> Arc<dyn Propagator> {
                    match clashes {
                        true => Clashes::new(m),
                        false => Arc::new(Idle),
                    }
                };
                // Two ways, pairs one way, pairs two ways; `false`: one
                // way without pairs.
                let solver = |asked: bool| {
                    let mut s = MasksSolver::new(&mm);
                    s.set_branching(rule).unwrap();
                    let strategy = match (asked, ways) {
                        (false, _) => Strategy::new(),
                        (true, 0) => Strategy::new().two_way(true),
                        (true, w) => Strategy::new().pairs(true).two_way(w == 2),
                    };
                    s.set_propagator(Some(inner()), strategy);
                    s
                };
                let mut two = solver(true);
                assert_eq!(by_width!(&two.states, st => st.two_way), ways != 1);
                assert_eq!(by_width!(&two.states, st => st.pairs), ways != 0);
                let all = same_solutions_as_links(m, &mut two);
                let mut one = solver(false);
                assert!(!by_width!(&one.states, st => st.two_way || st.pairs));
                assert_eq!(one.count().solutions, all);
                differ[ways] += u32::from(one.stats() != two.stats());
                if all > 0 && paused < 60 {
                    paused += 1;
                    engine_tests::budget_pauses_and_resumes(
                        &mut solver(true),
                        &mut solver(true),
                        3,
                    );
                }
                if split < 60 {
                    split += 1;
                    let mut s = solver(true);
                    let mut found: Vec<Vec<OptionId>> = Vec::new();
                    let mut subtrees = Vec::new();
                    s.split(2, |piece| match piece {
                        crate::dlx::Split::Subtree(sub) => subtrees.push(sub.clone()),
                        crate::dlx::Split::Solution(sol) => found.push(sol.to_vec()),
                    })
                    .unwrap();
                    for sub in &subtrees {
                        let mut below = solver(true);
                        below.preselect_subtree(sub).unwrap();
                        while below.next_solution() == Step::Solution {
                            found.push(below.solution().collect());
                        }
                    }
                    for sol in &mut found {
                        sol.sort();
                    }
                    found.sort();
                    let mut want: Vec<Vec<OptionId>> = crate::dlx::LinksSolver::new(m)
                        .solutions()
                        .map(|mut v| {
                            v.sort();
                            v
                        })
                        .collect();
                    want.sort();
                    assert_eq!(found, want, "{rule:?}, split");
                }
            }
        }
        if !cfg!(miri) {
            assert!(
                // Pairs one way are rare here (an item of two options
                // beside a best item of more, both scored).
                differ[0] > 10 && differ[1] > 0 && differ[2] > 10 && paused > 10,
                "{differ:?} trees differ, {paused} paused"
            );
        }
    }

    /// Each branching rule, with the clash propagator or not, and each
    /// way of [`two_ways_and_pairs_keep_every_solution`]: two ways, pairs,
    /// both.
    fn ways_to_branch() -> impl Iterator<Item = (Branching, bool, usize)> {
        [Branching::FirstForced, Branching::Lookahead]
            .into_iter()
            .flat_map(|r| [false, true].into_iter().map(move |c| (r, c)))
            .flat_map(|(r, c)| (0..3).map(move |w| (r, c, w)))
    }

    #[test]
    fn two_ways_the_fraction_done_stays_below_one_until_the_end() {
        // Queens 8 with the clash propagator, two ways, a progress report
        // at every node, read at every pause of a budget of 5 nodes: the
        // fraction done (DLX1's estimate, which may fall as the search goes
        // deeper) stays below one until the end, where it is one, however
        // many times a level is entered again.
        // (Under Miri, queens 6 without the clash propagator.)
        let m = problems::queens(if cfg!(miri) { 6 } else { 8 }).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        let mut s = first_forced(&mm);
        let inner: Arc<dyn Propagator> = match cfg!(miri) {
            true => Arc::new(Idle),
            false => Clashes::new(&m),
        };
        s.set_propagator(Some(inner), Strategy::new().two_way(true));
        let progress = Arc::new(crate::dlx::Progress::new());
        s.report_progress(Some(progress.clone()), 1);
        let (mut most, mut nodes, mut reads) = (0.0f64, 5, 0);
        loop {
            s.set_budget(Budget {
                nodes: Some(nodes),
                updates: None,
            });
            match s.next_solution() {
                Step::Budget => nodes += 5,
                Step::Solution => {}
                Step::Exhausted => break,
            }
            let f = progress.fraction();
            assert!((0.0..1.0).contains(&f), "{f}");
            (most, reads) = (most.max(f), reads + 1);
        }
        assert_eq!(progress.fraction(), 1.0);
        if !cfg!(miri) {
            assert!(reads > 10 && most > 0.5, "{reads} reads, {most} at most");
        }
    }

    /// A propagator that finds every node a dead end.
    #[derive(Debug)]
    struct Dead;

    impl Propagator for Dead {
        fn propagate(&self, _live: &mut dyn Live) -> bool {
            false
        }
    }

    #[test]
    fn a_dead_end_from_a_propagator_is_one_and_knuth_runs_none() {
        // Queens 6 has 4 solutions and branch points: a propagator that
        // says "dead" everywhere leaves none, first-forced; the front door
        // refuses one for Knuth's rule and for links looking ahead, by
        // name.
        let m = problems::queens(6).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        let mut s = first_forced(&mm);
        s.set_propagator(Some(Arc::new(Dead)), Strategy::new());
        assert_eq!(s.count().solutions, 0);
        s.set_propagator(None, Strategy::new());
        assert_eq!(s.count().solutions, 4);
        let mut knuth = crate::dlx::Solver::new(&m);
        let e = knuth.set_propagator(Some(Arc::new(Dead))).unwrap_err();
        assert!(e.to_string().contains("knuth"), "{e}");
        assert_eq!(knuth.count().solutions, 4);
        // Dense and links run it first-forced, links not with lookahead.
        let config = crate::dlx::Config::new()
            .engine(EngineKind::Dense)
            .branching(Branching::FirstForced);
        let mut dense = crate::dlx::Solver::with_config(&m, config).unwrap();
        dense.set_propagator(Some(Arc::new(Dead))).unwrap();
        assert_eq!(dense.count().solutions, 0);
        let config = config.engine(EngineKind::Links);
        let mut links = crate::dlx::Solver::with_config(&m, config).unwrap();
        links.set_propagator(Some(Arc::new(Dead))).unwrap();
        assert_eq!(links.count().solutions, 0);
        let config = config.branching(Branching::Lookahead);
        let mut links = crate::dlx::Solver::with_config(&m, config).unwrap();
        let e = links.set_propagator(Some(Arc::new(Dead))).unwrap_err();
        assert!(e.to_string().contains("links"), "{e}");
        let config = crate::dlx::Config::new().branching(Branching::FirstForced);
        let mut masks = crate::dlx::Solver::with_config(&m, config).unwrap();
        assert_eq!(masks.engine(), EngineKind::Masks);
        masks.set_propagator(Some(Arc::new(Dead))).unwrap();
        assert_eq!(masks.count().solutions, 0);
        assert!(EngineKind::Masks.propagates(Branching::Lookahead));
        assert!(!EngineKind::Masks.propagates(Branching::Knuth));
    }

    /// A propagator that enforces a rule the matrix leaves out: no
    /// solution holds option `banned`. It hides nothing; at a full cover
    /// it finds the rule broken where one of the `primary` items was
    /// covered by `banned`.
    #[derive(Debug)]
    struct Ban {
        banned: usize,
        primary: usize,
        enforcing: bool,
    }

    impl Propagator for Ban {
        fn propagate(&self, live: &mut dyn Live) -> bool {
            let full = (0..self.primary).all(|i| live.chosen(i).is_some());
            let chose = |i| live.chosen(i).is_some_and(|o| o.as_usize() == self.banned);
            !(full && (0..self.primary).any(chose))
        }

        fn enforces(&self) -> bool {
            self.enforcing
        }
    }

    #[test]
    fn an_enforcing_propagator_is_asked_at_every_solution() {
        // Queens 8 has 92 solutions (5, under Miri, 10); those without option `banned` are
        // the answers where a propagator enforces its ban, found at the
        // solutions alone (it hides nothing), first-forced and looking
        // ahead. One that says it enforces nothing is not asked there.
        let m = problems::queens(if cfg!(miri) { 5 } else { 8 }).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        let all = crate::dlx::Solver::new(&m).count().solutions;
        let mut banned_some = false;
        for banned in [0, 5, 17] {
            let mut with = crate::dlx::Solver::new(&m);
            with.preselect_all(&[OptionId::must(banned)]).unwrap();
            let want = all - with.count().solutions;
            banned_some |= want < all;
            for rule in [Branching::FirstForced, Branching::Lookahead] {
                for enforcing in [true, false] {
                    let mut s = MasksSolver::new(&mm);
                    s.set_branching(rule).unwrap();
                    let primary = m.primary_count();
                    s.set_propagator(
                        Some(Arc::new(Ban {
                            banned,
                            primary,
                            enforcing,
                        })),
                        Strategy::new(),
                    );
                    let count = s.count().solutions;
                    assert_eq!(count, if enforcing { want } else { all }, "{rule:?}");
                }
            }
        }
        assert!(banned_some);
    }

    #[test]
    fn lookahead_keeps_every_solution() {
        use rand::SeedableRng;
        // Sudoku 4×4, the small problems and random matrices: looking
        // ahead, the links engine's solutions; options are pruned, and the
        // tree is another than first-forced's, in some of them.
        let cases = if cfg!(miri) { 2 } else { 600 };
        let mut rng = rand::rngs::StdRng::seed_from_u64(23);
        let sudoku = crate::sudoku::SudokuMatrix::new(2).unwrap();
        let mut matrices = vec![problems::queens(if cfg!(miri) { 5 } else { 8 }).unwrap()];
        if !cfg!(miri) {
            matrices.push(sudoku.matrix().clone());
        }
        matrices.extend(engine_tests::small_problems().into_iter().map(|(m, _)| m));
        matrices.extend((0..cases).map(|_| dense_random(&mut rng)));
        let (mut pruned, mut other_trees) = (0, 0);
        for m in &matrices {
            let mm = MasksMatrix::new(m).unwrap();
            let mut plain = first_forced(&mm);
            let mut looking = first_forced(&mm);
            looking.set_branching(Branching::Lookahead).unwrap();
            assert_eq!(looking.branching(), Branching::Lookahead);
            let n = same_solutions_as_links(m, &mut looking);
            assert_eq!(plain.count().solutions, n);
            pruned += looking.stats().pruned;
            other_trees += usize::from(plain.stats().nodes != looking.stats().nodes);
            // Back to first-forced: its own tree again.
            looking.set_branching(Branching::FirstForced).unwrap();
            looking.reset();
            looking.count();
            assert_eq!(looking.stats(), plain.stats());
        }
        assert!(pruned > 0 && other_trees > 0, "{pruned} {other_trees}");
    }

    /// Searches below `sub` (of key `key`) with `rule`, pausing every two
    /// nodes and at each solution to give away what it can; the pieces
    /// given away are searched the same way. Every solution found goes to
    /// `found` (its options sorted) with a key in search order: the
    /// search's own, which becomes `key·0` when it first gives pieces away,
    /// `key·0·0` the next time, and so on, the pieces given being
    /// `key·1, key·2…` in the order returned. Returns the pieces given away.
    fn search_giving_away(
        mm: &MasksMatrix,
        rule: Branching,
        two_way: bool,
        sub: &Subtree,
        mut key: Vec<u32>,
        found: &mut Vec<(Vec<u32>, Vec<OptionId>)>,
    ) -> usize {
        let mut s = MasksSolver::new(mm);
        s.set_branching(rule).unwrap();
        if two_way {
            s.set_propagator(Some(Arc::new(Idle)), Strategy::new().two_way(true));
        }
        s.preselect_subtree(sub).unwrap();
        let mut pieces = Vec::new();
        let mut nodes = 2;
        loop {
            s.set_budget(Budget {
                nodes: Some(nodes),
                updates: None,
            });
            match s.next_solution() {
                Step::Solution => {
                    let mut sol: Vec<OptionId> = s.solution().collect();
                    sol.sort();
                    found.push((key.clone(), sol));
                }
                Step::Budget => nodes += 2,
                Step::Exhausted => break,
            }
            if let Some(given) = s.give_away() {
                for (k, below) in given.iter().enumerate() {
                    // What is given away lies below `sub`, whose options
                    // the search has preselected and does not name.
                    let mut piece = sub.clone();
                    piece.extend(below);
                    let mut piece_key = key.clone();
                    piece_key.push(k as u32 + 1);
                    pieces.push((piece_key, piece));
                }
                key.push(0);
            }
        }
        assert!(s.give_away().is_none(), "an exhausted search gives nothing");
        let mut given = pieces.len();
        for (piece_key, piece) in pieces {
            given += search_giving_away(mm, rule, two_way, &piece, piece_key, found);
        }
        given
    }

    #[test]
    fn pieces_given_away_and_the_rest_find_each_solution_once() {
        // The small problems (queens 5 the largest under Miri), then
        // queens 8 and the 4×4 Sudoku grids.
        let mut matrices: Vec<Matrix> = (engine_tests::small_problems().into_iter())
            .map(|(m, _)| m)
            .collect();
        if !cfg!(miri) {
            matrices.push(problems::queens(8).unwrap());
            let sudoku = crate::sudoku::SudokuMatrix::new(2).unwrap();
            matrices.push(sudoku.matrix().clone());
        }
        let mut given = 0;
        for m in &matrices {
            let mm = MasksMatrix::new(m).unwrap();
            for rule in [Branching::FirstForced, Branching::Lookahead] {
                let mut whole = MasksSolver::new(&mm);
                whole.set_branching(rule).unwrap();
                let mut want = Vec::new();
                while whole.next_solution() == Step::Solution {
                    let mut sol: Vec<OptionId> = whole.solution().collect();
                    sol.sort();
                    want.push(sol);
                }
                // Two ways, the pieces' searches (each with scores of its
                // own) make other trees: the same solutions, once each.
                let mut two = Vec::new();
                given +=
                    search_giving_away(&mm, rule, true, &Subtree::default(), Vec::new(), &mut two);
                let mut two: Vec<_> = two.into_iter().map(|(_, sol)| sol).collect();
                two.sort();
                let mut sorted = want.clone();
                sorted.sort();
                assert_eq!(two, sorted, "{rule:?}, two ways");
                let mut got = Vec::new();
                given +=
                    search_giving_away(&mm, rule, false, &Subtree::default(), Vec::new(), &mut got);
                // By key; in the order found within a key.
                got.sort_by(|a, b| a.0.cmp(&b.0));
                let mut got: Vec<_> = got.into_iter().map(|(_, sol)| sol).collect();
                if rule == Branching::Lookahead {
                    // The pieces do not have the removals made above them:
                    // the same solutions, found in another order.
                    got.sort();
                    want.sort();
                }
                // First-forced: each piece's search is one search's below
                // its node, so the keys give one search's order.
                assert_eq!(got, want, "{rule:?}");
            }
        }
        assert!(given > 0);
    }

    #[test]
    fn lookahead_prunes_a_failed_option_and_takes_what_it_forces() {
        // Committing `A B D` leaves `C` nothing: it is removed, `A B` is
        // then `A`'s only option and `C D` the only one left for `C`: no
        // guess. First-forced branches on `A`.
        let m = knuth::read("A B C D\nA B D\nA B\nB C\nC D\n".as_bytes()).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        let mut plain = MasksSolver::new(&mm);
        let mut looking = MasksSolver::new(&mm);
        looking.set_branching(Branching::Lookahead).unwrap();
        let (p, l) = (plain.count(), looking.count());
        assert_eq!((p.solutions, l.solutions), (1, 1));
        let stats = looking.stats();
        assert_eq!((stats.guesses, stats.pruned), (0, 2));
        assert_eq!(stats.probes, 3);
        assert!(plain.stats().guesses > 0);
        // A budget pauses it; the rest of the search is the same search.
        looking.reset();
        looking.set_budget(Budget {
            nodes: Some(1),
            updates: None,
        });
        assert_eq!(looking.next_solution(), Step::Budget);
        looking.set_budget(Budget::default());
        assert_eq!(looking.next_solution(), Step::Solution);
        assert_eq!(looking.stats(), stats);
    }

    #[test]
    fn an_intersection_hides_what_it_must() {
        // Item A's two options both have B: B's option without A goes,
        // and with it the only option of C — a dead end found before any
        // branch, where the plain search branches on A first.
        let m = knuth::read("A B C D\nA B D\nA B\nB C\nC D\n".as_bytes()).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        let mut plain = first_forced(&mm);
        let mut looking = first_forced(&mm);
        looking.set_intersections(Intersections::Depth(1));
        let (p, l) = (plain.count(), looking.count());
        assert_eq!((p.solutions, l.solutions), (1, 1));
        assert!(looking.stats().nodes < plain.stats().nodes);
        assert_eq!(looking.stats().guesses, 0);
        assert!(plain.stats().guesses > 0);
    }

    #[test]
    fn auto_looks_below_the_first_branch_point_while_the_looks_pay() {
        let m = knuth::read("A B\nA\nB\n".as_bytes()).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        let mut s = States::<u16>::new(&mm);
        let set = |s: &mut States<u16>, looks: Intersections| {
            let (depth, while_paying) = looks.parts();
            (s.intersect_depth, s.fixed_depth, s.while_paying) = (depth, depth, while_paying);
        };
        // A fixed depth stays, however much the looks hide.
        set(&mut s, Intersections::Depth(2));
        (s.looks, s.looks_hid) = (4, 40);
        s.after_look();
        assert_eq!(s.intersect_depth, 2);
        // Auto: above the first branch point, and below it while the looks
        // so far hid PAYING_LOOK options a look or more.
        set(&mut s, Intersections::Auto);
        assert_eq!(s.intersect_depth, 1);
        s.after_look();
        assert_eq!(s.intersect_depth, usize::MAX);
        (s.looks, s.looks_hid) = (4, 4 * PAYING_LOOK - 1);
        s.after_look();
        assert_eq!(s.intersect_depth, 1);
        (s.looks, s.looks_hid) = (4, 4 * PAYING_LOOK);
        s.after_look();
        assert_eq!(s.intersect_depth, usize::MAX);
        // A search starts counting afresh, at the fixed depth.
        s.restart();
        assert_eq!((s.looks, s.looks_hid, s.intersect_depth), (0, 0, 1));
    }

    #[test]
    fn intersections_read_and_write_as_the_cli_takes_them() {
        for (text, looks) in [
            ("0", Intersections::Depth(0)),
            ("3", Intersections::Depth(3)),
            ("auto", Intersections::Auto),
        ] {
            assert_eq!(text.parse::<Intersections>(), Ok(looks));
            assert_eq!(looks.to_string(), text);
        }
        assert!("-1".parse::<Intersections>().is_err());
        assert!("deep".parse::<Intersections>().is_err());
        assert!(!Intersections::Depth(0).looks());
        assert!(Intersections::Auto.looks() && Intersections::from(2).looks());
    }

    #[test]
    fn choose_takes_the_leftmost_least_len() {
        let mut lens = [COVERED; 2 * CHUNK];
        assert_eq!(choose(&lens), None);
        lens[3] = 5;
        lens[20] = 2;
        lens[25] = 2;
        assert_eq!(choose(&lens), Some((20, 2)));
        lens[30] = 0;
        assert_eq!(choose(&lens), Some((30, 0)));
        // Above any real len (a covered item counted down): still covered.
        let mut lens = [COVERED - 64; CHUNK];
        assert_eq!(choose(&lens), None);
        lens[CHUNK - 1] = 1;
        assert_eq!(choose(&lens), Some((CHUNK - 1, 1)));
    }

    #[test]
    fn preselect_budget_and_reset() {
        let m = problems::queens(6).unwrap();
        let mm = MasksMatrix::new(&m).unwrap();
        let mut s = MasksSolver::new(&mm);
        engine_tests::preselect_budget_and_reset(&m, &mut s, false);
        // A preselected option that leaves an item with no option: the
        // search is a dead end at once.
        s.reset();
        let t = knuth::read("A B C\nA B\nB C\nC\n".as_bytes()).unwrap();
        let tm = MasksMatrix::new(&t).unwrap();
        let mut ts = MasksSolver::new(&tm);
        ts.preselect(OptionId::must(1)).unwrap();
        assert_eq!(ts.count().solutions, 0);
        assert!(ts.is_exhausted());
        ts.reset();
        assert_eq!(ts.count().solutions, 1);
        // The profile counts the nodes of each level.
        s.reset();
        s.set_budget(Budget::default());
        s.enable_profile();
        s.count();
        let profile = s.profile().unwrap();
        assert_eq!(profile.iter().sum::<u64>(), s.stats().nodes);
    }

    #[test]
    fn colors_are_refused() {
        let m = knuth::read("A | s\nA s:x\nA s:y\n".as_bytes()).unwrap();
        assert_eq!(MasksMatrix::new(&m).unwrap_err(), MasksError::Colors);
    }
}
