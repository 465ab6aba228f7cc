//! How long will it take: `dlx cover --estimate N --seed S` (Knuth's
//! random-probe estimate of the search, checked against the exact counts of
//! the same search) and the progress line of `--progress`.

use crate::common::{run, scratch_dir, text};
use serde_json::Value;

fn gen(problem: &[&str]) -> String {
    let path = scratch_dir("estimate").join(format!("{}.dlx", problem.join("-")));
    std::fs::write(&path, run(&[&["gen"][..], problem].concat(), b"").stdout).unwrap();
    path.to_string_lossy().into_owned()
}

fn json(args: &[&str]) -> Value {
    let out = run(args, b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_thousand_probes_land_within_a_factor_of_two() {
    for (problem, engine) in [
        (&["queens", "12"][..], "auto"),
        (&["pentominoes", "3x20"][..], "auto"),
        (&["queens", "10"][..], "links"),
        (&["langford", "8"][..], "masks"),
    ] {
        let matrix = gen(problem);
        let flags = ["--engine", engine];
        let exact = json(&[&["cover", &matrix, "--json"][..], &flags].concat());
        let e = json(
            &[
                &[
                    "cover",
                    &matrix,
                    "--estimate",
                    "1000",
                    "--seed",
                    "1",
                    "--json",
                ][..],
                &flags,
            ]
            .concat(),
        );
        assert_eq!(e["engine"], exact["engine"], "{problem:?}");
        for (field, counted) in [("nodes", "nodes"), ("solutions", "solutions")] {
            let (est, true_count) = (
                e[field]["mean"].as_f64().unwrap(),
                exact[counted].as_f64().unwrap(),
            );
            assert!(
                est >= true_count / 2.0 && est <= true_count * 2.0,
                "{problem:?} {field}: estimated {est}, counted {true_count}"
            );
            let s = &e[field];
            assert!(
                s["min"].as_f64() <= s["mean"].as_f64() && s["mean"].as_f64() <= s["max"].as_f64()
            );
        }
        // The measuring run finished these small searches: its exact
        // figures are one run's.
        assert_eq!(e["counted"], true);
        assert_eq!(e["exact_nodes"], exact["nodes"], "{problem:?}");
        assert_eq!(e["exact_solutions"], exact["solutions"], "{problem:?}");
    }
}

#[test]
fn the_same_seed_gives_the_same_estimate_and_another_seed_another() {
    let matrix = gen(&["queens", "9"]);
    let est = |seed: &str| {
        let v = json(&[
            "cover",
            &matrix,
            "--estimate",
            "50",
            "--seed",
            seed,
            "--json",
        ]);
        v["nodes"]["mean"].as_f64().unwrap()
    };
    assert_eq!(est("5"), est("5"));
    assert_ne!(est("5"), est("6"));
}

#[test]
fn the_text_report_names_the_figures_and_refuses_what_it_ignores() {
    let matrix = gen(&["queens", "8"]);
    let out = run(&["cover", &matrix, "--estimate", "20"], b"");
    assert_eq!(out.status.code(), Some(0));
    let report = text(&out.stdout);
    for word in [
        "20 probes",
        "nodes",
        "updates",
        "solutions",
        "counted while measuring",
    ] {
        assert!(report.contains(word), "{word} in {report}");
    }
    for refused in [
        &["--all"][..],
        &["--jobs", "2"],
        &["--node-budget", "5"],
        &["--split", "4"],
    ] {
        let out = run(
            &[&["cover", &matrix, "--estimate", "20"][..], refused].concat(),
            b"",
        );
        assert_eq!(out.status.code(), Some(2), "{refused:?}");
    }
    let out = run(&["cover", &matrix, "--seed", "3"], b"");
    assert_eq!(out.status.code(), Some(2), "--seed without --estimate");
}

#[test]
fn a_forced_progress_line_ends_at_one_hundred_percent_with_the_count() {
    let matrix = gen(&["queens", "9"]);
    for extra in [
        &[][..],
        &["--jobs", "2"],
        &["--all"],
        &["--engine", "masks", "--branching", "first-forced"],
    ] {
        let out = run(
            &[&["cover", &matrix, "--progress"][..], extra].concat(),
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "{extra:?}");
        let err = text(&out.stderr);
        let last = err.lines().last().unwrap_or("");
        assert!(last.starts_with("progress: 100.0%"), "{extra:?}: {err}");
        assert!(
            last.contains("352 solutions") && last.contains("done"),
            "{last}"
        );
    }
    // The cheapest, on one thread and on two: the line ends at the whole
    // tree too (pruned branches count as done).
    for jobs in ["1", "2"] {
        let out = run(
            &[
                "cover",
                &matrix,
                "--progress",
                "--best",
                "2",
                "--jobs",
                jobs,
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(0), "--jobs {jobs}");
        let err = text(&out.stderr);
        let last = err.lines().last().unwrap_or("");
        assert!(
            last.starts_with("progress: 100.0%") && last.contains("done"),
            "--best 2 --jobs {jobs}: {err}"
        );
    }
    // Not on a pipe by default, nor with --quiet.
    for quiet in [&[][..], &["--quiet"]] {
        let out = run(&[&["cover", &matrix][..], quiet].concat(), b"");
        assert_eq!(text(&out.stderr), "", "{quiet:?}");
        assert_eq!(text(&out.stdout), "352\n");
    }
    for refused in [&["--quiet"][..], &["--split", "4"], &["--estimate", "5"]] {
        let out = run(
            &[&["cover", &matrix, "--progress"][..], refused].concat(),
            b"",
        );
        assert_eq!(out.status.code(), Some(2), "{refused:?}");
    }
}

#[test]
fn a_timeout_stops_the_search_as_a_budget_does_and_per_job() {
    // Queens 16 runs for seconds: 20 ms stop it, the answer unknown.
    let matrix = gen(&["queens", "16"]);
    let out = run(&["cover", &matrix, "--timeout", "20ms", "--json"], b"");
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["complete"].as_bool(), v["timed_out"].as_bool()),
        (Some(false), Some(true))
    );
    assert!(
        text(&out.stderr).contains("time limit reached"),
        "{}",
        text(&out.stderr)
    );
    // A budget that runs out first is the budget, not the clock.
    let out = run(
        &[
            "cover",
            &matrix,
            "--timeout",
            "1h",
            "--node-budget",
            "100",
            "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(3));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["budget_exhausted"].as_bool(), v["timed_out"].as_bool()),
        (Some(true), Some(false))
    );
    assert_eq!(v["nodes"], 100);
    // On threads: every thread stops at the deadline, and the answer says
    // so as one thread's does.
    let out = run(
        &[
            "cover",
            &matrix,
            "--jobs",
            "2",
            "--timeout",
            "20ms",
            "--json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (
            v["complete"].as_bool(),
            v["timed_out"].as_bool(),
            v["interrupted"].as_bool()
        ),
        (Some(false), Some(true), Some(false))
    );
    assert!(
        text(&out.stderr).contains("time limit reached"),
        "{}",
        text(&out.stderr)
    );
    // A small search under a long timeout is counted whole.
    let small = gen(&["queens", "8"]);
    let out = run(&["cover", &small, "--timeout", "1h"], b"");
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(0), "92\n".to_string())
    );
    // Per job: each result says it timed out, the merge that it is not final.
    let jobs = run(&["cover", &matrix, "--split", "2"], b"").stdout;
    let first: String = text(&jobs)
        .lines()
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    let results = run(
        &["cover", &matrix, "--run-jobs", "-", "--timeout", "20ms"],
        first.as_bytes(),
    );
    assert_eq!(results.status.code(), Some(3), "{}", text(&results.stderr));
    let results = text(&results.stdout);
    assert_eq!(
        results.matches(r#""timed_out":true"#).count(),
        2,
        "{results}"
    );
}
