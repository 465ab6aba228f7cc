//! Every constraint against a brute force: random rule sets on 4×4 and 6×6
//! grids, counted by the matrix and by enumerating the grids that keep
//! rows, columns and regions and then [`check`]; every rule set written to
//! the text form and to f-puzzles and read back equal.

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::*;
use crate::dlx::{Config, EngineKind};
use crate::sudoku::rules::{check, Form};
use crate::sudoku::{DlxSudoku, Limits};

/// A grid's cells as a [`Live`](crate::dlx::Live): cell `k`'s item is `k`, its options
/// `k·n + d` (digit `d + 1`), as in the Sudoku layer's matrix.
#[derive(Clone)]
pub(crate) struct Cells {
    pub(crate) n: usize,
    pub(crate) masks: Vec<u64>,
    pub(crate) placed: Vec<Option<usize>>,
    /// The propagator's words ([`Live::state`](crate::dlx::Live::state)):
    /// none unless a test sizes them.
    pub(crate) state: Vec<u64>,
}

impl Cells {
    /// An `n`×`n` grid, every digit a candidate everywhere.
    pub(crate) fn new(n: usize) -> Cells {
        Cells::of(n, n * n)
    }

    /// `cells` cells of digits 1 to `n`, every digit a candidate.
    pub(crate) fn of(n: usize, cells: usize) -> Cells {
        Cells {
            n,
            masks: vec![(1 << n) - 1; cells],
            placed: vec![None; cells],
            state: Vec::new(),
        }
    }

    /// Random candidates for `cells`, a fifth of them placed.
    pub(crate) fn shuffle(&mut self, cells: &[usize], rng: &mut impl Rng) {
        for &k in cells {
            if rng.gen_bool(0.2) {
                self.masks[k] = 0;
                self.placed[k] = Some(rng.gen_range(0..self.n));
            } else {
                self.masks[k] = rng.gen_range(1..1 << self.n);
            }
        }
    }

    pub(crate) fn digits(&self, k: usize) -> Vec<usize> {
        if let Some(d) = self.placed[k] {
            return vec![d + 1];
        }
        (0..self.n)
            .filter(|d| self.masks[k] >> d & 1 == 1)
            .map(|d| d + 1)
            .collect()
    }
}

impl crate::dlx::Live for Cells {
    fn options(&self, item: usize) -> u64 {
        self.masks.get(item).copied().unwrap_or(0)
    }
    fn option_at(&self, item: usize, bit: u32) -> Option<crate::dlx::OptionId> {
        ((bit as usize) < self.n).then(|| crate::dlx::OptionId::must(item * self.n + bit as usize))
    }
    fn chosen(&self, item: usize) -> Option<crate::dlx::OptionId> {
        self.placed[item].map(|d| crate::dlx::OptionId::must(item * self.n + d))
    }
    fn hide(&mut self, item: usize, options: u64) {
        self.masks[item] &= !options;
    }
    fn state(&mut self) -> &mut [u64] {
        &mut self.state
    }
}

/// Every completion of `givens` that keeps rows, columns and regions,
/// filtered by [`check`]; at most `cap`.
pub(crate) fn brute_force(rules: &Rules, givens: &[u8], cap: usize) -> Vec<Vec<u8>> {
    fn fill(
        rules: &Rules,
        givens: &[u8],
        grid: &mut Vec<u8>,
        k: usize,
        cap: usize,
        out: &mut Vec<Vec<u8>>,
    ) {
        let n = rules.side();
        if out.len() >= cap {
            return;
        }
        if k == n * n {
            if check(rules, givens, grid).is_ok() {
                out.push(grid.clone());
            }
            return;
        }
        let digits: Vec<u8> = if givens[k] != 0 {
            vec![givens[k]]
        } else {
            (1..=n as u8).collect()
        };
        for d in digits {
            let clash = (0..k).any(|j| {
                grid[j] == d
                    && (j / n == k / n
                        || j % n == k % n
                        || rules.regions()[j] == rules.regions()[k])
            });
            if !clash {
                grid[k] = d;
                fill(rules, givens, grid, k + 1, cap, out);
                grid[k] = 0;
            }
        }
    }
    let (mut grid, mut out) = (vec![0; givens.len()], Vec::new());
    fill(rules, givens, &mut grid, 0, cap, &mut out);
    out
}

/// A valid classic grid for boxes `rows × cols`, digits shuffled.
pub(crate) fn solution(rows: usize, cols: usize, rng: &mut StdRng) -> Vec<u8> {
    let n = rows * cols;
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    digits.shuffle(rng);
    let mut grid: Vec<u8> = (0..n * n)
        .map(|k| {
            let (i, j) = (k / n, k % n);
            digits[(i * cols + i / rows + j) % n]
        })
        .collect();
    // Swap two rows inside a band and two columns inside a stack.
    let band = rng.gen_range(0..n / rows) * rows;
    let (a, b) = (band + rng.gen_range(0..rows), band + rng.gen_range(0..rows));
    for c in 0..n {
        grid.swap(a * n + c, b * n + c);
    }
    let stack = rng.gen_range(0..n / cols) * cols;
    let (a, b) = (
        stack + rng.gen_range(0..cols),
        stack + rng.gen_range(0..cols),
    );
    for r in 0..n {
        grid.swap(r * n + a, r * n + b);
    }
    grid
}

/// A walk of `len` distinct orthogonally adjacent cells (shorter when it
/// runs into itself).
fn walk(n: usize, len: usize, rng: &mut StdRng) -> Vec<usize> {
    let mut cells = vec![rng.gen_range(0..n * n)];
    while cells.len() < len {
        let last = cells[cells.len() - 1];
        let next: Vec<usize> = neighbours(last, n).filter(|k| !cells.contains(k)).collect();
        match next.choose(rng) {
            Some(&k) => cells.push(k),
            None => break,
        }
    }
    cells
}

/// Some distinct random cells.
fn some_cells(n: usize, len: usize, rng: &mut StdRng) -> Vec<usize> {
    let mut cells: Vec<usize> = (0..n * n).collect();
    cells.shuffle(rng);
    cells.truncate(len);
    cells
}

/// The kinds the generator makes, by name.
pub(crate) const MADE: [&str; 47] = [
    "region",
    "cage",
    "renban",
    "thermo",
    "slowthermo",
    "whispers",
    "palindrome",
    "clone",
    "between",
    "white",
    "black",
    "xv",
    "nonconsecutive",
    "negative-dots",
    "negative-xv",
    "odd",
    "even",
    "min",
    "max",
    "quad",
    "arrow",
    "littlekiller",
    "sandwich",
    "antiking",
    "regionsum",
    "entropic",
    "modular",
    "zipper",
    "counting",
    "diffcount",
    "fibonacci",
    "index",
    "sun",
    "paritystrings",
    "knightcircles",
    "products",
    "summark",
    "negativesum",
    "nabner",
    "parityline",
    "skyscraper",
    "xsum",
    "numberedroom",
    "productcage",
    "columnindexing",
    "rowindexing",
    "candidates",
];

/// A random constraint of kind `what`, most of the time kept by `sol`.
pub(crate) fn make(what: &str, n: usize, sol: &[u8], rng: &mut StdRng) -> Arc<dyn Constraint> {
    let keep = rng.gen_bool(0.75);
    let pair = |rng: &mut StdRng| {
        let a = rng.gen_range(0..n * n);
        let b = neighbours(a, n).collect::<Vec<_>>()[0];
        [a, b]
    };
    match what {
        "region" => Arc::new(ExtraRegion {
            cells: some_cells(n, rng.gen_range(2..=n), rng),
        }),
        "cage" => {
            let cells = walk(n, rng.gen_range(1..=3), rng);
            let sum = cells.iter().map(|&k| sol[k] as u32).sum();
            Arc::new(Cage {
                cells,
                sum: keep.then_some(sum),
            })
        }
        "productcage" => {
            let cells = walk(n, rng.gen_range(1..=3), rng);
            let digits: Vec<u64> = if keep {
                cells.iter().map(|&k| u64::from(sol[k])).collect()
            } else {
                let mut all: Vec<u64> = (1..=n as u64).collect();
                all.shuffle(rng);
                all.truncate(cells.len());
                all
            };
            Arc::new(ProductCage {
                cells,
                product: digits.iter().product(),
            })
        }
        "candidates" => {
            let cell = rng.gen_range(0..n * n);
            let mut digits: Vec<u8> = (1..=n as u8).filter(|_| rng.gen_bool(0.5)).collect();
            if keep || digits.is_empty() {
                digits.push(sol[cell]);
            }
            Arc::new(GivenCandidates::new(cell, &digits))
        }
        "columnindexing" | "rowindexing" => {
            let columns = what == "columnindexing";
            let holds = |k: usize| {
                let (r, c, v) = (k / n, k % n, sol[k] as usize - 1);
                if columns {
                    sol[r * n + v] as usize == c + 1
                } else {
                    sol[v * n + c] as usize == r + 1
                }
            };
            let kept: Vec<usize> = (0..n * n).filter(|&k| holds(k)).collect();
            let cell = match kept.choose(rng) {
                Some(&k) if keep => k,
                _ => rng.gen_range(0..n * n),
            };
            Arc::new(Indexing { cell, columns })
        }
        "renban" => Arc::new(Renban {
            cells: walk(n, rng.gen_range(2..=3), rng),
        }),
        "thermo" | "slowthermo" => {
            let mut cells = walk(n, rng.gen_range(2..=3), rng);
            if keep {
                cells.sort_by_key(|&k| sol[k]);
            }
            Arc::new(Thermometer {
                cells,
                slow: what == "slowthermo",
            })
        }
        "whispers" => {
            let cells = walk(n, rng.gen_range(2..=3), rng);
            let least = cells
                .windows(2)
                .map(|w| sol[w[0]].abs_diff(sol[w[1]]) as u32)
                .min()
                .unwrap_or(1);
            Arc::new(Whispers {
                cells,
                gap: if keep {
                    least.max(1)
                } else {
                    rng.gen_range(1..n as u32)
                },
            })
        }
        "palindrome" | "clone" => {
            // Two cells of one digit (when kept), and maybe a middle.
            let a = rng.gen_range(0..n * n);
            let same: Vec<usize> = (0..n * n).filter(|&k| k != a && sol[k] == sol[a]).collect();
            let b = if keep {
                *same.choose(rng).unwrap_or(&((a + 1) % (n * n)))
            } else {
                (a + rng.gen_range(1..n * n)) % (n * n)
            };
            if what == "clone" {
                Arc::new(Clones {
                    cells: vec![a],
                    clones: vec![b],
                })
            } else {
                let mut cells = vec![a];
                if rng.gen_bool(0.5) {
                    cells.extend((0..n * n).find(|k| *k != a && *k != b));
                }
                cells.push(b);
                Arc::new(Palindrome { cells })
            }
        }
        "between" => {
            let mut cells = some_cells(n, rng.gen_range(3..=4), rng);
            if keep {
                // The least and the greatest digit at the ends.
                cells.sort_by_key(|&k| sol[k]);
            }
            Arc::new(Between { cells })
        }
        "white" | "black" => {
            let cells = pair(rng);
            let kind = if what == "white" {
                DotKind::White
            } else {
                DotKind::Black
            };
            let (x, y) = (sol[cells[0]] as u32, sol[cells[1]] as u32);
            let value = match kind {
                DotKind::White if keep => x.abs_diff(y),
                DotKind::Black if keep && (x % y == 0 || y % x == 0) => x.max(y) / x.min(y),
                _ => kind_default(kind),
            };
            Arc::new(Dot {
                cells,
                kind,
                value: value.max(1),
            })
        }
        "xv" => Arc::new(Xv {
            cells: pair(rng),
            sum: if rng.gen_bool(0.5) { 5 } else { 10 },
        }),
        "nonconsecutive" => Arc::new(NonConsecutive),
        "negative-dots" => Arc::new(NegativeDots {
            kind: if rng.gen_bool(0.5) {
                DotKind::White
            } else {
                DotKind::Black
            },
        }),
        "negative-xv" => Arc::new(match rng.gen_range(0..3) {
            0 => NegativeXv::BOTH,
            1 => NegativeXv { x: true, v: false },
            _ => NegativeXv { x: false, v: true },
        }),
        "odd" | "even" => {
            let cell = rng.gen_range(0..n * n);
            let odd = if keep {
                sol[cell] % 2 == 1
            } else {
                what == "odd"
            };
            if odd {
                Arc::new(Odd { cell })
            } else {
                Arc::new(Even { cell })
            }
        }
        "min" | "max" => {
            let cell = rng.gen_range(0..n * n);
            if what == "min" {
                Arc::new(Minimum { cell })
            } else {
                Arc::new(Maximum { cell })
            }
        }
        "quad" => {
            let (r, c) = (rng.gen_range(0..n - 1), rng.gen_range(0..n - 1));
            let cells = vec![
                r * n + c,
                r * n + c + 1,
                (r + 1) * n + c,
                (r + 1) * n + c + 1,
            ];
            let mut digits: Vec<u8> = if keep {
                let mut d: Vec<u8> = cells.iter().map(|&k| sol[k]).collect();
                d.shuffle(rng);
                d.truncate(rng.gen_range(1..=4));
                d
            } else {
                (0..rng.gen_range(1..=3))
                    .map(|_| rng.gen_range(1..=n as u8))
                    .collect()
            };
            digits.sort_unstable();
            Arc::new(Quadruple { cells, digits })
        }
        "arrow" => {
            let cells = walk(n, rng.gen_range(2..=4), rng);
            // The circle: the first cell, or the first two read as a number.
            let split = if cells.len() > 2 && rng.gen_bool(0.2) {
                2
            } else {
                1
            };
            Arc::new(Arrow {
                circle: cells[..split].to_vec(),
                shaft: cells[split..].to_vec(),
            })
        }
        "counting" => Arc::new(CountingCircles {
            cells: some_cells(n, rng.gen_range(1..=n), rng),
        }),
        "diffcount" => Arc::new(DifferencesCount {
            cells: walk(n, rng.gen_range(2..=4), rng),
        }),
        "summark" => {
            let cells = pair(rng);
            let sum = sol[cells[0]] as u32 + sol[cells[1]] as u32;
            let other = rng.gen_range(3..=2 * n as u32 - 1);
            Arc::new(SumMark {
                cells,
                sums: if keep { vec![sum, other] } else { vec![other] },
            })
        }
        "negativesum" => Arc::new(NegativeSum {
            sum: rng.gen_range(3..=2 * n as u32 - 1),
        }),
        "products" => Arc::new(EqualProducts {
            // Two or three short walks, which may cross.
            groups: (0..rng.gen_range(2..=3))
                .map(|_| walk(n, rng.gen_range(1..=3), rng))
                .collect(),
        }),
        "knightcircles" => Arc::new(KnightCircles {
            cells: some_cells(n, rng.gen_range(1..=2), rng),
        }),
        "paritystrings" => Arc::new(ParityStrings {
            length: rng.gen_range(2..=3),
        }),
        "nabner" => Arc::new(Nabner {
            cells: some_cells(n, rng.gen_range(2..=3), rng),
        }),
        "parityline" => Arc::new(ParityLine {
            cells: walk(n, rng.gen_range(2..=4), rng),
        }),
        "skyscraper" | "xsum" | "numberedroom" => {
            let look = Look {
                row: rng.gen_bool(0.5),
                index: rng.gen_range(0..n),
                back: rng.gen_bool(0.5),
            };
            let digits: Vec<u32> = look.cells(n).iter().map(|&k| sol[k] as u32).collect();
            let x = digits[0] as usize;
            let value = match what {
                "skyscraper" => digits
                    .iter()
                    .scan(0, |tallest, &d| {
                        let seen = d > *tallest;
                        *tallest = (*tallest).max(d);
                        Some(seen)
                    })
                    .filter(|&seen| seen)
                    .count() as u32,
                "xsum" => digits[..x].iter().sum(),
                _ => digits[x - 1],
            };
            let value = if keep {
                value
            } else {
                rng.gen_range(1..=n as u32)
            };
            match what {
                "skyscraper" => Arc::new(Skyscraper { look, count: value }),
                "xsum" => Arc::new(XSum { look, sum: value }),
                _ => Arc::new(NumberedRoom { look, digit: value }),
            }
        }
        "sun" => Arc::new(Sunburn {
            cell: rng.gen_range(0..n * n),
        }),
        "index" => Arc::new(IndexLine {
            cells: walk(n, rng.gen_range(2..=4), rng),
        }),
        "fibonacci" => Arc::new(Fibonacci {
            cells: walk(n, rng.gen_range(2..=3), rng),
        }),
        "zipper" => Arc::new(Zipper {
            cells: walk(n, rng.gen_range(3..=5), rng),
        }),
        "entropic" | "modular" => Arc::new(Entropic {
            cells: walk(n, rng.gen_range(2..=4), rng),
            modular: what == "modular",
        }),
        "regionsum" => {
            // A walk across boxes (f-puzzles' default), grouped by box.
            let h = crate::sudoku::fpuzzles::default_box_rows(n);
            let w = n / h;
            let region = |k: usize| (k / n / h) * (n / w) + (k % n) / w;
            let line = (0..20)
                .map(|_| RegionSum::along(&walk(n, rng.gen_range(3..=4), rng), region))
                .find(|line| line.groups.len() >= 2)
                .unwrap_or(RegionSum {
                    groups: vec![vec![w - 1], vec![w]],
                });
            // A third of them groups that no region bounds (the first
            // cells against the rest: written as dlx's `equalsums`).
            let cells = walk(n, 4, rng);
            if cells.len() >= 2 && rng.gen_bool(1.0 / 3.0) {
                let cut = rng.gen_range(1..cells.len());
                return Arc::new(RegionSum {
                    groups: vec![cells[..cut].to_vec(), cells[cut..].to_vec()],
                });
            }
            Arc::new(line)
        }
        "littlekiller" => {
            let len = rng.gen_range(1..=n);
            let start = n - len;
            let cells: Vec<usize> = (0..len).map(|i| i * n + start + i).collect();
            let sum = cells.iter().map(|&k| sol[k] as u32).sum::<u32>();
            Arc::new(LittleKiller {
                cells,
                sum: if keep { sum } else { sum + 1 },
            })
        }
        "sandwich" => {
            let (row, index) = (rng.gen_bool(0.5), rng.gen_range(0..n));
            let line: Vec<u8> = (0..n)
                .map(|i| sol[if row { index * n + i } else { i * n + index }])
                .collect();
            let ends: Vec<usize> = (0..n)
                .filter(|&i| line[i] == 1 || line[i] as usize == n)
                .collect();
            let sum: u32 = line[ends[0] + 1..ends[1]].iter().map(|&d| d as u32).sum();
            Arc::new(Sandwich {
                row,
                index,
                sum: if keep { sum } else { rng.gen_range(0..10) },
            })
        }
        _ => Arc::new(AntiKing),
    }
}

fn kind_default(kind: DotKind) -> u32 {
    match kind {
        DotKind::White => 1,
        DotKind::Black => 2,
    }
}

#[test]
fn every_constraint_counts_as_brute_force_and_reads_back() {
    let mut rng = StdRng::seed_from_u64(40);
    // Cases per kind with no solution, one, more.
    let mut seen = vec![[0u32; 3]; MADE.len()];
    // Each kind first in 24 cases (6 of them on 6×6), Miri a few.
    let cases = if cfg!(miri) { 28 } else { 24 * MADE.len() };
    for case in 0..cases {
        // A quarter 6×6, each kind first on both sizes in turn.
        let (rows, cols) = if (case % MADE.len() + case / MADE.len()) % 4 == 3 {
            (2, 3)
        } else {
            (2, 2)
        };
        let n = rows * cols;
        let sol = solution(rows, cols, &mut rng);
        let mut rules = Rules::boxes(rows, cols).unwrap();
        let first = case % MADE.len();
        let mut made = vec![first];
        for _ in 0..rng.gen_range(0..3) {
            made.push(rng.gen_range(0..MADE.len()));
        }
        for &i in &made {
            // A constraint that does not fit (a cage's sum out of reach…)
            // is refused by `with`, and left out.
            rules = rules
                .clone()
                .with_shared(make(MADE[i], n, &sol, &mut rng))
                .unwrap_or(rules);
        }
        // Givens from a grid that keeps every rule when there is one (all
        // are enumerated on 4×4; on 6×6 the matrix's first, checked).
        let matrix = rules.matrix().unwrap();
        // A little killer's sum, a region sum line's and a one-cell-circle
        // arrow's, is bounded
        // by the search's propagator too, and a renban's runs watched
        // (counted below with it, against brute force).
        let summed = rules.constraints().iter().any(|c| {
            c.as_any().is::<LittleKiller>()
                || c.as_any().is::<RegionSum>()
                || c.as_any().is::<Zipper>()
                || c.as_any()
                    .downcast_ref::<Arrow>()
                    .is_some_and(|a| a.circle.len() == 1)
        });
        if summed
            || rules.constraints().iter().any(|c| {
                c.as_any()
                    .downcast_ref::<Renban>()
                    .is_some_and(|r| (2..n).contains(&r.cells.len()))
            })
        {
            assert!(matrix.propagator_in(Form::Whole).is_some(), "{rules:?}");
        }
        // So are the constraints said by automata alone (sandwiches, pill
        // arrows, lines carrying a state …): the chain runs enforce them.
        let alone = rules.constraints().iter().any(|c| {
            let mut e = Encoder::new(&rules);
            e.encode_owned(c, false);
            e.owners[0].runs_alone
        });
        // Those sums and automata are the propagator's alone in the lean
        // matrix, which the default search takes (counted below against
        // brute force).
        let lean = summed || alone;
        assert_eq!(matrix.has_lean(), lean, "{rules:?}");
        let source = if n == 4 {
            brute_force(&rules, &[0; 16], usize::MAX)
                .choose(&mut rng)
                .cloned()
        } else {
            matrix.count(&[0; 36], 1).1
        };
        if let Some(grid) = &source {
            check(&rules, &[0; 36][..n * n], grid).unwrap();
        }
        let keep = if n == 4 { 0.25 } else { 0.5 };
        let givens: Vec<u8> = source
            .unwrap_or(sol)
            .iter()
            .map(|&d| if rng.gen_bool(keep) { d } else { 0 })
            .collect();
        let (count, grid) = matrix.count(&givens, u64::MAX);
        let want = brute_force(&rules, &givens, usize::MAX).len() as u64;
        assert_eq!(count.solutions, want, "case {case}: {rules:?} {givens:?}");
        if let Some(grid) = grid {
            check(&rules, &givens, &grid).unwrap();
        }
        if lean {
            // By Knuth's rule no engine runs a propagator: the whole matrix.
            let config = Config::new().engine(EngineKind::Links);
            let mut links = DlxSudoku::for_rules(&matrix, config).unwrap();
            assert!(!links.propagates());
            let answer = links.solve_cells(&givens, &Limits::count_to(u64::MAX), &mut Vec::new());
            assert_eq!(answer.solutions, want, "links, case {case}: {rules:?}");
            // First-forced, links and dense run it (the lean matrix where
            // there is one, which it enforces): the same counts.
            for engine in [EngineKind::Links, EngineKind::Dense] {
                let config = Config::new()
                    .engine(engine)
                    .branching(crate::dlx::Branching::FirstForced);
                // (Dense takes states of 8 KB at most.)
                let Ok(mut s) = DlxSudoku::for_rules(&matrix, config) else {
                    assert_eq!(engine, EngineKind::Dense);
                    continue;
                };
                assert!(s.propagates());
                let answer = s.solve_cells(&givens, &Limits::count_to(u64::MAX), &mut Vec::new());
                assert_eq!(answer.solutions, want, "{engine:?}, case {case}: {rules:?}");
            }
        }
        for &i in &made {
            seen[i][want.min(2) as usize] += 1;
        }
        // Both written forms read back to the same rules.
        let line = crate::sudoku::rule_line::write(&rules, &givens);
        let (back, back_givens) = crate::sudoku::rule_line::read(&line).unwrap();
        assert_eq!((&back, &back_givens), (&rules, &givens), "{line}");
        let json = crate::sudoku::fpuzzles::write_rules(&rules, &givens, None);
        let doc = crate::sudoku::fpuzzles::read(&json).unwrap();
        assert_eq!((&doc.rules, &doc.givens), (&rules, &givens), "{json}");
    }
    if !cfg!(miri) {
        for (i, s) in seen.iter().enumerate() {
            assert!(
                s[1] + s[2] >= 3 && s[0] + s[1] + s[2] >= 10,
                "{}: {s:?}",
                MADE[i]
            );
        }
    }
}

#[test]
fn forbidden_pairs_are_bicliques_that_cover_exactly() {
    // Non-consecutive's relation between two cells that see each other:
    // the same count of grids as non-consecutive's own encoding.
    let rules = Rules::boxes(2, 2).unwrap();
    for (a, b) in [(0, 1), (0, 5), (0, 15)] {
        let mut e = Encoder::new(&rules);
        e.forbid(a, b, |x, y| x.abs_diff(y) != 1);
        let items: usize = e.cell_items.iter().map(Vec::len).sum();
        // 4 digits × 2 cells take at most two items each.
        assert!(items <= 16, "{items}");
    }
    // Equal cells: ⌈log⌉-sized codes, 2 + 3 items for 9 digits.
    let nine = Rules::boxes(3, 3).unwrap();
    let mut e = Encoder::new(&nine);
    e.equal(0, 40);
    assert_eq!(e.secondary, 5);
    assert_eq!(e.cell_items[0].len(), 2);
    assert_eq!(e.cell_items[40 * 9].len(), 3);
}

#[test]
fn a_whispers_line_may_close_a_loop_but_no_cell_follows_itself() {
    let side = Rules::boxes(2, 2).unwrap();
    let whispers = |cells: Vec<usize>| lines::Whispers { cells, gap: 2 };
    // A loop across the top two boxes (1 3 / 3 1 has gaps of 2 all round).
    let loop_rules = side.clone().with(whispers(vec![1, 2, 6, 5, 1])).unwrap();
    let givens = [0; 16];
    let found = brute_force(&loop_rules, &givens, usize::MAX);
    assert!(!found.is_empty());
    for grid in &found {
        for w in [1, 2, 6, 5, 1].windows(2) {
            assert!(grid[w[0]].abs_diff(grid[w[1]]) >= 2);
        }
    }
    let m = loop_rules.matrix().unwrap();
    assert_eq!(m.count(&givens, u64::MAX).0.solutions, found.len() as u64);
    let err = side.with(whispers(vec![0, 1, 1, 5])).unwrap_err();
    assert!(err.to_string().contains("follows itself"), "{err}");
}

/// Killer cages tiling most of the grid: random connected cages of one to
/// four cells (a few cells left out), sums from `sol`, a few without one,
/// and now and then a sum off by one (no solution, or other ones).
fn killer_tiling(n: usize, sol: &[u8], rng: &mut StdRng) -> Vec<Cage> {
    let mut free = vec![true; n * n];
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let mut cages = Vec::new();
    for start in order {
        if !free[start] || rng.gen_bool(0.1) {
            continue;
        }
        let mut cells = vec![start];
        free[start] = false;
        let len = rng.gen_range(1..=4);
        while cells.len() < len {
            let next: Vec<usize> = cells
                .iter()
                .flat_map(|&k| neighbours(k, n))
                .filter(|&k| free[k])
                .collect();
            let Some(&k) = next.choose(rng) else { break };
            free[k] = false;
            cells.push(k);
        }
        let mut sum: u32 = cells.iter().map(|&k| sol[k] as u32).sum();
        if rng.gen_bool(0.05) {
            sum += 1;
        }
        cages.push(Cage {
            sum: (!rng.gen_bool(0.1)).then_some(sum),
            cells,
        });
    }
    cages
}

#[test]
fn derived_cages_lose_no_solution_and_admit_none() {
    // The 45 rule's cages are in the matrix, not the rules, and its other
    // sums bounded by the search's propagator: the matrix's count must
    // still be the brute force's (which checks the rules alone).
    let mut rng = StdRng::seed_from_u64(42);
    let cases = if cfg!(miri) { 4 } else { 300 };
    let (mut derived, mut sums, mut unique, mut several) = (0, 0, 0, 0);
    // Matrices whose search bounds derived sums (the propagator runs on
    // more than the cages).
    let mut propagating = 0;
    for case in 0..cases {
        let (rows, cols) = if case % 3 == 2 { (2, 3) } else { (2, 2) };
        let n = rows * cols;
        let sol = solution(rows, cols, &mut rng);
        let mut rules = Rules::boxes(rows, cols).unwrap();
        for cage in killer_tiling(n, &sol, &mut rng) {
            rules = rules.clone().with(cage).unwrap_or(rules);
        }
        let made = derive::constraints(&rules);
        derived += usize::from(!made.is_empty());
        sums += made
            .iter()
            .filter(|c| c.as_any().is::<LittleKiller>())
            .count();
        let keep = if n == 4 { 0.0 } else { 0.4 };
        let givens: Vec<u8> = sol
            .iter()
            .map(|&d| if rng.gen_bool(keep) { d } else { 0 })
            .collect();
        let matrix = rules.matrix().unwrap();
        let (_, bounded) = derive::derive(&rules);
        assert_eq!(
            matrix.propagator_in(Form::Whole).is_some(),
            !bounded.is_empty()
        );
        each_sum_once(&rules, &bounded);
        propagating += usize::from(bounded.iter().any(|s| !s.distinct));
        let (count, grid) = matrix.count(&givens, u64::MAX);
        let want = brute_force(&rules, &givens, usize::MAX).len() as u64;
        assert_eq!(count.solutions, want, "case {case}: {rules:?} {givens:?}");
        if let Some(grid) = grid {
            check(&rules, &givens, &grid).unwrap();
        }
        unique += usize::from(want == 1);
        several += usize::from(want > 1);
    }
    if !cfg!(miri) {
        assert!(
            derived > cases * 3 / 4,
            "{derived} of {cases} derived cages"
        );
        assert!(sums > 20, "{sums} derived sums");
        assert!(
            propagating > cases / 4,
            "{propagating} of {cases} bound sums"
        );
        assert!(
            unique > 20 && several > 20,
            "{unique} unique, {several} several"
        );
    }
}

#[test]
fn innies_and_outies_of_a_house() {
    // 4×4, houses of sum 10. Row 1: a cage R1C1+R1C2 of 3 inside it, a cage
    // R1C3+R2C3 of 7 leaving it, R1C4 in no cage: the innies R1C3, R1C4
    // sum to 7. Column 1: R1C1..R4C1 all in cages (the row cage leaving
    // it, a cage R2C1+R3C1 of 7 inside, R4C1+R4C2 of 4 leaving): the innies
    // R1C1, R4C1 sum to 3, the outies R1C2, R4C2 (one column) to
    // 3 + 7 + 4 − 10 = 4.
    let cages = [
        (vec![0, 1], 3),
        (vec![2, 6], 7),
        (vec![4, 8], 7),
        (vec![12, 13], 4),
    ];
    let rules = cages
        .into_iter()
        .try_fold(Rules::boxes(2, 2).unwrap(), |rules, (cells, sum)| {
            rules.with(Cage {
                cells,
                sum: Some(sum),
            })
        })
        .unwrap();
    let derived = derive::constraints(&rules);
    let has = |cells: &[usize], sum: u32| {
        derived.iter().any(|c| {
            c.as_any()
                .downcast_ref::<Cage>()
                .is_some_and(|c| c.cells == cells && c.sum == Some(sum))
        })
    };

    assert!(has(&[2, 3], 7), "{derived:?}");
    assert!(has(&[0, 12], 3), "{derived:?}");
    assert!(has(&[1, 13], 4), "{derived:?}");
    // Rows 1 and 2 (20): the cages inside, R1C1+R1C2 (3) and R1C3+R2C3
    // (7), leave R1C4, R2C1, R2C2, R2C4 (two rows: digits may repeat) to
    // 10 — four cells, more than a derived sum takes.
    const { assert!(derive::MAX_LOOSE < 4) };
    assert!(!derived.iter().any(|c| {
        c.as_any()
            .downcast_ref::<LittleKiller>()
            .is_some_and(|l| l.cells == [3, 4, 5, 7])
    }));
    // Row 1 less the cage leaving it: R1C4 less R2C3 (outside) is
    // 10 − 3 − 7 = 0, a sum for the search's bounds.
    let (_, sums) = derive::derive(&rules);
    let mixed = derive::SignedSum {
        plus: vec![3],
        minus: vec![6],
        total: 0,
        distinct: false,
    };
    assert!(sums.contains(&mixed), "{sums:?}");
    // Overlapping cages derive nothing (a cell would count twice).
    let overlapping = rules
        .with(Cage {
            cells: vec![0, 4],
            sum: Some(5),
        })
        .unwrap();
    assert!(derive::constraints(&overlapping).is_empty());
}

/// The rules of side `rows · cols` with `cages` (cells, sum).
fn killer(rows: usize, cols: usize, cages: &[(&[usize], u32)]) -> Rules {
    cages
        .iter()
        .try_fold(Rules::boxes(rows, cols).unwrap(), |rules, (cells, sum)| {
            rules.with(Cage {
                cells: cells.to_vec(),
                sum: Some(*sum),
            })
        })
        .unwrap()
}

#[test]
fn growing_areas_take_the_cages_mostly_inside() {
    // 6×6, rows 1 and 2 (cells 0–11, sum 42): cages R1C1+R2C1+R3C1 (6)
    // and R1C2+R2C2+R3C2 (9) are mostly inside, R2C6+R3C6+R4C6 (12)
    // mostly outside, R1C3..R1C6 (14) and R2C3..R2C5 (15) wholly inside.
    // The area's cells in none of its cages (R2C6) less its cages' cells
    // outside (R3C1, R3C2) make 42 − 6 − 9 − 14 − 15 = −2: what the
    // Interactive Sudoku Solver's growing areas give, and no house alone.
    let rules = killer(
        2,
        3,
        &[
            (&[0, 6, 12], 6),
            (&[1, 7, 13], 9),
            (&[11, 17, 23], 12),
            (&[2, 3, 4, 5], 14),
            (&[8, 9, 10], 15),
        ],
    );
    let (_, sums) = derive::derive(&rules);
    let mixed = derive::SignedSum {
        plus: vec![11],
        minus: vec![12, 13],
        total: -2,
        distinct: false,
    };
    assert!(sums.contains(&mixed), "{sums:?}");
    each_sum_once(&rules, &sums);
}

/// The derived sums of `rules` say each thing once: never a sum with its
/// negation (areas grown from either side meet), never a house's cells
/// with the house's own total.
fn each_sum_once(rules: &Rules, sums: &[derive::SignedSum]) {
    let n = rules.side();
    let regions = rules.regions();
    let houses: Vec<Vec<usize>> = (0..n)
        .flat_map(|i| {
            [
                (i * n..i * n + n).collect(),
                (0..n).map(|r| r * n + i).collect(),
                (0..n * n).filter(|&k| regions[k] == i).collect(),
            ]
        })
        .collect();
    for s in sums {
        let negated = derive::SignedSum {
            plus: s.minus.clone(),
            minus: s.plus.clone(),
            total: -s.total,
            distinct: s.distinct,
        };
        assert!(!sums.contains(&negated), "{s:?} and its negation");
        let puzzle = rules.cages().iter().any(|c| {
            let mut cells = c.cells.clone();
            cells.sort_unstable();
            cells == s.plus && s.minus.is_empty()
        });
        let house = s.minus.is_empty() && houses.contains(&s.plus);
        assert!(
            puzzle || !(house && s.total == (n * (n + 1) / 2) as i64),
            "{s:?}"
        );
    }
}

#[test]
fn a_sum_over_cells_in_no_cage_may_have_n_cells() {
    // 9×9, rows 1 and 2 (sum 90): cages R1C1..R1C4 (10), R2C1..R2C4 (26)
    // and R1C5+R1C6 (11) leave R1C7..R1C9 and R2C5..R2C9 to 43 — eight
    // cells in no cage, in no one house: a sum for the search's bounds,
    // past the cap of sums over caged cells alone.
    let rules = killer(
        3,
        3,
        &[(&[0, 1, 2, 3], 10), (&[9, 10, 11, 12], 26), (&[4, 5], 11)],
    );
    let (_, sums) = derive::derive(&rules);
    let innies = derive::SignedSum {
        plus: vec![6, 7, 8, 13, 14, 15, 16, 17],
        minus: vec![],
        total: 43,
        distinct: false,
    };
    const { assert!(derive::MAX_SUM_CELLS < 8) };
    assert!(sums.contains(&innies), "{sums:?}");
    // Every sum past the cap has a cell in no cage.
    let caged: Vec<usize> = [0, 1, 2, 3, 9, 10, 11, 12, 4, 5].into();
    for s in &sums {
        if s.plus.len() + s.minus.len() > derive::MAX_SUM_CELLS {
            assert!(s.plus.iter().chain(&s.minus).any(|k| !caged.contains(k)));
        }
    }
}

/// The nodes of what `e` encoded (its options' and the cells' items).
fn nodes(e: &Encoder<'_>) -> usize {
    e.options.iter().chain(&e.cell_items).map(Vec::len).sum()
}

#[test]
fn long_little_killers_take_the_hub_and_count_as_brute_force() {
    // Diagonals of 5 to 9 cells on 9×9, summed from a grid: the sum bounds
    // enforce them, so they are out of the lean matrix and their automata
    // take the hub in the whole one, which has fewer nodes. Counted
    // against the brute force with a third of the cells open, searching
    // the lean matrix (the whole one never built) and the whole one by
    // Knuth's rule.
    let mut rng = StdRng::seed_from_u64(43);
    let cases = if cfg!(miri) { 1 } else { 12 };
    let mut hubs = 0;
    for case in 0..cases {
        let sol = solution(3, 3, &mut rng);
        let mut rules = Rules::boxes(3, 3).unwrap();
        let mut killers = Vec::new();
        for _ in 0..3 {
            // An anti-diagonal r + c = s of at least 5 cells.
            let s: usize = rng.gen_range(4..=12);
            let cells: Vec<usize> = (0..9)
                .filter_map(|r: usize| s.checked_sub(r).filter(|&c| c < 9).map(|c| r * 9 + c))
                .collect();
            let sum = cells.iter().map(|&k| u32::from(sol[k])).sum();
            let killer = LittleKiller { cells, sum };
            rules = rules.clone().with(killer.clone()).unwrap_or(rules);
            killers.push(killer);
        }
        // Bounded, never more nodes; fewer where a layer took the hub.
        for killer in &killers {
            let mut e = Encoder::new(&rules);
            killer.encode(&mut e);
            let complement = nodes(&e);
            let mut e = Encoder::new(&rules);
            e.bounded = true;
            killer.encode(&mut e);
            assert!(nodes(&e) <= complement, "{killer:?}");
            hubs += usize::from(nodes(&e) < complement);
        }
        let matrix = rules.matrix().unwrap();
        assert!(matrix.propagator_in(Form::Whole).is_some());
        assert!(matrix.has_lean() && !matrix.whole_built());
        let givens: Vec<u8> = sol
            .iter()
            .map(|&d| if rng.gen_bool(2.0 / 3.0) { d } else { 0 })
            .collect();
        let (count, grid) = matrix.count(&givens, u64::MAX);
        let want = brute_force(&rules, &givens, usize::MAX).len() as u64;
        assert!(want >= 1);
        assert_eq!(count.solutions, want, "case {case}: {rules:?} {givens:?}");
        check(&rules, &givens, &grid.unwrap()).unwrap();
        assert!(!matrix.whole_built(), "a search that propagates built it");
        // Knuth's rule: the whole matrix, hubs in, no propagator.
        let config = Config::new().engine(EngineKind::Links);
        let mut links = DlxSudoku::for_rules(&matrix, config).unwrap();
        assert!(!links.propagates() && matrix.whole_built());
        let answer = links.solve_cells(&givens, &Limits::count_to(u64::MAX), &mut Vec::new());
        assert_eq!(
            answer.solutions, want,
            "Knuth's rule, case {case}: {rules:?}"
        );
    }
    assert!(hubs >= cases, "{hubs} hubs");
}

/// A clue that cannot mean anything is an error naming it, its cells as
/// R1C1: marks between cells that are not side by side, a whispers gap of
/// 0, a little killer off its diagonal, a cell listed twice.
#[test]
fn meaningless_clues_are_refused_by_name() {
    let refused = [
        (
            "white=R1C1,R3C3",
            "kropki dot: R1C1 and R3C3 are not side by side",
        ),
        (
            "black=R2C2,R1C1",
            "kropki dot: R2C2 and R1C1 are not side by side",
        ),
        ("xv=X:R1C1,R1C3", "xv: R1C1 and R1C3 are not side by side"),
        ("whispers=0:R1C1,R1C2", "whispers: a gap of 0"),
        (
            "littlekiller=5:R1C2,R2C3,R3C3",
            "little killer: R2C3 then R3C3 is not a step along one diagonal",
        ),
        (
            "littlekiller=5:R1C2,R2C3,R1C4",
            "little killer: R2C3 then R1C4 is not a step along one diagonal",
        ),
        ("thermo=R1C1,R1C2,R1C1", "thermometer: R1C1 is listed twice"),
        ("whispers=R2C1,R2C1", "whispers: R2C1 follows itself"),
    ];
    for (word, want) in refused {
        let line = format!("................ boxes=2x2 {word}");
        let err = crate::sudoku::rule_line::read(&line)
            .unwrap_err()
            .to_string();
        assert!(err.contains(want), "{word}: {err}");
    }
    for word in [
        "white=R1C1,R1C2",
        "black=R2C1,R1C1",
        "xv=V:R4C4,R3C4",
        "whispers=1:R1C1,R1C2",
        "littlekiller=5:R1C2,R2C3,R3C4",
        "littlekiller=3:R2C1,R1C2",
    ] {
        let line = format!("................ boxes=2x2 {word}");
        assert!(crate::sudoku::rule_line::read(&line).is_ok(), "{word}");
    }
}

#[test]
fn arrows_read_whole_houses_in_their_shafts_by_the_45_rule() {
    // 4×4, boxes 2×2, a cell k = 4·row + column (from 0).
    let rules = Rules::boxes(2, 2).unwrap();
    let e = Encoder::new(&rules);
    // Rows first, then columns and boxes disjoint from them.
    let row1: Vec<usize> = (4..8).collect();
    let col0 = [0, 8, 12];
    let box3 = [10, 11, 14, 15];
    let cells: Vec<usize> = [&row1[..], &col0, &box3, &[9]].concat();
    // Rows 1 and 2 (8 to 11) are whole; then column 0 is not, nor box 3.
    assert_eq!(e.whole_houses(&cells), (vec![0, 12, 14, 15], 20));
    let cells: Vec<usize> = [&col0[..], &[4], &box3].concat();
    assert_eq!(e.whole_houses(&cells), (vec![], 20));
    assert_eq!(e.whole_houses(&[0, 1, 4]), (vec![0, 1, 4], 0));
    // Shafts holding whole rows, a column, a box, with one-cell and
    // two-cell circles: the same grids as brute force, and an automaton
    // over the cells left.
    let shafts: [(&[usize], &[usize]); 4] = [
        (&[0, 1], &[4, 5, 6, 7, 8, 9, 10, 11, 12]),
        (&[0], &[10, 11, 14, 15]),
        (&[4, 5], &[3, 7, 11, 15, 10, 14]),
        (&[0, 1], &[8, 9, 10, 11, 12, 13, 14, 15, 7]),
    ];
    for (circle, shaft) in shafts {
        let arrow = Arrow {
            circle: circle.to_vec(),
            shaft: shaft.to_vec(),
        };
        let one = rules.clone().with(arrow).unwrap();
        let matrix = one.matrix().unwrap();
        // 64 cell options and the automaton's: 470 for the first shaft
        // read cell by cell, 10 with rows 1 and 2 read as 20.
        assert!(
            matrix.matrix().unwrap().option_count() < 64 + 16,
            "{circle:?}:{shaft:?}"
        );
        let want = brute_force(&one, &[0; 16], usize::MAX);
        let (count, grid) = matrix.count(&[0; 16], u64::MAX);
        assert_eq!(count.solutions, want.len() as u64, "{circle:?}:{shaft:?}");
        assert!(
            count.solutions > 0 || circle.len() == 1,
            "{circle:?}:{shaft:?}"
        );
        if let Some(grid) = grid {
            check(&one, &[0; 16], &grid).unwrap();
        }
    }
}

#[test]
fn little_killers_given_by_clue_and_direction_read_their_diagonal() {
    // 4×4: a clue outside the grid (rows and columns 0 and 5) pointing
    // along a diagonal, as other tools write it, without "cells".
    let doc = |entry: &str| {
        let row = format!("[{}]", ["{}"; 4].join(","));
        let grid = vec![row; 4].join(",");
        let json = format!(r#"{{"size":4,"grid":[{grid}],"littlekillersum":[{entry}]}}"#);
        crate::sudoku::fpuzzles::read(&json)
    };
    let cells_of = |entry: &str| {
        let doc = doc(entry).unwrap();
        let c = &doc.rules.constraints()[0];
        c.as_any().downcast_ref::<LittleKiller>().unwrap().clone()
    };
    let cases: [(&str, &[usize]); 5] = [
        (
            r#"{"cell":"R0C1","direction":"DR","value":"10"}"#,
            &[1, 6, 11],
        ),
        (
            r#"{"cell":"R0C5","direction":"DL","value":"10"}"#,
            &[3, 6, 9, 12],
        ),
        (r#"{"cell":"R5C2","direction":"UR","value":"3"}"#, &[14, 11]),
        (r#"{"cell":"R2C5","direction":"ul","value":"3"}"#, &[3]),
        (
            r#"{"cell":"R0C0","direction":"DR","value":"10"}"#,
            &[0, 5, 10, 15],
        ),
    ];
    for (entry, cells) in cases {
        let lk = cells_of(entry);
        assert_eq!(lk.cells, cells, "{entry}");
        // Written back with its cells, it reads the same.
        let rules = Rules::boxes(2, 2).unwrap().with(lk.clone()).unwrap();
        let json = crate::sudoku::fpuzzles::write_rules(&rules, &[0; 16], None);
        let back = crate::sudoku::fpuzzles::read(&json).unwrap();
        assert_eq!(back.rules, rules, "{json}");
    }
    // Given "cells", those are the clue's (f-puzzles' own entries).
    let lk = cells_of(r#"{"cell":"R0C1","direction":"DR","cells":["R1C2","R2C3"],"value":"3"}"#);
    assert_eq!(lk.cells, [1, 6]);
    // A clue that cannot mean a diagonal is refused by name.
    for (entry, want) in [
        (
            r#"{"cell":"R0C1","direction":"UL","value":"3"}"#,
            "R0C1 pointing UL meets no cell",
        ),
        (
            r#"{"cell":"R2C2","direction":"DR","value":"3"}"#,
            "R2C2 is inside the grid",
        ),
        (
            r#"{"cell":"R0C1","direction":"D","value":"3"}"#,
            "`D` is not a direction",
        ),
        (
            r#"{"cell":"R9C1","direction":"UR","value":"3"}"#,
            "`R9C1` is not a clue cell",
        ),
        (r#"{"value":"3"}"#, "neither \"cells\" nor a clue"),
    ] {
        let err = doc(entry).unwrap_err().to_string();
        assert!(err.contains(want), "{entry}: {err}");
    }
    // A clue without a value constrains nothing.
    assert!(doc(r#"{"cell":"R0C1","direction":"UL"}"#)
        .unwrap()
        .rules
        .constraints()
        .is_empty());
}

#[test]
fn region_sum_lines_group_by_region_or_by_run() {
    // 4×4, boxes of 2×2: cells 0, 1 and 5 in the first box, 2 in the
    // second; the line leaves the first box and comes back.
    let region = |k: usize| (k / 4 / 2) * 2 + (k % 4) / 2;
    let line = [0, 1, 2, 5];
    assert_eq!(
        RegionSum::along(&line, region).groups,
        vec![vec![0, 1, 5], vec![2]]
    );
    assert_eq!(
        RegionSum::in_runs(&line, region).groups,
        vec![vec![0, 1], vec![2], vec![5]]
    );
    // A loop: its run across the closing point (5 back to 1) is one.
    assert_eq!(
        RegionSum::around(&[1, 2, 6, 5], region).groups,
        vec![vec![2, 6], vec![5, 1]]
    );
    // A zipper's groups: the middle alone, then the pairs outward.
    let zipper = Zipper {
        cells: vec![0, 1, 2, 3, 7],
    };
    let rules = Rules::boxes(2, 2).unwrap().with(zipper).unwrap();
    let ok = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
    // 0,1,2,3,7 hold 1,2,3,4,2: the middle 3, then 2+4 = 6 ≠ 3.
    assert!(crate::sudoku::rules::check(&rules, &[0; 16], &ok).is_err());
}

#[test]
fn crossing_products_count_the_same_with_the_chain_runs() {
    // Three groups of equal products that cross (SudokuPad's "Cross
    // Product"): one automaton reads R4C2, R5C3, R1C5 and R2C6 twice, and
    // the chain runs narrow each reading apart. Searched over the lean
    // matrix, the runs enforcing the products, and over the whole one by
    // Knuth's rule: one solution both ways.
    let line = ".................................... boxes=2x3 \
        products=R1C5,R2C6:R3C1,R4C2,R5C3,R6C4:R5C1,R4C2,R3C3,R2C4,R1C5:R6C2,R5C3,R4C4,R3C5,R2C6";
    let (rules, givens) = crate::sudoku::rule_line::read(line).unwrap();
    let matrix = rules.matrix().unwrap();
    assert!(matrix.has_lean());
    let (count, grid) = matrix.count(&givens, u64::MAX);
    assert_eq!(count.solutions, 1);
    check(&rules, &givens, &grid.unwrap()).unwrap();
    let config = Config::new().engine(EngineKind::Links);
    let mut links = DlxSudoku::for_rules(&matrix, config).unwrap();
    assert!(!links.propagates());
    let answer = links.solve_cells(&givens, &Limits::count_to(u64::MAX), &mut Vec::new());
    assert_eq!(answer.solutions, 1);
}
