//! Test scenarios that every engine must pass the same way, against the
//! links engine: used by the unit tests of `dense`, `bits` and `masks` (and run
//! under Miri with them).

use super::{first_solution, Budget, PreselectError, Step, Steps};
use crate::dlx::LinksSolver;
use crate::dlx::{knuth, verify_cover, ItemId, Matrix, MatrixBuilder, OptionId};
use crate::dlx::{Live, Propagator};
use crate::problems;
use std::sync::Arc;

/// Small problems with their counts: queens and Langford pairs (uniform
/// options), TAOCP 7.2.2.1's example (mixed lengths).
pub(crate) fn small_problems() -> Vec<(Matrix, u64)> {
    let taocp = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
    vec![
        (problems::queens(1).unwrap(), 1),
        (problems::queens(4).unwrap(), 2),
        // Queens 6 has a tree five times queens 5's: under Miri, which
        // interprets each node, queens 5 reaches the same paths.
        if cfg!(miri) {
            (problems::queens(5).unwrap(), 10)
        } else {
            (problems::queens(6).unwrap(), 4)
        },
        (problems::langford(3).unwrap(), 2),
        (problems::langford(4).unwrap(), 2),
        (knuth::read(taocp.as_bytes()).unwrap(), 1),
    ]
}

/// Every problem of [`small_problems`] through `agree` (an engine against
/// the links engine), which returns the solutions it counted.
pub(crate) fn counts_small_problems(agree: impl Fn(&Matrix) -> u64) {
    for (m, want) in small_problems() {
        assert_eq!(agree(&m), want);
    }
}

/// A matrix of `280 + 2·runs + 2` options over several words: item `a`
/// (the first) has 2 options `2·runs + 281` apart, the four `x` items
/// share options in a run with each other and the secondary item `s`,
/// and 280 options of `s` alone are ignored (they fill the words).
/// Returns it with `a` and the `x` items.
pub(crate) fn wide(runs: usize) -> (Matrix, ItemId, Vec<ItemId>) {
    let mut b = MatrixBuilder::new();
    let a = b.primary("a").unwrap();
    let x: Vec<_> = (0..4)
        .map(|k| b.primary(&format!("x{k}")).unwrap())
        .collect();
    let s = b.secondary("s").unwrap();
    b.option(&[a, x[0]]).unwrap();
    for _ in 0..280 {
        b.option(&[s]).unwrap();
    }
    for k in 0..runs {
        b.option(&[x[k % 4], x[(k + 1) % 4], s]).unwrap();
        b.option(&[x[k % 4]]).unwrap();
    }
    b.option(&[a]).unwrap();
    (b.build().unwrap(), a, x)
}

/// Every solution of `s` (a fresh engine over `m`) and of the links
/// engine with Knuth's rule: the same solutions in the same order, the
/// same nodes and updates. Returns the count.
pub(crate) fn agree_with_links(m: &Matrix, s: &mut impl Steps) -> u64 {
    let mut links = LinksSolver::new(m);
    let mut n = 0;
    loop {
        let (x, y) = (s.next_solution(), links.next_solution());
        assert_eq!(x, y);
        if x != Step::Solution {
            break;
        }
        let sol = s.solution_vec();
        assert_eq!(sol, links.solution().collect::<Vec<_>>());
        verify_cover(m, &sol).unwrap();
        n += 1;
    }
    assert_eq!(s.stats(), links.stats());
    n
}

/// Every solution of `s` (a fresh engine over `m`, searching a tree of
/// its own) against the links engine's: each one valid, the same set.
/// Returns the count.
pub(crate) fn same_solutions_as_links(m: &Matrix, s: &mut impl Steps) -> u64 {
    let sorted = |mut v: Vec<OptionId>| {
        v.sort();
        v
    };
    let mut mine = Vec::new();
    while s.next_solution() == Step::Solution {
        let sol = s.solution_vec();
        verify_cover(m, &sol).unwrap();
        mine.push(sorted(sol));
    }
    assert!(s.is_exhausted());
    if cfg!(miri) {
        // Under Miri what is checked is the engine's own paths (for
        // undefined behaviour); its answers against the links engine's are
        // checked by the ordinary test run.
        return mine.len() as u64;
    }
    let mut links = LinksSolver::new(m);
    let mut theirs: Vec<_> = links.solutions().map(sorted).collect();
    mine.sort();
    theirs.sort();
    assert_eq!(mine, theirs);
    mine.len() as u64
}

/// On queens 6 (`m`, 4 solutions) with `s` a fresh engine over it:
/// preselecting (a conflict names the option it clashes with, an
/// unknown option is refused), counting what is left, and a search
/// paused every 3 nodes by its budget giving the same solutions as
/// without pauses. With `same_tree`, the counters must be the links
/// engine's too.
pub(crate) fn preselect_budget_and_reset(m: &Matrix, s: &mut impl Steps, same_tree: bool) {
    assert_eq!(m.primary_count(), 12, "queens 6");
    // Queen at row 0, column 1: one of the 4 solutions.
    let first = OptionId::must(1);
    s.preselect(first).unwrap();
    assert!(matches!(
        s.preselect(OptionId::must(2)),
        Err(PreselectError::Conflict { with, .. }) if with == first
    ));
    assert_eq!(
        s.preselect(OptionId::must(10_000)),
        Err(PreselectError::UnknownOption(OptionId::must(10_000)))
    );
    let mut links = LinksSolver::new(m);
    links.preselect(first).unwrap();
    assert_eq!(super::count_up_to(s, u64::MAX), links.count_up_to(u64::MAX));
    if same_tree {
        assert_eq!(s.stats(), links.stats());
    }
    s.reset();
    let mut all = Vec::new();
    s.restart();
    while s.next_solution() == Step::Solution {
        all.push(s.solution_vec());
    }
    assert_eq!(all.len(), 4);
    s.reset();
    let mut paused = Vec::new();
    let mut budget = 3;
    loop {
        s.set_budget(Budget {
            nodes: Some(budget),
            updates: None,
        });
        match s.next_solution() {
            Step::Solution => paused.push(s.solution_vec()),
            Step::Budget => budget += 3,
            Step::Exhausted => break,
        }
    }
    assert_eq!(paused, all);
    assert!(s.is_exhausted());
    s.set_budget(Budget::default());
    assert_eq!(first_solution(s), Ok(Some(all[0].clone())));
}

/// `s` (a fresh solver) searched with a node budget that stops it every
/// `step` nodes and is then raised: the same solutions in order and the same
/// counters as `whole` (a fresh solver over the same matrix) searching at
/// once.
pub(crate) fn budget_pauses_and_resumes(whole: &mut impl Steps, s: &mut impl Steps, step: u64) {
    let mut all = Vec::new();
    while whole.next_solution() == Step::Solution {
        all.push(whole.solution_vec());
    }
    let mut got = Vec::new();
    let mut nodes = step;
    let budget = |nodes| Budget {
        nodes: Some(nodes),
        updates: None,
    };
    s.set_budget(budget(nodes));
    loop {
        match s.next_solution() {
            Step::Solution => got.push(s.solution_vec()),
            Step::Budget => {
                nodes += step;
                s.set_budget(budget(nodes));
            }
            Step::Exhausted => break,
        }
    }
    assert!(!all.is_empty());
    assert_eq!(got, all);
    assert_eq!(s.stats(), whole.stats());
}

/// A random matrix dense enough for intersections: up to 6 primary
/// and 2 secondary items, up to 16 options of 1 to 4 items.
pub(crate) fn dense_random(rng: &mut rand::rngs::StdRng) -> Matrix {
    use rand::Rng;
    let mut b = MatrixBuilder::new();
    let np = rng.gen_range(2..=6);
    let ns = rng.gen_range(0..=2);
    let mut items: Vec<_> = (0..np)
        .map(|i| b.primary(&format!("p{i}")).unwrap())
        .collect();
    for i in 0..ns {
        items.push(b.secondary(&format!("s{i}")).unwrap());
    }
    for _ in 0..rng.gen_range(2..=16) {
        let mut option: Vec<_> = items
            .iter()
            .copied()
            .filter(|_| rng.gen_bool(0.35))
            .collect();
        if option.is_empty() {
            option.push(items[rng.gen_range(0..np)]);
        }
        option.truncate(4);
        b.option(&option).unwrap();
    }
    b.build().unwrap()
}

/// A propagator for the tests: hides every active option that clashes
/// with all the active options of some uncovered primary item (one of
/// them covers it, so that option is in no solution: redundant); counts
/// its runs, what it hid, and `chosen` answers that name an option
/// without the item (none expected).
#[derive(Debug)]
pub(crate) struct Clashes {
    matrix: Matrix,
    pub(crate) runs: std::sync::atomic::AtomicU64,
    pub(crate) hid: std::sync::atomic::AtomicU64,
    pub(crate) chosen_seen: std::sync::atomic::AtomicU64,
    pub(crate) chosen_wrong: std::sync::atomic::AtomicU64,
}

impl Clashes {
    pub(crate) fn new(matrix: &Matrix) -> Arc<Clashes> {
        Arc::new(Clashes {
            matrix: matrix.clone(),
            runs: 0.into(),
            hid: 0.into(),
            chosen_seen: 0.into(),
            chosen_wrong: 0.into(),
        })
    }

    fn items(&self, o: OptionId) -> Vec<usize> {
        self.matrix
            .option_items(o)
            .map(|(i, _)| i.as_usize())
            .collect()
    }

    pub(crate) fn count(c: &std::sync::atomic::AtomicU64) -> u64 {
        c.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Propagator for Clashes {
    fn propagate(&self, live: &mut dyn Live) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        self.runs.fetch_add(1, Relaxed);
        let m = &self.matrix;
        let active = |live: &dyn Live, i: usize| -> Vec<OptionId> {
            let mask = live.options(i);
            (0..64)
                .filter(|b| mask >> b & 1 == 1)
                .filter_map(|b| live.option_at(i, b))
                .collect()
        };
        for i in 0..m.primary_count() {
            if let Some(o) = live.chosen(i) {
                self.chosen_seen.fetch_add(1, Relaxed);
                if !self.items(o).contains(&i) {
                    self.chosen_wrong.fetch_add(1, Relaxed);
                }
                continue;
            }
            let mine = active(live, i);
            if mine.is_empty() {
                return false;
            }
            let mine: Vec<Vec<usize>> = mine.iter().map(|&o| self.items(o)).collect();
            for j in 0..m.item_count() {
                let mask = live.options(j);
                let mut gone = 0u64;
                for (b, o) in (0..64)
                    .filter(|b| mask >> b & 1 == 1)
                    .filter_map(|b| live.option_at(j, b).map(|o| (b, o)))
                {
                    let theirs = self.items(o);
                    if !theirs.contains(&i)
                        && mine.iter().all(|p| p.iter().any(|x| theirs.contains(x)))
                    {
                        gone |= 1 << b;
                    }
                }
                if gone != 0 {
                    self.hid.fetch_add(u64::from(gone.count_ones()), Relaxed);
                    live.hide(j, gone);
                }
            }
        }
        true
    }
}

/// A propagator that enforces a rule of its own: no solution holds option
/// `banned` (asked at every solution; hides nothing).
#[derive(Debug)]
struct Ban {
    banned: OptionId,
    primary: usize,
}

impl Propagator for Ban {
    fn propagate(&self, live: &mut dyn Live) -> bool {
        (0..self.primary).all(|i| live.chosen(i) != Some(self.banned))
    }

    fn enforces(&self) -> bool {
        true
    }
}

/// A propagator that keeps words of its own: it writes there the
/// candidates of every primary item as the call found them, and checks,
/// at every call, that the words hold what the call above it on the path
/// left: a subset of what it finds now only where nothing was restored
/// wrongly (options come back only on a backtrack, with the words).
#[derive(Debug)]
struct Words {
    primary: usize,
    wrong: std::sync::atomic::AtomicU64,
}

impl Propagator for Words {
    fn propagate(&self, live: &mut dyn Live) -> bool {
        for i in 0..self.primary.min(live.state().len()) {
            let now = live.options(i);
            let before = live.state()[i];
            // Zero: covered since, or a fresh search.
            if before != 0 && now & !before != 0 && live.chosen(i).is_none() {
                self.wrong
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            live.state()[i] = now;
        }
        true
    }

    fn state_words(&self) -> usize {
        self.primary
    }
}

#[test]
fn every_engine_that_propagates_keeps_every_solution() {
    use crate::dlx::{Blame, Branching, Config, EngineKind, Solver, Strategy};
    use rand::SeedableRng;
    // The table: every engine that runs a propagator first-forced, each
    // strategy, over random matrices, Sudoku 4×4 and the small problems:
    // with the clash propagator, the links engine's solutions (each
    // checked), the options hidden; with a propagator that enforces a ban,
    // the solutions without the banned option; the words restored with
    // the state; a budget that pauses the search every few nodes leaves
    // the same solutions.
    // (Under Miri, which interprets every node on one core, one random
    // matrix, two strategies, no threads: the kernels' paths, not the
    // search's statistics.)
    let cases = if cfg!(miri) { 1 } else { 120 };
    let mut rng = rand::rngs::StdRng::seed_from_u64(41);
    let mut matrices = vec![];
    if !cfg!(miri) {
        matrices.push(
            crate::sudoku::SudokuMatrix::new(2)
                .unwrap()
                .matrix()
                .clone(),
        );
        matrices.push(problems::queens(7).unwrap());
        matrices.extend(small_problems().into_iter().map(|(m, _)| m));
    }
    matrices.extend((0..cases).map(|_| dense_random(&mut rng)));
    let strategies = [
        Strategy::new(),
        Strategy::new().blame(Blame::FirstItem).lead(3, 1),
        Strategy::new().two_way(true).lead(2, 5),
        Strategy::new().pairs(true),
        Strategy::new().pairs(true).two_way(true),
    ];
    let engines: Vec<EngineKind> = EngineKind::ALL
        .into_iter()
        .filter(|e| e.propagates(Branching::FirstForced))
        .collect();
    // Masks, links and dense (bits searches by Knuth's rule alone).
    assert!(engines.len() >= 3, "{engines:?}");
    let sorted = |s: &mut Solver<'_>| {
        let mut all = Vec::new();
        while s.next_solution() == Step::Solution {
            let mut sol: Vec<OptionId> = s.solution().collect();
            sol.sort();
            all.push(sol);
        }
        all.sort();
        all
    };
    let (mut hid, mut ran, mut differ) = (0, 0, 0);
    for m in &matrices {
        let mut want = sorted(&mut Solver::new(m));
        let banned = want.first().and_then(|s| s.first().copied());
        for &engine in &engines {
            let mut trees = Vec::new();
            let tried = if cfg!(miri) { 2 } else { strategies.len() };
            for strategy in strategies.into_iter().skip(strategies.len() - tried) {
                let config = Config::new()
                    .engine(engine)
                    .branching(Branching::FirstForced)
                    .strategy(strategy);
                let Ok(mut s) = Solver::with_config(m, config) else {
                    continue;
                };
                let clashes = Clashes::new(m);
                s.set_propagator(Some(clashes.clone())).unwrap();
                assert_eq!(sorted(&mut s), want, "{engine:?} {strategy:?}");
                trees.push(s.stats());
                ran += 1;
                hid += Clashes::count(&clashes.hid);
                assert_eq!(Clashes::count(&clashes.chosen_wrong), 0);
                // Paused every 2 nodes, resumed: the same solutions.
                s.restart();
                s.set_budget(Budget {
                    nodes: Some(2),
                    updates: None,
                });
                let mut paused = Vec::new();
                loop {
                    match s.next_solution() {
                        Step::Solution => {
                            let mut sol: Vec<OptionId> = s.solution().collect();
                            sol.sort();
                            paused.push(sol);
                        }
                        Step::Budget => s.set_budget(Budget {
                            nodes: Some(s.stats().nodes + 2),
                            updates: None,
                        }),
                        Step::Exhausted => break,
                    }
                }
                paused.sort();
                assert_eq!(paused, want, "{engine:?} {strategy:?}, paused");
                s.set_budget(Budget::default());
                // The words, restored with the state.
                let words = Arc::new(Words {
                    primary: m.primary_count(),
                    wrong: 0.into(),
                });
                s.set_propagator(Some(words.clone())).unwrap();
                s.restart();
                assert_eq!(sorted(&mut s), want, "{engine:?} {strategy:?}, words");
                assert_eq!(words.wrong.load(std::sync::atomic::Ordering::Relaxed), 0);
                // A rule of its own, enforced.
                if let Some(banned) = banned {
                    let ban = Ban {
                        banned,
                        primary: m.primary_count(),
                    };
                    s.set_propagator(Some(Arc::new(ban))).unwrap();
                    s.restart();
                    let kept: Vec<_> = want
                        .iter()
                        .filter(|s| !s.contains(&banned))
                        .cloned()
                        .collect();
                    assert_eq!(sorted(&mut s), kept, "{engine:?} {strategy:?}, ban");
                }
            }
            differ += usize::from(trees.windows(2).any(|w| w[0] != w[1]));
        }
        want.clear();
    }
    if !cfg!(miri) {
        assert!(
            ran > 1000 && hid > 1000 && differ > 50,
            "{ran} {hid} {differ}"
        );
    }
    // Counted on threads (queens 9, cut into subtrees), each thread's
    // search runs the propagator and the strategy too: the one-thread
    // count of what the ban leaves.
    if cfg!(miri) {
        return;
    }
    let m = problems::queens(9).unwrap();
    let banned = Solver::new(&m).solutions().next().unwrap()[0];
    let primary = m.primary_count();
    for &engine in &engines {
        for strategy in strategies {
            let config = Config::new()
                .engine(engine)
                .branching(Branching::FirstForced)
                .strategy(strategy);
            let count = |jobs: usize| {
                let mut s = Solver::with_config(&m, config.jobs(jobs)).unwrap();
                s.set_propagator(Some(Arc::new(Ban { banned, primary })))
                    .unwrap();
                (s.count().solutions, s.last_cut())
            };
            let (one, two) = (count(1), count(2));
            assert_eq!(one.0, two.0, "{engine:?} {strategy:?}, threads");
            assert!(two.1.is_some_and(|(_, k)| k > 1), "{:?}", two.1);
        }
    }
}
