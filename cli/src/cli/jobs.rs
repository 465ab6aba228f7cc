//! `dlx cover --split N`, `--run-jobs JOBS` and `--merge RESULTS...`: the
//! library's job lines ([`dlx::jobs`]: the cut, the run, the merge, the
//! format) read from files and written to standard output, with the
//! command line's messages and exit codes. `--run-jobs` copies the summary
//! line through, so its output alone is what `--merge` needs; re-running
//! the jobs `--merge` names missing and merging again is the resume story.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::output::Output;
use super::{exit, json};
use dlx::jobs::{self, JobError, Line, MergeOptions, RunOptions, Runner};
use dlx::{Budget, Config, Matrix, Stop};

/// `--split N`: the shallowest cut with at least `target` subtrees (or the
/// whole tree, or where a pass costs too much): the summary, then the jobs,
/// largest estimate first.
pub(crate) fn split(matrix: &Matrix, config: Config, target: u64, name: &str) -> u8 {
    let (summary, jobs) = match jobs::split(matrix, config, target) {
        Ok(cut) => cut,
        Err(e) => {
            eprintln!("dlx cover: {name}: {e}");
            return exit::BAD_INPUT;
        }
    };
    let mut out = Output::stdout();
    out.println(&json::line(&summary));
    for job in &jobs {
        if !out.println(&json::line(job)) {
            break;
        }
    }
    out.finish("dlx cover", exit::FOUND)
}

/// `--run-jobs JOBS`: each job line counted, one result line each; the
/// summary line copied through.
pub(crate) fn run_jobs(
    matrix: &Matrix,
    config: Config,
    jobs: &Path,
    (all, best): (bool, Option<u64>),
    (budget, timeout): (Budget, Duration),
    name: &str,
) -> u8 {
    let mut runner = match Runner::new(matrix, config) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("dlx cover: {name}: {e}");
            return exit::BAD_INPUT;
        }
    };
    let jobs_name = super::input_name(Some(&jobs.to_path_buf()));
    let input = match super::open_input(Some(jobs)) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("dlx cover: {jobs_name}: {e}");
            return exit::BAD_INPUT;
        }
    };
    let opts = RunOptions::new()
        .list(all)
        .best(best.map(|k| usize::try_from(k).unwrap_or(usize::MAX)))
        .limits(super::cover::limited(budget, None), Some(timeout));
    let mut out = Output::stdout();
    let mut code = exit::FOUND;
    for (n, line) in input.lines().enumerate() {
        let fail = |why: &dyn std::fmt::Display| {
            eprintln!("dlx cover: {jobs_name}: line {}: {why}", n + 1);
            exit::BAD_INPUT
        };
        let line = match line {
            Ok(l) if l.trim().is_empty() => continue,
            Ok(l) => l,
            Err(e) => return out.finish("dlx cover", fail(&format_args!("read error: {e}"))),
        };
        let job = match Line::parse(&line) {
            Ok(Line::Summary(s)) => {
                if !out.println(&json::line(&s)) {
                    break;
                }
                continue;
            }
            Ok(Line::Job(job)) => job,
            Ok(Line::Result(_)) => {
                return out.finish("dlx cover", fail(&"a result, not a job line"));
            }
            Err(e) => return out.finish("dlx cover", fail(&e)),
        };
        let result = match runner.run(&job, &opts) {
            Ok(r) => r,
            Err(e @ (JobError::Malformed(_) | JobError::Engine(_))) => {
                return out.finish("dlx cover", fail(&e))
            }
            Err(e) => return out.finish("dlx cover", fail(&format_args!("job {}: {e}", job.job))),
        };
        let stop = runner.stopped().filter(|_| !result.complete);
        if stop == Some(Stop::Cancelled) {
            code = exit::INTERRUPTED;
        } else if !result.complete {
            code = exit::worse(code, exit::BUDGET);
        }
        if !out.println(&json::line(&result)) || stop == Some(Stop::Cancelled) {
            break;
        }
    }
    out.finish("dlx cover", code)
}

/// `--merge RESULTS...`: the summary and the results added up.
pub(crate) fn merge(paths: &[PathBuf], json_out: bool, all: bool, best: Option<u64>) -> u8 {
    let mut summary: Option<jobs::Summary> = None;
    let mut results = Vec::new();
    for path in paths {
        let name = super::input_name(Some(path));
        let input = match super::open_input(Some(path)) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("dlx cover: {name}: {e}");
                return exit::BAD_INPUT;
            }
        };
        for (n, line) in input.lines().enumerate() {
            let bad = |why: &str| {
                eprintln!("dlx cover: {name}: line {}: {why}", n + 1);
                exit::BAD_INPUT
            };
            let line = match line {
                Ok(l) if l.trim().is_empty() => continue,
                Ok(l) => l,
                Err(e) => return bad(&format!("read error: {e}")),
            };
            match Line::parse(&line) {
                Ok(Line::Summary(s)) => match &summary {
                    Some(had) if *had != s => return bad("a second, different split summary"),
                    _ => summary = Some(s),
                },
                Ok(Line::Result(r)) => results.push(r),
                Ok(Line::Job(_)) => {}
                Err(JobError::Malformed(why)) if why.starts_with("neither") => {
                    return bad("neither a split summary nor a result")
                }
                Err(_) => return bad("not a result line"),
            }
        }
    }
    let Some(summary) = summary else {
        eprintln!("dlx cover: --merge: no split summary (the first line --split prints)");
        return exit::BAD_INPUT;
    };
    let opts = MergeOptions::new().list(all).best(best);
    let m = match jobs::merge(&summary, results, opts) {
        Ok(m) => m,
        Err(e) => {
            let flag = match (&e, all, best) {
                (JobError::Merge(why), true, _) if why.contains("--all") => " --all",
                (JobError::Merge(why), _, Some(_)) if why.contains("--best") => " --best",
                _ => "",
            };
            eprintln!("dlx cover: --merge{flag}: {e}");
            return exit::BAD_INPUT;
        }
    };
    let mut out = Output::stdout();
    let list = |ids: &[u64]| ids.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    if let (Some(cheapest), false) = (&m.best, json_out) {
        for (n, c) in cheapest.iter().enumerate() {
            if n > 0 {
                out.println("");
            }
            out.println(&format!("| cost {}", c.cost));
            for line in &c.options {
                out.println(line);
            }
        }
    } else if let (Some(listed), false) = (&m.list, json_out) {
        for (n, solution) in listed.iter().enumerate() {
            if n > 0 {
                out.println("");
            }
            if solution.is_empty() {
                out.println(super::cover::EMPTY_COVER);
            }
            for line in solution {
                out.println(line);
            }
        }
    } else if json_out {
        out.println(&json::line(&m));
    } else {
        out.println(&m.solutions.to_string());
    }
    for (what, ids) in [
        ("missing", &m.missing),
        ("duplicated", &m.duplicated),
        ("incomplete", &m.incomplete),
    ] {
        if !ids.is_empty() {
            eprintln!("dlx cover: --merge: jobs {what}: {}", list(ids));
        }
    }
    let code = if !m.complete {
        eprintln!("dlx cover: --merge: the total is not final");
        exit::BUDGET
    } else if m.solutions > 0 {
        exit::FOUND
    } else {
        exit::NONE
    };
    out.finish("dlx cover", code)
}
