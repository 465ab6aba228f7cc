//! Families against OEIS, pictures read and refused, and distinct tilings
//! against the solutions' classes under the board's symmetries, counted
//! here by brute force over every tiling.

use super::*;
use crate::dlx::{verify_cover, Solver};
use std::collections::BTreeSet;

#[test]
fn families_have_oeis_sizes() {
    // Free polyominoes A000105, one-sided A000988.
    let free: Vec<usize> = (1..=7).map(|n| family(n, false).unwrap().len()).collect();
    assert_eq!(free, [1, 1, 2, 5, 12, 35, 108]);
    let one: Vec<usize> = (1..=6).map(|n| family(n, true).unwrap().len()).collect();
    assert_eq!(one, [1, 1, 2, 7, 18, 60]);
    let names: BTreeSet<String> = family(5, false)
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names.len(), 12);
    assert!(names.contains("X") && names.contains("Z"));
    let one_sided: BTreeSet<String> = family(5, true)
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert!(one_sided.contains("P'") && !one_sided.contains("X'"));
    assert_eq!(family(0, false).unwrap_err(), TilingError::Family(0));
    assert_eq!(family(8, false).unwrap_err(), TilingError::Family(8));
}

#[test]
fn pictures_are_read_and_bad_ones_refused() {
    let board = Board::parse("| a ring\n..###\n..#.#\n..###\n").unwrap();
    assert_eq!(board.cells().count(), 8);
    assert_eq!(board.cells().next(), Some((0, 0)));
    let pieces = parse_pieces("= L\n#.\n##\n\n###\n\n= I\n#\n#\n").unwrap();
    let names: Vec<&str> = pieces.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["L", "p2", "I"]);
    assert_eq!(pieces[0].cells, [(0, 0), (1, 0), (1, 1)]);
    assert_eq!(
        Board::parse("#x\n").unwrap_err(),
        TilingError::Picture(1, 'x')
    );
    assert!(matches!(Board::parse("...\n"), Err(TilingError::Empty(_))));
    assert_eq!(
        parse_pieces("= A\n#.#\n").unwrap_err(),
        TilingError::Disconnected("A".into())
    );
    assert_eq!(
        parse_pieces("= A\n#\n\n= A\n##\n").unwrap_err(),
        TilingError::DuplicateName("A".into())
    );
    // A name the matrix cannot take: refused when it is built.
    let bad = parse_pieces("= a:b\n#\n").unwrap();
    assert!(Tiling::new(Board::rectangle(1, 1), bad).matrix().is_err());
}

/// Every tiling of `t` (checked), and the number of its classes under the
/// board's symmetries (`reflections` too, or rotations only), by brute
/// force: each tiling's pieces (name and cells) under each symmetry, the
/// least kept.
fn all_and_classes(t: &Tiling, reflections: bool) -> (u64, u64) {
    let m = t.clone().distinct(false).matrix().unwrap();
    let (h, w) = extent(&t.board.cells);
    let symmetries = t.board.symmetries(reflections);
    let mut classes = BTreeSet::new();
    let mut all = 0;
    for sol in Solver::new(&m).solutions() {
        verify_cover(&m, &sol).unwrap();
        all += 1;
        // The tiling as a set of pieces, each its name and its cells.
        let tiles: Vec<(String, Vec<Cell>)> = sol
            .iter()
            .map(|&o| {
                let name = m
                    .option_items(o)
                    .map(|(i, _)| m.item_name(i).to_string())
                    .find(|n| t.pieces.iter().any(|p| &p.name == n))
                    .unwrap_or_default();
                let cells = m
                    .option_items(o)
                    .filter_map(|(i, _)| {
                        let name = m.item_name(i);
                        let (r, c) = name.strip_prefix('r')?.split_once('c')?;
                        Some((r.parse().ok()?, c.parse().ok()?))
                    })
                    .collect();
                (name, cells)
            })
            .collect();
        let least = symmetries
            .iter()
            .map(|&s| {
                let mut image: Vec<(String, Vec<Cell>)> = tiles
                    .iter()
                    .map(|(name, tile)| {
                        let mut t: Vec<Cell> =
                            tile.iter().map(|&q| map_in_box(s, q, h, w)).collect();
                        t.sort_unstable();
                        (name.clone(), t)
                    })
                    .collect();
                image.sort();
                image
            })
            .min()
            .unwrap();
        classes.insert(least);
    }
    (all, classes.len() as u64)
}

#[test]
fn distinct_tilings_are_the_classes_under_the_boards_symmetries() {
    let pent = family(5, false).unwrap();
    let ljoi =
        parse_pieces("= L\n#.\n#.\n##\n\n= J\n.#\n.#\n##\n\n= O\n##\n##\n\n= I\n####\n").unwrap();
    let cases = [
        // Pentominoes on 3×20: 8 tilings, 2 up to symmetry.
        (
            Tiling::new(Board::rectangle(3, 20), pent.clone()),
            8,
            2,
            true,
        ),
        // L, J, O and I on 4×4, one-sided: 8 tilings, 2 up to rotation;
        // free (L and J then turn over too): 48, 6 up to the square's 8
        // symmetries.
        (
            Tiling::new(Board::rectangle(4, 4), ljoi.clone()).one_sided(true),
            8,
            2,
            false,
        ),
        (Tiling::new(Board::rectangle(4, 4), ljoi), 48, 6, true),
        // The ring of 8 cells around a 3×3 box's centre, by an L-tromino,
        // a straight tromino and a domino (the square's 8 symmetries).
        (
            Tiling::new(
                Board::parse("###\n#.#\n###\n").unwrap(),
                parse_pieces("= L\n##\n#.\n\n= I\n###\n\n= D\n##\n").unwrap(),
            ),
            0,
            0,
            true,
        ),
    ];
    for (t, want_all, want_classes, reflections) in &cases {
        let (all, classes) = all_and_classes(t, *reflections);
        if *want_all > 0 {
            assert_eq!((all, classes), (*want_all, *want_classes));
        }
        let m = t.clone().distinct(true).matrix();
        match m {
            Ok(m) => {
                let n = Solver::new(&m).count().solutions;
                assert_eq!(n, classes, "{all} tilings");
            }
            Err(e) => assert_eq!(e, TilingError::NoAsymmetricPiece),
        }
    }
}

#[test]
fn the_8x8_board_less_its_centre_and_dominoes_any_number_of_times() {
    let board = Board::parse(
        "########\n########\n########\n###..###\n###..###\n########\n########\n########\n",
    )
    .unwrap();
    let t = Tiling::new(board, family(5, false).unwrap());
    let all = Solver::new(t.matrix().unwrap()).count().solutions;
    assert_eq!(all, 520);
    let distinct = Solver::new(t.clone().distinct(true).matrix().unwrap())
        .count()
        .solutions;
    assert_eq!(distinct, 65);
    // Dominoes, any number of times: 36 tilings of 4×4 (OEIS A004003),
    // no piece item.
    let t = Tiling::new(Board::rectangle(4, 4), family(2, false).unwrap()).uses(Uses::Any);
    let m = t.matrix().unwrap();
    assert_eq!(m.primary_count(), 16);
    assert_eq!(Solver::new(&m).count().solutions, 36);
    assert_eq!(
        t.distinct(true).matrix().unwrap_err(),
        TilingError::NoAsymmetricPiece
    );
    // Between bounds: DLX3's on the piece items.
    let t =
        Tiling::new(Board::rectangle(2, 3), family(3, false).unwrap()).uses(Uses::Between(0, 2));
    let m = t.matrix().unwrap();
    assert!(m.has_bounds());
    let want = crate::dlx::brute_force_count(&m);
    if let Some(want) = want {
        assert_eq!(Solver::new(&m).count().solutions, want);
    }
}
