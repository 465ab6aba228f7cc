//! Memo counting on threads: the first levels of the search are expanded
//! breadth first into a *cut* of states, each with the number of paths
//! that reach it (equal states merged), until there are at least
//! [`STATES_PER_JOB`] a thread; the threads of the one work-sharing pool
//! ([`share`](crate::dlx::share)) take the cut's states in turn and count
//! each whole with the one search of `mod.rs`, all reading and writing
//! one table cut into locked [`Shards`]. The count is the solutions met
//! above the cut plus, for each state of the cut, its count times its
//! paths: exact, as one thread's.
//!
//! Invariants: a state's count in the shards is its exact count (whoever
//! wrote it); an overflow of `T` in any thread halts them all and the
//! count starts again one width up (`Memo::count`); a stop by the limits
//! leaves a lower bound.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::big::{BigCount, Tally};
use super::{Counter, Memo, MemoCount, MemoStats, Shape, Store, Table};
use crate::dlx::search::Stop;
use crate::dlx::share::{share, Give, Sharing, Start, Worker};
use crate::dlx::{Stats, Step};

/// States of the cut per thread, at least (as the plain search's cut).
pub(super) const STATES_PER_JOB: usize = 64;

/// Levels expanded at most for the cut.
const MOST_LEVELS: usize = 64;

/// The table of a count on threads: shards picked by the key's hash (its
/// top bits: the slot within a shard takes lower ones), each locked.
pub(super) struct Shards<T> {
    shards: Vec<Mutex<Table<T>>>,
}

impl<T: Tally> Shards<T> {
    fn new(kw: usize, memory: usize, n: usize) -> Shards<T> {
        Shards {
            shards: (0..n)
                .map(|_| Mutex::new(Table::new(kw, memory / n)))
                .collect(),
        }
    }

    fn shard(&self, h: u64) -> std::sync::MutexGuard<'_, Table<T>> {
        let k = (h >> 52) as usize % self.shards.len();
        // A thread that panicked while holding a shard left a table whose
        // entries are each whole (a slot is written before it is tagged):
        // still exact.
        self.shards[k].lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn get(&self, h: u64, key: &[u64]) -> Option<T> {
        self.shard(h).get(h, key).cloned()
    }

    pub(super) fn put(&self, h: u64, key: &[u64], count: T) {
        self.shard(h).put(h, key, count);
    }
}

/// `a * m` for a count and a number of paths: doubling and adding, from
/// the top bit of `m` (short beside the count: the cut is a few levels).
fn times(a: &BigCount, m: &BigCount) -> BigCount {
    let mut total = BigCount::zero();
    for k in (0..m.bits()).rev() {
        let t = total.clone();
        total.add(&t);
        if m.bit(k) {
            total.add(a);
        }
    }
    total
}

/// The count of `shape` on `jobs` threads, or `None` when a count outgrew
/// `T`.
pub(super) fn count<T: Tally + Send + Sync, const B: bool>(
    shape: &Shape,
    memo: &Memo,
    jobs: usize,
) -> Option<MemoCount> {
    let kw = shape.key_words;
    let mut above = BigCount::zero();
    let mut stats = MemoStats::default();
    // The cut: (state, paths), equal states merged.
    let mut level: Vec<(Vec<u64>, BigCount)> = vec![(vec![0; kw], BigCount::from(1u64))];
    let mut child = vec![0; kw];
    for _ in 0..MOST_LEVELS {
        if level.is_empty() || level.len() >= STATES_PER_JOB * jobs {
            break;
        }
        let mut next: Vec<(Vec<u64>, BigCount)> = Vec::new();
        let mut index: std::collections::HashMap<Vec<u64>, usize> =
            std::collections::HashMap::new();
        for (key, paths) in &level {
            let Some(item) = shape.choose::<B>(key, memo.order) else {
                above.add(paths);
                continue;
            };
            stats.states += 1;
            let mut at = shape.start::<B>(key, item);
            while shape.next_child::<B>(key, item, &mut at, &mut child) {
                stats.tried += 1;
                match index.get(&child) {
                    Some(&k) => {
                        stats.hits += 1;
                        next[k].1.add(paths);
                    }
                    None => {
                        index.insert(child.clone(), next.len());
                        next.push((child.clone(), paths.clone()));
                    }
                }
            }
        }
        level = next;
    }
    let shards = Shards::<T>::new(kw, memo.memory, (jobs * 8).next_power_of_two());
    let (counted, halt) = (AtomicUsize::new(0), AtomicBool::new(false));
    let results: Mutex<(BigCount, MemoStats, Option<Stop>)> = Mutex::new((above, stats, None));
    let start = Start {
        pieces: level.iter().collect(),
        solutions: Vec::new(),
    };
    let sharing = Sharing {
        every: 1,
        give: Give::Never,
    };
    let make = || {
        Some(States::<T, B> {
            shape,
            memo,
            shards: &shards,
            halt: &halt,
            results: &results,
            counted: &counted,
            cut: level.len(),
            piece: None,
            stopped: None,
            ended: false,
        })
    };
    share(jobs, start, u64::MAX, sharing, make);
    if halt.load(Ordering::Relaxed) {
        return None;
    }
    let (solutions, mut stats, stopped) = results.into_inner().unwrap_or_else(|e| e.into_inner());
    for shard in &shards.shards {
        let t = shard.lock().unwrap_or_else(|e| e.into_inner());
        stats.kept += t.kept as u64;
        stats.evicted += t.evicted;
        stats.table_bytes += t.peak_bytes as u64;
    }
    if let Some(p) = &memo.progress {
        p.set_memo_solutions(solutions.to_u64().unwrap_or(u64::MAX));
        p.set_fraction(1.0);
    }
    Some(MemoCount {
        solutions,
        complete: stopped.is_none(),
        stopped,
        stats,
    })
}

/// A thread's worker of [`count`]: a piece is a state of the cut with its
/// paths, counted whole by the one search of `mod.rs` over the shared
/// table, its count times its paths added to the results.
struct States<'a, T, const B: bool> {
    shape: &'a Shape,
    memo: &'a Memo,
    shards: &'a Shards<T>,
    /// Set when a count outgrew `T`: every thread's search stops.
    halt: &'a AtomicBool,
    /// The count, the statistics, and what stopped a search.
    results: &'a Mutex<(BigCount, MemoStats, Option<Stop>)>,
    /// The states of the cut counted, of `cut`, for the progress report.
    counted: &'a AtomicUsize,
    cut: usize,
    piece: Option<&'a (Vec<u64>, BigCount)>,
    stopped: Option<Stop>,
    ended: bool,
}

impl<'a, T: Tally + Send + Sync, const B: bool> Worker for States<'a, T, B> {
    type Piece = &'a (Vec<u64>, BigCount);
    /// The count goes to the results, not to the pool.
    type Solution = ();
    type Context = ();

    fn begin(&mut self, &piece: &Self::Piece, _: Option<&()>) -> bool {
        self.piece = Some(piece);
        true
    }

    /// Counts the state whole (the pool looks at the others between two
    /// states; the search looks at the clock and the cancel handle every
    /// few thousand of its states, and at the halt).
    fn resume(&mut self, _nodes: u64) -> Step {
        let Some((key, paths)) = self.piece.take() else {
            return Step::Exhausted;
        };
        // The clock and the cancel handle before each state of the cut: a
        // state's own search looks only every LOOK_NODES of its states, and
        // a cut's states may each have fewer.
        if let Some(stop) = self.memo.limits.stop_now() {
            self.stopped = Some(stop);
            self.results.lock().unwrap_or_else(|e| e.into_inner()).2 = Some(stop);
            return Step::Budget;
        }
        let store = Store::Shared(self.shards);
        let mut counter = Counter::<T, B>::new(self.shape, self.memo, store, Some(self.halt));
        let Some(c) = counter.run(Some(key)) else {
            self.halt.store(true, Ordering::Relaxed);
            self.ended = true;
            return Step::Budget;
        };
        let mut r = self.results.lock().unwrap_or_else(|e| e.into_inner());
        r.0.add(&times(&c.solutions, paths));
        r.1.states += c.stats.states;
        r.1.tried += c.stats.tried;
        r.1.hits += c.stats.hits;
        if let Some(stop) = c.stopped {
            r.2 = Some(stop);
            (self.stopped, self.ended) = (Some(stop), true);
            return Step::Budget;
        }
        drop(r);
        let done = self.counted.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(p) = &self.memo.progress {
            p.set_fraction(done as f64 / self.cut as f64);
        }
        Step::Exhausted
    }

    fn stopped(&self) -> Option<Stop> {
        self.stopped
    }

    fn ended(&self) -> bool {
        self.ended
    }

    fn give_away(&mut self, _: &Self::Piece) -> Option<(Vec<Self::Piece>, ())> {
        None
    }

    fn solution(&self) {}

    /// The memo's statistics are its own (in the results).
    fn stats(&self) -> Stats {
        Stats::default()
    }
}
