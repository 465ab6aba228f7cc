//! One puzzle on several threads, for a puzzle too hard for one: a
//! minimal 25×25 ([`solve_on_threads`]), a hard variant
//! ([`DlxSudoku::solve_on_threads`](super::DlxSudoku::solve_on_threads)).
//! Both are searched on the core's work-sharing pool (`dlx::share`): each
//! thread searches a *piece* of the search (options fixed on top of the
//! puzzle's givens), and a thread left without one is handed the untried
//! options of the shallowest branch point of a thread still searching.
//!
//! Two ways to search a piece:
//! * *on residuals* (classic, and lookahead): the search is first cut
//!   ([`Cut`]) on the residual matrix of the givens into subtrees,
//!   [`SUBTREES_PER_THREAD`] a thread where the tree has them, and each
//!   piece is searched on the residual matrix of its own givens (the
//!   puzzle's and the piece's), where a lookahead node costs a fraction of
//!   one on the whole matrix;
//! * *preselecting* (a variant's first-forced search, which runs the rule
//!   set's propagator on its own matrix): one solver a thread, made as a
//!   lone thread's is, each piece preselected on top of the givens; on the
//!   masks engine the search starts as one piece, the whole of it, and is
//!   shared out as the threads ask, each piece given away with the conflict
//!   scores of the search it came from; an engine that gives nothing away
//!   (links, dense) is cut first, as on residuals.
//!
//! Lookahead's and the propagator's pieces do not have the removals made
//! above them, so the pieces' nodes add up to more than one search's.

use super::cover::{place, search_limits, Cells};
use super::grid::Grid;
use super::rules::RulesMatrix;
use super::{Answer, Limits, SudokuMatrix};
use crate::dlx::share::{share, Give, Scores, Shared, Sharing, Start, Worker};
use crate::dlx::Matrix;
use crate::dlx::{Branching, Config, Cut, OptionId, Residual, Solver, Stats, Step, Stop};

/// Subtrees per thread that [`solve_on_threads`] cuts one puzzle into
/// before the threads start. Fewer than the exact-cover count's 64: with
/// lookahead every node above the cut is dear, and so is every piece's
/// first probing; the threads then share out what is left as they go.
pub const SUBTREES_PER_THREAD: usize = 16;

/// Nodes between two looks of a thread searching a piece for threads
/// waiting for work: first-forced nodes take a microsecond or less.
const SHARE_EVERY: u64 = 4096;
/// The same with lookahead, whose nodes cost far more.
const SHARE_EVERY_LOOKAHEAD: u64 = 32;

/// Solves one puzzle on `jobs` threads, for a puzzle too hard for one: its
/// search (with lookahead when `lookahead`, else first-forced, the same
/// rule in every piece) is cut into subtrees ([`Solver::split`]), each
/// searched as the puzzle with the subtree's placements added as givens;
/// threads left without a piece take a share of the work of those still
/// searching (see the module documentation). The answer is one search's:
/// the solutions of every piece are added up (to `limits.solutions`), the
/// first solution in search order is written to `solution`, and the
/// threads stop once the limit is reached or the deadline has passed.
/// `nodes` and `guesses` add up those above the cut and in every piece.
pub fn solve_on_threads(
    cover: &SudokuMatrix,
    puzzle: &Grid,
    limits: &Limits,
    lookahead: bool,
    jobs: usize,
    solution: &mut Grid,
) -> Answer {
    if puzzle.box_side() != cover.box_side() {
        return Answer::default();
    }
    let cover = cover.rules_matrix();
    let givens = options_of(cover, puzzle.cells());
    let rule = if lookahead {
        Branching::Lookahead
    } else {
        Branching::FirstForced
    };
    let config = Config::new().branching(rule);
    let how = How {
        per_thread: SUBTREES_PER_THREAD,
        give: Give::WhenAsked,
    };
    on_residuals(cover, &givens, config, limits, jobs, how, solution).0
}

/// How a search is shared out: the subtrees a thread the first cut aims
/// at, and when a thread gives work away.
#[derive(Clone, Copy, Debug)]
pub(super) struct How {
    pub(super) per_thread: usize,
    pub(super) give: Give,
}

/// The options of the givens of `cells` (row-major, 0 for an empty cell) in
/// `cover`'s matrices.
pub(super) fn options_of(cover: &RulesMatrix, cells: &[u8]) -> Vec<OptionId> {
    (cells.iter().enumerate())
        .filter(|&(_, &d)| d != 0)
        .map(|(k, &d)| cover.option(k, d))
        .collect()
}

/// The puzzle whose givens are `base` (options of `cover`'s whole matrix,
/// its pins included) on `jobs` threads, searched with `config` on
/// residual matrices: cut on the residual of `base`, each piece searched
/// on the residual of its own givens; the answer, with the first solution
/// written to `solution`, and the pieces given away.
pub(super) fn on_residuals(
    cover: &RulesMatrix,
    base: &[OptionId],
    config: Config,
    limits: &Limits,
    jobs: usize,
    how: How,
    solution: &mut impl Cells,
) -> (Answer, usize) {
    if limits.solutions == 0 {
        return (Answer::default(), 0);
    }
    let n = cover.rules().side();
    // Unknown, not "none", where the whole matrix cannot be built.
    let Ok(whole) = cover.matrix() else {
        return (Answer::default(), 0);
    };
    let cut = match cut(whole, base, config, limits, how.per_thread * jobs.max(1)) {
        Ok(cut) => cut,
        // Contradicting givens (callers check first).
        Err(NoCut::Clash) => return no_solution(),
        // Unknown, not "none".
        Err(NoCut::NoSolver) => return (Answer::default(), 0),
    };
    if let Some(stop) = cut.stopped {
        return (stopped(stop, cut.above), 0);
    }
    let above = cut.above;
    let start = start_of(cut, n);
    let every = match config.rule() {
        Branching::Lookahead => SHARE_EVERY_LOOKAHEAD,
        _ => SHARE_EVERY,
    };
    let sharing = Sharing {
        every,
        give: how.give,
    };
    let make = || {
        Some(OnResiduals {
            whole,
            n,
            base,
            config,
            limits: search_limits(limits),
            piece: Vec::new(),
            search: None,
            pause: 0,
        })
    };
    let shared = share(jobs, start, limits.solutions, sharing, make);
    answered(shared, above, n, solution)
}

/// The puzzle whose givens are `base` (options of the matrix the solvers
/// search, its pins included) on `jobs` threads, each piece preselected on
/// top of them in a solver `make` makes (one a thread, as a lone thread's
/// is: the same engine, rule, propagator and strategy). The search starts
/// whole where the engine gives work away as threads ask (masks); another
/// engine's is first cut into [`SUBTREES_PER_THREAD`] subtrees a thread.
/// The answer, with the first solution written to `solution`, and the
/// pieces given away.
pub(super) fn preselecting<'m>(
    n: usize,
    base: &[OptionId],
    make: impl Fn() -> Option<Solver<'m>> + Sync,
    limits: &Limits,
    jobs: usize,
    give: Give,
    solution: &mut impl Cells,
) -> (Answer, usize) {
    if limits.solutions == 0 {
        return (Answer::default(), 0);
    }
    let sharing = Sharing {
        every: SHARE_EVERY,
        give,
    };
    let (mut start, mut above) = (Start::whole(), Stats::default());
    if let Some(mut splitter) = make().filter(|s| !s.gives_away()) {
        splitter.set_limits(search_limits(limits));
        if splitter.preselect_all(base).is_err() {
            // Contradicting givens.
            return no_solution();
        }
        let cut = Cut::new(&mut splitter, SUBTREES_PER_THREAD * jobs.max(1));
        if let Some(stop) = cut.stopped {
            return (stopped(stop, cut.above), 0);
        }
        above = cut.above;
        start = start_of(cut, n);
    }
    let make = || {
        let mut solver = make()?;
        solver.set_limits(search_limits(limits));
        Some(Preselecting {
            solver,
            base,
            n,
            options: Vec::new(),
            limits: search_limits(limits),
            pause: 0,
        })
    };
    let shared = share(jobs, start, limits.solutions, sharing, make);
    answered(shared, above, n, solution)
}

/// The answer of what the threads shared, `above` the counters of the cut.
fn answered(
    shared: Shared<Vec<u8>>,
    above: Stats,
    n: usize,
    solution: &mut impl Cells,
) -> (Answer, usize) {
    if let Some(cells) = &shared.first {
        solution.cells_for(n).copy_from_slice(cells);
    }
    let answer = Answer {
        solutions: shared.solutions,
        complete: shared.complete,
        timed_out: shared.timed_out,
        cancelled: shared.cancelled,
        nodes: above.nodes + shared.stats.nodes,
        guesses: above.guesses + shared.stats.guesses,
    };
    (answer, shared.given)
}

/// The answer of a search whose cut `stop` ended inside a pass, `above`
/// its counters: unknown (pieces are missing), whatever it met.
fn stopped(stop: Stop, above: Stats) -> Answer {
    Answer {
        solutions: 0,
        complete: false,
        timed_out: stop == Stop::Deadline,
        cancelled: stop == Stop::Cancelled,
        nodes: above.nodes,
        guesses: above.guesses,
    }
}

/// The answer of a puzzle whose givens clash: no solution, known.
fn no_solution() -> (Answer, usize) {
    let answer = Answer {
        complete: true,
        ..Answer::default()
    };
    (answer, 0)
}

/// Where the threads start from `cut` (of a matrix for side `n`): its
/// subtrees as pieces, its solutions as grids.
fn start_of(cut: Cut, n: usize) -> Start<Vec<OptionId>, Vec<u8>> {
    Start {
        solutions: (cut.solutions.iter())
            .map(|(before, options)| (*before, cells_of(n, options)))
            .collect(),
        pieces: cut.subtrees.into_iter().map(|sub| sub.options).collect(),
    }
}

/// The grid, row-major, that `options` (of a matrix for side `n`) fill.
fn cells_of(n: usize, options: &[OptionId]) -> Vec<u8> {
    let mut cells = vec![0; n * n];
    place(n, options.iter().copied(), &mut cells);
    cells
}

/// Why [`cut`] made none.
enum NoCut {
    /// The givens clash: the puzzle has no solution.
    Clash,
    /// No solver takes the matrix with the rule (the library's choice
    /// always does: kept so that nothing is claimed on an error).
    NoSolver,
}

/// The cut of the search of the puzzle of `givens` into `target` subtrees
/// or more, made on the residual matrix of the givens (a seventh of a
/// minimal 25×25's options, so its lookahead nodes cost a seventh), its
/// options mapped back: subtrees without the givens, solutions above the
/// cut with them. Where no residual can be made (givens that clash or fill
/// the grid), on the whole matrix, the givens preselected. The cutting
/// stops at the deadline and the cancel handle of `limits`, inside a pass
/// too: then [`Cut::stopped`] says so.
fn cut(
    whole: &Matrix,
    givens: &[OptionId],
    config: Config,
    limits: &Limits,
    target: usize,
) -> Result<Cut, NoCut> {
    let solver = |m| {
        let mut s = Solver::with_config(m, config).map_err(|_| NoCut::NoSolver)?;
        s.set_limits(search_limits(limits));
        Ok(s)
    };
    let Ok(residual) = whole.residual(givens) else {
        let mut splitter = solver(whole)?;
        splitter.preselect_all(givens).map_err(|_| NoCut::Clash)?;
        return Ok(Cut::new(&mut splitter, target));
    };
    let mut splitter = solver(residual.matrix())?;
    let mut cut = Cut::new(&mut splitter, target);
    let back = |options: &mut Vec<OptionId>| {
        for o in options.iter_mut() {
            *o = residual.original_option(*o);
        }
    };
    cut.subtrees
        .iter_mut()
        .for_each(|sub| back(&mut sub.options));
    for (_, options) in &mut cut.solutions {
        back(options);
        options.splice(0..0, givens.iter().copied());
    }
    Ok(cut)
}

/// The search of a piece on residuals: the residual of the givens and the
/// piece's options and a solver of it, or, where no residual can be made
/// (they fill the grid), a solver of the whole matrix with them
/// preselected.
enum PieceSearch<'m> {
    Residual(Residual, Solver<'m>),
    Whole(Solver<'m>),
}

/// A thread's worker [`on_residuals`].
struct OnResiduals<'m> {
    /// The rule set's whole matrix.
    whole: &'m Matrix,
    /// The grid's side.
    n: usize,
    base: &'m [OptionId],
    config: Config,
    /// The deadline and cancel handle.
    limits: crate::dlx::Limits,
    /// The givens and the piece's options.
    piece: Vec<OptionId>,
    search: Option<PieceSearch<'m>>,
    /// Nodes of the piece's search at its next pause.
    pause: u64,
}

impl OnResiduals<'_> {
    fn solver(&self) -> Option<&Solver<'_>> {
        match &self.search {
            Some(PieceSearch::Residual(_, s)) => Some(s),
            Some(PieceSearch::Whole(s)) => Some(s),
            None => None,
        }
    }
}

impl<'m> Worker for OnResiduals<'m> {
    type Piece = Vec<OptionId>;
    type Solution = Vec<u8>;
    /// A residual's items are its own: nothing carries over.
    type Context = ();

    fn begin(&mut self, piece: &Vec<OptionId>, _: Option<&()>) -> bool {
        self.pause = 0;
        self.piece.clear();
        self.piece.extend_from_slice(self.base);
        self.piece.extend_from_slice(piece);
        self.search = match self.whole.residual(&self.piece) {
            Ok(residual) => Solver::with_config(residual.shared(), self.config)
                .ok()
                .map(|s| PieceSearch::Residual(residual, s)),
            Err(_) => {
                // Givens that fill the grid (the pieces of a search never
                // clash): the whole matrix, the solver kept for the next.
                let mut s = match self.search.take() {
                    Some(PieceSearch::Whole(s)) => Some(s),
                    _ => Solver::with_config(self.whole, self.config).ok(),
                };
                if let Some(solver) = &mut s {
                    if solver.preselect_all(&self.piece).is_err() {
                        return false;
                    }
                }
                s.map(PieceSearch::Whole)
            }
        };
        self.search.is_some()
    }

    fn resume(&mut self, nodes: u64) -> Step {
        self.pause += nodes;
        let mut limits = self.limits.clone();
        limits.budget.nodes = Some(self.pause);
        let solver = match &mut self.search {
            Some(PieceSearch::Residual(_, s)) => s,
            Some(PieceSearch::Whole(s)) => s,
            None => return Step::Exhausted,
        };
        solver.set_limits(limits);
        solver.next_solution()
    }

    fn stopped(&self) -> Option<Stop> {
        self.solver().and_then(|s| s.stopped())
    }

    fn give_away(&mut self, piece: &Vec<OptionId>) -> Option<(Vec<Vec<OptionId>>, ())> {
        let given = match &mut self.search {
            Some(PieceSearch::Residual(r, s)) => (s.give_away()?.into_iter())
                .map(|sub| {
                    let back = sub.options.iter().map(|&o| r.original_option(o));
                    piece.iter().copied().chain(back).collect()
                })
                .collect(),
            Some(PieceSearch::Whole(s)) => (s.give_away()?.into_iter())
                .map(|sub| [&piece[..], &sub.options].concat())
                .collect(),
            None => return None,
        };
        Some((given, ()))
    }

    fn solution(&self) -> Vec<u8> {
        let n = self.n;
        let mut cells = vec![0; n * n];
        match &self.search {
            Some(PieceSearch::Residual(r, s)) => {
                let found = s.solution().map(|o| r.original_option(o));
                place(n, self.piece.iter().copied().chain(found), &mut cells);
            }
            Some(PieceSearch::Whole(s)) => place(n, s.solution(), &mut cells),
            None => {}
        }
        cells
    }

    fn stats(&self) -> Stats {
        self.solver().map(|s| s.stats()).unwrap_or_default()
    }
}

/// A thread's worker [`preselecting`].
struct Preselecting<'m, 'b> {
    solver: Solver<'m>,
    base: &'b [OptionId],
    n: usize,
    /// The givens and the piece's options.
    options: Vec<OptionId>,
    /// The deadline and cancel handle.
    limits: crate::dlx::Limits,
    /// Nodes of the piece's search at its next pause.
    pause: u64,
}

impl Worker for Preselecting<'_, '_> {
    type Piece = Vec<OptionId>;
    type Solution = Vec<u8>;
    /// The giver's conflict scores, where it keeps them: a piece's search
    /// goes on with what the search it came from learnt, not from scratch
    /// (on MATHEMAGIC_KILLERS' first, from scratch made 1.7 times the
    /// nodes of one thread's search).
    type Context = Option<Scores>;

    fn begin(&mut self, piece: &Vec<OptionId>, context: Option<&Option<Scores>>) -> bool {
        self.pause = 0;
        self.solver.seed_scores(context.and_then(Option::as_ref));
        self.options.clear();
        self.options.extend_from_slice(self.base);
        self.options.extend_from_slice(piece);
        self.solver.preselect_all(&self.options).is_ok()
    }

    fn resume(&mut self, nodes: u64) -> Step {
        self.pause += nodes;
        let mut limits = self.limits.clone();
        limits.budget.nodes = Some(self.pause);
        self.solver.set_limits(limits);
        self.solver.next_solution()
    }

    fn stopped(&self) -> Option<Stop> {
        self.solver.stopped()
    }

    fn give_away(&mut self, piece: &Vec<OptionId>) -> Option<(Vec<Vec<OptionId>>, Option<Scores>)> {
        let given = self.solver.give_away()?.into_iter();
        let pieces = given
            .map(|sub| [&piece[..], &sub.options].concat())
            .collect();
        Some((pieces, self.solver.scores()))
    }

    fn solution(&self) -> Vec<u8> {
        let mut cells = vec![0; self.n * self.n];
        place(self.n, self.solver.solution(), &mut cells);
        cells
    }

    fn stats(&self) -> Stats {
        self.solver.stats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{check_solution, DlxSudoku, SudokuSolver};

    fn grid(line: &str) -> Grid {
        let cells = line.bytes().map(|b| b.saturating_sub(b'0').min(9));
        Grid::from_cells(cells.collect()).unwrap()
    }

    /// `line` with its last `blanks` givens left out.
    fn without_last(line: &str, blanks: usize) -> Grid {
        let mut cells = grid(line).cells().to_vec();
        let givens: Vec<usize> = (0..cells.len()).filter(|&k| cells[k] != 0).collect();
        for &k in givens.iter().rev().take(blanks) {
            cells[k] = 0;
        }
        Grid::from_cells(cells).unwrap()
    }

    /// The first solution of one first-forced search of `puzzle`, on the
    /// residual matrix of its givens, as the pieces are searched.
    fn first_of_one_search(cover: &SudokuMatrix, puzzle: &Grid) -> Grid {
        let givens = options_of(cover.rules_matrix(), puzzle.cells());
        let residual = cover.matrix().residual(&givens).unwrap();
        let config = Config::new().branching(Branching::FirstForced);
        let mut one = Solver::with_config(residual.matrix(), config).unwrap();
        assert_eq!(one.next_solution(), Step::Solution);
        let found = one.solution().map(|o| residual.original_option(o));
        let mut first = puzzle.clone();
        place(
            puzzle.side(),
            givens.iter().copied().chain(found),
            first.cells_mut(),
        );
        first
    }

    #[test]
    fn pieces_given_away_answer_as_one_search() {
        let easy =
            ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534.";
        let poj2676 =
            "103000509002109400000704000300502006060000050700803004000401000009205800804000107";
        // 1, 2, 15, 188 and 32 solutions; 4×4 grids (branch points of 3
        // and 4 options): 288 and 24.
        let puzzles = [
            without_last(easy, 0),
            without_last(easy, 2),
            without_last(easy, 6),
            without_last(easy, 8),
            without_last(poj2676, 4),
            Grid::empty(2).unwrap(),
            grid("1..............."),
        ];
        let matrices = [SudokuMatrix::new(2).unwrap(), SudokuMatrix::new(3).unwrap()];
        let mut given = 0;
        // A cut at the first branch point, and every branch point after it
        // given away as soon as the search is below it.
        let how = How {
            per_thread: 1,
            give: Give::Always,
        };
        for puzzle in &puzzles {
            let b = puzzle.box_side();
            let cover = &matrices[b - 2];
            let givens = options_of(cover.rules_matrix(), puzzle.cells());
            let mut one = DlxSudoku::new(cover);
            let all = one.solve(puzzle, &Limits::count_to(u64::MAX), &mut puzzle.clone());
            assert!(all.complete && all.solutions > 0);
            let first = first_of_one_search(cover, puzzle);
            for limit in [1, 2, 3, u64::MAX] {
                let limits = Limits::count_to(limit);
                let want = one.solve(puzzle, &limits, &mut puzzle.clone());
                for (lookahead, jobs) in [(false, 1), (false, 3), (true, 1), (true, 3)] {
                    let what = format!(
                        "{} solutions, limit {limit}, lookahead {lookahead}, {jobs} jobs",
                        all.solutions
                    );
                    let rule = match lookahead {
                        true => Branching::Lookahead,
                        false => Branching::FirstForced,
                    };
                    let config = Config::new().branching(rule);
                    let mut solution = Grid::empty(b).unwrap();
                    let (got, pieces) = on_residuals(
                        cover.rules_matrix(),
                        &givens,
                        config,
                        &limits,
                        jobs,
                        how,
                        &mut solution,
                    );
                    assert_eq!(
                        (got.solutions, got.complete),
                        (want.solutions, want.complete),
                        "{what}"
                    );
                    check_solution(puzzle, &solution).unwrap_or_else(|e| panic!("{what}: {e}"));
                    if limit == u64::MAX && !lookahead {
                        // Every solution found: the one of least key is the
                        // first of one search.
                        assert_eq!(solution, first, "{what}");
                    }
                    given += pieces;
                }
            }
        }
        assert!(given > 0);
    }
}
