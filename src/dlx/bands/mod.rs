//! The *bands* engine: first-forced search of one matrix, classic 9×9
//! Sudoku's (the Sudoku layer's 324 items and 729 options, recognised from
//! the matrix by its options' items), with every forced option of a node
//! found by word operations and committed together.
//!
//! The live matrix is kept by digit and band: for digit `d` and band `b`
//! (rows `3b..3b+3`), one 27-bit word of the cells of the band where the
//! option "d at that cell" is active, or was committed. So:
//! * committing an option clears its cell from the other eight digits' words
//!   of its band, and its row, box and column from its digit's words (its
//!   own bit kept): a dozen word operations, where the masks engine hides
//!   up to 32 options one at a time;
//! * an item of len 1 is read off the words: a cell item (a naked single)
//!   by bit-sliced counting over a band's nine words, a row's or a box's
//!   (a hidden single) from the digit's word of the band, a column's by
//!   counting the digit's nine rows;
//! * and locked candidates come with it, band by band and stack by stack:
//!   in a band, each of three rows holds the digit in one of three boxes
//!   and each box in one row, a permutation; the three-cell pieces where a
//!   row meets a box that no permutation inside the live pieces uses are
//!   cleared (a table of the 512 patterns, `PERMUTED`), and the same for a
//!   stack's columns and boxes. A pattern no permutation fits is a dead
//!   end: an item of the band (a row's or a box's) has no option left.
//!
//! Invariants: a committed cell's bit is set in its digit's word alone, and
//! its row, box and column hold no other bit of that digit; a word changed
//! since its band was last reduced is marked in `Board::changed`, a digit
//! whose words changed since its stack was reduced in `Board::stacks`; the queue holds, in order, the options the
//! node's reduction committed that the driver has not been handed yet.
//!
//! The search is the one driver's (`search/driver.rs`): entering a node
//! reduces the board until nothing is forced (or a dead end), committing
//! every forced option at once and queueing them; the driver is then
//! handed them one a level, each a forced level of one option (so its
//! levels read a solution, as every engine's do), and a level with the
//! queue empty branches on a cell of fewest candidates (two where there
//! is one: a bivalue cell). The board (120 bytes) is saved at branch
//! points only; backing down jumps to the innermost branch point with an
//! option left (`Kernel::JUMPS`), as the masks engine does.
//!
//! Why an engine of one shape: classic Sudoku is the matrix most searched
//! by far, and there a forced option is most of a search's nodes (80 a
//! 17-clue puzzle, one guess); committing them a word at a time is where
//! the bitboard solvers' speed comes from (BENCHMARKS.md, "The bands
//! engine"). Other matrices are refused by name ([`BandsError`]), and the
//! library's automatic choice takes it only for first-forced on the
//! matrix it recognises. Its tree is its own: a node is a level the driver
//! entered (a forced option, a branch point, a dead end), not DLX1's, so
//! it takes first-forced only, never Knuth's rule.

mod search;

pub use search::{BandsSolutions, BandsSolver};

use crate::dlx::index::OptionId;
use crate::dlx::Matrix;
use std::fmt;

/// Cells of the grid, options (a digit at a cell) and items of the matrix
/// the engine takes.
const CELLS: usize = 81;
const OPTIONS: usize = 729;
const ITEMS: usize = 324;

/// Why a matrix is not classic 9×9 Sudoku's as the engine takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BandsError {
    /// Not 324 items, all primary, and 729 options.
    Size {
        /// The matrix's items.
        items: usize,
        /// Its primary items.
        primary: usize,
        /// Its options.
        options: usize,
    },
    /// The matrix has colors or multiplicities.
    Colors,
    /// An option is not a digit at a cell with its row's, column's and
    /// box's items (the Sudoku layer's layout: cells, then rows, columns
    /// and boxes by digit), or two options are the same.
    NotSudoku(OptionId),
}

impl fmt::Display for BandsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BandsError::Size {
                items,
                primary,
                options,
            } => write!(
                f,
                "the bands engine takes classic 9×9 Sudoku's matrix (324 primary items, 729 options), not {items} items ({primary} primary) and {options} options"
            ),
            BandsError::Colors => write!(
                f,
                "the bands engine takes classic 9×9 Sudoku's matrix, which has no colors or multiplicities"
            ),
            BandsError::NotSudoku(o) => write!(
                f,
                "option {o} is not a digit at a cell of classic 9×9 Sudoku's matrix (cell, row, column and box items, in the Sudoku layer's order), which the bands engine takes"
            ),
        }
    }
}

impl std::error::Error for BandsError {}

/// The bands engine's tables for one matrix: which option is which digit
/// at which cell.
#[derive(Clone, Debug)]
pub struct BandsMatrix {
    /// `option[cell·9 + d]`: the matrix's option placing digit `d + 1` at
    /// `cell` (row-major).
    option: Box<[u16; OPTIONS]>,
    /// `place[r]`: `cell·9 + d` of the matrix's option `r`.
    place: Box<[u16; OPTIONS]>,
}

impl BandsMatrix {
    /// The tables of `matrix`, or why it is not classic 9×9 Sudoku's: 324
    /// primary items (81 cells, then 81 row-digits, column-digits and
    /// box-digits, `row·9 + d` and so on) and 729 options, each a digit at a
    /// cell with its four items, in any order.
    pub fn new(matrix: &Matrix) -> Result<BandsMatrix, BandsError> {
        let (items, primary, options) = (
            matrix.item_count(),
            matrix.primary_count(),
            matrix.option_count(),
        );
        if items != ITEMS || primary != ITEMS || options != OPTIONS {
            return Err(BandsError::Size {
                items,
                primary,
                options,
            });
        }
        if matrix.has_colors() || matrix.has_bounds() {
            return Err(BandsError::Colors);
        }
        let mut option = Box::new([u16::MAX; OPTIONS]);
        let mut place = Box::new([0u16; OPTIONS]);
        for (r, at) in place.iter_mut().enumerate() {
            let o = OptionId::must(r);
            let mut its = [usize::MAX; 4];
            for (n, (i, color)) in matrix.option_items(o).enumerate() {
                if color.is_some() || n == 4 {
                    return Err(BandsError::NotSudoku(o));
                }
                its[n] = i.as_usize();
            }
            its.sort_unstable();
            let p = sudoku_place(its).ok_or(BandsError::NotSudoku(o))?;
            if option[p] != u16::MAX {
                return Err(BandsError::NotSudoku(o));
            }
            option[p] = r as u16;
            *at = p as u16;
        }
        Ok(BandsMatrix { option, place })
    }

    /// How many options the matrix has.
    pub fn option_count(&self) -> usize {
        OPTIONS
    }

    /// The matrix's option of `place` (`cell·9 + d`).
    fn option_of(&self, place: usize) -> u32 {
        u32::from(self.option[place])
    }

    /// `cell·9 + d` of the matrix's option `r`, or `None` past the last.
    fn place_of(&self, r: usize) -> Option<usize> {
        self.place.get(r).map(|&p| usize::from(p))
    }
}

/// `cell·9 + d` when sorted items `its` are a cell's, and its row's,
/// column's and box's for one digit `d`.
fn sudoku_place(its: [usize; 4]) -> Option<usize> {
    let [cell, row, col, bx] = its;
    if cell >= CELLS || !(81..162).contains(&row) {
        return None;
    }
    let (r, c) = (cell / 9, cell % 9);
    let d = (row - 81) % 9;
    let x = r / 3 * 3 + c / 3;
    let fits = (row - 81) / 9 == r && col == 162 + c * 9 + d && bx == 243 + x * 9 + d;
    fits.then_some(cell * 9 + d)
}

/// `PERMUTED[m]`, for `m` a 3×3 pattern of pieces (bit `3·r + x`: row `r`
/// of a band meets box `x` in a live cell; or, in a stack, band `r` meets
/// column `x`): the union of the permutations inside `m` (each row one
/// box, each box one row), 0 where none fits.
const PERMUTED: [u16; 512] = permuted();

const fn permuted() -> [u16; 512] {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 6 {
            let p = PERMUTATIONS[k];
            let bits = (1 << p[0]) | (1 << (3 + p[1])) | (1 << (6 + p[2]));
            if m & bits == bits {
                t[m] |= bits as u16;
            }
            k += 1;
        }
        m += 1;
    }
    t
}

/// `PIECES[m]`: the cells of the band's pieces in pattern `m` (piece
/// `3·r + x` is row `r`'s three cells in box `x`).
const PIECES: [u32; 512] = pieces();

const fn pieces() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 9 {
            if m >> k & 1 == 1 {
                t[m] |= 7 << ((k / 3) * 9 + (k % 3) * 3);
            }
            k += 1;
        }
        m += 1;
    }
    t
}

/// `BOXES[row]`: for a row's nine bits, the boxes (three bits) where it
/// has any.
const BOXES: [u8; 512] = boxes();

const fn boxes() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut x = 0;
        while x < 3 {
            if m >> (3 * x) & 7 != 0 {
                t[m] |= 1 << x;
            }
            x += 1;
        }
        m += 1;
    }
    t
}

/// A row of a band's word (its three rows, nine bits each).
const ROW: u32 = 0x1ff;
/// Every cell of a band.
const BAND: u32 = (1 << 27) - 1;
/// Column 0 of a band's three rows.
const COLUMN: u32 = 1 | 1 << 9 | 1 << 18;
/// Box 0 of a band.
const BOX: u32 = 7 | 7 << 9 | 7 << 18;

/// A board: the live options by band and digit, and the cells not yet
/// committed.
#[derive(Clone, Copy, Debug)]
struct Board {
    /// `live[9·b + d]`: the cells of band `b` where digit `d` is active or
    /// committed (bit `9·r + c`: row `3b + r`, column `c`); 32 words, the
    /// last five unused, so that an index below 32 needs no bounds check.
    live: [u32; 32],
    /// The cells of each band not yet committed (a fourth word, always 0,
    /// for indexes below 4 without bounds checks).
    open: [u32; 4],
    /// The words (`9·b + d`) changed since their band was last reduced.
    changed: u32,
    /// The digits whose words changed since their stacks were reduced
    /// (and their columns' hidden singles looked for).
    stacks: u16,
}

/// What committing an option did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Put {
    /// Committed now.
    Placed,
    /// Its cell was committed already, to this digit.
    Already,
    /// The option is not active: a dead end.
    Dead,
}

impl Board {
    /// The empty grid's board.
    fn empty() -> Board {
        Board {
            live: [BAND; 32],
            open: [BAND, BAND, BAND, 0],
            changed: BAND,
            stacks: 0x1ff,
        }
    }

    /// Whether every cell is committed.
    fn solved(&self) -> bool {
        self.open == [0; 4]
    }

    /// Commits digit `d` at cell `i` of band `b` (`i` = `9·r + c`).
    #[inline(always)]
    fn put(&mut self, b: usize, d: usize, i: usize) -> Put {
        let bit = 1u32 << i;
        let w = 9 * b + d;
        if self.live[w & 31] & bit == 0 {
            return Put::Dead;
        }
        if self.open[b & 3] & bit == 0 {
            return Put::Already;
        }
        self.open[b & 3] &= !bit;
        let (r, c) = (i / 9, i % 9);
        let column = COLUMN << c;
        let peers = ROW << (9 * r) | BOX << (c / 3 * 3) | column;
        // The column leaves the digit's three words (the changed ones
        // marked without a branch), then its own band keeps the cell alone
        // in its row, box and column.
        let mut changed = 1u32 << w;
        for v in [d, 9 + d, 18 + d] {
            let before = self.live[v & 31];
            self.live[v & 31] = before & !column;
            changed |= u32::from(before & column != 0) << v;
        }
        self.live[w & 31] = self.live[w & 31] & !peers | bit;
        // The cell leaves the band's other digits: one word each, the
        // changed ones marked without a branch (marking only those whose
        // piece or row the cell leaves nearly empty skips reductions and
        // costs more than it saves).
        let band = &mut self.live[9 * b..9 * b + 9];
        let mut moved = 0u32;
        for (e, word) in band.iter_mut().enumerate() {
            let before = *word;
            *word = before & !bit;
            moved |= u32::from(*word != before) << e;
        }
        band[d] |= bit;
        moved &= !(1 << d);
        self.changed |= changed | moved << (9 * b);
        Put::Placed
    }
}

/// The options a node's reduction committed, in order, as `cell·9 + d`,
/// and how many of them the driver has been handed.
#[derive(Clone, Debug)]
struct Queue {
    places: [u16; CELLS],
    len: usize,
    next: usize,
}

impl Queue {
    fn new() -> Queue {
        Queue {
            places: [0; CELLS],
            len: 0,
            next: 0,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.next = 0;
    }

    fn is_empty(&self) -> bool {
        self.next == self.len
    }

    /// The next option not yet handed to the driver.
    fn pop(&mut self) -> Option<usize> {
        let p = *self.places[..self.len].get(self.next)?;
        self.next += 1;
        Some(usize::from(p))
    }
}

impl Board {
    /// Commits digit `d` at cell `i` of band `b`, found forced: queued
    /// when committed now. `false`: a dead end.
    #[inline(always)]
    fn force(&mut self, b: usize, d: usize, i: usize, queue: &mut Queue) -> bool {
        match self.put(b, d, i) {
            Put::Placed => {
                // At most one commit a cell: the queue has room.
                if let Some(at) = queue.places.get_mut(queue.len) {
                    *at = ((27 * b + i) * 9 + d) as u16;
                    queue.len += 1;
                }
                true
            }
            Put::Already => true,
            Put::Dead => false,
        }
    }

    /// Reduces the board until nothing is forced: every item of len 1 has
    /// its option committed (and queued), and no band's or stack's pattern
    /// of pieces has a piece no permutation uses. `false` at a dead end: an
    /// item with no option left. Cheapest first: the bands' changed words
    /// (rows and boxes), then cells, then stacks (and columns), each pass
    /// only where the one before found nothing.
    fn reduce(&mut self, queue: &mut Queue) -> bool {
        loop {
            let mut digits = 0u32;
            while self.changed != 0 {
                let w = self.changed.trailing_zeros() as usize;
                self.changed &= self.changed - 1;
                let (b, d) = (w / 9, w % 9);
                digits |= 1 << d;
                let live = self.live[w & 31];
                let pattern = usize::from(BOXES[(live & ROW) as usize])
                    | usize::from(BOXES[(live >> 9 & ROW) as usize]) << 3
                    | usize::from(BOXES[(live >> 18 & ROW) as usize]) << 6;
                let kept = PERMUTED[pattern & 511];
                if kept == 0 {
                    return false;
                }
                let live = live & PIECES[usize::from(kept) & 511];
                self.live[w & 31] = live;
                // A row of one cell left (each row has some: a permutation
                // fits) is a hidden single, of its row and, a permutation
                // fitting, of its box.
                let low = live & live.wrapping_sub(1 | 1 << 9 | 1 << 18);
                let row = |r: u32| {
                    0u32.wrapping_sub(u32::from(low >> (9 * r) & ROW == 0)) & ROW << (9 * r)
                };
                let single = row(0) | row(1) | row(2);
                let mut new = live & single & self.open[b & 3];
                while new != 0 {
                    let i = new.trailing_zeros() as usize;
                    new &= new - 1;
                    if !self.force(b, d, i, queue) {
                        return false;
                    }
                }
            }
            // (Below 1 << 9: `d` is below 9.)
            self.stacks |= digits as u16;
            match self.cells(queue) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.stacks(queue) {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Naked singles: the open cells with one digit left, committed.
    /// `None`: an open cell with none.
    #[inline(never)]
    fn cells(&mut self, queue: &mut Queue) -> Option<bool> {
        let mut any = false;
        for b in 0..3 {
            let open = self.open[b & 3];
            if open == 0 {
                continue;
            }
            let (mut once, mut twice) = (0u32, 0u32);
            for d in 0..9 {
                let x = self.live[(9 * b + d) & 31] & open;
                twice |= once & x;
                once |= x;
            }
            if once != open {
                return None;
            }
            let single = once & !twice;
            if single == 0 {
                continue;
            }
            any = true;
            for d in 0..9 {
                let mut x = self.live[(9 * b + d) & 31] & single;
                while x != 0 {
                    let i = x.trailing_zeros() as usize;
                    x &= x - 1;
                    if !self.force(b, d, i, queue) {
                        return None;
                    }
                }
            }
        }
        Some(any)
    }

    /// Locked candidates by stack, and hidden singles of columns: in each
    /// stack, each of its three columns holds a digit in one band and each
    /// band in one column, a permutation; the pieces (a column's three
    /// cells in a band) no permutation inside the live ones uses are
    /// cleared. Then a column left with its digit in one band, and there
    /// in one row, is a hidden single, committed. `None`: a stack no
    /// permutation fits (a column or a box with no option left).
    #[inline(never)]
    fn stacks(&mut self, queue: &mut Queue) -> Option<bool> {
        let mut any = false;
        let mut digits = std::mem::take(&mut self.stacks);
        while digits != 0 {
            let d = usize::from(digits.trailing_zeros() as u8);
            digits &= digits - 1;
            let columns = |w: u32| (w | w >> 9 | w >> 18) & ROW;
            let live = [
                columns(self.live[d & 31]),
                columns(self.live[(9 + d) & 31]),
                columns(self.live[(18 + d) & 31]),
            ];
            let mut kept = [0u32; 3];
            for stack in 0..3 {
                let at = 3 * stack;
                let pattern =
                    (live[0] >> at & 7) | (live[1] >> at & 7) << 3 | (live[2] >> at & 7) << 6;
                let k = u32::from(PERMUTED[pattern as usize & 511]);
                if k == 0 {
                    return None;
                }
                kept[0] |= (k & 7) << at;
                kept[1] |= (k >> 3 & 7) << at;
                kept[2] |= (k >> 6 & 7) << at;
            }
            for b in 0..3 {
                let w = (9 * b + d) & 31;
                let k = kept[b];
                if live[b] & !k != 0 {
                    self.live[w] &= k | k << 9 | k << 18;
                    self.changed |= 1 << w;
                    any = true;
                }
                // The columns of this band alone, held by one row.
                let word = self.live[w];
                let (r0, r1, r2) = (word & ROW, word >> 9 & ROW, word >> 18 & ROW);
                let twice = r0 & r1 | r0 & r2 | r1 & r2;
                let mut single = k & !(kept[(b + 1) % 3] | kept[(b + 2) % 3]) & !twice;
                while single != 0 {
                    let c = single.trailing_zeros();
                    single &= single - 1;
                    let cell = word & COLUMN << c;
                    if cell & self.open[b & 3] != 0 {
                        any = true;
                        if !self.force(b, d, cell.trailing_zeros() as usize, queue) {
                            return None;
                        }
                    }
                }
            }
        }
        Some(any)
    }

    /// The open cell to branch on, with its digits: the first with two
    /// (band by band), else the first with three, else the first of fewest.
    /// `None` when every cell is committed.
    fn branch_cell(&self) -> Option<(usize, u32)> {
        let mut best: Option<(usize, u32)> = None;
        let mut least = u32::MAX;
        for b in 0..3 {
            let open = self.open[b & 3];
            if open == 0 {
                continue;
            }
            // Bit-sliced counts: `at[k]`, the cells with more than `k`
            // digits live.
            let mut at = [0u32; 4];
            for d in 0..9 {
                let x = self.live[(9 * b + d) & 31] & open;
                at[3] |= at[2] & x;
                at[2] |= at[1] & x;
                at[1] |= at[0] & x;
                at[0] |= x;
            }
            let pair = at[1] & !at[2];
            if pair != 0 {
                let i = pair.trailing_zeros() as usize;
                return Some((27 * b + i, self.digits(b, i)));
            }
            let three = at[2] & !at[3];
            let i = if three != 0 {
                three.trailing_zeros()
            } else {
                open.trailing_zeros()
            } as usize;
            let digits = self.digits(b, i);
            if digits.count_ones() < least {
                least = digits.count_ones();
                best = Some((27 * b + i, digits));
            }
        }
        best
    }

    /// The digits live at cell `i` of band `b` (bit `d`).
    fn digits(&self, b: usize, i: usize) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= (self.live[(9 * b + d) & 31] >> i & 1) << d;
        }
        digits
    }
}
