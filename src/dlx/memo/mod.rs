//! Memo counting: the number of solutions without visiting each one, as
//! Nishino, Yasuda, Minato and Nagata's DXZ does ("Dancing with Decision
//! Diagrams", AAAI 2017).
//!
//! After some options are chosen, what remains to count depends only on
//! the *state*: which items are covered and, for secondary items, which
//! color each was given. Two branches of the search that reach the same
//! state have the same number of completions, so the count of a state is
//! computed once and kept in a table; the search asks the table before it
//! enters a state. Tilings are the case in point: dominoes on an 18×18
//! board have 548,943,583,215,388,338,077,567,813,208,427,340,288 tilings
//! and a few million states.
//!
//! The search here is its own, not the driver's: a state is the key itself
//! (a bit per item covered, a color per secondary item that options color),
//! each level of the search holds its state whole (a child is its parent's
//! words with the option's bits set: nothing is undone), and the item
//! branched on is chosen by [`MemoOrder`] — by default the first uncovered
//! primary item in item order, which makes the covered items a prefix and
//! a narrow frontier, the states that recur (BENCHMARKS.md, "Memo
//! counting"). On threads ([`Memo::jobs`], `parallel.rs`) the first levels
//! are cut into states that the threads share out, over one sharded table.
//!
//! Invariants:
//! * the table keeps whole keys and compares them whole: a hash only picks
//!   the slots to look in (xcover keys its memo by a 32-bit hash and
//!   miscounts); a count in the table is the exact count of its state;
//! * the table never grows past its memory cap ([`Memo::memory`]): when the
//!   slots a key may take are full, one of them is given up (evicted); an
//!   evicted state is counted again when met, so the cap changes the time,
//!   never the count;
//! * counts are kept in a fixed width (128 bits first) and an overflow is
//!   detected, never wrapped: the count then starts again one width up
//!   (256 bits, 1,024, then unbounded), so every count is exact at any size;
//! * a stop by the limits answers a lower bound (`complete: false`), never
//!   a count.
//!
//! [`Memo::zdd`] counts the same way and writes the decision diagram of
//! all the solutions on the way (`zdd.rs`: each state a node or a chain
//! of them; the table's value then carries the state's node).
//!
//! Multiplicities (DLX3's bounds `u:v|`): the state also holds each bounded
//! item's count (16 bits a count) and, while an item is being filled, which
//! item it is and the position in its option list the next option must come
//! after (options are then tried in list order, so each set of options is
//! reached by one path). Once its count reaches v the item is closed; while
//! its count is at least u, closing it is one more branch. The item being
//! filled is branched on until it closes, whatever the order; the
//! first-item order takes the items without bounds first (a tiling's cells
//! before its pieces), then the bounded ones still open. Bounds above
//! 65,535 are refused by name ([`MemoError`]).

mod auto;
mod big;
mod parallel;
mod zdd;

pub use auto::AutoCount;

pub use big::BigCount;
use big::{Tally, Wide};

use super::index::OptionId;
use super::search::{Limits, Progress, Stop, LOOK_NODES, LOOK_UPDATES};
use super::stats::Stats;
use super::Matrix;
use std::fmt;
use std::sync::Arc;

/// The memory cap when none is given: 2 GiB.
pub const DEFAULT_MEMO_BYTES: usize = 2 << 30;

/// Which item a memo search branches on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemoOrder {
    /// The first uncovered primary item, in item order: the covered items
    /// stay a prefix with a narrow frontier, so states recur (the default;
    /// BENCHMARKS.md, "Memo counting").
    #[default]
    FirstItem,
    /// Knuth's: the item with the fewest options left, leftmost on ties
    /// (counted afresh at each state). Fewer states per search where the
    /// matrix has no frontier to keep; far fewer hits on tilings.
    Knuth,
}

impl MemoOrder {
    /// The order's name: `first-item` or `knuth`.
    pub fn name(self) -> &'static str {
        match self {
            MemoOrder::FirstItem => "first-item",
            MemoOrder::Knuth => "knuth",
        }
    }
}

/// Why a matrix cannot be counted with a memo.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MemoError {
    /// An item's upper bound (DLX3's `u:v|`) is above 65,535, more than
    /// the state's 16-bit counts hold.
    Bounds,
    /// [`Memo::count_or_search`] was given a budget of nodes or updates: a
    /// memo's states and a search's nodes are not alike.
    Budget,
    /// [`Memo::zdd`] was asked for more than one thread: the diagram is
    /// written by one search, node after node.
    ZddThreads,
    /// The diagram could not be written (the writer's error).
    ZddWrite {
        /// The writer's error kind.
        kind: std::io::ErrorKind,
        /// Its message.
        message: String,
    },
}

impl fmt::Display for MemoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoError::Bounds => write!(
                f,
                "memo counting takes multiplicities up to 65,535 (DLX3's u:v|): count without the memo"
            ),
            MemoError::Budget => write!(
                f,
                "counting by the memo where it pays takes a deadline or a cancel handle, not a budget of nodes or updates"
            ),
            MemoError::ZddThreads => write!(
                f,
                "the decision diagram is written by one thread: ask for one job"
            ),
            MemoError::ZddWrite { message, .. } => {
                write!(f, "the decision diagram could not be written: {message}")
            }
        }
    }
}

impl std::error::Error for MemoError {}

/// A memo count's settings: the table's memory cap, the order, the limits.
#[derive(Clone, Debug)]
pub struct Memo {
    memory: usize,
    order: MemoOrder,
    limits: Limits,
    progress: Option<Arc<Progress>>,
    jobs: usize,
}

impl Default for Memo {
    fn default() -> Self {
        Memo::new()
    }
}

/// What a memo count found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoCount {
    /// The number of solutions; with `complete` false, a lower bound (the
    /// solutions of the parts counted to their end).
    pub solutions: BigCount,
    /// Whether the whole search was made.
    pub complete: bool,
    /// What stopped it, when the limits did.
    pub stopped: Option<Stop>,
    /// States entered (each counted once unless evicted), options tried,
    /// states found in the table, and the table at the end.
    pub stats: MemoStats,
}

/// The work of a memo count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MemoStats {
    /// States entered: counted by trying each option of their item.
    pub states: u64,
    /// Options tried (each compatible option of an entered state's item).
    pub tried: u64,
    /// Children found in the table, their count taken from it.
    pub hits: u64,
    /// States in the table at the end.
    pub kept: u64,
    /// States given up to keep the table under its cap.
    pub evicted: u64,
    /// Bytes the table took at its largest.
    pub table_bytes: u64,
    /// How many times the count started again one width up (a count
    /// outgrew 128 bits, say).
    pub widened: u32,
    /// Nodes written to the decision diagram ([`Memo::zdd`]; 0 for a
    /// count alone).
    pub zdd_nodes: u64,
}

impl Memo {
    /// The defaults: a table of at most [`DEFAULT_MEMO_BYTES`], the first
    /// uncovered item, no limits.
    pub fn new() -> Memo {
        Memo {
            memory: DEFAULT_MEMO_BYTES,
            order: MemoOrder::FirstItem,
            limits: Limits::default(),
            progress: None,
            jobs: 1,
        }
    }

    /// Counts on `jobs` threads (default 1): the search is cut into the
    /// states of its first levels (at least 64 a thread, each with the
    /// number of paths that reach it), which the threads take in turn, all
    /// sharing one table (cut into locked shards). With a node or update
    /// budget (one search's) the count runs on one thread, as the plain
    /// search does.
    pub fn jobs(mut self, jobs: usize) -> Memo {
        self.jobs = jobs.max(1);
        self
    }

    /// Reports into `progress` every [`LOOK_NODES`] states: the states
    /// entered (as its nodes), the hits, the solutions counted so far and
    /// DLX1's estimate of the fraction done (over the items' options).
    pub fn progress(mut self, progress: Arc<Progress>) -> Memo {
        self.progress = Some(progress);
        self
    }

    /// Caps the table at `bytes`, counting the table it replaces while it
    /// doubles (a few slots are kept whatever the cap; counts wider than
    /// 1,024 bits hold their digits outside it).
    pub fn memory(mut self, bytes: usize) -> Memo {
        self.memory = bytes;
        self
    }

    /// The item to branch on.
    pub fn order(mut self, order: MemoOrder) -> Memo {
        self.order = order;
        self
    }

    /// Stops the count: the node budget counts states entered, the update
    /// budget options tried; the deadline and the cancel handle as for any
    /// search.
    pub fn limits(mut self, limits: Limits) -> Memo {
        self.limits = limits;
        self
    }

    /// Counts the solutions of `matrix`.
    pub fn count(&self, matrix: &Matrix) -> Result<MemoCount, MemoError> {
        let shape = Shape::new(matrix)?;
        let b = self.limits.budget;
        let jobs = if b.nodes.is_some() || b.updates.is_some() {
            1
        } else {
            self.jobs
        };
        // The search with the counts of multiplicities only where the
        // matrix has them (`B`: compiled out of the rest).
        let bounded = shape.cursor.is_some();
        if jobs == 1 {
            return Ok(if bounded {
                self.count_alone::<true>(&shape)
            } else {
                self.count_alone::<false>(&shape)
            });
        }
        // On threads, the same search one width up after each overflow.
        let mut widened = 0;
        macro_rules! attempt {
            ($t:ty) => {
                let counted = if bounded {
                    parallel::count::<$t, true>(&shape, self, jobs)
                } else {
                    parallel::count::<$t, false>(&shape, self, jobs)
                };
                match counted {
                    Some(mut c) => {
                        c.stats.widened = widened;
                        return Ok(c);
                    }
                    None => widened += 1,
                }
            };
        }
        attempt!(Wide<2>);
        attempt!(Wide<4>);
        attempt!(Wide<16>);
        let counted = if bounded {
            parallel::count::<BigCount, true>(&shape, self, jobs)
        } else {
            parallel::count::<BigCount, false>(&shape, self, jobs)
        };
        let mut c = counted.expect("an unbounded count never overflows");
        c.stats.widened = widened;
        Ok(c)
    }

    /// The count on one thread. When a count outgrows its width the search
    /// starts again one width up, and the table comes along, widened: each
    /// of its counts is a whole state's, exact, so the new search finds
    /// them instead of counting them again (the 18×18 dominoes' count
    /// passes 128 bits only in its last levels). The work counted (and the
    /// budgets) run on across the widths.
    fn count_alone<const B: bool>(&self, shape: &Shape) -> MemoCount {
        let mut done = MemoStats::default();
        let kw = shape.key_words;
        let table = Table::<Wide<2>>::new(kw, self.memory);
        let table = match self.attempt::<Wide<2>, B>(shape, table, &mut done) {
            Ok(c) => return c,
            Err(t) => t.widen::<Wide<4>>(self.memory),
        };
        let table = match self.attempt::<Wide<4>, B>(shape, table, &mut done) {
            Ok(c) => return c,
            Err(t) => t.widen::<Wide<16>>(self.memory),
        };
        let table = match self.attempt::<Wide<16>, B>(shape, table, &mut done) {
            Ok(c) => return c,
            Err(t) => t.widen::<BigCount>(self.memory),
        };
        self.attempt::<BigCount, B>(shape, table, &mut done)
            .ok()
            .expect("an unbounded count never overflows")
    }

    /// One search in the width `T` over `table`, its work added to `done`:
    /// the count, or the table when a count outgrew `T`.
    fn attempt<T: Tally, const B: bool>(
        &self,
        shape: &Shape,
        mut table: Table<T>,
        done: &mut MemoStats,
    ) -> Result<MemoCount, Table<T>> {
        let counted = {
            let mut counter = Counter::<T, B>::new(shape, self, Store::Own(&mut table), None);
            counter.stats = *done;
            let counted = counter.run(None);
            *done = counter.stats;
            counted
        };
        match counted {
            Some(c) => Ok(c),
            None => {
                done.widened += 1;
                Err(table)
            }
        }
    }
}

impl Memo {
    /// Counts the solutions of `matrix` as [`count`](Self::count) does,
    /// writing the decision diagram of all of them to `out` on the way
    /// (`zdd.rs` says its text, node by node, and what a reader may rely
    /// on): every path from its root to node 1 is a solution, each once.
    /// On one thread (more is refused: [`MemoError::ZddThreads`]); counts
    /// of any size from the start. A count stopped by the limits writes
    /// the nodes it made and no root (`complete` false); a write that
    /// fails stops the count ([`MemoError::ZddWrite`]).
    pub fn zdd(
        &self,
        matrix: &Matrix,
        out: &mut dyn std::io::Write,
    ) -> Result<MemoCount, MemoError> {
        if self.jobs > 1 {
            return Err(MemoError::ZddThreads);
        }
        let shape = Shape::new(matrix)?;
        let mut table = Table::<zdd::Zn>::new(shape.key_words, self.memory);
        let table = Store::Own(&mut table);
        let z = zdd::ZddOut::new(out);
        let (counted, error) = if shape.cursor.is_some() {
            let mut c = Counter::<zdd::Zn, true>::new(&shape, self, table, None);
            c.zdd = Some(z);
            (c.run(None), c.zdd.take().and_then(|mut z| z.take_error()))
        } else {
            let mut c = Counter::<zdd::Zn, false>::new(&shape, self, table, None);
            c.zdd = Some(z);
            (c.run(None), c.zdd.take().and_then(|mut z| z.take_error()))
        };
        if let Some(e) = error {
            return Err(MemoError::ZddWrite {
                kind: e.kind(),
                message: e.to_string(),
            });
        }
        Ok(counted.expect("a count of any size never overflows"))
    }
}

/// A color slot's value once an option took its item without a color: no
/// other option may take it then, colored or not.
const TAKEN: u32 = u32::MAX;

/// One option as the memo search applies it.
#[derive(Clone, Debug, Default)]
struct Opt {
    /// Covered-item bits it sets: (word, bits); each must be clear.
    bits: Vec<(u32, u64)>,
    /// Color slots that must be unset, and are then set to [`TAKEN`]
    /// (secondary items it takes without a color, which other options
    /// color).
    uncolored: Vec<u32>,
    /// Color slots it sets: (slot, color + 1); each must be unset or equal
    /// (colors are below [`TAKEN`] - 1: a matrix names fewer).
    colors: Vec<(u32, u32)>,
    /// Bounded primary items it takes: each must be open (its covered bit
    /// clear); its count goes up by one, and the bit is set at the bound.
    counted: Vec<u32>,
}

/// A primary item with bounds (DLX3's `u:v|`): the least and most times
/// it is covered, and its count's 16-bit slot in the key.
#[derive(Clone, Copy, Debug)]
struct Bound {
    lo: u32,
    hi: u32,
    slot: u32,
}

/// The matrix as the memo search reads it.
struct Shape {
    primary: usize,
    /// Words of the covered bits; the key is these, then the color words.
    covered_words: usize,
    key_words: usize,
    opts: Vec<Opt>,
    /// Primary item `i`'s options (not ignored) are `item_opts[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    item_opts: Vec<u32>,
    /// Per primary item, its bounds when the matrix has any (else empty).
    bounds: Vec<Option<Bound>>,
    /// The first word of the counts (after the colors).
    count_words: usize,
    /// With bounds, a bit per primary item without them (the plain ones,
    /// which the first-item order takes first).
    plain: Vec<u64>,
    /// With bounds, the key's last word: the item being filled (plus one,
    /// in the high half) and the position in its options the next one
    /// comes from (the low half); 0 when no item is being filled.
    cursor: Option<usize>,
}

impl Shape {
    fn new(m: &Matrix) -> Result<Shape, MemoError> {
        let (items, primary) = (m.item_count(), m.primary_count());
        let mut bounds: Vec<Option<Bound>> = Vec::new();
        let mut counted = 0u32;
        if m.has_bounds() {
            for i in 0..primary {
                let b = m.bounds(super::ItemId::must(i)).filter(|&b| b != (1, 1));
                bounds.push(match b {
                    Some((_, hi)) if hi > u32::from(u16::MAX) => return Err(MemoError::Bounds),
                    Some((lo, hi)) => {
                        counted += 1;
                        Some(Bound {
                            lo,
                            hi,
                            slot: counted - 1,
                        })
                    }
                    None => None,
                });
            }
        }
        let covered_words = items.div_ceil(64).max(1);
        // A color slot per secondary item that some option colors.
        let mut slot = vec![u32::MAX; items];
        let mut slots = 0u32;
        for r in 0..m.option_count() {
            for (i, c) in m.option_items(OptionId::must(r)) {
                if c.is_some() && slot[i.as_usize()] == u32::MAX {
                    slot[i.as_usize()] = slots;
                    slots += 1;
                }
            }
        }
        let count_words = covered_words + (slots as usize).div_ceil(2);
        let cursor = (counted > 0).then_some(count_words + (counted as usize).div_ceil(4));
        let key_words = cursor.map_or(count_words, |c| c + 1);
        let mut opts = Vec::with_capacity(m.option_count());
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); primary];
        let ignored: std::collections::HashSet<OptionId> =
            m.ignored_options().iter().copied().collect();
        for r in 0..m.option_count() {
            let o = OptionId::must(r);
            let mut opt = Opt::default();
            let mut words: Vec<(u32, u64)> = Vec::new();
            for (i, c) in m.option_items(o) {
                let i = i.as_usize();
                if i < primary && !ignored.contains(&o) {
                    lists[i].push(r as u32);
                }
                match c {
                    Some(c) => opt.colors.push((slot[i], c.as_usize() as u32 + 1)),
                    None if slot[i] != u32::MAX => opt.uncolored.push(slot[i]),
                    None if bounds.get(i).is_some_and(Option::is_some) => {
                        opt.counted.push(i as u32)
                    }
                    None => {
                        let (w, b) = ((i / 64) as u32, 1u64 << (i % 64));
                        match words.iter_mut().find(|(x, _)| *x == w) {
                            Some((_, bits)) => *bits |= b,
                            None => words.push((w, b)),
                        }
                    }
                }
            }
            opt.bits = words;
            opts.push(opt);
        }
        let mut start = vec![0u32];
        let mut item_opts = Vec::new();
        for l in lists {
            item_opts.extend(l);
            start.push(item_opts.len() as u32);
        }
        let mut plain = Vec::new();
        if !bounds.is_empty() {
            plain = vec![0u64; covered_words];
            for (i, b) in bounds.iter().enumerate() {
                if b.is_none() {
                    plain[i / 64] |= 1 << (i % 64);
                }
            }
        }
        Ok(Shape {
            primary,
            covered_words,
            key_words,
            opts,
            start,
            item_opts,
            bounds,
            plain,
            count_words,
            cursor,
        })
    }

    /// Bounded item `i`'s count in `key`.
    #[inline]
    fn count(&self, key: &[u64], b: Bound) -> u32 {
        (key[self.count_words + b.slot as usize / 4] >> (16 * (b.slot % 4))) as u32 & 0xffff
    }

    /// The bounds of primary item `i`, when it has any.
    #[inline]
    fn bound(&self, i: usize) -> Option<Bound> {
        self.bounds.get(i).copied().flatten()
    }

    /// Where the options of `item` start in state `key`: after the cursor
    /// when `item` is being filled, else at the first.
    #[inline]
    fn start<const B: bool>(&self, key: &[u64], item: usize) -> u32 {
        if !B {
            return 0;
        }
        match self.cursor {
            Some(w) if key[w] >> 32 == item as u64 + 1 => key[w] as u32,
            _ => 0,
        }
    }

    /// The next child of `parent` branching on `item`, from position
    /// `*next` of its options (advanced past it): the next option that
    /// fits, then (a bounded item whose count reached its least) closing
    /// the item. `false` past the last.
    #[inline]
    fn next_child<const B: bool>(
        &self,
        parent: &[u64],
        item: usize,
        next: &mut u32,
        child: &mut [u64],
    ) -> bool {
        let options = self.options(item);
        let from = (*next as usize).min(options.len());
        if let Some(k) = options[from..]
            .iter()
            .position(|&r| self.fits::<B>(parent, r as usize))
        {
            let p = from + k;
            *next = p as u32 + 1;
            self.take::<B>(parent, child, options[p] as usize);
            if let Some(w) = self.cursor.filter(|_| B) {
                // Still open: it is being filled, from the next position.
                child[w] = if child[item / 64] >> (item % 64) & 1 == 0 {
                    (item as u64 + 1) << 32 | (p as u64 + 1)
                } else {
                    0
                };
            }
            return true;
        }
        if !B {
            *next = options.len() as u32 + 1;
            return false;
        }
        let close = *next as usize <= options.len()
            && self
                .bound(item)
                .is_some_and(|b| self.count(parent, b) >= b.lo);
        *next = options.len() as u32 + 1;
        if close {
            child.copy_from_slice(parent);
            child[item / 64] |= 1 << (item % 64);
            if let Some(w) = self.cursor {
                child[w] = 0;
            }
        }
        close
    }

    /// Color slot `s` of `key`.
    #[inline]
    fn color(&self, key: &[u64], s: u32) -> u32 {
        let w = key[self.covered_words + s as usize / 2];
        (w >> (32 * (s % 2))) as u32
    }

    /// Whether option `r` can be taken in state `key`.
    #[inline]
    fn fits<const B: bool>(&self, key: &[u64], r: usize) -> bool {
        let o = &self.opts[r];
        o.bits.iter().all(|&(w, b)| key[w as usize] & b == 0)
            && (!B
                || o.counted
                    .iter()
                    .all(|&i| key[i as usize / 64] >> (i % 64) & 1 == 0))
            && o.uncolored.iter().all(|&s| self.color(key, s) == 0)
            && o.colors.iter().all(|&(s, c)| {
                let have = self.color(key, s);
                have == 0 || have == c
            })
    }

    /// `child` = `key` with option `r` taken (which fits).
    #[inline]
    fn take<const B: bool>(&self, key: &[u64], child: &mut [u64], r: usize) {
        child.copy_from_slice(key);
        let o = &self.opts[r];
        for &(w, b) in &o.bits {
            child[w as usize] |= b;
        }
        for &(s, c) in &o.colors {
            child[self.covered_words + s as usize / 2] |= u64::from(c) << (32 * (s % 2));
        }
        for &s in &o.uncolored {
            child[self.covered_words + s as usize / 2] |= u64::from(TAKEN) << (32 * (s % 2));
        }
        if !B {
            return;
        }
        for &i in &o.counted {
            let b = self.bounds[i as usize].expect("a counted item has bounds");
            child[self.count_words + b.slot as usize / 4] += 1 << (16 * (b.slot % 4));
            if self.count(child, b) == b.hi {
                child[i as usize / 64] |= 1 << (i % 64);
            }
        }
    }

    /// The options of primary item `i`.
    #[inline]
    fn options(&self, i: usize) -> &[u32] {
        &self.item_opts[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// The first uncovered primary item of `key`, if any.
    #[inline]
    fn first_uncovered(&self, key: &[u64]) -> Option<usize> {
        let full = self.primary / 64;
        for (w, &word) in key.iter().enumerate().take(full) {
            if word != u64::MAX {
                return Some(w * 64 + (!word).trailing_zeros() as usize);
            }
        }
        let rest = self.primary % 64;
        if rest > 0 {
            let open = !key[full] & ((1u64 << rest) - 1);
            if open != 0 {
                return Some(full * 64 + open.trailing_zeros() as usize);
            }
        }
        None
    }

    /// The item to branch on in `key` (`None`: every primary item is
    /// covered, a solution).
    fn choose<const B: bool>(&self, key: &[u64], order: MemoOrder) -> Option<usize> {
        if let Some(w) = self.cursor.filter(|_| B) {
            if key[w] != 0 {
                return Some((key[w] >> 32) as usize - 1);
            }
        }
        let first = self.first_uncovered(key)?;
        if order == MemoOrder::FirstItem {
            if !B {
                return Some(first);
            }
            // With bounds, the plain items first (a tiling's cells before
            // its pieces' counts): the bounded ones are filled by their
            // options on the way and closed at the end.
            let plain = self
                .plain
                .iter()
                .zip(key)
                .enumerate()
                .find(|(_, (&p, &k))| p & !k != 0)
                .map(|(w, (&p, &k))| w * 64 + (p & !k).trailing_zeros() as usize);
            return Some(plain.unwrap_or(first));
        }
        let mut best = (usize::MAX, first);
        for i in first..self.primary {
            if key[i / 64] >> (i % 64) & 1 != 0 {
                continue;
            }
            let closable = B && self.bound(i).is_some_and(|b| self.count(key, b) >= b.lo);
            let len = self
                .options(i)
                .iter()
                .filter(|&&r| self.fits::<B>(key, r as usize))
                .count()
                + usize::from(closable);
            if len < best.0 {
                best = (len, i);
                if len == 0 {
                    break;
                }
            }
        }
        Some(best.1)
    }
}

/// A 64-bit mix of a key (the slots to look in; keys are compared whole).
#[inline]
fn hash(key: &[u64]) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3u64;
    for &w in key {
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^= h >> 32;
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h | 1
}

/// Slots a key may take, from the one its hash names (linear probing: at
/// half load, runs of 32 full slots are rare; the table doubles at half
/// load until its cap).
const PROBE: usize = 32;

/// The memo: open addressing over whole keys, within a memory cap.
struct Table<T> {
    kw: usize,
    /// Per slot: 0 empty, else the key's hash (odd).
    tags: Vec<u64>,
    keys: Vec<u64>,
    counts: Vec<T>,
    kept: usize,
    /// Slots the cap allows (a power of two).
    max_slots: usize,
    evicted: u64,
    heap: usize,
    peak_bytes: usize,
}

impl<T: Tally> Table<T> {
    fn new(kw: usize, memory: usize) -> Table<T> {
        // The table and, while it doubles, the one before: 1.5 times the
        // largest table within the cap.
        let slot = Self::slot_bytes(kw);
        let mut max_slots = PROBE.next_power_of_two();
        while max_slots.saturating_mul(3).saturating_mul(slot) <= memory {
            max_slots *= 2;
        }
        let slots = max_slots.min(1 << 8);
        let mut t = Table {
            kw,
            tags: Vec::new(),
            keys: Vec::new(),
            counts: Vec::new(),
            kept: 0,
            max_slots,
            evicted: 0,
            heap: 0,
            peak_bytes: 0,
        };
        t.allocate(slots);
        t
    }

    fn slot_bytes(kw: usize) -> usize {
        8 + 8 * kw + std::mem::size_of::<T>()
    }

    fn allocate(&mut self, slots: usize) {
        self.tags = vec![0; slots];
        self.keys = vec![0; slots * self.kw];
        self.counts = vec![T::default(); slots];
        self.kept = 0;
        self.heap = 0;
        self.note_bytes();
    }

    fn note_bytes(&mut self) {
        let bytes = self.tags.len() * Self::slot_bytes(self.kw) + self.heap;
        self.peak_bytes = self.peak_bytes.max(bytes);
    }

    #[inline]
    fn get(&self, h: u64, key: &[u64]) -> Option<&T> {
        let mask = self.tags.len() - 1;
        let at = (h >> 7) as usize & mask;
        for k in 0..PROBE {
            let s = (at + k) & mask;
            let tag = self.tags[s];
            if tag == 0 {
                return None;
            }
            if tag == h && &self.keys[s * self.kw..(s + 1) * self.kw] == key {
                return Some(&self.counts[s]);
            }
        }
        None
    }

    fn put(&mut self, h: u64, key: &[u64], count: T) {
        if self.kept * 2 >= self.tags.len() && self.tags.len() < self.max_slots {
            self.grow();
        }
        self.place(h, key, count);
    }

    fn place(&mut self, h: u64, key: &[u64], count: T) {
        let mask = self.tags.len() - 1;
        let at = (h >> 7) as usize & mask;
        let mut slot = None;
        for k in 0..PROBE {
            let s = (at + k) & mask;
            if self.tags[s] == 0 {
                slot = Some(s);
                self.kept += 1;
                break;
            }
        }
        let s = slot.unwrap_or_else(|| {
            // Full (at the cap, or rarely a long run below it): one of the
            // slots, picked by other bits of the hash, is given up.
            self.evicted += 1;
            let s = (at + (h >> 40) as usize % PROBE) & mask;
            self.heap -= self.counts[s].heap_bytes();
            s
        });
        self.tags[s] = h;
        self.keys[s * self.kw..(s + 1) * self.kw].copy_from_slice(key);
        self.heap += count.heap_bytes();
        self.counts[s] = count;
        if self.heap > 0 {
            self.note_bytes();
        }
    }

    /// The table with its counts in the width `U` (each fits: it fitted
    /// here), within the same memory cap; evicted states and the largest
    /// size carried on.
    fn widen<U: Tally>(self, memory: usize) -> Table<U> {
        let mut u = Table::<U>::new(self.kw, memory);
        u.evicted = self.evicted;
        u.peak_bytes = u.peak_bytes.max(self.peak_bytes);
        let slots = self.tags.len().min(u.max_slots);
        if slots > u.tags.len() {
            u.allocate(slots);
        }
        // Both tables at once while the entries move.
        u.peak_bytes = u.peak_bytes.max(
            self.tags.len() * Self::slot_bytes(self.kw)
                + self.heap
                + u.tags.len() * Table::<U>::slot_bytes(self.kw),
        );
        for (s, count) in self.counts.iter().enumerate() {
            if self.tags[s] != 0 {
                let key = &self.keys[s * self.kw..(s + 1) * self.kw];
                u.put(self.tags[s], key, U::from_big(&count.big()));
            }
        }
        u
    }

    /// Doubles the slots (within the cap), placing every entry again.
    fn grow(&mut self) {
        let tags = std::mem::take(&mut self.tags);
        let keys = std::mem::take(&mut self.keys);
        let counts = std::mem::take(&mut self.counts);
        let before = tags.len() * Self::slot_bytes(self.kw) + self.heap;
        self.allocate(tags.len() * 2);
        self.peak_bytes = self
            .peak_bytes
            .max(before + self.tags.len() * Self::slot_bytes(self.kw));
        for (s, count) in counts.into_iter().enumerate() {
            if tags[s] != 0 {
                self.place(tags[s], &keys[s * self.kw..(s + 1) * self.kw], count);
            }
        }
    }
}

/// The table a [`Counter`] reads and writes: its own, or the shards the
/// threads share.
enum Store<'a, T> {
    Own(&'a mut Table<T>),
    Shared(&'a parallel::Shards<T>),
}

impl<T: Tally> Store<'_, T> {
    #[inline]
    fn get(&self, h: u64, key: &[u64]) -> Option<T> {
        match self {
            Store::Own(t) => t.get(h, key).cloned(),
            Store::Shared(s) => s.get(h, key),
        }
    }

    #[inline]
    fn put(&mut self, h: u64, key: &[u64], count: T) {
        match self {
            Store::Own(t) => t.put(h, key, count),
            Store::Shared(s) => s.put(h, key, count),
        }
    }
}

/// One level of the search: its item, the next option to try, the count
/// of its state so far, and its key's hash.
struct Frame<T> {
    item: u32,
    next: u32,
    sum: T,
    hash: u64,
}

/// One memo count in the width `T`.
struct Counter<'a, T, const B: bool> {
    shape: &'a Shape,
    memo: &'a Memo,
    table: Store<'a, T>,
    /// Set by another thread when a count outgrew `T`: stop at once.
    halt: Option<&'a std::sync::atomic::AtomicBool>,
    /// Level `l`'s key is `keys[l * kw..(l + 1) * kw]`.
    keys: Vec<u64>,
    frames: Vec<Frame<T>>,
    stats: MemoStats,
    /// States and hits reported so far (on threads, reports add).
    reported: (u64, u64),
    /// The decision diagram being written, if one is ([`Memo::zdd`]).
    zdd: Option<zdd::ZddOut<'a>>,
}

impl<'a, T: Tally, const B: bool> Counter<'a, T, B> {
    fn new(
        shape: &'a Shape,
        memo: &'a Memo,
        table: Store<'a, T>,
        halt: Option<&'a std::sync::atomic::AtomicBool>,
    ) -> Self {
        Counter {
            shape,
            memo,
            table,
            halt,
            keys: vec![0; shape.key_words * 2],
            frames: Vec::new(),
            stats: MemoStats::default(),
            reported: (0, 0),
            zdd: None,
        }
    }

    /// With a diagram: level `l`'s latest child, reached by the option
    /// its `next` is past (or by closing its item), is `node`.
    #[inline]
    fn zdd_child(&mut self, l: usize, node: u64) {
        if let Some(z) = &mut self.zdd {
            let f = &self.frames[l];
            let options = self.shape.options(f.item as usize);
            let moved = match (f.next as usize).checked_sub(1) {
                Some(p) if p < options.len() => options[p],
                _ => zdd::CLOSE,
            };
            z.child(moved, node);
        }
    }

    /// The count of the state `root` (`None`: the matrix's, nothing
    /// covered), or `None` when it outgrew `T` (or another thread's did).
    fn run(&mut self, root: Option<&[u64]>) -> Option<MemoCount> {
        let shape = self.shape;
        let kw = shape.key_words;
        if let Some(root) = root {
            self.keys[..kw].copy_from_slice(root);
        }
        let Some(item) = shape.choose::<B>(&self.keys[..kw], self.memo.order) else {
            let one = T::one().big();
            if let Some(z) = &mut self.zdd {
                z.finish(1, &one);
            }
            return Some(self.answer(one, true, None));
        };
        let h = hash(&self.keys[..kw]);
        self.enter(item, h);
        // The limits are looked at when the states or the options tried
        // reach a budget, and every LOOK_NODES states or LOOK_UPDATES
        // options for the clock and the cancel handle.
        let limited =
            !self.memo.limits.is_unlimited() || self.memo.progress.is_some() || self.halt.is_some();
        let budget = self.memo.limits.budget;
        let (most_states, most_tried) = (
            budget.nodes.unwrap_or(u64::MAX),
            budget.updates.unwrap_or(u64::MAX),
        );
        let mut look = (most_states.min(LOOK_NODES), most_tried.min(LOOK_UPDATES));
        loop {
            if limited && (self.stats.states >= look.0 || self.stats.tried >= look.1) {
                if self
                    .halt
                    .is_some_and(|h| h.load(std::sync::atomic::Ordering::Relaxed))
                {
                    return None;
                }
                self.report(false);
                let now = Stats {
                    nodes: self.stats.states,
                    updates: self.stats.tried,
                    ..Stats::default()
                };
                if let Some(stop) = self.memo.limits.stop(&now, &Stats::default()) {
                    return self.stopped(stop);
                }
                look = (
                    most_states.min(self.stats.states.saturating_add(LOOK_NODES)),
                    most_tried.min(self.stats.tried.saturating_add(LOOK_UPDATES)),
                );
            }
            let l = self.frames.len() - 1;
            let (parent, child) = self.keys[l * kw..(l + 2) * kw].split_at_mut(kw);
            let f = &mut self.frames[l];
            let found = shape.next_child::<B>(parent, f.item as usize, &mut f.next, child);
            if found {
                self.stats.tried += 1;
                match self.shape.choose::<B>(child, self.memo.order) {
                    None => {
                        if !self.frames[l].sum.add(&T::one()) {
                            return None;
                        }
                        self.zdd_child(l, 1);
                    }
                    Some(item) => {
                        let h = hash(child);
                        if let Some(c) = self.table.get(h, child) {
                            self.stats.hits += 1;
                            if !self.frames[l].sum.add(&c) {
                                return None;
                            }
                            self.zdd_child(l, c.node());
                        } else {
                            self.enter(item, h);
                        }
                    }
                }
            } else {
                let mut f = self.frames.pop().expect("a level is entered");
                if let Some(z) = &mut self.zdd {
                    f.sum.set_node(z.close());
                    if z.failed() {
                        // The diagram cannot be written: stop (the caller
                        // says why).
                        self.frames.push(f);
                        return Some(self.partial(None));
                    }
                }
                let key = &self.keys[l * kw..(l + 1) * kw];
                if l == 0 {
                    let total = f.sum.big();
                    self.table.put(f.hash, key, f.sum.clone());
                    if let Some(z) = &mut self.zdd {
                        z.finish(f.sum.node(), &total);
                    }
                    self.frames.push(f);
                    self.report(true);
                    return Some(self.answer(total, true, None));
                }
                self.table.put(f.hash, key, f.sum.clone());
                if !self.frames[l - 1].sum.add(&f.sum) {
                    return None;
                }
                self.zdd_child(l - 1, f.sum.node());
            }
        }
    }

    /// Reports into the progress, if any: the solutions counted so far and
    /// DLX1's fraction over the levels' options (`done`: all of it).
    fn report(&mut self, done: bool) {
        let Some(p) = &self.memo.progress else {
            return;
        };
        if let Store::Shared(..) = self.table {
            // On threads: states and hits added up; the fraction is the
            // share of the cut's states counted (`parallel.rs`).
            let (states, hits) = (self.stats.states, self.stats.hits);
            p.add_memo(states - self.reported.0, hits - self.reported.1);
            self.reported = (states, hits);
            return;
        }
        let mut solutions = BigCount::zero();
        let (mut fraction, mut share) = (0.0, 1.0);
        for f in &self.frames {
            solutions.add(&f.sum.big());
            let d = self.shape.options(f.item as usize).len().max(1) as f64;
            share /= d;
            fraction += f64::from(f.next.saturating_sub(1)) * share;
        }
        fraction += share / 2.0;
        let fraction = if done { 1.0 } else { fraction };
        let solutions = solutions.to_u64().unwrap_or(u64::MAX);
        p.set_memo(self.stats.states, self.stats.hits, solutions, fraction);
    }

    /// Enters a state (its key written at the next level) on `item`.
    fn enter(&mut self, item: usize, hash: u64) {
        self.stats.states += 1;
        let l = self.frames.len();
        let kw = self.shape.key_words;
        let next = self
            .shape
            .start::<B>(&self.keys[l * kw..(l + 1) * kw], item);
        self.frames.push(Frame {
            item: item as u32,
            next,
            sum: T::default(),
            hash,
        });
        if let Some(z) = &mut self.zdd {
            z.open();
        }
        let need = (self.frames.len() + 1) * self.shape.key_words;
        if self.keys.len() < need {
            self.keys.resize(need, 0);
        }
    }

    /// Stopped by the limits: the solutions counted so far (each level's
    /// sum counts solutions through its own path, disjoint from the rest).
    fn stopped(&mut self, stop: Stop) -> Option<MemoCount> {
        Some(self.partial(Some(stop)))
    }

    /// The count stopped before its end: a lower bound (a diagram being
    /// written gets no root).
    fn partial(&mut self, stop: Option<Stop>) -> MemoCount {
        let mut total = BigCount::zero();
        for f in &self.frames {
            total.add(&f.sum.big());
        }
        if let Some(z) = &mut self.zdd {
            z.flush();
        }
        self.answer(total, false, stop)
    }

    fn answer(&mut self, solutions: BigCount, complete: bool, stopped: Option<Stop>) -> MemoCount {
        if let Store::Own(t) = &self.table {
            self.stats.kept = t.kept as u64;
            self.stats.evicted = t.evicted;
            self.stats.table_bytes = t.peak_bytes as u64;
        }
        if let Some(z) = &self.zdd {
            self.stats.zdd_nodes = z.nodes();
        }
        MemoCount {
            solutions,
            complete,
            stopped,
            stats: self.stats,
        }
    }
}

#[cfg(test)]
mod tests;
