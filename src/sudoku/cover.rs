//! Sudoku as exact cover: the 4·n²-item matrix and the DLX solver on it.
//!
//! For a grid of side `n = b²` the primary items are, in this order:
//! * `n²` cell items — cell (r, c) is filled;
//! * `n²` row items — row r has digit d;
//! * `n²` column items — column c has digit d;
//! * `n²` box items — box x has digit d;
//!
//! 324 items for 9×9. Option `(r·n + c)·n + (d − 1)` places digit d at
//! (r, c) and covers its four items. The matrix is built once per size
//! ([`SudokuMatrix`]) and shared; a puzzle's givens are *preselected*
//! ([`Solver::preselect_all`], which replaces the last puzzle's), and the
//! search runs, so nothing is built or allocated per puzzle. The layer names
//! no engine: the library picks one for the rule ([`Solver::with_config`]).
//!
//! The search branches first-forced; a puzzle that goes
//! [`LOOKAHEAD_AFTER`] nodes without a new solution starts over with
//! [`Branching::Lookahead`], which minimal
//! 25×25 puzzles need and easier ones never reach. That search, long by
//! then, runs on the *residual* matrix of the givens ([`Matrix::residual`]:
//! the items they leave open and the options that still fit), built for
//! the puzzle, as does a lookahead search from the first node on grids of
//! side [`RESIDUAL_FROM_SIDE`] or more.
//!
//! [`solve_on_threads`](super::solve_on_threads) (`threads.rs`) spreads
//! one puzzle over threads.

use super::grid::Grid;
use super::rules::{Form, Rules, RulesMatrix};
use super::threads::{on_residuals, preselecting, How, SUBTREES_PER_THREAD};
use super::{Answer, Limits, SudokuSolver};
use crate::dlx::BuildError;

use crate::dlx::share::Give;
use crate::dlx::{
    Branching, Config, EngineError, EngineKind, Intersections, Matrix, OptionId, Residual, Shared,
    Solver, Stats, Step, Stop,
};

/// Search nodes without a new solution after which a puzzle's search starts
/// over with [`Branching::Lookahead`] (the default of
/// [`DlxSudoku::set_lookahead_after`]). Counting a puzzle with many solutions
/// never switches while solutions keep coming.
/// Plain DLX answers 9×9 and 16×16 puzzles in hundreds of nodes (the hardest
/// 9×9 sets average 2,000-5,000), where lookahead costs 2-3× more time; a
/// minimal 25×25 puzzle takes plain DLX past 400 million nodes, and
/// lookahead tens of thousands. Starting over wastes at most this many nodes.
pub const LOOKAHEAD_AFTER: u64 = 100_000;

/// The exact-cover matrix of the empty grid of one size: the classic
/// rules of [`Rules::boxes`] with square boxes, the same mapping the
/// variants use, so classic Sudoku and its variants are one code.
#[derive(Debug)]
pub struct SudokuMatrix {
    box_side: usize,
    cover: RulesMatrix,
}

impl SudokuMatrix {
    /// Builds the matrix for box side `b` (see [`BOX_SIDES`](super::BOX_SIDES)).
    pub fn new(box_side: usize) -> Option<SudokuMatrix> {
        Grid::empty(box_side)?;
        let cover = Rules::boxes(box_side, box_side).ok()?.matrix().ok()?;
        Some(SudokuMatrix { box_side, cover })
    }

    /// The box side this matrix is for.
    pub fn box_side(&self) -> usize {
        self.box_side
    }

    /// The exact-cover matrix itself.
    pub fn matrix(&self) -> &Matrix {
        // A classic rule set has no lean matrix: the one searched is the
        // whole one.
        self.cover.searched()
    }

    /// The same matrix with its rules: what the variants' code takes.
    pub fn rules_matrix(&self) -> &RulesMatrix {
        &self.cover
    }

    /// The option placing digit `d` (1-based) at (r, c).
    pub fn option(&self, r: usize, c: usize, d: u8) -> OptionId {
        let n = self.box_side * self.box_side;
        self.cover.option(r * n + c, d)
    }
}

/// The DLX Sudoku solver for one rule set, over a shared [`SudokuMatrix`]
/// (classic) or [`RulesMatrix`] (any rules):
/// a [`Solver`] of the library's choice for the rule (first-forced by
/// default: the masks engine),
/// and, made the first time a puzzle needs it, a second one with
/// [`Branching::Lookahead`].
#[derive(Debug)]
pub struct DlxSudoku<'m> {
    cover: Shared<'m, RulesMatrix>,
    config: Config,
    solver: Solver<'m>,
    /// The lookahead solver, once needed, and the form of matrix it
    /// searches (as `searcher` made it).
    look: Option<(Solver<'m>, Form)>,
    /// The givens as options (reused: no allocation per puzzle).
    givens: Vec<OptionId>,
    /// Nodes after which the search starts over with lookahead.
    lookahead_after: Option<u64>,
    /// Where the search looks for intersections.
    intersections: Intersections,
    /// Whether the solver runs the matrix's propagator.
    propagates: bool,
    /// Which of the rule set's matrices `solver` searches: the lean one
    /// only where it runs the propagator, which enforces what that one
    /// leaves out ([`RulesMatrix`]).
    form: Form,
}

/// Where classic grids look for intersections
/// ([`DlxSudoku::set_intersections`]): above the first branch point,
/// measured in BENCHMARKS.md ("Intersections").
pub const INTERSECTIONS: Intersections = Intersections::Depth(1);

/// Where the other rule sets (variants) look for intersections: above the
/// first branch point, and below it while the looks pay; measured in
/// BENCHMARKS.md ("Intersections while they pay").
pub const VARIANT_INTERSECTIONS: Intersections = Intersections::Auto;

/// Where searches that propagate sums (killer puzzles) look for
/// intersections: at every node where nothing is forced. On TAREK_ALL,
/// with sum bounds, 9.5 s against 16 s for [`Intersections::Auto`]
/// (BENCHMARKS.md, "Sum bounds"): the propagator hides the options that
/// make the looks pay, so `Auto` judges them by too little.
pub const PROPAGATING_INTERSECTIONS: Intersections = Intersections::Depth(usize::MAX);

/// The least grid side whose puzzles, searched with lookahead from the
/// first node, are searched on the residual matrix of their givens: there
/// a search takes milliseconds or more, and the residual (1,400 items of
/// 2,500 on a minimal 25×25) makes each node cheaper (BENCHMARKS.md,
/// "The residual matrix"). A 9×9 or 16×16 puzzle is done in microseconds,
/// less than building its residual takes (about 36 and 150 µs).
pub const RESIDUAL_FROM_SIDE: usize = 25;

impl<'m> DlxSudoku<'m> {
    /// A solver over `cover`, first-forced, by the library's engine.
    pub fn new(cover: &'m SudokuMatrix) -> Self {
        let mut s = DlxSudoku::on_rules(cover.rules_matrix());
        s.set_intersections(INTERSECTIONS);
        s
    }

    /// A solver over the matrix of any rule set (variants), first-forced,
    /// by the library's engine; its puzzles are solved by
    /// [`solve_cells`](Self::solve_cells).
    pub fn on_rules(cover: impl Into<Shared<'m, RulesMatrix>>) -> Self {
        let cover = cover.into();
        // The library's engines for first-forced (masks, dense, links) run
        // every Sudoku rule set's propagator; were one refused, the whole
        // matrix by Knuth's rule, which runs none.
        let made = searcher(&cover, |m| Ok(Solver::with_rule(m, Branching::FirstForced)))
            .unwrap_or_else(|_| match matrix_of(&cover, Form::Whole) {
                Ok(whole) => (
                    Solver::with_rule(whole, Branching::Knuth),
                    Form::Whole,
                    false,
                ),
                // (A whole matrix past the builder's limits: links,
                // which takes every matrix and runs the propagator.)
                Err(_) => {
                    let form = if cover.has_lean() {
                        Form::Lean
                    } else {
                        Form::Whole
                    };
                    let mut s = Solver::with_rule(searched_of(&cover), Branching::FirstForced);
                    let propagates = s.set_propagator(cover.propagator_in(form)).is_ok();
                    (s, form, propagates)
                }
            });
        DlxSudoku::over(cover, Config::new().branching(Branching::FirstForced), made)
    }

    /// The solver over `cover` that `config` asked for, over the matrix of
    /// `form`, running the propagator or not (`searcher`).
    fn over(
        cover: Shared<'m, RulesMatrix>,
        config: Config,
        (solver, form, propagates): (Solver<'m>, Form, bool),
    ) -> Self {
        let primary = cover.searched().primary_count();
        let mut s = DlxSudoku {
            cover,
            config,
            solver,
            look: None,
            givens: Vec::with_capacity(primary),
            lookahead_after: Some(LOOKAHEAD_AFTER),
            intersections: Intersections::Depth(0),
            propagates,
            form,
        };
        s.set_intersections(s.default_intersections());
        // A search that propagates (killer sums, pair arcs, renban runs)
        // does not start over unless asked: the probes of lookahead do not propagate, and starting over
        // cost TAREK_ALL 45 s against 9.5 s (BENCHMARKS.md, "Sum bounds").
        if s.propagates {
            s.lookahead_after = None;
        }
        s
    }

    /// Where this solver looks for intersections unless told: at every
    /// node where nothing is forced when it propagates sums
    /// ([`PROPAGATING_INTERSECTIONS`]), else [`VARIANT_INTERSECTIONS`].
    pub fn default_intersections(&self) -> Intersections {
        if self.propagates {
            PROPAGATING_INTERSECTIONS
        } else {
            VARIANT_INTERSECTIONS
        }
    }

    /// Whether the search runs a propagator (the sum bounds of a killer
    /// puzzle's derived sums, pair arcs, renban runs; on the masks
    /// engine).
    pub fn propagates(&self) -> bool {
        self.propagates
    }

    /// A solver over `cover` as `config` asks (an engine, a rule), or why
    /// the engine cannot take this size or rule.
    pub fn with_config(cover: &'m SudokuMatrix, config: Config) -> Result<Self, EngineError> {
        let mut s = DlxSudoku::for_rules(cover.rules_matrix(), config)?;
        s.set_intersections(INTERSECTIONS);
        Ok(s)
    }

    /// A solver over the matrix of any rule set (variants), as `config`
    /// asks; its puzzles are solved by [`solve_cells`](Self::solve_cells).
    /// The matrix is borrowed, or shared (an `Arc<RulesMatrix>`: then the
    /// solver is `DlxSudoku<'static>`, and owns what it searches).
    pub fn for_rules(
        cover: impl Into<Shared<'m, RulesMatrix>>,
        config: Config,
    ) -> Result<Self, EngineError> {
        let cover = cover.into();
        let made = searcher(&cover, |m| Solver::with_config(m, config))?;
        Ok(DlxSudoku::over(cover, config, made))
    }

    /// The engine of the configured search.
    pub fn engine(&self) -> EngineKind {
        self.solver.engine()
    }

    /// Looks for intersections (locked candidates, in exact-cover terms: an
    /// item with two options left, both of which have another item, leaves
    /// that item's other options out) at the nodes where nothing is forced,
    /// where `looks` says (a number of branch points, or
    /// [`Intersections::Auto`]; `0` never), where the engine does (masks,
    /// the engine of first-forced). Classic grids get [`INTERSECTIONS`], the
    /// other rule sets [`VARIANT_INTERSECTIONS`]. The same answers, fewer
    /// guesses; nodes and guesses are the tree's. The library's engine for
    /// first-forced is masks wherever masks takes the matrix; with another
    /// engine (named, or for a matrix masks cannot take) nothing is looked
    /// for, and [`engine`](Self::engine) says so.
    pub fn set_intersections(&mut self, looks: impl Into<Intersections>) {
        self.intersections = looks.into();
        self.solver.set_intersections(self.intersections);
    }

    /// After how many search nodes without a new solution a puzzle's search
    /// starts over with [`Branching::Lookahead`] (`None`: never; default
    /// [`LOOKAHEAD_AFTER`], and never for a search that
    /// [`propagates`](Self::propagates)).
    /// Solutions found before are counted again, so counts stay exact.
    pub fn set_lookahead_after(&mut self, nodes: Option<u64>) {
        self.lookahead_after = nodes;
    }
}

/// The matrix of `form` of `cover`, borrowed or shared as `cover` is (the
/// whole one built if it was not).
fn matrix_of<'m>(
    cover: &Shared<'m, RulesMatrix>,
    form: Form,
) -> Result<Shared<'m, Matrix>, BuildError> {
    Ok(match cover {
        Shared::Borrowed(c) => Shared::Borrowed(&**c.matrix_in(form)?),
        Shared::Owned(c) => Shared::Owned(c.matrix_in(form)?.clone()),
    })
}

/// The matrix searches of `cover` take, borrowed or shared as `cover` is.
fn searched_of<'m>(cover: &Shared<'m, RulesMatrix>) -> Shared<'m, Matrix> {
    match cover {
        Shared::Borrowed(c) => Shared::Borrowed(&**c.searched()),
        Shared::Owned(c) => Shared::Owned(c.searched().clone()),
    }
}

/// `givens` (the cells' options, then the pins of the matrix of `from`)
/// for the matrix of `to`: the cell options are the same in both.
fn given_in<'g>(
    cover: &RulesMatrix,
    givens: &'g [OptionId],
    from: Form,
    to: Form,
) -> std::borrow::Cow<'g, [OptionId]> {
    if from == to {
        return givens.into();
    }
    let cells = &givens[..givens.len().saturating_sub(cover.pins_in(from).len())];
    cells.iter().chain(cover.pins_in(to)).copied().collect()
}

/// A solver `make` makes over `cover`: over the lean matrix where the rule
/// set has one and the solver runs its propagator (which enforces what
/// that matrix leaves out), else over the whole one, running the
/// propagator, if the rule set has one, with the rule set's strategy. By
/// Knuth's rule it runs none (DLX1's tree; over the whole matrix the
/// propagator is redundant, the answers are the same); an engine that runs
/// none with another rule is refused by name, never searched without it.
/// With the form searched and whether it propagates.
fn searcher<'m>(
    cover: &Shared<'m, RulesMatrix>,
    make: impl Fn(Shared<'m, Matrix>) -> Result<Solver<'m>, EngineError>,
) -> Result<(Solver<'m>, Form, bool), EngineError> {
    let mut refused = None;
    if cover.has_lean() {
        match make(searched_of(cover)) {
            Ok(mut solver) => {
                solver.set_strategy(cover.strategy());
                match solver.set_propagator(cover.propagator_in(Form::Lean)) {
                    Ok(()) => return Ok((solver, Form::Lean, true)),
                    Err(e) => refused = Some(e),
                }
            }
            Err(e) => refused = Some(e),
        }
    }
    // (Where there is no lean matrix the whole one is built; else the
    // lean one's refusal is said where the whole one cannot be built.)
    let whole = matrix_of(cover, Form::Whole)
        .map_err(|e| refused.unwrap_or_else(|| EngineError::matrix(EngineKind::Links, e)))?;
    let mut solver = make(whole)?;
    solver.set_strategy(cover.strategy());
    let Some(p) = cover.propagator_in(Form::Whole) else {
        return Ok((solver, Form::Whole, false));
    };
    match solver.set_propagator(Some(p)) {
        Ok(()) => Ok((solver, Form::Whole, true)),
        Err(_) if solver.branching() == Branching::Knuth => Ok((solver, Form::Whole, false)),
        Err(e) => Err(e),
    }
}

/// Writes the placements of `options` (of a matrix for side `n`) into
/// `out`, row-major; options past the cells' (killer cages' digit sets)
/// place nothing.
pub(super) fn place(n: usize, options: impl IntoIterator<Item = OptionId>, out: &mut [u8]) {
    // One 32-bit division per option (options are cell-major, n per cell):
    // a solution is written once per puzzle, and 64-bit divisions by a
    // variable showed in the profile of easy puzzles.
    let n = n as u32;
    for o in options {
        let k = o.as_usize() as u32;
        let cell = k / n;
        if let Some(slot) = out.get_mut(cell as usize) {
            *slot = (k - cell * n + 1) as u8;
        }
    }
}

/// Where a search writes its first solution: a [`Grid`], or row-major cells
/// of any side. Made the right size when the first solution is written, so
/// it is left alone when there is none.
pub trait Cells {
    /// The `n²` cells to write, resized for side `n` if need be.
    fn cells_for(&mut self, n: usize) -> &mut [u8];
}

impl Cells for Grid {
    fn cells_for(&mut self, n: usize) -> &mut [u8] {
        if self.side() != n {
            let b = (1..=n).find(|b| b * b == n).unwrap_or(0);
            if let Some(g) = Grid::empty(b) {
                *self = g;
            }
        }
        self.cells_mut()
    }
}

impl Cells for Vec<u8> {
    fn cells_for(&mut self, n: usize) -> &mut [u8] {
        self.resize(n * n, 0);
        self
    }
}

/// What [`drive`] needs of an engine.
pub(super) trait Search {
    fn set_limits(&mut self, limits: crate::dlx::Limits);
    fn next_solution(&mut self) -> Step;
    fn stopped(&self) -> Option<Stop>;
    fn nodes(&self) -> u64;
    fn write_solution(&self, n: usize, out: &mut [u8]);
}

macro_rules! search {
    ($t:ty) => {
        impl Search for $t {
            fn set_limits(&mut self, limits: crate::dlx::Limits) {
                <$t>::set_limits(self, limits);
            }
            fn next_solution(&mut self) -> Step {
                <$t>::next_solution(self)
            }
            fn stopped(&self) -> Option<Stop> {
                <$t>::stopped(self)
            }
            fn nodes(&self) -> u64 {
                self.stats().nodes
            }
            fn write_solution(&self, n: usize, out: &mut [u8]) {
                place(n, self.solution(), out);
            }
        }
    };
}
search!(Solver<'_>);

/// A search on the [`Residual`] matrix of a puzzle's givens: its solutions
/// are the givens and the residual's options, mapped back.
pub(super) struct OnResidual<'r> {
    pub(super) solver: Solver<'r>,
    pub(super) residual: &'r Residual,
    pub(super) givens: &'r [OptionId],
}

impl Search for OnResidual<'_> {
    fn set_limits(&mut self, limits: crate::dlx::Limits) {
        self.solver.set_limits(limits);
    }
    fn next_solution(&mut self) -> Step {
        self.solver.next_solution()
    }
    fn stopped(&self) -> Option<Stop> {
        self.solver.stopped()
    }
    fn nodes(&self) -> u64 {
        self.solver.stats().nodes
    }
    fn write_solution(&self, n: usize, out: &mut [u8]) {
        let found = self.solver.solution();
        let found = found.map(|o| self.residual.original_option(o));
        place(n, self.givens.iter().copied().chain(found), out);
    }
}

/// How the first search of a puzzle ([`DlxSudoku::first_phase`]) ended.
enum Phase {
    /// The answer is final.
    Done(Answer),
    /// The search is to start over with lookahead: what it found so far.
    Switch(Answer),
}

/// How a [`drive`] ended.
#[derive(PartialEq, Eq)]
enum Drive {
    /// The answer is final: the limit, the end of the search, the deadline
    /// or the cancel handle.
    Done,
    /// `switch_after` nodes went by without a new solution.
    Switch,
}

/// The core's limits of a puzzle's search under `limits`: its deadline and
/// cancel handle (the driver looks at them), no count.
pub(super) fn search_limits(limits: &Limits) -> crate::dlx::Limits {
    crate::dlx::Limits {
        deadline: limits.deadline,
        cancel: limits.cancel.clone(),
        ..crate::dlx::Limits::default()
    }
}

/// Runs a search (givens preselected) for a puzzle of side `n`, adding solutions to
/// `answer` up to the limit, the first written to `solution`, within the
/// deadline and cancel handle of `limits`; stops with [`Drive::Switch`]
/// after `switch_after` nodes without a new solution.
fn drive(
    s: &mut impl Search,
    n: usize,
    limits: &Limits,
    switch_after: Option<u64>,
    answer: &mut Answer,
    solution: &mut impl Cells,
) -> Drive {
    // A search that goes `switch_after` nodes without a solution (from its
    // start, or from its latest solution) stops to switch. A count that
    // keeps finding solutions never does.
    let phase_start = s.nodes();
    let mut stops = search_limits(limits);
    stops.budget.nodes = switch_after;
    s.set_limits(stops.clone());
    loop {
        match s.next_solution() {
            Step::Solution => {
                let last_found = s.nodes();
                answer.solutions += 1;
                if answer.solutions == 1 {
                    // Every cell is written: givens are preselected options.
                    s.write_solution(n, solution.cells_for(n));
                }
                if answer.solutions >= limits.solutions {
                    return Drive::Done;
                }
                if let Some(after) = switch_after {
                    // The node budget counts from the search's start.
                    stops.budget.nodes = Some((last_found - phase_start).saturating_add(after));
                    s.set_limits(stops.clone());
                }
            }
            Step::Exhausted => {
                answer.complete = true;
                return Drive::Done;
            }
            Step::Budget => match s.stopped() {
                Some(Stop::Deadline) => {
                    answer.timed_out = true;
                    return Drive::Done;
                }
                Some(Stop::Cancelled) => {
                    answer.cancelled = true;
                    return Drive::Done;
                }
                // The node budget: `switch_after` nodes without a solution.
                _ => return Drive::Switch,
            },
        }
    }
}

impl DlxSudoku<'_> {
    /// Solves the puzzle `givens` (row-major, 0 for an empty cell, the
    /// side of this solver's rules), counting solutions up to
    /// `limits.solutions` and writing the first into `solution` (left alone
    /// when there is none). Givens of the wrong size or past n, or that
    /// clash, have no solution.
    pub fn solve_cells(
        &mut self,
        givens: &[u8],
        limits: &Limits,
        solution: &mut impl Cells,
    ) -> Answer {
        let n = self.cover.rules().side();
        if givens.len() != n * n || givens.iter().any(|&d| d as usize > n) {
            return Answer {
                complete: limits.solutions > 0,
                ..Answer::default()
            };
        }
        self.solve_valid(givens, limits, solution)
    }

    /// Hands each solution of the puzzle `givens` (row-major digits, every
    /// cell) to `each`, in search order, within the deadline and cancel
    /// handle of `limits` and at most `nodes` search nodes: true when the
    /// search ended with every solution handed over, false when it stopped
    /// first, or past `most` solutions (those handed over are solutions;
    /// whether there are others is unknown). The first-forced search
    /// alone, never started over with lookahead: for a caller that asks a
    /// few solutions' worth of work and falls back to other questions
    /// (true candidates: [`candidates`](super::candidates)).
    pub(crate) fn each_solution(
        &mut self,
        givens: &[u8],
        limits: &Limits,
        (most, nodes): (u64, u64),
        mut each: impl FnMut(&[u8]),
    ) -> bool {
        let n = self.cover.rules().side();
        if givens.len() != n * n || givens.iter().any(|&d| d as usize > n) {
            return false;
        }
        self.set_givens(givens);
        if self.solver.preselect_all(&self.givens).is_err() {
            // Contradicting givens: no solution at all.
            return true;
        }
        let mut stops = search_limits(limits);
        stops.budget.nodes = Some(nodes);
        self.solver.set_limits(stops);
        let mut cells = vec![0u8; n * n];
        let mut found = 0u64;
        loop {
            match self.solver.next_solution() {
                Step::Solution => {
                    found += 1;
                    if found > most {
                        return false;
                    }
                    Search::write_solution(&self.solver, n, &mut cells);
                    each(&cells);
                }
                Step::Exhausted => return true,
                Step::Budget => return false,
            }
        }
    }

    /// [`solve_cells`](Self::solve_cells) on `jobs` threads, for one puzzle
    /// too hard for one (`threads.rs`): the same count, the same first
    /// solution where every solution is found (else one of those found), and
    /// the nodes and guesses of every thread's search. A first-forced search
    /// that propagates (or that never starts over) is shared out from its
    /// first node, each thread's solver made as this one is (engine, rule,
    /// propagator, strategy, intersections); one that starts over with
    /// lookahead runs on this thread up to the switch, then looks ahead on
    /// every thread; lookahead from the start, on every thread. The masks
    /// engine gives work away as threads ask; another engine's search is
    /// first cut into subtrees, which the threads share.
    pub(crate) fn solve_cells_on_threads(
        &mut self,
        givens: &[u8],
        limits: &Limits,
        jobs: usize,
        solution: &mut impl Cells,
    ) -> Answer {
        let n = self.cover.rules().side();
        if jobs <= 1 || givens.len() != n * n || givens.iter().any(|&d| d as usize > n) {
            return self.solve_cells(givens, limits, solution);
        }
        let rule = self.solver.branching();
        let how = How {
            per_thread: SUBTREES_PER_THREAD,
            give: Give::WhenAsked,
        };
        let lookahead = Config::new().branching(Branching::Lookahead);
        if rule == Branching::Lookahead {
            self.set_givens(givens);
            let whole = given_in(&self.cover, &self.givens, self.form, Form::Whole);
            return on_residuals(&self.cover, &whole, lookahead, limits, jobs, how, solution).0;
        }
        if rule == Branching::FirstForced && self.lookahead_after.is_some() {
            let spent = match self.first_phase(givens, limits, solution) {
                Phase::Done(answer) => return answer,
                Phase::Switch(answer) => answer,
            };
            let whole = given_in(&self.cover, &self.givens, self.form, Form::Whole);
            let (mut answer, _) =
                on_residuals(&self.cover, &whole, lookahead, limits, jobs, how, solution);
            answer.nodes += spent.nodes;
            answer.guesses += spent.guesses;
            if answer.timed_out || answer.cancelled {
                answer.solutions = answer.solutions.max(spent.solutions);
            }
            return answer;
        }
        self.preselecting(givens, limits, jobs, Give::WhenAsked, solution)
            .0
    }

    /// The puzzle `givens` on `jobs` threads, each piece preselected on top
    /// of them in a solver made as this one is, work given away as `give`
    /// says; with the pieces given away.
    fn preselecting(
        &mut self,
        givens: &[u8],
        limits: &Limits,
        jobs: usize,
        give: Give,
        solution: &mut impl Cells,
    ) -> (Answer, usize) {
        let n = self.cover.rules().side();
        self.set_givens(givens);
        let rule = self.solver.branching();
        let (cover, config, form) = (&self.cover, self.config.branching(rule), self.form);
        let intersections = self.intersections;
        let make = || {
            let (mut solver, made, _) = searcher(cover, |m| Solver::with_config(m, config)).ok()?;
            solver.set_intersections(intersections);
            // The givens are options of the matrix of `form`.
            (made == form).then_some(solver)
        };
        preselecting(n, &self.givens, make, limits, jobs, give, solution)
    }

    /// Keeps the options of the givens of `givens` (row-major) and the pins
    /// of the matrix searched in `self.givens`.
    fn set_givens(&mut self, givens: &[u8]) {
        self.givens.clear();
        for (k, &d) in givens.iter().enumerate() {
            if d != 0 {
                self.givens.push(self.cover.option(k, d));
            }
        }
        // The pin of the candidates the rules ban, preselected too.
        self.givens.extend_from_slice(self.cover.pins_in(self.form));
    }

    /// [`solve`](SudokuSolver::solve) up to where it would start over with
    /// lookahead (after `lookahead_after` nodes without a new solution, see
    /// [`set_lookahead_after`](Self::set_lookahead_after)): `Ok` with the
    /// answer when the search settled the puzzle before that (or when there
    /// is no such switch), `Err` with the nodes and guesses spent when not
    /// (solutions found are not counted, as the start over counts them
    /// again; `solution` may hold the first of them). For callers that
    /// search the hard part otherwise ([`solve_on_threads`](super::solve_on_threads)).
    pub fn solve_before_lookahead(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        solution: &mut Grid,
    ) -> Result<Answer, Answer> {
        if puzzle.side() != self.cover.rules().side() {
            return Ok(Answer::default());
        }
        match self.first_phase(puzzle.cells(), limits, solution) {
            Phase::Done(answer) => Ok(answer),
            Phase::Switch(answer) => Err(Answer {
                nodes: answer.nodes,
                guesses: answer.guesses,
                ..Answer::default()
            }),
        }
    }

    /// [`solve_cells`](Self::solve_cells) for givens known to be n² digits
    /// of 0..=n (a [`Grid`]'s).
    fn solve_valid(&mut self, givens: &[u8], limits: &Limits, solution: &mut impl Cells) -> Answer {
        let mut answer = match self.first_phase(givens, limits, solution) {
            Phase::Done(answer) => return answer,
            Phase::Switch(answer) => answer,
        };
        let n = self.cover.rules().side();
        // The search went on too long without a solution: start over with
        // lookahead, on the residual matrix of the givens (a search this
        // long would walk and copy their covered part at every node), or
        // where none can be made on the whole matrix, the givens
        // preselected. Solutions found before are valid, and counted again.
        let (nodes, guesses) = (answer.nodes, answer.guesses);
        let before = answer.solutions;
        answer.solutions = 0;
        let rule = Config::new().branching(Branching::Lookahead);
        let stats = match self.on_residual(rule, n, limits, &mut answer, solution) {
            Some(stats) => stats,
            None => {
                let look = match &mut self.look {
                    Some(look) => look,
                    None => {
                        // (Links looks ahead without a propagator: past 64
                        // options an item, the whole matrix without it.)
                        let made = searcher(&self.cover, |m| {
                            Ok(Solver::with_rule(m, Branching::Lookahead))
                        });
                        let made = match made {
                            Ok(made) => made,
                            Err(_) => match matrix_of(&self.cover, Form::Whole) {
                                Ok(whole) => {
                                    let s = Solver::with_rule(whole, Branching::Lookahead);
                                    (s, Form::Whole, false)
                                }
                                // Unknown, not "none".
                                Err(_) => {
                                    answer.solutions = before;
                                    answer.complete = false;
                                    return answer;
                                }
                            },
                        };
                        self.look.insert((made.0, made.1))
                    }
                };
                let givens = given_in(&self.cover, &self.givens, self.form, look.1);
                let look = &mut look.0;
                if look.preselect_all(&givens).is_err() {
                    answer.complete = true;
                    return answer;
                }
                drive(look, n, limits, None, &mut answer, solution);
                look.stats()
            }
        };
        if answer.timed_out || answer.cancelled {
            answer.solutions = answer.solutions.max(before);
        }
        answer.nodes = nodes + stats.nodes;
        answer.guesses = guesses + stats.guesses;
        answer
    }

    /// The search of [`solve_valid`](Self::solve_valid) until it ends or
    /// switches to lookahead: with lookahead from the first node on the
    /// residual matrix for large grids, else on the whole matrix with the
    /// givens preselected. Leaves the givens' options in `self.givens`.
    fn first_phase(&mut self, givens: &[u8], limits: &Limits, solution: &mut impl Cells) -> Phase {
        let mut answer = Answer::default();
        let n = self.cover.rules().side();
        if limits.solutions == 0 {
            return Phase::Done(answer);
        }
        self.set_givens(givens);
        let looking = self.solver.branching() == Branching::Lookahead;
        if looking && n >= RESIDUAL_FROM_SIDE {
            let config = self.config;
            if let Some(stats) = self.on_residual(config, n, limits, &mut answer, solution) {
                answer.nodes = stats.nodes;
                answer.guesses = stats.guesses;
                return Phase::Done(answer);
            }
        }
        let switch_after = self.lookahead_after.filter(|_| !looking);
        if self.solver.preselect_all(&self.givens).is_err() {
            // Contradicting givens: no solution (callers check first).
            answer.complete = true;
            return Phase::Done(answer);
        }
        let s = &mut self.solver;
        let d = drive(s, n, limits, switch_after, &mut answer, solution);
        answer.nodes = s.stats().nodes;
        answer.guesses = s.stats().guesses;
        match d {
            Drive::Done => Phase::Done(answer),
            Drive::Switch => Phase::Switch(answer),
        }
    }

    /// Searches the puzzle of `self.givens` with `config` on the
    /// [`Residual`] matrix of its givens ([`Matrix::residual`]), into
    /// `answer` and `solution` as [`drive`] does; returns the search's
    /// counters, or `None` when no residual or no solver for it can be made
    /// (givens that clash or fill the grid: the caller preselects them).
    fn on_residual(
        &self,
        config: Config,
        n: usize,
        limits: &Limits,
        answer: &mut Answer,
        solution: &mut impl Cells,
    ) -> Option<Stats> {
        // The whole matrix: a residual's items are renumbered, so no
        // propagator runs on it, and the givens' pins are the whole
        // matrix's.
        let givens = given_in(&self.cover, &self.givens, self.form, Form::Whole);
        let residual = self.cover.matrix().ok()?.residual(&givens).ok()?;
        let solver = Solver::with_config(residual.matrix(), config).ok()?;
        let mut look = OnResidual {
            solver,
            residual: &residual,
            givens: &givens,
        };
        drive(&mut look, n, limits, None, answer, solution);
        Some(look.solver.stats())
    }
}

impl SudokuSolver for DlxSudoku<'_> {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits, solution: &mut Grid) -> Answer {
        if puzzle.side() != self.cover.rules().side() {
            return Answer::default();
        }
        // A grid's cells are digits of 0..=n by construction.
        self.solve_valid(puzzle.cells(), limits, solution)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::rules::check;
    use crate::sudoku::{rule_line, Puzzle};

    /// A variant that propagates (killer cages: sum bounds, on the lean
    /// matrix), its pieces preselected and given away at every look with
    /// the conflict scores handed over (masks), or cut first (links,
    /// dense): the same count as one thread, a valid first solution, on one
    /// thread and three; and through the door the front ends take,
    /// [`Sudoku::solve`](crate::sudoku::Sudoku::solve) with jobs.
    #[test]
    fn a_variant_that_propagates_answers_as_one_search_on_threads() {
        let empty = ".".repeat(36);
        let texts = [
            format!(
                "1{} boxes=2x3 cage=7:R1C2,R1C3 cage=9:R2C1,R2C2,R3C1 cage=12:R4C4,R4C5,R5C4",
                &empty[1..]
            ),
            format!(
                "{empty} boxes=2x3 cage=3:R1C1,R1C2 cage=11:R6C5,R6C6 cage=10:R3C3,R3C4,R4C3,R4C4"
            ),
        ];
        let mut given = 0;
        for text in &texts {
            let (rules, givens) = rule_line::read(text).unwrap();
            let cover = rules.matrix().unwrap();
            let mut lone = DlxSudoku::on_rules(&cover);
            assert!(lone.propagates(), "{text}");
            let all = lone.solve_cells(&givens, &Limits::count_to(u64::MAX), &mut Vec::new());
            assert!(all.complete && all.solutions > 3, "{text}: {all:?}");
            // Masks gives work away; links and dense cut their tree first.
            let engines = [EngineKind::Masks, EngineKind::Links, EngineKind::Dense];
            for (engine, limit) in engines
                .iter()
                .flat_map(|&e| [(e, 1), (e, 3), (e, u64::MAX)])
            {
                let config = Config::new()
                    .engine(engine)
                    .branching(Branching::FirstForced);
                let mut one = DlxSudoku::for_rules(&cover, config).unwrap();
                assert!(one.propagates(), "{text}: {engine:?}");
                let limits = Limits::count_to(limit);
                for jobs in [1, 3] {
                    let what = format!("{text}: {engine:?}, limit {limit}, {jobs} jobs");
                    let mut cells = Vec::new();
                    let (got, pieces) =
                        one.preselecting(&givens, &limits, jobs, Give::Always, &mut cells);
                    assert_eq!(got.solutions, all.solutions.min(limit), "{what}");
                    assert_eq!(got.complete, limit > all.solutions, "{what}");
                    check(&rules, &givens, &cells).unwrap_or_else(|e| panic!("{what}: {e}"));
                    given += pieces;
                }
            }
            let puzzle = Puzzle::new(rules.clone(), givens.clone()).unwrap();
            let limits = Limits::count_to(u64::MAX);
            let mut sudoku = crate::sudoku::Sudoku::default().with_jobs(2);
            let threaded = sudoku.solve(&puzzle, &limits).unwrap();
            assert_eq!(threaded.answer.solutions, all.solutions, "{text}");
            assert!(threaded.answer.complete, "{text}");
            let cells = threaded.solution.unwrap();
            check(&rules, &givens, &cells).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
        assert!(given > 0);
    }
}
