//! Packing polyominoes into a rectangle.
//!
//! Items: one per piece (named by the piece), then one per cell (`r{row}c{col}`).
//! Options: every placement of every piece in each of its distinct
//! orientations (rotations and reflections), listing the piece and the cells
//! it covers. Each tiling of a rectangle is therefore found together with its
//! mirror images: pentominoes on 6×10 give 9356 = 4 × 2339.
//!
//! [`packing_up_to`] lets each piece be used from 0 to `most` times
//! (DLX3's multiplicities on the piece items): an MCC classic, every cell
//! still covered exactly once.

use crate::dlx::{BuildError, Matrix, MatrixBuilder};

/// A piece: its name and its cells as (row, column).
pub type Piece = (&'static str, &'static [(i32, i32)]);

/// The twelve pentominoes in Conway's naming (O P Q R S T U V W X Y Z).
pub const PENTOMINOES: [Piece; 12] = [
    ("O", &[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]),
    ("P", &[(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ("Q", &[(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)]),
    ("R", &[(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ("S", &[(0, 0), (0, 1), (1, 1), (1, 2), (1, 3)]),
    ("T", &[(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ("U", &[(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ("V", &[(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ("W", &[(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ("X", &[(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ("Y", &[(0, 0), (0, 1), (0, 2), (0, 3), (1, 1)]),
    ("Z", &[(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// The distinct orientations of a piece, each normalized (smallest row and
/// column 0) and sorted, in a fixed order.
pub fn orientations(cells: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    let mut out: Vec<Vec<(i32, i32)>> = Vec::new();
    for t in 0..8 {
        let mut shape: Vec<(i32, i32)> = cells
            .iter()
            .map(|&(r, c)| {
                let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
                let r = if t & 1 != 0 { -r } else { r };
                let c = if t & 2 != 0 { -c } else { c };
                (r, c)
            })
            .collect();
        let r0 = shape.iter().map(|p| p.0).min().unwrap_or(0);
        let c0 = shape.iter().map(|p| p.1).min().unwrap_or(0);
        for p in &mut shape {
            *p = (p.0 - r0, p.1 - c0);
        }
        shape.sort_unstable();
        if !out.contains(&shape) {
            out.push(shape);
        }
    }
    out
}

/// The exact-cover matrix for packing `pieces` into a `rows` × `cols` box,
/// each piece used exactly once and every cell covered.
///
/// ```
/// use dlx::problems::polyomino::{packing, PENTOMINOES};
/// let m = packing(&PENTOMINOES, 3, 20).unwrap();
/// assert_eq!(dlx::Solver::new(&m).count().solutions, 8);
/// ```
pub fn packing(pieces: &[Piece], rows: i32, cols: i32) -> Result<Matrix, BuildError> {
    packing_with(pieces, rows, cols, None)
}

/// The matrix for covering every cell of a `rows` × `cols` box with
/// `pieces`, each piece used from 0 to `most` times (`0:most|` on its item,
/// DLX3's multiplicities; Algorithm M searches it). `most` must be 1 or
/// more (a bound of 0 is refused, as DLX3 refuses it).
///
/// ```
/// use dlx::problems::polyomino::{packing_up_to, PENTOMINOES};
/// // A 1×10 strip: the straight piece twice, the only way.
/// let m = packing_up_to(&PENTOMINOES, 1, 10, 2).unwrap();
/// assert_eq!(dlx::Solver::new(&m).count().solutions, 1);
/// ```
pub fn packing_up_to(
    pieces: &[Piece],
    rows: i32,
    cols: i32,
    most: u32,
) -> Result<Matrix, BuildError> {
    packing_with(pieces, rows, cols, Some(most))
}

/// [`packing`], or with `most` [`packing_up_to`].
fn packing_with(
    pieces: &[Piece],
    rows: i32,
    cols: i32,
    most: Option<u32>,
) -> Result<Matrix, BuildError> {
    let mut b = MatrixBuilder::new();
    for (name, _) in pieces {
        let item = b.primary(name)?;
        if let Some(most) = most {
            b.set_bounds(item, 0, most)?;
        }
    }
    let cell = |r: i32, c: i32| format!("r{r}c{c}");
    for r in 0..rows {
        for c in 0..cols {
            b.primary(&cell(r, c))?;
        }
    }
    for (name, cells) in pieces {
        for shape in orientations(cells) {
            let h = shape.iter().map(|p| p.0).max().unwrap_or(0);
            let w = shape.iter().map(|p| p.1).max().unwrap_or(0);
            for r in 0..rows - h {
                for c in 0..cols - w {
                    let names: Vec<String> = std::iter::once(name.to_string())
                        .chain(shape.iter().map(|&(dr, dc)| cell(r + dr, c + dc)))
                        .collect();
                    b.option_by_names(names.iter().map(String::as_str))?;
                }
            }
        }
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientation_counts() {
        // O has 2, X has 1, P has 8 distinct orientations; 63 in all.
        let counts: Vec<usize> = PENTOMINOES
            .iter()
            .map(|p| orientations(p.1).len())
            .collect();
        assert_eq!(counts, [2, 8, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
        assert_eq!(counts.iter().sum::<usize>(), 63);
    }

    #[test]
    fn pieces_up_to_twice_against_brute_force_and_dlx3_text() {
        use crate::dlx::{brute_force_count, knuth, verify_cover, Solver};
        // O, P and U in a 2×5 box: 20 options, few enough for brute force.
        let pieces = [PENTOMINOES[0], PENTOMINOES[1], PENTOMINOES[6]];
        let m = packing_up_to(&pieces, 2, 5, 2).unwrap();
        assert!(m.has_bounds());
        let want = brute_force_count(&m).unwrap();
        let mut s = Solver::new(&m);
        let mut n = 0;
        for sol in s.solutions() {
            verify_cover(&m, &sol).unwrap();
            n += 1;
        }
        assert_eq!(n, want);
        // More than with each piece once: O twice is one of them.
        assert!(
            want > Solver::new(packing(&pieces, 2, 5).unwrap())
                .count()
                .solutions
        );
        // The same matrix as exact packing's text with `0:2|` on each piece.
        let mut text = Vec::new();
        knuth::write(&packing(&PENTOMINOES, 3, 5).unwrap(), &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let (head, rest) = text.split_once('\n').unwrap();
        let head: Vec<String> = head
            .split(' ')
            .map(|w| {
                if w.len() == 1 {
                    format!("0:2|{w}")
                } else {
                    w.to_string()
                }
            })
            .collect();
        let edited = knuth::read(format!("{}\n{rest}", head.join(" ")).as_bytes()).unwrap();
        let m = packing_up_to(&PENTOMINOES, 3, 5, 2).unwrap();
        assert_eq!(
            Solver::new(&m).count().solutions,
            Solver::new(&edited).count().solutions
        );
        assert!(packing_up_to(&PENTOMINOES, 2, 5, 0).is_err());
    }
}
