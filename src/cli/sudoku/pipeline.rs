//! The batch pipeline of `dlx sudoku solve | count | check` for classic
//! grids: everything on the workers but handing out and writing.
//!
//! A worker takes a batch of records under the reader's lock — in the
//! one-line formats only lines, split and numbered
//! ([`Reader::next_batch`]) — and, without the lock, parses them, solves
//! each puzzle with its own solvers over the shared matrices, and renders
//! the answers into a [`Chunk`] (`render`). The main thread writes chunks
//! in input order and adds up their totals. A chunk numbered `seq` is
//! handed out only while fewer than [`WINDOW_PER_JOB`] chunks a worker are
//! waiting to be written, so memory stays flat however long the input is.
//! The output is one job's, byte for byte (the batches hold the reader's
//! records; `render` makes chunks independent of one another).
//!
//! An input of one puzzle of 25×25 or more is spread over the threads
//! itself (`solve_on_threads`): such a puzzle can take minutes. Where its
//! rule searches without lookahead first, one thread does that first
//! (`Solvers::solve_before_lookahead`), and the threads take only what it
//! leaves unsettled.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::render::{Chunk, Render};
use super::Tuning;
use dlx::sudoku::format::{Batch, Reader, Record};
use dlx::sudoku::{Answer, Grid, Limits, Matrices, SolverKind, Solvers, SudokuSolver};

/// One puzzle answered.
pub(crate) struct Outcome {
    pub(crate) record: Record,
    pub(crate) answer: Option<Answer>,
    pub(crate) solution: Option<Grid>,
    pub(crate) micros: f64,
    /// The engine asked for cannot take this puzzle's size.
    pub(crate) refused: Option<dlx::EngineError>,
}

/// Solves one record with `solvers`.
fn solve_record(solvers: &mut Solvers<'_>, record: Record, limits: &Limits) -> Outcome {
    let start = Instant::now();
    let refused = match &record.grid {
        Ok(puzzle) => solvers.prepare(puzzle.box_side()).err(),
        Err(_) => None,
    };
    let (answer, solution) = match &record.grid {
        Ok(_) if refused.is_some() => (None, None),
        Ok(puzzle) => {
            let mut solution = puzzle.clone();
            let answer = solvers.solve(puzzle, limits, &mut solution);
            let solution = (answer.solutions > 0).then_some(solution);
            (Some(answer), solution)
        }
        Err(_) => (None, None),
    };
    Outcome {
        record,
        answer,
        solution,
        micros: start.elapsed().as_secs_f64() * 1e6,
        refused,
    }
}

/// Most puzzles a worker takes at a time. A worker starts with one and
/// doubles while a chunk takes under `CHUNK_FAST`, halves when one takes
/// over `CHUNK_SLOW`: easy puzzles go by in large chunks (little locking),
/// and a file of hard ones still spreads over every worker. 256, not 64:
/// 17-clue puzzles take ~7 µs, and each chunk wakes the writer (sys time
/// 0.11 s → 0.04 s, `--jobs 2` 1.48 s → 1.43 s on 393,296 puzzles).
const CHUNK: usize = 256;
const CHUNK_FAST: Duration = Duration::from_millis(2);
const CHUNK_SLOW: Duration = Duration::from_millis(20);
/// Chunks that may be in flight (taken but not yet written) per worker.
const WINDOW_PER_JOB: usize = 8;

/// The work handed out, under one lock.
struct Queue<R> {
    /// Records read ahead before the workers started.
    ahead: Option<Batch>,
    reader: Reader<R>,
    next_seq: usize,
    written: usize,
    done: bool,
}

/// What a pipeline runs: the solver, its tuning, the matrices, each
/// puzzle's limits (asked just before it is solved) and how answers are
/// rendered.
pub(crate) struct Work<'a> {
    pub(crate) kind: SolverKind,
    pub(crate) tuning: Tuning,
    pub(crate) matrices: &'a Matrices,
    pub(crate) limits: &'a (dyn Fn() -> Limits + Sync),
    pub(crate) render: &'a Render<'a>,
}

/// Runs `reader`'s puzzles through `jobs` workers; `write` gets the chunks
/// in input order, and says whether to go on. Returns when the input is
/// exhausted or `write` said stop (workers then finish only the puzzles
/// they hold).
pub(crate) fn pipeline<R: BufRead + Send>(
    mut reader: Reader<R>,
    jobs: usize,
    work: &Work<'_>,
    write: &mut dyn FnMut(&Chunk) -> bool,
) {
    if jobs <= 1 {
        // Each answer written as it is found.
        let mut solvers = Solvers::new(work.kind, work.matrices);
        work.tuning.apply(&mut solvers);
        let mut chunk = Chunk::new();
        for record in reader {
            chunk.clear();
            let o = solve_record(&mut solvers, record, &(work.limits)());
            work.render.add(&mut chunk, &o);
            if !write(&chunk) {
                return;
            }
        }
        return;
    }
    // The second record is read to know whether the first is alone.
    let mut ahead: Vec<Record> = reader.next_batch(1).into_iter().flatten().collect();
    let big = ahead
        .first()
        .and_then(|r| r.grid.as_ref().ok())
        .is_some_and(|g| g.box_side() >= 5);
    if big && work.kind == SolverKind::Dlx {
        ahead.extend(reader.next_batch(1).into_iter().flatten());
        if let [record] = &ahead[..] {
            if let Some(chunk) = alone(record, jobs, work) {
                write(&chunk);
                return;
            }
        }
    }
    let window = jobs * WINDOW_PER_JOB;
    let queue = Mutex::new(Queue {
        ahead: (!ahead.is_empty()).then(|| ahead.into_iter().collect()),
        reader,
        next_seq: 0,
        written: 0,
        done: false,
    });
    let room = Condvar::new();
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Chunk)>();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (queue, room) = (&queue, &room);
            s.spawn(move || {
                let mut solvers = Solvers::new(work.kind, work.matrices);
                work.tuning.apply(&mut solvers);
                let mut chunk_len = 1;
                loop {
                    let (seq, batch) = {
                        let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                        while !q.done && q.next_seq >= q.written + window {
                            q = room.wait(q).unwrap_or_else(|e| e.into_inner());
                        }
                        if q.done {
                            return;
                        }
                        let batch = match q.ahead.take() {
                            Some(b) => b,
                            None => match q.reader.next_batch(chunk_len) {
                                Some(b) => b,
                                None => {
                                    q.done = true;
                                    room.notify_all();
                                    return;
                                }
                            },
                        };
                        let seq = q.next_seq;
                        q.next_seq += 1;
                        (seq, batch)
                    };
                    let started = Instant::now();
                    let mut chunk = Chunk::new();
                    for record in batch {
                        let o = solve_record(&mut solvers, record, &(work.limits)());
                        work.render.add(&mut chunk, &o);
                    }
                    let took = started.elapsed();
                    if took < CHUNK_FAST {
                        chunk_len = (chunk_len * 2).min(CHUNK);
                    } else if took > CHUNK_SLOW {
                        chunk_len = (chunk_len / 2).max(1);
                    }
                    if tx.send((seq, chunk)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, Chunk> = BTreeMap::new();
        let mut next = 0;
        for (seq, chunk) in rx {
            pending.insert(seq, chunk);
            while let Some(chunk) = pending.remove(&next) {
                let go_on = write(&chunk);
                let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                if !go_on {
                    // No more puzzles are handed out; a worker's next send
                    // fails once `rx` is gone, and it returns.
                    q.done = true;
                    room.notify_all();
                    return;
                }
                next += 1;
                q.written = next;
                room.notify_all();
            }
        }
    });
}

/// The answer of a lone puzzle of 25×25 or more, searched on `jobs`
/// threads with the rules that reach lookahead (what such puzzles need);
/// `None` when the tuning names an engine or a rule without it (it is then
/// searched as named, in the pipeline).
fn alone(record: &Record, jobs: usize, work: &Work<'_>) -> Option<Chunk> {
    let tuning = work.tuning;
    let lookahead = tuning.engine.is_none()
        && matches!(
            (tuning.branching, tuning.lookahead_after),
            (dlx::Branching::Lookahead, _) | (dlx::Branching::FirstForced, Some(_))
        );
    let puzzle = record.grid.as_ref().ok()?;
    let cover = work.matrices.get(puzzle.box_side())?;
    if !lookahead {
        return None;
    }
    let start = Instant::now();
    let mut solution = puzzle.clone();
    let limits = (work.limits)();
    // Where lookahead comes after a search without it, one thread first,
    // as far as that search goes: an easy puzzle (an empty grid) is
    // settled there in milliseconds, where the threads' cut, with
    // lookahead, costs a tenth of a second or more.
    let first = match tuning.branching {
        dlx::Branching::FirstForced => {
            let mut one = Solvers::dlx(work.matrices);
            tuning.apply(&mut one);
            one.solve_before_lookahead(puzzle, &limits, &mut solution)
        }
        _ => Err(Answer::default()),
    };
    let answer = match first {
        Ok(answer) => answer,
        Err(spent) => {
            let mut answer =
                dlx::sudoku::solve_on_threads(cover, puzzle, &limits, true, jobs, &mut solution);
            answer.nodes += spent.nodes;
            answer.guesses += spent.guesses;
            answer
        }
    };
    let o = Outcome {
        record: record.clone(),
        answer: Some(answer),
        solution: (answer.solutions > 0).then_some(solution),
        micros: start.elapsed().as_secs_f64() * 1e6,
        refused: None,
    };
    let mut chunk = Chunk::new();
    work.render.add(&mut chunk, &o);
    Some(chunk)
}
