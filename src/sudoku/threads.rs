//! One puzzle on several threads ([`solve_on_threads`]), for a puzzle too
//! hard for one (a minimal 25×25).
//!
//! The puzzle's search (with lookahead, or first-forced) is cut ([`Cut`])
//! on the residual matrix of its givens into subtrees,
//! [`SUBTREES_PER_THREAD`] a thread where the tree has them. Each subtree
//! becomes a *piece*: the puzzle with the subtree's placements added as
//! givens, searched by whichever thread takes it, on the residual matrix of
//! its own givens. Pieces differ in size by orders of magnitude, so the
//! threads share their work as they go: a thread that finds no piece left
//! waits while others search, and a thread searching a piece looks every
//! few nodes for waiting threads; when some wait and no piece is left, it
//! gives away the untried options of its search's shallowest branch point
//! ([`Solver::give_away`]), each a piece. The puzzle is then done when the
//! threads' work is, not when its largest subtree is.
//!
//! Invariants:
//! * every solution lies above the cut or in exactly one piece's search: a
//!   piece's search goes on without what it gave away, and what it gave
//!   away is the rest of its subtree;
//! * each piece and each solution has a *key*, a sequence of numbers
//!   compared lexicographically, in search order: solution `j` of the cut's
//!   that comes before subtree `k` is `[2k]` and that subtree `[2k + 1]`; a
//!   piece of key `K` that gives away `m` pieces goes on as `K·0`, the pieces
//!   being `K·1 … K·m` (the options it would have tried after its own). A
//!   solution takes its piece's key when found, so the first solution in
//!   search order is the one of least key;
//! * the pool's `busy` counts the threads searching a piece: a thread waits
//!   for a piece only while another is busy (it may give some away), and
//!   the last to finish, with the pool empty, wakes them all to end.
//!
//! With lookahead a piece's search does not have the removals made above it,
//! so the pieces' nodes add up to more than one search's.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use super::cover::{place, search_limits, OnResidual, Search};
use super::grid::Grid;
use super::{Answer, DlxSudoku, Limits, SudokuMatrix, SudokuSolver};
use crate::dlx::{Branching, Config, Cut, OptionId, Residual, Solver, Step, Stop};

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
    let sharing = Sharing {
        per_thread: SUBTREES_PER_THREAD,
        give: Give::WhenAsked,
    };
    solve_sharing(cover, puzzle, limits, lookahead, jobs, sharing, solution).0
}

/// How [`solve_sharing`] shares out the work.
#[derive(Clone, Copy, Debug)]
struct Sharing {
    /// Subtrees a thread that the cut aims at.
    per_thread: usize,
    give: Give,
}

/// [`solve_on_threads`], cutting and giving work away as `sharing` says;
/// returns the answer and the pieces given away.
fn solve_sharing(
    cover: &SudokuMatrix,
    puzzle: &Grid,
    limits: &Limits,
    lookahead: bool,
    jobs: usize,
    sharing: Sharing,
    solution: &mut Grid,
) -> (Answer, usize) {
    let mut answer = Answer::default();
    if puzzle.box_side() != cover.box_side() || limits.solutions == 0 {
        return (answer, 0);
    }
    let n = puzzle.side();
    let branching = if lookahead {
        Branching::Lookahead
    } else {
        Branching::FirstForced
    };
    let config = Config::new().branching(branching);
    let givens = options_of(cover, puzzle);
    let cut = match cut(cover, &givens, config, sharing.per_thread * jobs.max(1)) {
        Ok(cut) => cut,
        Err(NoCut::Clash) => {
            // Contradicting givens: no solution (callers check first).
            answer.complete = true;
            return (answer, 0);
        }
        // Unknown, not "none".
        Err(NoCut::NoSolver) => return (answer, 0),
    };
    let with = |options: &[OptionId]| {
        let mut grid = puzzle.clone();
        place(n, options.iter().copied(), grid.cells_mut());
        grid
    };
    let pieces = (cut.subtrees.iter().enumerate())
        .map(|(k, sub)| Piece {
            key: vec![2 * k as u32 + 1],
            grid: with(&sub.options),
        })
        .collect();
    let mut found = Found::default();
    for (before, options) in &cut.solutions {
        found.offer(&[2 * *before as u32], || with(options));
    }
    let above = cut.solutions.len() as u64;
    let threads = Threads {
        pool: Mutex::new(Pool { pieces, busy: 0 }),
        ready: Condvar::new(),
        waiting: AtomicUsize::new(0),
        solutions: AtomicU64::new(above),
        stop: AtomicBool::new(above >= limits.solutions),
        cover,
        limits,
        config,
        give: sharing.give,
        given: AtomicUsize::new(0),
    };
    let spawned = if cut.subtrees.is_empty() {
        0
    } else {
        jobs.max(1)
    };
    threads.run(spawned, &mut found);
    let left = !threads.lock().pieces.is_empty();
    let total = threads.solutions.load(Relaxed);
    answer.nodes = cut.above.nodes + found.nodes;
    answer.guesses = cut.above.guesses + found.guesses;
    answer.timed_out = found.timed_out;
    answer.cancelled = found.cancelled;
    if let Some((_, grid)) = found.first {
        *solution = grid;
    }
    answer.solutions = total.min(limits.solutions);
    let stopped = answer.timed_out || answer.cancelled;
    answer.complete = !found.cut_short && !left && total < limits.solutions && !stopped;
    if total >= limits.solutions {
        answer.timed_out = false;
        answer.cancelled = false;
    }
    (answer, threads.given.load(Relaxed))
}

/// The options of `puzzle`'s givens.
fn options_of(cover: &SudokuMatrix, puzzle: &Grid) -> Vec<OptionId> {
    let n = puzzle.side();
    (puzzle.cells().iter().enumerate())
        .filter(|&(_, &d)| d != 0)
        .map(|(k, &d)| cover.option(k / n, k % n, d))
        .collect()
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
/// the grid), on the whole matrix, the givens preselected.
fn cut(
    cover: &SudokuMatrix,
    givens: &[OptionId],
    config: Config,
    target: usize,
) -> Result<Cut, NoCut> {
    let solver = |m| Solver::with_config(m, config).map_err(|_| NoCut::NoSolver);
    let Ok(residual) = cover.matrix().residual(givens) else {
        let mut splitter = solver(cover.matrix())?;
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

/// A part of the search: the puzzle with a subtree's placements as givens,
/// and its key (its place in search order: see the module documentation).
struct Piece {
    key: Vec<u32>,
    grid: Grid,
}

/// The pieces no thread has taken yet, and the threads searching one.
struct Pool {
    pieces: VecDeque<Piece>,
    busy: usize,
}

/// What a thread found, then all of them.
#[derive(Default)]
struct Found {
    /// The solution of least key so far, and its key.
    first: Option<(Vec<u32>, Grid)>,
    nodes: u64,
    guesses: u64,
    /// A piece was left before its end (the limit, the deadline or the
    /// cancel handle).
    cut_short: bool,
    timed_out: bool,
    cancelled: bool,
}

impl Found {
    /// Keeps the solution that `grid` makes if its key is the least so far.
    fn offer(&mut self, key: &[u32], grid: impl FnOnce() -> Grid) {
        if self.first.as_ref().is_none_or(|(k, _)| key < k.as_slice()) {
            self.first = Some((key.to_vec(), grid()));
        }
    }

    fn merge(&mut self, other: Found) {
        if let Some((key, grid)) = other.first {
            self.offer(&key, || grid);
        }
        self.nodes += other.nodes;
        self.guesses += other.guesses;
        self.cut_short |= other.cut_short;
        self.timed_out |= other.timed_out;
        self.cancelled |= other.cancelled;
    }
}

/// When a thread searching a piece gives part of it away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Give {
    /// When another thread waits and no piece is left.
    WhenAsked,
    /// At every node, whatever the pool holds (tests: every branch point's
    /// untried options are given away as soon as the search is below it).
    #[cfg_attr(not(test), allow(dead_code))]
    Always,
}

/// What the threads share.
struct Threads<'a> {
    pool: Mutex<Pool>,
    /// Signalled when pieces are added, and when the search ends.
    ready: Condvar,
    /// Threads waiting for a piece.
    waiting: AtomicUsize,
    /// Solutions found, above the cut included.
    solutions: AtomicU64,
    /// Set when the limit is reached or the deadline passed.
    stop: AtomicBool,
    cover: &'a SudokuMatrix,
    limits: &'a Limits,
    config: Config,
    give: Give,
    /// Pieces given away.
    given: AtomicUsize,
}

impl<'a> Threads<'a> {
    /// Searches the pool's pieces on `spawned` threads, into `found` (one:
    /// on the calling thread).
    fn run(&self, spawned: usize, found: &mut Found) {
        if spawned == 1 {
            found.merge(self.work());
            return;
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..spawned).map(|_| scope.spawn(|| self.work())).collect();
            for h in handles {
                match h.join() {
                    Ok(f) => found.merge(f),
                    Err(e) => std::panic::resume_unwind(e),
                }
            }
        });
    }

    /// The pool, locked (a thread that panicked holding it left it whole:
    /// every change to it is one statement).
    fn lock(&self) -> MutexGuard<'_, Pool> {
        self.pool.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One thread: takes pieces and searches them until none is left.
    fn work(&self) -> Found {
        let mut found = Found::default();
        let mut whole = None;
        while let Some(piece) = self.take() {
            self.search(piece, &mut found, &mut whole);
            let mut pool = self.lock();
            pool.busy -= 1;
            if pool.busy == 0 && pool.pieces.is_empty() {
                self.ready.notify_all();
            }
        }
        found
    }

    /// The next piece, waiting for one while other threads search; `None`
    /// when the search is over or stopped.
    fn take(&self) -> Option<Piece> {
        let mut pool = self.lock();
        loop {
            if self.stop.load(Relaxed) {
                return None;
            }
            if let Some(piece) = pool.pieces.pop_front() {
                pool.busy += 1;
                return Some(piece);
            }
            if pool.busy == 0 {
                return None;
            }
            self.waiting.fetch_add(1, Relaxed);
            pool = self
                .ready
                .wait(pool)
                .unwrap_or_else(PoisonError::into_inner);
            self.waiting.fetch_sub(1, Relaxed);
        }
    }

    /// Stops every thread (the waiting ones woken with the pool held, so
    /// that none misses it).
    fn halt(&self) {
        self.stop.store(true, Relaxed);
        let _pool = self.lock();
        self.ready.notify_all();
    }

    /// Searches `piece` on the residual matrix of its givens, giving part
    /// of it away when asked.
    fn search(&self, mut piece: Piece, found: &mut Found, whole: &mut Option<DlxSudoku<'a>>) {
        let n = piece.grid.side();
        let givens = options_of(self.cover, &piece.grid);
        let Ok(residual) = self.cover.matrix().residual(&givens) else {
            return self.search_whole(&piece, found, whole);
        };
        let Ok(solver) = Solver::with_config(residual.matrix(), self.config) else {
            found.cut_short = true;
            return;
        };
        let mut look = OnResidual {
            solver,
            residual: &residual,
            givens: &givens,
        };
        let chunk = match (self.give, self.config.rule()) {
            (Give::Always, _) => 1,
            (_, Branching::Lookahead) => SHARE_EVERY_LOOKAHEAD,
            _ => SHARE_EVERY,
        };
        // The limits' deadline and cancel handle, and a node count that
        // pauses the search every `chunk` nodes to share its work.
        let mut stops = search_limits(self.limits);
        let mut pause = chunk;
        loop {
            stops.budget.nodes = Some(pause);
            look.set_limits(stops.clone());
            match look.next_solution() {
                Step::Solution => {
                    found.offer(&piece.key, || {
                        let mut grid = piece.grid.clone();
                        look.write_solution(n, grid.cells_mut());
                        grid
                    });
                    if self.solutions.fetch_add(1, Relaxed) + 1 >= self.limits.solutions {
                        found.cut_short = true;
                        self.halt();
                        break;
                    }
                }
                Step::Exhausted => break,
                Step::Budget => {
                    match look.stopped() {
                        Some(Stop::Deadline) => found.timed_out = true,
                        Some(Stop::Cancelled) => found.cancelled = true,
                        _ => {}
                    }
                    if found.timed_out || found.cancelled {
                        found.cut_short = true;
                        self.halt();
                        break;
                    }
                    pause += chunk;
                    if self.stop.load(Relaxed) {
                        found.cut_short = true;
                        break;
                    }
                    if self.give == Give::Always || self.waiting.load(Relaxed) > 0 {
                        self.give_away(&mut piece, &mut look.solver, &residual);
                    }
                }
            }
        }
        let stats = look.solver.stats();
        found.nodes += stats.nodes;
        found.guesses += stats.guesses;
    }

    /// Where no piece is left (or always, with [`Give::Always`]): the
    /// untried options of the shallowest branch point of `solver`
    /// (searching `piece` on `residual`) become pieces, and `piece` goes on
    /// without them.
    fn give_away(&self, piece: &mut Piece, solver: &mut Solver<'_>, residual: &Residual) {
        let mut pool = self.lock();
        if self.give == Give::WhenAsked && !pool.pieces.is_empty() {
            return;
        }
        let Some(subtrees) = solver.give_away() else {
            return;
        };
        let n = piece.grid.side();
        let key = piece.key.clone();
        piece.key.push(0);
        for (k, sub) in subtrees.iter().enumerate() {
            let mut grid = piece.grid.clone();
            let options = sub.options.iter().map(|&o| residual.original_option(o));
            place(n, options, grid.cells_mut());
            let mut key = key.clone();
            key.push(k as u32 + 1);
            pool.pieces.push_back(Piece { key, grid });
        }
        self.given.fetch_add(subtrees.len(), Relaxed);
        self.ready.notify_all();
    }

    /// A piece whose givens leave no residual matrix (they fill the grid or
    /// clash: a subtree's placements never clash): solved as a puzzle, by a
    /// [`DlxSudoku`] made the first time.
    fn search_whole(&self, piece: &Piece, found: &mut Found, whole: &mut Option<DlxSudoku<'a>>) {
        let solver = whole.get_or_insert_with(|| {
            let mut s = DlxSudoku::new(self.cover);
            // The rule was taken by the cut's solver.
            let _ = s.set_branching(self.config.rule());
            s
        });
        let mut grid = piece.grid.clone();
        let a = solver.solve(&piece.grid, self.limits, &mut grid);
        found.nodes += a.nodes;
        found.guesses += a.guesses;
        found.timed_out |= a.timed_out;
        found.cancelled |= a.cancelled;
        found.cut_short |= !a.complete;
        if a.solutions > 0 {
            found.offer(&piece.key, || grid);
            let total = self.solutions.fetch_add(a.solutions, Relaxed) + a.solutions;
            if total >= self.limits.solutions {
                self.halt();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::check_solution;

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
        let givens = options_of(cover, puzzle);
        let residual = cover.matrix().residual(&givens).unwrap();
        let config = Config::new().branching(Branching::FirstForced);
        let mut one = OnResidual {
            solver: Solver::with_config(residual.matrix(), config).unwrap(),
            residual: &residual,
            givens: &givens,
        };
        assert_eq!(one.next_solution(), Step::Solution);
        let mut first = puzzle.clone();
        one.write_solution(puzzle.side(), first.cells_mut());
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
        let sharing = Sharing {
            per_thread: 1,
            give: Give::Always,
        };
        for puzzle in &puzzles {
            let b = puzzle.box_side();
            let cover = &matrices[b - 2];
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
                    let mut solution = Grid::empty(b).unwrap();
                    let (got, pieces) = solve_sharing(
                        cover,
                        puzzle,
                        &limits,
                        lookahead,
                        jobs,
                        sharing,
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
