//! `pydlx._core`: the dlx library for Python (PyO3). It parses what Python
//! hands it, calls the library, and turns the answer into Python objects;
//! the search, its limits and its threads are the library's.
//!
//! Invariants:
//! - Every search runs with the GIL released (`Python::detach`), on a
//!   solver of its own made from the problem's shared matrix, so that
//!   other Python threads run meanwhile and one `Problem` serves many.
//! - Ctrl-C works: a whole query (count, solve, best, …) runs on a worker
//!   thread while the calling thread waits, checking Python's signals
//!   every [`SIGNAL_POLL`]; on `KeyboardInterrupt` it cancels the search
//!   through the library's cancel handle, waits for it and raises. The
//!   iterator searches on the calling thread in slices of [`SLICE_NODES`]
//!   nodes or [`SLICE_UPDATES`] updates (the library's budget pauses and
//!   resumes a search), checking the signals between slices.
//! - A search stopped by its timeout raises `pydlx.SearchTimeout` with
//!   what it found: never a partial answer as if it were whole.

use dlx::sudoku::{self, Alphabet, Puzzle, Sudoku};
use dlx::{
    knuth, Best, Branching, Budget, Cancel, Config, EngineKind, Limits, Matrix, MatrixBuilder,
    Memo, MemoOrder, MemoStats, OptionId, Solver, Stats, Step,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rand::SeedableRng;
use std::collections::HashMap;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// How often a waiting caller looks at Python's signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);
/// The iterator's slice of search between looks at the signals.
const SLICE_NODES: u64 = 1 << 16;
const SLICE_UPDATES: u64 = 1 << 24;
/// The most solutions the iterator finds in one go (it starts at one and
/// doubles, so the first `next` costs one solution's search).
const MAX_BATCH: usize = 1024;

/// `ValueError` with a library error's message.
fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `pydlx.SearchTimeout(message, found, stats)` for a search's counters.
fn search_timeout(py: Python<'_>, found: Py<PyAny>, stats: Stats) -> PyErr {
    timeout_error(
        py,
        "the search ran out of time before its answer was known",
        found,
        PyStats::from(stats),
    )
}

/// `pydlx.SearchTimeout(message, found, stats)`, `stats` any Python object.
fn timeout_error<'py>(
    py: Python<'py>,
    message: &str,
    found: Py<PyAny>,
    stats: impl IntoPyObject<'py>,
) -> PyErr {
    let made = py
        .import("pydlx._errors")
        .and_then(|m| m.getattr("SearchTimeout"))
        .and_then(|cls| cls.call1((message, found, stats)));
    match made {
        Ok(err) => PyErr::from_value(err),
        Err(e) => e,
    }
}

/// Runs `work` on a worker thread while this one, the GIL released, waits
/// and looks at Python's signals; a `KeyboardInterrupt` (or any error a
/// signal handler raises) cancels the search through `cancel`, and is
/// returned once the worker has stopped.
fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &Cancel,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (value, interrupted) = py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel();
            scope.spawn(move || {
                let _ = tx.send(work());
            });
            let mut interrupted: Option<PyErr> = None;
            loop {
                match rx.recv_timeout(SIGNAL_POLL) {
                    Ok(value) => return (Some(value), interrupted),
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if interrupted.is_none() {
                            if let Err(e) = Python::attach(|py| py.check_signals()) {
                                cancel.cancel();
                                interrupted = Some(e);
                            }
                        }
                    }
                    // The worker ended without a value: it panicked, which
                    // the scope passes on when it joins.
                    Err(mpsc::RecvTimeoutError::Disconnected) => return (None, interrupted),
                }
            }
        })
    });
    if let Some(e) = interrupted {
        return Err(e);
    }
    value.ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("the search thread failed"))
}

/// The limits of one query: a timeout in seconds (refused when negative or
/// not a number) and the cancel handle Ctrl-C sets.
fn limits(timeout: Option<f64>, cancel: &Cancel) -> PyResult<Limits> {
    let mut limits = Limits::new().cancel(cancel);
    if let Some(d) = duration(timeout)? {
        limits = limits.timeout(d);
    }
    Ok(limits)
}

/// An int argument `name` that must be 0 or more (and fit `T`): a
/// `ValueError` naming it otherwise. (PyO3's own conversion of a negative
/// int to an unsigned one raises `OverflowError`, naming nothing.)
fn whole<T: TryFrom<i128>>(name: &str, value: i128) -> PyResult<T> {
    T::try_from(value).map_err(|_| {
        let why = if value < 0 {
            "must be 0 or more"
        } else {
            "is too large"
        };
        PyValueError::new_err(format!("{name} {why}, not {value}"))
    })
}

/// [`whole`] for an optional argument.
fn whole_or<T: TryFrom<i128>>(name: &str, value: Option<i128>) -> PyResult<Option<T>> {
    value.map(|v| whole(name, v)).transpose()
}

/// A Sudoku query's limits: a count to `n`, the timeout, the cancel handle.
fn sudoku_limits(n: u64, timeout: Option<f64>, cancel: &Cancel) -> PyResult<sudoku::Limits> {
    let mut limits = sudoku::Limits::count_to(n).cancel(cancel);
    if let Some(d) = duration(timeout)? {
        limits = limits.deadline(std::time::Instant::now() + d);
    }
    Ok(limits)
}

/// A timeout in seconds, refused when negative or not a number.
fn duration(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    timeout
        .map(|t| {
            Duration::try_from_secs_f64(t)
                .map_err(|_| PyValueError::new_err(format!("timeout must be seconds ≥ 0, not {t}")))
        })
        .transpose()
}

/// A seeded generator: `seed`, or one drawn from the clock.
fn rng(seed: Option<u64>) -> rand::rngs::StdRng {
    let seed = seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        t ^ (std::process::id() as u64).rotate_left(32)
    });
    rand::rngs::StdRng::seed_from_u64(seed)
}

fn indices(options: impl IntoIterator<Item = OptionId>) -> Vec<usize> {
    options.into_iter().map(OptionId::as_usize).collect()
}

/// The counters of the last search: Knuth's nodes and updates (DLX1's
/// `mems` aside), guesses (levels with two options or more), solutions.
#[pyclass(name = "Stats", module = "pydlx", frozen, get_all)]
#[derive(Clone)]
struct PyStats {
    nodes: u64,
    updates: u64,
    guesses: u64,
    solutions: u64,
    probes: u64,
    pruned: u64,
}

impl From<Stats> for PyStats {
    fn from(s: Stats) -> Self {
        PyStats {
            nodes: s.nodes,
            updates: s.updates,
            guesses: s.guesses,
            solutions: s.solutions,
            probes: s.probes,
            pruned: s.pruned,
        }
    }
}

#[pymethods]
impl PyStats {
    fn __repr__(&self) -> String {
        format!(
            "Stats(nodes={}, updates={}, guesses={}, solutions={}, probes={}, pruned={})",
            self.nodes, self.updates, self.guesses, self.solutions, self.probes, self.pruned
        )
    }
}

/// One estimated quantity over the probes: mean, standard error of the
/// mean, smallest and largest probe.
#[pyclass(name = "Spread", module = "pydlx", frozen, get_all)]
#[derive(Clone)]
struct PySpread {
    mean: f64,
    std_error: f64,
    min: f64,
    max: f64,
}

#[pymethods]
impl PySpread {
    fn __repr__(&self) -> String {
        format!(
            "Spread(mean={}, std_error={}, min={}, max={})",
            self.mean, self.std_error, self.min, self.max
        )
    }
}

impl From<dlx::Spread> for PySpread {
    fn from(s: dlx::Spread) -> Self {
        PySpread {
            mean: s.mean,
            std_error: s.std_error,
            min: s.min,
            max: s.max,
        }
    }
}

/// Knuth's estimate of the search tree (random probes): its solutions,
/// nodes and updates, and the mean depth of a probe.
#[pyclass(name = "Estimate", module = "pydlx", frozen, get_all)]
struct PyEstimate {
    probes: u64,
    solutions: PySpread,
    nodes: PySpread,
    updates: PySpread,
    depth: f64,
}

#[pymethods]
impl PyEstimate {
    fn __repr__(&self) -> String {
        format!(
            "Estimate(probes={}, solutions={}, nodes={}, updates={}, depth={})",
            self.probes,
            self.solutions.__repr__(),
            self.nodes.__repr__(),
            self.updates.__repr__(),
            self.depth
        )
    }
}

/// The work of the last memo count (`Problem.count_memo`): states entered,
/// options tried, children found in the table, states kept and evicted,
/// the table's largest size in bytes, how often the count started again
/// one width up, and the nodes written to a decision diagram (`zdd=`).
#[pyclass(name = "MemoStats", module = "pydlx", frozen, get_all)]
#[derive(Clone)]
struct PyMemoStats {
    states: u64,
    tried: u64,
    hits: u64,
    kept: u64,
    evicted: u64,
    table_bytes: u64,
    widened: u32,
    zdd_nodes: u64,
}

impl From<MemoStats> for PyMemoStats {
    fn from(s: MemoStats) -> Self {
        PyMemoStats {
            states: s.states,
            tried: s.tried,
            hits: s.hits,
            kept: s.kept,
            evicted: s.evicted,
            table_bytes: s.table_bytes,
            widened: s.widened,
            zdd_nodes: s.zdd_nodes,
        }
    }
}

#[pymethods]
impl PyMemoStats {
    fn __repr__(&self) -> String {
        format!(
            "MemoStats(states={}, tried={}, hits={}, kept={}, evicted={}, table_bytes={}, widened={}, zdd_nodes={})",
            self.states,
            self.tried,
            self.hits,
            self.kept,
            self.evicted,
            self.table_bytes,
            self.widened,
            self.zdd_nodes
        )
    }
}

/// A memo order by name: `first-item` or `knuth`.
fn memo_order_named(name: &str) -> PyResult<MemoOrder> {
    [MemoOrder::FirstItem, MemoOrder::Knuth]
        .into_iter()
        .find(|o| o.name() == name)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "no memo order `{name}`: the orders are first-item and knuth"
            ))
        })
}

/// A count of any size as a Python `int` (through its decimal digits).
fn big_int(py: Python<'_>, n: &dlx::BigCount) -> PyResult<Py<PyAny>> {
    match n.to_u64() {
        Some(small) => Ok(small.into_pyobject(py)?.into_any().unbind()),
        None => Ok(py
            .import("builtins")?
            .getattr("int")?
            .call1((n.to_string(),))?
            .unbind()),
    }
}

/// An item of an option as Python gives it: a name (`str`, maybe
/// `name:color` or a cost token `|n`) or an `int` (its decimal name).
fn item_text(item: &Bound<'_, PyAny>) -> PyResult<String> {
    if item.is_instance_of::<PyString>() {
        return item.extract::<String>();
    }
    if item.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(
            "an item is a str or an int, not a bool",
        ));
    }
    if let Ok(n) = item.extract::<i128>() {
        return Ok(n.to_string());
    }
    Err(PyTypeError::new_err(format!(
        "an item is a str or an int, not {}",
        item.get_type().name()?
    )))
}

/// A primary item as given: `name`, `v|name` (exactly v times) or
/// `u:v|name` (u to v times), as Knuth's item line writes DLX3's bounds.
fn bounded(spec: &str) -> PyResult<(&str, Option<(u32, u32)>)> {
    let Some((bounds, name)) = spec.split_once('|') else {
        return Ok((spec, None));
    };
    let number = |s: &str| {
        s.parse::<u32>()
            .map_err(|_| PyValueError::new_err(format!("bad multiplicity in {spec:?}")))
    };
    let (lo, hi) = match bounds.split_once(':') {
        Some((lo, hi)) => (number(lo)?, number(hi)?),
        None => {
            let v = number(bounds)?;
            (v, v)
        }
    };
    Ok((name, Some((lo, hi))))
}

/// One option: its items (name, color) and its cost (`|n` tokens).
struct OptionSpec {
    items: Vec<(String, Option<String>)>,
    cost: u64,
}

fn option_spec(option: &Bound<'_, PyAny>) -> PyResult<OptionSpec> {
    if option.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "an option is a list of items, not a str (write \"A B\".split())",
        ));
    }
    let mut spec = OptionSpec {
        items: Vec::new(),
        cost: 0,
    };
    for item in option.try_iter()? {
        let text = item_text(&item?)?;
        if let Some(n) = text.strip_prefix('|') {
            let n: u64 = n
                .parse()
                .map_err(|_| PyValueError::new_err(format!("bad cost token {text:?}")))?;
            spec.cost = spec.cost.saturating_add(n);
            continue;
        }
        match text.split_once(':') {
            Some((name, color)) => spec.items.push((name.to_owned(), Some(color.to_owned()))),
            None => spec.items.push((text, None)),
        }
    }
    Ok(spec)
}

fn names(list: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<String>>> {
    list.map(|l| l.try_iter()?.map(|i| item_text(&i?)).collect())
        .transpose()
}

/// The matrix of `options` with the items `primary` and `secondary` (see
/// `Problem`'s documentation for what is inferred when they are `None`).
fn build(
    options: &Bound<'_, PyAny>,
    primary: Option<&Bound<'_, PyAny>>,
    secondary: Option<&Bound<'_, PyAny>>,
) -> PyResult<Matrix> {
    let specs: Vec<OptionSpec> = options
        .try_iter()?
        .map(|o| option_spec(&o?))
        .collect::<PyResult<_>>()?;
    let (primary, secondary) = (names(primary)?, names(secondary)?);
    // Items in the order first met: the given lists, then the options.
    let mut seen: HashMap<String, bool> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut colored: HashMap<String, ()> = HashMap::new();
    for spec in &specs {
        for (name, color) in &spec.items {
            if !seen.contains_key(name) {
                seen.insert(name.clone(), false);
                order.push(name.clone());
            }
            if color.is_some() {
                colored.insert(name.clone(), ());
            }
        }
    }
    let mut b = MatrixBuilder::new();
    let declare_primary = |b: &mut MatrixBuilder, spec: &str| -> PyResult<()> {
        let (name, bounds) = bounded(spec)?;
        let id = b.primary(name).map_err(value_error)?;
        if let Some((lo, hi)) = bounds {
            b.set_bounds(id, lo, hi).map_err(value_error)?;
        }
        Ok(())
    };
    match (&primary, &secondary) {
        (None, None) => {
            // Items with a color are secondary (a color means nothing on a
            // primary item); every other item is primary.
            for name in order.iter().filter(|n| !colored.contains_key(*n)) {
                declare_primary(&mut b, name)?;
            }
            for name in order.iter().filter(|n| colored.contains_key(*n)) {
                b.secondary(name).map_err(value_error)?;
            }
        }
        // Lists given: they name every item (an item of the options in
        // neither is refused below, so that a typo is not taken for a
        // secondary item).
        (p, s) => {
            for spec in p.iter().flatten() {
                declare_primary(&mut b, spec)?;
            }
            for name in s.iter().flatten() {
                b.secondary(name).map_err(value_error)?;
            }
        }
    }
    for (k, spec) in specs.iter().enumerate() {
        if spec.items.is_empty() {
            return Err(PyValueError::new_err(format!(
                "option {k} has no item (an empty option covers nothing)"
            )));
        }
        let mut entries = Vec::with_capacity(spec.items.len());
        for (name, color) in &spec.items {
            let item = b.item(name).ok_or_else(|| {
                let lists = match (&primary, &secondary) {
                    (Some(_), Some(_)) => "in neither primary nor secondary",
                    (Some(_), None) => "not in primary (and no secondary list is given)",
                    _ => "not in secondary (and no primary list is given)",
                };
                PyValueError::new_err(format!("option {k} names {name:?}, {lists}"))
            })?;
            let color = color
                .as_deref()
                .map(|c| b.color(c))
                .transpose()
                .map_err(value_error)?;
            entries.push((item, color));
        }
        let id = b.colored_option(entries).map_err(value_error)?;
        if spec.cost != 0 {
            b.set_cost(id, spec.cost).map_err(value_error)?;
        }
    }
    b.build().map_err(value_error)
}

/// Reads the little-endian `i64`s of `bytes`.
fn int64s(bytes: &[u8]) -> Vec<i64> {
    bytes
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect()
}

/// A matrix from compressed sparse rows: row `r`'s columns are
/// `indices[indptr[r]..indptr[r + 1]]`; the last `secondary` columns are
/// secondary items.
fn from_csr(
    rows: usize,
    columns: usize,
    secondary: usize,
    indptr: &[i64],
    indices: &[i64],
) -> PyResult<Matrix> {
    if secondary > columns {
        return Err(PyValueError::new_err(format!(
            "secondary_columns={secondary}, but the matrix has {columns} columns"
        )));
    }
    if indptr.len() != rows + 1 {
        return Err(PyValueError::new_err(
            "indptr must have one entry per row, plus one",
        ));
    }
    let mut b = MatrixBuilder::new();
    if columns > secondary {
        b.primary_items(columns - secondary).map_err(value_error)?;
    }
    if secondary > 0 {
        b.secondary_items(secondary).map_err(value_error)?;
    }
    let mut items = Vec::new();
    for r in 0..rows {
        let (start, end) = (indptr[r], indptr[r + 1]);
        if start < 0 || end < start || end as usize > indices.len() {
            return Err(PyValueError::new_err(format!("row {r}: bad indptr")));
        }
        items.clear();
        for &c in &indices[start as usize..end as usize] {
            let c = usize::try_from(c)
                .ok()
                .filter(|&c| c < columns)
                .ok_or_else(|| {
                    PyValueError::new_err(format!("row {r}: column {c} out of range"))
                })?;
            items.push(dlx::ItemId::must(c));
        }
        b.option(&items).map_err(value_error)?;
    }
    b.build().map_err(value_error)
}

fn engine_named(name: Option<&str>) -> PyResult<Option<EngineKind>> {
    match name {
        None | Some("auto") => Ok(None),
        Some(n) => EngineKind::ALL
            .into_iter()
            .find(|e| e.name() == n)
            .map(Some)
            .ok_or_else(|| {
                let all: Vec<_> = EngineKind::ALL.iter().map(|e| e.name()).collect();
                PyValueError::new_err(format!("unknown engine {n:?}: auto, {}", all.join(", ")))
            }),
    }
}

fn rule_named(name: Option<&str>) -> PyResult<Option<Branching>> {
    let all = [
        Branching::Knuth,
        Branching::FirstForced,
        Branching::Lookahead,
    ];
    match name {
        None => Ok(None),
        Some(n) => all
            .into_iter()
            .find(|r| r.name() == n)
            .map(Some)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown rule {n:?}: knuth, first-forced, lookahead"
                ))
            }),
    }
}

/// An exact-cover problem: items (primary ones to be covered, secondary
/// ones at most once or in one color), options, maybe multiplicities and
/// costs. Queries make a solver of their own each, so one problem serves
/// many threads; `stats` holds the counters of the last query.
#[pyclass(name = "Problem", module = "pydlx", frozen)]
struct Problem {
    matrix: Arc<Matrix>,
    config: Config,
    last: Mutex<Stats>,
    engine: Mutex<Option<EngineKind>>,
    memo: Mutex<Option<MemoStats>>,
}

impl Problem {
    fn with(matrix: Matrix, engine: Option<&str>, rule: Option<&str>) -> PyResult<Problem> {
        let mut config = Config::new();
        if let Some(e) = engine_named(engine)? {
            config = config.engine(e);
        }
        if let Some(r) = rule_named(rule)? {
            config = config.branching(r);
        }
        let matrix = Arc::new(matrix);
        // Refuse an engine that cannot take the matrix now, not at the
        // first query.
        let s = Solver::with_config(matrix.clone(), config).map_err(value_error)?;
        Ok(Problem {
            engine: Mutex::new(Some(s.engine())),
            matrix,
            config,
            last: Mutex::new(Stats::default()),
            memo: Mutex::new(None),
        })
    }

    fn solver(&self, threads: usize) -> PyResult<Solver<'static>> {
        if threads == 0 {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        let s = Solver::with_config(self.matrix.clone(), self.config.jobs(threads))
            .map_err(value_error)?;
        Ok(s)
    }

    fn remember(&self, s: &Solver<'_>) {
        if let Ok(mut last) = self.last.lock() {
            *last = s.stats();
        }
        if let Ok(mut e) = self.engine.lock() {
            *e = Some(s.engine());
        }
    }
}

#[pymethods]
impl Problem {
    #[new]
    #[pyo3(signature = (options, primary=None, secondary=None, *, engine=None, rule=None))]
    fn new(
        options: &Bound<'_, PyAny>,
        primary: Option<&Bound<'_, PyAny>>,
        secondary: Option<&Bound<'_, PyAny>>,
        engine: Option<&str>,
        rule: Option<&str>,
    ) -> PyResult<Problem> {
        Problem::with(build(options, primary, secondary)?, engine, rule)
    }

    /// A problem in Knuth's text format (DLX1, DLX2's colors, DLX3's
    /// multiplicities, DLX5's costs).
    #[staticmethod]
    #[pyo3(signature = (text, *, engine=None, rule=None))]
    fn from_knuth(text: &str, engine: Option<&str>, rule: Option<&str>) -> PyResult<Problem> {
        let m = knuth::read(text.as_bytes()).map_err(value_error)?;
        Problem::with(m, engine, rule)
    }

    /// A problem from a matrix: a numpy array (boolean or 0/1; any nonzero
    /// entry is a node) or a scipy sparse matrix, rows the options and
    /// columns the items, the last `secondary_columns` of them secondary.
    /// Read without a Python-level loop (numpy does the work).
    #[staticmethod]
    #[pyo3(signature = (a, secondary_columns=0, *, engine=None, rule=None))]
    fn from_matrix(
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        secondary_columns: usize,
        engine: Option<&str>,
        rule: Option<&str>,
    ) -> PyResult<Problem> {
        let csr = py.import("pydlx._matrix")?.getattr("csr_of")?.call1((a,))?;
        let (rows, columns, indptr, indices): (usize, usize, Vec<u8>, Vec<u8>) = csr.extract()?;
        let (indptr, indices) = (int64s(&indptr), int64s(&indices));
        let m = py.detach(|| from_csr(rows, columns, secondary_columns, &indptr, &indices))?;
        Problem::with(m, engine, rule)
    }

    /// The problem in Knuth's text format.
    fn to_knuth(&self) -> PyResult<String> {
        let mut out = Vec::new();
        knuth::write(&self.matrix, &mut out).map_err(value_error)?;
        String::from_utf8(out).map_err(value_error)
    }

    #[getter]
    fn item_count(&self) -> usize {
        self.matrix.item_count()
    }

    #[getter]
    fn primary_count(&self) -> usize {
        self.matrix.primary_count()
    }

    #[getter]
    fn option_count(&self) -> usize {
        self.matrix.option_count()
    }

    /// The items' names, primary ones first.
    #[getter]
    fn items(&self) -> Vec<String> {
        (0..self.matrix.item_count())
            .map(|i| self.matrix.item_name(dlx::ItemId::must(i)).into_owned())
            .collect()
    }

    /// The engine of the last query (before any: the one chosen).
    #[getter]
    fn engine(&self) -> Option<&'static str> {
        self.engine
            .lock()
            .ok()
            .and_then(|e| e.map(EngineKind::name))
    }

    /// The branching rule the queries use.
    #[getter]
    fn rule(&self) -> &'static str {
        self.config.rule().name()
    }

    /// The counters of the last query.
    #[getter]
    fn stats(&self) -> PyStats {
        self.last
            .lock()
            .map(|s| PyStats::from(*s))
            .unwrap_or_else(|_| PyStats::from(Stats::default()))
    }

    /// The work of the last memo count (`count_memo`), or None before one.
    #[getter]
    fn memo_stats(&self) -> Option<PyMemoStats> {
        self.memo.lock().ok().and_then(|m| m.map(PyMemoStats::from))
    }

    /// The first solution (option indices, in the order chosen), or None.
    #[pyo3(signature = (*, timeout=None))]
    fn solve(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<Option<Vec<usize>>> {
        let cancel = Cancel::new();
        let mut s = self.solver(1)?;
        s.set_limits(limits(timeout, &cancel)?);
        let found = interruptible(py, &cancel, || s.first_solution());
        self.remember(&s);
        let found = found?;
        match found {
            Ok(sol) => Ok(sol.map(indices)),
            Err(_) => Err(search_timeout(
                py,
                0u64.into_pyobject(py)?.into_any().unbind(),
                s.stats(),
            )),
        }
    }

    /// The number of solutions, or `limit` when there are at least that
    /// many; counted on `threads` threads.
    #[pyo3(signature = (limit=None, *, threads=1, timeout=None))]
    fn count(
        &self,
        py: Python<'_>,
        limit: Option<i128>,
        threads: i128,
        timeout: Option<f64>,
    ) -> PyResult<u64> {
        let limit = whole_or("limit", limit)?.unwrap_or(u64::MAX);
        let cancel = Cancel::new();
        let mut s = self.solver(whole("threads", threads)?)?;
        s.set_limits(limits(timeout, &cancel)?);
        let c = interruptible(py, &cancel, || s.count_up_to(limit));
        self.remember(&s);
        let c = c?;
        if c.complete || c.solutions >= limit {
            Ok(c.solutions)
        } else {
            let found = c.solutions.into_pyobject(py)?.into_any().unbind();
            Err(search_timeout(py, found, s.stats()))
        }
    }

    /// The exact number of solutions, however large, counted with a memo of
    /// states (DXZ): what remains after some options are chosen depends only
    /// on the items they covered (and the colors and multiplicities set),
    /// so each such state is counted once. A search of its own: `order`
    /// picks the item to branch on (`first-item` or `knuth`), whatever the
    /// problem's engine and rule; `memory` caps the table in bytes (default
    /// 2 GiB; states are given up when it is full, never memory run out).
    /// With `auto`, the memo only where it pays (`dlx cover --memo=auto`):
    /// Knuth's estimate and a first run of the problem's own search
    /// forecast its count, the memo gets a sixteenth of that time, and the
    /// search (its engine and rule) counts where the memo does not finish;
    /// `memo_stats` is then the memo's last try, `stats` the search's.
    /// With `zdd` (a path), the decision diagram of all solutions is
    /// written there as `dlx cover --zdd` writes it (one thread, not with
    /// `auto`; a count that times out removes the file).
    #[pyo3(signature = (*, order="first-item", memory=None, threads=1, timeout=None, auto=false, zdd=None))]
    #[allow(clippy::too_many_arguments)]
    fn count_memo(
        &self,
        py: Python<'_>,
        order: &str,
        memory: Option<i128>,
        threads: i128,
        timeout: Option<f64>,
        auto: bool,
        zdd: Option<std::path::PathBuf>,
    ) -> PyResult<Py<PyAny>> {
        let memory: Option<usize> = whole_or("memory", memory)?;
        let threads: usize = whole("threads", threads)?;
        if threads == 0 {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        if zdd.is_some() && auto {
            return Err(PyValueError::new_err(
                "zdd= needs the memo's whole count: not with auto=True",
            ));
        }
        let cancel = Cancel::new();
        let memo = Memo::new()
            .order(memo_order_named(order)?)
            .memory(memory.unwrap_or(dlx::DEFAULT_MEMO_BYTES))
            .jobs(threads)
            .limits(limits(timeout, &cancel)?);
        let counted = if auto {
            let mut s = self.solver(threads)?;
            let c = interruptible(py, &cancel, || memo.count_or_search(&mut s));
            self.remember(&s);
            let c = c?.map_err(value_error)?;
            (c.solutions, c.complete, c.memo)
        } else if let Some(path) = zdd {
            let mut file = std::fs::File::create(&path)?;
            let matrix = self.matrix.clone();
            let c = interruptible(py, &cancel, || memo.zdd(&matrix, &mut file))?;
            if !c.as_ref().is_ok_and(|c| c.complete) {
                // No root: nothing a reader could use.
                let _ = std::fs::remove_file(&path);
            }
            let c = c.map_err(|e| match e {
                dlx::MemoError::ZddWrite { message, .. } => {
                    pyo3::exceptions::PyOSError::new_err(message)
                }
                e => value_error(e),
            })?;
            (c.solutions, c.complete, c.stats)
        } else {
            let matrix = self.matrix.clone();
            let c = interruptible(py, &cancel, || memo.count(&matrix))?.map_err(value_error)?;
            (c.solutions, c.complete, c.stats)
        };
        let (solutions, complete, stats) = counted;
        if let Ok(mut m) = self.memo.lock() {
            *m = Some(stats);
        }
        let n = big_int(py, &solutions)?;
        if complete {
            Ok(n)
        } else {
            Err(timeout_error(
                py,
                "the memo count ran out of time before its answer was known",
                n,
                PyMemoStats::from(stats),
            ))
        }
    }

    /// The `k` cheapest solutions as (cost, options), cheapest first.
    #[pyo3(signature = (k=1, *, threads=1, timeout=None))]
    fn best(
        &self,
        py: Python<'_>,
        k: i128,
        threads: i128,
        timeout: Option<f64>,
    ) -> PyResult<Vec<(u64, Vec<usize>)>> {
        let k: usize = whole("k", k)?;
        let cancel = Cancel::new();
        let mut s = self.solver(whole("threads", threads)?)?;
        s.set_limits(limits(timeout, &cancel)?);
        let Best {
            solutions,
            complete,
        } = {
            let best = interruptible(py, &cancel, || s.best(k));
            self.remember(&s);
            best?
        };
        let out: Vec<(u64, Vec<usize>)> = solutions
            .into_iter()
            .map(|c| (c.cost, indices(c.options)))
            .collect();
        if complete {
            Ok(out)
        } else {
            let found = out.into_pyobject(py)?.into_any().unbind();
            Err(search_timeout(py, found, s.stats()))
        }
    }

    /// Knuth's estimate of the search tree from `samples` random probes.
    #[pyo3(signature = (samples=1000, seed=None))]
    fn estimate(&self, py: Python<'_>, samples: i128, seed: Option<u64>) -> PyResult<PyEstimate> {
        let samples: u64 = whole("samples", samples)?;
        let cancel = Cancel::new();
        let mut s = self.solver(1)?;
        s.set_limits(limits(None, &cancel)?);
        let mut rng = rng(seed);
        let e = interruptible(py, &cancel, || s.estimate(samples, &mut rng));
        self.remember(&s);
        let e = e?;
        Ok(PyEstimate {
            probes: e.probes,
            solutions: e.solutions.into(),
            nodes: e.nodes.into(),
            updates: e.updates.into(),
            depth: e.depth,
        })
    }

    /// A random solution (not uniformly drawn: a complete search with the
    /// options in a random order), or None when there is none.
    #[pyo3(signature = (seed=None, *, timeout=None))]
    fn random_solution(
        &self,
        py: Python<'_>,
        seed: Option<u64>,
        timeout: Option<f64>,
    ) -> PyResult<Option<Vec<usize>>> {
        let cancel = Cancel::new();
        let limits = limits(timeout, &cancel)?;
        let mut rng = rng(seed);
        let config = self.config;
        let matrix = &self.matrix;
        let (found, stats) = interruptible(py, &cancel, move || {
            let shuffled = matrix.shuffled(&mut rng).map_err(|e| e.to_string())?;
            let (m, back) = shuffled.into_parts();
            let mut s = Solver::with_config(m, config).map_err(|e| e.to_string())?;
            s.set_limits(limits);
            let found = s.first_solution().map(|sol| {
                sol.map(|sol| {
                    sol.into_iter()
                        .map(|o| {
                            back.get(o.as_usize())
                                .map_or(o.as_usize(), |b| b.as_usize())
                        })
                        .collect::<Vec<_>>()
                })
            });
            Ok::<_, String>((found, s.stats()))
        })?
        .map_err(PyValueError::new_err)?;
        if let Ok(mut last) = self.last.lock() {
            *last = stats;
        }
        match found {
            Ok(sol) => Ok(sol),
            Err(_) => Err(search_timeout(
                py,
                0u64.into_pyobject(py)?.into_any().unbind(),
                stats,
            )),
        }
    }

    /// Every solution, lazily, up to `limit`; each a list of option
    /// indices in the order chosen.
    #[pyo3(signature = (limit=None))]
    fn solutions(slf: &Bound<'_, Self>, limit: Option<i128>) -> PyResult<Solutions> {
        let limit: Option<u64> = whole_or("limit", limit)?;
        let mut solver = slf.get().solver(1)?;
        solver.restart();
        Ok(Solutions {
            problem: slf.clone().unbind(),
            state: Mutex::new(Walk {
                solver,
                left: limit.unwrap_or(u64::MAX),
                found: Vec::new(),
                ends: Vec::new(),
                next: 0,
                batch: 1,
                done: false,
            }),
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Problem({} items ({} primary), {} options, engine={:?}, rule={:?})",
            self.matrix.item_count(),
            self.matrix.primary_count(),
            self.matrix.option_count(),
            self.engine().unwrap_or("auto"),
            self.rule()
        )
    }
}

/// The iterator's search, between calls.
struct Walk {
    solver: Solver<'static>,
    /// Solutions still to yield (the `limit`).
    left: u64,
    /// Solutions found, one after another (solution `k` is
    /// `found[ends[k - 1]..ends[k]]`): one buffer, not one `Vec` each.
    found: Vec<usize>,
    ends: Vec<usize>,
    /// The next of them to yield.
    next: usize,
    /// How many solutions the next search finds before returning.
    batch: usize,
    /// The search is exhausted (or the limit reached).
    done: bool,
}

impl Walk {
    /// Searches on, up to `batch` solutions or the end of a slice; whether
    /// the slice ended (the caller looks at the signals, then goes on).
    fn fill(&mut self) -> bool {
        let want = self.batch.min(self.left.min(MAX_BATCH as u64) as usize);
        self.found.clear();
        self.ends.clear();
        self.next = 0;
        let start = self.solver.stats();
        self.solver.set_budget(Budget {
            nodes: Some(start.nodes.saturating_add(SLICE_NODES)),
            updates: Some(start.updates.saturating_add(SLICE_UPDATES)),
        });
        while self.ends.len() < want {
            match self.solver.next_solution() {
                Step::Solution => {
                    let solution = self.solver.solution().map(OptionId::as_usize);
                    self.found.extend(solution);
                    self.ends.push(self.found.len());
                    self.left -= 1;
                    if self.left == 0 {
                        self.done = true;
                        return false;
                    }
                }
                Step::Exhausted => {
                    self.done = true;
                    return false;
                }
                Step::Budget => return true,
            }
        }
        self.batch = (self.batch * 2).min(MAX_BATCH);
        false
    }
}

/// The lazy iterator of `Problem.solutions`.
#[pyclass(name = "Solutions", module = "pydlx")]
struct Solutions {
    problem: Py<Problem>,
    state: Mutex<Walk>,
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyList>>> {
        // Not `lock`: a thread waiting here holds the GIL, which the thread
        // searching needs back to finish. Python's generators refuse the
        // same way.
        let mut walk = match self.state.try_lock() {
            Ok(walk) => walk,
            Err(std::sync::TryLockError::WouldBlock) => {
                return Err(PyValueError::new_err(
                    "the iterator is already running in another thread",
                ))
            }
            Err(std::sync::TryLockError::Poisoned(_)) => {
                return Err(PyValueError::new_err(
                    "the iterator failed in another thread",
                ))
            }
        };
        loop {
            if walk.next < walk.ends.len() {
                let k = walk.next;
                let start = if k == 0 { 0 } else { walk.ends[k - 1] };
                walk.next += 1;
                let list = PyList::new(py, &walk.found[start..walk.ends[k]])?;
                return Ok(Some(list.unbind()));
            }
            if walk.done || walk.left == 0 {
                self.problem.get().remember(&walk.solver);
                return Ok(None);
            }
            let walk_ref: &mut Walk = &mut walk;
            let sliced = py.detach(|| walk_ref.fill());
            if sliced {
                py.check_signals()?;
            }
        }
    }
}

/// The solution of a Sudoku as one line of symbols (digits to 9, then
/// letters), row-major.
fn line(side: usize, cells: &[u8]) -> String {
    let alphabet = Alphabet::default_for(side);
    cells.iter().map(|&d| alphabet.symbol(d)).collect()
}

fn puzzle(text: &str) -> PyResult<Puzzle> {
    text.parse::<Puzzle>().map_err(value_error)
}

/// Solves `puzzle` counting to `n` solutions, interruptibly; a timeout
/// raises with `found` the solutions found.
fn sudoku_run(
    py: Python<'_>,
    puzzle: &Puzzle,
    n: u64,
    threads: i128,
    timeout: Option<f64>,
) -> PyResult<sudoku::Solved> {
    let threads: usize = whole("threads", threads)?;
    if threads == 0 {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let cancel = Cancel::new();
    let limits = sudoku_limits(n, timeout, &cancel)?;
    let solved = interruptible(py, &cancel, || {
        Sudoku::default().with_jobs(threads).solve(puzzle, &limits)
    })?
    .map_err(value_error)?;
    if solved.answer.timed_out && solved.answer.solutions < n {
        let found = solved
            .answer
            .solutions
            .into_pyobject(py)?
            .into_any()
            .unbind();
        let stats = Stats {
            nodes: solved.answer.nodes,
            guesses: solved.answer.guesses,
            solutions: solved.answer.solutions,
            ..Stats::default()
        };
        return Err(search_timeout(py, found, stats));
    }
    Ok(solved)
}

#[pyfunction]
#[pyo3(signature = (text, *, threads=1, timeout=None))]
fn sudoku_solve(
    py: Python<'_>,
    text: &str,
    threads: i128,
    timeout: Option<f64>,
) -> PyResult<Option<String>> {
    let p = puzzle(text)?;
    let solved = sudoku_run(py, &p, 1, threads, timeout)?;
    Ok(solved.solution.map(|s| line(p.side(), &s)))
}

#[pyfunction]
#[pyo3(signature = (text, limit=None, *, threads=1, timeout=None))]
fn sudoku_count(
    py: Python<'_>,
    text: &str,
    limit: Option<i128>,
    threads: i128,
    timeout: Option<f64>,
) -> PyResult<u64> {
    let limit = whole_or("limit", limit)?.unwrap_or(u64::MAX);
    let p = puzzle(text)?;
    let solved = sudoku_run(py, &p, limit, threads, timeout)?;
    Ok(solved.answer.solutions)
}

#[pyfunction]
#[pyo3(signature = (text, *, threads=1, timeout=None))]
fn sudoku_check(
    py: Python<'_>,
    text: &str,
    threads: i128,
    timeout: Option<f64>,
) -> PyResult<&'static str> {
    let p = puzzle(text)?;
    // A search stopped first raised above: the status is a complete one.
    let solved = sudoku_run(py, &p, 2, threads, timeout)?;
    Ok(solved.answer.status().as_str())
}

#[pyfunction]
#[pyo3(signature = (text, *, timeout=None))]
fn sudoku_candidates(py: Python<'_>, text: &str, timeout: Option<f64>) -> PyResult<Vec<Vec<u32>>> {
    let p = puzzle(text)?;
    let cancel = Cancel::new();
    let limits = sudoku_limits(1, timeout, &cancel)?;
    let c = interruptible(py, &cancel, || {
        sudoku::candidates(&mut Sudoku::default(), &p, &limits)
    })?
    .map_err(value_error)?;
    // Digits as ints (a `Vec<u8>` would become `bytes`).
    let cells: Vec<Vec<u32>> = (0..p.side() * p.side())
        .map(|k| c.digits(k).into_iter().map(u32::from).collect())
        .collect();
    if !c.complete() {
        let found = cells.into_pyobject(py)?.into_any().unbind();
        return Err(search_timeout(py, found, Stats::default()));
    }
    Ok(cells)
}

/// Solves `text` by logic (`hint`: its next step alone), interruptibly, as
/// the library's JSON; a timeout raises with `found` the JSON so far.
fn sudoku_logic(py: Python<'_>, text: &str, timeout: Option<f64>, mode: Logic) -> PyResult<String> {
    let p = puzzle(text)?;
    let cancel = Cancel::new();
    let until = sudoku::explain::Until {
        deadline: duration(timeout)?.map(|d| std::time::Instant::now() + d),
        cancel: Some(cancel.clone()),
    };
    match mode {
        Logic::Hint => {
            let step = interruptible(py, &cancel, || sudoku::explain::hint(&p, &until))?
                .map_err(value_error)?;
            serde_json::to_string(&step).map_err(value_error)
        }
        Logic::Explain | Logic::Rate => {
            let e = interruptible(py, &cancel, || sudoku::explain::explain_until(&p, &until))?
                .map_err(value_error)?;
            let text = if mode == Logic::Rate {
                serde_json::to_string(&e.rating())
            } else {
                serde_json::to_string(&e)
            }
            .map_err(value_error)?;
            if e.stopped && !cancel.is_cancelled() {
                let found = text.clone().into_pyobject(py)?.into_any().unbind();
                return Err(timeout_error(
                    py,
                    "the solve by logic ran out of time",
                    found,
                    py.None(),
                ));
            }
            Ok(text)
        }
    }
}

/// Which of the logic engine's answers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Logic {
    Explain,
    Rate,
    Hint,
}

#[pyfunction]
#[pyo3(signature = (text, *, timeout=None))]
fn sudoku_explain(py: Python<'_>, text: &str, timeout: Option<f64>) -> PyResult<String> {
    sudoku_logic(py, text, timeout, Logic::Explain)
}

#[pyfunction]
#[pyo3(signature = (text, *, timeout=None))]
fn sudoku_rate(py: Python<'_>, text: &str, timeout: Option<f64>) -> PyResult<String> {
    sudoku_logic(py, text, timeout, Logic::Rate)
}

#[pyfunction]
#[pyo3(signature = (text, *, timeout=None))]
fn sudoku_hint(py: Python<'_>, text: &str, timeout: Option<f64>) -> PyResult<String> {
    sudoku_logic(py, text, timeout, Logic::Hint)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Problem>()?;
    m.add_class::<Solutions>()?;
    m.add_class::<PyStats>()?;
    m.add_class::<PyEstimate>()?;
    m.add_class::<PySpread>()?;
    m.add_class::<PyMemoStats>()?;
    m.add_function(wrap_pyfunction!(sudoku_solve, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_count, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_check, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_candidates, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_explain, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_rate, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_hint, m)?)?;
    Ok(())
}
