//! One table-driven suite through the front door: every case runs on every
//! engine and rule that accepts it (`Solver::with_config`), every answer is
//! checked by the independent `verify_cover`, engines that walk Knuth's tree
//! must report DLX1's counters (the links engine's), and every refusal
//! (engine × rule, engine × matrix) is an `EngineError` naming the engine.

use dlx::engines::{EngineTables, LinksSolver};
use dlx::problems::{langford, polyomino, queens};
use dlx::{
    knuth, verify_cover, Branching, Budget, Config, EngineError, EngineKind, Matrix, OptionId,
    Solver, Step,
};

const RULES: [Branching; 3] = [
    Branching::Knuth,
    Branching::FirstForced,
    Branching::Lookahead,
];

/// The cases, with their solution counts.
fn cases() -> Vec<(&'static str, Matrix, u64)> {
    // (Classic Sudoku's matrix, the one bands takes, is a case with its
    // givens preselected: `every_engine_answers_a_sudoku_puzzle`.)
    let read = |t: &str| knuth::read(t.as_bytes()).unwrap();
    let mut v = vec![
        (
            "TAOCP 7.2.2.1 (7)",
            read("A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n"),
            1,
        ),
        ("Langford 4", langford(4).unwrap(), 2),
        ("Langford 7", langford(7).unwrap(), 52),
        (
            "pentominoes 3x20",
            polyomino::packing(&polyomino::PENTOMINOES, 3, 20).unwrap(),
            8,
        ),
        (
            "colors (hand-checked)",
            read("A B C | x y\nA x:1 y:2\nB x:1 y:2\nB x:1 y:3\nB y:2\nC x\nC\n"),
            2,
        ),
        ("no option for an item", read("x y\ny\n"), 0),
    ];
    // OEIS A000170.
    for (n, want) in [
        (1, 1),
        (2, 0),
        (3, 0),
        (4, 2),
        (5, 10),
        (6, 4),
        (7, 40),
        (8, 92),
    ] {
        v.push(("queens", queens(n).unwrap(), want));
    }
    v
}

/// The engines that take any matrix of their kind (all but bands, which
/// takes classic Sudoku's matrix alone).
fn general_engines() -> impl Iterator<Item = EngineKind> {
    EngineKind::ALL
        .into_iter()
        .filter(|&e| e != EngineKind::Bands)
}

/// Every solution of `s`, each checked; returns them.
fn all_checked(m: &Matrix, s: &mut Solver) -> Vec<Vec<OptionId>> {
    let all: Vec<_> = s.solutions().collect();
    for sol in &all {
        verify_cover(m, sol).unwrap();
    }
    assert!(s.is_exhausted());
    all
}

fn sorted(mut v: Vec<Vec<OptionId>>) -> Vec<Vec<OptionId>> {
    for s in &mut v {
        s.sort();
    }
    v.sort();
    v
}

/// Classic Sudoku's matrix and the givens of a puzzle of 82 solutions:
/// puzzle 12 of the public 17-clue collection, its givens in rows 1-5 but
/// the first, and its solution's rows 6-9 (options `9·cell + d - 1`).
fn sudoku_82() -> (Matrix, Vec<OptionId>) {
    let sudoku = dlx::sudoku::SudokuMatrix::new(3).unwrap();
    let m = sudoku.matrix().clone();
    let puzzle =
        ".................1.....2.3...2...4....3.5......41....6.5.6......7.....2..8.91....";
    let solution =
        "938541762625379841147862935512796483863254197794138256459627318371485629286913574";
    let first = puzzle.bytes().position(|b| b.is_ascii_digit()).unwrap();
    let givens = (0..81)
        .filter(|&k| k >= 45 || k != first && puzzle.as_bytes()[k] != b'.')
        .map(|k| sudoku.option(k / 9, k % 9, solution.as_bytes()[k] - b'0'))
        .collect();
    (m, givens)
}

#[test]
fn every_engine_answers_a_sudoku_puzzle() {
    let (m, givens) = sudoku_82();
    let mut links = LinksSolver::new(&m);
    links.preselect_all(&givens).unwrap();
    let expected = sorted(links.solutions().collect());
    assert_eq!(expected.len(), 82);
    let mut accepted = Vec::new();
    for engine in EngineKind::ALL {
        for rule in RULES {
            let config = Config::new().engine(engine).branching(rule);
            let Ok(mut s) = Solver::with_config(&m, config) else {
                continue;
            };
            s.preselect_all(&givens).unwrap();
            let got = all_checked(&m, &mut s);
            assert_eq!(sorted(got), expected, "{engine}, {rule:?}");
            assert_eq!(s.count().solutions, 82, "{engine}, {rule:?}");
            accepted.push(engine);
        }
    }
    // Links, dense and masks every rule they take; bands first-forced.
    assert!(accepted.contains(&EngineKind::Bands), "{accepted:?}");
    assert!(accepted.len() >= 6, "{accepted:?}");
}

#[test]
fn every_engine_and_rule_that_accepts_a_case_answers_it() {
    for (name, m, want) in cases() {
        let mut links = LinksSolver::new(&m);
        let expected = sorted(links.solutions().collect());
        assert_eq!(expected.len() as u64, want, "{name}");
        let knuth_stats = links.stats();
        let mut accepted = 0;
        for engine in EngineKind::ALL {
            for rule in RULES {
                let config = Config::new().engine(engine).branching(rule);
                let built = EngineTables::build(&m, engine, rule);
                let solver = Solver::with_config(&m, config);
                // The solver refuses exactly what the tables refuse.
                assert_eq!(built.is_ok(), solver.is_ok(), "{name}, {engine}, {rule:?}");
                let mut s = match solver {
                    Ok(s) => s,
                    Err(e) => {
                        assert_eq!(e.engine(), engine, "{name}: {e}");
                        continue;
                    }
                };
                accepted += 1;
                assert_eq!((s.engine(), s.branching()), (engine, rule));
                let got = all_checked(&m, &mut s);
                assert_eq!(sorted(got), expected, "{name}, {engine}, {rule:?}");
                if rule == Branching::Knuth {
                    // Knuth's rule: DLX1's tree, DLX1's counters.
                    assert_eq!(s.stats(), knuth_stats, "{name}, {engine}");
                }
                // A count from scratch agrees, and so does the first solution.
                assert_eq!(s.count().solutions, want, "{name}, {engine}, {rule:?}");
                let first = s.first_solution().unwrap();
                assert_eq!(first.is_some(), want > 0);
            }
        }
        // Links takes every rule; others where they can.
        assert!(accepted >= 3, "{name}: {accepted}");
    }
}

#[test]
fn the_library_chooses_and_keeps_knuths_counters() {
    let cases = [
        (queens(8).unwrap(), EngineKind::Bits),
        (langford(7).unwrap(), EngineKind::Bits),
        (
            polyomino::packing(&polyomino::PENTOMINOES, 3, 20).unwrap(),
            EngineKind::Dense,
        ),
        (
            knuth::read("A | x\nA x:1\nA x:2\n".as_bytes()).unwrap(),
            EngineKind::Links,
        ),
    ];
    for (m, engine) in cases {
        let mut s = Solver::new(&m);
        assert_eq!((s.engine(), s.branching()), (engine, Branching::Knuth));
        let mut links = LinksSolver::new(&m);
        assert_eq!(s.count(), links.count());
        assert_eq!(s.stats(), links.stats(), "{engine}");
    }
    // First-forced on a matrix of short items too wide for bits and not
    // worth dense: masks, whatever the rule.
    let mut text = (0..300).map(|i| format!("i{i} ")).collect::<String>() + "\n";
    for i in 0..300 {
        text += &format!("i{i}\n");
    }
    text += "i0 i1\n";
    let wide = knuth::read(text.as_bytes()).unwrap();
    let ff = Config::new().branching(Branching::FirstForced);
    assert_eq!(
        Solver::with_config(&wide, ff).unwrap().engine(),
        EngineKind::Masks
    );
    assert_eq!(Solver::new(&wide).engine(), EngineKind::Masks);
    // First-forced where dense is recommended (queens 13: four items an
    // option, a small state): masks still, measured twice as fast; where
    // masks cannot take the matrix (pentominoes' cells are in more than 64
    // options): dense.
    let q13 = queens(13).unwrap();
    assert!(dlx::engines::DenseMatrix::recommended(&q13));
    assert_eq!(
        Solver::with_config(&q13, ff).unwrap().engine(),
        EngineKind::Masks
    );
    let pent = polyomino::packing(&polyomino::PENTOMINOES, 3, 20).unwrap();
    assert_eq!(
        Solver::with_config(&pent, ff).unwrap().engine(),
        EngineKind::Dense
    );
    // Lookahead: masks where it applies, else links (pentominoes' cells
    // are in more than 64 options).
    let la = Config::new().branching(Branching::Lookahead);
    assert_eq!(
        Solver::with_config(queens(8).unwrap(), la)
            .unwrap()
            .engine(),
        EngineKind::Masks
    );
    assert_eq!(
        Solver::with_config(&pent, la).unwrap().engine(),
        EngineKind::Links
    );
}

#[test]
fn refusals_name_the_engine_and_the_reason() {
    let colored = knuth::read("A | x\nA x:1\nA x:2\n".as_bytes()).unwrap();
    let q = queens(6).unwrap();
    let want: [(EngineKind, &Matrix, Option<Branching>, &str); 6] = [
        (EngineKind::Dense, &colored, None, "colors"),
        (EngineKind::Bits, &colored, None, "colors"),
        (EngineKind::Masks, &colored, None, "colors"),
        (
            EngineKind::Dense,
            &q,
            Some(Branching::Lookahead),
            "lookahead",
        ),
        (
            EngineKind::Bits,
            &q,
            Some(Branching::Lookahead),
            "lookahead",
        ),
        (
            EngineKind::Bits,
            &q,
            Some(Branching::FirstForced),
            "first-forced",
        ),
    ];
    for (engine, m, rule, word) in want {
        let mut config = Config::new().engine(engine);
        if let Some(r) = rule {
            config = config.branching(r);
        }
        let e: EngineError = Solver::with_config(m, config).unwrap_err();
        assert_eq!(e.engine(), engine);
        assert!(e.to_string().contains(word), "{e}");
    }
    // A later change of rule is refused the same way and changes nothing.
    let mut s = Solver::with_config(&q, Config::new().engine(EngineKind::Bits)).unwrap();
    assert!(s.set_branching(Branching::Lookahead).is_err());
    assert!(s.set_branching(Branching::FirstForced).is_err());
    assert_eq!(s.branching(), Branching::Knuth);
    let mut s = Solver::with_config(&q, Config::new().engine(EngineKind::Dense)).unwrap();
    assert!(s.set_branching(Branching::FirstForced).is_ok());
    assert_eq!(s.branching(), Branching::FirstForced);
    let mut s = Solver::with_config(&q, Config::new().engine(EngineKind::Masks)).unwrap();
    assert_eq!(s.branching(), Branching::Knuth);
    assert!(s.set_branching(Branching::FirstForced).is_ok());
    assert_eq!(s.branching(), Branching::FirstForced);
    // The engines' own solvers refuse the same rules.
    let d = dlx::engines::DenseMatrix::new(&q).unwrap();
    let e = dlx::engines::DenseSolver::new(&d)
        .set_branching(Branching::Lookahead)
        .unwrap_err();
    assert_eq!(e.engine(), EngineKind::Dense);
    let b = dlx::engines::BitsMatrix::new(&q).unwrap();
    assert!(dlx::engines::BitsSolver::new(&b)
        .set_branching(Branching::Lookahead)
        .is_err());
    let m = dlx::engines::MasksMatrix::new(&q).unwrap();
    let mut masks = dlx::engines::MasksSolver::new(&m);
    assert_eq!(masks.branching(), Branching::Knuth);
    assert!(masks.set_branching(Branching::FirstForced).is_ok());
    assert_eq!(masks.branching(), Branching::FirstForced);
    assert!(masks.set_branching(Branching::Lookahead).is_ok());
    assert_eq!(masks.branching(), Branching::Lookahead);
    // Links refuses lookahead with multiplicities, as the front door does,
    // and keeps the rule it had.
    let bounded = knuth::read("2:3|A B\nA B\nA\nB\n".as_bytes()).unwrap();
    assert!(Solver::with_config(&bounded, Config::new().branching(Branching::Lookahead)).is_err());
    let mut links = LinksSolver::new(&bounded);
    let e = links.set_branching(Branching::Lookahead).unwrap_err();
    assert_eq!(e.engine(), EngineKind::Links);
    assert_eq!(links.branching(), Branching::Knuth);
    assert!(links.set_branching(Branching::FirstForced).is_ok());
}

#[test]
fn budgets_preselection_and_split_through_the_front_door() {
    let m = queens(6).unwrap();
    // (Bands takes classic Sudoku's matrix alone: `bands_through_the_front_door`.)
    for engine in general_engines() {
        let config = Config::new()
            .engine(engine)
            .branching(engine.default_rule())
            .budget(Budget {
                nodes: Some(2),
                updates: None,
            });
        let mut s = Solver::with_config(&m, config).unwrap();
        // A budget stop is "unknown", never "none".
        let c = s.count();
        assert!(!c.complete && c.solutions < 4, "{engine}: {c:?}");
        s.set_budget(Budget::default());
        // Queen at row 0, column 1: one of the 4 solutions.
        s.preselect(OptionId::must(1)).unwrap();
        assert!(s.preselect(OptionId::must(2)).is_err());
        assert_eq!(s.count().solutions, 1, "{engine}");
        for sol in s.solutions() {
            assert_eq!(sol[0], OptionId::must(1));
            verify_cover(&m, &sol).unwrap();
        }
        s.preselect_all(&[OptionId::must(1), OptionId::must(2)])
            .unwrap_err();
        assert_eq!(s.preselected().count(), 0, "{engine}");
        s.reset();
        // The pieces of a split add up to the whole count.
        let (mut subtrees, mut above) = (Vec::new(), 0);
        s.split(2, |piece| match piece {
            dlx::Split::Subtree(p) => subtrees.push(p.clone()),
            dlx::Split::Solution(_) => above += 1,
        })
        .unwrap();
        let mut total = above;
        for p in &subtrees {
            s.preselect_subtree(p).unwrap();
            total += s.count().solutions;
        }
        assert_eq!(total, 4, "{engine}");
        s.reset();
        assert_eq!(s.next_solution(), Step::Solution);
    }
}

#[test]
fn solvers_and_tables_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Solver<'static>>();
    send_sync::<Matrix>();
    send_sync::<EngineTables>();
    send_sync::<EngineError>();
    let m = queens(7).unwrap();
    let counts: Vec<u64> = std::thread::scope(|scope| {
        let handles: Vec<_> = general_engines()
            .map(|engine| {
                let m = &m;
                scope.spawn(move || {
                    let config = Config::new()
                        .engine(engine)
                        .branching(engine.default_rule());
                    Solver::with_config(m, config).unwrap().count().solutions
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(counts, [40; 4]);
}

#[test]
fn a_deadline_or_a_cancel_stops_every_engine_and_the_search_resumes() {
    use dlx::{Cancel, Limits, Stop};
    use std::time::{Duration, Instant};
    // Queens 10: 724 solutions, a tree of tens of thousands of nodes on
    // every engine, so a stop comes at a look (every 4,096 nodes) before
    // the end.
    let m = queens(10).unwrap();
    for engine in EngineKind::ALL {
        for rule in RULES {
            let config = Config::new().engine(engine).branching(rule);
            let Ok(mut s) = Solver::with_config(&m, config) else {
                continue;
            };
            let what = format!("{engine}, {rule:?}");
            // A deadline already passed: stopped at the first look, and the
            // count says it is a lower bound, never "none".
            s.set_limits(Limits::new().deadline(Instant::now()));
            let c = s.count();
            assert!(!c.complete, "{what}: {c:?}");
            assert_eq!(s.stopped(), Some(Stop::Deadline), "{what}");
            // Lifting the limits resumes the paused search: every solution
            // is found once, the stopped part's included.
            s.set_limits(Limits::new());
            let mut rest = 0;
            while s.next_solution() == Step::Solution {
                rest += 1;
            }
            assert_eq!(c.solutions + rest, 724, "{what}");
            assert_eq!(s.stopped(), None, "{what}");
            // A handle cancelled beforehand stops a fresh search too, and a
            // budget of nodes set afterwards keeps the handle.
            let cancel = Cancel::new();
            cancel.cancel();
            s.set_limits(Limits::new().cancel(&cancel));
            s.set_budget(Budget {
                nodes: Some(1 << 40),
                updates: None,
            });
            assert_eq!(s.limits().cancel.as_ref(), Some(&cancel), "{what}");
            let c = s.count();
            assert!(!c.complete && c.solutions < 724, "{what}: {c:?}");
            assert_eq!(s.stopped(), Some(Stop::Cancelled), "{what}");
            assert_eq!(s.first_solution(), Err(Stop::Cancelled), "{what}");
            // The counts come first: a node budget that runs out before the
            // first look says so.
            s.set_limits(Limits::new().nodes(5).timeout(Duration::from_secs(3600)));
            assert!(!s.count().complete, "{what}");
            assert_eq!(s.stopped(), Some(Stop::Nodes), "{what}");
        }
    }
}

#[test]
fn a_cancel_from_another_thread_stops_a_long_count() {
    use dlx::{Cancel, Limits, Stop};
    // Queens 16: 14,772,512 solutions, minutes of search on one thread.
    let m = queens(16).unwrap();
    let cancel = Cancel::new();
    let mut s = Solver::new(&m);
    s.set_limits(Limits::new().cancel(&cancel));
    let count = std::thread::scope(|scope| {
        let counting = scope.spawn(|| s.count());
        std::thread::sleep(std::time::Duration::from_millis(50));
        cancel.cancel();
        counting.join().unwrap()
    });
    assert!(!count.complete && count.solutions < 14_772_512, "{count:?}");
    assert_eq!(s.stopped(), Some(Stop::Cancelled));
}

#[test]
fn a_solver_that_owns_its_matrix_is_kept_and_moved() {
    use std::sync::Arc;
    fn owned<T: Send + 'static>() {}
    owned::<Solver<'static>>();
    owned::<dlx::sudoku::Sudoku>();
    // What a binding does: keep a solver in an object, run it elsewhere.
    struct Binding {
        solver: Solver<'static>,
    }
    let matrix = Arc::new(queens(8).unwrap());
    for engine in general_engines() {
        let config = Config::new()
            .engine(engine)
            .branching(engine.default_rule());
        let mut b = Binding {
            solver: Solver::with_config(matrix.clone(), config).unwrap(),
        };
        let first = b.solver.first_solution().unwrap().unwrap();
        verify_cover(&matrix, &first).unwrap();
        let counted = std::thread::spawn(move || b.solver.count().solutions);
        assert_eq!(counted.join().unwrap(), 92, "{engine}");
    }
    // A matrix moved in is shared too.
    let mut s = Solver::new(queens(6).unwrap());
    assert_eq!(s.count().solutions, 4);
    assert_eq!(s.matrix().option_count(), queens(6).unwrap().option_count());
}

#[test]
fn config_jobs_counts_and_finds_the_cheapest_on_threads() {
    use dlx::{Cancel, Limits, Stop};
    // Queens 9 (352 solutions) is cut into many subtrees on every engine.
    let m = queens(9).unwrap();
    for engine in EngineKind::ALL {
        for rule in RULES {
            let config = Config::new().engine(engine).branching(rule);
            let Ok(mut one) = Solver::with_config(&m, config) else {
                continue;
            };
            let what = format!("{engine}, {rule:?}");
            let want = one.count();
            let counted = one.stats();
            let best = one.best(3);
            for jobs in [2, 3] {
                let mut s = Solver::with_config(&m, config.jobs(jobs)).unwrap();
                assert_eq!(s.jobs(), jobs);
                assert_eq!(s.count(), want, "{what} jobs {jobs}");
                // Cut below the root (lookahead's small tree may be cut
                // whole, leaving no subtree).
                let (depth, _) = s.last_cut().expect("counted on threads");
                assert!(depth > 0, "{what}");
                if rule == Branching::Knuth {
                    // The same tree, split: Knuth's counters add up.
                    assert_eq!(s.stats(), counted, "{what} jobs {jobs}");
                }
                // Counted out: the search is over, as one thread leaves it.
                assert_eq!(s.next_solution(), Step::Exhausted, "{what}");
                assert_eq!(s.best(3), best, "{what} jobs {jobs}");
                assert!(s.last_cut().is_some(), "{what}");
                // A cancelled handle stops every thread: a lower bound,
                // never "none" — and the cheapest found so far, unproven.
                let cancel = Cancel::new();
                cancel.cancel();
                s.set_limits(Limits::new().cancel(&cancel));
                // (It stops the cut too, inside its first pass.)
                let c = s.count();
                assert!(s.last_cut().is_some(), "{what}");
                assert!(!c.complete && c.solutions < 352, "{what}: {c:?}");
                assert_eq!(s.stopped(), Some(Stop::Cancelled), "{what}");
                assert!(!s.best(3).complete, "{what}");
                assert_eq!(s.stopped(), Some(Stop::Cancelled), "{what}");
                // A node budget is one search's: the count runs on the
                // calling thread, where it resumes.
                s.set_limits(Limits::new().nodes(1 << 40));
                assert_eq!(s.count(), want, "{what}");
                assert_eq!(s.last_cut(), None, "{what}");
                // So does a count up to a limit, and one below a
                // preselected option.
                s.set_limits(Limits::new());
                assert_eq!(s.count_up_to(5).solutions, 5.min(want.solutions));
                assert_eq!(s.last_cut(), None, "{what}");
                let first = one.first_solution().unwrap().unwrap()[0];
                s.restart();
                s.preselect(first).unwrap();
                let below = s.count();
                assert!(below.complete && below.solutions >= 1, "{what}");
                assert_eq!(s.last_cut(), None, "{what}");
            }
        }
    }
}

#[test]
fn a_forecast_measures_the_search_and_leaves_the_solver_as_it_was() {
    use dlx::{Cancel, Limits};
    use rand::{rngs::StdRng, SeedableRng};
    use std::time::Duration;
    let m = langford(9).unwrap();
    for engine in EngineKind::ALL {
        let config = Config::new()
            .engine(engine)
            .branching(engine.default_rule());
        let Ok(mut s) = Solver::with_config(&m, config) else {
            continue;
        };
        let cancel = Cancel::new();
        s.set_limits(Limits::new().nodes(1 << 40).cancel(&cancel));
        let f = s.forecast(50, &mut StdRng::seed_from_u64(1), Duration::from_secs(60));
        // Langford 9: no solution, a tree of thousands of nodes; counted
        // out while measuring.
        assert!(f.finished, "{engine}");
        assert_eq!(f.measured.solutions, 0, "{engine}");
        assert!(
            f.measured.nodes > 1000 && f.nodes_per_second > 0.0,
            "{engine}"
        );
        assert!(f.estimate.nodes.mean > 0.0 && f.seconds > 0.0, "{engine}");
        assert_eq!(s.stats(), dlx::Stats::default(), "{engine}");
        assert_eq!(s.limits().budget.nodes, Some(1 << 40), "{engine}");
        assert_eq!(s.limits().cancel.as_ref(), Some(&cancel), "{engine}");
        assert_eq!(s.count().solutions, 0, "{engine}");
        assert_eq!(s.stats().nodes, f.measured.nodes, "{engine}");
    }
}

/// A propagator that hides nothing (for the library's choice to take one).
#[derive(Debug)]
struct Nothing;

impl dlx::Propagator for Nothing {
    fn propagate(&self, _live: &mut dyn dlx::Live) -> bool {
        true
    }
}

/// Bands through the front door, on classic Sudoku's matrix, the one it
/// takes: the library's choice for first-forced there (never for Knuth's
/// rule, lookahead or a propagator, which move the choice to masks; named,
/// they are refused by name, as is every other matrix); preselected
/// givens (a clash named), counts as the links engine's, a budget stop
/// that answers "unknown", the pieces of a split, threads, and a solver
/// that owns its matrix.
#[test]
fn bands_through_the_front_door() {
    let sudoku = dlx::sudoku::SudokuMatrix::new(3).unwrap();
    let m = sudoku.matrix();
    let ff = Config::new().branching(Branching::FirstForced);
    assert_eq!(
        Solver::with_config(m, ff).unwrap().engine(),
        EngineKind::Bands
    );
    assert_eq!(Solver::new(m).engine(), EngineKind::Masks);
    let bands = Config::new().engine(EngineKind::Bands);
    assert_eq!(bands.rule(), Branching::FirstForced);
    for rule in [Branching::Knuth, Branching::Lookahead] {
        let e = Solver::with_config(m, bands.branching(rule)).unwrap_err();
        assert_eq!(e.engine(), EngineKind::Bands, "{e}");
    }
    let e = Solver::with_config(queens(8).unwrap(), bands).unwrap_err();
    assert!(e.to_string().contains("classic 9×9"), "{e}");
    // A propagator: the library chooses masks (the progress report, the
    // limits and the preselected options kept); bands named refuses it.
    let mut chosen = Solver::with_config(m, ff).unwrap();
    let progress = std::sync::Arc::new(dlx::Progress::new());
    chosen.report_progress(Some(progress.clone()), 1);
    let (_, some) = sudoku_82();
    chosen.preselect_all(&some).unwrap();
    chosen
        .set_propagator(Some(std::sync::Arc::new(Nothing)))
        .unwrap();
    assert_eq!(chosen.engine(), EngineKind::Masks);
    assert_eq!(chosen.preselected().count(), some.len());
    assert_eq!(chosen.count().solutions, 82);
    assert_eq!(progress.nodes(), chosen.stats().nodes);
    assert_eq!(progress.solutions(), 82);
    let mut named = Solver::with_config(m, bands).unwrap();
    assert!(named
        .set_propagator(Some(std::sync::Arc::new(Nothing)))
        .is_err());
    assert_eq!(named.engine(), EngineKind::Bands);
    let (_, few) = sudoku_82();
    let few = &few[..];
    let mut s = Solver::with_config(m, ff).unwrap();
    let givens = few.to_vec();
    let mut links = LinksSolver::new(m);
    links.preselect_all(few).unwrap();
    let want = links.count();
    s.preselect_all(few).unwrap();
    assert_eq!(s.count(), want);
    assert_eq!(want.solutions, 82);
    // A clash is named; nothing stays preselected after a refusal.
    // (The first given is a 2 at row 3, column 6: a 3 there clashes.)
    let clash = sudoku.option(2, 5, 3);
    assert_eq!(
        s.preselect_all(&[givens[0], clash]),
        Err(dlx::PreselectError::Conflict {
            option: clash,
            with: givens[0]
        })
    );
    assert_eq!(s.preselected().count(), 0);
    // A budget stop is "unknown", never "none".
    s.preselect_all(few).unwrap();
    s.set_budget(Budget {
        nodes: Some(30),
        updates: None,
    });
    let c = s.count();
    assert!(!c.complete && c.solutions < want.solutions, "{c:?}");
    s.set_budget(Budget::default());
    // The pieces of a split add up to the whole count.
    let (mut subtrees, mut above) = (Vec::new(), 0);
    s.split(3, |piece| match piece {
        dlx::Split::Subtree(p) => subtrees.push(p.clone()),
        dlx::Split::Solution(_) => above += 1,
    })
    .unwrap();
    assert!(subtrees.len() > 1);
    let mut total = above;
    for p in &subtrees {
        let options: Vec<OptionId> = few.iter().chain(&p.options).copied().collect();
        s.preselect_all(&options).unwrap();
        total += s.count().solutions;
    }
    assert_eq!(total, want.solutions);
    // On threads, and owning its matrix on another thread.
    let mut two = Solver::with_config(m, ff.jobs(2)).unwrap();
    two.preselect_all(few).unwrap();
    assert_eq!(two.count().solutions, want.solutions);
    let owned = std::sync::Arc::new(m.clone());
    let mut s = Solver::with_config(owned, ff).unwrap();
    s.preselect_all(few).unwrap();
    let counted = std::thread::spawn(move || s.count().solutions);
    assert_eq!(counted.join().unwrap(), want.solutions);
}
