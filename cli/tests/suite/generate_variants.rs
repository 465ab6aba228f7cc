//! `dlx sudoku generate --variant … --symmetry …` and the variant text form:
//! every generated puzzle counted unique by a full search of its own rules,
//! solved through the command line, and the solution checked by the rules'
//! checker; symmetry checked cell by cell here.

use crate::common::{count, run, text};
use dlx::sudoku::rules::{check, Rules};
use dlx::sudoku::{fpuzzles, rule_line};

fn generate(args: &[&str]) -> Vec<String> {
    let out = run(&[&["sudoku", "generate"][..], args].concat(), b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout).lines().map(String::from).collect()
}

/// The images of cell k of a grid of side n under `symmetry`.
fn images(symmetry: &str, n: usize, k: usize) -> Vec<usize> {
    let (r, c, m) = (k / n, k % n, n - 1);
    let at = |(r, c): (usize, usize)| r * n + c;
    match symmetry {
        "rot180" => vec![at((m - r, m - c))],
        "rot90" => vec![at((c, m - r)), at((m - r, m - c)), at((m - c, r))],
        "mirror" => vec![at((r, m - c))],
        "diagonal" => vec![at((c, r))],
        _ => vec![],
    }
}

#[test]
fn every_variant_is_generated_unique_and_solved_by_its_rules() {
    for (variants, size) in [
        ("jigsaw", "9"),
        ("x", "9"),
        ("windoku", "9"),
        ("anti-king", "9"),
        ("anti-knight", "9"),
        ("non-consecutive", "6"),
        ("killer", "9"),
        ("jigsaw,x,anti-king", "9"),
        ("killer,anti-knight", "6"),
    ] {
        let args = [
            "--variant",
            variants,
            "--size",
            size,
            "--count",
            "2",
            "--seed",
            "3",
        ];
        let lines = generate(&args);
        assert_eq!(lines.len(), 2);
        let json = generate(&[&args[..], &["--output-format", "fpuzzles"]].concat());
        for (line, json) in lines.iter().zip(&json) {
            let (rules, givens) = rule_line::read(line).unwrap();
            // The f-puzzles JSON of the same seed says the same.
            let p = fpuzzles::read(json).unwrap();
            assert_eq!((&p.rules, &p.givens), (&rules, &givens), "{variants}");
            let n = rules.side();
            let boxes = Rules::boxes(n / 3, 3).unwrap();
            for v in variants.split(',') {
                let has = match v {
                    "jigsaw" => rules.regions() != boxes.regions(),
                    "x" => rules.extra_regions().len() >= 2,
                    "windoku" => rules.extra_regions().len() == 4,
                    "anti-king" => rules.has_anti_king(),
                    "anti-knight" => rules.has_anti_knight(),
                    "non-consecutive" => rules.has_non_consecutive(),
                    "killer" => rules.cages().iter().map(|c| c.cells.len()).sum::<usize>() == n * n,
                    _ => false,
                };
                assert!(has, "{v}: {line}");
            }
            let (count, _) = count(&rules, &givens, 2);
            assert_eq!((count.solutions, count.complete), (1, true), "{line}");
            let out = run(
                &["sudoku", "solve", "--output-format", "variant"],
                line.as_bytes(),
            );
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
            let (back, solution) = rule_line::read(text(&out.stdout).trim()).unwrap();
            assert_eq!(back, rules);
            check(&rules, &givens, &solution).unwrap();
            let out = run(&["sudoku", "check"], line.as_bytes());
            assert_eq!(text(&out.stdout), "unique\n", "{line}");
        }
    }
}

#[test]
fn symmetric_givens_for_classic_and_variant_puzzles() {
    for symmetry in ["rot180", "rot90", "mirror", "diagonal"] {
        for extra in [&[][..], &["--variant", "x"], &["--size", "6"]] {
            let args = [&["--count", "3", "--symmetry", symmetry][..], extra].concat();
            for line in generate(&args) {
                let grid = line.split_whitespace().next().unwrap().as_bytes();
                let n = (1..=16).find(|n| n * n == grid.len()).unwrap();
                for k in 0..n * n {
                    for j in images(symmetry, n, k) {
                        assert_eq!(
                            grid[k] == b'.',
                            grid[j] == b'.',
                            "{symmetry} {extra:?}: cells {k} and {j} of {line}"
                        );
                    }
                }
            }
        }
    }
    // Grids that are not classic say their boxes, and read back.
    for size in ["6", "8", "12", "5"] {
        let lines = generate(&["--size", size, "--count", "2"]);
        let input = lines.join("\n");
        let out = run(&["sudoku", "check"], input.as_bytes());
        assert_eq!(text(&out.stdout), "unique\nunique\n", "{size}: {input}");
        assert!(lines[0].contains(" boxes="), "{}", lines[0]);
    }
    // No symmetry is the generator as it always was.
    assert_eq!(
        generate(&["--count", "5"]),
        generate(&["--count", "5", "--symmetry", "none"])
    );
    assert_ne!(
        generate(&["--count", "2"]),
        generate(&["--count", "2", "--symmetry", "rot180"])
    );
}

#[test]
fn the_text_form_names_what_it_cannot_read_and_generate_refuses_what_it_cannot_make() {
    let empty = ".".repeat(81);
    let out = run(
        &["sudoku", "check"],
        format!("{empty} x thermo\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("`thermo`"),
        "{}",
        text(&out.stderr)
    );
    let out = run(
        &["sudoku", "count", "--format", "variant"],
        format!("{empty} cage=R1C1,R1C10\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("R1C10"), "{}", text(&out.stderr));
    for args in [
        &["--variant", "windoku", "--size", "6"][..],
        &["--variant", "x", "--output-format", "grid"],
        &["--size", "9", "--box-side", "3"],
    ] {
        let out = run(&[&["sudoku", "generate"][..], args].concat(), b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn the_shipped_variant_sets_are_unique_and_remade_by_their_commands() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("puzzles");
    for (file, args) in [
        ("generated_jigsaw_seed1.txt", &["--variant", "jigsaw"][..]),
        ("generated_x_seed1.txt", &["--variant", "x"]),
        ("generated_windoku_seed1.txt", &["--variant", "windoku"]),
        ("generated_anti-king_seed1.txt", &["--variant", "anti-king"]),
        (
            "generated_anti-knight_seed1.txt",
            &["--variant", "anti-knight"],
        ),
        ("generated_killer_seed1.txt", &["--variant", "killer"]),
        (
            "generated_non-consecutive_6x6_seed1.txt",
            &["--variant", "non-consecutive", "--size", "6"],
        ),
    ] {
        let shipped = std::fs::read_to_string(dir.join(file)).unwrap();
        let made = generate(&[args, &["--count", "20", "--seed", "1"]].concat());
        assert_eq!(shipped.lines().collect::<Vec<_>>(), made, "{file}");
        for line in shipped.lines() {
            let (rules, givens) = rule_line::read(line).unwrap();
            let (count, solution) = count(&rules, &givens, 2);
            assert_eq!(
                (count.solutions, count.complete),
                (1, true),
                "{file}: {line}"
            );
            check(&rules, &givens, &solution.unwrap()).unwrap();
        }
    }
}

#[test]
fn variants_on_several_threads_answer_as_one_and_bench_measures_them() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("puzzles");
    // Every shipped variant set in one input: the rules change from line to
    // line and from set to set, an f-puzzles line and a broken one among them.
    let mut input = String::new();
    for file in [
        "generated_jigsaw_seed1.txt",
        "generated_killer_seed1.txt",
        "generated_x_seed1.txt",
    ] {
        input.push_str(&std::fs::read_to_string(dir.join(file)).unwrap());
    }
    let x = generate(&[
        "--variant",
        "x",
        "--count",
        "1",
        "--output-format",
        "fpuzzles",
    ]);
    input.push_str(&format!("{}\n{} thermo\n", x[0], ".".repeat(81)));
    let answers: Vec<String> = ["1", "2", "3"]
        .iter()
        .map(|jobs| {
            let out = run(&["sudoku", "check", "--jobs", jobs], input.as_bytes());
            assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
            text(&out.stdout)
        })
        .collect();
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0], answers[2]);
    let lines: Vec<&str> = answers[0].lines().collect();
    assert_eq!(lines.len(), 62);
    assert!(lines[..61].iter().all(|l| *l == "unique"), "{lines:?}");
    assert!(lines[61].starts_with("invalid: "), "{}", lines[61]);
    let killer = dir.join("generated_killer_seed1.txt");
    let out = run(
        &[
            "sudoku",
            "bench",
            "--jobs",
            "2",
            "--csv",
            killer.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    let row = csv.lines().nth(1).unwrap();
    assert!(row.starts_with("dlx,"), "{csv}");
    assert!(row.contains(",20,20,20,0,0,0,0,"), "{csv}");
    assert_eq!(
        csv.lines().count(),
        2,
        "the baselines take classic grids only: {csv}"
    );
    assert!(text(&out.stderr).contains("classic grids only"));
}

#[test]
fn one_name_per_rule_the_text_forms_and_its_aliases() {
    // `generate --variant` takes the words the variant text form writes,
    // and the hyphenated names as aliases: the same puzzles.
    for (word, alias) in [
        ("antiking", "anti-king"),
        ("antiknight", "anti-knight"),
        ("nonconsecutive", "non-consecutive"),
    ] {
        let args = |v: &'static str| ["sudoku", "generate", "--variant", v, "--count", "2"];
        let out = run(&args(word), b"");
        assert_eq!(out.status.code(), Some(0), "{word}: {}", text(&out.stderr));
        assert_eq!(out.stdout, run(&args(alias), b"").stdout, "{word}");
        // The puzzles name the rule by the same word.
        assert!(
            text(&out.stdout).lines().all(|l| l.ends_with(word)),
            "{word}"
        );
    }
}
