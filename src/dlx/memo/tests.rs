//! Memo counts against brute force (random matrices with secondary items
//! and colors), against the plain search, and against published counts;
//! eviction, widening and the limits.

use super::*;
use crate::dlx::{brute_force_count, knuth, Budget, LinksSolver};
use crate::problems::{dominoes, langford, queens};
use rand::{Rng, SeedableRng};
use std::time::Duration;

fn count(m: &Matrix, memo: &Memo) -> MemoCount {
    let c = memo.count(m).unwrap();
    assert!(c.complete && c.stopped.is_none());
    c
}

/// The settings every random test counts with: both orders, an 8-slot
/// table (most states given up and counted again), threads (the cut, its
/// paths, the shared table), and all of them at once.
fn settings() -> [Memo; 5] {
    [
        Memo::new(),
        Memo::new().order(MemoOrder::Knuth),
        Memo::new().memory(1),
        Memo::new().jobs(3),
        Memo::new().jobs(2).memory(1).order(MemoOrder::Knuth),
    ]
}

/// Up to `most` random option lines over `np` primary and `ns` secondary
/// items, each primary and secondary item in an option with the odds of
/// `p`, a secondary one colored (a or b) 6 times in 10.
fn random_options(
    rng: &mut rand::rngs::StdRng,
    np: usize,
    ns: usize,
    most: usize,
    p: (f64, f64),
) -> String {
    let mut text = String::new();
    for _ in 0..rng.gen_range(1..=most) {
        let mut option: Vec<String> = (0..np)
            .filter(|_| rng.gen_bool(p.0))
            .map(|i| format!("p{i}"))
            .collect();
        for i in 0..ns {
            if rng.gen_bool(p.1) {
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
    text
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
    text += &random_options(rng, np, ns, 14, (0.35, 0.4));
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
        for memo in settings() {
            let c = count(&m, &memo);
            assert_eq!(c.solutions.to_u64(), Some(want), "{memo:?}");
        }
    }
    // Colors in many of them (Miri runs a handful of cases only).
    assert!(cfg!(miri) || colored > 50, "{colored}");
}

/// A random matrix with multiplicities: at most 12 options over 1–5
/// primary items, each bounded `u:v|` (0 to 2, 1 to 3) or not, and 0–2
/// secondary items, some colored.
fn random_bounded_matrix(rng: &mut rand::rngs::StdRng) -> Matrix {
    let np = rng.gen_range(1..=5);
    let ns = rng.gen_range(0..=2);
    let mut text = String::new();
    for i in 0..np {
        if rng.gen_bool(0.6) {
            let lo = rng.gen_range(0..=2);
            let hi = rng.gen_range(lo.max(1)..=3);
            text += &format!("{lo}:{hi}|p{i} ");
        } else {
            text += &format!("p{i} ");
        }
    }
    if ns > 0 {
        text += "|";
        text += &(0..ns).map(|i| format!(" s{i}")).collect::<String>();
    }
    text += "\n";
    text += &random_options(rng, np, ns, 12, (0.4, 0.35));
    knuth::read(text.as_bytes()).unwrap()
}

#[test]
#[cfg_attr(
    miri,
    ignore = "threads and tables of thousands of slots: minutes under Miri (no unsafe here)"
)]
fn multiplicities_match_brute_force_and_algorithm_m() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(43);
    let mut seen = [0usize; 3];
    for _ in 0..800 {
        let m = random_bounded_matrix(&mut rng);
        let want = brute_force_count(&m).unwrap();
        seen[want.min(2) as usize] += 1;
        // Algorithm M agrees (an independent search).
        assert_eq!(crate::dlx::Solver::new(&m).count().solutions, want);
        for memo in settings() {
            let c = count(&m, &memo);
            assert_eq!(c.solutions.to_u64(), Some(want), "{memo:?}\n{m:?}");
        }
    }
    // None, one and several solutions all met.
    assert!(seen.iter().all(|&k| k > 50), "{seen:?}");
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

/// 300 items of two options each, independent, and their 2^300 solutions.
fn two_to_the_300() -> (Matrix, BigCount) {
    let mut text = (0..300).map(|i| format!("x{i} ")).collect::<String>() + "\n";
    for i in 0..300 {
        text += &format!("x{i}\nx{i}\n");
    }
    let mut want = BigCount::from(1u64);
    for _ in 0..300 {
        let w = want.clone();
        want.add(&w);
    }
    (knuth::read(text.as_bytes()).unwrap(), want)
}

#[test]
#[cfg_attr(miri, ignore = "268,758 states of 14×14 dominoes, four times")]
fn counts_past_every_fixed_width() {
    // 2^300 solutions, past 256 bits, so the count widens three times
    // (128, 256, 1,024 bits).
    let (m, want) = two_to_the_300();
    let c = count(&m, &Memo::new());
    assert_eq!(c.solutions, want);
    assert_eq!(c.stats.widened, 2);
    assert_eq!(c.solutions.bits(), 301);
    // The table comes along each width up: the 300 states are entered once
    // by the first search, and again only above the level where a count
    // outgrew the width (the states counted across the three: 300 + 173 +
    // 45, where starting afresh would enter 900).
    assert_eq!(c.stats.states, 518, "{:?}", c.stats);
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
fn limits_answer_a_lower_bound_and_bounds_past_16_bits_are_refused() {
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
    // {A B, A}, {A B, B}... A 2 or 3 times, B once: {AB, A} and {AB, A, ...}.
    let bounded = knuth::read("2:3|A B\nA B\nA\nB\n".as_bytes()).unwrap();
    assert_eq!(
        count(&bounded, &Memo::new()).solutions.to_u64(),
        brute_force_count(&bounded)
    );
    let huge = knuth::read("2:70000|A B\nA B\nA\nB\n".as_bytes()).unwrap();
    let e = Memo::new().count(&huge).unwrap_err();
    assert_eq!(e, MemoError::Bounds);
    assert!(e.to_string().contains("65,535"));
    // Nothing to cover: one solution, the empty one.
    let empty = knuth::read("| s\n".as_bytes());
    if let Ok(m) = empty {
        assert_eq!(count(&m, &Memo::new()).solutions.to_u64(), Some(1));
    }
}

/// Monomer-dimer tilings of an n×n board with exactly k monominoes, by a
/// transfer matrix over the board's frontier (independent of any search).
fn monomer_dimer(n: usize, k: usize) -> u128 {
    let mut states: std::collections::HashMap<(u64, usize), u128> =
        std::collections::HashMap::from([((0, 0), 1)]);
    for i in 0..n * n {
        let (r, c) = (i / n, i % n);
        let mut next: std::collections::HashMap<(u64, usize), u128> = Default::default();
        for (&(mask, used), &ways) in &states {
            let mut add = |m: u64, u: usize| *next.entry((m >> 1, u)).or_default() += ways;
            if mask & 1 != 0 {
                add(mask, used);
                continue;
            }
            if used < k {
                add(mask, used + 1);
            }
            if c + 1 < n && mask & 2 == 0 {
                add(mask | 2, used);
            }
            if r + 1 < n {
                add(mask | 1 << n, used);
            }
        }
        states = next;
    }
    states.get(&(0, k)).copied().unwrap_or(0)
}

#[test]
#[cfg_attr(miri, ignore = "boards of a few hundred states: slow under Miri")]
fn monomer_dimer_counts_match_a_transfer_matrix() {
    let file = include_str!("../../../puzzles/monomer_dimer_12x12_4.dlx");
    let m = knuth::read(file.as_bytes()).unwrap();
    assert_eq!(
        count(&m, &Memo::new()).solutions.to_string(),
        monomer_dimer(12, 4).to_string()
    );
    for n in 2..=7 {
        for k in 0..=3 {
            let mut text: String = (0..n * n).map(|i| format!("c{i} ")).collect();
            // No monomino: no item m (a bound 0:0 is not DLX3's).
            text += &if k > 0 {
                format!("{k}:{k}|m\n")
            } else {
                "\n".into()
            };
            for i in 0..n * n {
                if k > 0 {
                    text += &format!("m c{i}\n");
                }
                if i % n + 1 < n {
                    text += &format!("c{i} c{}\n", i + 1);
                }
                if i / n + 1 < n {
                    text += &format!("c{i} c{}\n", i + n);
                }
            }
            let m = knuth::read(text.as_bytes()).unwrap();
            let want = monomer_dimer(n, k);
            for memo in [Memo::new(), Memo::new().order(MemoOrder::Knuth).jobs(2)] {
                assert_eq!(
                    count(&m, &memo).solutions.to_u64().map(u128::from),
                    Some(want),
                    "{n}×{n}, {k}"
                );
            }
        }
    }
}

/// `count_or_search` with each path forced: the first slice long enough
/// to finish, none (the memo tries first) and a share so small that the
/// memo's tries stop at their first look (the plain search answers).
fn auto_paths(m: &Matrix, jobs: usize) -> [AutoCount; 3] {
    let memo = Memo::new().jobs(jobs);
    let mut solver = crate::dlx::Solver::new(m);
    solver.set_jobs(jobs);
    let tunes = [
        (Duration::from_secs(3600), 1.0 / 16.0),
        (Duration::ZERO, 1e9),
        (Duration::ZERO, 1e-12),
    ];
    tunes.map(|(slice, share)| {
        let c = memo
            .count_or_search_with(&mut solver, slice, share)
            .unwrap();
        assert!(c.complete && c.stopped.is_none(), "{c:?}");
        assert_eq!(solver.jobs(), jobs, "the solver's threads given back");
        c
    })
}

#[test]
#[cfg_attr(miri, ignore = "thousands of memo states and search nodes")]
fn the_memo_where_it_pays_the_search_elsewhere() {
    // Queens 10 (724) and Langford 9 (0): the memo's states are past its
    // first look at the clock (4,096 states a thread), so a try given no
    // time stops there.
    for (m, want) in [(queens(10).unwrap(), 724u64), (langford(9).unwrap(), 0)] {
        for jobs in [1, 2] {
            let [plain, memo, retried] = auto_paths(&m, jobs);
            for c in [&plain, &memo, &retried] {
                assert_eq!(c.solutions.to_u64(), Some(want), "{c:?}");
            }
            assert!(!plain.by_memo && plain.memo_tries == 0, "{plain:?}");
            assert!(memo.by_memo && memo.memo_tries == 1, "{memo:?}");
            assert!(!retried.by_memo && retried.memo_tries >= 1, "{retried:?}");
            assert!(
                retried.search.nodes > 0 && retried.memo.states > 0,
                "{retried:?}"
            );
        }
    }
    // Dominoes 8×8: the forecast of the plain count (50 M nodes) is far
    // past the first slice; the memo, given a sixteenth of it, counts.
    let m = dominoes(8, 8, 1).unwrap();
    let c = Memo::new()
        .count_or_search(&mut crate::dlx::Solver::new(&m))
        .unwrap();
    assert!(c.by_memo && c.complete, "{c:?}");
    assert_eq!(c.solutions.to_u64(), Some(12_988_816));
    // Queens 8: the plain search ends within its first slice.
    let c = Memo::new()
        .count_or_search(&mut crate::dlx::Solver::new(queens(8).unwrap()))
        .unwrap();
    assert!(!c.by_memo && c.memo_tries == 0 && c.complete);
    assert_eq!(c.solutions.to_u64(), Some(92));
}

#[test]
#[cfg_attr(miri, ignore = "thousands of search nodes")]
fn count_or_search_keeps_the_limits_and_the_preselected() {
    let m = queens(9).unwrap();
    // A deadline already passed: a lower bound, never a count.
    let memo = Memo::new().limits(Limits::new().timeout(Duration::ZERO));
    for share in [1.0, 1e-12] {
        let mut solver = crate::dlx::Solver::new(&m);
        let c = memo
            .count_or_search_with(&mut solver, Duration::ZERO, share)
            .unwrap();
        assert!(!c.complete && c.stopped == Some(Stop::Deadline), "{c:?}");
        assert!(c.solutions.to_u64().is_some_and(|n| n < 352));
    }
    // Budgets are refused by name: the memo's states are not nodes.
    let budgeted = Memo::new().limits(Limits::new().nodes(10));
    let mut solver = crate::dlx::Solver::new(&m);
    assert_eq!(
        budgeted.count_or_search(&mut solver).unwrap_err(),
        MemoError::Budget
    );
    // A preselected option (which the memo does not take): the search's
    // count below it, whatever the tuning.
    let mut solver = crate::dlx::Solver::new(&m);
    solver.preselect(OptionId::must(0)).unwrap();
    let want = solver.count().solutions;
    assert!(want > 0 && want < 352);
    for share in [1.0, 1e-12] {
        let c = Memo::new()
            .count_or_search_with(&mut solver, Duration::ZERO, share)
            .unwrap();
        assert_eq!(c.solutions.to_u64(), Some(want));
        assert!(!c.by_memo && c.memo_tries == 0);
    }
}

#[test]
#[cfg_attr(miri, ignore = "thousands of memo states")]
fn on_threads_the_clock_is_read_before_each_state_of_the_cut() {
    // Queens 10 on two threads: the cut's states have fewer states below
    // them than a look at the clock waits for (4,096); a deadline passed
    // stops the count all the same (it once ran to its end).
    let m = queens(10).unwrap();
    let c = Memo::new()
        .jobs(2)
        .limits(Limits::new().timeout(Duration::ZERO))
        .count(&m)
        .unwrap();
    assert!(!c.complete && c.stopped == Some(Stop::Deadline), "{c:?}");
    assert!(c.solutions.to_u64().is_some_and(|n| n < 724));
}

/// A node of a diagram read back: its option, lo and hi (`None` for the
/// terminals).
type ZddNode = Option<(usize, usize, usize)>;

/// A diagram's text read back, independently of the writer: its nodes by
/// id (`None` for the terminals) and its root and count. Checks the
/// format's promises on the way: the header, ids counting up from 2, each
/// node naming only nodes before it, no `hi` 0, options of the matrix.
fn read_zdd(text: &str, options: usize) -> (Vec<ZddNode>, usize, String) {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(zdd::FORMAT));
    let mut nodes = vec![None, None];
    let mut root = None;
    for line in lines {
        assert!(root.is_none(), "a line after the root: {line}");
        let words: Vec<&str> = line.split(' ').collect();
        if words[0] == "root" {
            assert_eq!(words.len(), 3, "{line}");
            root = Some((words[1].parse::<usize>().unwrap(), words[2].to_string()));
            continue;
        }
        let n: Vec<usize> = words.iter().map(|w| w.parse().unwrap()).collect();
        assert_eq!(n.len(), 4, "{line}");
        let (id, option, lo, hi) = (n[0], n[1], n[2], n[3]);
        assert_eq!(id, nodes.len(), "{line}");
        assert!(option < options && lo < id && hi < id && hi != 0, "{line}");
        nodes.push(Some((option, lo, hi)));
    }
    let (root, count) = root.expect("a root line");
    assert!(root < nodes.len());
    (nodes, root, count)
}

/// The family of node `id`: its sets of options, each sorted.
fn family(nodes: &[ZddNode], id: usize) -> Vec<Vec<usize>> {
    match (id, nodes[id]) {
        (0, _) => vec![],
        (1, _) => vec![vec![]],
        (_, Some((option, lo, hi))) => {
            let mut sets = family(nodes, lo);
            for mut s in family(nodes, hi) {
                s.push(option);
                s.sort_unstable();
                sets.push(s);
            }
            sets
        }
        _ => unreachable!(),
    }
}

/// The paths from each node to node 1, in file order (children first).
fn paths(nodes: &[ZddNode]) -> Vec<BigCount> {
    let mut p = vec![BigCount::zero(), BigCount::from(1u64)];
    for n in &nodes[2..] {
        let (_, lo, hi) = n.expect("a node");
        let mut sum = p[lo].clone();
        sum.add(&p[hi]);
        p.push(sum);
    }
    p
}

fn zdd_text(m: &Matrix, memo: &Memo) -> (MemoCount, String) {
    let mut out = Vec::new();
    let c = memo.zdd(m, &mut out).unwrap();
    (c, String::from_utf8(out).unwrap())
}

#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of small diagrams: minutes under Miri (no unsafe here)"
)]
fn the_diagram_holds_every_solution_once() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(47);
    let mut seen = [0usize; 3];
    for case in 0..1200 {
        let m = if case % 2 == 0 {
            random_matrix(&mut rng)
        } else {
            random_bounded_matrix(&mut rng)
        };
        // Every set of options that covers, by brute force.
        let k = m.option_count();
        let mut want: Vec<Vec<usize>> = (0u32..1 << k)
            .map(|mask| (0..k).filter(|b| mask >> b & 1 == 1).collect::<Vec<_>>())
            .filter(|s| {
                let chosen: Vec<OptionId> = s.iter().map(|&r| OptionId::must(r)).collect();
                crate::dlx::verify_cover(&m, &chosen).is_ok()
            })
            .collect();
        want.sort();
        seen[want.len().min(2)] += 1;
        for memo in [
            Memo::new(),
            Memo::new().order(MemoOrder::Knuth),
            Memo::new().memory(1),
        ] {
            let (c, text) = zdd_text(&m, &memo);
            assert!(c.complete);
            assert_eq!(c.solutions.to_u64(), Some(want.len() as u64));
            let (nodes, root, count) = read_zdd(&text, k);
            assert_eq!(count, want.len().to_string());
            assert_eq!(c.stats.zdd_nodes as usize, nodes.len() - 2);
            let mut got = family(&nodes, root);
            got.sort();
            assert_eq!(got, want, "{memo:?}\n{m:?}\n{text}");
            // Every node is on a path to a solution.
            let p = paths(&nodes);
            assert!(p[2..].iter().all(|c| !c.is_zero()), "{text}");
        }
    }
    assert!(seen.iter().all(|&s| s > 100), "{seen:?}");
}

#[test]
#[cfg_attr(miri, ignore = "a few thousand states and a 12,988,816-path count")]
fn the_diagram_of_a_tiling_and_its_limits() {
    // Dominoes 8×8: 12,988,816 paths through a few thousand nodes; with a
    // table of a few slots, states are written again, the paths the same.
    let m = dominoes(8, 8, 1).unwrap();
    let mut sizes = Vec::new();
    for memo in [Memo::new(), Memo::new().memory(100_000)] {
        let (c, text) = zdd_text(&m, &memo);
        let (nodes, root, count) = read_zdd(&text, m.option_count());
        assert_eq!(count, "12988816");
        assert_eq!(c.solutions.to_u64(), Some(12_988_816));
        assert_eq!(paths(&nodes)[root].to_u64(), Some(12_988_816));
        sizes.push(nodes.len());
    }
    assert!(sizes[0] < 20_000 && sizes[1] > sizes[0], "{sizes:?}");
    // 2^300 solutions: counts past u128 while the diagram is written, 600
    // nodes.
    let (m, want) = two_to_the_300();
    let (c, text) = zdd_text(&m, &Memo::new());
    let (nodes, root, count) = read_zdd(&text, 600);
    assert_eq!((&c.solutions, &paths(&nodes)[root]), (&want, &want));
    assert_eq!((count, nodes.len() - 2), (want.to_string(), 600));
    // Nothing to cover: the root is node 1.
    let m = knuth::read("| s\n".as_bytes());
    if let Ok(m) = m {
        let (_, text) = zdd_text(&m, &Memo::new());
        assert_eq!(read_zdd(&text, 0).1, 1);
    }
    // No solution: the root is node 0, no node written.
    let m = knuth::read("A B\nA\nA\n".as_bytes()).unwrap();
    let (c, text) = zdd_text(&m, &Memo::new());
    assert_eq!((read_zdd(&text, 2).1, c.stats.zdd_nodes), (0, 0));
    // Stopped: nodes but no root; threads refused; a writer that fails.
    let memo = Memo::new().limits(Limits::from(Budget {
        nodes: Some(200),
        updates: None,
    }));
    let (c, text) = zdd_text(&dominoes(8, 8, 1).unwrap(), &memo);
    assert!(!c.complete && c.stats.zdd_nodes > 0, "{c:?}");
    assert!(text.starts_with(zdd::FORMAT), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("root")), "{text}");
    let queens = queens(10).unwrap();
    let mut out = Vec::new();
    let e = Memo::new().jobs(2).zdd(&queens, &mut out).unwrap_err();
    assert_eq!(e, MemoError::ZddThreads);
    struct Full(usize);
    impl std::io::Write for Full {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.0 < buf.len() {
                return Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "full"));
            }
            self.0 -= buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let e = Memo::new().zdd(&queens, &mut Full(1_000)).unwrap_err();
    assert!(
        matches!(
            e,
            MemoError::ZddWrite {
                kind: std::io::ErrorKind::StorageFull,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("full"), "{e}");
}
