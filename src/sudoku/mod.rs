//! The Sudoku layer: puzzles (classic and variant) to exact cover and back.
//!
//! The way in: a [`Puzzle`] (rules plus givens; read by the one reader,
//! [`input`], from a grid line or rows, the variant text form, f-puzzles'
//! JSON, link or compressed string) and [`Sudoku`], the one
//! solver of puzzles, under [`Limits`] (a count, a deadline, a cancel
//! handle), a lone hard puzzle on threads; [`batch`] answers many on N
//! threads in input order. [`Settings`] choose DLX (an engine, a rule,
//! intersections) or a backtracking baseline ([`SolverKind`]). The layer is
//! thin: [`rules`] maps a puzzle to the core's matrix and a solution back
//! (classic grids: [`SudokuMatrix`]); all searching is the [core](crate)'s.
//! Every answer can be checked by [`check_solution`], which shares no code
//! with any solver.
//!
//! The public surface is these ways in and the readers and writers of
//! puzzles ([`input`], [`format`](mod@format), [`fpuzzles`], [`rule_line`]), the
//! constraints a rule set is built from ([`constraints`]) and the
//! generators ([`generate`]). How a grid becomes a matrix, the solvers one
//! by one, the threads' pool and the tuning constants are the crate's own:
//! they change with measurements, not with a user's code.
//!
//! ```
//! use dlx::sudoku::{Limits, Puzzle, Status, Sudoku};
//!
//! let puzzle: Puzzle =
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
//!         .parse()
//!         .unwrap();
//! let solved = Sudoku::default().solve(&puzzle, &Limits::count_to(2)).unwrap();
//! assert_eq!(solved.answer.status(), Status::Unique);
//! assert_eq!(solved.solution.unwrap()[2], 4);
//! ```

use std::sync::OnceLock;
use std::time::Instant;

use crate::dlx::{Cancel, Stop};

mod backtrack;
pub mod batch;
mod candidates;
pub mod constraints;
mod cover;
pub mod explain;
pub mod format;
pub mod fpuzzles;
pub mod generate;
mod grid;
pub mod input;
mod lzstring;
mod puzzle;
mod random;
pub mod rule_line;
pub mod rules;
mod solve;
pub mod sudokupad;
#[cfg(test)]
mod suite;
mod threads;

pub use crate::dlx::Intersections;
pub use candidates::{candidates, Candidates};
pub(crate) use cover::DlxSudoku;
pub use cover::SudokuMatrix;
pub use grid::{check_solution, Alphabet, Conflict, Grid, SolutionError, Unit, BOX_SIDES};
pub use puzzle::{GivensError, Puzzle, ReadError};
pub use random::{random_solution, Random};
pub use solve::{Settings, SolveError, Solved, Sudoku};
pub(crate) use threads::solve_on_threads;

/// Limits on solving one puzzle.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Stop after this many solutions (2 checks uniqueness).
    pub solutions: u64,
    /// Give up at this instant (the answer is then [`Status::Timeout`]).
    pub deadline: Option<Instant>,
    /// Give up once this handle is cancelled (the answer is then
    /// [`Status::Cancelled`]): another thread stops the search.
    pub cancel: Option<Cancel>,
}

impl Limits {
    /// Count up to `n` solutions, no deadline.
    pub fn count_to(n: u64) -> Limits {
        Limits {
            solutions: n,
            deadline: None,
            cancel: None,
        }
    }

    /// These limits, giving up at `deadline`.
    pub fn deadline(mut self, deadline: Instant) -> Limits {
        self.deadline = Some(deadline);
        self
    }

    /// These limits, giving up once `cancel` is cancelled.
    pub fn cancel(mut self, cancel: &Cancel) -> Limits {
        self.cancel = Some(cancel.clone());
        self
    }

    /// Whether the search must stop now: the handle cancelled or the
    /// deadline passed (for searches that look themselves: the baselines).
    pub(crate) fn stop(&self) -> Option<Stop> {
        if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
            return Some(Stop::Cancelled);
        }
        self.deadline
            .is_some_and(|d| Instant::now() >= d)
            .then_some(Stop::Deadline)
    }
}

/// What a solver found for one puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Answer {
    /// Solutions found (at most the limit).
    pub solutions: u64,
    /// Whether the search space was exhausted, so `solutions` is exact.
    pub complete: bool,
    /// Whether the deadline stopped the search.
    pub timed_out: bool,
    /// Whether the cancel handle stopped the search.
    pub cancelled: bool,
    /// Search-tree nodes (each solver counts its own kind of node).
    pub nodes: u64,
    /// Guesses: branch points, where two options or more were open (a cell
    /// with two candidates or more, for the backtracking baselines).
    pub guesses: u64,
}

/// What a puzzle turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Exactly one solution.
    Unique,
    /// At least two solutions.
    Multiple,
    /// No solution.
    None,
    /// Unreadable, or givens that break a rule.
    Invalid,
    /// The deadline passed first.
    Timeout,
    /// Solutions found up to a limit of 1, so uniqueness is unknown.
    Solved,
    /// The cancel handle stopped the search first.
    Cancelled,
}

impl Status {
    /// The word used in output: `unique`, `multiple`, `none`, `invalid`, …
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::None => "none",
            Status::Invalid => "invalid",
            Status::Timeout => "timeout",
            Status::Solved => "solved",
            Status::Cancelled => "cancelled",
        }
    }
}

impl Answer {
    /// The status this answer establishes.
    pub fn status(&self) -> Status {
        match (self.solutions, self.complete) {
            (0 | 1, false) if self.cancelled => Status::Cancelled,
            (0, _) if self.timed_out => Status::Timeout,
            (0, _) => Status::None,
            (1, true) => Status::Unique,
            (1, false) if self.timed_out => Status::Timeout,
            (1, false) => Status::Solved,
            _ => Status::Multiple,
        }
    }
}

/// A Sudoku solver: DLX, or a baseline.
pub(crate) trait SudokuSolver {
    /// Solves `puzzle`, counting solutions up to `limits.solutions` and
    /// writing the first into `solution` (left alone when there is none).
    ///
    /// The givens must not break a rule ([`Grid::conflict`] is `None`); a
    /// solver may answer anything for such a puzzle, but does not panic.
    fn solve(&mut self, puzzle: &Grid, limits: &Limits, solution: &mut Grid) -> Answer;
}

/// The DLX matrices of every size, built on first use and shared by threads.
#[derive(Debug, Default)]
pub(crate) struct Matrices {
    by_box_side: [OnceLock<Option<SudokuMatrix>>; 9],
}

impl Matrices {
    /// No matrix built yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The matrices of the whole process, built once each on first use
    /// ([`Sudoku`] searches them): immutable, so any thread and any solver
    /// may share them.
    pub fn global() -> &'static Matrices {
        static GLOBAL: OnceLock<Matrices> = OnceLock::new();
        GLOBAL.get_or_init(Matrices::new)
    }

    /// The matrix for box side `b`, built once.
    pub fn get(&self, box_side: usize) -> Option<&SudokuMatrix> {
        self.by_box_side
            .get(box_side)?
            .get_or_init(|| SudokuMatrix::new(box_side))
            .as_ref()
    }
}

/// Which solver a [`Sudoku`] runs ([`Settings::solver`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverKind {
    /// Dancing Links on the exact-cover matrix.
    Dlx,
    /// Row-major backtracking (POJ 2676 / LeetCode 37 textbook).
    Backtrack,
    /// Fewest candidates first, with hidden singles (POJ 3074 textbook).
    BacktrackMrv,
}

impl SolverKind {
    /// Every kind, in the order benchmarks list them.
    pub const ALL: [SolverKind; 3] = [
        SolverKind::Dlx,
        SolverKind::Backtrack,
        SolverKind::BacktrackMrv,
    ];

    /// The kind's name: `dlx`, `backtrack`, `backtrack-mrv`.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Dlx => "dlx",
            SolverKind::Backtrack => "backtrack",
            SolverKind::BacktrackMrv => "backtrack-mrv",
        }
    }

    /// The kind with this name.
    pub fn from_name(name: &str) -> Option<SolverKind> {
        SolverKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One solver of a kind for every grid size: the per-size solver is made on
/// first use. This is what a thread holds.
pub(crate) struct Solvers<'m> {
    kind: SolverKind,
    /// The engine named for the DLX solvers (`None`: the library's choice).
    engine: Option<crate::dlx::EngineKind>,
    branching: crate::dlx::Branching,
    lookahead_after: Option<u64>,
    intersections: crate::dlx::Intersections,
    matrices: &'m Matrices,
    dlx: Vec<Option<DlxSudoku<'m>>>,
    backtrack: Vec<Option<backtrack::Backtrack>>,
}

impl std::fmt::Debug for Solvers<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solvers")
            .field("kind", &self.kind)
            .field("engine", &self.engine)
            .field("branching", &self.branching)
            .field("lookahead_after", &self.lookahead_after)
            .finish_non_exhaustive()
    }
}

impl<'m> Solvers<'m> {
    /// Solvers of `kind`; DLX ones share `matrices`.
    pub fn new(kind: SolverKind, matrices: &'m Matrices) -> Self {
        Solvers {
            kind,
            engine: None,
            branching: crate::dlx::Branching::FirstForced,
            lookahead_after: Some(cover::LOOKAHEAD_AFTER),
            intersections: cover::INTERSECTIONS,
            matrices,
            dlx: (0..9).map(|_| None).collect(),
            backtrack: (0..9).map(|_| None).collect(),
        }
    }

    /// DLX solvers.
    #[cfg(test)]
    pub(crate) fn dlx(matrices: &'m Matrices) -> Self {
        Self::new(SolverKind::Dlx, matrices)
    }

    /// The kind's name (`dlx`, `backtrack`, `backtrack-mrv`).
    #[cfg(test)]
    pub(crate) fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// The branching rule of the DLX solvers (default
    /// [`Branching::FirstForced`](crate::dlx::Branching::FirstForced)), each
    /// searched by the library's engine for the rule.
    pub fn set_branching(&mut self, branching: crate::dlx::Branching) {
        self.branching = branching;
        // Made again, for the new rule, on first use.
        self.dlx.iter_mut().for_each(|s| *s = None);
    }

    /// The engine of the DLX solvers (`None`, the default: the library's
    /// choice for the rule and the size). An engine that cannot take a size
    /// or the rule makes [`prepare`](Self::prepare) fail for that size.
    pub fn set_engine(&mut self, engine: Option<crate::dlx::EngineKind>) {
        self.engine = engine;
        self.dlx.iter_mut().for_each(|s| *s = None);
    }

    /// The configuration of the DLX solvers.
    fn config(&self) -> crate::dlx::Config {
        let config = crate::dlx::Config::new().branching(self.branching);
        match self.engine {
            Some(e) => config.engine(e),
            None => config,
        }
    }

    /// Makes the solver for grids of box side `b` (done by the first
    /// [`solve`](SudokuSolver::solve) of that size otherwise): an error when
    /// the DLX engine named cannot take the size or the rule.
    pub fn prepare(&mut self, b: usize) -> Result<(), crate::dlx::EngineError> {
        if self.kind != SolverKind::Dlx || b >= self.dlx.len() || self.dlx[b].is_some() {
            return Ok(());
        }
        let Some(cover) = self.matrices.get(b) else {
            return Ok(());
        };
        let mut s = DlxSudoku::with_config(cover, self.config())?;
        s.set_lookahead_after(self.lookahead_after);
        s.set_intersections(self.intersections);
        self.dlx[b] = Some(s);
        Ok(())
    }

    /// The DLX solver for grids of box side `b`, made on first use; `None`
    /// for a size the engine named cannot take (nothing is known then:
    /// [`prepare`](Self::prepare) says why) or without a matrix.
    fn dlx_for(&mut self, b: usize) -> Option<&mut DlxSudoku<'m>> {
        self.prepare(b).ok()?;
        self.dlx.get_mut(b)?.as_mut()
    }

    /// The engine the DLX solver for box side `b` searches with, once made
    /// (by [`prepare`](Self::prepare) or a first solve); `None` for the
    /// baselines and sizes not met yet.
    pub fn engine(&self, b: usize) -> Option<crate::dlx::EngineKind> {
        self.dlx.get(b)?.as_ref().map(DlxSudoku::engine)
    }

    /// When the DLX solvers start a puzzle over with lookahead (see
    /// [`DlxSudoku::set_lookahead_after`]).
    pub fn set_lookahead_after(&mut self, nodes: Option<u64>) {
        self.lookahead_after = nodes;
        for s in self.dlx.iter_mut().flatten() {
            s.set_lookahead_after(nodes);
        }
    }
}

impl Solvers<'_> {
    /// [`DlxSudoku::solve_before_lookahead`] with the DLX solver of the
    /// puzzle's size: `Err` with the nodes and guesses spent where that
    /// search would start over with lookahead. The baselines never do: their
    /// answer is `Ok`.
    pub fn solve_before_lookahead(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        solution: &mut Grid,
    ) -> Result<Answer, Answer> {
        if self.kind != SolverKind::Dlx {
            return Ok(self.solve(puzzle, limits, solution));
        }
        match self.dlx_for(puzzle.box_side()) {
            Some(s) => s.solve_before_lookahead(puzzle, limits, solution),
            None => Ok(Answer::default()),
        }
    }

    /// Where the DLX solvers look for intersections (see
    /// [`DlxSudoku::set_intersections`]; default
    /// [`INTERSECTIONS`]).
    pub fn set_intersections(&mut self, looks: impl Into<crate::dlx::Intersections>) {
        self.intersections = looks.into();
        for s in self.dlx.iter_mut().flatten() {
            s.set_intersections(self.intersections);
        }
    }
}

impl SudokuSolver for Solvers<'_> {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits, solution: &mut Grid) -> Answer {
        let b = puzzle.box_side();
        match self.kind {
            SolverKind::Dlx => match self.dlx_for(b) {
                Some(s) => s.solve(puzzle, limits, solution),
                None => Answer::default(),
            },
            SolverKind::Backtrack | SolverKind::BacktrackMrv => {
                let mrv = self.kind == SolverKind::BacktrackMrv;
                self.backtrack[b]
                    .get_or_insert_with(|| backtrack::Backtrack::new(b, mrv))
                    .solve(puzzle, limits, solution)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_in_json_is_its_word_and_an_answer_every_field() {
        let all = [
            Status::Unique,
            Status::Multiple,
            Status::None,
            Status::Invalid,
            Status::Timeout,
            Status::Solved,
            Status::Cancelled,
        ];
        for status in all {
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, format!("\"{}\"", status.as_str()));
        }
        let answer = Answer {
            solutions: 2,
            complete: false,
            timed_out: true,
            cancelled: false,
            nodes: 7,
            guesses: 3,
        };
        assert_eq!(
            serde_json::to_string(&answer).unwrap(),
            r#"{"solutions":2,"complete":false,"timed_out":true,"cancelled":false,"nodes":7,"guesses":3}"#
        );
    }
}
