//! The integration tests, in one binary: one link and one build of what
//! the tests share, where a binary per file built and linked each of them
//! again (the larger part of CI's time). Each file is a module, and reads as
//! it did on its own: `cargo test --profile quick --test suite engines::`
//! runs one file, `... -- cli::ctrl_c` one test.

mod common;

mod best;
mod cli;
mod engines;
mod exact_cover;
mod generate_variants;
mod how_long;
mod io_contract;
mod jobs;
mod multiplicities;
mod residual;
mod variants;
