//! # dlx: exact cover by Dancing Links
//!
//! A generic exact-cover engine after Knuth's DLX1 and DLX2 (TAOCP 7.2.2.1,
//! Algorithms X and C), with a thin Sudoku layer on top.
//!
//! * [`dlx`](mod@crate::dlx) — the core: [`MatrixBuilder`], [`Matrix`], and
//!   [`Solver`], the one way in: it picks the engine (one search driver over
//!   four representations of the live matrix: dancing links, a bitset of
//!   options, bit-sliced lens, a bitmask per item; [`EngineKind`]) or takes
//!   the one a [`Config`] names; threads ([`count_parallel`]), Knuth's text
//!   format ([`knuth`]).
//! * [`sudoku`] — the thin Sudoku layer: grids 4×4 to 64×64, the 4·n²-item
//!   matrix, the judges' formats ([`sudoku::format`]), the backtracking
//!   baselines ([`sudoku::backtrack`]) behind one [`sudoku::SudokuSolver`]
//!   trait, an independent [`sudoku::check_solution`], and a generator.
//! * [`problems`] — generators for classic exact-cover problems (N queens,
//!   Langford pairs, polyomino packing), used by tests, benches and the CLI.
//!
//! The `dlx` binary (`dlx cover`, `dlx gen`, `dlx sudoku …`) is the only
//! place that prints or exits; see README.md for its commands and exit codes.
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
#![warn(missing_docs)]

pub mod dlx;
pub mod jobs;
pub mod problems;
pub mod sudoku;

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub use crate::dlx::{
    best_parallel, brute_force_count, count_parallel, count_parallel_with_progress, knuth,
    verify_cover, Best, BitsError, BitsMatrix, BitsSolutions, BitsSolver, Branching, Budget,
    BuildError, BuildErrorKind, Cancel, Cheapest, ColorId, Config, Costed, Count, DenseError,
    DenseMatrix, DenseSolutions, DenseSolver, Engine, EngineError, EngineKind, EngineTables,
    Estimate, ItemId, Limits, LinksSolutions, LinksSolver, MasksError, MasksMatrix, MasksSolutions,
    MasksSolver, Matrix, MatrixBuilder, OptionId, ParallelBest, ParallelCount, PreselectError,
    Progress, Residual, ResidualError, Solutions, Solver, Split, Spread, Stats, Step, Stop,
    Subtree, BRUTE_FORCE_OPTIONS, MAX_BITS_OPTIONS, MAX_BITS_PRIMARY, MAX_MASK_OPTIONS,
    PROGRESS_NODES,
};
