//! Symmetric givens: the cells of a grid grouped into orbits under a
//! symmetry of the square, so that a generator empties or keeps a whole
//! orbit at once and the givens come out symmetric (qqwing and the `sudoku`
//! crate offer the same).
//!
//! Invariant: the orbits partition the n² cells, each orbit listed from its
//! smallest cell and the orbits in the order of their smallest cells — so
//! [`Symmetry::None`] gives the cells 0, 1, … in order, one an orbit, and a
//! generator that shuffles the orbits draws what it drew shuffling cells.

use std::fmt;

/// A symmetry the givens of a generated puzzle keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// None: cells are emptied one at a time.
    #[default]
    None,
    /// Half-turn rotation: (r, c) with (n−1−r, n−1−c), the newspapers'.
    Rot180,
    /// Quarter-turn rotation: the four images of a cell together.
    Rot90,
    /// Left-right mirror: (r, c) with (r, n−1−c).
    Mirror,
    /// Reflection in the main diagonal: (r, c) with (c, r).
    Diagonal,
}

impl Symmetry {
    /// Every symmetry, in the order of their names' documentation.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// The name on the command line: `none`, `rot180`, `rot90`, `mirror`,
    /// `diagonal`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rot180 => "rot180",
            Symmetry::Rot90 => "rot90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The images of cell (r, c) of a grid of side n, itself first.
    fn images(self, n: usize, r: usize, c: usize) -> Vec<(usize, usize)> {
        let m = n - 1;
        match self {
            Symmetry::None => vec![(r, c)],
            Symmetry::Rot180 => vec![(r, c), (m - r, m - c)],
            Symmetry::Rot90 => vec![(r, c), (c, m - r), (m - r, m - c), (m - c, r)],
            Symmetry::Mirror => vec![(r, c), (r, m - c)],
            Symmetry::Diagonal => vec![(r, c), (c, r)],
        }
    }

    /// The orbits of the cells of a grid of side n (row-major indices),
    /// as the module documentation orders them.
    pub fn orbits(self, n: usize) -> Vec<Vec<usize>> {
        let mut seen = vec![false; n * n];
        let mut orbits = Vec::new();
        for k in 0..n * n {
            if seen[k] {
                continue;
            }
            let mut orbit: Vec<usize> = self
                .images(n, k / n, k % n)
                .into_iter()
                .map(|(r, c)| r * n + c)
                .collect();
            orbit.sort_unstable();
            orbit.dedup();
            for &j in &orbit {
                seen[j] = true;
            }
            orbits.push(orbit);
        }
        orbits
    }

    /// Whether `cells` (row-major, side n) are filled symmetrically: a cell
    /// is filled exactly when all of its images are.
    pub fn holds(self, n: usize, cells: &[u8]) -> bool {
        self.orbits(n).iter().all(|orbit| {
            let filled = orbit.iter().filter(|&&k| cells[k] != 0).count();
            filled == 0 || filled == orbit.len()
        })
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Symmetry;

    #[test]
    fn orbits_partition_the_grid() {
        for n in [4, 6, 9, 16] {
            for s in Symmetry::ALL {
                let orbits = s.orbits(n);
                let mut all: Vec<usize> = orbits.iter().flatten().copied().collect();
                all.sort_unstable();
                assert_eq!(all, (0..n * n).collect::<Vec<_>>(), "{s} {n}");
                let firsts: Vec<usize> = orbits.iter().map(|o| o[0]).collect();
                assert!(firsts.windows(2).all(|w| w[0] < w[1]), "{s} {n}");
            }
        }
        assert_eq!(Symmetry::None.orbits(3)[4], vec![4]);
        assert_eq!(Symmetry::Rot180.orbits(3)[0], vec![0, 8]);
        assert_eq!(Symmetry::Rot90.orbits(3)[0], vec![0, 2, 6, 8]);
        assert_eq!(Symmetry::Rot90.orbits(3)[2], vec![4]);
        assert_eq!(Symmetry::Mirror.orbits(3)[0], vec![0, 2]);
        assert_eq!(Symmetry::Diagonal.orbits(3)[1], vec![1, 3]);
        // The centre of an odd grid is its own orbit.
        assert_eq!(Symmetry::Rot90.orbits(9).len(), (81 - 1) / 4 + 1);
    }

    #[test]
    fn holds_sees_a_broken_symmetry() {
        let mut cells = vec![0u8; 16];
        cells[0] = 1;
        assert!(!Symmetry::Rot180.holds(4, &cells));
        cells[15] = 2;
        assert!(Symmetry::Rot180.holds(4, &cells));
        assert!(!Symmetry::Rot90.holds(4, &cells));
        assert!(Symmetry::None.holds(4, &cells));
    }
}
