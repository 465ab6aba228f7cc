//! `dlx cover --split`, `--run-jobs`, `--merge`: a count cut into job lines,
//! run apart, and merged back to exactly one run's answer and counters.

use crate::common::{run, scratch_dir, text, PUZZLES};

/// Writes `bytes` to a fresh file under the target directory.
fn file(name: &str, bytes: &[u8]) -> String {
    let path = scratch_dir("jobs").join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

/// The value of `"key":` in a JSON line, as text up to the next `,` or `}`.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let at = line
        .find(&format!("\"{key}\":"))
        .unwrap_or_else(|| panic!("{key} in {line}"));
    let rest = &line[at + key.len() + 3..];
    &rest[..rest.find([',', '}']).unwrap()]
}

#[test]
fn split_run_and_merge_give_one_runs_answer_and_counters() {
    for (problem, rule, engine) in [
        ("queens 8", "knuth", "auto"),
        ("queens 9", "knuth", "links"),
        ("langford 7", "first-forced", "masks"),
        ("pentominoes 3x10", "knuth", "dense"),
        // Multiplicities: jobs carry the options tweaked and items retired.
        ("two-queens 6", "knuth", "auto"),
        ("two-queens 5", "first-forced", "links"),
    ] {
        let args: Vec<&str> = problem.split(' ').collect();
        let matrix = file("m.dlx", &run(&[&["gen"][..], &args].concat(), b"").stdout);
        let flags = ["--branching", rule, "--engine", engine];
        let one = run(&[&["cover", "--json", &matrix][..], &flags].concat(), b"");
        let one = text(&one.stdout);
        let jobs = run(
            &[&["cover", &matrix, "--split", "20"][..], &flags].concat(),
            b"",
        );
        assert_eq!(jobs.status.code(), Some(0), "{}", text(&jobs.stderr));
        let lines = text(&jobs.stdout);
        let count: usize = field(lines.lines().next().unwrap(), "jobs")
            .parse()
            .unwrap();
        assert_eq!(lines.lines().count(), count + 1, "{problem}");
        if problem.starts_with("two-queens") {
            assert!(lines.contains(r#""excluded":["#), "{lines}");
            assert!(lines.contains(r#""retired":["#), "{lines}");
        }
        // Each job run on its own (as a cluster would), results concatenated.
        let mut results = Vec::new();
        for (k, job) in lines.lines().enumerate() {
            let path = file(&format!("job{k}"), format!("{job}\n").as_bytes());
            let out = run(
                &[&["cover", &matrix, "--run-jobs", &path][..], &flags].concat(),
                b"",
            );
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
            results.extend(out.stdout);
        }
        let merged = file("results", &results);
        let total = run(&["cover", "--merge", &merged, "--json"], b"");
        let total = text(&total.stdout);
        for key in ["solutions", "nodes", "updates"] {
            assert_eq!(
                field(&total, key),
                field(&one, key),
                "{problem} {key}: {total} / {one}"
            );
        }
        assert!(total.contains(r#""complete":true"#), "{total}");
        // Through stdin, in one process, the same.
        let all = run(
            &[&["cover", &matrix, "--run-jobs", "-"][..], &flags].concat(),
            lines.as_bytes(),
        );
        let merged = file("all", &all.stdout);
        let again = run(&["cover", "--merge", &merged], b"");
        assert_eq!(
            text(&again.stdout),
            format!("{}\n", field(&one, "solutions"))
        );
    }
}

#[test]
fn missing_duplicated_and_foreign_jobs_are_named() {
    let queens = file("q8.dlx", &run(&["gen", "queens", "8"], b"").stdout);
    let jobs = text(&run(&["cover", &queens, "--split", "10"], b"").stdout);
    let results = run(&["cover", &queens, "--run-jobs", "-"], jobs.as_bytes()).stdout;
    let results = text(&results);
    // Job 3's result lost, job 5's twice: listed, exit 3, and the count
    // printed is not final.
    let mut lines: Vec<&str> = results
        .lines()
        .filter(|l| !l.starts_with(r#"{"result":3,"#))
        .collect();
    let five = lines
        .iter()
        .find(|l| l.starts_with(r#"{"result":5,"#))
        .copied()
        .unwrap();
    lines.push(five);
    let path = file("partial", (lines.join("\n") + "\n").as_bytes());
    let out = run(&["cover", "--merge", &path], b"");
    assert_eq!(out.status.code(), Some(3));
    let err = text(&out.stderr);
    assert!(
        err.contains("jobs missing: 3") && err.contains("jobs duplicated: 5"),
        "{err}"
    );
    assert!(err.contains("not final"), "{err}");
    // Resume: run the missing job alone and merge again.
    let three: String = jobs
        .lines()
        .filter(|l| l.starts_with(r#"{"job":3,"#))
        .collect();
    let rerun = run(&["cover", &queens, "--run-jobs", "-"], three.as_bytes()).stdout;
    let first: Vec<&str> = results
        .lines()
        .filter(|l| !l.starts_with(r#"{"result":3,"#))
        .collect();
    let resumed = file(
        "resumed",
        (first.join("\n") + "\n" + &text(&rerun)).as_bytes(),
    );
    let out = run(&["cover", "--merge", &resumed], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "92\n");
    // A job of another matrix, or cut for another rule: refused, exit 2.
    let other = file("q9.dlx", &run(&["gen", "queens", "9"], b"").stdout);
    let out = run(&["cover", &other, "--run-jobs", "-"], jobs.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("another matrix"),
        "{}",
        text(&out.stderr)
    );
    let out = run(
        &[
            "cover",
            &queens,
            "--branching",
            "first-forced",
            "--run-jobs",
            "-",
        ],
        jobs.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("rule"), "{}", text(&out.stderr));
}

#[test]
fn solutions_above_the_cut_are_kept() {
    // Langford 4 has two solutions and a tiny tree: a split asking for
    // many jobs finds them above its cut, in the summary.
    let langford = format!("{PUZZLES}/langford4.dlx");
    let jobs = text(&run(&["cover", &langford, "--split", "1000"], b"").stdout);
    let results = run(&["cover", &langford, "--run-jobs", "-"], jobs.as_bytes()).stdout;
    let path = file("langford", &results);
    let out = run(&["cover", "--merge", &path, "--json"], b"");
    let total = text(&out.stdout);
    assert_eq!(field(&total, "solutions"), "2", "{total}");
    assert_eq!(field(&total, "nodes"), "18", "{total}");
    assert_eq!(field(&total, "updates"), "184", "{total}");
}

#[test]
fn jobs_are_written_largest_estimate_first_and_merge_in_any_order() {
    let matrix = file("p.dlx", &run(&["gen", "pentominoes", "3x12"], b"").stdout);
    let one = text(&run(&["cover", "--json", &matrix], b"").stdout);
    let jobs = text(&run(&["cover", &matrix, "--split", "30"], b"").stdout);
    let lines: Vec<&str> = jobs.lines().collect();
    let estimates: Vec<f64> = lines[1..]
        .iter()
        .map(|l| field(l, "estimate").parse().unwrap())
        .collect();
    assert!(estimates.windows(2).all(|w| w[0] >= w[1]), "{estimates:?}");
    assert!(estimates[0] > *estimates.last().unwrap(), "{estimates:?}");
    // Every job number once, whatever the order of the lines.
    let mut ids: Vec<usize> = lines[1..]
        .iter()
        .map(|l| field(l, "job").parse().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (0..lines.len() - 1).collect::<Vec<_>>());
    // Results come back in any order: reversed, with the summary last.
    let results = run(&["cover", &matrix, "--run-jobs", "-"], jobs.as_bytes());
    let results = text(&results.stdout);
    let mut back: Vec<&str> = results.lines().rev().collect();
    back.push("");
    let back = file("reversed", back.join("\n").as_bytes());
    let total = text(&run(&["cover", "--merge", &back, "--json"], b"").stdout);
    for key in ["solutions", "nodes", "updates"] {
        assert_eq!(field(&total, key), field(&one, key), "{key}");
    }
}

#[test]
fn lines_keyed_as_hadoop_streaming_passes_them_run_and_merge() {
    // NLineInputFormat hands a mapper `offset<TAB>line`; the mapper's lines
    // come back as `line<TAB>` (no value).
    let matrix = file("q.dlx", &run(&["gen", "queens", "7"], b"").stdout);
    let jobs = text(&run(&["cover", &matrix, "--split", "10"], b"").stdout);
    let mut offset = 0;
    let keyed: String = jobs
        .lines()
        .map(|l| {
            let keyed = format!("{offset}\t{l}\n");
            offset += l.len() + 1;
            keyed
        })
        .collect();
    let results = run(&["cover", &matrix, "--run-jobs", "-"], keyed.as_bytes());
    assert_eq!(results.status.code(), Some(0), "{}", text(&results.stderr));
    let tabbed: String = text(&results.stdout)
        .lines()
        .map(|l| {
            assert!(l.starts_with('{'), "{l}");
            format!("{l}\t\n")
        })
        .collect();
    let merged = file("tabbed", tabbed.as_bytes());
    let total = run(&["cover", "--merge", &merged], b"");
    assert_eq!(total.status.code(), Some(0), "{}", text(&total.stderr));
    assert_eq!(text(&total.stdout), "40\n");
}

#[test]
fn merge_all_lists_every_solution_in_one_runs_order() {
    // Item A branches: option `A B` solves at once (a solution above the
    // cut), option `A` leads to B's two options (a subtree). In both orders
    // the merged list is one run's, byte for byte.
    for (text_of, solutions) in [
        ("A B | x y\nA B\nA\nB x\nB y\n", 3),
        ("A B | x y\nA\nA B\nB x\nB y\n", 3),
        // Multiplicities: A twice or three times, B at most once.
        ("2:3|A 0:1|B | x\nA B\nA\nA x\nA\nB x\n", 11),
    ] {
        let matrix = file("ab.dlx", text_of.as_bytes());
        let one = run(&["cover", &matrix, "--all"], b"");
        let jobs = run(&["cover", &matrix, "--split", "1"], b"").stdout;
        let summary = text(&jobs);
        assert!(summary.contains(r#""above":[{"after":"#), "{summary}");
        let results = run(&["cover", &matrix, "--run-jobs", "-", "--all"], &jobs);
        assert_eq!(results.status.code(), Some(0), "{}", text(&results.stderr));
        let path = file("ab-results", &results.stdout);
        let merged = run(&["cover", "--merge", &path, "--all"], b"");
        assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
        assert_eq!(text(&merged.stdout), text(&one.stdout), "{text_of}");
        assert_eq!(text(&one.stdout).split("\n\n").count(), solutions);
        let json_one: serde_json::Value =
            serde_json::from_slice(&run(&["cover", &matrix, "--all", "--json"], b"").stdout)
                .unwrap();
        let json_merged: serde_json::Value = serde_json::from_slice(
            &run(&["cover", "--merge", &path, "--all", "--json"], b"").stdout,
        )
        .unwrap();
        assert_eq!(json_merged["list"], json_one["list"]);
    }
    // Results counted without --all cannot be listed.
    let matrix = file("ab.dlx", b"A B | x y\nA B\nA\nB x\nB y\n");
    let jobs = run(&["cover", &matrix, "--split", "1"], b"").stdout;
    let counted = run(&["cover", &matrix, "--run-jobs", "-"], &jobs).stdout;
    let path = file("counted", &counted);
    let out = run(&["cover", "--merge", &path, "--all"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("run the jobs with --all"));
}

/// Splits `matrix` into at least 8 jobs, runs them in three processes (the
/// lines dealt out in turn), merges the results in reverse order; returns
/// the merge's JSON line.
fn split_run_in_three_and_merge(matrix: &str, flags: &[&str]) -> String {
    let jobs = run(
        &[&["cover", matrix, "--split", "8"][..], flags].concat(),
        b"",
    );
    assert_eq!(jobs.status.code(), Some(0), "{}", text(&jobs.stderr));
    let jobs = text(&jobs.stdout);
    let mut results = Vec::new();
    for part in 0..3 {
        let mine: String = jobs
            .lines()
            .enumerate()
            .filter(|(k, _)| k % 3 == part)
            .map(|(_, l)| format!("{l}\n"))
            .collect();
        let out = run(
            &[&["cover", matrix, "--run-jobs", "-"][..], flags].concat(),
            mine.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        results.extend(text(&out.stdout).lines().map(str::to_string));
    }
    results.reverse();
    let path = file("three", (results.join("\n") + "\n").as_bytes());
    let merged = run(&["cover", "--merge", &path, "--json"], b"");
    text(&merged.stdout)
}

#[test]
fn oeis_counts_and_colored_matrices_survive_split_run_and_merge() {
    // Queens (OEIS A000170) and Langford pairs (A014552, both ways), with
    // Knuth's rule on the links engine: DLX1's nodes and updates too.
    let queens = [1u64, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    let mut cases: Vec<(Vec<String>, u64)> = (1..=10)
        .map(|n| (vec!["queens".into(), n.to_string()], queens[n - 1]))
        .collect();
    for (n, want) in [(3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
        cases.push((vec!["langford".into(), n.to_string()], want));
    }
    for (problem, want) in cases {
        let args: Vec<&str> = problem.iter().map(String::as_str).collect();
        let matrix = file(
            "oeis.dlx",
            &run(&[&["gen"][..], &args].concat(), b"").stdout,
        );
        let flags = ["--engine", "links"];
        let one = text(&run(&[&["cover", &matrix, "--json"][..], &flags].concat(), b"").stdout);
        let merged = split_run_in_three_and_merge(&matrix, &flags);
        assert_eq!(field(&merged, "solutions"), want.to_string(), "{problem:?}");
        for key in ["nodes", "updates"] {
            assert_eq!(field(&merged, key), field(&one, key), "{problem:?} {key}");
        }
        assert!(merged.contains(r#""complete":true"#), "{merged}");
    }
    // Colored (DLX2): rows of a 4×4 board, each with a colored secondary
    // item per column that options of one row may share only in one color.
    let mut colored = String::from("r0 r1 r2 r3 c0 c1 c2 c3 | x0 x1 x2 x3\n");
    let mut seed = 7u32;
    for r in 0..4 {
        for c in 0..4 {
            for color in ["a", "b"] {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let other = (seed >> 16) as usize % 4;
                colored += &format!("r{r} c{c} x{other}:{color}\n");
            }
        }
    }
    let matrix = file("colored.dlx", colored.as_bytes());
    let one = text(&run(&["cover", &matrix, "--json"], b"").stdout);
    assert_ne!(field(&one, "solutions"), "0", "{one}");
    let merged = split_run_in_three_and_merge(&matrix, &[]);
    for key in ["solutions", "nodes", "updates"] {
        assert_eq!(field(&merged, key), field(&one, key), "colored {key}");
    }
}

#[test]
fn the_cheapest_are_split_run_and_merged_as_one_run_finds_them() {
    // Costed tilings; and two-queens, where every solution costs 0, so the
    // K cheapest are the first K of one run: ties across jobs and above the
    // cut must come out in its order.
    // The last: a solution above the cut, before the subtree that ties it.
    let above = b"A B | x y\nA B |1\nA\nB x |1\nB y\n".to_vec();
    for (problem, k) in [
        ("dominoes 6x6", "4"),
        ("two-queens 5", "7"),
        ("queens 6", "3"),
        ("above", "2"),
    ] {
        let args: Vec<&str> = problem.split(' ').collect();
        let bytes = match problem {
            "above" => above.clone(),
            _ => run(&[&["gen"][..], &args].concat(), b"").stdout,
        };
        let matrix = file("costed.dlx", &bytes);
        let one = run(&["cover", &matrix, "--best", k], b"");
        let target = if problem == "above" { "1" } else { "8" };
        let jobs = run(&["cover", &matrix, "--split", target], b"").stdout;
        if problem == "above" {
            assert!(
                text(&jobs).contains(r#""above":[{"after":0,"cost":1"#),
                "{}",
                text(&jobs)
            );
        }
        let results = run(&["cover", &matrix, "--run-jobs", "-", "--best", k], &jobs);
        assert_eq!(results.status.code(), Some(0), "{}", text(&results.stderr));
        assert!(text(&results.stdout).contains(r#""best_of":"#));
        let path = file("best-results", &results.stdout);
        let merged = run(&["cover", "--merge", &path, "--best", k], b"");
        assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
        assert_eq!(text(&merged.stdout), text(&one.stdout), "{problem}");
        // More than the jobs kept, or jobs run without --best: refused.
        // Results of --best met some solutions only: no count from them.
        let out = run(&["cover", "--merge", &path], b"");
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("merge with --best"),
            "{}",
            text(&out.stderr)
        );
        let out = run(&["cover", "--merge", &path, "--best", "100"], b"");
        if problem == "above" {
            continue; // its one job lists what it has
        }
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("fewer than 100"),
            "{}",
            text(&out.stderr)
        );
        let counted = run(&["cover", &matrix, "--run-jobs", "-"], &jobs).stdout;
        let path = file("counted", &counted);
        let out = run(&["cover", "--merge", &path, "--best", k], b"");
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("--best"),
            "{}",
            text(&out.stderr)
        );
    }
}
