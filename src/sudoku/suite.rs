//! The Sudoku layer: one shared suite run by every solver (DLX on the masks
//! engine, on the links engine with Knuth's rule, with lookahead, and
//! starting over with it; both baselines), answers checked by the
//! independent `check_solution`, property
//! tests comparing the solvers, and the readers fed arbitrary bytes.

use crate::sudoku::cover::LOOKAHEAD_AFTER;
use crate::sudoku::format::{self, Format, PuzzleErrorKind, ReadOptions, Reader};
use crate::sudoku::{
    check_solution, solve_on_threads, Alphabet, DlxSudoku, Grid, Limits, Matrices, SolverKind,
    Solvers, Status, SudokuSolver, Unit,
};
use crate::Branching;
use proptest::prelude::*;

/// A solved 9×9 grid to derive puzzles from.
const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn grid(line: &str) -> Grid {
    format::parse_line(line).unwrap()
}

/// (name, puzzle, expected status, expected count up to 3)
fn cases() -> Vec<(&'static str, String, Status, u64)> {
    let mut v = vec![
        // POJ 3074's two samples, and POJ 2676's as a line.
        (
            "poj3074-1",
            ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534."
                .to_string(),
            Status::Unique,
            1,
        ),
        (
            "poj3074-2",
            "......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3."
                .to_string(),
            Status::Unique,
            1,
        ),
        (
            "poj2676",
            "103000509002109400000704000300502006060000050700803004000401000009205800804000107"
                .to_string(),
            Status::Unique,
            1,
        ),
        // Norvig's "hardest" first puzzle.
        (
            "norvig-hardest",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .to_string(),
            Status::Unique,
            1,
        ),
        ("solved", SOLVED.to_string(), Status::Unique, 1),
        // 4×4 with two solutions, and with one.
        (
            "4x4-multiple",
            "1...............".to_string(),
            Status::Multiple,
            3,
        ),
        (
            "4x4-unique",
            "12..34..2..14..3".to_string(),
            Status::Unique,
            1,
        ),
    ];
    // Remove all the 5s and 3s of a solved grid: a deadly pattern, many solutions.
    v.push((
        "no-fives-threes",
        SOLVED.replace(['5', '3'], "."),
        Status::Multiple,
        3,
    ));
    // No solution although no given conflicts: add to a puzzle with a
    // unique solution a given that agrees with the rules but not with it.
    let puzzle =
        ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534.";
    let solution =
        "527389416819426735436751829375692184194538267268174593643217958951843672782965341";
    let none = (0..81)
        .filter(|&k| puzzle.as_bytes()[k] == b'.')
        .flat_map(|k| (b'1'..=b'9').map(move |d| (k, d)))
        .map(|(k, d)| {
            let mut p = puzzle.as_bytes().to_vec();
            p[k] = d;
            (k, d, String::from_utf8(p).unwrap())
        })
        .find(|(k, d, p)| solution.as_bytes()[*k] != *d && format::parse_line(p).is_ok())
        .map(|(_, _, p)| p)
        .unwrap();
    v.push(("none", none, Status::None, 0));
    v
}

/// Every solver kind (DLX: the masks engine), plus DLX with Knuth's rule
/// (the links engine), with lookahead from the root, and DLX that starts
/// over with lookahead after a few nodes.
fn all_solvers(matrices: &Matrices) -> Vec<Solvers<'_>> {
    let mut v: Vec<Solvers<'_>> = SolverKind::ALL
        .into_iter()
        .map(|k| Solvers::new(k, matrices))
        .collect();
    let mut knuth = Solvers::dlx(matrices);
    knuth.set_branching(Branching::Knuth);
    v.push(knuth);
    let mut look = Solvers::dlx(matrices);
    look.set_branching(Branching::Lookahead);
    v.push(look);
    let mut switch = Solvers::dlx(matrices);
    switch.set_lookahead_after(Some(3));
    v.push(switch);
    v
}

#[test]
fn a_count_that_keeps_finding_solutions_does_not_switch() {
    // The empty 9×9 grid: plain DLX finds a solution every few nodes, so a
    // switch after 1,000 nodes without one never comes, and the search is
    // node for node the plain one.
    let matrices = Matrices::new();
    let empty = Grid::empty(3).unwrap();
    let mut nodes = Vec::new();
    for after in [None, Some(1_000)] {
        let mut dlx = Solvers::dlx(&matrices);
        dlx.set_lookahead_after(after);
        let mut solution = empty.clone();
        let answer = dlx.solve(&empty, &Limits::count_to(20_000), &mut solution);
        assert_eq!(answer.solutions, 20_000);
        nodes.push(answer.nodes);
    }
    assert_eq!(nodes[0], nodes[1]);
}

#[test]
fn starting_over_with_lookahead_keeps_counts_exact() {
    // The empty 4×4 grid has 288 solutions; solutions found before the
    // switch must not be counted twice.
    let matrices = Matrices::new();
    let empty = Grid::empty(2).unwrap();
    for after in [Some(0), Some(1), Some(10), Some(100), None] {
        for branching in [Branching::Knuth, Branching::FirstForced] {
            let mut dlx = Solvers::dlx(&matrices);
            dlx.set_branching(branching);
            dlx.set_lookahead_after(after);
            let mut solution = empty.clone();
            let answer = dlx.solve(&empty, &Limits::count_to(u64::MAX), &mut solution);
            assert_eq!(answer.solutions, 288, "{after:?} {branching:?}");
            assert!(answer.complete);
            check_solution(&empty, &solution).unwrap();
        }
    }
}

#[test]
fn shared_suite_every_solver() {
    let matrices = Matrices::new();
    for mut solver in all_solvers(&matrices) {
        for (name, line, status, count) in cases() {
            let puzzle = grid(&line);
            let mut solution = puzzle.clone();
            let answer = solver.solve(&puzzle, &Limits::count_to(2), &mut solution);
            assert_eq!(answer.status(), status, "{} on {name}", solver.name());
            if answer.solutions > 0 {
                check_solution(&puzzle, &solution)
                    .unwrap_or_else(|e| panic!("{} on {name}: {e}", solver.name()));
            }
            let answer = solver.solve(&puzzle, &Limits::count_to(3), &mut solution);
            assert_eq!(answer.solutions, count, "{} on {name}", solver.name());
        }
    }
}

#[test]
fn the_search_before_lookahead_settles_a_puzzle_or_says_what_it_spent() {
    let matrices = Matrices::new();
    for (name, line, _, _) in cases() {
        let puzzle = grid(&line);
        let cover = matrices.get(puzzle.box_side()).unwrap();
        let limits = Limits::count_to(2);
        let mut want = puzzle.clone();
        let whole = DlxSudoku::new(cover).solve(&puzzle, &limits, &mut want);
        let mut first = DlxSudoku::new(cover);
        let mut got = Grid::empty(puzzle.box_side()).unwrap();
        match first.solve_before_lookahead(&puzzle, &limits, &mut got) {
            // Settled: solve's very answer and solution.
            Ok(answer) => {
                assert_eq!(answer, whole, "{name}");
                if answer.solutions > 0 {
                    assert_eq!(got, want, "{name}");
                }
            }
            Err(spent) => {
                assert!(
                    spent.nodes >= LOOKAHEAD_AFTER && spent.solutions == 0,
                    "{name}"
                )
            }
        }
        // Lookahead after no node: not settled unless the givens settle it.
        first.set_lookahead_after(Some(0));
        match first.solve_before_lookahead(&puzzle, &limits, &mut got) {
            Ok(answer) => assert!(answer.complete && answer.nodes <= 1, "{name}: {answer:?}"),
            Err(spent) => assert_eq!(spent.solutions, 0, "{name}"),
        }
    }
}

#[test]
fn one_puzzle_on_several_threads_answers_as_one() {
    let matrices = Matrices::new();
    let mut one = Solvers::dlx(&matrices);
    for (name, line, status, count) in cases() {
        let puzzle = grid(&line);
        let cover = matrices.get(puzzle.box_side()).unwrap();
        let mut want = puzzle.clone();
        one.solve(&puzzle, &Limits::count_to(2), &mut want);
        for lookahead in [false, true] {
            for jobs in [1, 2, 3] {
                // Not the puzzle: the solution written must hold the givens.
                let mut solution = Grid::empty(puzzle.box_side()).unwrap();
                let limits = Limits::count_to(2);
                let answer =
                    solve_on_threads(cover, &puzzle, &limits, lookahead, jobs, &mut solution);
                let what = format!("{name}, lookahead {lookahead}, {jobs} jobs");
                assert_eq!(answer.status(), status, "{what}");
                if answer.solutions > 0 {
                    check_solution(&puzzle, &solution).unwrap_or_else(|e| panic!("{what}: {e}"));
                }
                if status == Status::Unique {
                    assert_eq!(solution, want, "{what}");
                }
                let limits = Limits::count_to(3);
                let answer =
                    solve_on_threads(cover, &puzzle, &limits, lookahead, jobs, &mut solution);
                assert_eq!(answer.solutions, count, "{what}");
            }
        }
    }
    // A deadline stops every thread: the empty 16×16 grid, counted to the end.
    let empty = Grid::empty(4).unwrap();
    let limits = Limits {
        solutions: u64::MAX,
        deadline: Some(std::time::Instant::now() + std::time::Duration::from_millis(50)),
        cancel: None,
    };
    let mut solution = empty.clone();
    let cover = matrices.get(4).unwrap();
    let answer = solve_on_threads(cover, &empty, &limits, false, 2, &mut solution);
    assert!(answer.timed_out && !answer.complete, "{answer:?}");
    check_solution(&empty, &solution).unwrap();
}

#[test]
fn every_size_from_4x4_to_25x25() {
    let matrices = Matrices::new();
    let mut dlx = Solvers::dlx(&matrices);
    // 16×16: POJ 3076's sample.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/poj3076_sample.in"
    ))
    .unwrap();
    let record = Reader::new(text.as_bytes(), ReadOptions::default())
        .next()
        .unwrap();
    let puzzle = record.grid.unwrap();
    assert_eq!((puzzle.side(), record.alphabet), (16, Alphabet::Letters));
    let mut solution = puzzle.clone();
    let answer = dlx.solve(&puzzle, &Limits::count_to(2), &mut solution);
    assert_eq!(answer.status(), Status::Unique);
    check_solution(&puzzle, &solution).unwrap();
    // 25×25 and 36×36: the empty grid has solutions; find one and check it.
    for b in [5, 6] {
        let empty = Grid::empty(b).unwrap();
        let mut solution = empty.clone();
        let answer = dlx.solve(&empty, &Limits::count_to(1), &mut solution);
        assert_eq!(answer.solutions, 1, "box side {b}");
        check_solution(&empty, &solution).unwrap();
    }
}

/// 25×25 puzzles searched with lookahead from the first node (on the
/// residual matrix of their givens), starting over with it after a few
/// nodes (the same), and first-forced alone: each unique, with one
/// solution, checked apart from the search.
#[test]
fn lookahead_on_the_residual_matrix_solves_25x25() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/generated_25x25_seed1.txt"
    ))
    .unwrap();
    let matrices = Matrices::new();
    let mut plain = Solvers::dlx(&matrices);
    plain.set_lookahead_after(None);
    let mut look = Solvers::dlx(&matrices);
    look.set_branching(Branching::Lookahead);
    let mut switch = Solvers::dlx(&matrices);
    switch.set_lookahead_after(Some(2));
    let mut puzzles = 0;
    for record in Reader::new(text.as_bytes(), ReadOptions::default()) {
        let puzzle = record.grid.unwrap();
        assert_eq!(puzzle.side(), 25);
        puzzles += 1;
        let mut first = puzzle.clone();
        let answer = plain.solve(&puzzle, &Limits::count_to(2), &mut first);
        assert_eq!(answer.status(), Status::Unique);
        check_solution(&puzzle, &first).unwrap();
        for solver in [&mut look, &mut switch] {
            let mut solution = puzzle.clone();
            let answer = solver.solve(&puzzle, &Limits::count_to(2), &mut solution);
            assert_eq!(answer.status(), Status::Unique);
            assert!(answer.guesses > 0 || answer.nodes > 0);
            check_solution(&puzzle, &solution).unwrap();
            assert_eq!(solution, first);
        }
    }
    assert_eq!(puzzles, 5);
    // No givens: the residual is the whole matrix.
    let empty = Grid::empty(5).unwrap();
    let mut solution = empty.clone();
    let answer = look.solve(&empty, &Limits::count_to(1), &mut solution);
    assert_eq!(answer.solutions, 1);
    check_solution(&empty, &solution).unwrap();
}

#[test]
fn conflicting_givens_are_invalid_before_any_search() {
    let mut line = SOLVED.replace('5', ".");
    line.replace_range(0..1, "9"); // a second 9 in row 1
    let record = Reader::new(line.as_bytes(), ReadOptions::default())
        .next()
        .unwrap();
    let err = record.grid.unwrap_err();
    assert!(matches!(err.kind, PuzzleErrorKind::Conflict(_)), "{err}");
}

#[test]
fn deadline_reports_timeout_not_none() {
    let matrices = Matrices::new();
    let mut solver = Solvers::new(SolverKind::Backtrack, &matrices);
    let empty = Grid::empty(3).unwrap();
    let limits = Limits {
        solutions: u64::MAX,
        deadline: Some(std::time::Instant::now()),
        cancel: None,
    };
    let mut solution = empty.clone();
    let answer = solver.solve(&empty, &limits, &mut solution);
    assert!(answer.timed_out && !answer.complete);
    let mut dlx = Solvers::dlx(&matrices);
    let answer = dlx.solve(&empty, &limits, &mut solution);
    assert!(answer.timed_out && !answer.complete);
    assert_ne!(answer.status(), Status::None);
}

#[test]
fn writers_round_trip_through_readers() {
    let puzzle = grid(&cases()[0].1);
    for format in Format::ALL {
        let mut text = String::new();
        format::write_answer(
            &mut text,
            format,
            true,
            1,
            format::Answer::Grid(&puzzle, Alphabet::Digits),
        );
        format::write_answer(
            &mut text,
            format,
            false,
            2,
            format::Answer::Grid(&puzzle, Alphabet::Digits),
        );
        if format == Format::Poj2918 {
            // The answer heads each grid with its scenario; the input has
            // none, and a count first.
            assert!(text.starts_with("Scenario #1:\n") && text.contains("\nScenario #2:\n"));
            text = text
                .lines()
                .filter(|l| !l.starts_with("Scenario #"))
                .map(|l| format!("{l}\n"))
                .collect();
        }
        if matches!(format, Format::Poj2676 | Format::Poj2918) {
            text.insert_str(0, "2\n");
        }
        let options = ReadOptions {
            format: Some(format),
            alphabet: None,
        };
        let records: Vec<_> = Reader::new(text.as_bytes(), options).collect();
        assert_eq!(records.len(), 2, "{format:?}\n{text}");
        for r in records {
            assert_eq!(r.grid.unwrap(), puzzle, "{format:?}");
        }
        // And detection finds the same format (poj3074 reads as line).
        let detected = {
            let mut reader = Reader::new(text.as_bytes(), ReadOptions::default());
            reader.next();
            reader.format().unwrap()
        };
        let want = if format == Format::Poj3074 {
            Format::Line
        } else {
            format
        };
        assert_eq!(detected, want, "{text}");
    }
}

#[test]
fn bad_puzzles_are_reported_and_the_rest_read() {
    let text = format!(
        "{SOLVED}\n# a comment\n{}\n{}x\n12345\n{}\n{SOLVED}\tcomment after a tab\r\n",
        &SOLVED[..80],
        &SOLVED[..80],
        SOLVED.replace('1', "%")
    );
    let records: Vec<_> = Reader::new(text.as_bytes(), ReadOptions::default()).collect();
    let kinds: Vec<Option<String>> = records
        .iter()
        .map(|r| r.grid.as_ref().err().map(|e| format!("{:?}", e.kind)))
        .collect();
    assert_eq!(records.len(), 6, "{kinds:?}");
    assert!(records[0].grid.is_ok() && records[5].grid.is_ok());
    assert_eq!(records[1].line, 3);
    assert!(matches!(
        records[1].grid.as_ref().unwrap_err().kind,
        PuzzleErrorKind::WrongLength { found: 80, .. }
    ));
    assert!(matches!(
        records[2].grid.as_ref().unwrap_err().kind,
        PuzzleErrorKind::BadSymbol {
            symbol: 'x',
            column: 81
        }
    ));
    assert!(matches!(
        records[3].grid.as_ref().unwrap_err().kind,
        PuzzleErrorKind::WrongLength { found: 5, .. }
    ));
    assert!(matches!(
        records[4].grid.as_ref().unwrap_err().kind,
        PuzzleErrorKind::BadSymbol { symbol: '%', .. }
    ));
}

#[test]
fn poj2676_count_and_cut_short_grids() {
    let rows: Vec<&str> = (0..9).map(|r| &SOLVED[r * 9..r * 9 + 9]).collect();
    let grid_text = rows.join("\n");
    // T says 2, one grid follows.
    let text = format!("2\n{grid_text}\n");
    let records: Vec<_> = Reader::new(text.as_bytes(), ReadOptions::default()).collect();
    assert_eq!(records.len(), 2);
    assert!(records[0].grid.is_ok());
    assert!(matches!(
        records[1].grid.as_ref().unwrap_err().kind,
        PuzzleErrorKind::CountMismatch {
            declared: 2,
            found: 1
        }
    ));
    // T says 1, three grids follow: all three are read, then the count's
    // error, on the count's line.
    let text = format!("1\n{grid_text}\n{grid_text}\n\n{grid_text}\n");
    let records: Vec<_> = Reader::new(text.as_bytes(), ReadOptions::default()).collect();
    assert_eq!(records.len(), 4);
    assert!(records[..3].iter().all(|r| r.grid.is_ok()));
    assert_eq!(records[1].line, 11);
    let last = records[3].grid.as_ref().unwrap_err();
    assert_eq!(last.line, 1);
    assert_eq!(
        last.to_string(),
        "line 1: the count says 1 puzzle but the input has 3 puzzles"
    );
    // A grid cut short at the end of the input.
    let text = format!("1\n{}\n", rows[..5].join("\n"));
    let records: Vec<_> = Reader::new(text.as_bytes(), ReadOptions::default()).collect();
    assert!(matches!(
        records[0].grid.as_ref().unwrap_err().kind,
        PuzzleErrorKind::CutShort {
            expected: 9,
            found: 5
        }
    ));
}

/// A random puzzle: the solved grid with its digits relabelled and some
/// cells emptied.
fn random_puzzle() -> impl Strategy<Value = Grid> {
    (
        Just(()).prop_perturb(|_, mut rng| {
            let mut perm: Vec<u8> = (1..=9).collect();
            for i in (1..9).rev() {
                let j = (rng.next_u32() as usize) % (i + 1);
                perm.swap(i, j);
            }
            perm
        }),
        prop::collection::vec(any::<bool>(), 81),
        0u32..4,
    )
        .prop_map(|(perm, keep, sparsity)| {
            let cells: Vec<u8> = SOLVED
                .bytes()
                .zip(&keep)
                .enumerate()
                // keep a cell when its coin says so, and more often when sparsity is low
                .map(|(i, (b, &k))| {
                    if k || (i as u32 % 4) > sparsity {
                        perm[(b - b'1') as usize]
                    } else {
                        0
                    }
                })
                .collect();
            Grid::from_cells(cells).unwrap()
        })
}

/// Pieces of input for the batch test.
const PIECES: &[&[u8]] = &[
    b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
    b"52...6.........7.13...........4..8..6......5...........418.........3..2...87.....\trated 3\n",
    b"  1.2.3.4.5.6.7.8.9.......................................................11.....\n",
    b"12.4..........3.\n",
    b"\n",
    b"   \t \n",
    b"# a comment\n",
    b"  #end\n",
    b"end\n",
    b" end of it\n",
    b"ending\n",
    b"\r\n",
    b"\xef\xbb\xbf",
    b"\xc2\xa0\n",
    b"\xc2\xa0end\n",
    b"\xff\xfe\n",
    b"\x01\x02\n",
    b"1234\x0c\n",
    b"\xc2\x85\n",
    b"5",
    b"--A----C-----O-I\n",
    b"7 1 2 ? 6 ? 3 5 8\n",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn dlx_agrees_with_the_baselines(puzzle in random_puzzle()) {
        let matrices = Matrices::new();
        let mut counts = Vec::new();
        for mut solver in all_solvers(&matrices) {
            let mut solution = puzzle.clone();
            let answer = solver.solve(&puzzle, &Limits::count_to(3), &mut solution);
            if answer.solutions > 0 {
                prop_assert!(check_solution(&puzzle, &solution).is_ok(), "{}", solver.name());
            }
            counts.push(answer.solutions);
        }
        let cover = matrices.get(3).unwrap();
        let mut solution = puzzle.clone();
        let threads = solve_on_threads(cover, &puzzle, &Limits::count_to(3), false, 2, &mut solution);
        if threads.solutions > 0 {
            prop_assert!(check_solution(&puzzle, &solution).is_ok(), "two threads");
        }
        counts.push(threads.solutions);
        prop_assert!(counts.iter().all(|&c| c == counts[0]), "{:?}", counts);
    }

    #[test]
    fn readers_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600), f in 0usize..8) {
        let format = Format::ALL.get(f).copied();
        let options = ReadOptions { format, alphabet: None };
        for record in Reader::new(&bytes[..], options).take(1000) {
            let _ = record.grid.map(|g| g.conflict());
        }
    }

    #[test]
    fn readers_never_panic_on_near_misses(
        rows in prop::collection::vec("[0-9.?A-P| -]{0,20}", 0..40),
        f in 0usize..8,
    ) {
        let text = rows.join("\n");
        let format = Format::ALL.get(f).copied();
        for record in Reader::new(text.as_bytes(), ReadOptions { format, alphabet: None }).take(1000) {
            let _ = record.grid;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// `next_batch` gives the iterator's records, whatever the bytes and the
    /// batch sizes: lines of puzzles, blanks, comments, `end`, CR LF, a
    /// byte-order mark, non-ASCII spaces, control and invalid bytes.
    #[test]
    fn batches_hold_the_iterators_records(
        pieces in prop::collection::vec(0usize..PIECES.len(), 0..40),
        sizes in prop::collection::vec(1usize..7, 1..8),
        f in 0usize..9,
        alphabet in 0usize..3,
    ) {
        let bytes: Vec<u8> = pieces.iter().flat_map(|&p| PIECES[p].iter().copied()).collect();
        let options = ReadOptions {
            format: Format::ALL.get(f).copied(),
            alphabet: [None, Some(Alphabet::Digits), Some(Alphabet::Letters)][alphabet],
        };
        let whole: Vec<String> =
            Reader::new(&bytes[..], options).map(|r| format!("{r:?}")).collect();
        let mut reader = Reader::new(&bytes[..], options);
        let mut batched = Vec::new();
        for k in 0.. {
            let max = sizes[k % sizes.len()];
            let Some(batch) = reader.next_batch(max) else { break };
            prop_assert!(!batch.is_empty() && batch.len() <= max);
            batched.extend(batch.into_iter().map(|r| format!("{r:?}")));
        }
        prop_assert_eq!(whole, batched);
    }
}

/// The first pair of givens that break a rule, found by looking at every
/// earlier cell: the first clashing cell row-major, its unit by the order
/// row, column, box, and the earliest cell it clashes with in that unit.
/// A clash: the digit, the earlier cell, the later cell, the unit.
type Clash = (u8, (usize, usize), (usize, usize), Unit);

fn first_conflict(g: &Grid, b: usize) -> Option<Clash> {
    let n = b * b;
    for k in 0..n * n {
        let (r, c) = (k / n, k % n);
        let d = g.get(r, c);
        if d == 0 {
            continue;
        }
        for unit in [Unit::Row, Unit::Column, Unit::Box] {
            let same = |r2: usize, c2: usize| match unit {
                Unit::Row => r2 == r,
                Unit::Column => c2 == c,
                _ => r2 / b == r / b && c2 / b == c / b,
            };
            if let Some(j) = (0..k).find(|&j| g.get(j / n, j % n) == d && same(j / n, j % n)) {
                return Some((d, (j / n, j % n), (r, c), unit));
            }
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// `Grid::conflict` against the cell-by-cell search, on random sparse
    /// 4×4, 9×9 and 16×16 grids (most with a clash, some without).
    #[test]
    fn conflicts_are_the_first_clash(b in 2usize..=4, seed in any::<u64>(), fill in 1u64..40) {
        let n = b * b;
        let mut g = Grid::empty(b).unwrap();
        let mut x = seed | 1;
        for r in 0..n {
            for c in 0..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x % 100 < fill {
                    g.set(r, c, (x >> 32) as u8 % n as u8 + 1);
                }
            }
        }
        let got = g.conflict().map(|c| (c.digit, c.first, c.second, c.unit));
        prop_assert_eq!(got, first_conflict(&g, b));
    }
}

#[test]
fn a_cancel_stops_every_path_and_is_no_answer() {
    use crate::Cancel;
    let cancel = Cancel::new();
    cancel.cancel();
    let limits = Limits::count_to(u64::MAX).cancel(&cancel);
    let matrices = Matrices::new();
    // The empty 16×16 grid: counting it never ends by itself.
    let empty = Grid::empty(4).unwrap();
    for kind in SolverKind::ALL {
        let mut solver = Solvers::new(kind, &matrices);
        let mut solution = empty.clone();
        let answer = solver.solve(&empty, &limits, &mut solution);
        assert!(answer.cancelled && !answer.complete, "{kind:?}: {answer:?}");
        // Two solutions found before the stop are an answer: "multiple".
        let want = if answer.solutions >= 2 {
            Status::Multiple
        } else {
            Status::Cancelled
        };
        assert_eq!(answer.status(), want, "{kind:?}");
    }
    let cover = matrices.get(4).unwrap();
    for lookahead in [false, true] {
        let mut solution = empty.clone();
        let answer = solve_on_threads(cover, &empty, &limits, lookahead, 2, &mut solution);
        assert!(answer.cancelled && !answer.complete, "{answer:?}");
        assert_ne!(answer.status(), Status::None);
    }
}

#[test]
fn one_entry_point_for_classic_and_variant_puzzles() {
    use crate::sudoku::rules::{check, Rules};
    use crate::sudoku::{batch, Puzzle, Settings, SolveError, Sudoku};
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let grid = format::parse_line(line).unwrap();
    let classic = Puzzle::classic(&grid);
    // The same givens under the X rule (both diagonals): their own matrix.
    let x_rules = Rules::boxes(3, 3).unwrap().diagonals();
    let empty_x = Puzzle::new(x_rules.clone(), vec![0; 81]).unwrap();
    let limits = Limits::count_to(2);
    for kind in SolverKind::ALL {
        let mut sudoku = Sudoku::new(Settings::default().solver(kind));
        let solved = sudoku.solve(&classic, &limits).unwrap();
        assert_eq!(solved.answer.status(), Status::Unique, "{kind:?}");
        let solution = Grid::from_cells(solved.solution.unwrap()).unwrap();
        check_solution(&grid, &solution).unwrap();
        // A variant: DLX answers it, a baseline refuses it by name.
        match sudoku.solve(&empty_x, &limits) {
            Ok(s) => {
                assert_eq!(kind, SolverKind::Dlx);
                assert_eq!(s.answer.status(), Status::Multiple);
                check(&x_rules, &[0; 81], &s.solution.unwrap()).unwrap();
            }
            Err(e) => assert_eq!(e, SolveError::Baseline(kind)),
        }
    }
    // An engine that cannot take the rule is refused before any search.
    let bits = Settings::default().engine(Some(crate::EngineKind::Bits));
    assert!(bits.check().is_ok()); // bits takes its own rule, Knuth's
    let bits_forced = bits.branching(crate::Branching::FirstForced);
    assert!(matches!(bits_forced.check(), Err(SolveError::Engine(_))));
    // ... and one that cannot take a size, for that size.
    let refused = Sudoku::new(bits).solve(&classic, &limits).unwrap_err();
    assert!(refused.to_string().contains("bits"), "{refused}");
    // A batch answers in input order, on one thread or several, and says
    // which puzzle each answer is for.
    let puzzles: Vec<Puzzle> = (0..40)
        .map(|k| {
            if k % 3 == 0 {
                empty_x.clone()
            } else {
                classic.clone()
            }
        })
        .collect();
    for jobs in [1, 2, 3] {
        let mut seen = Vec::new();
        batch::solve_all(
            puzzles.clone(),
            &Settings::default(),
            || limits.clone(),
            jobs,
            |k, s| {
                let want = if k % 3 == 0 {
                    Status::Multiple
                } else {
                    Status::Unique
                };
                assert_eq!(s.unwrap().answer.status(), want, "{jobs} jobs, puzzle {k}");
                seen.push(k);
                true
            },
        );
        assert_eq!(seen, (0..40).collect::<Vec<_>>(), "{jobs} jobs");
        // A sink that says stop is given nothing more.
        let mut taken = 0;
        batch::solve_all(
            puzzles.clone(),
            &Settings::default(),
            || limits.clone(),
            jobs,
            |_, _| {
                taken += 1;
                taken < 5
            },
        );
        assert_eq!(taken, 5, "{jobs} jobs");
    }
}

#[test]
fn a_lone_big_puzzle_gets_every_thread_and_one_thread_settles_an_easy_one() {
    use crate::sudoku::{Puzzle, Settings, Sudoku};
    // An empty 25×25 grid: one thread's first-forced search settles it
    // before lookahead; with the switch at 0 nodes, the threads search it.
    let empty = Puzzle::classic(&Grid::empty(5).unwrap());
    for after in [None, Some(LOOKAHEAD_AFTER), Some(0)] {
        let settings = Settings::default().lookahead_after(after);
        let mut sudoku = Sudoku::new(settings).with_jobs(2);
        let solved = sudoku.solve(&empty, &Limits::count_to(1)).unwrap();
        assert_eq!(solved.answer.solutions, 1, "{after:?}");
        let grid = Grid::from_cells(solved.solution.unwrap()).unwrap();
        check_solution(&Grid::empty(5).unwrap(), &grid).unwrap();
    }
}
