//! How far a long search has come: nodes, solutions, and the fraction of the
//! tree done by DLX1's own estimate, shared with whoever shows them.
//!
//! DLX1's estimate of the part of the tree done, when the search stands at
//! option `k_l` of the `d_l` options of the item chosen at each level `l`
//! above it, is `Σ_l (k_l − 1)/(d_1⋯d_l) + 1/(2·d_1⋯d_L)`: the share of
//! the tree a random probe (Knuth 1975) would give to the subtrees already
//! left behind, plus half of the current one. It only grows as subtrees are
//! finished, and reaches 1 at the end.
//!
//! A search reports into a [`Progress`] (atomics: any thread may read it
//! while the search runs) every few thousand nodes: the driver keeps each
//! level's `d` and `k` (only while reporting: the search without a report is
//! a copy of its own, untouched), and adds what changed since its last
//! report. Several searches may report into one `Progress`, each with the
//! weight of its part of a larger tree (the subtrees of
//! [`count_parallel_with_progress`](crate::dlx::count_parallel_with_progress)):
//! the fractions add up.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The fixed-point scale of [`Progress`]'s fraction.
const ONE: f64 = (1u64 << 40) as f64;

/// A running search's progress, read from any thread.
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
    solutions: AtomicU64,
    /// States found in the table (memo counting's; 0 for other searches).
    hits: AtomicU64,
    /// The fraction done, in units of 2^-40, as a wrapping sum of the
    /// (signed) changes the searches report.
    done: AtomicU64,
}

impl Progress {
    /// No progress yet.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Solutions found so far.
    pub fn solutions(&self) -> u64 {
        self.solutions.load(Ordering::Relaxed)
    }

    /// States found in the memo's table so far ([`Memo`](crate::dlx::Memo)
    /// counting; 0 for every other search).
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// A memo count on threads: states and hits added by each thread.
    pub(crate) fn add_memo(&self, states: u64, hits: u64) {
        self.nodes.fetch_add(states, Ordering::Relaxed);
        self.hits.fetch_add(hits, Ordering::Relaxed);
    }

    /// A memo count on threads: the share of its cut's states counted.
    pub(crate) fn set_fraction(&self, fraction: f64) {
        self.done.store(
            (fraction.clamp(0.0, 1.0) * ONE) as i64 as u64,
            Ordering::Relaxed,
        );
    }

    /// A memo count on threads, at its end: the solutions (the most a
    /// `u64` holds past that).
    pub(crate) fn set_memo_solutions(&self, solutions: u64) {
        self.solutions.store(solutions, Ordering::Relaxed);
    }

    /// A memo count's report (it alone writes its `Progress`): its states
    /// entered as nodes, its hits, the solutions counted so far (a lower
    /// bound; the most a `u64` holds past that) and DLX1's fraction.
    pub(crate) fn set_memo(&self, states: u64, hits: u64, solutions: u64, fraction: f64) {
        self.nodes.store(states, Ordering::Relaxed);
        self.hits.store(hits, Ordering::Relaxed);
        self.solutions.store(solutions, Ordering::Relaxed);
        self.done.store(
            (fraction.clamp(0.0, 1.0) * ONE) as i64 as u64,
            Ordering::Relaxed,
        );
    }

    /// The fraction of the tree done by DLX1's estimate, from 0 to 1.
    pub fn fraction(&self) -> f64 {
        let done = self.done.load(Ordering::Relaxed) as i64 as f64 / ONE;
        done.clamp(0.0, 1.0)
    }

    /// Adds nodes and solutions found outside a reporting search (the cut
    /// above a parallel count's subtrees), and the part of the tree that
    /// search finished (all of it when the cut left no subtree).
    pub(crate) fn add(&self, nodes: u64, solutions: u64, fraction: f64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        self.solutions.fetch_add(solutions, Ordering::Relaxed);
        self.done
            .fetch_add((fraction * ONE) as i64 as u64, Ordering::Relaxed);
    }
}

/// A driver's report into a [`Progress`]: its levels' `d` and `k`, and what
/// it reported last.
#[derive(Clone, Debug)]
pub(crate) struct Track {
    pub(crate) to: Arc<Progress>,
    /// Report every this many nodes.
    pub(crate) every: u64,
    /// The node count at which the next report is due.
    pub(crate) next: u64,
    /// The share of the whole tree that this search is (1: all of it).
    pub(crate) weight: f64,
    /// `lens[l]`, `ranks[l]`: the options of the item chosen at level `l`,
    /// and which of them (from 1) is committed.
    pub(crate) lens: Vec<u32>,
    pub(crate) ranks: Vec<u32>,
    /// What was reported: nodes and solutions (the driver's counters) and
    /// the fraction, in units of 2^-40.
    nodes: u64,
    solutions: u64,
    done: i64,
}

impl Track {
    pub(crate) fn new(to: Arc<Progress>, every: u64, depth: usize, nodes: u64) -> Track {
        Track {
            to,
            every: every.max(1),
            next: nodes,
            weight: 1.0,
            lens: vec![0; depth + 1],
            ranks: vec![0; depth + 1],
            nodes,
            solutions: 0,
            done: 0,
        }
    }

    /// A new search starts (its part of the tree not begun) with the
    /// driver's counters at `nodes` and `solutions`.
    pub(crate) fn restart(&mut self, nodes: u64, solutions: u64, weight: f64) {
        self.nodes = nodes;
        self.solutions = solutions;
        self.weight = weight;
        self.next = nodes;
        // The fraction reported for the last search stays: it was finished,
        // or it is abandoned (a report can only add up what was searched).
        self.done = 0;
    }

    /// Reports the counters `nodes` and `solutions` and the fraction done
    /// with levels `0..level` committed (`None`: the search is over).
    pub(crate) fn report(&mut self, nodes: u64, solutions: u64, level: Option<usize>) {
        let fraction = match level {
            None => 1.0,
            Some(level) => {
                let (mut f, mut fd) = (0.0f64, 1.0f64);
                for l in 0..level {
                    let d = self.lens[l].max(1) as f64;
                    fd *= d;
                    f += (self.ranks[l].max(1) - 1) as f64 / fd;
                }
                f + 0.5 / fd
            }
        };
        let done = (fraction * self.weight * ONE) as i64;
        let p = &self.to;
        p.nodes.fetch_add(nodes - self.nodes, Ordering::Relaxed);
        p.solutions
            .fetch_add(solutions - self.solutions, Ordering::Relaxed);
        p.done
            .fetch_add(done.wrapping_sub(self.done) as u64, Ordering::Relaxed);
        (self.nodes, self.solutions, self.done) = (nodes, solutions, done);
        self.next = nodes + self.every;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::Progress;
    use crate::dlx::{
        count_parallel_with_progress, knuth, Config, Engine, EngineKind, Solver, Step,
    };
    use crate::problems;

    #[test]
    #[cfg_attr(
        miri,
        ignore = "no unsafe code of its own (the kernels' tests run under Miri); a report at every node of five engines on two threads: about 1,930 of the 2,353 s Miri's second half took"
    )]
    fn the_cheapest_report_progress_on_one_thread_and_on_two() {
        // Queens 8 with a cost per option: the branch and bound prunes, and
        // the report still ends at the whole tree, its nodes the search's.
        let q = problems::queens(8).unwrap();
        let mut bytes = Vec::new();
        knuth::write(&q, &mut bytes).unwrap();
        let text: String = String::from_utf8(bytes)
            .unwrap()
            .lines()
            .enumerate()
            .map(|(k, line)| match k {
                0 => format!("{line}\n"),
                _ => format!("{line} |{}\n", (k * 7) % 11),
            })
            .collect();
        let m = knuth::read(text.as_bytes()).unwrap();
        for jobs in [1, 2] {
            for kind in EngineKind::ALL {
                let config = Config::new().engine(kind).jobs(jobs);
                let Ok(mut s) = Solver::with_config(&m, config) else {
                    continue;
                };
                let p = Arc::new(Progress::new());
                s.report_progress(Some(p.clone()), 1);
                let best = s.best(3);
                assert!(best.complete && best.solutions.len() == 3);
                assert!(s.stats().pruned > 0, "{kind} {jobs}");
                assert_eq!(p.nodes(), s.stats().nodes, "{kind} {jobs}");
                assert!(
                    (p.fraction() - 1.0).abs() < 1e-9,
                    "{kind} {jobs}: {}",
                    p.fraction()
                );
            }
        }
    }

    #[test]
    fn every_engine_reports_dlx1s_fraction_after_each_solution() {
        // Two items with two options each: after the solutions, DLX1's
        // estimate is 1/8, 3/8, 5/8, 7/8 (half of the current leaf), then 1.
        let m = knuth::read("A B\nA\nA\nB\nB\n".as_bytes()).unwrap();
        let mut ran = 0;
        for kind in EngineKind::ALL {
            let config = Config::new().engine(kind).branching(kind.default_rule());
            // (Bands takes classic Sudoku's matrix alone.)
            let Ok(mut s) = Solver::with_config(&m, config) else {
                assert_eq!(kind, EngineKind::Bands);
                continue;
            };
            ran += 1;
            let p = Arc::new(Progress::new());
            s.report_progress(Some(p.clone()), 1);
            let mut seen = Vec::new();
            while s.next_solution() == Step::Solution {
                seen.push(p.fraction());
            }
            assert_eq!(seen, [0.125, 0.375, 0.625, 0.875], "{kind}");
            assert_eq!(p.fraction(), 1.0, "{kind}");
            assert_eq!(p.solutions(), 4, "{kind}");
            assert_eq!(p.nodes(), s.stats().nodes, "{kind}");
        }
        assert_eq!(ran, EngineKind::ALL.len() - 1);
    }

    #[test]
    fn a_count_reports_every_node_and_ends_at_one() {
        // (Smaller under Miri, which interprets every step.)
        let (n, want) = if cfg!(miri) { (5, 10) } else { (8, 92) };
        let m = problems::queens(n).unwrap();
        let mut s = Solver::new(&m);
        let p = Arc::new(Progress::new());
        s.report_progress(Some(p.clone()), 100);
        assert_eq!(s.count().solutions, want);
        assert_eq!((p.nodes(), p.solutions()), (s.stats().nodes, want));
        assert_eq!(p.fraction(), 1.0);
        // Reporting changes nothing in the search.
        let mut quiet = Solver::new(&m);
        quiet.count();
        assert_eq!(quiet.stats(), s.stats());
    }

    #[test]
    fn a_parallel_count_adds_its_subtrees_shares_up_to_one() {
        // Queens 6 is searched whole by the cut of 3 jobs: no subtree left.
        let cases: &[(usize, u64)] = if cfg!(miri) {
            &[(6, 4)]
        } else {
            &[(6, 4), (9, 352)]
        };
        for &(n, want) in cases {
            let m = problems::queens(n).unwrap();
            for jobs in [1, 3] {
                let p = Arc::new(Progress::new());
                let rule = crate::dlx::Branching::Knuth;
                let par = count_parallel_with_progress(&m, Engine::Links, rule, jobs, &p).unwrap();
                assert_eq!(par.solutions, want);
                assert_eq!(p.solutions(), want, "{jobs} jobs");
                assert_eq!(p.nodes(), par.stats.nodes, "{jobs} jobs");
                assert!((p.fraction() - 1.0).abs() < 1e-9, "{}", p.fraction());
            }
        }
    }
}
