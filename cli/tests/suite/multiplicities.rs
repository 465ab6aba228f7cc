//! Multiplicities (Knuth's DLX3, Algorithm M) against answers found apart
//! from the search: hand-checked instances, a brute force over every subset
//! of options (each answer also run through the independent `verify_cover`,
//! which counts every item's uses against its bounds), and the nodes and
//! updates of DLX3's own search loop.
//!
//! The DLX3 figures were measured with a C transcription of the search of
//! Knuth's `dlx3.w` (the version with `tweak(n, block)`), built outside the
//! repository; on 1,100 random small matrices with bounds and colors its
//! solutions, nodes and updates equal ours, case by case.

use std::collections::BTreeSet;

use crate::common::random::{brute_force, random_bounded, random_bounded_with};
use crate::common::{run, text};

use dlx::engines::{count_parallel, Engine, LinksSolver};
use dlx::problems::two_queens;
use dlx::{
    knuth, verify_cover, Branching, Budget, Config, EngineKind, ItemId, Matrix, MatrixBuilder,
    OptionId, PreselectError, Solver, Split, Stats, Step, Subtree,
};
use proptest::prelude::*;

fn read(text: &str) -> Matrix {
    knuth::read(text.as_bytes()).unwrap()
}

/// Every solution of a search, each verified, as sorted sets; the search
/// must meet no set twice and leave the links as it found them.
fn searched(s: &mut LinksSolver<'_>) -> BTreeSet<Vec<usize>> {
    // A copy: the solver's matrix is borrowed for as long as the solver.
    let m = &s.matrix().clone();
    let mut all = BTreeSet::new();
    for sol in s.solutions() {
        verify_cover(m, &sol).unwrap();
        let mut set: Vec<_> = sol.iter().map(|o| o.as_usize()).collect();
        set.sort_unstable();
        assert!(all.insert(set), "a solution met twice");
    }
    assert!(s.is_exhausted());
    s.check_links().unwrap();
    all
}

/// DLX3's own example (from the introduction of `dlx3.w`).
const DLX3_EXAMPLE: &str = "| A simple example of color controls\n\
    A B 2:3|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";

#[test]
fn dlx3s_example_has_its_one_solution_and_dlx3s_counters() {
    let m = read(DLX3_EXAMPLE);
    let mut s = LinksSolver::new(&m);
    let all = searched(&mut s);
    // "The unique solution consists of options A C X:1 Y:1, B X:1, C Y:1."
    assert_eq!(all, BTreeSet::from([vec![1, 3, 4]]));
    assert_eq!((s.stats().nodes, s.stats().updates), (6, 14));
    assert!(s.is_pristine());
}

#[test]
fn hand_checked_instances() {
    for (text, want) in [
        // Two of three: C(3, 2).
        ("2|A\nA\nA\nA\n", 3),
        // None, one or two of three: 1 + 3 + 3, the empty set included.
        ("0:2|A\nA\nA\nA\n", 7),
        // Three of two: none.
        ("3|A\nA\nA\n", 0),
        // B at most once: {A B} or {A} alone.
        ("A 0:1|B\nA B\nA\n", 2),
        // A once and B twice from A B, B, B: {A B, B} twice over, or A's
        // other option with both B's.
        ("A 2|B\nA B\nB\nB\nA\n", 3),
        // A colored secondary item shared by two uses of A.
        ("2|A | x\nA x:r\nA x:r\nA x:g\n", 1),
    ] {
        let m = read(text);
        let want_sets = brute_force(&m);
        assert_eq!(want_sets.len(), want, "{text}");
        for rule in [Branching::Knuth, Branching::FirstForced] {
            let mut s = LinksSolver::new(&m);
            s.set_branching(rule).unwrap();
            assert_eq!(searched(&mut s), want_sets, "{text} {rule:?}");
            assert!(s.is_pristine());
        }
    }
}

#[test]
fn two_queens_counts_as_brute_force_and_as_dlx3() {
    let m = two_queens(4).unwrap();
    assert_eq!(
        searched(&mut LinksSolver::new(&m)).len(),
        brute_force(&m).len()
    );
    // (n, solutions, nodes, updates): DLX3's search on `dlx gen two-queens n`.
    for (n, solutions, nodes, updates) in [
        (4, 11, 175, 876),
        (5, 92, 1_759, 11_143),
        (6, 1_097, 24_838, 188_428),
        (7, 19_448, 466_219, 3_728_466),
    ] {
        let m = two_queens(n).unwrap();
        let mut s = Solver::new(&m);
        assert_eq!(s.engine(), EngineKind::Bits, "the library's choice");
        assert_eq!(s.count().solutions, solutions, "n = {n}");
        assert_eq!((s.stats().nodes, s.stats().updates), (nodes, updates));
        let mut s = LinksSolver::new(&m);
        assert_eq!(s.count().solutions, solutions, "n = {n}");
        assert_eq!((s.stats().nodes, s.stats().updates), (nodes, updates));
        // Through the text format and back: the same search.
        let mut text = Vec::new();
        knuth::write(&m, &mut text).unwrap();
        let again = knuth::read(text.as_slice()).unwrap();
        assert_eq!(Solver::new(&again).count().solutions, solutions);
    }
}

#[test]
fn queries_budgets_and_preselection_take_bounds() {
    let m = two_queens(5).unwrap();
    let mut whole = LinksSolver::new(&m);
    let all = searched(&mut whole);
    assert_eq!(all.len(), 92);
    let first = whole.first_solution().unwrap().unwrap();
    verify_cover(&m, &first).unwrap();
    let c = whole.count_up_to(10);
    assert_eq!((c.solutions, c.complete), (10, false));

    // A node budget pauses and resumes the same search.
    let mut s = LinksSolver::new(&m);
    s.set_budget(Budget {
        nodes: Some(100),
        updates: None,
    });
    let (mut found, mut stops) = (0, 0);
    loop {
        match s.next_solution() {
            Step::Solution => found += 1,
            Step::Budget => {
                stops += 1;
                let spent = s.stats();
                s.set_budget(Budget {
                    nodes: Some(spent.nodes + 100),
                    updates: None,
                });
            }
            Step::Exhausted => break,
        }
    }
    assert_eq!(found, 92);
    assert!(stops > 5);
    s.reset();
    assert!(s.is_pristine());

    // Preselecting an option: the solutions that hold it, and only those.
    for k in [0, 7, 24] {
        let o = OptionId::must(k);
        let mut s = LinksSolver::new(&m);
        s.preselect(o).unwrap();
        let got = searched(&mut s);
        let want: BTreeSet<_> = all.iter().filter(|sol| sol.contains(&k)).cloned().collect();
        assert_eq!(got, want, "option {k}");
        s.reset();
        assert!(s.is_pristine());
    }
    // Row 0 takes two queens: a third option of r0 is a conflict.
    let mut s = Solver::new(&m);
    s.preselect_all(&[OptionId::must(0), OptionId::must(1)])
        .unwrap();
    assert_eq!(
        s.preselect(OptionId::must(2)),
        Err(PreselectError::Conflict {
            option: OptionId::must(2),
            with: OptionId::must(1)
        })
    );
    let c = s.count();
    assert!(c.complete);
}

#[test]
fn engines_and_rules_that_cannot_take_bounds_say_so() {
    let m = two_queens(4).unwrap();
    let e = Solver::with_config(&m, Config::new().engine(EngineKind::Masks)).unwrap_err();
    assert!(e.to_string().contains("multiplicities"), "{e}");
    // Bits takes lower bounds and slacks of four bits together (here 2 + 3).
    let bits = Config::new().engine(EngineKind::Bits);
    assert!(Solver::with_config(&m, bits).is_ok());
    let wide = read("2:9|A B\nA\nB\n");
    let e = Solver::with_config(&wide, bits).unwrap_err();
    assert!(e.to_string().contains("bounds are too large"), "{e}");
    assert_eq!(Solver::new(&wide).engine(), EngineKind::Links);
    assert!(Solver::with_config(read("1:8|A B\nA\nB\n"), bits).is_ok());
    // Dense takes bounds up to 65,534 and no colors.
    let dense = Config::new().engine(EngineKind::Dense);
    assert!(Solver::with_config(&m, dense).is_ok());
    let big = read("65535|A B\nA\nB\n");
    let e = Solver::with_config(&big, dense).unwrap_err();
    assert!(e.to_string().contains("65,534"), "{e}");
    assert_eq!(Solver::new(&big).engine(), EngineKind::Links);
    let e = Solver::with_config(read(DLX3_EXAMPLE), dense).unwrap_err();
    assert!(e.to_string().contains("colors"), "{e}");
    let e = Solver::with_config(&m, Config::new().branching(Branching::Lookahead)).unwrap_err();
    assert!(e.to_string().contains("lookahead"), "{e}");
    let mut s = Solver::new(&m);
    assert!(s.set_branching(Branching::Lookahead).is_err());
    assert_eq!(s.branching(), Branching::Knuth);
    // The library's infallible choice says what it searches with.
    let s = Solver::with_rule(&m, Branching::Lookahead);
    assert_eq!(s.branching(), Branching::FirstForced);
}

/// The pieces of `s`'s split at `depth`, each subtree searched by a fresh
/// solver after `preselect_subtree`: the solutions in order, and the
/// counters of the split plus every subtree's.
fn split_and_search(m: &Matrix, rule: Branching, depth: usize) -> (Vec<Vec<OptionId>>, Stats) {
    let mut s = LinksSolver::new(m);
    s.set_branching(rule).unwrap();
    let mut pieces: Vec<Result<Subtree, Vec<OptionId>>> = Vec::new();
    let mut stats = s
        .split(depth, |piece| match piece {
            Split::Subtree(sub) => pieces.push(Ok(sub.clone())),
            Split::Solution(sol) => pieces.push(Err(sol.to_vec())),
        })
        .unwrap();
    assert!(s.is_pristine(), "the split leaves the links as they were");
    let mut below = LinksSolver::new(m);
    below.set_branching(rule).unwrap();
    let (solutions, below) = gather(pieces, |sub| {
        below.preselect_subtree(sub).unwrap();
        let before = below.stats();
        let found = below.solutions().collect();
        let spent = below.stats() - before;
        below.reset();
        assert!(below.is_pristine(), "reset copies the links back");
        (found, spent)
    });
    stats += below;
    (solutions, stats)
}

/// The solutions of a split's `pieces` in order, those of each subtree
/// from `search`, with the counters `search` spent on them all.
fn gather(
    pieces: Vec<Result<Subtree, Vec<OptionId>>>,
    mut search: impl FnMut(&Subtree) -> (Vec<Vec<OptionId>>, Stats),
) -> (Vec<Vec<OptionId>>, Stats) {
    let (mut solutions, mut stats) = (Vec::new(), Stats::default());
    for piece in pieces {
        match piece {
            Err(sol) => solutions.push(sol),
            Ok(sub) => {
                let (found, spent) = search(&sub);
                solutions.extend(found);
                stats += spent;
            }
        }
    }
    (solutions, stats)
}

/// One search's solutions in order, and its counters.
fn one_search(m: &Matrix, rule: Branching) -> (Vec<Vec<OptionId>>, Stats) {
    let mut s = LinksSolver::new(m);
    s.set_branching(rule).unwrap();
    let solutions: Vec<_> = s.solutions().collect();
    (solutions, s.stats())
}

#[test]
fn a_search_with_bounds_splits_into_subtrees_that_add_up() {
    let m = two_queens(6).unwrap();
    for rule in [Branching::Knuth, Branching::FirstForced] {
        let (want, stats) = one_search(&m, rule);
        assert_eq!(want.len(), 1_097);
        for depth in 1..=6 {
            let (got, split) = split_and_search(&m, rule, depth);
            assert_eq!(got, want, "{rule:?} at depth {depth}: the one-thread order");
            assert_eq!(
                split, stats,
                "{rule:?} at depth {depth}: one search's counters"
            );
        }
    }
    // Deep cuts meet tweaked options and null moves.
    let mut s = LinksSolver::new(&m);
    let (mut excluded, mut retired) = (0, 0);
    s.split(4, |piece| {
        if let Split::Subtree(sub) = piece {
            excluded += sub.excluded.len();
            retired += sub.retired.len();
        }
    })
    .unwrap();
    assert!(excluded > 0 && retired > 0, "{excluded} {retired}");
    let par = count_parallel(&m, Engine::Links, Branching::Knuth, 3).unwrap();
    assert_eq!(
        (par.solutions, par.stats),
        (1_097, one_search(&m, Branching::Knuth).1)
    );
    assert!(par.subtrees > 1);
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
    let e = s.estimate(200, &mut rng);
    assert_eq!(e.probes, 200);
    assert!(
        e.solutions.mean > 100.0 && e.solutions.mean < 10_000.0,
        "{e:?}"
    );
}

#[test]
fn subtrees_refuse_what_they_cannot_be() {
    // A needs 2 or 3 of its options; x is secondary.
    let m = read("2:3|A B | x\nA\nA x\nA\nB\n");
    let mut s = LinksSolver::new(&m);
    let o = OptionId::must;
    let i = ItemId::must;
    let sub = Subtree {
        options: vec![o(0)],
        excluded: vec![o(1)],
        retired: vec![],
    };
    s.preselect_subtree(&sub).unwrap();
    // Only {A, A} (options 0 and 2) with B: one solution below.
    assert_eq!(s.count().solutions, 1);
    assert_eq!(s.preselect(o(1)), Err(PreselectError::Excluded(o(1))));
    // One use of A is below its lower bound; x is secondary.
    for item in [i(0), i(2)] {
        let sub = Subtree {
            options: vec![o(0)],
            excluded: vec![],
            retired: vec![item],
        };
        assert_eq!(
            s.preselect_subtree(&sub),
            Err(PreselectError::NotRetirable(item))
        );
        assert!(s.is_pristine() && s.preselected().len() == 0);
    }
    // Two uses meet it: retired, A takes no third option (which was
    // still live), and B is left: one solution.
    let sub = Subtree {
        options: vec![o(0), o(1)],
        excluded: vec![],
        retired: vec![i(0)],
    };
    s.preselect_subtree(&sub).unwrap();
    assert_eq!(s.count().solutions, 1);
    s.reset();
    assert!(s.is_pristine());
    // Two preselected options that agree on a color do not clash (the
    // second was refused while the first's purifying marked its node).
    let m = read("2|A B | x\nA x:r\nA x:r\nB x:r\nB x:g\n");
    let mut s = LinksSolver::new(&m);
    s.preselect(o(0)).unwrap();
    s.preselect(o(1)).unwrap();
    assert_eq!(s.count().solutions, 1);
    // Engines that take no multiplicities refuse exclusions.
    let plain = read("A B\nA\nB\nA B\n");
    let mut d = Solver::with_config(&plain, Config::new().engine(EngineKind::Dense)).unwrap();
    let sub = Subtree {
        options: vec![],
        excluded: vec![o(2)],
        retired: vec![],
    };
    assert_eq!(
        d.preselect_subtree(&sub),
        Err(PreselectError::Unsupported(EngineKind::Dense))
    );
    // Links excludes on any matrix: without option 2 only {A}{B} is left.
    let mut l = Solver::with_config(&plain, Config::new().engine(EngineKind::Links)).unwrap();
    l.preselect_subtree(&sub).unwrap();
    assert_eq!(l.count().solutions, 1);
}

#[test]
fn builder_bounds_are_checked() {
    let mut b = MatrixBuilder::new();
    let a = b.primary("a").unwrap();
    let x = b.secondary("x").unwrap();
    for (item, lo, hi, want) in [
        (a, 1, 0, "upper bound of zero"),
        (a, 3, 2, "lower bound above the upper"),
        (x, 1, 2, "secondary item"),
    ] {
        let e = b.set_bounds(item, lo, hi).unwrap_err();
        assert!(e.to_string().contains(want), "{e}");
    }
    b.set_bounds(a, 0, 5).unwrap();
    b.option(&[a, x]).unwrap();
    let m = b.build().unwrap();
    assert_eq!(m.bounds(a), Some((0, 5)));
    assert_eq!(m.bounds(x), None);
    // None or the one option.
    assert_eq!(Solver::new(&m).count().solutions, 2);
}

#[test]
fn multiplicities_on_the_command_line() {
    let gen = run(&["gen", "two-queens", "5"], b"");
    assert_eq!(gen.status.code(), Some(0));
    assert!(text(&gen.stdout).starts_with("2|r0 2|r1"));
    let out = run(&["cover", "--json"], &gen.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["solutions"].as_u64(), v["nodes"].as_u64()),
        (Some(92), Some(1_759))
    );
    // --all prints solutions that satisfy the bounds.
    let out = run(&["cover", "--all"], b"2|A 0:1|B\nA B\nA\nA\n");
    assert_eq!(text(&out.stdout), "A B\nA\n\nA B\nA\n\nA\nA\n");
    // --jobs cuts it and counts the same.
    let out = run(&["cover", "--jobs", "2", "--json"], &gen.stdout);
    let par: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (par["solutions"].as_u64(), par["nodes"].as_u64()),
        (Some(92), Some(1_759))
    );
    let out = run(&["cover", "--estimate", "100"], &gen.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // Refusals: exit 2, by name.
    for (args, want) in [
        (vec!["cover", "--engine", "masks"], "multiplicities"),
        (vec!["cover", "--branching", "lookahead"], "lookahead"),
    ] {
        let out = run(&args, &gen.stdout);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(want), "{}", text(&out.stderr));
    }
    // Malformed bounds: the line and the token.
    let out = run(&["cover"], b"| bounds\nA 1:x|B\nA B\n");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("line 2") && err.contains("1:x|B"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random matrices with bounds: every rule finds exactly the brute
    /// force's solutions, each once, and leaves the links as they were.
    #[test]
    fn random_matrices_with_bounds_match_brute_force(seed in any::<u64>()) {
        let m = random_bounded(seed);
        let want = brute_force(&m);
        for rule in [Branching::Knuth, Branching::FirstForced] {
            let mut s = LinksSolver::new(&m);
            s.set_branching(rule).unwrap();
            prop_assert_eq!(&searched(&mut s), &want);
            prop_assert!(s.is_pristine());
        }
        prop_assert_eq!(Solver::new(&m).count().solutions, want.len() as u64);
    }

    /// Random matrices with bounds, cut at every depth that has branch
    /// points: the subtrees' searches give one search's solutions, in its
    /// order, and its counters.
    #[test]
    fn random_matrices_with_bounds_split_exactly(seed in any::<u64>()) {
        let m = random_bounded(seed);
        for rule in [Branching::Knuth, Branching::FirstForced] {
            let (want, stats) = one_search(&m, rule);
            for depth in 1..=4 {
                let (got, split) = split_and_search(&m, rule, depth);
                prop_assert_eq!(&got, &want);
                prop_assert_eq!(split, stats);
            }
        }
    }
}

/// The engines that copy their states, with the rules each takes: dense
/// (Knuth's, first-forced) and bits (Knuth's).
const COPYING: [(EngineKind, &[Branching]); 2] = [
    (
        EngineKind::Dense,
        &[Branching::Knuth, Branching::FirstForced],
    ),
    (EngineKind::Bits, &[Branching::Knuth]),
];

/// Every solution of `engine` on `m` (uncolored, with bounds) and of the
/// links engine, with `rule`: the same solutions in the same order, the
/// same nodes and updates.
fn engine_agrees(m: &Matrix, engine: EngineKind, rule: Branching) -> Result<(), TestCaseError> {
    let config = Config::new().engine(engine).branching(rule);
    let mut solver = Solver::with_config(m, config).unwrap();
    let got: Vec<_> = solver.solutions().collect();
    let (want, stats) = one_search(m, rule);
    prop_assert_eq!(got, want);
    prop_assert_eq!(solver.stats(), stats);
    Ok(())
}

/// The pieces of `engine`'s split of `m` at `depth`, searched by a fresh
/// solver of the same engine after `preselect_subtree`: the solutions in
/// order, and the counters of the split plus every subtree's.
fn engine_split(
    m: &Matrix,
    engine: EngineKind,
    rule: Branching,
    depth: usize,
) -> (Vec<Vec<OptionId>>, Stats) {
    let config = Config::new().engine(engine).branching(rule);
    let mut s = Solver::with_config(m, config).unwrap();
    let mut pieces: Vec<Result<Subtree, Vec<OptionId>>> = Vec::new();
    let mut stats = s
        .split(depth, |piece| match piece {
            Split::Subtree(sub) => pieces.push(Ok(sub.clone())),
            Split::Solution(sol) => pieces.push(Err(sol.to_vec())),
        })
        .unwrap();
    let mut below = Solver::with_config(m, config).unwrap();
    let (solutions, below) = gather(pieces, |sub| {
        below.preselect_subtree(sub).unwrap();
        let before = below.stats();
        let found = below.solutions().collect();
        (found, below.stats() - before)
    });
    stats += below;
    (solutions, stats)
}

#[test]
fn the_dense_and_bits_engines_walk_dlx3s_tree() {
    for (engine, rules) in COPYING {
        for engine_rule in rules {
            the_copying_engine_walks_dlx3s_tree(engine, *engine_rule);
        }
    }
}

fn the_copying_engine_walks_dlx3s_tree(engine: EngineKind, rule: Branching) {
    for n in 4..=6 {
        let m = two_queens(n).unwrap();
        engine_agrees(&m, engine, rule).unwrap();
        let (want, stats) = one_search(&m, rule);
        for depth in [1, 3, 5] {
            assert_eq!(engine_split(&m, engine, rule, depth), (want.clone(), stats));
        }
    }
    // Deep cuts exclude and retire, and a links solver searches their
    // subtrees as the engine does (and the other way).
    let m = two_queens(6).unwrap();
    let dense = Config::new().engine(engine).branching(rule);
    let mut s = Solver::with_config(&m, dense).unwrap();
    let mut subs = Vec::new();
    s.split(4, |piece| {
        if let Split::Subtree(sub) = piece {
            subs.push(sub.clone());
        }
    })
    .unwrap();
    assert!(subs.iter().any(|s| !s.excluded.is_empty()));
    assert!(subs.iter().any(|s| !s.retired.is_empty()));
    let mut d = Solver::with_config(&m, dense).unwrap();
    let mut l = LinksSolver::new(&m);
    l.set_branching(rule).unwrap();
    for sub in &subs {
        d.preselect_subtree(sub).unwrap();
        l.preselect_subtree(sub).unwrap();
        let (a, b): (Vec<_>, Vec<_>) = (d.solutions().collect(), l.solutions().collect());
        assert_eq!(a, b);
        assert_eq!(d.stats(), l.stats());
    }
    let par = count_parallel(&m, Engine::Links, Branching::Knuth, 3).unwrap();
    let tables = Config::new().engine(engine).tables(&m).unwrap().0;
    let dpar = count_parallel(&m, tables.engine(), Branching::Knuth, 3).unwrap();
    assert_eq!((dpar.solutions, dpar.stats), (par.solutions, par.stats));
    // Preselection with bounds: conflicts name the latest option that
    // used the item up, refusals leave nothing behind.
    let mut d = Solver::with_config(&m, Config::new().engine(engine)).unwrap();
    d.preselect_all(&[OptionId::must(0), OptionId::must(1)])
        .unwrap();
    assert_eq!(
        d.preselect(OptionId::must(2)),
        Err(PreselectError::Conflict {
            option: OptionId::must(2),
            with: OptionId::must(1)
        })
    );
    let bad = Subtree {
        options: vec![],
        excluded: vec![],
        retired: vec![ItemId::must(0)],
    };
    assert_eq!(
        d.preselect_subtree(&bad),
        Err(PreselectError::NotRetirable(ItemId::must(0)))
    );
    assert_eq!(d.preselected().count(), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random uncolored matrices with bounds: the dense engine walks the
    /// links engine's tree (solutions in order, nodes, updates) with both
    /// rules, and the bits engine with Knuth's where it takes the bounds
    /// (lower bounds and slacks of four bits together); their cuts add up
    /// to one search.
    #[test]
    fn random_matrices_with_bounds_on_the_dense_and_bits_engines(seed in any::<u64>()) {
        let m = random_bounded_with(seed, false);
        prop_assert!(!m.has_colors() && m.has_bounds());
        for (engine, rules) in COPYING {
            if Solver::with_config(&m, Config::new().engine(engine)).is_err() {
                continue;
            }
            for &rule in rules {
                engine_agrees(&m, engine, rule)?;
                let (want, stats) = one_search(&m, rule);
                for depth in 1..=4 {
                    let (got, split) = engine_split(&m, engine, rule, depth);
                    prop_assert_eq!(&got, &want);
                    prop_assert_eq!(split, stats);
                }
            }
        }
    }
}

/// Items with bounds and few or no options: a level may end an item
/// without committing anything, so the search can be as deep as there are
/// items (found by fuzzing: the bits and dense engines sized their levels
/// by the options alone and indexed past them; `--features checked` turns
/// that into a panic). Every engine that takes bounds, every rule.
#[test]
fn bounded_items_without_options_on_every_engine() {
    let cases = [
        ("0:2|D 0:2|E\n", 1),
        ("0:2|D 0:2|E 0:1|F 0:3|G\n", 1),
        ("1:2|D 0:2|E\n", 0),
        ("0:2|D 0:2|E | x\nx\n", 1),
        ("0:2|D 0:2|E 0:2|F\nD\nE F\nD E\n", 8),
    ];
    for (text, want) in cases {
        let m = knuth::read(text.as_bytes()).unwrap();
        assert_eq!(dlx::brute_force_count(&m), Some(want), "{text:?}");
        for engine in EngineKind::ALL {
            for rule in [Branching::Knuth, Branching::FirstForced] {
                let config = Config::new().engine(engine).branching(rule);
                let Ok(mut s) = Solver::with_config(&m, config) else {
                    continue;
                };
                let mut n = 0;
                for sol in s.solutions() {
                    verify_cover(&m, &sol).unwrap();
                    n += 1;
                }
                assert_eq!(n, want, "{engine} {rule:?} {text:?}");
            }
        }
    }
}
