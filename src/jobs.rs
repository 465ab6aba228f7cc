//! Job lines: a count cut into jobs that anything running commands over
//! lines can run (GNU parallel, a Slurm array, Hadoop Streaming, Spark's
//! `RDD.pipe`, a Python pool), and their results added up to exactly what
//! one run finds. [`split`] cuts, a [`Runner`] runs a job, [`merge`] adds
//! results up; the lines are [`Summary`], [`Job`] and [`JobResult`], JSON
//! one object a line ([`Line::parse`] reads any of them, `serde_json`
//! writes them), the same format since `dlx cover --split` first wrote it.
//!
//! The lines:
//! * the split's summary: `{"split":FP,"engine":E,"branching":R,"depth":D,
//!   "jobs":N,"solutions":S,"nodes":..,"updates":..,"guesses":..,
//!   "estimate":..,"above":[{"after":K,"cost":C,"solution":[option lines]}]}`:
//!   the counters of the search above the cut, the solutions met there (each
//!   with the number of subtrees before it, for one run's order), and the
//!   jobs' estimated nodes in all;
//! * a job: `{"job":K,"fingerprint":FP,"engine":E,"branching":R,
//!   "estimate":..,"options":[ids],"items":[option lines]}`: the subtree
//!   below the options chosen above the cut, named by their ids *and* their
//!   items, with its nodes by Knuth's estimate; with multiplicities also
//!   `"excluded":[ids]`, the options tweaked above it, and `"retired":[item
//!   names]`, the items a null move ended there (see [`Subtree`]). Jobs are
//!   numbered in search order; [`split`] returns them largest estimate
//!   first, so that a runner taking lines in order starts the stragglers
//!   early;
//! * a result: `{"result":K,"fingerprint":FP,"solutions":..,"nodes":..,
//!   "updates":..,"guesses":..,"seconds":..,"complete":B,"timed_out":B}`,
//!   with a list `"list":[[option lines]]` (the job's solutions in search
//!   order) when asked, and with the k cheapest `"best_of":k,"best":[{"cost":
//!   ..,"options":[option lines]}]`, by the job's own branch and bound.
//!
//! `FP` is [`knuth::fingerprint`] of the matrix, in hex: a job is never run
//! against another matrix, nor with another engine or rule (its counters
//! would not add up). Unknown fields are passed over, so lines of a later
//! version with more fields still merge; a line without a field this one
//! needs is refused by name.
//!
//! The counters add up exactly: the cut pauses before a branch point, and a
//! job's search, after preselecting its options (excluding and retiring as
//! it says), is the subtree one search explores there; the summary's
//! counters plus each job's (counted after preselecting) are one run's.

use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::dlx::{
    knuth, Cheapest, Config, Cut, EngineError, ItemId, Limits, Matrix, OptionId, PreselectError,
    Solver, Step, Stop, Subtree,
};

/// The first line of a split: what was cut, and what the search above the
/// cut found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The matrix's fingerprint, in hex.
    pub split: String,
    /// The engine the jobs must run on.
    pub engine: String,
    /// The rule the jobs must run with.
    pub branching: String,
    /// The depth of the cut, in branch points.
    pub depth: usize,
    /// The number of jobs.
    pub jobs: u64,
    /// Solutions above the cut.
    pub solutions: u64,
    /// The counters of the search above the cut.
    pub nodes: u64,
    /// Updates above the cut.
    pub updates: u64,
    /// Guesses above the cut.
    pub guesses: u64,
    /// The jobs' nodes in all, by Knuth's estimate.
    #[serde(deserialize_with = "whole")]
    pub estimate: u64,
    /// The solutions above the cut, in search order.
    pub above: Vec<Above>,
}

/// A solution found above the cut.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Above {
    /// The number of subtrees (jobs) before it in search order.
    pub after: u64,
    /// Its cost (lines of an older format may have none).
    #[serde(default)]
    pub cost: Option<u64>,
    /// Its options, as option lines.
    pub solution: Vec<String>,
}

/// One job: a subtree of the search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// Its number, in search order.
    pub job: u64,
    /// The matrix's fingerprint, in hex.
    pub fingerprint: String,
    /// The engine it was cut for.
    pub engine: String,
    /// The rule it was cut for.
    pub branching: String,
    /// Its nodes, by Knuth's estimate.
    #[serde(deserialize_with = "whole")]
    pub estimate: u64,
    /// The options chosen above it, by id.
    pub options: Vec<u64>,
    /// The same options, as option lines (checked against the ids).
    pub items: Vec<String>,
    /// Options tweaked above it (multiplicities), by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub excluded: Vec<u64>,
    /// Items a null move ended above it (multiplicities), by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retired: Vec<String>,
}

/// What running a job found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// The job's number.
    pub result: u64,
    /// The matrix's fingerprint, in hex.
    pub fingerprint: String,
    /// Solutions found.
    pub solutions: u64,
    /// The job's counters (after preselecting its options).
    pub nodes: u64,
    /// Updates.
    pub updates: u64,
    /// Guesses.
    pub guesses: u64,
    /// Seconds it took.
    pub seconds: f64,
    /// Whether the whole subtree was searched.
    pub complete: bool,
    /// Whether its time limit stopped it.
    #[serde(default)]
    pub timed_out: bool,
    /// Its solutions in search order, as option lines, when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<Vec<Vec<String>>>,
    /// How many cheapest it kept, when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_of: Option<u64>,
    /// Its cheapest solutions, when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<Vec<CostedLines>>,
}

/// A solution with its cost, as option lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CostedLines {
    /// The solution's cost.
    pub cost: u64,
    /// Its options, as option lines.
    pub options: Vec<String>,
}

/// An estimate, written as a whole number: read from any number (lines of
/// earlier versions wrote a rounded float, `-0` among them).
fn whole<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let x = f64::deserialize(d)?;
    Ok(if x.is_finite() && x > 0.0 {
        x.round() as u64
    } else {
        0
    })
}

/// Any line of a split, a run or a merge.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Line {
    /// A split's summary.
    Summary(Summary),
    /// A job.
    Job(Job),
    /// A job's result.
    Result(JobResult),
}

impl Line {
    /// Reads a line: the whole line, or what follows a key and a tab before
    /// it (Hadoop Streaming hands a mapper `offset<TAB>line`, and writes a
    /// mapper's line back as `line<TAB>`), so the same lines run under any
    /// runner. The kind is told by its first key (`split`, `job`, `result`).
    pub fn parse(line: &str) -> Result<Line, JobError> {
        let text = object_of(line);
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| JobError::Malformed(e.to_string()))?;
        let kind = |e: serde_json::Error| JobError::Malformed(e.to_string());
        if value.get("split").is_some() {
            serde_json::from_value(value)
                .map(Line::Summary)
                .map_err(kind)
        } else if value.get("job").is_some() {
            serde_json::from_value(value).map(Line::Job).map_err(kind)
        } else if value.get("result").is_some() {
            serde_json::from_value(value)
                .map(Line::Result)
                .map_err(kind)
        } else {
            Err(JobError::Malformed(
                "neither a split summary, a job nor a result".into(),
            ))
        }
    }
}

/// The JSON object of a line (see [`Line::parse`]).
fn object_of(line: &str) -> &str {
    let line = line.trim();
    match line.find('{') {
        Some(at) if at > 0 && line[..at].ends_with('\t') => &line[at..],
        _ => line,
    }
}

/// Why a job cannot be run, or results not merged.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum JobError {
    /// The engine asked for cannot take the matrix or the rule.
    Engine(EngineError),
    /// Not a line of this format (the parser's words).
    Malformed(String),
    /// A job or result of another matrix.
    ForeignMatrix {
        /// The line's fingerprint.
        line: String,
        /// This matrix's.
        this: String,
    },
    /// A job cut for another engine or rule.
    ForeignSearch {
        /// The line's engine and rule.
        line: (String, String),
        /// This run's.
        this: (String, String),
    },
    /// A job whose options or items are not this matrix's.
    Subtree(String),
    /// The job's options cannot be preselected.
    Preselect(PreselectError),
    /// A merge that lacks what it was asked for (a list, the cheapest).
    Merge(String),
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JobError::Engine(e) => e.fmt(f),
            JobError::Malformed(why) => write!(f, "not a job line: {why}"),
            JobError::ForeignMatrix { line, this } => write!(
                f,
                "it is for another matrix (fingerprint {line}, this one's {this})"
            ),
            JobError::ForeignSearch { line, this } => write!(
                f,
                "it was cut for the {} engine and the {} rule, this run is {} and {}",
                line.0, line.1, this.0, this.1
            ),
            JobError::Subtree(why) => f.write_str(why),
            JobError::Preselect(e) => e.fmt(f),
            JobError::Merge(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for JobError {}

/// Updates after which [`split`] stops deepening its cut: the passes over
/// the top of the tree stay a small part of the work.
pub const SPLIT_UPDATES: u64 = 1 << 32;

/// Probes for the order of the jobs, over all of them: enough to tell a
/// subtree of millions of nodes from one of thousands, few enough that
/// estimating costs a small part of the split (on pentominoes 6×10, 16
/// probes for each of its 8,549 jobs at depth 3 took 7 s, three times the
/// search; a probe explores every child of each branch point on its path).
pub const SPLIT_PROBES: usize = 1 << 14;

/// The matrix's fingerprint as the lines write it.
fn fingerprint(matrix: &Matrix) -> String {
    format!("{:016x}", knuth::fingerprint(matrix))
}

/// Cuts the search `config` asks for on `matrix` at the shallowest depth
/// with `target` subtrees or more (or the whole tree, or where a pass costs
/// over [`SPLIT_UPDATES`]): the summary, and the jobs largest estimate first
/// (at least 2 and at most 16 probes a job, [`SPLIT_PROBES`] in all where
/// that allows; a fixed seed: the same split gives the same lines).
pub fn split(
    matrix: &Matrix,
    config: Config,
    target: u64,
) -> Result<(Summary, Vec<Job>), JobError> {
    let mut solver = Solver::with_config(matrix, config).map_err(JobError::Engine)?;
    let target = usize::try_from(target).unwrap_or(usize::MAX);
    // No deadline nor cancel handle: every pass of the cut runs whole.
    let cut = Cut::with_limit(&mut solver, target, SPLIT_UPDATES);
    let probes = (SPLIT_PROBES / cut.subtrees.len().max(1)).clamp(2, 16) as u64;
    let mut rng = StdRng::seed_from_u64(1);
    let estimates: Vec<f64> = cut
        .subtrees
        .iter()
        .map(|sub| match solver.preselect_subtree(sub) {
            // A subtree is a path of the search: entering it cannot fail.
            Ok(()) => solver.estimate(probes, &mut rng).nodes.mean,
            Err(_) => 0.0,
        })
        .collect();
    let (fp, engine, branching) = (
        fingerprint(matrix),
        solver.engine().name().to_string(),
        solver.branching().name().to_string(),
    );
    let lines = |os: &[OptionId]| os.iter().map(|&o| knuth::option_line(matrix, o)).collect();
    let ids = |os: &[OptionId]| os.iter().map(|o| o.as_usize() as u64).collect();
    let summary = Summary {
        split: fp.clone(),
        engine: engine.clone(),
        branching: branching.clone(),
        depth: cut.depth,
        jobs: cut.subtrees.len() as u64,
        solutions: cut.solutions.len() as u64,
        nodes: cut.above.nodes,
        updates: cut.above.updates,
        guesses: cut.above.guesses,
        estimate: estimates.iter().sum::<f64>().round() as u64,
        above: (cut.solutions.iter())
            .map(|(after, s)| Above {
                after: *after as u64,
                cost: Some(matrix.cost_of(s.iter().copied())),
                solution: lines(s),
            })
            .collect(),
    };
    let mut order: Vec<usize> = (0..cut.subtrees.len()).collect();
    order.sort_by(|&a, &b| estimates[b].total_cmp(&estimates[a]).then(a.cmp(&b)));
    let jobs = order
        .into_iter()
        .map(|k| {
            let sub = &cut.subtrees[k];
            Job {
                job: k as u64,
                fingerprint: fp.clone(),
                engine: engine.clone(),
                branching: branching.clone(),
                estimate: estimates[k].round() as u64,
                options: ids(&sub.options),
                items: lines(&sub.options),
                excluded: ids(&sub.excluded),
                retired: sub
                    .retired
                    .iter()
                    .map(|&i| matrix.item_name(i).to_string())
                    .collect(),
            }
        })
        .collect();
    Ok((summary, jobs))
}

/// What a job's run lists and within what it runs.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct RunOptions {
    /// List the job's solutions.
    pub list: bool,
    /// Keep the job's `k` cheapest, by branch and bound.
    pub best: Option<usize>,
    /// The limits of each job (its budget counted from the job's start).
    pub limits: Limits,
    /// Each job's time (`None`: none), counted from its start.
    pub timeout: Option<Duration>,
}

impl RunOptions {
    /// Counting only, no limit.
    pub fn new() -> RunOptions {
        RunOptions::default()
    }

    /// These options, listing each job's solutions.
    pub fn list(mut self, list: bool) -> RunOptions {
        self.list = list;
        self
    }

    /// These options, keeping each job's `k` cheapest.
    pub fn best(mut self, k: Option<usize>) -> RunOptions {
        self.best = k;
        self
    }

    /// These options, each job within `limits` and `timeout`.
    pub fn limits(mut self, limits: Limits, timeout: Option<Duration>) -> RunOptions {
        self.limits = limits;
        self.timeout = timeout;
        self
    }
}

/// Runs jobs of one matrix, with the engine and rule they were cut for.
#[derive(Debug)]
pub struct Runner<'m> {
    matrix: &'m Matrix,
    solver: Solver<'m>,
    fingerprint: String,
}

impl<'m> Runner<'m> {
    /// A runner of `matrix`'s jobs, searching as `config` asks.
    pub fn new(matrix: &'m Matrix, config: Config) -> Result<Runner<'m>, JobError> {
        let solver = Solver::with_config(matrix, config).map_err(JobError::Engine)?;
        Ok(Runner {
            matrix,
            solver,
            fingerprint: fingerprint(matrix),
        })
    }

    /// Whether a summary belongs to this matrix and search.
    pub fn check_summary(&self, summary: &Summary) -> Result<(), JobError> {
        self.check(&summary.split, &summary.engine, &summary.branching)
    }

    fn check(&self, fp: &str, engine: &str, branching: &str) -> Result<(), JobError> {
        if fp != self.fingerprint {
            return Err(JobError::ForeignMatrix {
                line: fp.to_string(),
                this: self.fingerprint.clone(),
            });
        }
        let this = (
            self.solver.engine().name().to_string(),
            self.solver.branching().name().to_string(),
        );
        if (engine, branching) != (this.0.as_str(), this.1.as_str()) {
            return Err(JobError::ForeignSearch {
                line: (engine.to_string(), branching.to_string()),
                this,
            });
        }
        Ok(())
    }

    /// The job's subtree, checked against the matrix: each option id
    /// exists, with the items the job names; each excluded id exists; each
    /// retired item is an item of the matrix.
    fn subtree(&self, job: &Job) -> Result<Subtree, JobError> {
        let matrix = self.matrix;
        let bad = |why: String| JobError::Subtree(why);
        if job.options.len() != job.items.len() {
            return Err(bad("as many options as items are needed".into()));
        }
        let option = |id: u64| {
            usize::try_from(id)
                .ok()
                .filter(|&o| o < matrix.option_count())
                .map(OptionId::must)
        };
        let mut prefix = Vec::with_capacity(job.options.len());
        for (&id, text) in job.options.iter().zip(&job.items) {
            let o = option(id)
                .ok_or_else(|| bad(format!("option {id} is not an option of this matrix")))?;
            let line = knuth::option_line(matrix, o);
            if *text != line {
                return Err(bad(format!(
                    "option {} is `{line}`, not {}",
                    o.as_usize(),
                    serde_json::Value::from(text.as_str())
                )));
            }
            prefix.push(o);
        }
        let mut sub = Subtree::of_options(&prefix);
        for &id in &job.excluded {
            let o = option(id).ok_or_else(|| {
                bad(format!(
                    "excluded option {id} is not an option of this matrix"
                ))
            })?;
            sub.excluded.push(o);
        }
        for name in &job.retired {
            let item = (0..matrix.item_count())
                .map(ItemId::must)
                .find(|&i| matrix.item_name(i).as_ref() == name.as_str())
                .ok_or_else(|| {
                    bad(format!(
                        "retired item {} is not an item of this matrix",
                        serde_json::Value::from(name.as_str())
                    ))
                })?;
            sub.retired.push(item);
        }
        Ok(sub)
    }

    /// Runs `job` as `opts` say: its result, or why it cannot be run (a job
    /// of another matrix, engine or rule, or whose options are not this
    /// matrix's). A job stopped by its limits is a result too, incomplete;
    /// [`stopped`](Self::stopped) says what stopped it.
    pub fn run(&mut self, job: &Job, opts: &RunOptions) -> Result<JobResult, JobError> {
        self.check(&job.fingerprint, &job.engine, &job.branching)?;
        let sub = self.subtree(job)?;
        let matrix = self.matrix;
        let s = &mut self.solver;
        let start = Instant::now();
        s.preselect_subtree(&sub).map_err(JobError::Preselect)?;
        let before = s.stats();
        let mut list = opts.list.then(Vec::new);
        let mut cheapest = opts.best.map(Cheapest::new);
        if cheapest.is_some() {
            s.bound_costs(true);
        }
        s.restart();
        let mut limits = opts.limits.clone();
        if let Some(t) = opts.timeout.filter(|t| !t.is_zero()) {
            limits = limits.timeout(t);
        }
        s.set_limits(limits);
        let (mut solutions, mut complete) = (0, false);
        loop {
            match s.next_solution() {
                Step::Solution => {
                    solutions += 1;
                    if let Some(list) = &mut list {
                        list.push(
                            s.solution()
                                .map(|o| knuth::option_line(matrix, o))
                                .collect(),
                        );
                    }
                    if let Some(c) = cheapest.as_mut() {
                        c.offer(matrix.cost_of(s.solution()), || s.solution().collect());
                        s.set_cost_limit(c.limit());
                    }
                }
                Step::Exhausted => break complete = true,
                Step::Budget => break,
            }
        }
        let stats = s.stats() - before;
        let stopped = s.stopped();
        s.set_limits(Limits::default());
        let seconds = (start.elapsed().as_secs_f64() * 1e6).round() / 1e6;
        let (best_of, best) = match (cheapest, opts.best) {
            (Some(c), Some(k)) => {
                let best = c.finish(complete);
                let lines = best.solutions.iter().map(|c| CostedLines {
                    cost: c.cost,
                    options: (c.options.iter())
                        .map(|&o| knuth::option_line(matrix, o))
                        .collect(),
                });
                (Some(k as u64), Some(lines.collect()))
            }
            _ => (None, None),
        };
        Ok(JobResult {
            result: job.job,
            fingerprint: self.fingerprint.clone(),
            solutions,
            nodes: stats.nodes,
            updates: stats.updates,
            guesses: stats.guesses,
            seconds,
            complete,
            timed_out: stopped == Some(Stop::Deadline),
            list,
            best_of,
            best,
        })
    }

    /// What stopped the last job run before its end, if its limits did.
    pub fn stopped(&self) -> Option<Stop> {
        self.solver.stopped()
    }
}

/// What [`merge`] asks of the results besides the count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MergeOptions {
    /// One run's solutions, in its order (the jobs must have listed theirs).
    pub list: bool,
    /// One run's `k` cheapest (the jobs must have kept `k` or more).
    pub best: Option<u64>,
}

impl MergeOptions {
    /// The count only.
    pub fn new() -> MergeOptions {
        MergeOptions::default()
    }

    /// These options, listing the solutions.
    pub fn list(mut self, list: bool) -> MergeOptions {
        self.list = list;
        self
    }

    /// These options, keeping the `k` cheapest.
    pub fn best(mut self, k: Option<u64>) -> MergeOptions {
        self.best = k;
        self
    }
}

/// The results added up: one run's answer when `complete`. As JSON (serde)
/// the list and the cheapest appear only when asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Merged {
    /// Solutions in all.
    pub solutions: u64,
    /// Nodes in all (the summary's and every job's).
    pub nodes: u64,
    /// Updates in all.
    pub updates: u64,
    /// Guesses in all.
    pub guesses: u64,
    /// The split's jobs.
    pub jobs: u64,
    /// No job missing, duplicated or incomplete: the total is final.
    pub complete: bool,
    /// Jobs with no result.
    pub missing: Vec<u64>,
    /// Jobs with more than one.
    pub duplicated: Vec<u64>,
    /// Jobs whose result is incomplete.
    pub incomplete: Vec<u64>,
    /// One run's solutions in its order, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list: Option<Vec<Vec<String>>>,
    /// One run's `k` cheapest, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<Vec<CostedLines>>,
}

/// Adds `results` up under `summary`: the count one run finds, with its
/// counters; the jobs missing, duplicated or incomplete named (the total is
/// then not final); one run's list or `k` cheapest when asked. A result of
/// another matrix or past the split's jobs, one run with `--best` merged
/// without it, or a list or cheapest asked for that the results lack, is an
/// error.
pub fn merge(
    summary: &Summary,
    results: impl IntoIterator<Item = JobResult>,
    opts: MergeOptions,
) -> Result<Merged, JobError> {
    let mut by_job: BTreeMap<u64, Vec<JobResult>> = BTreeMap::new();
    for r in results {
        by_job.entry(r.result).or_default().push(r);
    }
    let jobs = summary.jobs;
    let mut m = Merged {
        solutions: summary.solutions,
        nodes: summary.nodes,
        updates: summary.updates,
        guesses: summary.guesses,
        jobs,
        ..Merged::default()
    };
    for k in 0..jobs {
        let Some(rs) = by_job.get(&k) else {
            m.missing.push(k);
            continue;
        };
        if rs.len() > 1 {
            m.duplicated.push(k);
        }
        let r = &rs[0];
        if r.fingerprint != summary.split {
            return Err(JobError::Merge(format!("result {k} is of another matrix")));
        }
        if opts.best.is_none() && r.best_of.is_some() {
            // Branch and bound met only some solutions: no count to add.
            return Err(JobError::Merge(format!(
                "result {k} was run with --best (its solutions are those met, not all): merge with --best"
            )));
        }
        if !r.complete {
            m.incomplete.push(k);
        }
        m.solutions += r.solutions;
        m.nodes += r.nodes;
        m.updates += r.updates;
        m.guesses += r.guesses;
    }
    if let Some(k) = by_job.keys().find(|&&k| k >= jobs) {
        return Err(JobError::Merge(format!(
            "result {k} is not a job of this split ({jobs} jobs)"
        )));
    }
    m.complete = m.missing.is_empty() && m.duplicated.is_empty() && m.incomplete.is_empty();
    if opts.list {
        m.list = Some(solutions_in_order(summary, &by_job)?);
    }
    if let Some(k) = opts.best {
        m.best = Some(cheapest_in_order(summary, &by_job, k)?);
    }
    Ok(m)
}

/// The solutions of the summary (those above the cut) and of each job's
/// result, in one run's order: job `k`'s after the solutions above the cut
/// that came before subtree `k`. Missing jobs are passed over (the merge
/// says the total is not final); a result without its list is an error.
fn solutions_in_order(
    summary: &Summary,
    results: &BTreeMap<u64, Vec<JobResult>>,
) -> Result<Vec<Vec<String>>, JobError> {
    let mut listed = Vec::new();
    let mut above = summary.above.iter().peekable();
    for k in 0..=summary.jobs {
        while let Some(a) = above.next_if(|a| a.after <= k) {
            listed.push(a.solution.clone());
        }
        let Some(r) = results.get(&k).and_then(|rs| rs.first()) else {
            continue;
        };
        let Some(list) = &r.list else {
            return Err(JobError::Merge(format!(
                "result {k} lists no solutions: run the jobs with --all"
            )));
        };
        listed.extend(list.iter().cloned());
    }
    Ok(listed)
}

/// The `k` cheapest of the solutions above the cut and of each result's
/// cheapest, by cost and then by their place in one run's order, so that
/// ties go as one run's branch and bound breaks them. A result that kept
/// fewer than `k`, or none, is an error.
fn cheapest_in_order(
    summary: &Summary,
    results: &BTreeMap<u64, Vec<JobResult>>,
    k: u64,
) -> Result<Vec<CostedLines>, JobError> {
    // (cost, (2j or 2k + 1, index), solution)
    let mut all: Vec<(u64, (u64, u64), Vec<String>)> = Vec::new();
    for (i, a) in summary.above.iter().enumerate() {
        let Some(cost) = a.cost else {
            return Err(JobError::Merge(
                "the summary's solutions above the cut have no costs".into(),
            ));
        };
        all.push((cost, (2 * a.after, i as u64), a.solution.clone()));
    }
    for job in 0..summary.jobs {
        let Some(r) = results.get(&job).and_then(|rs| rs.first()) else {
            continue;
        };
        let (Some(of), Some(list)) = (r.best_of, &r.best) else {
            return Err(JobError::Merge(format!(
                "result {job} lists no cheapest: run the jobs with --best {k}"
            )));
        };
        if of < k {
            return Err(JobError::Merge(format!(
                "result {job} kept its {of} cheapest, fewer than {k}: run the jobs with --best {k}"
            )));
        }
        for (i, c) in list.iter().enumerate() {
            all.push((c.cost, (2 * job + 1, i as u64), c.options.clone()));
        }
    }
    all.sort_by_key(|(cost, rank, _)| (*cost, *rank));
    all.truncate(usize::try_from(k).unwrap_or(usize::MAX));
    Ok(all
        .into_iter()
        .map(|(cost, _, options)| CostedLines { cost, options })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::queens;

    #[test]
    fn split_run_and_merge_give_one_runs_count_and_counters() {
        let m = queens(8).unwrap();
        let (summary, jobs) = split(&m, Config::new(), 10).unwrap();
        assert!(jobs.len() >= 10);
        // The lines read back as they were written.
        let text = serde_json::to_string(&summary).unwrap();
        assert!(text.starts_with(r#"{"split":""#), "{text}");
        assert_eq!(Line::parse(&text).unwrap(), Line::Summary(summary.clone()));
        let mut runner = Runner::new(&m, Config::new()).unwrap();
        runner.check_summary(&summary).unwrap();
        let results: Vec<JobResult> = jobs
            .iter()
            .map(|j| {
                let line = format!("7\t{}", serde_json::to_string(j).unwrap());
                let Line::Job(j) = Line::parse(&line).unwrap() else {
                    panic!("{line}")
                };
                runner.run(&j, &RunOptions::new().list(true)).unwrap()
            })
            .collect();
        let merged = merge(&summary, results.clone(), MergeOptions::new().list(true)).unwrap();
        let mut one = Solver::new(&m);
        let count = one.count();
        assert_eq!(merged.solutions, count.solutions);
        assert_eq!(
            (merged.nodes, merged.updates),
            (one.stats().nodes, one.stats().updates)
        );
        assert!(merged.complete);
        assert_eq!(merged.list.unwrap().len(), 92);
        // A job missing is named, and the total is not final.
        let merged = merge(&summary, results[1..].to_vec(), MergeOptions::new()).unwrap();
        assert!(!merged.complete && merged.missing.len() == 1);
        // A job of another search is refused by name.
        let mut dense = Runner::new(&m, Config::new().engine(crate::EngineKind::Dense)).unwrap();
        let e = dense.run(&jobs[0], &RunOptions::new()).unwrap_err();
        assert!(matches!(e, JobError::ForeignSearch { .. }), "{e}");
        let mut other = jobs[0].clone();
        other.items[0] = "nonsense".into();
        assert!(matches!(
            runner.run(&other, &RunOptions::new()),
            Err(JobError::Subtree(_))
        ));
    }
}
