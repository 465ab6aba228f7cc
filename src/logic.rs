//! Logic over the live exact-cover matrix: deductions a person can follow,
//! one step at a time, instead of a search.
//!
//! [`LiveMatrix`] is a matrix as a person working on it sees it: the
//! options still possible (*live*), the items already covered, the options
//! committed. Two moves change it: [`commit`](LiveMatrix::commit) an option
//! (its items are covered, every other option on them dies) and
//! [`eliminate`](LiveMatrix::eliminate) one. The rules are few and are
//! stated over items and options only, so they hold for any matrix:
//!
//! * a **single**: an uncovered primary item with one live option — that
//!   option is committed ([`singles`]);
//! * **k items within k items** ([`within`]): k primary items *A*, no two
//!   in one live option, whose live options each cover one of k primary
//!   items *B*. The k options that cover *A* then cover *B*, each once, so
//!   every other live option on *B* dies. With k = 1 this is locked
//!   candidates; with *A* cells and *B* a house's digits a naked subset,
//!   the other way round a hidden subset, with rows and columns of a digit
//!   a fish;
//! * a **weak link**: two live options sharing an item
//!   ([`LiveMatrix::conflict`]), never both chosen; a **strong link**: an
//!   item with two live options, one of which is chosen. Chains alternate
//!   them;
//! * **implications** ([`implications`]): an option assumed chosen rules
//!   out every option sharing an item with it; one ruled out leaves an
//!   item its last option (statically: an item of two options; dynamically:
//!   once the options ruled out so far are gone), other rules adding more
//!   on the way. Each potential keeps the ones it follows from, so a chain
//!   can be shown and measured; a potential implied both on and off refutes
//!   the assumption. [`Closures`] answers, for every assumption at once,
//!   what it implies along static links (bit sets over the implication
//!   graph's components), so a rule asking that of hundreds of assumptions
//!   follows link by link only those that lead somewhere.
//!
//! What the items mean, and so what a step is called and how hard a person
//! finds it, is the layer above's: the Sudoku layer's
//! [`explain`](crate::sudoku::explain) names and rates the steps.
//!
//! Invariants: a live option's items are all uncovered; `len` of an item
//! is the number of its live options; a committed option is not live.
//! Only primary items exactly once (no multiplicities) and no colors: a
//! matrix with them is refused ([`LogicError`]).

use std::sync::Arc;

use smallvec::SmallVec;

use crate::dlx::{ItemId, Matrix, OptionId};

/// Why a matrix cannot be worked on by the rules here.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LogicError {
    /// Some option gives a secondary item a color.
    Colors,
    /// Some primary item is to be covered other than exactly once.
    Multiplicities,
}

impl std::fmt::Display for LogicError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LogicError::Colors => "the logic rules take matrices without colors",
            LogicError::Multiplicities => {
                "the logic rules take matrices whose items are covered exactly once"
            }
        })
    }
}

impl std::error::Error for LogicError {}

/// A commit or an elimination left an uncovered primary item without a
/// live option (or committed an option that was not live): the state has
/// no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contradiction {
    /// The item left without options.
    pub item: ItemId,
}

/// A matrix as it stands in a solve by logic (see the module overview).
#[derive(Clone, Debug)]
pub struct LiveMatrix {
    primary: usize,
    /// Each option's items (shared by clones: it never changes).
    option_items: Arc<[Box<[u32]>]>,
    /// Each item's options, live or not (shared).
    item_options: Arc<[Box<[u32]>]>,
    live: Vec<bool>,
    len: Vec<u32>,
    covered: Vec<bool>,
    committed: Vec<OptionId>,
}

impl LiveMatrix {
    /// Every option live, no item covered.
    pub fn new(matrix: &Matrix) -> Result<LiveMatrix, LogicError> {
        if matrix.has_colors() {
            return Err(LogicError::Colors);
        }
        if matrix.has_bounds() {
            return Err(LogicError::Multiplicities);
        }
        let (items, options) = (matrix.item_count(), matrix.option_count());
        let mut item_options: Vec<Vec<u32>> = vec![Vec::new(); items];
        let mut option_items = Vec::with_capacity(options);
        let mut live = vec![true; options];
        for o in 0..options {
            let its: Box<[u32]> = matrix
                .option_items(OptionId::must(o))
                .map(|(i, _)| i.as_usize() as u32)
                .collect();
            for &i in its.iter() {
                item_options[i as usize].push(o as u32);
            }
            option_items.push(its);
        }
        for &o in matrix.ignored_options() {
            live[o.as_usize()] = false;
        }
        let item_options: Vec<Box<[u32]>> = item_options
            .into_iter()
            .map(Vec::into_boxed_slice)
            .collect();
        let len = item_options
            .iter()
            .map(|os| os.iter().filter(|&&o| live[o as usize]).count() as u32)
            .collect();
        Ok(LiveMatrix {
            primary: matrix.primary_count(),
            option_items: option_items.into(),
            item_options: item_options.into(),
            live,
            len,
            covered: vec![false; items],
            committed: Vec::new(),
        })
    }

    /// The number of primary items (ids `0..primary_count`).
    pub fn primary_count(&self) -> usize {
        self.primary
    }

    /// The number of options.
    pub fn option_count(&self) -> usize {
        self.option_items.len()
    }

    /// Whether `option` is still possible.
    pub fn is_live(&self, option: OptionId) -> bool {
        self.live.get(option.as_usize()).copied().unwrap_or(false)
    }

    /// Whether `item` is covered by a committed option.
    pub fn is_covered(&self, item: ItemId) -> bool {
        self.covered.get(item.as_usize()).copied().unwrap_or(false)
    }

    /// The number of live options on `item`.
    pub fn len(&self, item: ItemId) -> usize {
        self.len.get(item.as_usize()).map_or(0, |&l| l as usize)
    }

    /// The live options on `item`.
    pub fn options(&self, item: ItemId) -> impl Iterator<Item = OptionId> + '_ {
        let all = self
            .item_options
            .get(item.as_usize())
            .map_or(&[][..], |o| o);
        all.iter()
            .filter(|&&o| self.live[o as usize])
            .map(|&o| OptionId::must(o as usize))
    }

    /// The items of `option`.
    pub fn items(&self, option: OptionId) -> impl Iterator<Item = ItemId> + '_ {
        let all = self
            .option_items
            .get(option.as_usize())
            .map_or(&[][..], |i| i);
        all.iter().map(|&i| ItemId::must(i as usize))
    }

    /// Whether two distinct options share an item (never both chosen: a
    /// weak link).
    pub fn conflict(&self, a: OptionId, b: OptionId) -> bool {
        a != b && self.items(a).any(|i| self.items(b).any(|j| i == j))
    }

    /// The options committed, in order.
    pub fn committed(&self) -> &[OptionId] {
        &self.committed
    }

    /// Whether every primary item is covered.
    pub fn solved(&self) -> bool {
        self.covered[..self.primary].iter().all(|&c| c)
    }

    /// An uncovered primary item without live options, if any.
    pub fn dead_end(&self) -> Option<ItemId> {
        (0..self.primary)
            .find(|&i| !self.covered[i] && self.len[i] == 0)
            .map(ItemId::must)
    }

    /// `option` dies (nothing happens if it is dead already).
    pub fn eliminate(&mut self, option: OptionId) -> Result<(), Contradiction> {
        let o = option.as_usize();
        if !self.live.get(o).copied().unwrap_or(false) {
            return Ok(());
        }
        self.live[o] = false;
        let mut dead = None;
        for &i in self.option_items[o].iter() {
            let i = i as usize;
            self.len[i] -= 1;
            if self.len[i] == 0 && i < self.primary && !self.covered[i] {
                dead.get_or_insert(Contradiction {
                    item: ItemId::must(i),
                });
            }
        }
        dead.map_or(Ok(()), Err)
    }

    /// Commits `option`: its items are covered and every other option on
    /// them dies. An option that is not live is a contradiction (on its
    /// first item).
    pub fn commit(&mut self, option: OptionId) -> Result<(), Contradiction> {
        let o = option.as_usize();
        if !self.live.get(o).copied().unwrap_or(false) {
            let item = self.option_items.get(o).and_then(|i| i.first().copied());
            return Err(Contradiction {
                item: ItemId::must(item.unwrap_or(0) as usize),
            });
        }
        self.live[o] = false;
        let all = Arc::clone(&self.option_items);
        let items = &all[o];
        for &i in items.iter() {
            self.len[i as usize] -= 1;
            self.covered[i as usize] = true;
        }
        self.committed.push(option);
        let mut result = Ok(());
        let by_item = Arc::clone(&self.item_options);
        for &i in items.iter() {
            for &p in by_item[i as usize].iter() {
                if let Err(c) = self.eliminate(OptionId::must(p as usize)) {
                    result = result.and(Err(c));
                }
            }
        }
        result
    }
}

/// The singles: each uncovered primary item with one live option, and
/// that option, in item order.
pub fn singles(live: &LiveMatrix) -> impl Iterator<Item = (ItemId, OptionId)> + '_ {
    (0..live.primary).filter_map(move |i| {
        let item = ItemId::must(i);
        if live.covered[i] || live.len[i] != 1 {
            return None;
        }
        live.options(item).next().map(|o| (item, o))
    })
}

/// k items within k items (see the module overview): `a` and `b` are the
/// items, `eliminate` the live options it rules out (never empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Within {
    /// The k items whose options lie within `b`.
    pub a: Vec<ItemId>,
    /// The k items those options cover.
    pub b: Vec<ItemId>,
    /// The live options ruled out: those on `b` not on `a`, and those on
    /// `a` covering two of `b`.
    pub eliminate: Vec<OptionId>,
}

/// The first k items of `a_pool` within k items of `b_pool` that rules
/// something out, trying subsets of `a_pool` in lexicographic order.
/// Items of `a_pool` taken have between 2 and `most` live options (1 is a
/// single), are uncovered and primary; so are those of `b_pool` (at most
/// 64 of them are looked at).
pub fn within(
    live: &LiveMatrix,
    a_pool: &[ItemId],
    b_pool: &[ItemId],
    k: usize,
    most: usize,
) -> Option<Within> {
    let mut first = None;
    within_each(live, a_pool, b_pool, k, most, &mut |w| {
        first = Some(w.clone());
        true
    });
    first
}

/// Each k items of `a_pool` within k items of `b_pool` that rules
/// something out, in [`within`]'s order, until `found` answers true.
pub fn within_each(
    live: &LiveMatrix,
    a_pool: &[ItemId],
    b_pool: &[ItemId],
    k: usize,
    most: usize,
    found: &mut dyn FnMut(&Within) -> bool,
) {
    let b_pool: SmallVec<[ItemId; 64]> = b_pool
        .iter()
        .copied()
        .filter(|&i| i.as_usize() < live.primary && !live.is_covered(i))
        .take(64)
        .collect();
    let range = b_pool.iter().min().zip(b_pool.iter().max());
    // Each candidate A item with the set of B items its options cover, as
    // a mask over `b_pool`; every one of its options must cover one.
    let candidates: SmallVec<[(ItemId, u64); 16]> = a_pool
        .iter()
        .copied()
        .filter(|&i| i.as_usize() < live.primary && !live.is_covered(i))
        .filter(|&i| (2..=most).contains(&live.len(i)))
        .filter_map(|i| {
            let mut mask = 0u64;
            for o in live.options(i) {
                let hit = b_mask_in(live, o, &b_pool, range);
                if hit == 0 {
                    return None;
                }
                mask |= hit;
                if mask.count_ones() as usize > k {
                    return None;
                }
            }
            Some((i, mask))
        })
        .collect();
    if k == 0 || candidates.len() < k {
        return;
    }
    let mut search = Search {
        live,
        candidates: &candidates,
        b_pool: &b_pool,
        k,
        chosen: Vec::with_capacity(k),
        found,
    };
    search.from(0, 0);
}

/// The mask over `b_pool` of the items `option` covers.
fn b_mask(live: &LiveMatrix, option: OptionId, b_pool: &[ItemId]) -> u64 {
    let range = b_pool.iter().min().zip(b_pool.iter().max());
    b_mask_in(live, option, b_pool, range)
}

/// [`b_mask`] with the pool's least and greatest items.
fn b_mask_in(
    live: &LiveMatrix,
    option: OptionId,
    b_pool: &[ItemId],
    range: Option<(&ItemId, &ItemId)>,
) -> u64 {
    let Some((&lo, &hi)) = range else {
        return 0;
    };
    let mut mask = 0;
    for i in live.items(option) {
        if i < lo || i > hi {
            continue;
        }
        if let Some(k) = b_pool.iter().position(|&b| b == i) {
            mask |= 1 << k;
        }
    }
    mask
}

/// The subsets of candidates [`within_each`] walks.
struct Search<'a, 'f> {
    live: &'a LiveMatrix,
    candidates: &'a [(ItemId, u64)],
    b_pool: &'a [ItemId],
    k: usize,
    chosen: Vec<usize>,
    found: &'f mut dyn FnMut(&Within) -> bool,
}

impl Search<'_, '_> {
    /// Extends the chosen items from candidate `from` on; true once
    /// `found` asks to stop.
    fn from(&mut self, from: usize, mask: u64) -> bool {
        if self.chosen.len() == self.k {
            if mask.count_ones() as usize != self.k {
                return false;
            }
            return match eliminations(self.live, self.candidates, self.b_pool, &self.chosen, mask) {
                Some(w) => (self.found)(&w),
                None => false,
            };
        }
        for c in from..self.candidates.len() {
            let (item, m) = self.candidates[c];
            let union = mask | m;
            if union.count_ones() as usize > self.k {
                continue;
            }
            // No live option of `item` may cover an item already chosen.
            let live = self.live;
            let candidates = self.candidates;
            if self.chosen.iter().any(|&p| {
                live.options(item)
                    .any(|o| live.items(o).any(|i| i == candidates[p].0))
            }) {
                continue;
            }
            self.chosen.push(c);
            if self.from(c + 1, union) {
                return true;
            }
            self.chosen.pop();
        }
        false
    }
}

/// The eliminations of a set `chosen` within `mask`, if any.
fn eliminations(
    live: &LiveMatrix,
    candidates: &[(ItemId, u64)],
    b_pool: &[ItemId],
    chosen: &[usize],
    mask: u64,
) -> Option<Within> {
    let a: Vec<ItemId> = chosen.iter().map(|&c| candidates[c].0).collect();
    let b: Vec<ItemId> = (0..b_pool.len())
        .filter(|&k| mask >> k & 1 == 1)
        .map(|k| b_pool[k])
        .collect();
    let mut eliminate = Vec::new();
    for &item in &b {
        for o in live.options(item) {
            let on_a = live.items(o).any(|i| a.contains(&i));
            if !on_a && !eliminate.contains(&o) {
                eliminate.push(o);
            }
        }
    }
    for &item in &a {
        for o in live.options(item) {
            if b_mask(live, o, b_pool).count_ones() > 1 && !eliminate.contains(&o) {
                eliminate.push(o);
            }
        }
    }
    eliminate.sort_unstable();
    (!eliminate.is_empty()).then_some(Within { a, b, eliminate })
}

// ---------------------------------------------------------------------------
// Chains: what an assumption implies.

/// An option assumed or implied to be chosen (`on`) or not (`off`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Potential {
    /// The option.
    pub option: OptionId,
    /// Chosen (true) or ruled out (false).
    pub on: bool,
}

impl Potential {
    fn key(self) -> usize {
        self.option.as_usize() * 2 + usize::from(self.on)
    }
}

/// How implications are drawn ([`implications`]).
#[derive(Clone, Copy)]
pub struct Links<'a> {
    /// Whether an item may carry a link: an option on rules out the other
    /// options on the item; an option off leaves the item's last one on.
    pub item: &'a dyn Fn(ItemId) -> bool,
    /// Dynamic: an item's last option is the one left once the options
    /// implied off so far are gone (not only an item with two options).
    pub dynamic: bool,
    /// Stop at the first potential implied both on and off (else go on
    /// to every implication, the first contradiction kept).
    pub stop: bool,
}

impl std::fmt::Debug for Links<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Links")
            .field("dynamic", &self.dynamic)
            .finish_non_exhaustive()
    }
}

/// The potentials an assumption implies, each with the potentials it
/// follows from (its parents), found breadth first, options on before
/// options off; stopped at the first potential implied both on and off
/// where [`Links::stop`] says so.
///
/// Its size is that of what was implied, not of the matrix: a search that
/// draws thousands of them over a matrix of many options (a variant's
/// automata) pays for what each one reaches.
#[derive(Clone, Debug)]
pub struct Implied {
    /// In the order found.
    order: Vec<Potential>,
    /// Each potential's parents (by [`Potential::key`]), as a range of
    /// `arena`, in the order of `order`.
    ranges: Vec<(u32, u32)>,
    arena: Vec<u32>,
    /// `(key, place in order)`, sorted by key.
    index: Vec<(u32, u32)>,
    /// A potential implied both on and off (the `on` one).
    pub contradiction: Option<Potential>,
}

impl Implied {
    fn place(&self, key: usize) -> Option<usize> {
        let key = u32::try_from(key).ok()?;
        self.index
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .map(|i| self.index[i].1 as usize)
    }

    /// Whether `p` is implied.
    pub fn has(&self, p: Potential) -> bool {
        self.place(p.key()).is_some()
    }

    /// The potentials implied, in the order found.
    pub fn potentials(&self) -> &[Potential] {
        &self.order
    }

    /// The potentials `p` follows from directly (none for the assumption).
    pub fn parent_list(&self, p: Potential) -> Vec<Potential> {
        self.parent_keys(p.key() as u32)
            .iter()
            .map(|&k| Potential {
                option: OptionId::must(k as usize / 2),
                on: k % 2 == 1,
            })
            .collect()
    }

    fn parent_keys(&self, key: u32) -> &[u32] {
        match self.place(key as usize) {
            Some(i) => {
                let (from, to) = self.ranges[i];
                &self.arena[from as usize..to as usize]
            }
            None => &[],
        }
    }

    /// How many potentials `p` follows from, itself included (SE's
    /// complexity of a chain).
    pub fn ancestors(&self, p: Potential) -> usize {
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![p.key() as u32];
        while let Some(k) = todo.pop() {
            if !seen.insert(k) {
                continue;
            }
            todo.extend(self.parent_keys(k).iter().copied());
        }
        seen.len()
    }
}

/// Potentials off that other rules draw, each with those it follows from
/// (see [`implications`]).
pub type Drawn = Vec<(Potential, Vec<Potential>)>;

/// The working arrays of one [`implications`] run, sized to the matrix
/// and kept between runs (a pool a thread, since a run's `extra` may run
/// others inside it): at rest every `slot` is `u32::MAX`, every `off`
/// false and every `gone` 0, so a run pays for what it touches, not for
/// the matrix.
#[derive(Default)]
struct Scratch {
    /// Each potential's place in the run's `order` (`u32::MAX`: not
    /// implied), by [`Potential::key`].
    slot: Vec<u32>,
    /// Options implied off so far.
    off: Vec<bool>,
    /// Each item's options implied off so far.
    gone: Vec<u32>,
    /// The options set in `off`.
    offs: Vec<u32>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Vec<Scratch>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Everything `assumed` implies on `live` under `links` (see [`Links`]),
/// to the first contradiction. `extra`, called whenever nothing more
/// follows directly, may add potentials off (with their parents) drawn by
/// other rules from the options implied off so far; it answers none to
/// stop.
pub fn implications(
    live: &LiveMatrix,
    links: Links<'_>,
    assumed: Potential,
    extra: &mut dyn FnMut(&[bool]) -> Drawn,
) -> Implied {
    let mut scratch = SCRATCH
        .with(|pool| pool.borrow_mut().pop())
        .unwrap_or_default();
    let options = live.option_count();
    if scratch.slot.len() < options * 2 {
        scratch.slot.resize(options * 2, u32::MAX);
        scratch.off.resize(options, false);
    }
    if scratch.gone.len() < live.len.len() {
        scratch.gone.resize(live.len.len(), 0);
    }
    let Run {
        order,
        ranges,
        arena,
        contradiction,
    } = implications_in(live, links, assumed, extra, &mut scratch);
    // Back to rest, and to the pool.
    for p in &order {
        scratch.slot[p.key()] = u32::MAX;
    }
    for &o in &scratch.offs {
        let option = OptionId::must(o as usize);
        scratch.off[o as usize] = false;
        for i in live.items(option) {
            scratch.gone[i.as_usize()] = 0;
        }
    }
    scratch.offs.clear();
    SCRATCH.with(|pool| pool.borrow_mut().push(scratch));
    let mut index: Vec<(u32, u32)> = order
        .iter()
        .enumerate()
        .map(|(i, p)| (p.key() as u32, i as u32))
        .collect();
    index.sort_unstable();
    Implied {
        order,
        ranges,
        arena,
        index,
        contradiction,
    }
}

/// What one run of [`implications`] found so far.
#[derive(Default)]
struct Run {
    order: Vec<Potential>,
    ranges: Vec<(u32, u32)>,
    arena: Vec<u32>,
    contradiction: Option<Potential>,
}

impl Run {
    /// Adds `p` with its `parents` (false if it was implied already), and
    /// notes the first contradiction; `slot` is the scratch's.
    fn add(&mut self, slot: &mut [u32], p: Potential, parents: &[u32]) -> bool {
        if slot[p.key()] != u32::MAX {
            return false;
        }
        slot[p.key()] = self.order.len() as u32;
        let from = self.arena.len() as u32;
        self.arena.extend_from_slice(parents);
        self.ranges.push((from, self.arena.len() as u32));
        self.order.push(p);
        let conjugate = Potential { on: !p.on, ..p };
        if slot[conjugate.key()] != u32::MAX && self.contradiction.is_none() {
            self.contradiction = Some(if p.on { p } else { conjugate });
        }
        true
    }
}

/// The run of [`implications`] on its scratch.
fn implications_in(
    live: &LiveMatrix,
    links: Links<'_>,
    assumed: Potential,
    extra: &mut dyn FnMut(&[bool]) -> Drawn,
    scratch: &mut Scratch,
) -> Run {
    let Scratch {
        slot,
        off,
        gone,
        offs,
    } = scratch;
    let mut run = Run::default();
    let mut pending_on = std::collections::VecDeque::new();
    let mut pending_off = std::collections::VecDeque::new();
    let stop = |run: &Run| links.stop && run.contradiction.is_some();
    run.add(slot, assumed, &[]);
    if assumed.on {
        pending_on.push_back(assumed);
    } else {
        pending_off.push_back(assumed);
    }
    let mut parents: Vec<u32> = Vec::new();
    loop {
        if stop(&run) {
            return run;
        }
        if let Some(p) = pending_on.pop_front() {
            for i in live.items(p.option) {
                if !(links.item)(i) {
                    continue;
                }
                for q in live.options(i) {
                    let q = Potential {
                        option: q,
                        on: false,
                    };
                    if q.option != p.option && run.add(slot, q, &[p.key() as u32]) {
                        pending_off.push_back(q);
                        if stop(&run) {
                            return run;
                        }
                    }
                }
            }
            continue;
        }
        if let Some(p) = pending_off.pop_front() {
            let o = p.option.as_usize();
            if !off[o] {
                off[o] = true;
                offs.push(o as u32);
                for i in live.items(p.option) {
                    gone[i.as_usize()] += 1;
                }
            }
            for i in live.items(p.option) {
                if !(links.item)(i) || i.as_usize() >= live.primary || live.is_covered(i) {
                    continue;
                }
                let last = if links.dynamic {
                    if live.len[i.as_usize()] - gone[i.as_usize()] != 1 {
                        continue;
                    }
                    // Its parents: every option of the item implied off.
                    parents.clear();
                    parents.extend(live.options(i).filter(|q| off[q.as_usize()]).map(|q| {
                        Potential {
                            option: q,
                            on: false,
                        }
                        .key() as u32
                    }));
                    live.options(i).find(|q| !off[q.as_usize()])
                } else {
                    if live.len(i) != 2 {
                        continue;
                    }
                    parents.clear();
                    parents.push(p.key() as u32);
                    live.options(i).find(|&q| q != p.option)
                };
                let Some(last) = last else {
                    continue;
                };
                let q = Potential {
                    option: last,
                    on: true,
                };
                if run.add(slot, q, &parents) {
                    pending_on.push_back(q);
                    if stop(&run) {
                        return run;
                    }
                }
            }
            continue;
        }
        let more = extra(&off[..live.option_count()]);
        let mut any = false;
        for (q, from) in more {
            parents.clear();
            parents.extend(from.iter().map(|p| p.key() as u32));
            if !q.on && run.add(slot, q, &parents) {
                pending_off.push_back(q);
                any = true;
            }
        }
        if !any {
            return run;
        }
    }
}

/// What every potential implies along static links, for all of them at
/// once: the closure [`implications`] draws with `dynamic` and `extra`
/// off, as bit sets, so a rule that asks "does this assumption lead to a
/// contradiction, or to that potential?" of many assumptions pays one
/// pass instead of one search each. It answers yes or no; the chain
/// itself is [`implications`]'s to draw.
///
/// Static links make implication a fixed graph over the live options'
/// potentials (on: every other live option on its items off; off: an
/// uncovered primary item's other option on where the item has two), so
/// each potential's closure is what it reaches: the graph's strongly
/// connected components, each given the union of what its successors
/// reach, in the reverse topological order Tarjan's algorithm emits them.
#[derive(Clone, Debug)]
pub struct Closures {
    /// Each option's place among the live ones (`u32::MAX`: not live).
    index: Vec<u32>,
    /// 64-bit words a set takes.
    words: usize,
    /// Each potential's component (potential `2·index + on`).
    component: Vec<u32>,
    /// Each component's closure: bit `2·index + on` a potential.
    reach: Vec<u64>,
}

impl Closures {
    /// The closures on `live`, links on the items `item` allows.
    pub fn new(live: &LiveMatrix, item: &dyn Fn(ItemId) -> bool) -> Closures {
        let mut index = vec![u32::MAX; live.option_count()];
        let mut options = Vec::new();
        for (o, &alive) in live.live.iter().enumerate() {
            if alive {
                index[o] = options.len() as u32;
                options.push(o as u32);
            }
        }
        let nodes = options.len() * 2;
        // The graph, each potential's successors a range of `edges`.
        let mut start = Vec::with_capacity(nodes + 1);
        let mut edges: Vec<u32> = Vec::with_capacity(nodes * 8);
        let linked: Vec<bool> = (0..live.len.len()).map(|i| item(ItemId::must(i))).collect();
        // Each linked item's live options, as potentials' places.
        let mut at = Vec::with_capacity(live.len.len() + 1);
        let mut alive: Vec<u32> = Vec::new();
        for (i, os) in live.item_options.iter().enumerate() {
            at.push(alive.len());
            if linked[i] {
                alive.extend(
                    os.iter()
                        .filter(|&&q| live.live[q as usize])
                        .map(|&q| index[q as usize]),
                );
            }
        }
        at.push(alive.len());
        for &o in &options {
            let me = index[o as usize];
            let items = &live.option_items[o as usize];
            // Off: an item of two options leaves the other one.
            start.push(edges.len() as u32);
            for &i in items.iter() {
                let i = i as usize;
                if !linked[i] || i >= live.primary || live.covered[i] || live.len[i] != 2 {
                    continue;
                }
                if let Some(&q) = alive[at[i]..at[i + 1]].iter().find(|&&q| q != me) {
                    edges.push(q * 2 + 1);
                }
            }
            // On: every other option on its items goes.
            start.push(edges.len() as u32);
            for &i in items.iter() {
                let i = i as usize;
                if !linked[i] {
                    continue;
                }
                edges.extend(
                    alive[at[i]..at[i + 1]]
                        .iter()
                        .filter(|&&q| q != me)
                        .map(|&q| q * 2),
                );
            }
        }
        start.push(edges.len() as u32);
        let words = nodes.div_ceil(64).max(1);
        let (component, reach) = tarjan(nodes, &start, &edges, words);
        Closures {
            index,
            words,
            component,
            reach,
        }
    }

    fn set(&self, p: Potential) -> Option<&[u64]> {
        let i = *self.index.get(p.option.as_usize())?;
        if i == u32::MAX {
            return None;
        }
        let c = self.component[(i * 2 + u32::from(p.on)) as usize] as usize;
        Some(&self.reach[c * self.words..(c + 1) * self.words])
    }

    fn bit(&self, p: Potential) -> Option<usize> {
        let i = *self.index.get(p.option.as_usize())?;
        (i != u32::MAX).then_some((i * 2 + u32::from(p.on)) as usize)
    }

    /// Whether `p` (of a live option) implies some potential both on and
    /// off.
    pub fn contradicts(&self, p: Potential) -> bool {
        const OFF: u64 = 0x5555_5555_5555_5555;
        self.set(p)
            .is_some_and(|set| set.iter().any(|&w| w & (w >> 1) & OFF != 0))
    }

    /// Whether `p` implies `q` (both of live options).
    pub fn implies(&self, p: Potential, q: Potential) -> bool {
        match (self.set(p), self.bit(q)) {
            (Some(set), Some(b)) => set[b / 64] >> (b % 64) & 1 == 1,
            _ => false,
        }
    }

    /// Whether some potential of a live option other than those of
    /// `assumed` is implied by each of `assumed` on.
    pub fn common(&self, assumed: &[OptionId]) -> bool {
        let mut all = vec![u64::MAX; self.words];
        for &o in assumed {
            let Some(set) = self.set(Potential {
                option: o,
                on: true,
            }) else {
                return false;
            };
            for (a, &w) in all.iter_mut().zip(set) {
                *a &= w;
            }
        }
        for &o in assumed {
            if let Some(b) = self.bit(Potential {
                option: o,
                on: false,
            }) {
                // Its off and on bits (an even bit and the next).
                all[b / 64] &= !(0b11 << (b % 64));
            }
        }
        let nodes = self.component.len();
        all.iter().enumerate().any(|(k, &w)| {
            let valid = if (k + 1) * 64 <= nodes {
                u64::MAX
            } else {
                (1u64 << (nodes - k * 64)) - 1
            };
            w & valid != 0
        })
    }
}

/// Tarjan's strongly connected components of the graph (`start`, `edges`)
/// over `nodes`, iterative; each component's closure over `words` words.
fn tarjan(nodes: usize, start: &[u32], edges: &[u32], words: usize) -> (Vec<u32>, Vec<u64>) {
    const NONE: u32 = u32::MAX;
    let mut order = vec![NONE; nodes];
    let mut low = vec![0u32; nodes];
    let mut component = vec![NONE; nodes];
    // The last component each component's closure was merged into.
    let mut merged = vec![NONE; nodes];
    let mut reach: Vec<u64> = Vec::with_capacity(nodes * words);
    let mut stack: Vec<u32> = Vec::new();
    // The walk: a node and the next of its edges to follow.
    let mut walk: Vec<(u32, u32)> = Vec::new();
    let mut counter = 0u32;
    for root in 0..nodes as u32 {
        if order[root as usize] != NONE {
            continue;
        }
        walk.push((root, start[root as usize]));
        order[root as usize] = counter;
        low[root as usize] = counter;
        counter += 1;
        stack.push(root);
        while let Some(&mut (v, ref mut next)) = walk.last_mut() {
            let v = v as usize;
            if *next < start[v + 1] {
                let w = edges[*next as usize] as usize;
                *next += 1;
                if order[w] == NONE {
                    order[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w as u32);
                    walk.push((w as u32, start[w]));
                } else if component[w] == NONE {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            walk.pop();
            if let Some(&(parent, _)) = walk.last() {
                low[parent as usize] = low[parent as usize].min(low[v]);
            }
            if low[v] != order[v] {
                continue;
            }
            // v roots a component: pop it, and give it its members and
            // what its members' successors (in earlier components) reach,
            // each successor component once.
            let c = (reach.len() / words) as u32;
            reach.resize(reach.len() + words, 0);
            let from = stack.iter().rposition(|&x| x as usize == v).unwrap_or(0);
            for &m in &stack[from..] {
                component[m as usize] = c;
            }
            let base = c as usize * words;
            let (done, this) = reach.split_at_mut(base);
            for &m in &stack[from..] {
                this[m as usize / 64] |= 1 << (m % 64);
                for e in start[m as usize]..start[m as usize + 1] {
                    let d = component[edges[e as usize] as usize];
                    if d == c || merged[d as usize] == c {
                        continue;
                    }
                    merged[d as usize] = c;
                    let other = &done[d as usize * words..(d as usize + 1) * words];
                    for (a, &b) in this.iter_mut().zip(other) {
                        *a |= b;
                    }
                }
            }
            stack.truncate(from);
        }
    }
    (component, reach)
}

/// The live options on `scope`'s items that no cover of those items alone
/// takes: each primary item of `scope` (uncovered) exactly once, each
/// secondary one and each of `at_most` at most once, by the live options
/// on `scope` restricted to `scope` and `at_most`. Every exact cover of the
/// matrix gives one (its options on `scope`), so an option in none is in
/// no exact cover either: what a constraint's own items rule out, when
/// `scope` is its items and the cells it reads (and `at_most` the items of
/// the houses those cells share: two of its cells in a row never hold one
/// digit).
/// In order; `None` when the search looked at more than `budget` options
/// (nothing is then known).
pub fn unsupported(
    live: &LiveMatrix,
    scope: &[ItemId],
    at_most: &[ItemId],
    budget: usize,
) -> Option<Vec<OptionId>> {
    let mut local = Local::new(live, scope, at_most);
    let mut supported = vec![false; local.options.len()];
    for x in 0..local.options.len() {
        if supported[x] {
            continue;
        }
        local.reset();
        local.take(x as u32);
        match local.search(budget) {
            Some(true) => {
                for &o in &local.chosen {
                    supported[o as usize] = true;
                }
            }
            Some(false) => {}
            None => return None,
        }
    }
    let mut gone: Vec<OptionId> = (0..local.options.len())
        .filter(|&x| !supported[x])
        .map(|x| local.global[x])
        .collect();
    gone.sort_unstable();
    Some(gone)
}

/// The exact cover [`unsupported`] searches: the live options on some
/// items, restricted to them.
struct Local {
    /// Whether each local item is primary.
    primary: Vec<bool>,
    /// Each local option's local items, and its option in the matrix.
    options: Vec<SmallVec<[u32; 8]>>,
    global: Vec<OptionId>,
    /// Each local item's local options.
    by_item: Vec<Vec<u32>>,
    used: Vec<bool>,
    chosen: Vec<u32>,
    nodes: usize,
}

impl Local {
    fn new(live: &LiveMatrix, scope: &[ItemId], at_most: &[ItemId]) -> Local {
        let mut place = std::collections::HashMap::new();
        let mut primary = Vec::new();
        for (&i, only_once) in scope
            .iter()
            .map(|i| (i, false))
            .chain(at_most.iter().map(|i| (i, true)))
        {
            if live.is_covered(i) || place.contains_key(&i) {
                continue;
            }
            place.insert(i, primary.len() as u32);
            primary.push(!only_once && i.as_usize() < live.primary);
        }
        let mut seen = std::collections::HashSet::new();
        let (mut options, mut global) = (Vec::new(), Vec::new());
        let mut by_item = vec![Vec::new(); primary.len()];
        for &i in scope {
            if !place.contains_key(&i) {
                continue;
            }
            for o in live.options(i) {
                if !seen.insert(o) {
                    continue;
                }
                let items: SmallVec<[u32; 8]> = live
                    .items(o)
                    .filter_map(|j| place.get(&j).copied())
                    .collect();
                for &j in &items {
                    by_item[j as usize].push(options.len() as u32);
                }
                options.push(items);
                global.push(o);
            }
        }
        Local {
            used: vec![false; primary.len()],
            primary,
            options,
            global,
            by_item,
            chosen: Vec::new(),
            nodes: 0,
        }
    }

    fn reset(&mut self) {
        self.used.iter_mut().for_each(|u| *u = false);
        self.chosen.clear();
    }

    fn free(&self, o: u32) -> bool {
        self.options[o as usize]
            .iter()
            .all(|&j| !self.used[j as usize])
    }

    fn take(&mut self, o: u32) {
        for &j in &self.options[o as usize] {
            self.used[j as usize] = true;
        }
        self.chosen.push(o);
    }

    fn give_back(&mut self, o: u32) {
        for &j in &self.options[o as usize] {
            self.used[j as usize] = false;
        }
        self.chosen.pop();
    }

    /// A cover of the items not used yet (left in `chosen`): true, none:
    /// false, past `budget` options looked at in all: `None`.
    fn search(&mut self, budget: usize) -> Option<bool> {
        if self.nodes > budget {
            return None;
        }
        // The primary item with the fewest free options.
        let mut best: Option<(usize, usize)> = None;
        for j in 0..self.primary.len() {
            if !self.primary[j] || self.used[j] {
                continue;
            }
            self.nodes += self.by_item[j].len();
            let free = self.by_item[j].iter().filter(|&&o| self.free(o)).count();
            if free == 0 {
                return Some(false);
            }
            if best.is_none_or(|(_, f)| free < f) {
                best = Some((j, free));
            }
        }
        let Some((j, _)) = best else {
            return Some(true);
        };
        for k in 0..self.by_item[j].len() {
            let o = self.by_item[j][k];
            if !self.free(o) {
                continue;
            }
            self.take(o);
            match self.search(budget) {
                Some(false) => self.give_back(o),
                found => return found,
            }
        }
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlx::MatrixBuilder;
    use proptest::prelude::*;

    /// A matrix from option lists over `items` primary items.
    fn matrix(items: usize, options: &[Vec<usize>]) -> Matrix {
        let mut b = MatrixBuilder::new();
        for i in 0..items {
            b.primary(&format!("i{i}")).unwrap();
        }
        for o in options {
            let names: Vec<String> = o.iter().map(|i| format!("i{i}")).collect();
            b.option_by_names(names.iter().map(String::as_str)).unwrap();
        }
        b.build().unwrap()
    }

    /// Every exact cover of the live options (brute force over subsets).
    fn covers(m: &Matrix, live: &LiveMatrix) -> Vec<Vec<usize>> {
        let n = m.option_count();
        let mut all = Vec::new();
        for set in 0u32..1 << n {
            let mut hit = vec![0; m.primary_count()];
            let mut ok = true;
            for o in (0..n).filter(|o| set >> o & 1 == 1) {
                if !live.is_live(OptionId::must(o)) {
                    ok = false;
                }
                for (i, _) in m.option_items(OptionId::must(o)) {
                    hit[i.as_usize()] += 1;
                }
            }
            if ok && hit.iter().all(|&h| h == 1) {
                all.push((0..n).filter(|o| set >> o & 1 == 1).collect());
            }
        }
        all
    }

    proptest! {
        /// Singles and k-within-k never rule out an option of an exact
        /// cover, on random small matrices.
        #[test]
        fn the_rules_keep_every_exact_cover(
            options in prop::collection::vec(prop::collection::btree_set(0usize..6, 1..4), 1..12),
            k in 1usize..4,
        ) {
            let options: Vec<Vec<usize>> = options.into_iter().map(|s| s.into_iter().collect()).collect();
            let m = matrix(6, &options);
            let mut live = LiveMatrix::new(&m).unwrap();
            let before = covers(&m, &live);
            let items: Vec<ItemId> = (0..6).map(ItemId::must).collect();
            if let Some(w) = within(&live, &items, &items, k, 6) {
                for &o in &w.eliminate {
                    prop_assert!(before.iter().all(|c| !c.contains(&o.as_usize())), "{w:?} {before:?}");
                }
                for &o in &w.eliminate {
                    let _ = live.eliminate(o);
                }
            }
            let singles: Vec<(ItemId, OptionId)> = singles(&live).collect();
            let after = covers(&m, &live);
            prop_assert_eq!(&before, &after);
            for (_, o) in singles {
                prop_assert!(after.iter().all(|c| c.contains(&o.as_usize())));
            }
        }
    }

    proptest! {
        /// What an assumption implies holds in every exact cover that
        /// agrees with the assumption, static or dynamic; a contradiction
        /// means none does.
        #[test]
        fn implications_hold_in_every_cover_that_agrees(
            options in prop::collection::vec(prop::collection::btree_set(0usize..6, 1..4), 1..12),
            pick in 0usize..12,
            on in any::<bool>(),
            dynamic in any::<bool>(),
            stop in any::<bool>(),
        ) {
            let options: Vec<Vec<usize>> = options.into_iter().map(|s| s.into_iter().collect()).collect();
            let m = matrix(6, &options);
            let live = LiveMatrix::new(&m).unwrap();
            let option = OptionId::must(pick % options.len());
            let all = |_: ItemId| true;
            let links = Links { item: &all, dynamic, stop };
            let implied = implications(&live, links, Potential { option, on }, &mut |_| Vec::new());
            let agreeing: Vec<Vec<usize>> = covers(&m, &live)
                .into_iter()
                .filter(|c| c.contains(&option.as_usize()) == on)
                .collect();
            if implied.contradiction.is_some() {
                prop_assert!(agreeing.is_empty(), "{implied:?}");
            }
            for c in &agreeing {
                for p in implied.potentials() {
                    prop_assert_eq!(c.contains(&p.option.as_usize()), p.on, "{:?} in {:?}", p, c);
                }
            }
        }
    }

    proptest! {
        /// The closures say what [`implications`] draws with static links,
        /// on random matrices with some options gone (up to 96 potentials:
        /// sets of two words).
        #[test]
        fn closures_agree_with_static_implications(
            options in prop::collection::vec(prop::collection::btree_set(0usize..8, 1..4), 1..=48),
            gone in prop::collection::vec(0u8..8, 48),
            filter in any::<u8>(),
        ) {
            let options: Vec<Vec<usize>> = options.into_iter().map(|s| s.into_iter().collect()).collect();
            let m = matrix(8, &options);
            let mut live = LiveMatrix::new(&m).unwrap();
            for (o, &g) in gone.iter().enumerate().take(options.len()) {
                if g == 0 {
                    let _ = live.eliminate(OptionId::must(o));
                }
            }
            let item = |i: ItemId| filter >> i.as_usize() & 1 == 1 || filter == 0;
            let closures = Closures::new(&live, &item);
            let links = Links { item: &item, dynamic: false, stop: false };
            let alive: Vec<OptionId> = (0..options.len()).map(OptionId::must).filter(|&o| live.is_live(o)).collect();
            for &o in &alive {
                for on in [false, true] {
                    let p = Potential { option: o, on };
                    let implied = implications(&live, links, p, &mut |_| Vec::new());
                    prop_assert_eq!(closures.contradicts(p), implied.contradiction.is_some());
                    for &q in &alive {
                        for q_on in [false, true] {
                            let q = Potential { option: q, on: q_on };
                            prop_assert_eq!(closures.implies(p, q), implied.has(q), "{:?} {:?}", p, q);
                        }
                    }
                }
            }
            // Common to the options of an item, theirs aside.
            for i in (0..8).map(ItemId::must) {
                let assumed: Vec<OptionId> = live.options(i).collect();
                if assumed.is_empty() {
                    continue;
                }
                let branches: Vec<Implied> = assumed.iter().map(|&o| implications(&live, links, Potential { option: o, on: true }, &mut |_| Vec::new())).collect();
                let expected = branches[0].potentials().iter().any(|p| !assumed.contains(&p.option) && branches.iter().all(|b| b.has(*p)));
                prop_assert_eq!(closures.common(&assumed), expected);
            }
        }
    }

    proptest! {
        /// What a part of the matrix rules out alone is in no exact cover;
        /// with every item in scope, it is exactly the options in none.
        #[test]
        fn unsupported_options_are_in_no_cover(
            options in prop::collection::vec(prop::collection::btree_set(0usize..6, 1..4), 1..12),
            part in any::<u8>(),
            once in any::<u8>(),
        ) {
            let options: Vec<Vec<usize>> = options.into_iter().map(|s| s.into_iter().collect()).collect();
            let m = matrix(6, &options);
            let live = LiveMatrix::new(&m).unwrap();
            let in_some: Vec<bool> = {
                let covers = covers(&m, &live);
                (0..options.len()).map(|o| covers.iter().any(|c| c.contains(&o))).collect()
            };
            let all: Vec<ItemId> = (0..6).map(ItemId::must).collect();
            let gone = unsupported(&live, &all, &[], usize::MAX).unwrap();
            let expected: Vec<OptionId> = (0..options.len()).filter(|&o| !in_some[o]).map(OptionId::must).collect();
            prop_assert_eq!(gone, expected);
            let scope: Vec<ItemId> = all.iter().copied().filter(|i| part >> i.as_usize() & 1 == 1).collect();
            let at_most: Vec<ItemId> = all.iter().copied().filter(|i| once >> i.as_usize() & 1 == 1).collect();
            for o in unsupported(&live, &scope, &at_most, usize::MAX).unwrap() {
                prop_assert!(!in_some[o.as_usize()], "{:?}", o);
            }
        }
    }

    #[test]
    fn a_commit_covers_its_items_and_kills_the_options_on_them() {
        // Items 0..3; options {0,1}, {1,2}, {2}, {0}.
        let m = matrix(3, &[vec![0, 1], vec![1, 2], vec![2], vec![0]]);
        let mut live = LiveMatrix::new(&m).unwrap();
        live.commit(OptionId::must(0)).unwrap();
        assert!(live.is_covered(ItemId::must(0)) && live.is_covered(ItemId::must(1)));
        assert!(!live.is_live(OptionId::must(1)) && !live.is_live(OptionId::must(3)));
        assert_eq!(live.len(ItemId::must(2)), 1);
        assert_eq!(
            singles(&live).next(),
            Some((ItemId::must(2), OptionId::must(2)))
        );
        live.commit(OptionId::must(2)).unwrap();
        assert!(live.solved());
        // Killing the last option of items 1 and 2 is a contradiction (on
        // the first).
        let mut other = LiveMatrix::new(&m).unwrap();
        other.commit(OptionId::must(3)).unwrap();
        other.eliminate(OptionId::must(2)).unwrap();
        assert_eq!(
            other.eliminate(OptionId::must(1)),
            Err(Contradiction {
                item: ItemId::must(1)
            })
        );
    }
}
