//! A [`Propagator`] and the search's [`Strategy`] on the links engine
//! (first-forced, no colors, no multiplicities): the links kernel's path
//! for the nodes where nothing is forced.
//!
//! At such a node the propagator sees the live matrix through
//! [`LinksLive`]: an item's active options gathered from its list as a
//! mask (bit `k`: the item's `k`-th option in matrix order, a rank kept
//! per node), and the options it hides are *removed* (all their nodes
//! leave their lists) onto the trail lookahead uses (`removed`, `marks`),
//! so they are restored, last first, when the level is left, nesting with
//! the dancing. Where to branch is then the strategy's ([`Scores::pick`]),
//! and a dead end is blamed on the option committed last (and on the one
//! that set off the forced chain the propagator judged).
//!
//! Invariants: a level's removals sit on the trail above `marks[l]`; the
//! propagator's words are saved at each branch point after it ran there
//! and restored when the search moves to that branch point's next option
//! or enters it again (two ways), so what a call finds is what the calls
//! above it on the path left; `chosen[i]` names the option that covered
//! primary item `i` wherever `i` is covered by the search (a preselected
//! item is named by `held`).
//!
//! Two ways ([`Strategy::two_way`]): where an option of a branch point
//! fails, it is uncommitted, the branch point's item uncovered, the option
//! removed onto the level's trail, and the driver enters the level again
//! ([`AGAIN`]): the propagator runs and where to branch is chosen anew.
//!
//! [`Scores::pick`]: crate::dlx::search::strategy::Scores
//! [`AGAIN`]: crate::dlx::search::driver::AGAIN

#![allow(unsafe_code)]

use std::sync::Arc;

use super::dance::{choose_forced, cover, remove_option, uncover, COVERED};
use super::LinksState;
use crate::dlx::index::OptionId;
use crate::dlx::matrix::{Matrix, Node};
use crate::dlx::propagate::{Live, Propagator};
use crate::dlx::search::driver::{Enter, AGAIN};
use crate::dlx::search::strategy::{Steer, Strategy, NONE};
use crate::dlx::stats::Stats;

/// What the links engine keeps for a propagator: what every engine that
/// propagates keeps ([`Steer`], which it derefs to), and the links' own.
#[derive(Clone, Debug)]
pub(crate) struct Propagation {
    steer: Steer,
    /// Per node: the rank of its option among its item's options in matrix
    /// order (ignored options counted).
    rank: Vec<u32>,
    /// Scratch: the primary items' lens at a branch point (`Scores::pick`).
    lens: Vec<u32>,
    /// Whether the level the driver enters next is entered again (its
    /// trail mark stands).
    again: bool,
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
    /// What the links engine keeps for `propagator` over `m`, searched at
    /// most `depth` levels deep, branching as `strategy` says.
    pub(crate) fn new(
        m: &Matrix,
        depth: usize,
        propagator: Arc<dyn Propagator>,
        strategy: Strategy,
    ) -> Propagation {
        let items_of = |k: usize| (m.option_items(OptionId::must(k))).map(|(i, _)| i.as_usize());
        let shape = (m.item_count(), m.primary_count(), m.option_count());
        let steer = Steer::new(shape, items_of, depth + 2, propagator, strategy);
        let mut rank = vec![0u32; m.nodes.len()];
        let mut filled = vec![0u32; m.item_count()];
        for k in 0..m.option_count() {
            // The option's nodes (none where it is ignored) name its items.
            if let Some(&first) = m.option_node.get(k).filter(|&&f| f != u32::MAX) {
                let mut x = first as usize;
                while m.nodes[x].itm > 0 {
                    let i = m.nodes[x].itm as usize - 1;
                    rank[x] = filled[i];
                    x += 1;
                }
            }
            for i in items_of(k) {
                filled[i] += 1;
            }
        }
        Propagation {
            steer,
            rank,
            lens: Vec::with_capacity(m.primary_count()),
            again: false,
        }
    }

    /// As a search starts: the scores at their start, the words zero.
    pub(crate) fn restart(&mut self) {
        self.steer.restart();
        self.again = false;
    }
}

/// The items of the option of node `x`, in its order (its first node's
/// item first).
fn items_of(nodes: &[Node], x: usize) -> impl Iterator<Item = usize> + '_ {
    let mut q = x;
    while q > 0 && nodes.get(q - 1).is_some_and(|n| n.itm > 0) {
        q -= 1;
    }
    nodes[q..]
        .iter()
        .take_while(|n| n.itm > 0)
        .map(|n| n.itm as usize - 1)
}

impl LinksState<'_> {
    /// The item to take: one that the watch saw fall to no option, else
    /// the leftmost of one option or none, else the leftmost of least len
    /// (`choose_forced`); the watch is emptied. Not the watch's latest
    /// item of one option first, as a search without a propagator takes
    /// it: the forced moves' order moves the blame of dead ends, and on
    /// ISS's HARD_THERMOS (`--engine links`) taking the latest took 88,051
    /// guesses, the leftmost 24,004 (the masks engine, which takes them in
    /// much that order, 23,954 without intersections).
    fn choose_scanned(&mut self, n: usize) -> usize {
        let dead = self.watch.take_dead() as usize;
        self.watch.clear();
        if dead != 0 && dead <= n && self.nodes.get(dead).is_some_and(|h| h.itm == 0) {
            return dead;
        }
        choose_forced(&self.nodes, n)
    }

    /// A dead end blamed on the option of node `x` (none before the first
    /// commit).
    fn blame(&mut self, x: u32) {
        if let Some(p) = self.prop.as_deref_mut() {
            if x != NONE {
                p.scores.blame(items_of(&self.nodes, x as usize));
            }
        }
    }

    /// A dead end the propagator found: blamed on the chain's first option
    /// too, where it is another than the last.
    fn blame_chain(&mut self, chain: u32) {
        let last = self.prop.as_deref().map_or(NONE, |p| p.last);
        if chain != NONE && chain != last {
            self.blame(chain);
        }
        self.blame(last);
    }

    /// Runs the propagator once over the live links: whether it found the
    /// node alive, and how many options it removed.
    fn propagate_once(&mut self, m: &Matrix, stats: &mut Stats) -> (bool, u64) {
        let Some(mut p) = self.prop.take() else {
            return (true, 0);
        };
        let (rank, steer) = (&p.rank, &mut p.steer);
        let mut live = LinksLive {
            m,
            nodes: &mut self.nodes,
            watch: &mut self.watch,
            removed: &mut self.removed,
            held: &self.held,
            held_by: &self.held_by,
            rank,
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
        self.prop = Some(p);
        (alive, hidden)
    }

    /// Notes the commit of node `x`'s option at a search that propagates;
    /// `solved` when it covered the last primary item: then a propagator
    /// that enforces a rule is asked, and where it finds the rule broken
    /// the commit is no solution (the next node is a dead end). Returns
    /// whether the commit is a solution.
    pub(super) fn committed(
        &mut self,
        m: &Matrix,
        x: u32,
        solved: bool,
        stats: &mut Stats,
    ) -> bool {
        let Some(p) = self.prop.as_deref_mut() else {
            return solved;
        };
        let option = m.option_of_node(x as usize).as_usize() as u32;
        for i in items_of(&self.nodes, x as usize) {
            if let Some(c) = p.chosen.get_mut(i) {
                *c = option;
            }
        }
        p.last = x;
        if p.chain == NONE && !p.two_way {
            p.chain = x;
        }
        if !(solved && p.enforce) {
            return solved;
        }
        // Asked at the solution; what it hides there is put back at once.
        let mark = self.removed.len();
        let (alive, _) = self.propagate_once(m, stats);
        // SAFETY: the options above `mark` were removed just now, by the
        // propagator's `LinksLive`, from the links as they are.
        unsafe { self.restore_removed(mark) };
        if let Some(p) = self.prop.as_deref_mut() {
            p.broken = !alive;
        }
        alive
    }

    /// The kernel's `enter` on a search that propagates (first-forced, no
    /// colors, no multiplicities): the forced item where one is; else the
    /// propagator until it hides nothing more (or leaves something forced
    /// or a dead end), then the item of the strategy's choice. Covers the
    /// item chosen (none where the propagator finds a dead end or the
    /// solution broken: `item[l]` is then 0).
    ///
    /// # Safety
    /// The links hold their invariant for `m` (`dance.rs`); `l` is a level
    /// of the search, levels `0..l` entered and committed.
    pub(super) unsafe fn enter_propagating<const UL: usize>(
        &mut self,
        m: &Matrix,
        l: usize,
        stats: &mut Stats,
    ) -> Enter {
        let again = self
            .prop
            .as_deref_mut()
            .is_some_and(|p| std::mem::take(&mut p.again));
        if !again {
            self.marks[l] = self.removed.len() as u32;
        }
        let n = m.primary_count();
        let (broken, chain) = match self.prop.as_deref_mut() {
            Some(p) => (std::mem::take(&mut p.broken), p.chain),
            None => (false, NONE),
        };
        if broken {
            self.blame_chain(chain);
            self.item[l] = 0;
            return Enter::DEAD;
        }
        if self.items[0].next == 0 {
            // Only at the root: the empty choice, where the rule holds.
            let (alive, _) = self.propagate_once(m, stats);
            if !alive {
                self.item[l] = 0;
                return Enter::DEAD;
            }
            return Enter::Solved;
        }
        let mut best = self.choose_scanned(n);
        let mut len = self.nodes[best].itm;
        let mut first_second = false;
        if len >= 2 {
            loop {
                let (alive, hidden) = self.propagate_once(m, stats);
                if !alive {
                    let chain = self
                        .prop
                        .as_deref_mut()
                        .map_or(NONE, |p| std::mem::replace(&mut p.chain, NONE));
                    self.blame_chain(chain);
                    self.item[l] = 0;
                    return Enter::DEAD;
                }
                if hidden == 0 {
                    break;
                }
                best = self.choose_scanned(n);
                len = self.nodes[best].itm;
                if len < 2 {
                    break;
                }
            }
            let chain = self
                .prop
                .as_deref_mut()
                .map_or(NONE, |p| std::mem::replace(&mut p.chain, NONE));
            if len == 0 {
                self.blame_chain(chain);
            } else if len >= 2 {
                if let Some(p) = self.prop.as_deref_mut() {
                    let nodes = &self.nodes;
                    // The primary items' lens, covered ones past `COVERED`.
                    let mut lens = std::mem::take(&mut p.lens);
                    lens.clear();
                    lens.extend(nodes[1..=n].iter().map(|h| h.itm.max(0) as u32));
                    let leads = |j: usize| {
                        let x0 = nodes[j + 1].down as usize;
                        let x1 = nodes[x0].down as usize;
                        let lead = |x: usize| items_of(nodes, x).next().unwrap_or(j);
                        (lead(x0), lead(x1))
                    };
                    let most = COVERED as u64 - 1;
                    let (j, second) = p.scores.pick(&lens, most, best - 1, leads);
                    p.lens = lens;
                    best = j + 1;
                    len = self.nodes[best].itm;
                    first_second = second;
                }
            }
        } else if len == 0 {
            let last = self.prop.as_deref().map_or(NONE, |p| p.last);
            self.blame(last);
        }
        let branch = len >= 2;
        if let Some(p) = self.prop.as_deref_mut() {
            p.branch[l] = branch;
            p.flipped[l] = first_second;
            if branch {
                p.save(l);
            }
        }
        let first_spacer = m.first_spacer();
        let (nodes, items, colors, w) = (
            &mut self.nodes,
            &mut self.items,
            &self.colors,
            &mut self.watch,
        );
        stats.updates += cover::<false, true, UL>(nodes, items, colors, w, best, first_spacer);
        self.item[l] = best as u32;
        let down = nodes[best].down;
        let first = if first_second {
            nodes[down as usize].down
        } else {
            down
        };
        Enter::Item {
            first: (first as usize > first_spacer).then_some(first),
            branch,
            len: len as u32,
        }
    }

    /// The option after node `x`'s at level `l` (`None` past the last), or
    /// with two ways (where `again` allows it) [`AGAIN`]: `x`'s option
    /// removed from the level's state, to be entered again. `x`'s option
    /// has been uncommitted.
    ///
    /// # Safety
    /// As [`enter_propagating`](Self::enter_propagating)'s; `l` was entered
    /// by it, and `x` is the node it (or this) named there.
    pub(super) unsafe fn next_propagating<const UL: usize>(
        &mut self,
        m: &Matrix,
        l: usize,
        x: u32,
        again: bool,
    ) -> Option<u32> {
        let first_spacer = m.first_spacer();
        let Some(p) = self.prop.as_deref_mut() else {
            let down = self.nodes[x as usize].down;
            return (down as usize > first_spacer).then_some(down);
        };
        // Back at a branch point: no chain is started yet.
        p.chain = NONE;
        if !p.branch[l] {
            return None;
        }
        p.restore(l);
        if p.two_way && again {
            p.last = x;
            p.again = true;
            let c = self.item[l] as usize;
            uncover::<false, UL>(
                &mut self.nodes,
                &mut self.items,
                &self.colors,
                c,
                first_spacer,
            );
            remove_option(&mut self.nodes, &mut self.watch, x as usize);
            self.removed.push(x);
            return Some(AGAIN);
        }
        let node = self.nodes[x as usize];
        if p.flipped[l] {
            // A pair, its second option tried first: then the first (the
            // one above it), then none.
            let header = self.item[l];
            return (node.up != header).then_some(node.up);
        }
        (node.down as usize > first_spacer).then_some(node.down)
    }
}

/// The live links as a [`Propagator`] sees them ([`Live`]).
struct LinksLive<'a> {
    m: &'a Matrix,
    nodes: &'a mut Vec<Node>,
    watch: &'a mut super::dance::Watch,
    removed: &'a mut Vec<u32>,
    held: &'a [u32],
    held_by: &'a [u32],
    rank: &'a [u32],
    start: &'a [u32],
    options: &'a [u32],
    chosen: &'a [u32],
    words: &'a mut [u64],
    /// Options removed, and updates (an item an option leaves), so far.
    hidden: u64,
    updates: u64,
}

impl LinksLive<'_> {
    /// Item `item`'s header, if it is an active primary item.
    fn active(&self, item: usize) -> Option<usize> {
        let h = item.checked_add(1)?;
        (item < self.m.primary_count() && self.nodes.get(h)?.itm < COVERED).then_some(h)
    }
}

impl Live for LinksLive<'_> {
    fn options(&self, item: usize) -> u64 {
        let Some(h) = self.active(item) else {
            return 0;
        };
        let mut mask = 0u64;
        let mut x = self.nodes[h].down as usize;
        while x != h {
            let r = self.rank[x];
            if r < 64 {
                mask |= 1 << r;
            }
            x = self.nodes[x].down as usize;
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
        let h = item.checked_add(1)?;
        if item >= self.m.primary_count() || self.nodes.get(h)?.itm < COVERED {
            return None;
        }
        match self.held_by.get(h) {
            Some(&slot) if slot != 0 => {
                let x = *self.held.get(slot as usize - 1)?;
                Some(self.m.option_of_node(x as usize))
            }
            _ => Some(OptionId::must(*self.chosen.get(item)? as usize)),
        }
    }

    fn hide(&mut self, item: usize, options: u64) {
        let Some(h) = self.active(item) else {
            return;
        };
        let mut x = self.nodes[h].down as usize;
        while x != h {
            let next = self.nodes[x].down as usize;
            let r = self.rank[x];
            if r < 64 && options >> r & 1 != 0 {
                // SAFETY: `x` is a node on the list of an active item, so
                // its option is active: every node of it is on its item's
                // list, which removing unlinks (and `restore_removed`
                // relinks, last first, as the level is left).
                self.updates += unsafe { remove_option(self.nodes, self.watch, x) };
                self.removed.push(x as u32);
                self.hidden += 1;
            }
            x = next;
        }
    }

    fn state(&mut self) -> &mut [u64] {
        self.words
    }
}
