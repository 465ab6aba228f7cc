//! Counting by the memo where it pays, by the plain search where it does
//! not: [`Memo::count_or_search`].
//!
//! The memo counts tilings no enumeration reaches, but where states seldom
//! recur (queens, Langford pairs, pentominoes, Sudoku) each of its states
//! costs ten to thirty nodes of the plain search (BENCHMARKS.md, "Memo
//! counting"). Which kind a matrix is cannot be read off it cheaply, so it is
//! measured:
//! 1. Knuth's estimate of the plain search's tree ([`ESTIMATE_PROBES`]
//!    probes, seeded: the same choice every run);
//! 2. the plain search on one thread for [`FIRST_SLICE`]: a count that ends
//!    there is the answer; else its node rate times the estimate forecasts
//!    the plain count's time `T`;
//! 3. the memo gets [`SHARE`] of that time: a count it finishes is the
//!    answer;
//! 4. else the plain search goes on from where it paused, and each time its
//!    own time passes [`RETRY`] / [`SHARE`] times the memo's last allowance,
//!    the memo tries again (from scratch) with [`SHARE`] of that time. On
//!    threads ([`Memo::jobs`] above 1) the plain count runs on the threads
//!    to its end after the memo's first try: their subtrees cannot be
//!    paused and resumed.
//!
//! Invariants:
//! * the answer is always one search's whole count, the memo's or the plain
//!   search's; a stop by the limits (a deadline, a cancel) answers a lower
//!   bound with `complete: false`, never a count;
//! * where the memo does not pay, its tries cost [`SHARE`] of the forecast
//!   plus at most `SHARE · RETRY / (RETRY - 1)` of the plain search's own
//!   time (each allowance is [`RETRY`] times the one before): with an
//!   estimate that is right, at most 1/16 + 1/12 more than the plain count;
//! * where it pays by more than 1 / [`SHARE`] against the forecast (the
//!   tilings, whose plain trees are astronomical), it runs first and to its
//!   end.
//!
//! Matrices the memo cannot take (bounds above 65,535) are counted by the
//! plain search alone.

use super::{BigCount, Memo, MemoStats};
use crate::dlx::search::{Limits, Stop};
use crate::dlx::{Solver, Stats, Step};
use rand::{rngs::StdRng, SeedableRng};
use std::time::{Duration, Instant};

/// Probes of Knuth's estimate of the plain search.
pub(crate) const ESTIMATE_PROBES: u64 = 64;
/// The plain search's first run, which measures its node rate (a count
/// that ends within it is the answer).
pub(crate) const FIRST_SLICE: Duration = Duration::from_millis(2);
/// The memo's share of the plain search's (forecast or spent) time.
pub(crate) const SHARE: f64 = 1.0 / 16.0;
/// How much more time each of the memo's tries gets than the one before.
pub(crate) const RETRY: f64 = 4.0;

/// What [`Memo::count_or_search`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AutoCount {
    /// The number of solutions; with `complete` false, a lower bound.
    pub solutions: BigCount,
    /// Whether a whole count was made.
    pub complete: bool,
    /// What stopped it, when the limits did.
    pub stopped: Option<Stop>,
    /// Whether the memo's count is the answer (else the plain search's).
    pub by_memo: bool,
    /// The memo's tries.
    pub memo_tries: u32,
    /// The work of the memo's last try.
    pub memo: MemoStats,
    /// The plain search's counters (on threads, all of theirs).
    pub search: Stats,
}

/// How a run of the plain search ended.
enum Leg {
    /// The whole tree was searched.
    Done,
    /// Paused at the run's own end; it goes on from there.
    Paused,
    /// The caller's limits stopped it.
    Stopped(Stop),
}

impl Memo {
    /// Counts the solutions of `solver`'s matrix by the memo where it pays,
    /// else by `solver`'s own search (its engine, rule and threads). Which
    /// one pays is measured, not guessed: Knuth's estimate of the plain
    /// search's tree (64 probes, seeded) and a first run of it (2 ms; a
    /// count that ends there is the answer) forecast the plain count's
    /// time; the memo gets a sixteenth of that; if it does not finish, the
    /// plain search goes on from where it paused, and each time its own
    /// time grows fourfold the memo tries again (from scratch) with a
    /// sixteenth of it. Where the memo does not pay this costs about 1/16
    /// of the forecast and 1/12 of the count; where it pays sixteen times
    /// over (tilings) it runs first and to its end. On threads the plain
    /// count runs to its end after the memo's first try (threads cannot
    /// be paused and resumed).
    ///
    /// This memo's settings (table, order, threads) are the memo's; its
    /// deadline and cancel handle hold for the whole count, and a stop
    /// answers a lower bound (`complete: false`). The memo's tries report
    /// no progress (their states are not the search's nodes); the plain
    /// search reports where `solver` was asked to
    /// ([`Solver::report_progress`]). Budgets of nodes or updates are
    /// refused ([`MemoError::Budget`](super::MemoError::Budget)). With
    /// options preselected, or bounds the memo cannot hold, the plain
    /// search counts alone. `solver` is restarted, its preselected options
    /// and limits kept; it reads the clock (not on
    /// `wasm32-unknown-unknown`).
    ///
    /// ```
    /// use dlx::{problems::queens, Memo, Solver};
    ///
    /// let m = queens(8).unwrap();
    /// let c = Memo::new().count_or_search(&mut Solver::new(&m)).unwrap();
    /// assert!(c.complete && !c.by_memo); // the plain search is done first
    /// assert_eq!(c.solutions.to_u64(), Some(92));
    /// ```
    pub fn count_or_search(&self, solver: &mut Solver<'_>) -> Result<AutoCount, super::MemoError> {
        self.count_or_search_with(solver, FIRST_SLICE, SHARE)
    }

    /// [`count_or_search`](Self::count_or_search) with its first slice and
    /// the memo's share given (tests force each path with them).
    pub(crate) fn count_or_search_with(
        &self,
        solver: &mut Solver<'_>,
        first_slice: Duration,
        share: f64,
    ) -> Result<AutoCount, super::MemoError> {
        let share = share.max(f64::MIN_POSITIVE);
        let user = self.limits.clone();
        if user.budget != crate::dlx::Budget::default() {
            return Err(super::MemoError::Budget);
        }
        let kept = solver.limits().clone();
        let jobs = solver.jobs();
        solver.set_jobs(1);
        let counted = self.race(solver, &user, jobs, (first_slice, share));
        solver.set_jobs(jobs);
        solver.set_limits(kept);
        Ok(counted)
    }

    /// [`count_or_search`](Self::count_or_search) under the caller's
    /// limits `user`, the plain count's last leg on `jobs` threads, with
    /// the first slice and the memo's share `tune`.
    fn race(
        &self,
        solver: &mut Solver<'_>,
        user: &Limits,
        jobs: usize,
        tune: (Duration, f64),
    ) -> AutoCount {
        let (first_slice, share) = tune;
        if solver.preselected().next().is_some() {
            solver.restart();
            let before = solver.stats();
            return self.finish(solver, user, jobs, 0, before, 0, MemoStats::default());
        }
        let estimate = solver.estimate(ESTIMATE_PROBES, &mut StdRng::seed_from_u64(1));
        solver.restart();
        let before = solver.stats();
        let mut found = 0u64;
        let mut tries = 0;
        let mut memo = MemoStats::default();
        let answer = |found, complete, stopped, solver: &Solver<'_>, tries, memo| {
            by_search(
                found,
                (complete, stopped),
                tries,
                memo,
                solver.stats() - before,
            )
        };
        let start = Instant::now();
        match leg(solver, user, start.checked_add(first_slice), &mut found) {
            Leg::Done => return answer(found, true, None, solver, 0, memo),
            Leg::Stopped(stop) => return answer(found, false, Some(stop), solver, 0, memo),
            Leg::Paused => {}
        }
        let spent = start.elapsed().as_secs_f64();
        // (At least a node: a first slice of none measures no rate.)
        let rate = (solver.stats().nodes - before.nodes).max(1) as f64 / spent.max(1e-9);
        let forecast = estimate.nodes.mean / rate.max(1e-9);
        let mut allowance = share * forecast.max(spent);
        let memo_matrix = solver.matrix().clone();
        let mut searched = spent;
        loop {
            // The memo's try, within `allowance` seconds (and the caller's
            // deadline).
            tries += 1;
            let own = Duration::try_from_secs_f64(allowance)
                .ok()
                .and_then(|d| Instant::now().checked_add(d));
            let limits = Limits {
                budget: Default::default(),
                deadline: earlier(user.deadline, own),
                cancel: user.cancel.clone(),
            };
            let mut try_memo = self.clone().limits(limits);
            try_memo.progress = None;
            let Ok(c) = try_memo.count(&memo_matrix) else {
                // Bounds the memo cannot hold: the plain search alone.
                tries -= 1;
                return self.finish(solver, user, jobs, found, before, tries, memo);
            };
            memo = c.stats;
            if c.complete {
                return AutoCount {
                    solutions: c.solutions,
                    complete: true,
                    stopped: None,
                    by_memo: true,
                    memo_tries: tries,
                    memo,
                    search: solver.stats() - before,
                };
            }
            if let Some(stop) = user.stop_now() {
                let mut solutions = c.solutions;
                if solutions.to_u64().is_some_and(|m| m < found) {
                    solutions = BigCount::from(found);
                }
                return AutoCount {
                    solutions,
                    complete: false,
                    stopped: Some(stop),
                    by_memo: false,
                    memo_tries: tries,
                    memo,
                    search: solver.stats() - before,
                };
            }
            if jobs > 1 {
                return self.finish(solver, user, jobs, found, before, tries, memo);
            }
            // The plain search on, until its own time earns the memo
            // another try.
            let until = RETRY * allowance / share;
            let start = Instant::now();
            let end = Duration::try_from_secs_f64((until - searched).max(0.0))
                .ok()
                .and_then(|d| start.checked_add(d));
            let ran = leg(solver, user, end, &mut found);
            searched += start.elapsed().as_secs_f64();
            match ran {
                Leg::Done => return answer(found, true, None, solver, tries, memo),
                Leg::Stopped(stop) => return answer(found, false, Some(stop), solver, tries, memo),
                Leg::Paused => allowance = share * searched,
            }
        }
    }

    /// The plain count to its end: on `jobs` threads from the start (the
    /// first slice's solutions dropped: the threads count them again), or on
    /// this thread from where it paused.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        solver: &mut Solver<'_>,
        user: &Limits,
        jobs: usize,
        mut found: u64,
        before: Stats,
        tries: u32,
        memo: MemoStats,
    ) -> AutoCount {
        let (complete, stopped) = if jobs > 1 {
            solver.set_jobs(jobs);
            solver.set_limits(user.clone());
            let c = solver.count();
            found = c.solutions;
            (c.complete, solver.stopped())
        } else {
            match leg(solver, user, None, &mut found) {
                Leg::Done => (true, None),
                Leg::Stopped(stop) => (false, Some(stop)),
                Leg::Paused => (false, solver.stopped()),
            }
        };
        by_search(
            found,
            (complete, stopped),
            tries,
            memo,
            solver.stats() - before,
        )
    }
}

/// The plain search's answer: `found` solutions, whole or stopped (`end`).
fn by_search(
    found: u64,
    end: (bool, Option<Stop>),
    memo_tries: u32,
    memo: MemoStats,
    search: Stats,
) -> AutoCount {
    AutoCount {
        solutions: BigCount::from(found),
        complete: end.0,
        stopped: end.1,
        by_memo: false,
        memo_tries,
        memo,
        search,
    }
}

/// The earlier of two instants, either of which may be missing.
fn earlier(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Runs `solver`'s search on from where it paused, counting into `found`,
/// until `end` (none: its end), under the caller's `user` limits.
fn leg(solver: &mut Solver<'_>, user: &Limits, end: Option<Instant>, found: &mut u64) -> Leg {
    solver.set_limits(Limits {
        budget: Default::default(),
        deadline: earlier(user.deadline, end),
        cancel: user.cancel.clone(),
    });
    loop {
        match solver.next_solution() {
            Step::Solution => *found += 1,
            Step::Exhausted => return Leg::Done,
            Step::Budget => {
                return match user.stop_now() {
                    Some(stop) => Leg::Stopped(stop),
                    None => Leg::Paused,
                }
            }
        }
    }
}
