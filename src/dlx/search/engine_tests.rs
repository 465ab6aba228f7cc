//! Test scenarios that every engine must pass the same way, against the
//! links engine: used by the unit tests of `dense`, `bits` and `masks` (and run
//! under Miri with them).

use super::{first_solution, Budget, PreselectError, Step, Steps};
use crate::dlx::LinksSolver;
use crate::dlx::{knuth, verify_cover, ItemId, Matrix, MatrixBuilder, OptionId};
use crate::problems;

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
