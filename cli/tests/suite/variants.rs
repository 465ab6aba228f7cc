//! Variant puzzles through `dlx sudoku solve`, `count` and `check`: f-puzzles
//! JSON, links and compressed strings, detected per input or named by
//! `--format fpuzzles`; every answer checked by the rules' own checker.

use crate::common::{count, run, text};
use dlx::sudoku::fpuzzles;
use dlx::sudoku::rules::{check, Rules};

/// A unique puzzle of `rules`: the first solution of the empty grid, then
/// cells emptied in order while the puzzle stays unique.
fn unique_puzzle(rules: &Rules) -> (Vec<u8>, Vec<u8>) {
    let n = rules.side();
    let (_, first) = count(rules, &vec![0; n * n], 1);
    let solution = first.unwrap();
    let mut givens = solution.clone();
    for k in 0..n * n {
        let keep = givens[k];
        givens[k] = 0;
        if count(rules, &givens, 2).0.solutions != 1 {
            givens[k] = keep;
        }
    }
    (givens, solution)
}

/// f-puzzles JSON of side n with `givens` and `more` fields (with a leading
/// comma).
fn json(n: usize, givens: &[u8], more: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(&fpuzzles::write(n, givens, None)).unwrap();
    let extra: serde_json::Value = serde_json::from_str(&format!("{{\"x\":0{more}}}")).unwrap();
    for (k, x) in extra.as_object().unwrap() {
        if k != "x" {
            v[k] = x.clone();
        }
    }
    v.to_string()
}

fn line(cells: &[u8]) -> String {
    cells
        .iter()
        .map(|d| char::from_digit(u32::from(*d), 10).unwrap())
        .collect()
}

/// Solves, counts and checks a unique puzzle of `base` plus a cage on the
/// first two cells, written as f-puzzles with `flags` (which must say the
/// same rules as `base`).
fn solve_count_check(n: usize, base: Rules, flags: &str) {
    // The rules first, to find a cage sum the grid allows.
    let (_, first) = count(&base, &vec![0; n * n], 1);
    let first = first.unwrap();
    let sum = u32::from(first[0]) + u32::from(first[1]);
    let rules = base.cage(&[0, 1], Some(sum)).unwrap();
    let (givens, _) = unique_puzzle(&rules);
    let more = format!(
        r#"{flags},"killercage":[{{"cells":["R1C1","R1C2"],"value":"{sum}"}}],"title":"variant""#
    );
    let puzzle = json(n, &givens, &more);
    let read = fpuzzles::read(&puzzle).unwrap();
    assert_eq!((&read.rules, &read.givens), (&rules, &givens));
    let solved = run(&["sudoku", "solve"], format!("{puzzle}\n").as_bytes());
    assert_eq!(solved.status.code(), Some(0), "{}", text(&solved.stderr));
    let got: Vec<u8> = text(&solved.stdout)
        .trim()
        .chars()
        .map(|c| c.to_digit(10).unwrap() as u8)
        .collect();
    check(&read.rules, &givens, &got).unwrap();
    for (cmd, want) in [("count", "1\n"), ("check", "unique\n")] {
        let out = run(&["sudoku", cmd, "--format", "fpuzzles"], puzzle.as_bytes());
        assert_eq!(text(&out.stdout), want, "{cmd}: {}", text(&out.stderr));
    }
    // The JSON back, with the solution entered and the rest kept.
    let out = run(
        &["sudoku", "solve", "--output-format", "fpuzzles"],
        puzzle.as_bytes(),
    );
    let back = text(&out.stdout);
    assert!(back.contains(r#""title":"variant""#), "{back}");
    let v: serde_json::Value = serde_json::from_str(back.trim()).unwrap();
    let cells: Vec<u8> = (0..n * n)
        .map(|k| v["grid"][k / n][k % n]["value"].as_u64().unwrap() as u8)
        .collect();
    assert_eq!(cells, got);
    // A SudokuPad link: the puzzle and the solution found, which reading
    // the link back expects (a reading that answered otherwise would say
    // so); `--format sudokupad` reads it as a link.
    let out = run(
        &["sudoku", "solve", "--output-format", "sudokupad"],
        puzzle.as_bytes(),
    );
    let link = text(&out.stdout);
    assert!(link.starts_with("https://sudokupad.app/fpuzzles"), "{link}");
    let pasted = dlx::sudoku::input::read(link.trim()).unwrap();
    assert_eq!(pasted.puzzle.rules(), &read.rules);
    assert_eq!(pasted.puzzle.expected(), Some(&got[..]));
    for format in [&[][..], &["--format", "sudokupad"]] {
        let back = run(&[&["sudoku", "solve"], format].concat(), link.as_bytes());
        assert_eq!(text(&back.stdout), text(&solved.stdout), "{format:?}");
    }
    // Starting over with lookahead at once, or never, answers the same.
    for after in ["1", "never"] {
        let out = run(
            &["sudoku", "solve", "--lookahead-after", after],
            puzzle.as_bytes(),
        );
        assert_eq!(
            text(&out.stdout),
            text(&solved.stdout),
            "--lookahead-after {after}"
        );
    }
    let out = run(
        &["sudoku", "count", "--branching", "lookahead"],
        puzzle.as_bytes(),
    );
    assert_eq!(text(&out.stdout), "1\n");
    // --json: one object, every field.
    let out = run(&["sudoku", "check", "--json"], puzzle.as_bytes());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "unique");
    assert_eq!(v["solution"], line(&got));
    assert!(v["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn killer_x_anti_knight_and_non_consecutive_puzzles_are_solved_counted_and_checked() {
    let six = Rules::boxes(2, 3).unwrap().diagonals();
    solve_count_check(6, six, r#","diagonal+":true,"diagonal-":true"#);
    let nine = Rules::boxes(3, 3).unwrap().anti_knight().non_consecutive();
    solve_count_check(9, nine, r#","antiknight":true,"nonconsecutive":true"#);
    let king = Rules::boxes(3, 3).unwrap().anti_king();
    solve_count_check(9, king, r#","antiking":true"#);
}

#[test]
fn inputs_are_detected_one_by_one_and_classic_grids_write_f_puzzles() {
    let dir = crate::common::scratch_dir("variants");
    let rules = Rules::jigsaw(&[
        0, 0, 1, 1, //
        0, 2, 2, 1, //
        0, 2, 3, 1, //
        2, 3, 3, 3,
    ])
    .unwrap();
    let (givens, solution) = unique_puzzle(&rules);
    let mut regions = String::new();
    let mut v: serde_json::Value =
        serde_json::from_str(&fpuzzles::write(4, &givens, None)).unwrap();
    for k in 0..16 {
        v["grid"][k / 4][k % 4]["region"] = rules.regions()[k].into();
        regions.push(char::from(b'0' + rules.regions()[k] as u8));
    }
    let jigsaw = dir.join("jigsaw.json");
    std::fs::write(&jigsaw, format!("{v}\n")).unwrap();
    let classic = dir.join("classic.txt");
    std::fs::write(&classic, "1..4..1.4...2..3\n").unwrap();
    let (j, c) = (jigsaw.to_str().unwrap(), classic.to_str().unwrap());
    let out = run(&["sudoku", "solve", c, j, c], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let want = format!("1234341243212143\n{}\n1234341243212143\n", line(&solution));
    assert_eq!(text(&out.stdout), want, "regions {regions}");
    // A classic grid written as f-puzzles reads back as its givens and solution.
    let out = run(&["sudoku", "solve", "--output-format", "fpuzzles", c], b"");
    let p = fpuzzles::read(text(&out.stdout).trim()).unwrap();
    assert_eq!(line(&p.givens).replace('0', "."), "1..4..1.4...2..3");
    // Generated puzzles too.
    let out = run(
        &[
            "sudoku",
            "generate",
            "--box-side",
            "2",
            "--count",
            "2",
            "--output-format",
            "fpuzzles",
        ],
        b"",
    );
    let lines = text(&out.stdout);
    assert_eq!(lines.lines().count(), 2);
    for l in lines.lines() {
        let p = fpuzzles::read(l).unwrap();
        assert_eq!(count(&p.rules, &p.givens, 2).0.solutions, 1);
    }
    // And as SudokuPad links: a classic grid with its solution, generated
    // puzzles without one.
    let out = run(&["sudoku", "solve", "--output-format", "sudokupad", c], b"");
    let pasted = dlx::sudoku::input::read(text(&out.stdout).trim()).unwrap();
    assert_eq!(
        line(pasted.puzzle.givens()).replace('0', "."),
        "1..4..1.4...2..3"
    );
    let want: Vec<u8> = "1234341243212143".bytes().map(|b| b - b'0').collect();
    assert_eq!(pasted.puzzle.expected(), Some(&want[..]));
    let out = run(
        &[
            "sudoku",
            "generate",
            "--box-side",
            "2",
            "--count",
            "2",
            "--output-format",
            "sudokupad",
        ],
        b"",
    );
    for l in text(&out.stdout).lines() {
        let pasted = dlx::sudoku::input::read(l).unwrap();
        assert!(l.starts_with("https://sudokupad.app/fpuzzles"), "{l}");
        let (rules, givens) = (pasted.puzzle.rules(), pasted.puzzle.givens());
        assert_eq!(count(rules, givens, 2).0.solutions, 1);
    }
}

#[test]
fn what_cannot_be_honoured_is_refused() {
    let puzzle = fpuzzles::write(4, &[1, 0, 0, 4, 0, 0, 1, 0, 4, 0, 0, 0, 2, 0, 0, 3], None);
    for flags in [&["--solver", "backtrack"][..], &["--output-format", "grid"]] {
        let out = run(
            &[&["sudoku", "solve"][..], flags].concat(),
            puzzle.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        assert!(
            text(&out.stderr).contains("variant"),
            "{}",
            text(&out.stderr)
        );
    }
    let lockout = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"lockout":[{"lines":[["R1C1","R1C2","R1C3"]],"value":"2"}]}"#;
    let out = run(&["sudoku", "check"], lockout.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stdout).starts_with("invalid: "),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stderr).contains("`lockout` is not supported"));
    // A puzzle with no solution (row 2's 3 and 4 leave box 1 nothing):
    // echoed, exit 1; clashing givens: invalid, exit 2, as in a classic
    // line; a timeout: exit 3.
    let none = fpuzzles::write(4, &[1, 2, 0, 0, 0, 0, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0], None);
    let out = run(&["sudoku", "solve"], none.as_bytes());
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(1), format!("{none}\n"))
    );
    // With an output format named, the puzzle unsolved in that format (each
    // line f-puzzles JSON), exit 1, from f-puzzles, variant text or a line.
    for input in [
        none.clone(),
        "12..34.......... thermo=R1C2,R1C1".into(),
        "12........3...4.".into(),
    ] {
        let out = run(
            &["sudoku", "solve", "--output-format", "fpuzzles"],
            input.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1), "{input}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["grid"][0][0]["value"], 1, "{input}");
        assert!(json["grid"][3][3].get("value").is_none(), "{input}");
    }
    let out = run(
        &["sudoku", "solve", "--output-format", "variant"],
        none.as_bytes(),
    );
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(1), "12....34........\n".into())
    );
    let clash = fpuzzles::write(4, &[1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], None);
    for command in ["solve", "count", "check", "candidates"] {
        let out = run(&["sudoku", command], clash.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(
            text(&out.stderr).contains("conflicting givens: digit 1 twice in a row"),
            "{command}: {}",
            text(&out.stderr)
        );
    }
    let empty16 = fpuzzles::write(16, &[0; 256], None);
    let out = run(
        &["sudoku", "count", "--timeout", "20ms"],
        empty16.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("timeout: at least "));
}

#[test]
fn public_puzzles_of_every_rule_solve_to_their_solutions() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("puzzles");
    let puzzles = std::fs::read_to_string(dir.join("public_variants.txt")).unwrap();
    let solutions = std::fs::read_to_string(dir.join("public_variants.solutions.txt")).unwrap();
    let out = run(&["sudoku", "solve"], puzzles.as_bytes());
    assert_eq!(text(&out.stdout), solutions, "{}", text(&out.stderr));
    let out = run(&["sudoku", "check", "--jobs", "2"], puzzles.as_bytes());
    assert_eq!(text(&out.stdout), "unique\n".repeat(8));
    for (line, solution) in puzzles.lines().zip(solutions.lines()) {
        let (rules, givens) = dlx::sudoku::rule_line::read(line).unwrap();
        let cells: Vec<u8> = solution.bytes().map(|b| b - b'0').collect();
        check(&rules, &givens, &cells).unwrap();
    }
    // Without its second given the Miracle has 8 solutions; the Sudoku-X
    // with another digit in R1C1 has none, and without its diagonals
    // millions.
    let lines: Vec<&str> = puzzles.lines().collect();
    let mut miracle = lines[7].to_string();
    miracle.replace_range(51..52, ".");
    let out = run(&["sudoku", "count"], miracle.as_bytes());
    assert_eq!(text(&out.stdout), "8\n");
    let x = format!("1{}", &lines[1][1..]);
    let out = run(&["sudoku", "check"], x.as_bytes());
    assert_eq!(text(&out.stdout), "none\n");
    let out = run(&["sudoku", "check"], &lines[1].as_bytes()[..81]);
    assert_eq!(text(&out.stdout), "multiple\n");
}

#[test]
fn a_bare_compressed_string_is_read_as_f_puzzles() {
    // A 4×4 anti-king puzzle: the `load=` part of an f-puzzles link, pasted
    // alone (it was read as a 596-symbol grid and refused).
    let packed = "N4IgzglgXgpiBcAWANCA5gJwgEwQbT1ADcBDAGwFc54BGVNCImAOwQBcMqBfZYHv3lwC6yQv34hSlagGZ6jFu04xxIsb0nkqCFOgWt4HboMFqB5iVO3wATPKYGjKoSJAlmbCAGsIzNEu4gA=";
    assert!(fpuzzles::is_compressed(packed));
    assert!(!fpuzzles::is_compressed(
        "103000509002109400000704000300502006060000050700803004000401000009205800804000107"
    ));
    let out = run(&["sudoku", "count"], format!("{packed}\n").as_bytes());
    let named = run(
        &["sudoku", "count", "--format", "fpuzzles"],
        packed.as_bytes(),
    );
    assert_eq!(text(&out.stderr), text(&named.stderr));
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (named.status.code(), "0\n".into())
    );
}

#[test]
fn a_link_that_carries_no_puzzle_is_refused_by_name_not_read_as_a_grid() {
    // It was read as the first row of a 25×25 grid ("the input ends inside
    // a grid"): the one reader tells a link apart and names it.
    let link = "https://example.com/abc";
    for command in ["check", "count", "solve"] {
        let out = run(&["sudoku", command], format!("{link}\n").as_bytes());
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(&format!("a link this reader does not know: {link}")),
            "{command}: {}",
            text(&out.stderr)
        );
    }
    // A SudokuPad short id: the data lives on its server; the message says
    // what to paste instead, one line a puzzle.
    let out = run(&["sudoku", "check"], b"https://sudokupad.app/wsj7iunsg6\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).starts_with("invalid: SudokuPad short id `wsj7iunsg6`"));
    assert!(text(&out.stderr).contains("copy the long link"));
}

#[test]
fn published_puzzles_of_each_constraint_solve_to_their_solutions() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("puzzles");
    let puzzles = std::fs::read_to_string(dir.join("published_constraints.txt")).unwrap();
    let solutions =
        std::fs::read_to_string(dir.join("published_constraints.solutions.txt")).unwrap();
    let (mut all, mut all_solutions) = (String::new(), String::new());
    for (line, solution) in puzzles.lines().zip(solutions.lines()) {
        let (rules, givens) = dlx::sudoku::rule_line::read(line).unwrap();
        let cells: Vec<u8> = solution.bytes().map(|b| b - b'0').collect();
        check(&rules, &givens, &cells).unwrap();
        // Both written forms read back to the same rules.
        let json = fpuzzles::write_rules(&rules, &givens, None);
        assert_eq!(fpuzzles::read(&json).unwrap().rules, rules, "{json}");
        assert_eq!(
            dlx::sudoku::rule_line::read(&dlx::sudoku::rule_line::write(&rules, &givens))
                .unwrap()
                .0,
            rules
        );
        all.push_str(line);
        all.push('\n');
        all_solutions.push_str(solution);
        all_solutions.push('\n');
    }
    // Every one, the little killers (12, 13) with them since their
    // automata keep to the masks engine and its sum bounds.
    let out = run(&["sudoku", "solve"], all.as_bytes());
    assert_eq!(text(&out.stdout), all_solutions, "{}", text(&out.stderr));
    let out = run(&["sudoku", "check", "--jobs", "2"], all.as_bytes());
    assert_eq!(text(&out.stdout), "unique\n".repeat(20));
    // No published minimum puzzle was found: "Fortress" (18, maxima) with
    // every digit d written 10 - d is one, its solution mirrored the same way.
    let mirror = |s: &str| -> String {
        s.chars()
            .map(|c| match c.to_digit(10) {
                Some(d) if d > 0 => char::from_digit(10 - d, 10).unwrap(),
                _ => c,
            })
            .collect()
    };
    let fortress = puzzles.lines().nth(17).unwrap();
    let (grid, words) = fortress.split_once(' ').unwrap();
    let minima = format!("{} {}\n", mirror(grid), words.replace("max=", "min="));
    let out = run(&["sudoku", "solve"], minima.as_bytes());
    let solution = solutions.lines().nth(17).unwrap();
    assert_eq!(text(&out.stdout), format!("{}\n", mirror(solution)));
    let out = run(&["sudoku", "check"], minima.as_bytes());
    assert_eq!(text(&out.stdout), "unique\n");
    // A thermometer turned round has no solution; the sandwich puzzle
    // without its first three columns' clues has more than one.
    let lines: Vec<&str> = puzzles.lines().collect();
    let out = run(
        &["sudoku", "check"],
        lines[0]
            .replace(
                "thermo=R9C4,R8C3,R7C2,R6C1,R5C2,R4C3",
                "thermo=R4C3,R5C2,R6C1,R7C2,R8C3,R9C4",
            )
            .as_bytes(),
    );
    assert_eq!(text(&out.stdout), "none\n");
    let out = run(
        &["sudoku", "check"],
        lines[13]
            .replace(" sandwich=8:C1", "")
            .replace(" sandwich=4:C2", "")
            .replace(" sandwich=17:C3", "")
            .as_bytes(),
    );
    assert_eq!(text(&out.stdout), "multiple\n");
}

/// A line of n² symbols for a side that is no square (6: 2×3 boxes) is a
/// whole n×n puzzle, as it is with any rule word; the rows of an n²×n²
/// grid (a symbol past n in them) stay a classic grid.
#[test]
fn a_line_of_36_symbols_is_a_6x6_puzzle() {
    let six = format!("1{}", ".".repeat(35));
    let input = format!("{six}\n{}\n", ".".repeat(36));
    let out = run(&["sudoku", "solve"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let solved = text(&out.stdout);
    let lines: Vec<&str> = solved.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l.len() == 36), "{lines:?}");
    let with_boxes = run(&["sudoku", "solve"], format!("{six} boxes=2x3").as_bytes());
    assert_eq!(format!("{}\n", lines[0]), text(&with_boxes.stdout));
    for command in ["count", "candidates"] {
        let out = run(&["sudoku", command, "--limit", "1"], six.as_bytes());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{command}: {}",
            text(&out.stderr)
        );
    }
    // A row of a 36×36 grid: a symbol past 6 (the rest of the grid is
    // missing: the classic reader says so).
    let row = format!("7{}", ".".repeat(35));
    let out = run(&["sudoku", "check"], row.as_bytes());
    assert!(
        text(&out.stderr).contains("1 of 36 rows"),
        "{}",
        text(&out.stderr)
    );
}
