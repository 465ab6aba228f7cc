//! Tilings of any board by polyominoes: the board and the pieces as
//! pictures, the standard families by name, each piece used once, any
//! number of times or between bounds, and the board's symmetric copies of
//! each tiling folded away when asked.
//!
//! Pictures: rows of `#` (a cell) and `.` (no cell: a hole, or outside the
//! board); a line starting with `|` is a comment. In a file of pieces the
//! pictures are separated by blank lines, and a line `= NAME` names the
//! picture after it (else they are `p1`, `p2`, …).
//!
//! The matrix: an item per cell (`r{row}c{col}`) and, unless pieces may be
//! used any number of times, an item per piece (primary, with DLX3's bounds
//! `u:v|` when they are not 1); an option per placement of each orientation
//! of each piece (free pieces: rotations and reflections; one-sided:
//! rotations).
//!
//! Distinct tilings ([`Tiling::distinct`]): the board's symmetries (those of
//! its bounding box that map its cells onto its cells; rotations only for
//! one-sided pieces) turn each tiling into others. One piece used exactly
//! once, with no symmetry of its own among the board's, is kept to one
//! placement of each orbit of the board's symmetries (the least, by its
//! cells); then every tiling is counted once with its copies folded away.
//! No such piece: refused by name, never a wrong count.

use std::collections::BTreeSet;
use std::fmt;

use crate::dlx::{BuildError, Matrix, MatrixBuilder};

/// A cell: (row, column).
pub type Cell = (i32, i32);

/// Why a tiling cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TilingError {
    /// A picture has a character other than `#`, `.` or space (line, char).
    Picture(usize, char),
    /// A board or piece with no cell.
    Empty(String),
    /// A piece's cells are not connected (edge to edge).
    Disconnected(String),
    /// Two pieces have the same name.
    DuplicateName(String),
    /// A family of pieces asked by size outside 1 to 7 cells.
    Family(usize),
    /// Distinct tilings need a piece used once with no symmetry of the
    /// board's, and none is.
    NoAsymmetricPiece,
    /// The matrix could not be built.
    Build(BuildError),
}

impl fmt::Display for TilingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TilingError::Picture(line, c) => write!(
                f,
                "line {line}: `{c}` in a picture (cells are `#`, holes `.`)"
            ),
            TilingError::Empty(what) => write!(f, "{what} has no cell"),
            TilingError::Disconnected(name) => {
                write!(f, "piece `{name}`: its cells do not touch edge to edge")
            }
            TilingError::DuplicateName(name) => write!(f, "two pieces are named `{name}`"),
            TilingError::Family(n) => write!(
                f,
                "no family of pieces of {n} cells here (monominoes to heptominoes: 1 to 7)"
            ),
            TilingError::NoAsymmetricPiece => write!(
                f,
                "distinct tilings need a piece used exactly once with no symmetry of the board's; none is"
            ),
            TilingError::Build(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TilingError {}

impl From<BuildError> for TilingError {
    fn from(e: BuildError) -> Self {
        TilingError::Build(e)
    }
}

/// A board: the cells to cover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    cells: BTreeSet<Cell>,
}

impl Board {
    /// Reads a picture (`#` a cell, `.` or space none).
    pub fn parse(text: &str) -> Result<Board, TilingError> {
        let cells = picture(text.lines().enumerate())?;
        if cells.is_empty() {
            return Err(TilingError::Empty("the board".into()));
        }
        // From row and column 0, so that its box is its own.
        let cells = normalized(cells.into_iter().collect())
            .into_iter()
            .collect();
        Ok(Board { cells })
    }

    /// A `rows` × `cols` rectangle.
    pub fn rectangle(rows: i32, cols: i32) -> Board {
        Board {
            cells: (0..rows)
                .flat_map(|r| (0..cols).map(move |c| (r, c)))
                .collect(),
        }
    }

    /// The cells, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.cells.iter().copied()
    }

    /// The board's symmetries: the maps of its bounding box (rotations
    /// only, or with reflections) that take its cells onto its cells.
    fn symmetries(&self, reflections: bool) -> Vec<u8> {
        let (h, w) = extent(&self.cells);
        (0..8u8)
            .filter(|&t| reflections || is_rotation(t))
            .filter(|&t| t & 4 == 0 || h == w)
            .filter(|&t| {
                self.cells
                    .iter()
                    .all(|&p| self.cells.contains(&map_in_box(t, p, h, w)))
            })
            .collect()
    }
}

/// A piece: its name and cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The piece's name (its item in the matrix).
    pub name: String,
    /// Its cells (any offset).
    pub cells: Vec<Cell>,
}

/// Reads pieces: pictures separated by blank lines, each after an optional
/// `= NAME` line.
pub fn parse_pieces(text: &str) -> Result<Vec<Piece>, TilingError> {
    let mut pieces = Vec::new();
    let mut name: Option<String> = None;
    let mut rows: Vec<(usize, &str)> = Vec::new();
    let flush = |name: &mut Option<String>,
                 rows: &mut Vec<(usize, &str)>,
                 pieces: &mut Vec<Piece>|
     -> Result<(), TilingError> {
        if rows.is_empty() {
            return Ok(());
        }
        let cells = picture(rows.drain(..))?;
        let name = name
            .take()
            .unwrap_or_else(|| format!("p{}", pieces.len() + 1));
        pieces.push(piece(name, cells.into_iter().collect())?);
        Ok(())
    };
    for (k, line) in text.lines().enumerate() {
        let t = line.trim_end();
        if t.starts_with('|') {
            continue;
        }
        if let Some(n) = t.trim_start().strip_prefix('=') {
            flush(&mut name, &mut rows, &mut pieces)?;
            name = Some(n.trim().to_string());
        } else if t.trim().is_empty() {
            flush(&mut name, &mut rows, &mut pieces)?;
        } else {
            rows.push((k, line));
        }
    }
    flush(&mut name, &mut rows, &mut pieces)?;
    let mut seen = BTreeSet::new();
    for p in &pieces {
        if !seen.insert(p.name.as_str()) {
            return Err(TilingError::DuplicateName(p.name.clone()));
        }
    }
    Ok(pieces)
}

/// A piece, checked: cells, connected.
fn piece(name: String, cells: Vec<Cell>) -> Result<Piece, TilingError> {
    if cells.is_empty() {
        return Err(TilingError::Empty(format!("piece `{name}`")));
    }
    if !connected(&cells) {
        return Err(TilingError::Disconnected(name));
    }
    // A name the matrix cannot take is refused when it is built.
    Ok(Piece { name, cells })
}

/// The cells of a picture's rows (numbered lines).
fn picture<'a>(
    rows: impl Iterator<Item = (usize, &'a str)>,
) -> Result<BTreeSet<Cell>, TilingError> {
    let mut cells = BTreeSet::new();
    let mut first = None;
    for (line, row) in rows {
        if row.trim_start().starts_with('|') {
            continue;
        }
        let r = line - *first.get_or_insert(line);
        for (c, ch) in row.chars().enumerate() {
            match ch {
                '#' => {
                    cells.insert((r as i32, c as i32));
                }
                '.' | ' ' => {}
                other => return Err(TilingError::Picture(line + 1, other)),
            }
        }
    }
    Ok(cells)
}

fn connected(cells: &[Cell]) -> bool {
    let all: BTreeSet<Cell> = cells.iter().copied().collect();
    let mut seen = BTreeSet::from([cells[0]]);
    let mut todo = vec![cells[0]];
    while let Some((r, c)) = todo.pop() {
        for n in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] {
            if all.contains(&n) && seen.insert(n) {
                todo.push(n);
            }
        }
    }
    seen.len() == all.len()
}

/// Map `t` of the 8 symmetries of the square: bit 2 transposes, bit 0
/// negates the row, bit 1 the column.
fn map(t: u8, (r, c): Cell) -> Cell {
    let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
    (
        if t & 1 != 0 { -r } else { r },
        if t & 2 != 0 { -c } else { c },
    )
}

/// Whether map `t` is a rotation (keeps orientation): an even number of
/// reflections among transpose, row and column negation.
fn is_rotation(t: u8) -> bool {
    t.count_ones().is_multiple_of(2)
}

/// Map `t` inside a box of `h` × `w` cells (rows 0..h, columns 0..w): the
/// image stays in the box (transposing needs `h == w`).
fn map_in_box(t: u8, p: Cell, h: i32, w: i32) -> Cell {
    let (r, c) = map(t, p);
    let (bh, bw) = if t & 4 != 0 { (w, h) } else { (h, w) };
    (
        if t & 1 != 0 { r + bh - 1 } else { r },
        if t & 2 != 0 { c + bw - 1 } else { c },
    )
}

/// Rows and columns of the cells' bounding box (cells from (0, 0)).
fn extent(cells: &BTreeSet<Cell>) -> (i32, i32) {
    let h = cells.iter().map(|p| p.0).max().unwrap_or(0) + 1;
    let w = cells.iter().map(|p| p.1).max().unwrap_or(0) + 1;
    (h, w)
}

/// Cells moved to row and column 0, sorted.
fn normalized(mut cells: Vec<Cell>) -> Vec<Cell> {
    let r0 = cells.iter().map(|p| p.0).min().unwrap_or(0);
    let c0 = cells.iter().map(|p| p.1).min().unwrap_or(0);
    for p in &mut cells {
        *p = (p.0 - r0, p.1 - c0);
    }
    cells.sort_unstable();
    cells
}

/// The distinct orientations of `cells` under the maps `maps`, normalized.
fn orientations(cells: &[Cell], maps: impl Iterator<Item = u8>) -> Vec<Vec<Cell>> {
    let mut out: Vec<Vec<Cell>> = Vec::new();
    for t in maps {
        let shape = normalized(cells.iter().map(|&p| map(t, p)).collect());
        if !out.contains(&shape) {
            out.push(shape);
        }
    }
    out
}

/// Every polyomino of `n` cells (1 to 7), free (up to rotation and
/// reflection) or one-sided (up to rotation), each once, named `{n}-{k}`
/// — the pentominoes by Conway's letters (one-sided mirror images with a
/// `'`), in a fixed order.
pub fn family(n: usize, one_sided: bool) -> Result<Vec<Piece>, TilingError> {
    if !(1..=7).contains(&n) {
        return Err(TilingError::Family(n));
    }
    let maps = |one_sided: bool| (0..8u8).filter(move |&t| !one_sided || is_rotation(t));
    let canonical = |cells: Vec<Cell>| -> Vec<Cell> {
        orientations(&cells, maps(one_sided))
            .into_iter()
            .min()
            .unwrap_or_default()
    };
    let mut level: BTreeSet<Vec<Cell>> = BTreeSet::from([vec![(0, 0)]]);
    for _ in 1..n {
        let mut next = BTreeSet::new();
        for p in &level {
            for &(r, c) in p {
                for q in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] {
                    if !p.contains(&q) {
                        let mut grown = p.clone();
                        grown.push(q);
                        next.insert(canonical(grown));
                    }
                }
            }
        }
        level = next;
    }
    let mut pieces: Vec<Piece> = level
        .into_iter()
        .enumerate()
        .map(|(k, cells)| Piece {
            name: format!("{n}-{}", k + 1),
            cells,
        })
        .collect();
    if n == 5 {
        // Conway's letters, from the free pentominoes' shapes.
        for p in &mut pieces {
            let free = orientations(&p.cells, 0..8).into_iter().min();
            for (letter, cells) in super::polyomino::PENTOMINOES {
                if orientations(cells, 0..8).into_iter().min() == free {
                    p.name = letter.to_string();
                }
            }
        }
        if one_sided {
            // The second of each mirror pair gets the `'`.
            let mut seen = BTreeSet::new();
            for p in &mut pieces {
                if !seen.insert(p.name.clone()) {
                    p.name.push('\'');
                }
            }
        }
    }
    Ok(pieces)
}

/// How often each piece is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uses {
    /// Exactly once.
    Once,
    /// Any number of times (no item for the piece).
    Any,
    /// From `u` to `v` times (DLX3's `u:v|` on the piece's item).
    Between(u32, u32),
}

/// A tiling problem: a board, pieces, and how they may be used.
#[derive(Clone, Debug)]
pub struct Tiling {
    board: Board,
    pieces: Vec<Piece>,
    one_sided: bool,
    uses: Uses,
    distinct: bool,
}

impl Tiling {
    /// `pieces` on `board`, free, each once.
    pub fn new(board: Board, pieces: Vec<Piece>) -> Tiling {
        Tiling {
            board,
            pieces,
            one_sided: false,
            uses: Uses::Once,
            distinct: false,
        }
    }

    /// Pieces may be rotated but not turned over.
    pub fn one_sided(mut self, yes: bool) -> Tiling {
        self.one_sided = yes;
        self
    }

    /// How often each piece is used.
    pub fn uses(mut self, uses: Uses) -> Tiling {
        self.uses = uses;
        self
    }

    /// Counts each tiling once, its copies by the board's symmetries folded
    /// away (see the module documentation).
    pub fn distinct(mut self, yes: bool) -> Tiling {
        self.distinct = yes;
        self
    }

    /// The exact-cover matrix.
    pub fn matrix(&self) -> Result<Matrix, TilingError> {
        let maps = |one_sided: bool| (0..8u8).filter(move |&t| !one_sided || is_rotation(t));
        // The piece kept to one placement per orbit, when asked.
        let symmetries = self.board.symmetries(!self.one_sided);
        let fixed = if self.distinct && symmetries.len() > 1 {
            let once = matches!(self.uses, Uses::Once | Uses::Between(1, 1));
            let asymmetric = |p: &Piece| {
                // No symmetry of the board's maps the piece onto itself.
                let shape = normalized(p.cells.clone());
                symmetries
                    .iter()
                    .filter(|&&t| t != 0)
                    .all(|&t| normalized(p.cells.iter().map(|&c| map(t, c)).collect()) != shape)
            };
            match self.pieces.iter().position(|p| once && asymmetric(p)) {
                Some(k) => Some(k),
                None => return Err(TilingError::NoAsymmetricPiece),
            }
        } else {
            None
        };
        let (h, w) = extent(&self.board.cells);
        let mut b = MatrixBuilder::new();
        if self.uses != Uses::Any {
            for p in &self.pieces {
                let item = b.primary(&p.name)?;
                if let Uses::Between(u, v) = self.uses {
                    if (u, v) != (1, 1) {
                        b.set_bounds(item, u, v)?;
                    }
                }
            }
        }
        let cell = |(r, c): Cell| format!("r{r}c{c}");
        for &p in &self.board.cells {
            b.primary(&cell(p))?;
        }
        for (k, p) in self.pieces.iter().enumerate() {
            for shape in orientations(&p.cells, maps(self.one_sided)) {
                for (r, c) in (0..h).flat_map(|r| (0..w).map(move |c| (r, c))) {
                    let placed: Vec<Cell> =
                        shape.iter().map(|&(dr, dc)| (r + dr, c + dc)).collect();
                    if !placed.iter().all(|q| self.board.cells.contains(q)) {
                        continue;
                    }
                    if fixed == Some(k) {
                        // Only the least placement of its orbit.
                        let least = symmetries
                            .iter()
                            .map(|&t| {
                                let mut image: Vec<Cell> =
                                    placed.iter().map(|&q| map_in_box(t, q, h, w)).collect();
                                image.sort_unstable();
                                image
                            })
                            .min();
                        let mut mine = placed.clone();
                        mine.sort_unstable();
                        if least.as_ref() != Some(&mine) {
                            continue;
                        }
                    }
                    let mut names: Vec<String> = Vec::with_capacity(placed.len() + 1);
                    if self.uses != Uses::Any {
                        names.push(p.name.clone());
                    }
                    names.extend(placed.iter().map(|&q| cell(q)));
                    b.option_by_names(names.iter().map(String::as_str))?;
                }
            }
        }
        Ok(b.build()?)
    }
}

#[cfg(test)]
mod tests;
