//! Memo counting on threads: the first levels of the search are expanded
//! breadth first into a *cut* of states, each with the number of paths
//! that reach it (equal states merged), until there are at least
//! [`STATES_PER_JOB`] a thread; the threads take the cut's states in turn
//! and count each with the one search of `mod.rs`, all reading and writing
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
    let (taken, counted, halt) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicBool::new(false),
    );
    let results: Mutex<(BigCount, MemoStats, Option<Stop>)> = Mutex::new((above, stats, None));
    let work = || loop {
        // The clock and the cancel handle before each state of the cut: a
        // state's own search looks only every LOOK_NODES of its states, and
        // a cut's states may each have fewer.
        if let Some(stop) = memo.limits.stop_now() {
            results.lock().unwrap_or_else(|e| e.into_inner()).2 = Some(stop);
            break;
        }
        let k = taken.fetch_add(1, Ordering::Relaxed);
        let Some((key, paths)) = level.get(k) else {
            break;
        };
        let mut counter = Counter::<T, B>::new(shape, memo, Store::Shared(&shards), Some(&halt));
        let Some(c) = counter.run(Some(key)) else {
            halt.store(true, Ordering::Relaxed);
            break;
        };
        let mut r = results.lock().unwrap_or_else(|e| e.into_inner());
        r.0.add(&times(&c.solutions, paths));
        r.1.states += c.stats.states;
        r.1.tried += c.stats.tried;
        r.1.hits += c.stats.hits;
        if c.stopped.is_some() {
            r.2 = c.stopped;
            break;
        }
        drop(r);
        let done = counted.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(p) = &memo.progress {
            p.set_fraction(done as f64 / level.len() as f64);
        }
    };
    std::thread::scope(|s| {
        let mut spawned = 0;
        for _ in 0..jobs.min(level.len()) {
            // No threads where the platform has none (WebAssembly): the
            // calling thread takes every state of the cut.
            match std::thread::Builder::new().spawn_scoped(s, work) {
                Ok(_) => spawned += 1,
                Err(_) => break,
            }
        }
        if spawned == 0 {
            work();
        }
    });
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
