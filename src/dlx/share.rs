//! Work sharing: one search spread over threads that hand one another
//! parts of it as they go ([`share`]). The Sudoku layer's lone puzzles,
//! classic and variant, are searched on it, and exact cover's counts and
//! cheapest solutions on threads ([`count_parallel`](super::count_parallel),
//! [`best_parallel`](super::best_parallel): pieces searched whole, their
//! counters one search's).
//!
//! A *piece* is a part of the search named by the options it fixes on top
//! of what every piece shares (a puzzle's givens, say): a subtree. Each
//! thread takes a piece from the pool and searches it with a [`Worker`] of
//! its own (any engine, any matrix: a piece's worker may search the
//! residual matrix of its own givens). Pieces differ in size by orders of
//! magnitude, so a thread searching a piece looks every
//! [`Sharing::every`] nodes for threads waiting for work; when one waits and
//! no piece is left, it gives away the untried options of its search's
//! shallowest branch point ([`Worker::give_away`]), each a piece, and goes
//! on without them. The search is then done when the threads' work is, not
//! when its largest piece is. It may start from one piece (the whole
//! search) or from a cut into many.
//!
//! Invariants:
//! * every solution lies in exactly one piece's search, or among the
//!   solutions the start hands in: a piece's search goes on without what it
//!   gave away, and what it gave away is the rest of its subtree;
//! * each piece and each solution has a *key*, a sequence of numbers
//!   compared lexicographically, in search order: of a start cut into
//!   pieces, the solution met before piece `k` is `[2k]` and that piece
//!   `[2k + 1]`; a piece of key `K` that gives away `m` pieces goes on as
//!   `K·0`, the pieces being `K·1 … K·m` (the options it would have tried
//!   after its own). A solution takes its piece's key when found, so the
//!   first solution in search order is the one of least key (when every
//!   solution is found);
//! * the pool's `busy` counts the threads searching a piece: a thread waits
//!   for a piece only while another is busy (it may give some away), and
//!   the last to finish, with the pool empty, wakes them all to end.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

pub(crate) use super::search::strategy::Scores;
use super::{OptionId, Stats, Step, Stop};

/// One thread's search of pieces.
pub(crate) trait Worker {
    /// A piece: the options it fixes (or a [`Subtree`](super::Subtree),
    /// with what a count's progress report weighs it).
    type Piece: Send;
    /// What a solution is handed back as.
    type Solution: Send;
    /// What a search hands over with the pieces it gives away, for their
    /// searches to go on from (what it learnt: conflict scores).
    type Context: Send + Sync;

    /// Starts the search of `piece`, its options fixed on top of what every
    /// piece shares, from `context` when the piece was given away with one;
    /// `false` when the piece has no search (its options clash: no solution
    /// in it).
    fn begin(&mut self, piece: &Self::Piece, context: Option<&Self::Context>) -> bool;

    /// Goes on with the search begun for at most `nodes` more nodes, within
    /// the worker's deadline and cancel handle.
    fn resume(&mut self, nodes: u64) -> Step;

    /// What stopped the last [`resume`](Self::resume) that answered
    /// [`Step::Budget`].
    fn stopped(&self) -> Option<Stop>;

    /// Whether the last [`resume`](Self::resume) that answered
    /// [`Step::Budget`] ended the whole search, not just paused its piece
    /// (a memo count that outgrew its width, or spent its budget): every
    /// thread then stops, and the answer is incomplete.
    fn ended(&self) -> bool {
        false
    }

    /// The untried options of the shallowest branch point of the paused
    /// search of `piece`, each as a piece (`piece`'s options, then the
    /// subtree's), with what their searches go on from; the search goes on
    /// without them. `None` when there is nothing to give (or the engine
    /// gives nothing).
    fn give_away(&mut self, piece: &Self::Piece) -> Option<(Vec<Self::Piece>, Self::Context)>;

    /// The solution just found.
    fn solution(&self) -> Self::Solution;

    /// The counters of the search of the piece begun last.
    fn stats(&self) -> Stats;
}

/// Sets `solver`'s node budget to pause `nodes` nodes past its last pause
/// (`pause`, moved on) in the search of its piece: a worker's
/// [`resume`](Worker::resume) over a [`Solver`](super::Solver) that keeps
/// its own deadline and cancel handle.
pub(crate) fn pause_after(solver: &mut super::Solver<'_>, pause: &mut u64, nodes: u64) {
    *pause += nodes;
    let mut budget = solver.limits().budget;
    budget.nodes = Some(*pause);
    solver.set_budget(budget);
}

/// Where [`share`] starts: the pieces of a cut, in search order, and the
/// solutions met above it, each with the number of pieces before it. One
/// piece of no option is the whole search.
#[derive(Debug)]
pub(crate) struct Start<P, S> {
    pub(crate) pieces: Vec<P>,
    pub(crate) solutions: Vec<(usize, S)>,
}

impl<S> Start<Vec<OptionId>, S> {
    /// The whole search as one piece.
    pub(crate) fn whole() -> Start<Vec<OptionId>, S> {
        Start {
            pieces: vec![Vec::new()],
            solutions: Vec::new(),
        }
    }
}

/// How often [`share`]'s threads look for others waiting, and when they
/// give work away.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sharing {
    /// Nodes between two looks.
    pub(crate) every: u64,
    pub(crate) give: Give,
}

/// When a thread searching a piece gives part of it away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Give {
    /// When another thread waits and no piece is left.
    WhenAsked,
    /// At every look, whatever the pool holds (tests: every branch point's
    /// untried options are given away as soon as the search is below it).
    #[cfg_attr(not(test), allow(dead_code))]
    Always,
    /// Never: each piece is searched whole by the thread that took it (a
    /// count whose counters must be one search's: see
    /// [`count_parallel`](super::count_parallel)).
    Never,
}

/// What [`share`] found.
#[derive(Debug)]
pub(crate) struct Shared<S> {
    /// Solutions, up to the limit.
    pub(crate) solutions: u64,
    /// The solution of least key found (the first in search order when the
    /// search ran to its end).
    pub(crate) first: Option<S>,
    /// The counters of every piece's search.
    pub(crate) stats: Stats,
    /// Whether every piece was searched to its end (no limit, deadline or
    /// cancel cut one short, and every worker could be made).
    pub(crate) complete: bool,
    pub(crate) timed_out: bool,
    pub(crate) cancelled: bool,
    /// Pieces given away as the threads went.
    pub(crate) given: usize,
}

/// Searches the pieces of `start` on `jobs` threads (one: the calling
/// thread), each with a worker `make` makes for it (`None`: none can be
/// made, and the answer is incomplete), sharing work as `sharing` says,
/// until `limit` solutions (counting those of `start`), the end, or a
/// worker's deadline or cancel handle.
///
/// Without a limit (`u64::MAX`) a thread adds up the solutions of a piece
/// alone and hands in their number when the piece is done: a count writes
/// no shared counter at each solution.
pub(crate) fn share<W: Worker>(
    jobs: usize,
    start: Start<W::Piece, W::Solution>,
    limit: u64,
    sharing: Sharing,
    make: impl Fn() -> Option<W> + Sync,
) -> Shared<W::Solution> {
    let mut found = Found::default();
    let above = start.solutions.len() as u64;
    for (before, solution) in start.solutions {
        found.offer(&[2 * before as u32], || solution);
    }
    let pieces: VecDeque<Piece<W::Piece, W::Context>> = (start.pieces.into_iter().enumerate())
        .map(|(k, options)| Piece {
            key: vec![2 * k as u32 + 1],
            options,
            context: None,
        })
        .collect();
    let left = !pieces.is_empty();
    let threads = Threads {
        pool: Mutex::new(Pool { pieces, busy: 0 }),
        ready: Condvar::new(),
        waiting: AtomicUsize::new(0),
        solutions: AtomicU64::new(above),
        stop: AtomicBool::new(above >= limit),
        limit,
        sharing,
        given: AtomicUsize::new(0),
    };
    if left {
        threads.run(jobs.max(1), &make, &mut found);
    }
    let left = !threads.lock().pieces.is_empty();
    let total = threads.solutions.load(Relaxed);
    let stopped = found.timed_out || found.cancelled;
    let reached = total >= limit;
    Shared {
        solutions: total.min(limit),
        first: found.first.map(|(_, s)| s),
        stats: found.stats,
        complete: !found.cut_short && !left && !reached && !stopped,
        // A limit reached answers for itself.
        timed_out: found.timed_out && !reached,
        cancelled: found.cancelled && !reached,
        given: threads.given.load(Relaxed),
    }
}

/// A part of the search, its key (its place in search order), and what
/// its search goes on from.
struct Piece<P, C> {
    key: Vec<u32>,
    options: P,
    context: Option<Arc<C>>,
}

/// The pieces no thread has taken yet, and the threads searching one.
struct Pool<P, C> {
    pieces: VecDeque<Piece<P, C>>,
    busy: usize,
}

/// What a thread found, then all of them.
struct Found<S> {
    /// The solution of least key so far, and its key.
    first: Option<(Vec<u32>, S)>,
    stats: Stats,
    /// A piece was left before its end (the limit, the deadline, the cancel
    /// handle, or no worker).
    cut_short: bool,
    timed_out: bool,
    cancelled: bool,
}

impl<S> Default for Found<S> {
    fn default() -> Self {
        Found {
            first: None,
            stats: Stats::default(),
            cut_short: false,
            timed_out: false,
            cancelled: false,
        }
    }
}

impl<S> Found<S> {
    /// Keeps the solution `solution` makes if `key` is the least so far.
    fn offer(&mut self, key: &[u32], solution: impl FnOnce() -> S) {
        if self.first.as_ref().is_none_or(|(k, _)| key < k.as_slice()) {
            self.first = Some((key.to_vec(), solution()));
        }
    }

    fn merge(&mut self, other: Found<S>) {
        if let Some((key, s)) = other.first {
            self.offer(&key, || s);
        }
        self.stats += other.stats;
        self.cut_short |= other.cut_short;
        self.timed_out |= other.timed_out;
        self.cancelled |= other.cancelled;
    }
}

/// What the threads share.
struct Threads<P, C> {
    pool: Mutex<Pool<P, C>>,
    /// Signalled when pieces are added, and when the search ends.
    ready: Condvar,
    /// Threads waiting for a piece.
    waiting: AtomicUsize,
    /// Solutions found, the start's included.
    solutions: AtomicU64,
    /// Set when the limit is reached, or a deadline passed.
    stop: AtomicBool,
    limit: u64,
    sharing: Sharing,
    /// Pieces given away.
    given: AtomicUsize,
}

impl<P: Send, C: Send + Sync> Threads<P, C> {
    /// Searches the pool's pieces on `jobs` threads into `found` (one: on
    /// the calling thread).
    fn run<W: Worker<Piece = P, Context = C>>(
        &self,
        jobs: usize,
        make: &(impl Fn() -> Option<W> + Sync),
        found: &mut Found<W::Solution>,
    ) {
        if jobs == 1 {
            found.merge(self.work(make));
            return;
        }
        std::thread::scope(|scope| {
            // Where the platform has no threads (WebAssembly), or has run
            // out, the calling thread does the work of those not spawned.
            let handles: Vec<_> = (0..jobs)
                .map_while(|_| {
                    let thread = std::thread::Builder::new();
                    thread.spawn_scoped(scope, || self.work(make)).ok()
                })
                .collect();
            if handles.is_empty() {
                found.merge(self.work(make));
            }
            for h in handles {
                match h.join() {
                    Ok(f) => found.merge(f),
                    Err(e) => std::panic::resume_unwind(e),
                }
            }
        });
    }

    /// The pool, locked (a thread that panicked holding it left it whole:
    /// every change to it is one statement).
    fn lock(&self) -> MutexGuard<'_, Pool<P, C>> {
        self.pool.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One thread: takes pieces and searches them until none is left.
    fn work<W: Worker<Piece = P, Context = C>>(
        &self,
        make: &impl Fn() -> Option<W>,
    ) -> Found<W::Solution> {
        let mut found = Found::default();
        let mut worker = None;
        while let Some(piece) = self.take() {
            if worker.is_none() {
                worker = make();
            }
            match &mut worker {
                Some(w) => self.search(w, piece, &mut found),
                None => {
                    // No worker: the piece stays unsearched.
                    found.cut_short = true;
                    self.halt();
                }
            }
            let mut pool = self.lock();
            pool.busy -= 1;
            if pool.busy == 0 && pool.pieces.is_empty() {
                self.ready.notify_all();
            }
        }
        found
    }

    /// The next piece, waiting for one while other threads search; `None`
    /// when the search is over or stopped.
    fn take(&self) -> Option<Piece<P, C>> {
        let mut pool = self.lock();
        loop {
            if self.stop.load(Relaxed) {
                return None;
            }
            if let Some(piece) = pool.pieces.pop_front() {
                pool.busy += 1;
                return Some(piece);
            }
            if pool.busy == 0 {
                return None;
            }
            self.waiting.fetch_add(1, Relaxed);
            pool = self
                .ready
                .wait(pool)
                .unwrap_or_else(PoisonError::into_inner);
            self.waiting.fetch_sub(1, Relaxed);
        }
    }

    /// Stops every thread (the waiting ones woken with the pool held, so
    /// that none misses it).
    fn halt(&self) {
        self.stop.store(true, Relaxed);
        let _pool = self.lock();
        self.ready.notify_all();
    }

    /// Searches `piece` with `worker`, giving part of it away when asked.
    fn search<W: Worker<Piece = P, Context = C>>(
        &self,
        worker: &mut W,
        mut piece: Piece<P, C>,
        found: &mut Found<W::Solution>,
    ) {
        if !worker.begin(&piece.options, piece.context.as_deref()) {
            return;
        }
        let every = match self.sharing.give {
            Give::Always => 1,
            Give::WhenAsked | Give::Never => self.sharing.every.max(1),
        };
        // Solutions met and not yet added to the shared counter (no limit).
        let mut met = 0;
        loop {
            match worker.resume(every) {
                Step::Solution => {
                    found.offer(&piece.key, || worker.solution());
                    if self.limit == u64::MAX {
                        met += 1;
                    } else if self.solutions.fetch_add(1, Relaxed) + 1 >= self.limit {
                        found.cut_short = true;
                        self.halt();
                        break;
                    }
                }
                Step::Exhausted => break,
                Step::Budget => {
                    match worker.stopped() {
                        Some(Stop::Deadline) => found.timed_out = true,
                        Some(Stop::Cancelled) => found.cancelled = true,
                        _ => {}
                    }
                    if found.timed_out || found.cancelled || worker.ended() {
                        found.cut_short = true;
                        self.halt();
                        break;
                    }
                    if self.stop.load(Relaxed) {
                        found.cut_short = true;
                        break;
                    }
                    let asked =
                        self.sharing.give == Give::WhenAsked && self.waiting.load(Relaxed) > 0;
                    if self.sharing.give == Give::Always || asked {
                        self.give_away(worker, &mut piece);
                    }
                }
            }
        }
        self.solutions.fetch_add(met, Relaxed);
        found.stats += worker.stats();
    }

    /// Where no piece is left (or always, with [`Give::Always`]): the
    /// untried options of the shallowest branch point of `worker`'s search
    /// of `piece` become pieces, and `piece` goes on without them.
    fn give_away<W: Worker<Piece = P, Context = C>>(
        &self,
        worker: &mut W,
        piece: &mut Piece<P, C>,
    ) {
        let mut pool = self.lock();
        if self.sharing.give == Give::WhenAsked && !pool.pieces.is_empty() {
            return;
        }
        let Some((given, context)) = worker.give_away(&piece.options) else {
            return;
        };
        let context = Arc::new(context);
        let key = piece.key.clone();
        piece.key.push(0);
        let m = given.len();
        for (k, options) in given.into_iter().enumerate() {
            let mut key = key.clone();
            key.push(k as u32 + 1);
            pool.pieces.push_back(Piece {
                key,
                options,
                context: Some(context.clone()),
            });
        }
        self.given.fetch_add(m, Relaxed);
        self.ready.notify_all();
    }
}

#[cfg(test)]
mod tests {
    //! The pool over a plain matrix: pieces given away at every look, on one
    //! and three threads, against one search's count and first solution.
    use super::*;
    use crate::dlx::{Branching, Config, Limits, Matrix, Solver};

    /// A worker over `matrix`, the pieces preselected.
    struct Plain<'m> {
        solver: Solver<'m>,
        /// The nodes of the search begun, when the budget next stops it.
        pause: u64,
    }

    impl Worker for Plain<'_> {
        type Piece = Vec<OptionId>;
        type Solution = Vec<OptionId>;
        type Context = ();

        fn begin(&mut self, piece: &Vec<OptionId>, _: Option<&()>) -> bool {
            self.pause = 0;
            self.solver.preselect_all(piece).is_ok()
        }

        fn resume(&mut self, nodes: u64) -> Step {
            self.pause += nodes;
            let mut limits = Limits::default();
            limits.budget.nodes = Some(self.pause);
            self.solver.set_limits(limits);
            self.solver.next_solution()
        }

        fn stopped(&self) -> Option<Stop> {
            self.solver.stopped()
        }

        fn give_away(&mut self, piece: &Vec<OptionId>) -> Option<(Vec<Vec<OptionId>>, ())> {
            let subtrees = self.solver.give_away()?.into_iter();
            Some((
                subtrees
                    .map(|sub| [&piece[..], &sub.options].concat())
                    .collect(),
                (),
            ))
        }

        fn solution(&self) -> Vec<OptionId> {
            let mut s: Vec<OptionId> = self.solver.solution().collect();
            s.sort();
            s
        }

        fn stats(&self) -> Stats {
            self.solver.stats()
        }
    }

    fn queens(n: usize) -> Matrix {
        crate::problems::queens(n).unwrap()
    }

    #[test]
    fn pieces_given_away_answer_as_one_search() {
        let n = if cfg!(miri) { 5 } else { 7 };
        let m = queens(n);
        let config = Config::new().branching(Branching::FirstForced);
        let mut one = Solver::with_config(&m, config).unwrap();
        let all = one.count().solutions;
        one.reset();
        assert_eq!(one.next_solution(), Step::Solution);
        let mut first: Vec<OptionId> = one.solution().collect();
        first.sort();
        for (give, jobs) in [(Give::Always, 1), (Give::Always, 3), (Give::WhenAsked, 2)] {
            for limit in [1, 3, u64::MAX] {
                let sharing = Sharing { every: 2, give };
                let got = share(jobs, Start::whole(), limit, sharing, || {
                    Some(Plain {
                        solver: Solver::with_config(&m, config).ok()?,
                        pause: 0,
                    })
                });
                let what = format!("{give:?}, {jobs} jobs, limit {limit}");
                assert_eq!(got.solutions, all.min(limit), "{what}");
                assert_eq!(got.complete, limit > all, "{what}");
                crate::dlx::verify_cover(&m, got.first.as_ref().unwrap()).unwrap();
                if limit == u64::MAX {
                    assert_eq!(got.first.as_ref(), Some(&first), "{what}");
                    assert_eq!(got.stats.solutions, all, "{what}");
                }
                if give == Give::Always {
                    assert!(got.given > 0, "{what}");
                }
            }
        }
    }
}
