//! The classic grids of `dlx sudoku solve | count | check`, through the
//! library's batch ([`dlx::sudoku::batch::run`]): the reader hands out
//! pieces of its records ([`Reader::next_batch`]: lines split and numbered,
//! parsed by the worker that takes them), a worker solves each puzzle with
//! its own [`Sudoku`] and renders the answers into a [`Chunk`] (`render`),
//! and this thread writes the chunks in input order. The output is one
//! job's, byte for byte. The threads, the order, the pieces' sizes and the
//! rule for a lone big puzzle are the library's.

use std::io::BufRead;
use std::time::Instant;

use super::render::{Chunk, Render};
use dlx::sudoku::batch;
use dlx::sudoku::format::{Reader, Record};
use dlx::sudoku::{Answer, Grid, Limits, Settings, SolveError, Sudoku};

/// One puzzle answered.
pub(crate) struct Outcome {
    pub(crate) record: Record,
    pub(crate) answer: Option<Answer>,
    pub(crate) solution: Option<Grid>,
    pub(crate) micros: f64,
    /// Why the puzzle could not be searched (an engine named that cannot
    /// take its size).
    pub(crate) refused: Option<SolveError>,
}

/// Solves one record with `sudoku`.
fn solve_record(sudoku: &mut Sudoku, record: Record, limits: &Limits) -> Outcome {
    let start = Instant::now();
    let (answer, solution, refused) = match &record.grid {
        Ok(puzzle) => {
            let mut solution = puzzle.clone();
            match sudoku.solve_grid(puzzle, limits, &mut solution) {
                Ok(answer) => (
                    Some(answer),
                    (answer.solutions > 0).then_some(solution),
                    None,
                ),
                Err(e) => (None, None, Some(e)),
            }
        }
        Err(_) => (None, None, None),
    };
    Outcome {
        record,
        answer,
        solution,
        micros: start.elapsed().as_secs_f64() * 1e6,
        refused,
    }
}

/// What a pipeline runs: the search's settings, each puzzle's limits
/// (asked just before it is solved) and how answers are rendered.
pub(crate) struct Work<'a> {
    pub(crate) settings: Settings,
    pub(crate) limits: &'a (dyn Fn() -> Limits + Sync),
    pub(crate) render: &'a Render<'a>,
}

/// Runs `reader`'s puzzles through `jobs` threads; `write` gets the chunks
/// in input order, and says whether to go on.
pub(crate) fn pipeline<R: BufRead + Send>(
    mut reader: Reader<R>,
    jobs: usize,
    work: &Work<'_>,
    write: &mut dyn FnMut(&Chunk) -> bool,
) {
    batch::run(
        &work.settings,
        jobs,
        |n| reader.next_batch(n),
        |sudoku, records| {
            let mut chunk = Chunk::new();
            for record in records {
                let o = solve_record(sudoku, record, &(work.limits)());
                work.render.add(&mut chunk, &o);
                if chunk.stop {
                    break;
                }
            }
            chunk
        },
        |chunk| write(&chunk),
    );
}
