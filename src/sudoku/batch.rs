//! Batches of puzzles on several threads, answers in input order: [`run`]
//! for any records a front end reads and renders itself (the command line
//! parses and renders on the workers), [`solve_all`] for puzzles in memory.
//!
//! A worker takes a piece of the input under the source's lock — as few
//! records as the source likes, one at first, doubling while a piece takes
//! under 2 ms and halving when one takes over 20 ms, at most 256 — and
//! works on it without the lock, each worker with a
//! [`Sudoku`] of its own over the process's shared matrices. The calling
//! thread hands the results to the sink in input order. A piece numbered
//! `k` is handed out only while fewer than 8 pieces a worker wait to be
//! taken by the sink, so memory stays flat however long
//! the input is.
//!
//! The rule for a lone puzzle lives here too: when the input holds one
//! record, it is worked on by the calling thread with a `Sudoku` of every
//! thread ([`Sudoku::with_jobs`]), which spreads a big puzzle over them.
//! One job spawns no thread: each record is worked on and handed to the
//! sink as soon as it is read.
//!
//! Why a pool of its own beside the search's (`dlx/share.rs`):
//! its work is a stream, read while it is worked on, in pieces sized as it
//! goes, with memory bounded by the window and answers handed back in input
//! order; a search's pieces are known at its start and its answer is one.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::{Limits, Puzzle, Settings, SolveError, Solved, Sudoku};

/// Most records a worker asks for at a time: 17-clue puzzles take ~7 µs
/// each, and every piece wakes the sink's thread (256 rather than 64: sys
/// time 0.11 s → 0.04 s, `--jobs 2` 1.48 s → 1.43 s on 393,296 puzzles).
pub(crate) const PIECE: usize = 256;
/// A piece that took less doubles the next one.
pub(crate) const PIECE_FAST: Duration = Duration::from_millis(2);
/// A piece that took more halves the next one.
pub(crate) const PIECE_SLOW: Duration = Duration::from_millis(20);
/// Pieces that may be taken and not yet sunk, per worker.
pub(crate) const WINDOW_PER_JOB: usize = 8;

/// `q`, locked (a worker that panicked holding it left it whole: every
/// change to it is one statement).
fn lock<Q>(q: &Mutex<Q>) -> std::sync::MutexGuard<'_, Q> {
    q.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What the workers share: the source and where the input stands.
struct Queue<T, S> {
    /// Records read ahead before the workers started.
    ahead: VecDeque<T>,
    source: S,
    next: usize,
    sunk: usize,
    done: bool,
}

/// Runs `work` over what `source` reads, on `jobs` threads, and hands
/// every result to `sink` in input order; `sink` returns whether to go on
/// (false: nothing more is read, and the workers finish only what they
/// hold). `source(n)` reads a piece of the input of about `n` records (a
/// hint: `None` at the end); `work` turns a piece into a result with its
/// worker's [`Sudoku`] (made with `settings`). With one record in all,
/// `work` runs on the calling thread with a `Sudoku` of `jobs` threads
/// (see the module documentation).
///
/// ```
/// use dlx::sudoku::{batch, format, Limits, Puzzle, Settings};
///
/// let lines = [
///     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
///     "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
/// ];
/// let mut next = lines.iter();
/// let mut counts = Vec::new();
/// batch::run(
///     &Settings::default(),
///     2,
///     |_hint| next.next().map(|l| Puzzle::classic(&format::parse_line(l).unwrap())),
///     |sudoku, puzzle| sudoku.solve(&puzzle, &Limits::count_to(2)).unwrap().answer.solutions,
///     |count| {
///         counts.push(count);
///         true
///     },
/// );
/// assert_eq!(counts, [1, 1]);
/// ```
pub fn run<T, R, S>(
    settings: &Settings,
    jobs: usize,
    mut source: S,
    work: impl Fn(&mut Sudoku, T) -> R + Sync,
    mut sink: impl FnMut(R) -> bool,
) where
    T: Send,
    R: Send,
    S: FnMut(usize) -> Option<T> + Send,
{
    if jobs <= 1 {
        let mut sudoku = Sudoku::new(*settings);
        while let Some(piece) = source(1) {
            if !sink(work(&mut sudoku, piece)) {
                return;
            }
        }
        return;
    }
    // Two records read to know whether the first is alone.
    let Some(first) = source(1) else {
        return;
    };
    let Some(second) = source(1) else {
        let mut sudoku = Sudoku::new(*settings).with_jobs(jobs);
        sink(work(&mut sudoku, first));
        return;
    };
    let window = jobs * WINDOW_PER_JOB;
    let queue = Mutex::new(Queue {
        ahead: VecDeque::from([first, second]),
        source,
        next: 0,
        sunk: 0,
        done: false,
    });
    let room = Condvar::new();
    let (tx, rx) = std::sync::mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (queue, room, work) = (&queue, &room, &work);
            scope.spawn(move || {
                let mut sudoku = Sudoku::new(*settings);
                let mut want = 1;
                loop {
                    let (k, piece) = {
                        let mut q = lock(queue);
                        while !q.done && q.next >= q.sunk + window {
                            q = room.wait(q).unwrap_or_else(PoisonError::into_inner);
                        }
                        if q.done {
                            return;
                        }
                        let piece = match q.ahead.pop_front() {
                            Some(p) => p,
                            None => match (q.source)(want) {
                                Some(p) => p,
                                None => {
                                    q.done = true;
                                    room.notify_all();
                                    return;
                                }
                            },
                        };
                        let k = q.next;
                        q.next += 1;
                        (k, piece)
                    };
                    let started = Instant::now();
                    let result = work(&mut sudoku, piece);
                    let took = started.elapsed();
                    if took < PIECE_FAST {
                        want = (want * 2).min(PIECE);
                    } else if took > PIECE_SLOW {
                        want = (want / 2).max(1);
                    }
                    if tx.send((k, result)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, R> = BTreeMap::new();
        let mut next = 0;
        for (k, result) in rx {
            pending.insert(k, result);
            while let Some(result) = pending.remove(&next) {
                let go_on = sink(result);
                let mut q = lock(&queue);
                if !go_on {
                    // Nothing more is handed out; a worker's next send
                    // fails once `rx` is gone, and it returns.
                    q.done = true;
                    room.notify_all();
                    return;
                }
                next += 1;
                q.sunk = next;
                room.notify_all();
            }
        }
    });
}

/// Solves `puzzles` on `jobs` threads within the limits `limits` gives
/// each (asked just before its search starts, so a timeout counts from
/// there), and hands each answer to `sink` with its index, in input order;
/// `sink` returns whether to go on. A lone variant puzzle, or a lone big classic one, gets every thread.
///
/// ```
/// use dlx::sudoku::{batch, format, Limits, Puzzle, Settings, Status};
///
/// let puzzles: Vec<Puzzle> = [
///     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
///     "1................................................................................",
/// ]
/// .iter()
/// .map(|l| Puzzle::classic(&format::parse_line(l).unwrap()))
/// .collect();
/// let mut statuses = Vec::new();
/// batch::solve_all(puzzles, &Settings::default(), || Limits::count_to(2), 2, |_, solved| {
///     statuses.push(solved.unwrap().answer.status());
///     true
/// });
/// assert_eq!(statuses, [Status::Unique, Status::Multiple]);
/// ```
pub fn solve_all<I>(
    puzzles: I,
    settings: &Settings,
    limits: impl Fn() -> Limits + Sync,
    jobs: usize,
    mut sink: impl FnMut(usize, Result<Solved, SolveError>) -> bool,
) where
    I: IntoIterator<Item = Puzzle>,
    I::IntoIter: Send,
{
    let mut puzzles = puzzles.into_iter().enumerate();
    run(
        settings,
        jobs,
        |hint| {
            let piece: Vec<_> = puzzles.by_ref().take(hint.max(1)).collect();
            (!piece.is_empty()).then_some(piece)
        },
        |sudoku, piece| {
            piece
                .into_iter()
                .map(|(k, p)| (k, sudoku.solve(&p, &limits())))
                .collect::<Vec<_>>()
        },
        |results| results.into_iter().all(|(k, solved)| sink(k, solved)),
    );
}
