//! `dlx cover --split N`, `--run-jobs JOBS` and `--merge RESULTS...`: a count
//! cut into jobs that anything running commands over lines can run (GNU
//! parallel, a Slurm array, Hadoop Streaming, Spark's `RDD.pipe`), and the
//! results added up to exactly what one run prints.
//!
//! The lines, one JSON object each:
//! * the split's summary: `{"split":FP,"engine":E,"branching":R,"depth":D,
//!   "jobs":N,"solutions":S,"nodes":..,"updates":..,"guesses":..,"estimate":..,
//!   "above":[{"after":K,"cost":C,"solution":[option lines]}]}`, the counters of the
//!   search above the cut, the solutions met there (each with the number of
//!   subtrees before it, for one run's order), and the jobs' estimated
//!   nodes in all;
//! * a job: `{"job":K,"fingerprint":FP,"engine":E,"branching":R,
//!   "estimate":..,"options":[ids],"items":[option lines]}`: the subtree
//!   below the options chosen above the cut, named by their ids *and* their
//!   items, with its nodes by Knuth's estimate; with multiplicities also
//!   `"excluded":[ids]`, the options tweaked above it, and `"retired":[item
//!   names]`, the items a null move ended there (see [`dlx::Subtree`]).
//!   Jobs are numbered in search order and written largest estimate first,
//!   so that a runner taking lines in order starts the stragglers early;
//! * a result: `{"result":K,"fingerprint":FP,"solutions":..,"nodes":..,
//!   "updates":..,"guesses":..,"seconds":..,"complete":B}`, and with `--all`
//!   `"list":[[option lines]]`, the job's solutions in search order, which
//!   `--merge --all` prints as one run's `--all` would; with `--best K`
//!   `"best_of":K,"best":[{"cost":..,"options":[option lines]}]`, the job's
//!   K cheapest by its own branch and bound, which `--merge --best K`
//!   merges with the summary's (each solution above the cut has its
//!   `"cost"`) into one run's `--best K`.
//!
//! `FP` is [`dlx::knuth::fingerprint`] of the matrix, in hex: a job is never
//! run against another matrix, nor with another engine or rule (its counters
//! would not add up). `--run-jobs` copies the summary line through, so its
//! output alone is what `--merge` needs; re-running the jobs `--merge` names
//! missing and merging again is the resume story.
//!
//! The counters add up exactly: the cut pauses before a branch point, and a
//! job's search, after preselecting its options (excluding and retiring as
//! it says), is the subtree one search explores there (see
//! `search/split.rs`); the summary's counters plus each job's (counted after
//! preselecting) are one run's.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::Value;

use super::cover::solution_json;
use super::output::Output;
use super::{exit, json};
use dlx::{
    knuth, Budget, Cheapest, Config, Count, ItemId, Matrix, OptionId, Solver, Split, Stats, Step,
    Stop, Subtree,
};

/// What a job must match: the matrix, the engine, the rule.
struct Identity {
    fingerprint: String,
    engine: &'static str,
    branching: &'static str,
}

impl Identity {
    fn of(matrix: &Matrix, solver: &Solver<'_>) -> Identity {
        Identity {
            fingerprint: format!("{:016x}", knuth::fingerprint(matrix)),
            engine: solver.engine().name(),
            branching: solver.branching().name(),
        }
    }

    /// Why `line` does not belong to this run, if it does not.
    fn mismatch(&self, line: &Value) -> Option<String> {
        let field = |k: &str| line.get(k).and_then(Value::as_str).unwrap_or("");
        if field("fingerprint") != self.fingerprint {
            return Some(format!(
                "it is for another matrix (fingerprint {}, this one's {})",
                field("fingerprint"),
                self.fingerprint
            ));
        }
        if field("engine") != self.engine || field("branching") != self.branching {
            return Some(format!(
                "it was cut for the {} engine and the {} rule, this run is {} and {}",
                field("engine"),
                field("branching"),
                self.engine,
                self.branching
            ));
        }
        None
    }
}

/// Updates after which `--split` stops deepening its cut: the passes over
/// the top of the tree stay a small part of the work.
const SPLIT_UPDATES: u64 = 1 << 32;

/// The solver `config` asks for, and what its jobs must match; `None`
/// (after saying why) when the engine cannot take the matrix or the rule.
fn solver_for<'m>(
    matrix: &'m Matrix,
    config: Config,
    name: &str,
) -> Option<(Solver<'m>, Identity)> {
    match Solver::with_config(matrix, config) {
        Ok(solver) => {
            let id = Identity::of(matrix, &solver);
            Some((solver, id))
        }
        Err(e) => {
            eprintln!("dlx cover: {name}: {e}");
            None
        }
    }
}

/// `--split N`: the shallowest cut with at least `target` subtrees (or the
/// whole tree, or where a pass costs over [`SPLIT_UPDATES`]).
pub(crate) fn split(matrix: &Matrix, config: Config, target: u64, name: &str) -> u8 {
    let Some((mut solver, id)) = solver_for(matrix, config, name) else {
        return exit::BAD_INPUT;
    };
    let mut depth = 0;
    // With multiplicities a level may take an option or end an item.
    let deepest = match matrix.has_bounds() {
        true => matrix.option_count() + matrix.primary_count(),
        false => matrix.primary_count(),
    };
    let (prefixes, solutions, above) = loop {
        depth += 1;
        let (mut prefixes, mut solutions) = (Vec::new(), Vec::new());
        let above: Stats = solver.split(depth, |piece| match piece {
            Split::Subtree(p) => prefixes.push(p.clone()),
            // Kept with the number of subtrees before it, for --merge --all.
            Split::Solution(s) => solutions.push(format!(
                "{{\"after\":{},\"cost\":{},\"solution\":{}}}",
                prefixes.len(),
                matrix.cost_of(s.iter().copied()),
                solution_json(matrix, s)
            )),
        });
        let n = prefixes.len() as u64;
        if n >= target || n == 0 || above.updates > SPLIT_UPDATES || depth > deepest {
            break (prefixes, solutions, above);
        }
    };
    let estimates = estimate_jobs(&mut solver, &prefixes);
    let mut order: Vec<usize> = (0..prefixes.len()).collect();
    order.sort_by(|&a, &b| estimates[b].total_cmp(&estimates[a]).then(a.cmp(&b)));
    let mut out = Output::stdout();
    let summary = json::Object::new()
        .str("split", &id.fingerprint)
        .str("engine", id.engine)
        .str("branching", id.branching)
        .num("depth", depth)
        .num("jobs", prefixes.len())
        .num("solutions", solutions.len())
        .num("nodes", above.nodes)
        .num("updates", above.updates)
        .num("guesses", above.guesses)
        .num("estimate", estimates.iter().sum::<f64>().round())
        .raw("above", &format!("[{}]", solutions.join(",")));
    out.println(&summary.finish());
    for k in order {
        let sub = &prefixes[k];
        let ids = |os: &[OptionId]| {
            let ids: Vec<String> = os.iter().map(|o| o.as_usize().to_string()).collect();
            format!("[{}]", ids.join(","))
        };
        let mut job = json::Object::new()
            .num("job", k)
            .str("fingerprint", &id.fingerprint)
            .str("engine", id.engine)
            .str("branching", id.branching)
            .num("estimate", estimates[k].round())
            .raw("options", &ids(&sub.options))
            .raw("items", &solution_json(matrix, &sub.options));
        if !sub.excluded.is_empty() {
            job = job.raw("excluded", &ids(&sub.excluded));
        }
        if !sub.retired.is_empty() {
            let names: Vec<Value> = sub
                .retired
                .iter()
                .map(|&i| Value::from(matrix.item_name(i).as_ref()))
                .collect();
            job = job.raw("retired", &Value::from(names).to_string());
        }
        if !out.println(&job.finish()) {
            break;
        }
    }
    out.finish("dlx cover", exit::FOUND)
}

/// Probes for the order of `--split`'s lines, over all jobs: enough to
/// tell a subtree of millions of nodes from one of thousands, few enough
/// that estimating costs a small part of the split (on pentominoes 6×10, 16
/// probes for each of its 8,549 jobs at depth 3 took 7 s, three times the
/// search; a probe explores every child of each branch point on its path).
const SPLIT_PROBES: usize = 1 << 14;

/// Each subtree's nodes by Knuth's estimate (at least 2 and at most 16
/// probes a job, [`SPLIT_PROBES`] in all where that allows; a fixed seed:
/// the same split writes the same lines).
fn estimate_jobs(solver: &mut Solver<'_>, prefixes: &[Subtree]) -> Vec<f64> {
    let probes = (SPLIT_PROBES / prefixes.len().max(1)).clamp(2, 16) as u64;
    let mut rng = StdRng::seed_from_u64(1);
    prefixes
        .iter()
        .map(|sub| {
            // A subtree is a path of the search: entering it cannot fail.
            match solver.preselect_subtree(sub) {
                Ok(()) => solver.estimate(probes, &mut rng).nodes.mean,
                Err(_) => 0.0,
            }
        })
        .collect()
}

/// The JSON object of a line: the whole line, or what follows a key and a
/// tab before it (Hadoop Streaming hands a mapper `offset<TAB>line` under
/// `NLineInputFormat`, and writes a mapper's line back as `line<TAB>`), so
/// that the same lines run under any runner.
fn object_of(line: &str) -> &str {
    let line = line.trim();
    match line.find('{') {
        Some(at) if at > 0 && line[..at].ends_with('\t') => &line[at..],
        _ => line,
    }
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
    let Some((mut solver, id)) = solver_for(matrix, config, name) else {
        return exit::BAD_INPUT;
    };
    let jobs_name = super::input_name(Some(&jobs.to_path_buf()));
    let input = match super::open_input(Some(jobs)) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("dlx cover: {jobs_name}: {e}");
            return exit::BAD_INPUT;
        }
    };
    let mut out = Output::stdout();
    let mut code = exit::FOUND;
    for (n, line) in input.lines().enumerate() {
        let fail = |why: String| {
            eprintln!("dlx cover: {jobs_name}: line {}: {why}", n + 1);
            exit::BAD_INPUT
        };
        let line = match line {
            Ok(l) if l.trim().is_empty() => continue,
            Ok(l) => l,
            Err(e) => return out.finish("dlx cover", fail(format!("read error: {e}"))),
        };
        let line = object_of(&line);
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return out.finish("dlx cover", fail(format!("not a job line: {e}"))),
        };
        if value.get("split").is_some() {
            if !out.println(line) {
                break;
            }
            continue;
        }
        let Some(k) = value.get("job").and_then(Value::as_u64) else {
            return out.finish("dlx cover", fail("not a job line (no \"job\")".into()));
        };
        if let Some(why) = id.mismatch(&value) {
            return out.finish("dlx cover", fail(format!("job {k}: {why}")));
        }
        let sub = match subtree_of(matrix, &value) {
            Ok(p) => p,
            Err(why) => return out.finish("dlx cover", fail(format!("job {k}: {why}"))),
        };
        let start = Instant::now();
        if let Err(e) = solver.preselect_subtree(&sub) {
            return out.finish("dlx cover", fail(format!("job {k}: {e}")));
        }
        let before = solver.stats();
        let mut listed = Vec::new();
        // --best: DLX5's branch and bound within the job.
        let mut cheapest = best.map(|k| Cheapest::new(usize::try_from(k).unwrap_or(usize::MAX)));
        if cheapest.is_some() {
            solver.bound_costs(true);
        }
        solver.restart();
        solver.set_limits(super::cover::limited(budget, Some(timeout)));
        let mut count = Count {
            solutions: 0,
            complete: false,
        };
        loop {
            match solver.next_solution() {
                Step::Solution => {
                    count.solutions += 1;
                    if all {
                        let sol: Vec<OptionId> = solver.solution().collect();
                        listed.push(solution_json(matrix, &sol));
                    }
                    if let Some(c) = cheapest.as_mut() {
                        c.offer(matrix.cost_of(solver.solution()), || {
                            solver.solution().collect()
                        });
                        solver.set_cost_limit(c.limit());
                    }
                }
                Step::Exhausted => break count.complete = true,
                Step::Budget => break,
            }
        }
        let stats = solver.stats() - before;
        let stop = solver.stopped().filter(|_| !count.complete);
        if stop == Some(Stop::Cancelled) {
            code = exit::INTERRUPTED;
        } else if !count.complete {
            code = exit::worse(code, exit::BUDGET);
        }
        let mut result = json::Object::new()
            .num("result", k)
            .str("fingerprint", &id.fingerprint)
            .num("solutions", count.solutions)
            .num("nodes", stats.nodes)
            .num("updates", stats.updates)
            .num("guesses", stats.guesses)
            .float("seconds", start.elapsed().as_secs_f64())
            .boolean("complete", count.complete)
            .boolean("timed_out", stop == Some(Stop::Deadline));
        if all {
            result = result.raw("list", &format!("[{}]", listed.join(",")));
        }
        if let (Some(c), Some(k)) = (cheapest, best) {
            let best = c.finish(count.complete);
            result = result
                .num("best_of", k)
                .raw("best", &super::cover::best_json(matrix, &best));
        }
        if !out.println(&result.finish()) || stop == Some(Stop::Cancelled) {
            break;
        }
    }
    out.finish("dlx cover", code)
}

/// A job's subtree, checked against the matrix: each option id exists (and
/// for the options chosen, has the items the job names), each retired item
/// is an item of the matrix.
fn subtree_of(matrix: &Matrix, job: &Value) -> Result<Subtree, String> {
    let ids = job.get("options").and_then(Value::as_array);
    let items = job.get("items").and_then(Value::as_array);
    let (Some(ids), Some(items)) = (ids, items) else {
        return Err("no \"options\" and \"items\"".into());
    };
    if ids.len() != items.len() {
        return Err("as many options as items are needed".into());
    }
    let mut prefix = Vec::with_capacity(ids.len());
    for (id, text) in ids.iter().zip(items) {
        let o = id
            .as_u64()
            .map(|o| o as usize)
            .filter(|&o| o < matrix.option_count())
            .ok_or_else(|| format!("option {id} is not an option of this matrix"))?;
        let o = OptionId::must(o);
        let line = knuth::option_line(matrix, o);
        if text.as_str() != Some(line.as_str()) {
            return Err(format!("option {} is `{line}`, not {text}", o.as_usize()));
        }
        prefix.push(o);
    }
    let mut sub = Subtree::of_options(&prefix);
    let list = |key: &str| match job.get(key) {
        None => Ok(Vec::new()),
        Some(Value::Array(v)) => Ok(v.clone()),
        Some(_) => Err(format!("\"{key}\" is not a list")),
    };
    for id in list("excluded")? {
        let o = id
            .as_u64()
            .map(|o| o as usize)
            .filter(|&o| o < matrix.option_count())
            .ok_or_else(|| format!("excluded option {id} is not an option of this matrix"))?;
        sub.excluded.push(OptionId::must(o));
    }
    for name in list("retired")? {
        let item = (0..matrix.item_count())
            .map(ItemId::must)
            .find(|&i| name.as_str() == Some(matrix.item_name(i).as_ref()))
            .ok_or_else(|| format!("retired item {name} is not an item of this matrix"))?;
        sub.retired.push(item);
    }
    Ok(sub)
}

/// The solutions of the summary (those above the cut) and of each job's
/// result, in one run's order: job `k`'s after the solutions above the cut
/// that came before subtree `k`. Missing jobs are passed over (the exit code
/// says the total is not final); a result without its list is an error.
fn solutions_in_order(
    summary: &Value,
    results: &BTreeMap<u64, Vec<Value>>,
    jobs: u64,
) -> Result<Vec<Vec<String>>, String> {
    let lines = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|l| l.as_str().map(str::to_string))
            .collect()
    };
    let mut above = Vec::new();
    for a in summary
        .get("above")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let after = a.get("after").and_then(Value::as_u64);
        let sol = a.get("solution").and_then(lines);
        match (after, sol) {
            (Some(after), Some(sol)) => above.push((after, sol)),
            _ => return Err("the summary's solutions above the cut are malformed".into()),
        }
    }
    let mut listed = Vec::new();
    let mut next_above = above.into_iter().peekable();
    for k in 0..=jobs {
        while let Some((_, sol)) = next_above.next_if(|(after, _)| *after <= k) {
            listed.push(sol);
        }
        let Some(r) = results.get(&k).and_then(|rs| rs.first()) else {
            continue;
        };
        let Some(sols) = r.get("list").and_then(Value::as_array) else {
            return Err(format!(
                "result {k} lists no solutions: run the jobs with --all"
            ));
        };
        for s in sols {
            listed.push(lines(s).ok_or_else(|| format!("result {k}: a malformed solution"))?);
        }
    }
    Ok(listed)
}

/// `--merge --best K`: the K cheapest of the solutions above the cut (the
/// summary gives their costs) and of each result's `"best"` list, by cost
/// and then by their place in one run's order (as `solutions_in_order`
/// places them), so that ties go as one run's `--best K` breaks them. A
/// result that kept fewer than K (`"best_of"`), or none, is an error.
fn cheapest_in_order(
    summary: &Value,
    results: &BTreeMap<u64, Vec<Value>>,
    jobs: u64,
    k: u64,
) -> Result<Vec<(u64, Vec<String>)>, String> {
    let lines = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|l| l.as_str().map(str::to_string))
            .collect()
    };
    // (cost, (2j or 2k + 1, index), solution)
    let mut all: Vec<(u64, (u64, u64), Vec<String>)> = Vec::new();
    let above = summary.get("above").and_then(Value::as_array);
    for (i, a) in above.into_iter().flatten().enumerate() {
        let after = a.get("after").and_then(Value::as_u64);
        let cost = a.get("cost").and_then(Value::as_u64);
        let sol = a.get("solution").and_then(lines);
        match (after, cost, sol) {
            (Some(after), Some(cost), Some(sol)) => all.push((cost, (2 * after, i as u64), sol)),
            _ => return Err("the summary's solutions above the cut have no costs".into()),
        }
    }
    for job in 0..jobs {
        let Some(r) = results.get(&job).and_then(|rs| rs.first()) else {
            continue;
        };
        let (Some(of), Some(list)) = (
            r.get("best_of").and_then(Value::as_u64),
            r.get("best").and_then(Value::as_array),
        ) else {
            return Err(format!(
                "result {job} lists no cheapest: run the jobs with --best {k}"
            ));
        };
        if of < k {
            return Err(format!(
                "result {job} kept its {of} cheapest, fewer than {k}: run the jobs with --best {k}"
            ));
        }
        for (i, c) in list.iter().enumerate() {
            let cost = c.get("cost").and_then(Value::as_u64);
            let sol = c.get("options").and_then(lines);
            let (Some(cost), Some(sol)) = (cost, sol) else {
                return Err(format!("result {job}: a malformed cheapest solution"));
            };
            all.push((cost, (2 * job + 1, i as u64), sol));
        }
    }
    all.sort_by_key(|(cost, rank, _)| (*cost, *rank));
    all.truncate(usize::try_from(k).unwrap_or(usize::MAX));
    Ok(all.into_iter().map(|(cost, _, sol)| (cost, sol)).collect())
}

/// `--merge RESULTS...`: the summary and the results added up.
pub(crate) fn merge(paths: &[PathBuf], json_out: bool, all: bool, best: Option<u64>) -> u8 {
    let mut summary: Option<Value> = None;
    let mut results: BTreeMap<u64, Vec<Value>> = BTreeMap::new();
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
            let Ok(value) = serde_json::from_str::<Value>(object_of(&line)) else {
                return bad("not a result line");
            };
            if value.get("split").is_some() {
                match &summary {
                    Some(s) if *s != value => return bad("a second, different split summary"),
                    _ => summary = Some(value),
                }
            } else if let Some(k) = value.get("result").and_then(Value::as_u64) {
                results.entry(k).or_default().push(value);
            } else if value.get("job").is_none() {
                return bad("neither a split summary nor a result");
            }
        }
    }
    let Some(summary) = summary else {
        eprintln!("dlx cover: --merge: no split summary (the first line --split prints)");
        return exit::BAD_INPUT;
    };
    let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    let fingerprint = summary.get("split").and_then(Value::as_str).unwrap_or("");
    let jobs = num(&summary, "jobs");
    let (mut solutions, mut nodes, mut updates, mut guesses) = (
        num(&summary, "solutions"),
        num(&summary, "nodes"),
        num(&summary, "updates"),
        num(&summary, "guesses"),
    );
    let (mut missing, mut duplicated, mut incomplete) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..jobs {
        let Some(rs) = results.get(&k) else {
            missing.push(k);
            continue;
        };
        if rs.len() > 1 {
            duplicated.push(k);
        }
        let r = &rs[0];
        if r.get("fingerprint").and_then(Value::as_str) != Some(fingerprint) {
            eprintln!("dlx cover: --merge: result {k} is of another matrix");
            return exit::BAD_INPUT;
        }
        if best.is_none() && r.get("best_of").is_some() {
            // Branch and bound met only some solutions: no count to add.
            eprintln!(
                "dlx cover: --merge: result {k} was run with --best (its solutions are those \
                 met, not all): merge with --best"
            );
            return exit::BAD_INPUT;
        }
        if r.get("complete").and_then(Value::as_bool) != Some(true) {
            incomplete.push(k);
        }
        solutions += num(r, "solutions");
        nodes += num(r, "nodes");
        updates += num(r, "updates");
        guesses += num(r, "guesses");
    }
    if let Some(k) = results.keys().find(|&&k| k >= jobs) {
        eprintln!("dlx cover: --merge: result {k} is not a job of this split ({jobs} jobs)");
        return exit::BAD_INPUT;
    }
    let list = |ids: &[u64]| ids.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    let complete = missing.is_empty() && duplicated.is_empty() && incomplete.is_empty();
    let mut out = Output::stdout();
    let listed = if all {
        match solutions_in_order(&summary, &results, jobs) {
            Ok(listed) => Some(listed),
            Err(why) => {
                eprintln!("dlx cover: --merge --all: {why}");
                return exit::BAD_INPUT;
            }
        }
    } else {
        None
    };
    let cheapest = match best {
        Some(k) => match cheapest_in_order(&summary, &results, jobs, k) {
            Ok(c) => Some(c),
            Err(why) => {
                eprintln!("dlx cover: --merge --best: {why}");
                return exit::BAD_INPUT;
            }
        },
        None => None,
    };
    if let (Some(cheapest), false) = (&cheapest, json_out) {
        for (n, (cost, solution)) in cheapest.iter().enumerate() {
            if n > 0 {
                out.println("");
            }
            out.println(&format!("| cost {cost}"));
            for line in solution {
                out.println(line);
            }
        }
    } else if let (Some(listed), false) = (&listed, json_out) {
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
        let obj = json::Object::new()
            .num("solutions", solutions)
            .num("nodes", nodes)
            .num("updates", updates)
            .num("guesses", guesses)
            .num("jobs", jobs)
            .boolean("complete", complete)
            .raw("missing", &format!("[{}]", list(&missing)))
            .raw("duplicated", &format!("[{}]", list(&duplicated)))
            .raw("incomplete", &format!("[{}]", list(&incomplete)));
        let obj = match &cheapest {
            Some(cheapest) => {
                let list: Vec<String> = cheapest
                    .iter()
                    .map(|(cost, sol)| {
                        json::Object::new()
                            .num("cost", *cost)
                            .raw("options", &Value::from(sol.clone()).to_string())
                            .finish()
                    })
                    .collect();
                obj.raw("best", &format!("[{}]", list.join(",")))
            }
            None => obj,
        };
        let obj = match &listed {
            Some(listed) => {
                let arrays: Vec<String> = listed
                    .iter()
                    .map(|sol| Value::from(sol.clone()).to_string())
                    .collect();
                obj.raw("list", &format!("[{}]", arrays.join(",")))
            }
            None => obj,
        };
        out.println(&obj.finish());
    } else {
        out.println(&solutions.to_string());
    }
    for (what, ids) in [
        ("missing", &missing),
        ("duplicated", &duplicated),
        ("incomplete", &incomplete),
    ] {
        if !ids.is_empty() {
            eprintln!("dlx cover: --merge: jobs {what}: {}", list(ids));
        }
    }
    let code = if !complete {
        eprintln!("dlx cover: --merge: the total is not final");
        exit::BUDGET
    } else if solutions > 0 {
        exit::FOUND
    } else {
        exit::NONE
    };
    out.finish("dlx cover", code)
}
