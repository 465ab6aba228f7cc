//! Memo counts against brute force (random matrices with secondary items
//! and colors), against the plain search, and against published counts;
//! eviction, widening and the limits.

use super::*;
use crate::dlx::{brute_force_count, knuth, Budget, LinksSolver};
use crate::problems::{dominoes, langford, queens};
use rand::{Rng, SeedableRng};

fn count(m: &Matrix, memo: &Memo) -> MemoCount {
    let c = memo.count(m).unwrap();
    assert!(c.complete && c.stopped.is_none());
    c
}

/// A random matrix of at most 14 options over 3–6 primary and 0–3
/// secondary items, colors on some secondary entries.
fn random_matrix(rng: &mut rand::rngs::StdRng) -> Matrix {
    let np = rng.gen_range(1..=6);
    let ns = rng.gen_range(0..=3);
    let mut text: String = (0..np).map(|i| format!("p{i} ")).collect();
    if ns > 0 {
        text += "|";
        text += &(0..ns).map(|i| format!(" s{i}")).collect::<String>();
    }
    text += "\n";
    for _ in 0..rng.gen_range(1..=14) {
        let mut option: Vec<String> = (0..np)
            .filter(|_| rng.gen_bool(0.35))
            .map(|i| format!("p{i}"))
            .collect();
        for i in 0..ns {
            if rng.gen_bool(0.4) {
                option.push(if rng.gen_bool(0.6) {
                    format!("s{i}:{}", ["a", "b"][rng.gen_range(0..2)])
                } else {
                    format!("s{i}")
                });
            }
        }
        if option.is_empty() {
            option.push(format!("p{}", rng.gen_range(0..np)));
        }
        text += &(option.join(" ") + "\n");
    }
    knuth::read(text.as_bytes()).unwrap()
}

#[test]
#[cfg_attr(
    miri,
    ignore = "threads and tables of thousands of slots: minutes under Miri (no unsafe here)"
)]
fn random_matrices_match_brute_force_in_both_orders_and_any_cap() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(41);
    let cases = if cfg!(miri) { 8 } else { 1500 };
    let mut colored = 0;
    for _ in 0..cases {
        let m = random_matrix(&mut rng);
        let want = brute_force_count(&m).unwrap();
        colored += usize::from(m.has_colors() && want > 0);
        for memo in [
            Memo::new(),
            Memo::new().order(MemoOrder::Knuth),
            // Eight slots: most states are given up and counted again.
            Memo::new().memory(1),
            // Threads: the cut, its paths, the shared table.
            Memo::new().jobs(3),
            Memo::new().jobs(2).memory(1).order(MemoOrder::Knuth),
        ] {
            let c = count(&m, &memo);
            assert_eq!(c.solutions.to_u64(), Some(want), "{memo:?}");
        }
    }
    // Colors in many of them (Miri runs a handful of cases only).
    assert!(cfg!(miri) || colored > 50, "{colored}");
}

#[test]
#[cfg_attr(miri, ignore = "the plain count of 8×8 dominoes: 50 M nodes")]
fn published_counts_and_the_plain_search() {
    // Dominoes on 8×8 (OEIS A004003), queens 8 (A000170), Langford 8
    // (A014552, both pairs of each), TAOCP's example.
    let taocp =
        knuth::read("A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n".as_bytes()).unwrap();
    let cases = [
        (dominoes(8, 8, 1).unwrap(), 12_988_816u64),
        (queens(8).unwrap(), 92),
        (langford(8).unwrap(), 300),
        (taocp, 1),
    ];
    for (m, want) in cases {
        let mut plain = LinksSolver::new(&m);
        assert_eq!(plain.count().solutions, want);
        for order in [MemoOrder::FirstItem, MemoOrder::Knuth] {
            let c = count(&m, &Memo::new().order(order));
            assert_eq!(c.solutions.to_u64(), Some(want), "{order:?}");
            assert_eq!(c.stats.widened, 0);
        }
    }
    // The memo pays on tilings: far fewer states than the plain search's
    // nodes.
    let c = count(&dominoes(8, 8, 1).unwrap(), &Memo::new());
    assert!(c.stats.states < 5_000 && c.stats.hits > 0, "{:?}", c.stats);
}

#[test]
#[cfg_attr(miri, ignore = "268,758 states of 14×14 dominoes, four times")]
fn counts_past_every_fixed_width() {
    // 300 items of two options each, independent: 2^300 solutions, past
    // 256 bits, so the count widens three times (128, 256, 1,024 bits).
    let mut text = (0..300).map(|i| format!("x{i} ")).collect::<String>() + "\n";
    for i in 0..300 {
        text += &format!("x{i}\nx{i}\n");
    }
    let m = knuth::read(text.as_bytes()).unwrap();
    let c = count(&m, &Memo::new());
    let mut want = BigCount::from(1u64);
    for _ in 0..300 {
        let w = want.clone();
        want.add(&w);
    }
    assert_eq!(c.solutions, want);
    assert_eq!(c.stats.widened, 2);
    assert_eq!(c.solutions.bits(), 301);
    // On threads: every level of the cut merges into one state, reached
    // after 64 levels by 2^64 paths (counted exactly, as a BigCount); the
    // 2^236 below it fit 256 bits: one widening.
    let c = count(&m, &Memo::new().jobs(2));
    assert_eq!(c.solutions, want);
    assert_eq!(c.stats.widened, 1);
    // Dominoes 14×14, past u64 (OEIS A004003), on one thread and three.
    for jobs in [1, 3] {
        let c = count(&dominoes(14, 14, 1).unwrap(), &Memo::new().jobs(jobs));
        assert_eq!(
            c.solutions.to_string(),
            "112202208776036178000000",
            "{:?}",
            c.stats
        );
    }
}

#[test]
fn limits_answer_a_lower_bound_and_bounds_are_refused() {
    let m = queens(10).unwrap();
    let memo = Memo::new().limits(Limits::from(Budget {
        nodes: Some(1),
        updates: None,
    }));
    let c = memo.count(&m).unwrap();
    assert!(!c.complete);
    assert_eq!(c.stopped, Some(Stop::Nodes));
    assert!(c.solutions.to_u64().unwrap() <= 724);
    let cancel = crate::dlx::Cancel::new();
    cancel.cancel();
    let c = Memo::new()
        .limits(Limits::new().cancel(&cancel))
        .count(&dominoes(10, 10, 1).unwrap())
        .unwrap();
    assert_eq!((c.complete, c.stopped), (false, Some(Stop::Cancelled)));
    let bounded = knuth::read("2:3|A B\nA B\nA\nB\n".as_bytes()).unwrap();
    let e = Memo::new().count(&bounded).unwrap_err();
    assert_eq!(e, MemoError::Bounds);
    assert!(e.to_string().contains("multiplicities"));
    // Nothing to cover: one solution, the empty one.
    let empty = knuth::read("| s\n".as_bytes());
    if let Ok(m) = empty {
        assert_eq!(count(&m, &Memo::new()).solutions.to_u64(), Some(1));
    }
}
