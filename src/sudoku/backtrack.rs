//! The backtracking baselines: what the judges' textbook solutions do,
//! written as well as they can be, so DLX is measured against them honestly.
//!
//! * `backtrack` (POJ 2676 / LeetCode 37): empty cells in row-major order,
//!   digits tried 1..n, a "used" bitmask per row, column and box.
//! * `backtrack-mrv` (POJ 3074): before branching, place every naked single
//!   (a cell with one candidate) and hidden single (a digit with one possible
//!   cell in a row, column or box), failing at once on a cell with no
//!   candidate or a digit with no cell; then branch on the empty cell with the
//!   fewest candidates. The masks are updated incrementally, with a trail of
//!   placed cells to undo.
//!
//! Both are iterative (an explicit stack, no recursion) and allocate only when
//! made, for one grid size. Digits are bits `1 << (d - 1)` of a `u64`, which
//! covers box sides up to 8. A *node* is one digit placed by a branch (not a
//! forced placement), so node counts compare with DLX's search-tree nodes;
//! a *guess* is a branch on a cell with two candidates or more, as DLX's is
//! a branch point.

use super::grid::Grid;
use super::{Answer, Limits, SudokuSolver};
use crate::dlx::Stop;

/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 12;

/// A backtracking solver for one grid size.
#[derive(Clone, Debug)]
pub struct Backtrack {
    b: usize,
    n: usize,
    mrv: bool,
    full: u64,
    cells: Vec<u8>,
    /// Used digits of each row, column and box.
    row: Vec<u64>,
    col: Vec<u64>,
    bx: Vec<u64>,
    /// The box of each cell.
    box_of: Vec<u16>,
    /// Cells of each unit: rows, then columns, then boxes.
    units: Vec<Vec<u16>>,
    /// Cells placed since the start, in order (for undo).
    trail: Vec<u16>,
    /// The search stack: for each branch, the trail length before it, the
    /// cell, and the digits still to try.
    stack: Vec<(u32, u16, u64)>,
    /// Row-major empty cells (plain backtracking only).
    empties: Vec<u16>,
}

impl Backtrack {
    /// A solver for box side `b`; `mrv` selects `backtrack-mrv`.
    pub fn new(b: usize, mrv: bool) -> Backtrack {
        let n = b * b;
        let box_of: Vec<u16> = (0..n * n)
            .map(|k| ((k / n / b) * b + (k % n) / b) as u16)
            .collect();
        let mut units = vec![Vec::with_capacity(n); 3 * n];
        for k in 0..n * n {
            units[k / n].push(k as u16);
            units[n + k % n].push(k as u16);
            units[2 * n + box_of[k] as usize].push(k as u16);
        }
        Backtrack {
            b,
            n,
            mrv,
            full: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            cells: vec![0; n * n],
            row: vec![0; n],
            col: vec![0; n],
            bx: vec![0; n],
            box_of,
            units,
            trail: Vec::with_capacity(n * n),
            stack: Vec::with_capacity(n * n),
            empties: Vec::with_capacity(n * n),
        }
    }

    #[inline]
    fn candidates(&self, k: usize) -> u64 {
        let n = self.n;
        self.full & !(self.row[k / n] | self.col[k % n] | self.bx[self.box_of[k] as usize])
    }

    #[inline]
    fn place(&mut self, k: usize, bit: u64) {
        let n = self.n;
        self.cells[k] = bit.trailing_zeros() as u8 + 1;
        self.row[k / n] |= bit;
        self.col[k % n] |= bit;
        self.bx[self.box_of[k] as usize] |= bit;
        self.trail.push(k as u16);
    }

    fn undo_to(&mut self, mark: usize) {
        let n = self.n;
        while self.trail.len() > mark {
            let k = self.trail.pop().unwrap_or(0) as usize;
            let bit = 1u64 << (self.cells[k] - 1);
            self.cells[k] = 0;
            self.row[k / n] &= !bit;
            self.col[k % n] &= !bit;
            self.bx[self.box_of[k] as usize] &= !bit;
        }
    }

    /// Loads the givens; false when two of them clash.
    fn load(&mut self, puzzle: &Grid) -> bool {
        self.trail.clear();
        self.stack.clear();
        self.cells.fill(0);
        self.row.fill(0);
        self.col.fill(0);
        self.bx.fill(0);
        for (k, &d) in puzzle.cells().iter().enumerate() {
            if d != 0 {
                let bit = 1u64 << (d - 1);
                if self.candidates(k) & bit == 0 {
                    return false;
                }
                self.place(k, bit);
            }
        }
        true
    }

    /// Places naked and hidden singles until none is left. Returns `None` on
    /// a contradiction, else the empty cell with the fewest candidates (or
    /// `usize::MAX` when the grid is full).
    fn propagate(&mut self) -> Option<usize> {
        loop {
            let mut changed = false;
            let mut best = usize::MAX;
            let mut best_count = u32::MAX;
            for k in 0..self.n * self.n {
                if self.cells[k] != 0 {
                    continue;
                }
                let c = self.candidates(k);
                let count = c.count_ones();
                if count == 0 {
                    return None;
                }
                if count == 1 {
                    self.place(k, c);
                    changed = true;
                } else if count < best_count {
                    best = k;
                    best_count = count;
                }
            }
            if changed {
                continue;
            }
            for u in 0..3 * self.n {
                let (mut once, mut twice, mut used) = (0u64, 0u64, 0u64);
                for &k in &self.units[u] {
                    let k = k as usize;
                    if self.cells[k] != 0 {
                        used |= 1 << (self.cells[k] - 1);
                    } else {
                        let c = self.candidates(k);
                        twice |= once & c;
                        once |= c;
                    }
                }
                let needed = self.full & !used;
                if needed & !once != 0 {
                    return None; // a digit with no place in this unit
                }
                let mut singles = once & !twice & needed;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles ^= bit;
                    let cell = self.units[u]
                        .iter()
                        .map(|&k| k as usize)
                        .find(|&k| self.cells[k] == 0 && self.candidates(k) & bit != 0);
                    match cell {
                        Some(k) => {
                            self.place(k, bit);
                            changed = true;
                        }
                        None => return None, // taken by another single just now
                    }
                }
            }
            if !changed {
                return Some(best);
            }
        }
    }

    fn solve_plain(&mut self, limits: &Limits, solution: &mut Grid, answer: &mut Answer) {
        self.empties.clear();
        self.empties.extend(
            (0..self.n * self.n)
                .filter(|&k| self.cells[k] == 0)
                .map(|k| k as u16),
        );
        let depth = self.empties.len();
        // stack[level] = (unused, cell, digits left to try at this level)
        let mut level = 0;
        if depth == 0 {
            self.record(solution, answer);
            answer.complete = true;
            return;
        }
        let k0 = self.empties[0] as usize;
        let c = self.candidates(k0);
        answer.guesses += u64::from(c.count_ones() >= 2);
        self.stack.push((0, k0 as u16, c));
        loop {
            let (_, k, left) = self.stack[level];
            let k = k as usize;
            if self.cells[k] != 0 {
                self.undo_one(k);
            }
            if left == 0 {
                self.stack.pop();
                if level == 0 {
                    answer.complete = true;
                    return;
                }
                level -= 1;
                continue;
            }
            let bit = left & left.wrapping_neg();
            self.stack[level].2 = left ^ bit;
            self.place(k, bit);
            self.trail.pop(); // plain search undoes cell by cell, not by trail
            answer.nodes += 1;
            if answer.nodes.is_multiple_of(CLOCK_EVERY) {
                if let Some(stop) = limits.stop() {
                    answer.timed_out = stop == Stop::Deadline;
                    answer.cancelled = stop == Stop::Cancelled;
                    return;
                }
            }
            if level + 1 == depth {
                if self.record(solution, answer) >= limits.solutions {
                    return;
                }
                continue;
            }
            level += 1;
            let next = self.empties[level] as usize;
            let c = self.candidates(next);
            answer.guesses += u64::from(c.count_ones() >= 2);
            self.stack.push((0, next as u16, c));
        }
    }

    fn undo_one(&mut self, k: usize) {
        let n = self.n;
        let bit = 1u64 << (self.cells[k] - 1);
        self.cells[k] = 0;
        self.row[k / n] &= !bit;
        self.col[k % n] &= !bit;
        self.bx[self.box_of[k] as usize] &= !bit;
    }

    fn solve_mrv(&mut self, limits: &Limits, solution: &mut Grid, answer: &mut Answer) {
        // Each frame: trail length before the branch, the cell, digits left.
        let mut forward = true;
        loop {
            if forward {
                match self.propagate() {
                    Some(usize::MAX) if self.record(solution, answer) >= limits.solutions => return,
                    Some(usize::MAX) => {}
                    Some(k) => {
                        let c = self.candidates(k);
                        answer.guesses += u64::from(c.count_ones() >= 2);
                        self.stack.push((self.trail.len() as u32, k as u16, c));
                    }
                    None => {}
                }
            }
            // Try the next digit of the innermost branch.
            let Some(&(mark, k, left)) = self.stack.last() else {
                answer.complete = true;
                return;
            };
            self.undo_to(mark as usize);
            if left == 0 {
                self.stack.pop();
                forward = false;
                continue;
            }
            let bit = left & left.wrapping_neg();
            if let Some(top) = self.stack.last_mut() {
                top.2 = left ^ bit;
            }
            self.place(k as usize, bit);
            answer.nodes += 1;
            if answer.nodes.is_multiple_of(CLOCK_EVERY) {
                if let Some(stop) = limits.stop() {
                    answer.timed_out = stop == Stop::Deadline;
                    answer.cancelled = stop == Stop::Cancelled;
                    return;
                }
            }
            forward = true;
        }
    }

    /// Counts a solution, copying the first; returns the count so far.
    fn record(&mut self, solution: &mut Grid, answer: &mut Answer) -> u64 {
        answer.solutions += 1;
        if answer.solutions == 1 {
            if solution.box_side() != self.b {
                if let Some(g) = Grid::empty(self.b) {
                    *solution = g;
                }
            }
            for (k, &d) in self.cells.iter().enumerate() {
                solution.set(k / self.n, k % self.n, d);
            }
        }
        answer.solutions
    }
}

impl SudokuSolver for Backtrack {
    fn solve(&mut self, puzzle: &Grid, limits: &Limits, solution: &mut Grid) -> Answer {
        let mut answer = Answer::default();
        if puzzle.box_side() != self.b || limits.solutions == 0 {
            return answer;
        }
        if !self.load(puzzle) {
            answer.complete = true;
            return answer;
        }
        if self.mrv {
            self.solve_mrv(limits, solution, &mut answer);
        } else {
            self.solve_plain(limits, solution, &mut answer);
        }
        answer
    }
}
