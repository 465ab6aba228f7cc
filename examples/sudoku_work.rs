//! Where a DLX Sudoku solve spends its work: updates for the givens
//! (preselect) against the search, per puzzle, on a file in `line` format.
//!
//! `cargo run --release --example sudoku_work -- FILE`

use dlx::engines::LinksSolver;
use dlx::sudoku::{format, SudokuMatrix};
use dlx::{Branching, Step};
use std::io::BufRead;

fn main() {
    let path = std::env::args().nth(1).expect("usage: sudoku_work FILE");
    let file = std::io::BufReader::new(std::fs::File::open(&path).expect("cannot open FILE"));
    let cover = SudokuMatrix::new(3).expect("9x9 matrix");
    for branching in [Branching::Knuth, Branching::FirstForced] {
        let mut solver = LinksSolver::new(cover.matrix());
        solver.set_branching(branching).unwrap();
        let (mut puzzles, mut pre, mut search, mut nodes) = (0u64, 0u64, 0u64, 0u64);
        let file = std::io::BufReader::new(std::fs::File::open(&path).expect("cannot open FILE"));
        for line in file.lines().map_while(Result::ok) {
            let Ok(grid) = format::parse_line(&line) else {
                continue;
            };
            solver.reset();
            for (k, &d) in grid.cells().iter().enumerate() {
                if d != 0 {
                    solver
                        .preselect(cover.option(k / 9, k % 9, d))
                        .expect("valid givens");
                }
            }
            let after_givens = solver.stats().updates;
            let mut found = 0;
            while found < 2 && solver.next_solution() == Step::Solution {
                found += 1;
            }
            puzzles += 1;
            pre += after_givens;
            search += solver.stats().updates - after_givens;
            nodes += solver.stats().nodes;
        }
        let p = puzzles.max(1) as f64;
        println!(
            "{branching:?}: {puzzles} puzzles; per puzzle: {:.0} updates for givens, {:.0} in the search, {:.0} nodes",
            pre as f64 / p,
            search as f64 / p,
            nodes as f64 / p
        );
    }
    drop(file);
}
