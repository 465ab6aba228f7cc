//! The exact-cover core against known answers: Knuth's node and update
//! counts, OEIS counts, colors against brute force, and the query API.
//! Every solution reported is run through the independent `verify_cover`.

use dlx::engines::{
    count_parallel, BitsError, BitsMatrix, BitsSolver, DenseMatrix, DenseSolver, Engine,
    LinksSolver, MasksError, MasksMatrix, MasksSolver, MAX_BITS_OPTIONS, MAX_BITS_PRIMARY,
    MAX_MASK_OPTIONS,
};
use dlx::problems::{langford, polyomino, queens};
use dlx::{
    brute_force_count, knuth, verify_cover, Branching, Budget, Matrix, OptionId, PreselectError,
    Split, Stats, Step,
};
use proptest::prelude::*;

fn read(text: &str) -> Matrix {
    knuth::read(text.as_bytes()).unwrap()
}

/// Counts solutions, checking every one with the independent verifier.
fn count_verified(m: &Matrix) -> u64 {
    count_verified_with(m, Branching::Knuth)
}

/// The same with a branching rule.
fn count_verified_with(m: &Matrix, branching: Branching) -> u64 {
    let mut solver = LinksSolver::new(m);
    solver.set_branching(branching).unwrap();
    let mut n = 0;
    for solution in solver.solutions() {
        verify_cover(m, &solution).unwrap();
        n += 1;
    }
    assert!(solver.is_exhausted());
    assert!(solver.is_pristine(), "links not restored after the search");
    n
}

const TAOCP: &str = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";

fn langford4_text() -> String {
    let mut s = String::from("v1 v2 v3 v4 s1 s2 s3 s4 s5 s6 s7 s8\n");
    for i in 1..=4 {
        for j in 1.. {
            let k = j + i + 1;
            if k > 8 {
                break;
            }
            s += &format!("v{i} s{j} s{k}\n");
        }
    }
    s
}

#[test]
fn taocp_example_matches_dlx1() {
    let m = read(TAOCP);
    let mut solver = LinksSolver::new(&m);
    let sols: Vec<Vec<OptionId>> = solver.solutions().collect();
    assert_eq!(sols.len(), 1);
    let mut opts: Vec<usize> = sols[0].iter().map(|o| o.as_usize()).collect();
    opts.sort();
    assert_eq!(opts, [0, 3, 4]); // C E F, A D, B G
    let s = solver.stats();
    assert_eq!((s.solutions, s.nodes, s.updates), (1, 6, 30));
}

#[test]
fn langford4_matches_dlx1() {
    let m = read(&langford4_text());
    let mut solver = LinksSolver::new(&m);
    assert_eq!(solver.count().solutions, 2);
    let s = solver.stats();
    assert_eq!((s.nodes, s.updates), (18, 184));
    // The generator builds the same file.
    let mut out = Vec::new();
    knuth::write(&langford(4).unwrap(), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), langford4_text());
}

/// Solutions of n queens, n = 1..=12 (OEIS A000170).
const QUEENS_A000170: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

/// Langford pairs (n, solutions), mirror images counted (OEIS A014552 doubled).
const LANGFORD_A014552_DOUBLED: [(usize, u64); 6] =
    [(3, 2), (4, 2), (5, 0), (7, 52), (8, 300), (11, 35584)];

#[test]
fn queens_counts_oeis_a000170() {
    for (n, &want) in (1..=12).zip(&QUEENS_A000170) {
        let m = queens(n).unwrap();
        if n <= 9 {
            assert_eq!(count_verified(&m), want, "n = {n}");
            let got = count_verified_with(&m, Branching::Lookahead);
            assert_eq!(got, want, "n = {n}, lookahead");
        } else {
            assert_eq!(LinksSolver::new(&m).count().solutions, want, "n = {n}");
        }
    }
}

#[test]
fn langford_counts_oeis_a014552_doubled() {
    for (n, want) in LANGFORD_A014552_DOUBLED {
        let m = langford(n).unwrap();
        let got = if n <= 8 {
            count_verified(&m)
        } else {
            LinksSolver::new(&m).count().solutions
        };
        assert_eq!(got, want, "n = {n}");
        if n <= 8 {
            let got = count_verified_with(&m, Branching::Lookahead);
            assert_eq!(got, want, "n = {n}, lookahead");
        }
    }
}

#[test]
fn pentominoes_3x20() {
    let m = polyomino::packing(&polyomino::PENTOMINOES, 3, 20).unwrap();
    assert_eq!(count_verified(&m), 8);
    assert_eq!(count_verified_with(&m, Branching::Lookahead), 8);
}

#[test]
#[ignore = "long: about a billion updates"]
fn pentominoes_6x10_and_5x12() {
    for (r, c, want) in [(6, 10, 9356), (5, 12, 4040)] {
        let m = polyomino::packing(&polyomino::PENTOMINOES, r, c).unwrap();
        let mut links = LinksSolver::new(&m);
        assert_eq!(links.count().solutions, want);
        let d = DenseMatrix::new(&m).unwrap();
        let mut dense = DenseSolver::new(&d);
        assert_eq!(dense.count().solutions, want);
        assert_eq!(dense.stats(), links.stats());
    }
}

#[test]
fn first_budget_and_resume() {
    let m = queens(8).unwrap();
    let mut solver = LinksSolver::new(&m);
    let first = solver.first_solution().unwrap().unwrap();
    verify_cover(&m, &first).unwrap();
    assert_eq!(first.len(), 8);

    let c = solver.count_up_to(10);
    assert_eq!((c.solutions, c.complete), (10, false));

    // A budget never turns into a false "no solution".
    solver.reset();
    solver.set_budget(Budget {
        nodes: Some(5),
        updates: None,
    });
    // (It said `Err(Step::Budget)`; now what stopped it.)
    assert_eq!(solver.first_solution(), Err(dlx::Stop::Nodes));
    assert_eq!(solver.stats().nodes, 5);
    let c = solver.count();
    assert!(!c.complete);
    assert_eq!(solver.stats().nodes, 10); // 5 more: the budget is per search

    // Raising the budget resumes where the search stopped.
    solver.restart();
    let mut found = 0;
    let mut budget = 0;
    loop {
        budget += 50;
        solver.set_budget(Budget {
            nodes: None,
            updates: Some(budget),
        });
        match solver.next_solution() {
            Step::Solution => found += 1,
            Step::Budget => {}
            Step::Exhausted => break,
        }
    }
    assert_eq!(found, 92);

    solver.set_budget(Budget::default());
    let c = solver.count();
    assert_eq!((c.solutions, c.complete), (92, true));
    solver.reset();
    assert!(solver.is_pristine());
}

#[test]
fn stopping_early_and_reset_restore_every_link() {
    let m = polyomino::packing(&polyomino::PENTOMINOES, 3, 20).unwrap();
    let mut solver = LinksSolver::new(&m);
    let first = solver.first_solution().unwrap().unwrap();
    verify_cover(&m, &first).unwrap();
    solver.check_links().unwrap();
    solver.reset();
    assert!(solver.is_pristine());
    assert_eq!(solver.stats(), dlx::Stats::default());
}

#[test]
fn preselect_fixes_options_and_reports_conflicts() {
    let m = queens(8).unwrap();
    let square = |i: usize, j: usize| OptionId::must(i * 8 + j);
    let mut solver = LinksSolver::new(&m);
    solver.preselect(square(0, 0)).unwrap();
    let c = solver.count();
    assert_eq!(c.solutions, 4); // 4 of the 92 have a queen in a corner square (0,0)
    for sol in solver.solutions() {
        assert_eq!(sol[0], square(0, 0));
        verify_cover(&m, &sol).unwrap();
    }
    // Same row, and same diagonal: both conflict; the state is unchanged.
    assert_eq!(
        solver.preselect(square(0, 5)),
        Err(PreselectError::Conflict {
            option: square(0, 5),
            with: square(0, 0)
        })
    );
    assert!(matches!(
        solver.preselect(square(3, 3)),
        Err(PreselectError::Conflict { .. })
    ));
    assert_eq!(solver.count().solutions, 4);
    assert!(matches!(
        solver.preselect(OptionId::must(64)),
        Err(PreselectError::UnknownOption(_))
    ));
    solver.reset();
    assert!(solver.is_pristine());
    assert_eq!(solver.count().solutions, 92);
}

#[test]
fn preselect_everything_gives_the_empty_search_one_solution() {
    let m = read("A B\nA\nB\nA B\n");
    let mut solver = LinksSolver::new(&m);
    solver.preselect(OptionId::must(2)).unwrap();
    let sols: Vec<_> = solver.solutions().collect();
    assert_eq!(sols, vec![vec![OptionId::must(2)]]);
}

#[test]
fn colors_hand_checked() {
    // x may be shared by options that agree on its color.
    let m = read("A B C | x\nA x:red\nB x:red\nC x:blue\nC\nB x\n");
    // {A,B,C}: A x:red, B x:red, C -> 1;  A x:red, B x:red, C x:blue -> clash;
    // B x (uncolored) with A x:red -> clash.
    assert_eq!(count_verified(&m), 1);
    let m = read("A B | x y\nA x:1 y:2\nB x:1 y:2\nB x:1 y:3\nB y:2\n");
    assert_eq!(count_verified(&m), 2);
    // An uncolored secondary item is exclusive.
    let m = read("A B | x\nA x\nB x\nA\nB\n");
    assert_eq!(count_verified(&m), 3);
}

#[test]
fn preselect_with_colors() {
    let m = read("A B C | x\nA x:red\nB x:red\nC x:blue\nC\n");
    let mut solver = LinksSolver::new(&m);
    solver.preselect(OptionId::must(0)).unwrap();
    solver.preselect(OptionId::must(1)).unwrap(); // agrees on red
    assert!(matches!(
        solver.preselect(OptionId::must(2)),
        Err(PreselectError::Conflict { .. })
    ));
    let sols: Vec<_> = solver.solutions().collect();
    assert_eq!(sols.len(), 1);
    verify_cover(&m, &sols[0]).unwrap();
    solver.reset();
    assert!(solver.is_pristine());
}

#[test]
fn branching_rules_agree_on_counts() {
    for m in [queens(8).unwrap(), langford(7).unwrap()] {
        let mut a = LinksSolver::new(&m);
        let mut b = LinksSolver::new(&m);
        b.set_branching(Branching::FirstForced).unwrap();
        assert_eq!(a.count(), b.count());
    }
}

/// Every solution as a sorted list of options, the list sorted.
fn solution_set(m: &Matrix, branching: Branching) -> Vec<Vec<OptionId>> {
    let mut solver = LinksSolver::new(m);
    solver.set_branching(branching).unwrap();
    let mut all: Vec<Vec<OptionId>> = solver
        .solutions()
        .map(|mut s| {
            s.sort();
            s
        })
        .collect();
    all.sort();
    all
}

#[test]
fn lookahead_finds_the_same_solutions_with_fewer_nodes() {
    for m in [
        queens(8).unwrap(),
        langford(8).unwrap(),
        queens(10).unwrap(),
    ] {
        let want = solution_set(&m, Branching::Knuth);
        assert_eq!(solution_set(&m, Branching::Lookahead), want);
        let mut plain = LinksSolver::new(&m);
        let mut look = LinksSolver::new(&m);
        look.set_branching(Branching::Lookahead).unwrap();
        assert_eq!(plain.count(), look.count());
        assert!(look.stats().nodes < plain.stats().nodes);
        assert!(look.stats().probes > 0);
        assert!(look.is_pristine());
    }
}

#[test]
fn lookahead_pauses_resumes_and_resets_anywhere() {
    // Stop after every few nodes, resume, and count: the pauses must not
    // lose or repeat a solution, and a reset from any pause restores every
    // link (removed options included).
    let m = queens(7).unwrap();
    for step in 1..12u64 {
        let mut s = LinksSolver::new(&m);
        s.set_branching(Branching::Lookahead).unwrap();
        let (mut found, mut limit) = (0, step);
        loop {
            s.set_budget(Budget {
                nodes: Some(limit),
                updates: None,
            });
            match s.next_solution() {
                Step::Solution => {
                    verify_cover(&m, &s.solution().collect::<Vec<_>>()).unwrap();
                    found += 1;
                }
                Step::Budget => limit += step,
                Step::Exhausted => break,
            }
            // Queens 7 takes a few dozen nodes; a broken undo loops.
            assert!(limit < 10_000, "step {step}: runaway search");
            if limit == 3 * step {
                // A copy paused here resets cleanly.
                let mut copy = s.clone();
                copy.reset();
                assert!(copy.is_pristine(), "step {step}");
            }
        }
        assert_eq!(found, 40, "step {step}");
        assert!(s.is_pristine());
    }
}

#[test]
fn profile_counts_nodes_per_level() {
    let m = read(TAOCP);
    let mut solver = LinksSolver::new(&m);
    solver.enable_profile();
    solver.count();
    let p = solver.profile().unwrap();
    assert_eq!(p.iter().sum::<u64>(), solver.stats().nodes);
    assert_eq!(p[0], 1);
}

#[test]
fn one_matrix_many_threads() {
    let m = queens(8).unwrap();
    let counts: Vec<u64> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(|| LinksSolver::new(&m).count().solutions))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(counts, [92; 4]);
}

/// Cross-check with the `dlx` crate 0.8.5 (another DLX1 tree walker).
#[test]
fn agrees_with_dlx_crate_0_8_5() {
    use dlx085::choose::{mrv_chooser, no_tiebreak, prefer_any};
    use dlx085::x::{INodes, ONodes, Problem};
    use dlx085::{OptOrder, Solver as Their};
    for (n, m) in [(7, langford(7).unwrap()), (8, langford(8).unwrap())] {
        let options: Vec<Vec<dlx085::Uint>> = (0..m.option_count())
            .map(|k| {
                m.option_items(OptionId::must(k))
                    .map(|(i, _)| i.as_usize() as dlx085::Uint)
                    .collect()
            })
            .collect();
        let items = INodes::new(m.item_count() as dlx085::Uint, 0);
        let opts = ONodes::new(
            m.item_count() as dlx085::Uint,
            m.item_count() as dlx085::Uint,
            &options,
            OptOrder::Seq,
        );
        let mut problem = Problem::new(items, opts);
        let mut their = Their::new(&mut problem);
        let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
        let mut count = 0;
        while their.next_solution(&mut chooser) {
            count += 1;
        }
        assert_eq!(
            count,
            LinksSolver::new(&m).count().solutions,
            "langford {n}"
        );
    }
}

fn random_instance() -> impl Strategy<Value = String> {
    (1usize..4, 0usize..3, 1usize..11).prop_flat_map(|(np, ns, k)| {
        let item = (0..np + ns, 0usize..3);
        prop::collection::vec(prop::collection::vec(item, 1..4), k).prop_map(move |options| {
            let mut s: String = (0..np).map(|i| format!("p{i} ")).collect();
            s += "|";
            for i in 0..ns {
                s += &format!(" s{i}");
            }
            s += "\n";
            for opt in options {
                let mut seen = Vec::new();
                for (i, c) in opt {
                    if seen.contains(&i) {
                        continue;
                    }
                    seen.push(i);
                    if i < np {
                        s += &format!("p{i} ");
                    } else if c == 0 {
                        s += &format!("s{} ", i - np);
                    } else {
                        s += &format!("s{}:{c} ", i - np);
                    }
                }
                s += "\n";
            }
            s
        })
    })
}

/// Larger uncolored instances, where lookahead has something to prune.
fn random_uncolored_instance() -> impl Strategy<Value = String> {
    (3usize..9, 6usize..28).prop_flat_map(|(np, k)| {
        prop::collection::vec(prop::collection::btree_set(0..np, 1..4), k).prop_map(
            move |options| {
                let mut s: String = (0..np).map(|i| format!("p{i} ")).collect();
                s += "\n";
                for opt in options {
                    for i in opt {
                        s += &format!("p{i} ");
                    }
                    s += "\n";
                }
                s
            },
        )
    })
}

/// Uncolored instances with secondary items, options of secondary items
/// only, and up to 300 options (several words of the dense engine's state).
fn random_wide_instance() -> impl Strategy<Value = String> {
    (2usize..10, 0usize..4, 1usize..300).prop_flat_map(|(np, ns, k)| {
        prop::collection::vec(prop::collection::btree_set(0..np + ns, 1..5), k).prop_map(
            move |options| {
                let name = |i: usize| {
                    if i < np {
                        format!("p{i}")
                    } else {
                        format!("s{}", i - np)
                    }
                };
                let mut s: String = (0..np).map(|i| format!("{} ", name(i))).collect();
                s += "|";
                for i in np..np + ns {
                    s += &format!(" {}", name(i));
                }
                s += "\n";
                for opt in options {
                    for i in opt {
                        s += &format!("{} ", name(i));
                    }
                    s += "\n";
                }
                s
            },
        )
    })
}

/// Every engine with Knuth's rule: the same solutions in the same order and
/// the same counters; and the dense engine's first-forced rule the same set.
/// The bits engine must take every matrix within its limits.
fn engines_agree(m: &Matrix) -> Result<(), TestCaseError> {
    match BitsMatrix::new(m) {
        Ok(b) => bits_agrees(m, &b)?,
        Err(BitsError::LongItem(n)) => prop_assert!(n > 255),
        Err(BitsError::TooManyOptions(n)) => prop_assert!(n > MAX_BITS_OPTIONS),
        Err(BitsError::TooManyPrimary(n)) => prop_assert!(n > MAX_BITS_PRIMARY),
        Err(e) => prop_assert!(false, "{}", e),
    }
    let d = DenseMatrix::new(m).unwrap();
    let mut dense = DenseSolver::new(&d);
    let mut links = LinksSolver::new(m);
    let mut set = Vec::new();
    // Random instances can have astronomically many solutions: compare the
    // first 2,000, and the sets only when that is all of them.
    while set.len() < 2000 {
        let step = dense.next_solution();
        prop_assert_eq!(step, links.next_solution());
        if step != Step::Solution {
            break;
        }
        let sol: Vec<OptionId> = dense.solution().collect();
        prop_assert_eq!(&sol, &links.solution().collect::<Vec<_>>());
        verify_cover(m, &sol).unwrap();
        let mut sorted = sol;
        sorted.sort();
        set.push(sorted);
    }
    prop_assert_eq!(dense.stats(), links.stats());
    if !dense.is_exhausted() {
        return Ok(());
    }
    dense.set_branching(Branching::FirstForced).unwrap();
    dense.restart();
    let mut forced = Vec::new();
    while dense.next_solution() == Step::Solution {
        let mut sol: Vec<OptionId> = dense.solution().collect();
        sol.sort();
        forced.push(sol);
    }
    set.sort();
    forced.sort();
    prop_assert_eq!(&forced, &set);
    match MasksMatrix::new(m) {
        Ok(mm) => masks_agrees(m, &mm, &set)?,
        Err(MasksError::LongItem(n)) => prop_assert!(n > MAX_MASK_OPTIONS),
        Err(e) => prop_assert!(false, "{}", e),
    }
    Ok(())
}

/// The masks engine against `set`, every solution of `m` sorted: with
/// Knuth's rule, the links engine's solutions in its order and its
/// counters; first-forced (its own tree), the same set, each valid; after
/// preselecting the first solution's first option, the links engine's
/// count.
fn masks_agrees(m: &Matrix, mm: &MasksMatrix, set: &[Vec<OptionId>]) -> Result<(), TestCaseError> {
    let mut masks = MasksSolver::new(mm);
    let mut links = LinksSolver::new(m);
    let order: Vec<Vec<OptionId>> = links.solutions().collect();
    prop_assert_eq!(masks.solutions().collect::<Vec<_>>(), order);
    prop_assert_eq!(masks.stats(), links.stats());
    masks.set_branching(Branching::FirstForced).unwrap();
    let mut mine = Vec::new();
    while masks.next_solution() == Step::Solution {
        let mut sol: Vec<OptionId> = masks.solution().collect();
        verify_cover(m, &sol).unwrap();
        sol.sort();
        mine.push(sol);
    }
    prop_assert!(masks.is_exhausted());
    mine.sort();
    prop_assert_eq!(&mine[..], set);
    if let Some(&r) = set.first().and_then(|s| s.first()) {
        let mut links = LinksSolver::new(m);
        masks.reset();
        masks.preselect(r).unwrap();
        links.preselect(r).unwrap();
        prop_assert_eq!(masks.count(), links.count());
    }
    Ok(())
}

/// The bits engine against the links engine, Knuth's rule: the same
/// solutions in the same order, the same counters (the bits engine takes
/// Knuth's rule only); then preselecting the first solution's first option
/// leaves the solutions that contain it.
fn bits_agrees(m: &Matrix, b: &BitsMatrix) -> Result<(), TestCaseError> {
    let mut links = LinksSolver::new(m);
    for branching in [Branching::Knuth] {
        let mut bits = BitsSolver::new(b);
        bits.set_branching(branching).unwrap();
        prop_assert!(bits.set_branching(Branching::FirstForced).is_err());
        links.reset();
        let mut first = None;
        for _ in 0..2000 {
            let step = bits.next_solution();
            prop_assert_eq!(step, links.next_solution());
            if step != Step::Solution {
                break;
            }
            let sol: Vec<OptionId> = bits.solution().collect();
            prop_assert_eq!(&sol, &links.solution().collect::<Vec<_>>());
            verify_cover(m, &sol).unwrap();
            first.get_or_insert(sol);
        }
        prop_assert_eq!(bits.stats(), links.stats());
        prop_assert_eq!(bits.is_exhausted(), links.is_exhausted());
        if let Some(&r) = first.as_ref().and_then(|s| s.first()) {
            bits.reset();
            links.reset();
            bits.preselect(r).unwrap();
            links.preselect(r).unwrap();
            prop_assert_eq!(bits.count_up_to(2000), links.count_up_to(2000));
            prop_assert_eq!(bits.stats(), links.stats());
        }
    }
    Ok(())
}

#[test]
fn bits_engine_counts_oeis() {
    let counts = |m: &Matrix| {
        let b = BitsMatrix::new(m).unwrap();
        let mut s = BitsSolver::new(&b);
        let c = s.count();
        assert!(c.complete);
        let mut links = LinksSolver::new(m);
        links.count();
        assert_eq!(s.stats(), links.stats());
        c.solutions
    };
    for (n, &want) in (1..=12).zip(&QUEENS_A000170) {
        assert_eq!(counts(&queens(n).unwrap()), want, "queens {n}");
    }
    for (n, want) in LANGFORD_A014552_DOUBLED {
        assert_eq!(counts(&langford(n).unwrap()), want, "langford {n}");
    }
    // DLX1's numbers on Langford 4 and TAOCP's example.
    for (text, want) in [
        (langford4_text(), (2, 18, 184)),
        (TAOCP.to_string(), (1, 6, 30)),
    ] {
        let m = read(&text);
        let b = BitsMatrix::new(&m).unwrap();
        let mut s = BitsSolver::new(&b);
        let n = s.count().solutions;
        assert_eq!((n, s.stats().nodes, s.stats().updates), want);
        engines_agree(&m).unwrap();
    }
    engines_agree(&queens(8).unwrap()).unwrap();
    // Past its limits it says why.
    let pent = polyomino::packing(&polyomino::PENTOMINOES, 3, 20).unwrap();
    assert_eq!(
        BitsMatrix::new(&pent).unwrap_err(),
        BitsError::TooManyPrimary(72)
    );
    let colored = read("a | x\na x:1\na x:2\n");
    assert_eq!(BitsMatrix::new(&colored).unwrap_err(), BitsError::Colors);
}

#[test]
fn masks_engine_counts_oeis() {
    let counts = |m: &Matrix| {
        let mm = MasksMatrix::new(m).unwrap();
        let c = MasksSolver::new(&mm).count();
        assert!(c.complete);
        c.solutions
    };
    for (n, &want) in (1..=12).zip(&QUEENS_A000170) {
        assert_eq!(counts(&queens(n).unwrap()), want, "queens {n}");
    }
    for (n, want) in LANGFORD_A014552_DOUBLED {
        assert_eq!(counts(&langford(n).unwrap()), want, "langford {n}");
    }
    // Queens 20 (40 primary items, beyond the bits engine): the first
    // solution, valid.
    let q = queens(20).unwrap();
    let mm = MasksMatrix::new(&q).unwrap();
    let first = MasksSolver::new(&mm).first_solution().unwrap().unwrap();
    verify_cover(&q, &first).unwrap();
    // Past its limits it says why.
    let pent = polyomino::packing(&polyomino::PENTOMINOES, 3, 20).unwrap();
    assert!(matches!(
        MasksMatrix::new(&pent).unwrap_err(),
        MasksError::LongItem(n) if n > MAX_MASK_OPTIONS
    ));
    let colored = read("a | x\na x:1\na x:2\n");
    assert_eq!(MasksMatrix::new(&colored).unwrap_err(), MasksError::Colors);
}

#[test]
fn dense_engine_counts_oeis() {
    let counts = |m: &Matrix, branching| {
        let d = DenseMatrix::new(m).unwrap();
        let mut s = DenseSolver::new(&d);
        s.set_branching(branching).unwrap();
        let c = s.count();
        assert!(c.complete);
        c.solutions
    };
    for (n, &want) in (1..=12).zip(&QUEENS_A000170) {
        let m = queens(n).unwrap();
        assert_eq!(counts(&m, Branching::Knuth), want, "queens {n}");
        assert_eq!(counts(&m, Branching::FirstForced), want, "queens {n}");
    }
    for (n, want) in LANGFORD_A014552_DOUBLED {
        let m = langford(n).unwrap();
        assert_eq!(counts(&m, Branching::Knuth), want, "langford {n}");
        assert_eq!(counts(&m, Branching::FirstForced), want, "langford {n}");
    }
    let m = polyomino::packing(&polyomino::PENTOMINOES, 3, 20).unwrap();
    assert_eq!(counts(&m, Branching::Knuth), 8);
    // DLX1's numbers on Langford 4, through the dense engine.
    let m = read(&langford4_text());
    let d = DenseMatrix::new(&m).unwrap();
    let mut s = DenseSolver::new(&d);
    assert_eq!(s.count().solutions, 2);
    assert_eq!((s.stats().nodes, s.stats().updates), (18, 184));
    engines_agree(&queens(8).unwrap()).unwrap();
    engines_agree(&m).unwrap();
}

proptest! {
    #[test]
    fn dense_engine_matches_links_on_random_instances(text in random_wide_instance()) {
        engines_agree(&read(&text))?;
    }

    #[test]
    fn random_colored_instances_match_brute_force(text in random_instance()) {
        let m = read(&text);
        prop_assume!(m.option_count() <= 12);
        let want = brute_force_count(&m).unwrap();
        prop_assert_eq!(count_verified(&m), want, "{}", text);
        for branching in [Branching::FirstForced, Branching::Lookahead] {
            prop_assert_eq!(count_verified_with(&m, branching), want, "{:?} {}", branching, text);
        }
    }

    #[test]
    fn split_matches_whole_on_random_instances(
        text in random_instance(),
        depth in 0usize..4,
        rule in 0usize..3,
    ) {
        let m = read(&text);
        let branching = [Branching::Knuth, Branching::FirstForced, Branching::Lookahead][rule];
        split_matches_whole(&m, depth, branching, false)?;
        if !m.has_colors() {
            split_matches_whole(&m, depth, Branching::Knuth, true)?;
        }
    }

    #[test]
    fn split_matches_whole_on_wide_instances(text in random_wide_instance(), depth in 1usize..4) {
        split_matches_whole(&read(&text), depth, Branching::Knuth, true)?;
    }

    #[test]
    fn lookahead_matches_knuth_on_random_instances(text in random_uncolored_instance()) {
        let m = read(&text);
        let want = solution_set(&m, Branching::Knuth);
        prop_assert_eq!(solution_set(&m, Branching::Lookahead), want.clone(), "{}", text);
        // The masks engine's lookahead: the same solutions, each a cover.
        let mm = MasksMatrix::new(&m).unwrap();
        let mut masks = MasksSolver::new(&mm);
        masks.set_branching(Branching::Lookahead).unwrap();
        let mut got: Vec<Vec<OptionId>> = masks.solutions().collect();
        for sol in &mut got {
            verify_cover(&m, sol).unwrap();
            sol.sort();
        }
        got.sort();
        prop_assert_eq!(got, want, "{}", text);
    }
}

/// The pieces of a search cut at `depth` ([`LinksSolver::split`]), each subtree
/// searched apart by the links engine or (`dense`) the dense one, against
/// the whole search: with Knuth's rule the same solutions in the same order
/// and the same counters, with the other rules the same solutions. Instances
/// with more than 3,000 solutions are passed over.
fn split_matches_whole(
    m: &Matrix,
    depth: usize,
    branching: Branching,
    dense: bool,
) -> Result<(), TestCaseError> {
    let mut whole = LinksSolver::new(m);
    whole.set_branching(branching).unwrap();
    if whole.count_up_to(3001).solutions > 3000 {
        return Ok(());
    }
    whole.reset();
    let want: Vec<Vec<OptionId>> = whole.solutions().collect();
    let mut pieces = Vec::new();
    let mut splitter = LinksSolver::new(m);
    splitter.set_branching(branching).unwrap();
    let mut stats = splitter
        .split(depth, |piece| {
            pieces.push(match piece {
                Split::Subtree(p) => (true, p.options.clone()),
                Split::Solution(s) => (false, s.to_vec()),
            })
        })
        .unwrap();
    prop_assert!(splitter.is_pristine());
    let d = DenseMatrix::new(m).ok().filter(|_| dense);
    let mut links = LinksSolver::new(m);
    links.set_branching(branching).unwrap();
    let mut dense = d.as_ref().map(DenseSolver::new);
    if let Some(s) = &mut dense {
        s.set_branching(branching).unwrap();
    }
    let mut got = Vec::new();
    for (subtree, options) in pieces {
        if !subtree {
            got.push(options);
            continue;
        }
        prop_assert!(options.len() >= depth);
        let (sols, work): (Vec<Vec<OptionId>>, Stats) = match &mut dense {
            Some(s) => {
                s.reset();
                for &o in &options {
                    s.preselect(o).unwrap();
                }
                let before = s.stats();
                let sols = s.solutions().collect();
                (sols, s.stats() - before)
            }
            None => {
                links.reset();
                for &o in &options {
                    links.preselect(o).unwrap();
                }
                let before = links.stats();
                let sols = links.solutions().collect();
                (sols, links.stats() - before)
            }
        };
        stats += work;
        got.extend(sols);
    }
    for sol in &got {
        verify_cover(m, sol).unwrap();
    }
    if branching == Branching::Knuth {
        prop_assert_eq!(&got, &want);
        prop_assert_eq!(stats, whole.stats());
    } else {
        let sorted = |v: &[Vec<OptionId>]| {
            let mut v: Vec<Vec<OptionId>> = v
                .iter()
                .map(|s| {
                    let mut s = s.clone();
                    s.sort();
                    s
                })
                .collect();
            v.sort();
            v
        };
        prop_assert_eq!(sorted(&got), sorted(&want));
    }
    Ok(())
}

#[test]
fn split_pieces_make_up_the_whole_search() {
    let mut cases = vec![
        read(TAOCP),
        read(&langford4_text()),
        queens(6).unwrap(),
        queens(8).unwrap(),
        langford(7).unwrap(),
    ];
    // Colors (links only) and an option-less primary item (no solution).
    cases.push(read("A B | x\nA x:1\nB x:1\nA x:2\nB x:2\nB\n"));
    cases.push(read("A B\nA\n"));
    for m in &cases {
        for depth in 0..5 {
            for branching in [
                Branching::Knuth,
                Branching::FirstForced,
                Branching::Lookahead,
            ] {
                split_matches_whole(m, depth, branching, false).unwrap();
            }
            split_matches_whole(m, depth, Branching::Knuth, true).unwrap();
        }
    }
    // Long options, a deep tree (Knuth's rule: lookahead is slow here).
    let m = polyomino::packing(&polyomino::PENTOMINOES, 3, 20).unwrap();
    for depth in [1, 3, 6] {
        split_matches_whole(&m, depth, Branching::Knuth, false).unwrap();
        split_matches_whole(&m, depth, Branching::Knuth, true).unwrap();
    }
}

#[test]
fn count_parallel_counts_and_keeps_knuths_counters() {
    let queens_want = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (n, &want) in (1..=10).zip(&queens_want) {
        let m = queens(n).unwrap();
        let d = DenseMatrix::new(&m).unwrap();
        let b = BitsMatrix::new(&m).unwrap();
        let mut one = LinksSolver::new(&m);
        one.count();
        for jobs in [1, 2, 3] {
            for engine in [Engine::Links, Engine::Dense(&d), Engine::Bits(&b)] {
                let par = count_parallel(&m, engine, Branching::Knuth, jobs).unwrap();
                assert_eq!(par.solutions, want, "queens {n}, {jobs} jobs");
                assert_eq!(par.stats, one.stats(), "queens {n}, {jobs} jobs");
                if jobs > 1 && n == 10 {
                    // 35,539 nodes: cut where there are enough subtrees.
                    assert!(par.subtrees >= 64 * jobs, "queens {n}: {par:?}");
                }
            }
            let par = count_parallel(&m, Engine::Links, Branching::Lookahead, jobs).unwrap();
            assert_eq!(par.solutions, want, "queens {n}, lookahead");
            // The masks engine, cut by itself: the same count (its counters:
            // `count_parallel_keeps_first_forced_counters`).
            let mm = MasksMatrix::new(&m).unwrap();
            let par = count_parallel(&m, Engine::Masks(&mm), Branching::FirstForced, jobs).unwrap();
            assert_eq!(par.solutions, want, "queens {n}, masks");
            let par = count_parallel(&m, Engine::Masks(&mm), Branching::Lookahead, jobs).unwrap();
            assert_eq!(par.solutions, want, "queens {n}, masks, lookahead");
            // Knuth's rule: DLX1's counters, cut or not; no tables of
            // another matrix.
            let par = count_parallel(&m, Engine::Masks(&mm), Branching::Knuth, jobs).unwrap();
            assert_eq!(
                (par.solutions, par.stats),
                (want, one.stats()),
                "queens {n}, masks"
            );
            let other = queens(n + 1).unwrap();
            let refused = count_parallel(&other, Engine::Dense(&d), Branching::Knuth, jobs);
            assert!(refused.unwrap_err().to_string().contains("another matrix"));
        }
    }
    let m = langford(11).unwrap();
    let par = count_parallel(&m, Engine::Links, Branching::FirstForced, 2).unwrap();
    assert_eq!(par.solutions, 35584);
    // Thirty forced levels on top of queens 8 (items `f0`..`f29` first, one
    // option each): the cut counts branch points, so it goes through the
    // chain in one pass and still finds its subtrees below it.
    let mut text = Vec::new();
    knuth::write(&queens(8).unwrap(), &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    let forced: String = (0..30).map(|k| format!("f{k} ")).collect();
    let chain: String = (0..30).map(|k| format!("f{k}\n")).collect();
    let m = read(&format!("{forced}{head}\n{chain}{rest}"));
    let mut one = LinksSolver::new(&m);
    assert_eq!(one.count().solutions, 92);
    let par = count_parallel(&m, Engine::Links, Branching::Knuth, 2).unwrap();
    assert_eq!(par.stats, one.stats());
    assert!(par.subtrees >= 128 && par.depth <= 6, "{par:?}");
    // An item with no option: no solution, found above any cut.
    let m = read("x y\ny\n");
    let par = count_parallel(&m, Engine::Links, Branching::Knuth, 2).unwrap();
    assert_eq!((par.solutions, par.subtrees), (0, 0));
}

/// A 9×9 Sudoku in Knuth's format: cell, row, column and box items, a
/// given's cell with its one option.
fn sudoku_matrix(puzzle: &str) -> Matrix {
    let mut text = String::new();
    for kind in ["p", "r", "c", "b"] {
        for a in 0..9 {
            for b in 0..9 {
                text += &format!("{kind}{a}{b} ");
            }
        }
    }
    text.push('\n');
    for (k, ch) in puzzle.chars().enumerate().take(81) {
        let (r, c) = (k / 9, k % 9);
        let given = ch.to_digit(10).filter(|&d| d > 0);
        let digits: Vec<u32> = given.map_or((0..9).collect(), |d| vec![d - 1]);
        for d in digits {
            let b = r / 3 * 3 + c / 3;
            text += &format!("p{r}{c} r{r}{d} c{c}{d} b{b}{d}\n");
        }
    }
    read(&text)
}

/// With the first-forced rule too, a count cut into subtrees keeps one
/// thread's nodes and updates: the cut pauses before a branch point, where
/// no item is forced, so a subtree's search starts where one search would
/// have gone on (masks, and links and dense with first-forced).
#[test]
fn count_parallel_keeps_first_forced_counters() {
    // Two Sudoku grids with 435 and 380 solutions and dead ends at every
    // depth (a solved grid with 54 cells emptied). When the cut paused
    // right after a branch point's option, their subtrees took the forced
    // items below it in another order, and the counters differed by a few
    // nodes.
    let mut matrices = vec![
        sudoku_matrix(
            "41.3..8.5...1.89.7..8.....6.....7.6..9........4.91.7...8.6..5.157.2.....1.4......",
        ),
        sudoku_matrix(
            ".1..6..2..32........87.43..8.5..716....5......46..2....89.......73....8416....2..",
        ),
    ];
    matrices.extend((5..=9).map(|n| queens(n).unwrap()));
    matrices.extend((7..=8).map(|n| langford(n).unwrap()));
    for m in &matrices {
        let mm = MasksMatrix::new(m).unwrap();
        let d = DenseMatrix::new(m).unwrap();
        let mut masks = MasksSolver::new(&mm);
        masks.set_branching(Branching::FirstForced).unwrap();
        let mut links = LinksSolver::new(m);
        links.set_branching(Branching::FirstForced).unwrap();
        let mut dense = DenseSolver::new(&d);
        dense.set_branching(Branching::FirstForced).unwrap();
        let one = [
            (Engine::Masks(&mm), masks.count()),
            (Engine::Links, links.count()),
            (Engine::Dense(&d), dense.count()),
        ];
        let stats = [masks.stats(), links.stats(), dense.stats()];
        for ((engine, count), stats) in one.into_iter().zip(stats) {
            for jobs in [2, 3] {
                let par = count_parallel(m, engine, Branching::FirstForced, jobs).unwrap();
                assert_eq!(par.solutions, count.solutions, "{engine:?}");
                assert_eq!(par.stats, stats, "{:?}, {jobs} jobs", engine.kind());
            }
        }
    }
}

/// `preselect_all` must leave the search exactly what one-by-one
/// `preselect` leaves: same solutions, same counts, same conflicts.
fn bulk_matches_one_by_one(m: &Matrix, options: &[OptionId]) {
    let mut one = LinksSolver::new(m);
    let mut first_error = None;
    for &o in options {
        if let Err(e) = one.preselect(o) {
            first_error = Some(e);
            break;
        }
    }
    let mut bulk = LinksSolver::new(m);
    let result = bulk.preselect_all(options);
    assert_eq!(result.is_err(), first_error.is_some(), "{options:?}");
    if result.is_err() {
        // Nothing stays preselected: the whole count.
        assert_eq!(bulk.count(), LinksSolver::new(m).count());
        return;
    }
    let a: Vec<Vec<OptionId>> = one.solutions().collect();
    let b: Vec<Vec<OptionId>> = bulk.solutions().collect();
    assert_eq!(a, b, "{options:?}");
    for s in &b {
        verify_cover(m, s).unwrap();
    }
    bulk.check_links().unwrap();
    bulk.reset();
    assert!(bulk.is_pristine());
}

#[test]
fn preselect_all_matches_preselect() {
    let q = queens(6).unwrap();
    for a in 0..36 {
        for b in [0, 7, 15, 22, 35] {
            bulk_matches_one_by_one(&q, &[OptionId::must(a), OptionId::must(b)]);
        }
    }
    let c = read("A B C D | x y\nA x:red\nB x:red y:1\nC x:blue\nC y:1\nD\nD x\nA B\nC D y:2\n");
    for a in 0..8 {
        for b in 0..8 {
            bulk_matches_one_by_one(&c, &[OptionId::must(a), OptionId::must(b)]);
        }
    }
    let mut s = LinksSolver::new(&q);
    assert!(matches!(
        s.preselect_all(&[OptionId::must(99)]),
        Err(PreselectError::UnknownOption(_))
    ));
}

/// The masks engine's `preselect_all` against its own one-by-one
/// `preselect` and against the links engine: same refusals (the same
/// error), and otherwise the same solutions, each a valid cover.
fn masks_bulk_matches_one_by_one(m: &Matrix, mm: &MasksMatrix, options: &[OptionId]) {
    let mut one = MasksSolver::new(mm);
    let mut first_error = None;
    for &o in options {
        if let Err(e) = one.preselect(o) {
            first_error = Some(e);
            break;
        }
    }
    let mut links = LinksSolver::new(m);
    let links_result = links.preselect_all(options);
    let mut bulk = MasksSolver::new(mm);
    // Something preselected before: `preselect_all` replaces it.
    bulk.preselect(OptionId::must(0)).unwrap();
    let result = bulk.preselect_all(options);
    assert_eq!(result.clone().err(), first_error, "{options:?}");
    assert_eq!(result.is_err(), links_result.is_err(), "{options:?}");
    if result.is_err() {
        assert_eq!(bulk.preselected().len(), 0);
        assert_eq!(
            bulk.count().solutions,
            LinksSolver::new(m).count().solutions
        );
        return;
    }
    assert!(bulk.preselected().eq(options.iter().copied()));
    let a: Vec<Vec<OptionId>> = one.solutions().collect();
    let b: Vec<Vec<OptionId>> = bulk.solutions().collect();
    let c: Vec<Vec<OptionId>> = links.solutions().collect();
    assert_eq!(a, b, "{options:?}");
    let sorted = |mut v: Vec<Vec<OptionId>>| {
        v.iter_mut().for_each(|s| s.sort());
        v.sort();
        v
    };
    assert_eq!(sorted(b.clone()), sorted(c), "{options:?}");
    for s in &b {
        verify_cover(m, s).unwrap();
    }
}

#[test]
fn masks_preselect_all_matches_preselect() {
    // Queens 6 (aligned), Langford pairs 7 (three items an option) and a
    // matrix with a secondary item (general loops).
    let q = queens(6).unwrap();
    let l = langford(7).unwrap();
    let g = read("A B C D | x\nA x\nB x\nA B\nC D\nC\nD x\nB C\n");
    for m in [&q, &l, &g] {
        let mm = MasksMatrix::new(m).unwrap();
        let n = m.option_count();
        for a in 0..n {
            for b in [0, n / 3, n / 2, n - 1] {
                masks_bulk_matches_one_by_one(m, &mm, &[OptionId::must(a), OptionId::must(b)]);
            }
        }
    }
    let mm = MasksMatrix::new(&q).unwrap();
    let mut s = MasksSolver::new(&mm);
    assert!(matches!(
        s.preselect_all(&[OptionId::must(0), OptionId::must(999)]),
        Err(PreselectError::UnknownOption(_))
    ));
    assert_eq!(s.preselected().len(), 0);
    assert_eq!(s.count().solutions, 4);
}
