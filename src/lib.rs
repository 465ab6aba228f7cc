//! # dlx: exact cover by Dancing Links
//!
//! A generic exact-cover engine after Knuth's DLX1, DLX2, DLX3 and DLX5
//! (TAOCP 7.2.2.1, Algorithms X, C and M, with costs), with a thin Sudoku
//! layer on top. One library under every front end: the `dlx` binary (a
//! package of its own, `cli/`, so that the library's users compile none of
//! its dependencies), the Python wheel and the page (the library builds for
//! `wasm32-unknown-unknown`).
//!
//! The front door, at the crate root:
//! * [`MatrixBuilder`] → [`Matrix`] (or [`knuth::read`] for Knuth's text
//!   format): items, options, colors, multiplicities, costs.
//! * [`Solver`]: the one way to search. It picks the engine (one search
//!   driver over four representations of the live matrix; [`EngineKind`])
//!   or takes the one a [`Config`] names, refusing by name what an engine
//!   cannot take ([`EngineError`]); first, count, a lazy iterator, the k
//!   cheapest, estimates, `split`; threads with [`Config::jobs`]. It owns
//!   or borrows its matrix ([`Shared`]): `Solver<'static>` is `Send`.
//! * [`Limits`]: a node or update [`Budget`], a deadline and a [`Cancel`]
//!   handle that another thread sets; a stopped search says so
//!   ([`Stop`], `complete: false`), never "none".
//! * [`sudoku`]: [`sudoku::Puzzle`] (rules plus givens, classic or
//!   variant) and [`sudoku::Sudoku`], the one solver of puzzles, with
//!   [`sudoku::batch`] for many on N threads in input order.
//! * [`jobs`]: a search cut into job lines for other machines, run and
//!   merged exactly.
//! * [`problems`]: generators for classic exact-cover problems (N queens,
//!   Langford pairs, polyomino packing).
//! * [`engines`]: each engine's own solver and tables, for experts.
//!
//! Library code never prints and never panics on input; the `dlx` binary
//! is the only place that prints or exits (see docs/cli.md for its commands
//! and exit codes).
//!
//! ```
//! use dlx::{MatrixBuilder, Solver};
//!
//! // Items A, B, C; find the ways to cover each exactly once.
//! let mut b = MatrixBuilder::new();
//! let [a, bb, c] = ["A", "B", "C"].map(|n| b.primary(n).unwrap());
//! b.option(&[a, bb]).unwrap();
//! b.option(&[c]).unwrap();
//! b.option(&[a]).unwrap();
//! b.option(&[bb, c]).unwrap();
//! let matrix = b.build().unwrap();
//!
//! let mut solver = Solver::new(&matrix);
//! let all: Vec<_> = solver.solutions().collect();
//! assert_eq!(all.len(), 2);
//! for solution in &all {
//!     dlx::verify_cover(&matrix, solution).unwrap();
//! }
//! println!("{} engine: {} nodes, {} updates", solver.engine(), solver.stats().nodes, solver.stats().updates);
//! ```

#![deny(unsafe_code)]
#![warn(missing_docs, missing_debug_implementations)]

mod dlx;
pub mod engines;
pub mod jobs;
pub mod logic;
pub mod problems;
pub mod sudoku;

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The library guide's examples (docs/library.md), compiled and run as
/// doctests.
#[doc = include_str!("../docs/library.md")]
#[cfg(doctest)]
pub struct LibraryDoctests;

pub use crate::dlx::{
    brute_force_count, knuth, verify_cover, AutoCount, Best, BigCount, Blame, Branching, Budget,
    BuildError, BuildErrorKind, Cancel, Cheapest, ColorId, Config, Costed, Count, CoverError,
    EngineError, EngineKind, Estimate, Forecast, ItemId, Limits, Live, Matrix, MatrixBuilder, Memo,
    MemoCount, MemoError, MemoOrder, MemoStats, OptionId, PreselectError, Progress, Propagator,
    Residual, ResidualError, Shared, Shuffled, Solutions, Solver, Split, Spread, Stats, Step, Stop,
    Strategy, Subtree, BRUTE_FORCE_OPTIONS, DEFAULT_MEMO_BYTES, LOOK_NODES, LOOK_UPDATES,
    PROGRESS_NODES,
};
