//! The residual matrix ([`Matrix::residual`]) against a brute force: its
//! solutions, mapped back and joined to the committed options, are exactly
//! the original's solutions that hold those options, on random matrices
//! with multiplicities and colors; and its refusals are the commitments no
//! solution holds.

use std::collections::BTreeSet;

use crate::common::random::{brute_force, random_bounded};

use dlx::{knuth, Branching, EngineKind, Matrix, OptionId, PreselectError, ResidualError, Solver};
use proptest::prelude::*;

/// The original's solutions that `residual` stands for: each brute-force
/// solution of the residual, mapped back, joined to `committed`, sorted.
fn lifted(r: &dlx::Residual, committed: &[OptionId]) -> BTreeSet<Vec<usize>> {
    brute_force(r.matrix())
        .into_iter()
        .map(|s| {
            let mut all: Vec<usize> = s
                .iter()
                .map(|&o| r.original_option(OptionId::must(o)).as_usize())
                .chain(committed.iter().map(|o| o.as_usize()))
                .collect();
            all.sort_unstable();
            all
        })
        .collect()
}

/// Checks the residual of `m` after `committed` against the brute force.
fn residual_agrees(m: &Matrix, committed: &[OptionId]) -> Result<(), TestCaseError> {
    let mut set: Vec<usize> = committed.iter().map(|o| o.as_usize()).collect();
    set.sort_unstable();
    // An option committed twice is in no solution (each is taken once).
    let twice = set.windows(2).any(|w| w[0] == w[1]);
    let want: BTreeSet<Vec<usize>> = brute_force(m)
        .into_iter()
        .filter(|s| !twice && set.iter().all(|o| s.contains(o)))
        .collect();
    match m.residual(committed) {
        Ok(r) => {
            prop_assert_eq!(lifted(&r, committed), want);
            // Items and options map back to distinct originals, in order.
            let items: Vec<_> = (0..r.matrix().item_count())
                .map(|i| r.original_item(dlx::ItemId::must(i)).as_usize())
                .collect();
            prop_assert!(items.windows(2).all(|w| w[0] < w[1]));
            let options: Vec<_> = (0..r.matrix().option_count())
                .map(|o| r.original_option(OptionId::must(o)).as_usize())
                .collect();
            prop_assert!(options.windows(2).all(|w| w[0] < w[1]));
            prop_assert!(options.iter().all(|o| !set.contains(o)));
        }
        Err(ResidualError::Covered) => {
            prop_assert_eq!(want, BTreeSet::from([set]));
        }
        Err(ResidualError::Refused(e)) => {
            prop_assert!(want.is_empty(), "refused ({e}) but solutions hold them");
        }
        Err(e) => prop_assert!(false, "unexpected refusal: {e}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random matrices with bounds and colors, committing part of a
    /// solution (so that something is left to find) or random options
    /// (which may clash).
    #[test]
    fn residuals_hold_exactly_the_solutions_that_hold_the_commitment(
        seed in any::<u64>(),
        picks in proptest::collection::vec(any::<u16>(), 0..4),
        from_solution in any::<bool>(),
    ) {
        let m = random_bounded(seed);
        let all: Vec<Vec<usize>> = brute_force(&m).into_iter().collect();
        let committed: Vec<OptionId> = match all.first().filter(|_| from_solution) {
            Some(_) => {
                let s = &all[usize::from(picks.first().copied().unwrap_or(0)) % all.len()];
                s.iter()
                    .enumerate()
                    .filter(|(k, _)| picks.get(k + 1).map_or(k % 2 == 0, |p| p % 2 == 0))
                    .map(|(_, &o)| OptionId::must(o))
                    .collect()
            }
            None => picks
                .iter()
                .map(|&p| OptionId::must(usize::from(p) % m.option_count()))
                .collect(),
        };
        residual_agrees(&m, &committed)?;
    }
}

#[test]
fn refusals_name_the_options() {
    let m = knuth::read("A B | x\nA x:r\nB x:g\nA B\nB x:r\nB\n".as_bytes()).unwrap();
    let o = |k| OptionId::must(k);
    let conflict = |option, with| {
        Err::<(), _>(ResidualError::Refused(PreselectError::Conflict {
            option: o(option),
            with: o(with),
        }))
    };
    // A's option and "A B" share A.
    assert_eq!(m.residual(&[o(0), o(2)]).map(|_| ()), conflict(2, 0));
    // x red, then x green.
    assert_eq!(m.residual(&[o(0), o(1)]).map(|_| ()), conflict(1, 0));
    // The same option twice.
    assert_eq!(m.residual(&[o(4), o(4)]).map(|_| ()), conflict(4, 4));
    assert_eq!(
        m.residual(&[o(9)]).map(|_| ()),
        Err(ResidualError::Refused(PreselectError::UnknownOption(o(9))))
    );
    // x red twice is no clash: "B x:r" keeps B alone (x purified).
    let r = m.residual(&[o(0)]).unwrap();
    assert_eq!(r.matrix().item_count(), 1);
    assert_eq!(r.matrix().option_count(), 2); // "B x:r" as "B", and "B"
    assert_eq!(r.original_option(o(0)), o(3));
    assert_eq!(
        m.residual(&[o(0), o(3)]).map(|_| ()),
        Err(ResidualError::Covered)
    );
}

#[test]
fn costs_and_names_carry_over() {
    let m = knuth::read("A B C\nA |3\nB |4\nA B |9\nC |1\n".as_bytes()).unwrap();
    let r = m.residual(&[OptionId::must(0)]).unwrap();
    let rm = r.matrix();
    assert_eq!((rm.item_count(), rm.option_count()), (2, 2));
    assert_eq!(
        (
            rm.item_name(dlx::ItemId::must(0)),
            rm.item_name(dlx::ItemId::must(1))
        ),
        ("B".into(), "C".into())
    );
    assert_eq!(
        (rm.cost(OptionId::must(0)), rm.cost(OptionId::must(1))),
        (4, 1)
    );
    assert_eq!(r.original_item(dlx::ItemId::must(1)), dlx::ItemId::must(2));
}

/// A 9×9 Sudoku's residual after its givens: far smaller, the same single
/// solution on every engine and rule that takes it.
#[test]
fn a_sudokus_residual_has_its_solution() {
    let cover = dlx::sudoku::SudokuMatrix::new(3).unwrap();
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let givens: Vec<OptionId> = puzzle
        .bytes()
        .enumerate()
        .filter(|(_, b)| b.is_ascii_digit())
        .map(|(k, b)| cover.option(k / 9, k % 9, b - b'0'))
        .collect();
    let m = cover.matrix();
    let r = m.residual(&givens).unwrap();
    assert_eq!(r.matrix().item_count(), 324 - 4 * givens.len());
    assert!(r.matrix().option_count() < 729 / 2);
    let mut whole = Solver::new(m);
    whole.preselect_all(&givens).unwrap();
    let mut want: Vec<OptionId> = whole.solutions().flatten().collect();
    want.sort_unstable();
    for engine in EngineKind::ALL {
        for rule in [
            Branching::Knuth,
            Branching::FirstForced,
            Branching::Lookahead,
        ] {
            let config = dlx::Config::new().engine(engine).branching(rule);
            let Ok(mut s) = Solver::with_config(r.matrix(), config) else {
                continue;
            };
            let found: Vec<Vec<OptionId>> = s.solutions().collect();
            assert_eq!(found.len(), 1, "{engine}, {rule:?}");
            let mut got: Vec<OptionId> = found[0]
                .iter()
                .map(|&o| r.original_option(o))
                .chain(givens.iter().copied())
                .collect();
            got.sort_unstable();
            assert_eq!(got, want, "{engine}, {rule:?}");
            dlx::verify_cover(m, &got).unwrap();
        }
    }
}
