//! The k cheapest solutions (DLX5's costs, `dlx cover --best K`) against a
//! brute force over every subset of options, on random small costed
//! matrices; and the command line on a hand-checked one.

use crate::common::{run, text};
use dlx::{knuth, BuildErrorKind, Matrix, MatrixBuilder, OptionId, Solver};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Every exact cover's cost, by trying every subset of options: each
/// primary item exactly once, each secondary at most once.
fn brute_costs(m: &Matrix) -> Vec<u64> {
    let n = m.option_count();
    let mut costs = Vec::new();
    for set in 0u32..1 << n {
        let mut used = vec![0u32; m.item_count()];
        let mut cost = 0;
        for k in (0..n).filter(|k| set >> k & 1 == 1) {
            let o = OptionId::must(k);
            cost += m.cost(o);
            for (item, _) in m.option_items(o) {
                used[item.as_usize()] += 1;
            }
        }
        let ok = (0..m.item_count()).all(|i| {
            let primary = i < m.primary_count();
            (primary && used[i] == 1) || (!primary && used[i] <= 1)
        });
        // Options naming no primary item are never chosen.
        let live = (0..n)
            .filter(|k| set >> k & 1 == 1)
            .all(|k| !m.ignored_options().contains(&OptionId::must(k)));
        if ok && live {
            costs.push(cost);
        }
    }
    costs.sort_unstable();
    costs
}

/// A random costed matrix in Knuth's format: up to 5 primary and 2
/// secondary items, up to 12 options of 1 to 3 items, costs 0 to 9 (some
/// written as two tokens, which add up).
fn random(rng: &mut StdRng) -> String {
    let np = rng.gen_range(1..=5);
    let ns = rng.gen_range(0..=2);
    let mut text: String = (0..np).map(|i| format!("p{i} ")).collect();
    if ns > 0 {
        text.push('|');
        text.extend((0..ns).map(|i| format!(" s{i}")));
    }
    text.push('\n');
    for _ in 0..rng.gen_range(1..=12) {
        let mut items: Vec<String> = Vec::new();
        while items.is_empty() {
            for i in 0..np {
                if rng.gen_bool(0.35) {
                    items.push(format!("p{i}"));
                }
            }
            for i in 0..ns {
                if rng.gen_bool(0.3) {
                    items.push(format!("s{i}"));
                }
            }
            items.truncate(3);
        }
        let cost = rng.gen_range(0..10u64);
        let costs = if cost > 4 && rng.gen_bool(0.5) {
            format!(" |{} |{}", cost - 3, 3)
        } else {
            format!(" |{cost}")
        };
        text.push_str(&format!("{}{costs}\n", items.join(" ")));
    }
    text
}

#[test]
fn the_k_cheapest_equal_brute_force() {
    let mut rng = StdRng::seed_from_u64(17);
    let mut with_covers = 0;
    for case in 0..300 {
        let text = random(&mut rng);
        let m = knuth::read(text.as_bytes()).unwrap();
        let want = brute_costs(&m);
        with_covers += usize::from(want.len() > 1);
        for k in [1, 2, 5, 100] {
            let best = Solver::new(&m).best(k);
            assert!(best.complete);
            let got: Vec<u64> = best.solutions.iter().map(|c| c.cost).collect();
            let want_k: Vec<u64> = want.iter().copied().take(k).collect();
            assert_eq!(got, want_k, "case {case}, k {k}:\n{text}");
            for c in &best.solutions {
                dlx::verify_cover(&m, &c.options).unwrap();
                assert_eq!(m.cost_of(c.options.iter().copied()), c.cost);
            }
        }
    }
    assert!(
        with_covers > 50,
        "too few matrices with two covers or more: {with_covers}"
    );
}

#[test]
fn best_on_the_command_line() {
    let dlx5 = "A B C\nA B |5\nC |1\nA |2\nB C |2\nB |3\nA B C |7\n";
    let out = run(&["cover", "--best", "2"], dlx5.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "| cost 4\nA |2\nB C |2\n\n| cost 6\nA B |5\nC |1\n"
    );
    let out = run(&["cover", "--best", "1", "--json"], dlx5.as_bytes());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["best"][0]["cost"], 4);
    // Branch and bound: {A B C} (7) is not searched once {A, B C} (4) is
    // kept; three covers met, one branch pruned.
    assert_eq!(
        (v["solutions"].as_u64(), v["pruned"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(v["complete"], true);
    // A budget: the best found so far, said not proven, exit 3.
    let out = run(
        &["cover", "--best", "1", "--node-budget", "3"],
        dlx5.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(
        text(&out.stderr).contains("not proven"),
        "{}",
        text(&out.stderr)
    );
    // Costs change no count; a malformed cost names its line.
    let out = run(&["cover"], dlx5.as_bytes());
    assert_eq!(text(&out.stdout), "4\n");
    let out = run(&["cover"], b"A\nA |x\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 2"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["cover", "--best", "1", "--all"], dlx5.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    // On threads: one thread's answer, byte for byte; refusals by name.
    let tilings = run(&["gen", "dominoes", "6x6"], b"").stdout;
    let one = run(&["cover", "--best", "5"], &tilings);
    let two = run(&["cover", "--best", "5", "--jobs", "2"], &tilings);
    assert_eq!(two.status.code(), Some(0), "{}", text(&two.stderr));
    assert_eq!(text(&two.stdout), text(&one.stdout));
    assert_eq!(text(&one.stdout).matches("| cost").count(), 5);
    let json = run(&["cover", "--best", "2", "--jobs", "2", "--json"], &tilings);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v["subtrees"].as_u64() > Some(1), "{v}");
    assert_eq!(v["best"].as_array().map(Vec::len), Some(2));
    // A deadline on every thread: one this far off changes nothing.
    let out = run(
        &["cover", "--best", "5", "--jobs", "2", "--timeout", "1h"],
        &tilings,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), text(&one.stdout));
}

/// The cheapest tiling of a 2×n board by dynamic programming over its
/// columns, from the costs of `m`'s dominoes (read back by their items).
fn two_row_minimum(m: &Matrix, n: usize) -> u64 {
    let mut cost = std::collections::HashMap::new();
    for k in 0..m.option_count() {
        let o = OptionId::must(k);
        let names: Vec<String> = m
            .option_items(o)
            .map(|(i, _)| m.item_name(i).into())
            .collect();
        cost.insert(names.join(" "), m.cost(o));
    }
    let c = |a: &str| cost[a];
    let mut f = vec![0u64; n + 1];
    for j in 1..=n {
        let vertical = f[j - 1] + c(&format!("r0c{} r1c{}", j - 1, j - 1));
        f[j] = if j >= 2 {
            let top = c(&format!("r0c{} r0c{}", j - 2, j - 1));
            let bottom = c(&format!("r1c{} r1c{}", j - 2, j - 1));
            vertical.min(f[j - 2] + top + bottom)
        } else {
            vertical
        };
    }
    f[n]
}

#[test]
fn cheapest_domino_tilings_equal_dynamic_programming() {
    let mut fib = (1u64, 1u64);
    for n in 1..=14 {
        for seed in [1, 2, 3] {
            let m = dlx::problems::dominoes(2, n, seed).unwrap();
            let best = Solver::new(&m).best(1);
            assert_eq!(
                best.solutions[0].cost,
                two_row_minimum(&m, n),
                "2x{n} seed {seed}"
            );
            assert_eq!(Solver::new(&m).count().solutions, fib.1, "2x{n}");
        }
        fib = (fib.1, fib.0 + fib.1);
    }
    // Tilings of 2n×2n boards: OEIS A004003.
    for (n, tilings) in [(2, 2), (4, 36), (6, 6728)] {
        let m = dlx::problems::dominoes(n, n, 1).unwrap();
        assert_eq!(Solver::new(&m).count().solutions, tilings);
    }
    // Through the command line: gen, then the cheapest.
    let gen = run(&["gen", "dominoes", "2x12", "--seed", "5"], b"");
    let m = knuth::read(&gen.stdout[..]).unwrap();
    let out = run(&["cover", "--best", "1"], &gen.stdout);
    let first = text(&out.stdout);
    assert_eq!(
        first.lines().next(),
        Some(format!("| cost {}", two_row_minimum(&m, 12)).as_str())
    );
    assert_eq!(
        run(&["gen", "queens", "4", "--seed", "1"], b"")
            .status
            .code(),
        Some(2)
    );
}

/// Branch and bound must not change the answer: on every engine and rule,
/// and on matrices with multiplicities (where only the cost so far bounds),
/// the k cheapest equal those of a brute force over every subset of options
/// (checked by `verify_cover`, which counts uses against bounds).
#[test]
fn branch_and_bound_on_every_engine_and_with_bounds() {
    use dlx::{Branching, Config, EngineKind};
    let mut rng = StdRng::seed_from_u64(29);
    for case in 0..200 {
        let mut text = random(&mut rng);
        if case % 2 == 1 {
            // Give the first primary item multiplicities.
            let lo = rng.gen_range(0..=2);
            let hi = rng.gen_range(lo.max(1)..=3);
            text = format!("{lo}:{hi}|{text}");
        }
        let m = knuth::read(text.as_bytes()).unwrap();
        let n = m.option_count();
        let mut want: Vec<u64> = (0u32..1 << n)
            .filter_map(|set| {
                let options: Vec<_> = (0..n)
                    .filter(|k| set >> k & 1 == 1)
                    .map(OptionId::must)
                    .collect();
                dlx::verify_cover(&m, &options)
                    .is_ok()
                    .then(|| m.cost_of(options.iter().copied()))
            })
            .collect();
        want.sort_unstable();
        for engine in EngineKind::ALL {
            for rule in [Branching::Knuth, Branching::FirstForced] {
                let config = Config::new().engine(engine).branching(rule);
                let Ok(mut s) = Solver::with_config(&m, config) else {
                    continue;
                };
                for k in [1, 3] {
                    let best = s.best(k);
                    let got: Vec<u64> = best.solutions.iter().map(|c| c.cost).collect();
                    let want_k: Vec<u64> = want.iter().copied().take(k).collect();
                    assert_eq!(got, want_k, "case {case} {engine} {rule:?} k {k}:\n{text}");
                }
            }
        }
    }
}

/// On several threads the answer is one thread's, ties and all: on every
/// engine and rule, with and without multiplicities.
#[test]
fn best_on_threads_is_one_threads_answer() {
    use dlx::engines::best_parallel;
    use dlx::{Branching, Config, EngineKind};
    // Larger searches, which are cut: costed domino tilings, and two-queens
    // (no costs: every solution ties, so the k cheapest are the first k).
    let mut cut = 0;
    let mut boards = Vec::new();
    for seed in 1..=3 {
        boards.push(dlx::problems::dominoes(6, 6, seed).unwrap());
    }
    boards.push(dlx::problems::two_queens(6).unwrap());
    for m in &boards {
        let mut one = Solver::new(m);
        for k in [1, 3, 10] {
            let want = one.best(k);
            for jobs in [2, 3] {
                let par = best_parallel(m, dlx::engines::Engine::Links, Branching::Knuth, jobs, k)
                    .unwrap();
                assert_eq!(par.best, want, "k {k} jobs {jobs}");
                assert!(par.subtrees > 1);
                cut += 1;
            }
        }
    }
    assert_eq!(cut, 24);
    // Small random matrices (most are searched whole above the cut).
    let mut rng = StdRng::seed_from_u64(31);
    for case in 0..150 {
        let mut text = random(&mut rng);
        if case % 3 == 2 {
            text = format!("0:2|{text}");
        }
        // Ties are common with costs 0 to 2.
        if case % 2 == 1 {
            let mut lines = text.lines();
            let mut cheap = format!("{}\n", lines.next().unwrap());
            for line in lines {
                let mut tokens = line.split(" |");
                cheap += tokens.next().unwrap();
                for cost in tokens {
                    cheap += &format!(" |{}", cost.parse::<u64>().unwrap() % 3);
                }
                cheap.push('\n');
            }
            text = cheap;
        }
        let m = knuth::read(text.as_bytes()).unwrap();
        for engine in EngineKind::ALL {
            for rule in [Branching::Knuth, Branching::FirstForced] {
                let config = Config::new().engine(engine).branching(rule);
                let Ok((tables, rule)) = config.tables(&m) else {
                    continue;
                };
                let mut one = Solver::with_config(&m, config).unwrap();
                for k in [1, 2, 4] {
                    let want = one.best(k);
                    for jobs in [2, 3] {
                        let par = best_parallel(&m, tables.engine(), rule, jobs, k).unwrap();
                        assert_eq!(
                            par.best, want,
                            "case {case} {engine} {rule:?} k {k}:\n{text}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn costs_that_could_overflow_a_solutions_cost_are_refused() {
    // A and B each cost 2^64 − 1: the cover {A, B} costs more than 64 bits
    // hold. It was answered "cost 18446744073709551615" (a saturated sum);
    // now the matrix is refused, naming the line, on every path.
    let max = u64::MAX;
    let text_in = format!("A B\nA |{max}\nB |{max}\nA B |{max}\n");
    for args in [
        &["cover", "--best", "1"][..],
        &["cover"],
        &["cover", "--jobs", "2", "--best", "1"],
    ] {
        let out = run(args, text_in.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("line 3") && stderr.contains("overflow"),
            "{stderr}"
        );
    }
    // The builder says so by kind; costs that add up to 2^64 − 1 in all
    // are taken.
    let mut b = MatrixBuilder::new();
    let [a, bb] = ["A", "B"].map(|n| b.primary(n).unwrap());
    let oa = b.option(&[a]).unwrap();
    let ob = b.option(&[bb]).unwrap();
    b.set_cost(oa, max - 1).unwrap();
    b.set_cost(ob, 1).unwrap();
    let e = b.clone().set_cost(ob, 2).unwrap_err();
    assert!(matches!(e.kind(), BuildErrorKind::CostsTooLarge { .. }));
    b.set_cost(oa, 5).unwrap(); // replacing a cost takes the old one out
    b.set_cost(ob, max - 5).unwrap();
    let m = b.build().unwrap();
    let best = dlx::Solver::new(&m).best(1);
    assert_eq!(best.solutions[0].cost, max);
}
