//! A [`Propagator`] and the search's [`Strategy`] on the dense engine
//! (first-forced, no multiplicities): the dense kernel's path for the
//! nodes where nothing is forced.
//!
//! At such a node at level `l` the propagator sees state slot `2l` through
//! [`DenseLive`]: an item's active options as a mask (bit `k`: the item's
//! `k`-th option in matrix order), and an option it hides leaves that slot
//! (its bit cleared, its primary items' lens decremented), which nothing
//! needs to undo: the slot is written afresh by the commit above whenever
//! the search comes back to it. Where to branch is then the strategy's
//! ([`Scores::pick`]), and a dead end is blamed on the option committed
//! last (and on the one that set off the forced chain the propagator
//! judged), by its primary items (the dense tables store those first).
//!
//! Invariants: the propagator's words are saved at each branch point after
//! it ran there and restored when the search moves to that branch point's
//! next option or enters it again (two ways); `chosen[i]` names the option
//! that covered primary item `i` wherever `i` is covered (by the search or
//! by a preselected option).
//!
//! Two ways ([`Strategy::two_way`]): where an option of a branch point
//! fails, it is hidden from slot `2l`, which the branch point's cover left
//! as it was, and the driver enters level `l` again ([`AGAIN`]).
//!
//! [`Scores::pick`]: crate::dlx::search::strategy::Scores
//! [`AGAIN`]: crate::dlx::search::driver::AGAIN

#![allow(unsafe_code)]

use std::sync::Arc;

use super::search::{choose, lens, State};
use super::{DenseMatrix, COVERED, FORCED_FLAG};
use crate::dlx::index::OptionId;
use crate::dlx::propagate::{Live, Propagator};
use crate::dlx::search::driver::{Enter, AGAIN};
use crate::dlx::search::strategy::{Steer, Strategy, NONE};
use crate::dlx::stats::Stats;
use crate::dlx::unchecked::copy_slot;

/// What the dense engine keeps for a propagator: what every engine that
/// propagates keeps ([`Steer`], which it derefs to), and the root slot.
#[derive(Clone, Debug)]
pub(crate) struct Propagation {
    steer: Steer,
    /// Slot 0 as the search started (`rooted`: taken): level 0 hides in
    /// the root slot itself, which no commit writes again, so it is put
    /// back when the search is abandoned (`DenseSolver::restart`).
    root: Vec<u64>,
    rooted: bool,
}

impl std::ops::Deref for Propagation {
    type Target = Steer;
    fn deref(&self) -> &Steer {
        &self.steer
    }
}

impl std::ops::DerefMut for Propagation {
    fn deref_mut(&mut self) -> &mut Steer {
        &mut self.steer
    }
}

impl Propagation {
    /// What the dense engine keeps for `propagator` over `m`, branching as
    /// `strategy` says, with the options of `preselected` covering their
    /// items.
    pub(crate) fn new(
        m: &DenseMatrix,
        propagator: Arc<dyn Propagator>,
        strategy: Strategy,
        preselected: &[OptionId],
    ) -> Propagation {
        let items_of = |r: usize| m.option(r).iter().map(|&i| i as usize);
        let shape = (m.mask_lo.len(), m.primary, m.options);
        let levels = m.max_depth + 2;
        let mut p = Propagation {
            steer: Steer::new(shape, items_of, levels, propagator, strategy),
            root: Vec::new(),
            rooted: false,
        };
        for &o in preselected {
            p.note_chosen(m, o.as_usize());
        }
        p
    }

    /// Option `r` covers its primary items.
    pub(super) fn note_chosen(&mut self, m: &DenseMatrix, r: usize) {
        if r < m.options {
            for &i in m.option(r) {
                if let Some(c) = self.chosen.get_mut(i as usize) {
                    *c = r as u32;
                }
            }
        }
    }

    /// As a search starts: the scores at their start, the words zero, the
    /// root slot `root` kept.
    pub(super) fn restart(&mut self, root: &[u64]) {
        self.steer.restart();
        self.root.clear();
        self.root.extend_from_slice(root);
        self.rooted = true;
    }

    /// Puts the root slot back into `slot0` where a search took it (and
    /// may have hidden options there).
    pub(super) fn put_back(&mut self, slot0: &mut [u64]) {
        if std::mem::take(&mut self.rooted) && slot0.len() == self.root.len() {
            slot0.copy_from_slice(&self.root);
        }
    }

    /// Forgets the root slot taken (the solver made its root anew).
    pub(super) fn forget_root(&mut self) {
        self.rooted = false;
    }

    /// A dead end blamed on option `r` (none before the first commit).
    fn blame(&mut self, m: &DenseMatrix, r: u32) {
        if r != NONE && (r as usize) < m.options {
            self.scores
                .blame(m.option(r as usize).iter().map(|&i| i as usize));
        }
    }

    /// A dead end the propagator found: blamed on the chain's first option
    /// too, where it is another than the last.
    fn blame_chain(&mut self, m: &DenseMatrix, chain: u32) {
        if chain != NONE && chain != self.last {
            self.blame(m, chain);
        }
        self.blame(m, self.last);
    }
}

/// Hides option `r` from a state: its bit cleared, its primary items' lens
/// decremented (noted on the watch where they fall to 1 or 0). Returns
/// the updates (its items). `r` is active in `active`.
fn hide_option(
    m: &DenseMatrix,
    active: &mut [u64],
    len: &mut [u16],
    watch: &mut super::search::Watch,
    r: usize,
) -> u64 {
    if let Some(w) = active.get_mut(r / 64) {
        *w &= !(1u64 << (r % 64));
    }
    let (s, p, e) = (
        m.opt_start[r] as usize,
        m.opt_pend[r] as usize,
        m.opt_start[r + 1] as usize,
    );
    for &j in &m.opt_items[s..p] {
        if let Some(l) = len.get_mut(j as usize) {
            *l = l.wrapping_sub(1);
            if *l <= 1 {
                watch.note(j, *l);
            }
        }
    }
    (e - s) as u64
}

impl State {
    /// The words of state slot `slot`: its active bits and its primary
    /// items' lens.
    fn slot_parts(&mut self, m: &DenseMatrix, slot: usize) -> (&mut [u64], &mut [u16]) {
        let size = self.slot;
        let here = &mut self.states[slot * size..(slot + 1) * size];
        let (active, rest) = here.split_at_mut(m.words);
        let len = &mut lens(rest)[..m.primary];
        (active, len)
    }

    /// Runs the propagator once over slot `slot`: whether it found the
    /// node alive, and how many options it hid.
    fn propagate_once(&mut self, m: &DenseMatrix, slot: usize, stats: &mut Stats) -> (bool, u64) {
        let Some(mut p) = self.prop.take() else {
            return (true, 0);
        };
        let mut watch = std::mem::replace(&mut self.watch, super::search::Watch::empty());
        let (active, len) = self.slot_parts(m, slot);
        let steer = &mut p.steer;
        let mut live = DenseLive {
            m,
            active,
            len,
            watch: &mut watch,
            start: &steer.start,
            options: &steer.options,
            chosen: &steer.chosen,
            words: &mut steer.words,
            hidden: 0,
            updates: 0,
        };
        let alive = steer.propagator.propagate(&mut live);
        let (hidden, updates) = (live.hidden, live.updates);
        stats.updates += updates;
        self.watch = watch;
        self.prop = Some(p);
        (alive, hidden)
    }

    /// The item to take in slot `slot`: one the watch saw fall to no
    /// option, else the leftmost of one option or none, else the leftmost
    /// of least len (as the links engine's propagating search, and for its
    /// reason); the watch is emptied.
    fn choose_scanned(&mut self, m: &DenseMatrix, slot: usize) -> (usize, u16) {
        let dead = self.watch.take_dead();
        self.watch.clear();
        let (_, len) = self.slot_parts(m, slot);
        if len.get(dead as usize) == Some(&0) {
            return (dead as usize, 0);
        }
        choose(len, true)
    }

    /// Notes the commit of option `r` at a search that propagates;
    /// `solved` when it covered the last primary item (slot `to` its
    /// state): then a propagator that enforces a rule is asked, and where
    /// it finds the rule broken the commit is no solution (the next node
    /// is a dead end). Returns whether the commit is a solution.
    pub(super) fn committed(
        &mut self,
        m: &DenseMatrix,
        to: usize,
        r: u32,
        solved: bool,
        stats: &mut Stats,
    ) -> bool {
        let Some(p) = self.prop.as_deref_mut() else {
            return solved;
        };
        p.note_chosen(m, r as usize);
        p.last = r;
        if p.chain == NONE && !p.two_way {
            p.chain = r;
        }
        if !(solved && p.enforce) {
            return solved;
        }
        let (alive, _) = self.propagate_once(m, to, stats);
        if let Some(p) = self.prop.as_deref_mut() {
            p.broken = !alive;
        }
        alive
    }

    /// The kernel's `enter` on a search that propagates (first-forced, no
    /// multiplicities): the forced item where one is; else the propagator
    /// until it hides nothing more (or leaves something forced or a dead
    /// end), then the item of the strategy's choice, covered into slot
    /// `2l + 1`.
    ///
    /// # Safety
    /// The states hold the module's invariants for `m` (`mod.rs`); `l` is
    /// a level of the search, levels `0..l` entered and committed.
    pub(super) unsafe fn enter_propagating<const UL: usize, const UP: usize>(
        &mut self,
        m: &DenseMatrix,
        l: usize,
        stats: &mut Stats,
    ) -> Enter {
        let at = 2 * l;
        let (broken, chain) = match self.prop.as_deref_mut() {
            Some(p) => (std::mem::take(&mut p.broken), p.chain),
            None => (false, NONE),
        };
        if broken {
            if let Some(p) = self.prop.as_deref_mut() {
                p.blame_chain(m, chain);
            }
            return Enter::DEAD;
        }
        if self.left[at] == 0 {
            // Only at the root: the empty choice, where the rule holds.
            let (alive, _) = self.propagate_once(m, at, stats);
            return if alive { Enter::Solved } else { Enter::DEAD };
        }
        let (mut i, mut least) = self.choose_scanned(m, at);
        let mut second = false;
        if least >= 2 {
            loop {
                let (alive, hidden) = self.propagate_once(m, at, stats);
                if !alive {
                    if let Some(p) = self.prop.as_deref_mut() {
                        let chain = std::mem::replace(&mut p.chain, NONE);
                        p.blame_chain(m, chain);
                    }
                    return Enter::DEAD;
                }
                if hidden == 0 {
                    break;
                }
                (i, least) = self.choose_scanned(m, at);
                if least < 2 {
                    break;
                }
            }
            if let Some(mut p) = self.prop.take() {
                let chain = std::mem::replace(&mut p.chain, NONE);
                if least == 0 {
                    p.blame_chain(m, chain);
                } else if least >= 2 {
                    let (active, len) = self.slot_parts(m, at);
                    let (active, len) = (&*active, &*len);
                    let leads = |j: usize| {
                        // SAFETY: `j` is a primary item of the tables
                        // (`pick` asks of the scores' items) and `active`
                        // the slot's bits.
                        let r0 = unsafe { m.next_option(active, j, 0) }.unwrap_or(0);
                        let r1 = unsafe { m.next_option(active, j, r0 + 1) }.unwrap_or(r0);
                        let lead = |r: usize| m.option(r).first().map_or(j, |&x| x as usize);
                        (lead(r0), lead(r1))
                    };
                    let most = u64::from(COVERED) - 1;
                    let (j, flip) = p.scores.pick(len, most, i, leads);
                    i = j;
                    least = len[j];
                    second = flip;
                }
                self.prop = Some(p);
            }
        } else if least == 0 {
            if let Some(p) = self.prop.as_deref_mut() {
                p.blame(m, p.last);
            }
        }
        self.item[l] = i as u32;
        if least == 0 {
            // A dead end: DLX covers the item (one update) and finds nothing.
            stats.updates += 1;
            return Enter::DEAD;
        }
        let (active, _) = self.slot_parts(m, at);
        let first = m.next_option(active, i, 0);
        let first = if second {
            first.and_then(|r| m.next_option(active, i, r + 1))
        } else {
            first
        };
        let first = first.map(|r| r as u32);
        let branch = least >= 2;
        if let Some(p) = self.prop.as_deref_mut() {
            p.branch[l] = branch;
            p.flipped[l] = second;
            if branch {
                p.save(l);
            }
        }
        if least == 1 {
            // Forced: `commit` covers the item too, from slot `2l` itself.
            self.item[l] = FORCED_FLAG | i as u32;
            return Enter::forced(first);
        }
        let size = self.slot;
        let slot = copy_slot(&mut self.states, size, at, at + 1);
        let (active, rest) = slot.split_at_mut(m.words);
        let len = &mut lens(rest)[..m.primary];
        let mut left = self.left[at];
        stats.updates += m.cover::<UL, UP, true>(active, len, &mut left, &mut self.watch, i, 1);
        self.left[at + 1] = left;
        Enter::branch(first, u32::from(least))
    }

    /// The option after `r` at level `l` (`None` past the last), or with
    /// two ways (where `again` allows it) [`AGAIN`]: `r` hidden from slot
    /// `2l`, the level to be entered again.
    ///
    /// # Safety
    /// As [`enter_propagating`](Self::enter_propagating)'s; `l` was entered
    /// by it, and `r` is the option it (or this) named there.
    pub(super) unsafe fn next_propagating(
        &mut self,
        m: &DenseMatrix,
        l: usize,
        r: u32,
        again: bool,
    ) -> Option<u32> {
        let at = 2 * l;
        let i = (self.item[l] & !FORCED_FLAG) as usize;
        let mut p = self.prop.take()?;
        p.chain = NONE;
        let (branch, flipped) = (p.branch[l], p.flipped[l]);
        if branch {
            p.restore(l);
        }
        let two_way = p.two_way && again && branch;
        if two_way {
            p.last = r;
        }
        self.prop = Some(p);
        if !branch {
            return None;
        }
        let mut watch = std::mem::replace(&mut self.watch, super::search::Watch::empty());
        let (active, len) = self.slot_parts(m, at);
        let next = if two_way {
            hide_option(m, active, len, &mut watch, r as usize);
            Some(AGAIN)
        } else if flipped {
            // A pair, its second option tried first: then the first.
            m.next_option(active, i, 0)
                .filter(|&r0| r0 != r as usize)
                .map(|r0| r0 as u32)
        } else {
            m.next_option(active, i, r as usize + 1).map(|r| r as u32)
        };
        self.watch = watch;
        next
    }
}

/// A state slot as a [`Propagator`] sees it ([`Live`]).
struct DenseLive<'a> {
    m: &'a DenseMatrix,
    active: &'a mut [u64],
    len: &'a mut [u16],
    watch: &'a mut super::search::Watch,
    start: &'a [u32],
    options: &'a [u32],
    chosen: &'a [u32],
    words: &'a mut [u64],
    /// Options hidden, and updates (an item an option leaves), so far.
    hidden: u64,
    updates: u64,
}

impl DenseLive<'_> {
    /// Item `item`'s options in matrix order, if it is an uncovered
    /// primary item.
    fn listed(&self, item: usize) -> Option<&[u32]> {
        if self.len.get(item).is_none_or(|&n| n == COVERED) {
            return None;
        }
        let from = *self.start.get(item)? as usize;
        let to = *self.start.get(item + 1)? as usize;
        self.options.get(from..to)
    }

    fn is_active(&self, r: u32) -> bool {
        let r = r as usize;
        self.active
            .get(r / 64)
            .is_some_and(|w| w >> (r % 64) & 1 != 0)
    }
}

impl Live for DenseLive<'_> {
    fn options(&self, item: usize) -> u64 {
        let Some(listed) = self.listed(item) else {
            return 0;
        };
        let mut mask = 0u64;
        for (k, &r) in listed.iter().take(64).enumerate() {
            if self.is_active(r) {
                mask |= 1 << k;
            }
        }
        mask
    }

    fn option_at(&self, item: usize, bit: u32) -> Option<OptionId> {
        let from = *self.start.get(item)? as usize;
        let to = *self.start.get(item + 1)? as usize;
        let k = from.checked_add(bit as usize).filter(|&k| k < to)?;
        Some(OptionId::must(self.options[k] as usize))
    }

    fn chosen(&self, item: usize) -> Option<OptionId> {
        match self.len.get(item) {
            Some(&COVERED) => Some(OptionId::must(*self.chosen.get(item)? as usize)),
            _ => None,
        }
    }

    fn hide(&mut self, item: usize, options: u64) {
        if self.len.get(item).is_none_or(|&n| n == COVERED) {
            return;
        }
        let (start, all) = (self.start, self.options);
        let (Some(&from), Some(&to)) = (start.get(item), start.get(item + 1)) else {
            return;
        };
        let listed = all.get(from as usize..to as usize).unwrap_or(&[]);
        let mut bits = options;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let Some(&r) = listed.get(k) else {
                break;
            };
            if self.is_active(r) {
                self.updates += hide_option(self.m, self.active, self.len, self.watch, r as usize);
                self.hidden += 1;
            }
        }
    }

    fn state(&mut self) -> &mut [u64] {
        self.words
    }
}
