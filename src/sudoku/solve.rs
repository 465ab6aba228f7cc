//! The one entry point of the Sudoku layer: [`Sudoku`] solves any
//! [`Puzzle`] — classic or variant — under [`Limits`], by the search its
//! [`Settings`] ask for, on one thread or, for a lone puzzle too hard for
//! one, on several; [`solve`] is the same for one puzzle.
//!
//! What it owns, so that no front end repeats it:
//! * the matrices: the classic ones are built once per size for the whole
//!   process ([`Matrices::global`]), a variant's once per run of puzzles
//!   with the same rules (the latest rule set's is kept);
//! * the rule for a lone puzzle: with [`Sudoku::with_jobs`] above 1, a
//!   classic puzzle of side [`THREADS_FROM_SIDE`] or more whose search
//!   reaches lookahead is searched first on one thread as far as that search
//!   goes (an easy one is settled there in milliseconds), and what is left
//!   on every thread ([`solve_on_threads`]); smaller puzzles gain nothing
//!   from threads and take one; a variant puzzle, whatever its size, is
//!   searched on every thread (`DlxSudoku::solve_cells_on_threads`);
//! * the refusals, as [`SolveError`]s: an engine named that cannot take a
//!   size or the rule, rules whose matrix cannot be built, a baseline asked
//!   to solve a variant.
//!
//! Batches of puzzles on several threads, answers in input order: see
//! [`batch`](super::batch).

use std::fmt;
use std::sync::Arc;

use super::cover::{DlxSudoku, INTERSECTIONS, LOOKAHEAD_AFTER, VARIANT_INTERSECTIONS};
use super::grid::Grid;
use super::puzzle::Puzzle;
use super::rules::Rules;
use super::{solve_on_threads, Answer, Limits, Matrices, SolverKind, Solvers, SudokuSolver};
use crate::dlx::{BuildError, Config, EngineError, EngineKind, Intersections};
use crate::Branching;

/// The least side of a lone classic puzzle that [`Sudoku::with_jobs`]
/// spreads over threads: a minimal 25×25 can take minutes on one thread,
/// a 16×16 milliseconds.
pub const THREADS_FROM_SIDE: usize = 25;

/// How a [`Sudoku`] searches: the solver (DLX or a backtracking baseline)
/// and, for DLX, the engine, the branching rule, the switch to lookahead and
/// where to look for intersections. The default is the library's: DLX,
/// first-forced on the engine the library chooses, lookahead after 100,000
/// nodes without a solution, intersections where they pay (above the first
/// branch point on classic grids, `auto` on the others, at every node where
/// the search bounds a killer puzzle's derived sums, which starts over with
/// lookahead only when asked; [`intersections_searched`](Self::intersections_searched)
/// says which).
///
/// ```
/// use dlx::sudoku::{Settings, SolverKind};
/// use dlx::Branching;
///
/// let knuth = Settings::default().branching(Branching::Knuth);
/// assert_eq!(knuth.rule(), Branching::Knuth);
/// let mrv = Settings::default().solver(SolverKind::BacktrackMrv);
/// assert_eq!(mrv.solver, SolverKind::BacktrackMrv);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// DLX, or a backtracking baseline (classic grids only).
    pub solver: SolverKind,
    /// The engine named (`None`: the library's choice for the rule and the
    /// matrix).
    pub engine: Option<EngineKind>,
    /// The rule named (`None`: first-forced, or the named engine's own when
    /// it does not take first-forced).
    pub branching: Option<Branching>,
    /// Nodes without a new solution after which a puzzle's search starts
    /// over with lookahead (`None`: never). Searches that bound a killer
    /// puzzle's sums start over only where it was asked for
    /// (`lookahead_asked`): lookahead's probes do not bound sums.
    pub lookahead_after: Option<u64>,
    /// Whether `lookahead_after` was asked for ([`lookahead_after`](Self::lookahead_after)),
    /// not the default.
    pub lookahead_asked: bool,
    /// Where to look for intersections (`None`: the library's default for
    /// the rules).
    pub intersections: Option<Intersections>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            solver: SolverKind::Dlx,
            engine: None,
            branching: None,
            lookahead_after: Some(LOOKAHEAD_AFTER),
            lookahead_asked: false,
            intersections: None,
        }
    }
}

impl Settings {
    /// These settings with `solver`.
    pub fn solver(mut self, solver: SolverKind) -> Settings {
        self.solver = solver;
        self
    }

    /// These settings with the engine `engine` (`None`: the library's).
    pub fn engine(mut self, engine: Option<EngineKind>) -> Settings {
        self.engine = engine;
        self
    }

    /// These settings with the branching rule `branching`.
    pub fn branching(mut self, branching: Branching) -> Settings {
        self.branching = Some(branching);
        self
    }

    /// These settings, starting over with lookahead after `nodes` without a
    /// new solution (`None`: never).
    pub fn lookahead_after(mut self, nodes: Option<u64>) -> Settings {
        self.lookahead_after = nodes;
        self.lookahead_asked = true;
        self
    }

    /// These settings, looking for intersections where `looks` says.
    pub fn intersections(mut self, looks: Intersections) -> Settings {
        self.intersections = Some(looks);
        self
    }

    /// The rule searched with: the one named, else first-forced, or the
    /// named engine's own when it does not take first-forced.
    pub fn rule(&self) -> Branching {
        match (self.branching, self.engine) {
            (Some(b), _) => b,
            (None, Some(e)) => e.rule_preferring(Branching::FirstForced),
            (None, None) => Branching::FirstForced,
        }
    }

    /// The engine of the classic searches: the one named; else, where a
    /// depth of intersections is asked for, masks, the engine that looks
    /// where told (the library's choice for 9×9, bands, reduces locked
    /// candidates at every node); else the library's.
    fn classic_engine(&self) -> Option<EngineKind> {
        self.engine
            .or(self.intersections.map(|_| EngineKind::Masks))
    }

    /// Whether the DLX search of these settings looks for intersections
    /// at nodes where nothing is forced (so that asking for them means
    /// something): the engine named, else the library's choice for a
    /// Sudoku matrix (masks, which takes every size), with [`rule`](Self::rule).
    pub fn looks_for_intersections(&self) -> bool {
        self.engine
            .unwrap_or(EngineKind::Masks)
            .looks_for_intersections(self.rule())
    }

    /// Where a search of these settings looks for intersections, as a
    /// report names it: `None` for a baseline; depth 0 where the engine and
    /// rule do not look; else the depth named, or the library's own: above
    /// the first branch point on classic grids, `auto` on variants (at
    /// every node where nothing is forced on those whose search propagates
    /// sums).
    pub fn intersections_searched(&self, variant: bool) -> Option<Intersections> {
        if self.solver != SolverKind::Dlx {
            None
        } else if !self.looks_for_intersections() {
            Some(Intersections::Depth(0))
        } else if variant {
            Some(self.intersections.unwrap_or(VARIANT_INTERSECTIONS))
        } else {
            Some(self.intersections.unwrap_or(INTERSECTIONS))
        }
    }

    /// The core's configuration of the DLX searches.
    fn config(&self) -> Config {
        let config = Config::new().branching(self.rule());
        match self.engine {
            Some(e) => config.engine(e),
            None => config,
        }
    }

    /// Whether a lone big puzzle's search reaches lookahead (which the
    /// threads of [`Sudoku::with_jobs`] search): the library's engine, with
    /// lookahead from the start or after a search without it.
    fn reaches_lookahead(&self) -> bool {
        self.solver == SolverKind::Dlx
            && self.engine.is_none()
            && match self.rule() {
                Branching::Lookahead => true,
                Branching::FirstForced => self.lookahead_after.is_some(),
                _ => false,
            }
    }

    /// Why these settings cannot search at all, if they cannot: an engine
    /// named that does not take the rule.
    pub fn check(&self) -> Result<(), SolveError> {
        match self.engine {
            Some(e) if self.solver == SolverKind::Dlx => {
                e.check_rule(self.rule()).map_err(SolveError::Engine)
            }
            _ => Ok(()),
        }
    }
}

/// What a [`Sudoku`] found for a puzzle. As JSON (serde) it is one
/// object: the answer's fields, then `solution` (digits, row-major, or
/// `null`) and `engine` (its name, or `null`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Solved {
    /// The count, whether it is complete, what stopped it, the search's
    /// nodes and guesses.
    #[serde(flatten)]
    pub answer: Answer,
    /// The first solution, row-major (`None` when none was found).
    pub solution: Option<Vec<u8>>,
    /// The engine that searched (`None` for the baselines).
    pub engine: Option<EngineKind>,
}

/// Why a [`Sudoku`] cannot search a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolveError {
    /// The engine named cannot take this size or the rule.
    Engine(EngineError),
    /// The rules' matrix cannot be built.
    Rules(BuildError),
    /// A backtracking baseline was asked to solve a variant.
    Baseline(SolverKind),
    /// Intersections were asked for, and the engine searching this matrix
    /// does not look for them (masks alone does, first-forced).
    Intersections(EngineKind),
    /// The puzzle's source gives its solution ([`Puzzle::expected`]), and
    /// the search found another: the rules were misread or one was left
    /// out. The solution found, row-major.
    Misread(Vec<u8>),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Engine(e) => e.fmt(f),
            SolveError::Rules(e) => write!(f, "the rules' matrix cannot be built: {e}"),
            SolveError::Baseline(k) => write!(
                f,
                "the {} baseline takes classic grids only, not variants",
                k.name()
            ),
            SolveError::Intersections(e) => write!(
                f,
                "intersections: these rules' matrix is not for the masks engine, which alone looks ({e} searches it)"
            ),
            SolveError::Misread(_) => f.write_str(
                "the puzzle as read has a solution other than the one its source gives: a rule \
                 was misread or left out (one the rules text states, say), so no answer is given",
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// The solver of a run of variant puzzles with the same rules.
struct Variant {
    rules: Arc<Rules>,
    solver: Result<DlxSudoku<'static>, SolveError>,
}

/// A solver for any [`Puzzle`]: one thread's, or with
/// [`with_jobs`](Self::with_jobs) one lone puzzle's on several (see the
/// module documentation). Made once, it answers any number of puzzles; it
/// owns what it searches (`Send`, `'static`), so a front end can keep it.
///
/// ```
/// use dlx::sudoku::{format, Limits, Puzzle, Settings, Status, Sudoku};
/// use dlx::Cancel;
/// use std::time::{Duration, Instant};
///
/// let grid = format::parse_line(
///     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
/// ).unwrap();
/// let mut sudoku = Sudoku::new(Settings::default());
/// let cancel = Cancel::new(); // a Stop button's, say
/// let limits = Limits::count_to(2)
///     .deadline(Instant::now() + Duration::from_secs(10))
///     .cancel(&cancel);
/// let solved = sudoku.solve(&Puzzle::classic(&grid), &limits).unwrap();
/// assert_eq!(solved.answer.status(), Status::Unique);
/// assert_eq!(solved.solution.unwrap()[1], 1);
/// ```
pub struct Sudoku {
    settings: Settings,
    jobs: usize,
    classic: Solvers<'static>,
    variant: Option<Variant>,
}

impl fmt::Debug for Sudoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sudoku")
            .field("settings", &self.settings)
            .field("jobs", &self.jobs)
            .field("variant", &self.variant.as_ref().map(|v| v.rules.side()))
            .finish_non_exhaustive()
    }
}

impl Default for Sudoku {
    /// A solver with the library's [`Settings`], on one thread.
    fn default() -> Sudoku {
        Sudoku::new(Settings::default())
    }
}

impl Sudoku {
    /// A solver searching as `settings` say, on one thread.
    pub fn new(settings: Settings) -> Sudoku {
        let mut classic = Solvers::new(settings.solver, Matrices::global());
        if settings.solver == SolverKind::Dlx {
            classic.set_engine(settings.classic_engine());
            classic.set_branching(settings.rule());
            classic.set_lookahead_after(settings.lookahead_after);
            classic.set_intersections(settings.intersections.unwrap_or(INTERSECTIONS));
        }
        Sudoku {
            settings,
            jobs: 1,
            classic,
            variant: None,
        }
    }

    /// This solver, spreading a lone variant puzzle, or a lone big classic
    /// one, over `jobs` threads (see the module documentation; 1, the
    /// default, spawns no thread).
    pub fn with_jobs(mut self, jobs: usize) -> Sudoku {
        self.jobs = jobs.max(1);
        self
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Makes the solver of classic grids of box side `b` now (the first
    /// puzzle of that size does otherwise): the engine it searches with
    /// (`None` for a baseline, or a size without a matrix), or why the
    /// engine named cannot take the size.
    pub fn prepare(&mut self, box_side: usize) -> Result<Option<EngineKind>, SolveError> {
        self.classic.prepare(box_side).map_err(SolveError::Engine)?;
        Ok(self.classic.engine(box_side))
    }

    /// Solves `puzzle` within `limits`: counts its solutions up to
    /// `limits.solutions` and returns the first. Givens that clash have no
    /// solution (readers that report them check [`Grid::conflict`] first).
    pub fn solve(&mut self, puzzle: &Puzzle, limits: &Limits) -> Result<Solved, SolveError> {
        let solved = self.solve_as_read(puzzle, limits)?;
        match (&solved.solution, puzzle.expected()) {
            (Some(found), Some(expected)) if found[..] != expected[..] => {
                Err(SolveError::Misread(found.clone()))
            }
            _ => Ok(solved),
        }
    }

    fn solve_as_read(&mut self, puzzle: &Puzzle, limits: &Limits) -> Result<Solved, SolveError> {
        if let Some(grid) = puzzle.grid() {
            let mut solution = grid.clone();
            let answer = self.solve_grid(&grid, limits, &mut solution)?;
            return Ok(Solved {
                answer,
                solution: (answer.solutions > 0).then(|| solution.cells().to_vec()),
                engine: self.classic.engine(grid.box_side()),
            });
        }
        let jobs = self.jobs;
        let solver = self.variant_solver(puzzle)?;
        let mut cells = Vec::new();
        let answer = if jobs > 1 {
            solver.solve_cells_on_threads(puzzle.givens(), limits, jobs, &mut cells)
        } else {
            solver.solve_cells(puzzle.givens(), limits, &mut cells)
        };
        Ok(Solved {
            answer,
            solution: (answer.solutions > 0).then_some(cells),
            engine: Some(solver.engine()),
        })
    }

    /// The DLX solver of `puzzle`'s rules (not a classic grid's), made on
    /// first use and kept while puzzles of those rules come.
    fn variant_solver(&mut self, puzzle: &Puzzle) -> Result<&mut DlxSudoku<'static>, SolveError> {
        if self.settings.solver != SolverKind::Dlx {
            return Err(SolveError::Baseline(self.settings.solver));
        }
        let settings = self.settings;
        let fresh = self.variant.as_ref().is_none_or(|v| {
            !Arc::ptr_eq(&v.rules, puzzle.shared_rules()) && *v.rules != *puzzle.rules()
        });
        if fresh {
            // New rules: their matrix and solver, the old ones dropped first.
            self.variant = None;
            self.variant = Some(Variant {
                rules: puzzle.shared_rules().clone(),
                solver: variant_solver(puzzle.rules(), &settings),
            });
        }
        match &mut self.variant {
            Some(Variant {
                solver: Ok(solver), ..
            }) => Ok(solver),
            Some(Variant { solver: Err(e), .. }) => Err(e.clone()),
            None => Err(SolveError::Baseline(settings.solver)),
        }
    }

    /// Hands each solution of `puzzle` to `each`, as
    /// [`DlxSudoku::each_solution`] does, with the solver
    /// [`solve`](Self::solve) would search it with (the DLX solver of its
    /// size or rules, kept between calls): true when every solution was
    /// handed over; false when the search stopped first, or when no DLX
    /// solver searches the puzzle (the backtracking baselines).
    pub(crate) fn each_solution(
        &mut self,
        puzzle: &Puzzle,
        limits: &Limits,
        bounds: (u64, u64),
        each: impl FnMut(&[u8]),
    ) -> bool {
        let solver = match puzzle.grid() {
            Some(grid) if self.settings.solver == SolverKind::Dlx => {
                self.classic.dlx_for(grid.box_side())
            }
            Some(_) => None,
            None => self.variant_solver(puzzle).ok(),
        };
        solver.is_some_and(|s| s.each_solution(puzzle.givens(), limits, bounds, each))
    }

    /// [`solve`](Self::solve) for a classic [`Grid`], the first solution
    /// written into `solution` (left alone when there is none): the
    /// classic pipeline's way, with nothing allocated per puzzle.
    pub fn solve_grid(
        &mut self,
        grid: &Grid,
        limits: &Limits,
        solution: &mut Grid,
    ) -> Result<Answer, SolveError> {
        let b = grid.box_side();
        self.classic.prepare(b).map_err(SolveError::Engine)?;
        if self.jobs > 1 && grid.side() >= THREADS_FROM_SIDE && self.settings.reaches_lookahead() {
            return Ok(self.solve_alone(grid, limits, solution));
        }
        Ok(self.classic.solve(grid, limits, solution))
    }

    /// A lone big puzzle on `jobs` threads: one thread's search first where
    /// the rule searches without lookahead before, then the threads take what
    /// it left.
    fn solve_alone(&mut self, grid: &Grid, limits: &Limits, solution: &mut Grid) -> Answer {
        let first = match self.settings.rule() {
            Branching::FirstForced => self.classic.solve_before_lookahead(grid, limits, solution),
            _ => Err(Answer::default()),
        };
        match first {
            Ok(answer) => answer,
            Err(spent) => {
                let Some(cover) = Matrices::global().get(grid.box_side()) else {
                    return Answer::default();
                };
                let mut answer = solve_on_threads(cover, grid, limits, true, self.jobs, solution);
                answer.nodes += spent.nodes;
                answer.guesses += spent.guesses;
                answer
            }
        }
    }
}

/// The DLX solver of a variant's `rules` as `settings` ask.
fn variant_solver(rules: &Rules, settings: &Settings) -> Result<DlxSudoku<'static>, SolveError> {
    let matrix = Arc::new(rules.matrix().map_err(SolveError::Rules)?);
    let mut s = DlxSudoku::for_rules(matrix, settings.config()).map_err(SolveError::Engine)?;
    // A search that bounds sums keeps its own default (never) unless asked.
    if settings.lookahead_asked || !s.propagates() {
        s.set_lookahead_after(settings.lookahead_after);
    }
    let asked = settings.intersections;
    s.set_intersections(asked.unwrap_or(s.default_intersections()));
    if asked.is_some_and(Intersections::looks)
        && !s.engine().looks_for_intersections(settings.rule())
    {
        return Err(SolveError::Intersections(s.engine()));
    }
    Ok(s)
}
