//! The exact-cover core on classic problems, through every engine (dancing
//! links, dense, bits and masks where they apply; one thread and two), and the same instances through the `dlx` crate 0.8.5
//! (which walks DLX1's search tree) for comparison.
//! Throughput is in updates for the counts (so it reads as updates/s) and in
//! solutions for the Sudoku enumeration. The crate's iterations include
//! building its problem (its solver consumes it); ours reuse one matrix.
//!
//! `cargo bench --bench exact_cover`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dlx::engines::{
    count_parallel, BitsMatrix, BitsSolver, DenseMatrix, DenseSolver, Engine, LinksSolver,
    MasksMatrix, MasksSolver,
};
use dlx::problems::{langford, polyomino, queens};
use dlx::sudoku::{format, SudokuMatrix};
use dlx::{Branching, Matrix, OptionId};
use std::time::Duration;

fn instances() -> Vec<(&'static str, Matrix)> {
    vec![
        ("queens-12", queens(12).unwrap()),
        ("langford-11", langford(11).unwrap()),
        (
            "pentominoes-3x20",
            polyomino::packing(&polyomino::PENTOMINOES, 3, 20).unwrap(),
        ),
    ]
}

/// A 9×9 Sudoku with many solutions (only the first row given): the bench
/// enumerates its first 20,000.
fn many() -> String {
    format!("123456789{}", ".".repeat(72))
}

fn ours(c: &mut Criterion) {
    let mut g = c.benchmark_group("dlx");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, m) in instances() {
        // Both engines make the same updates (the tests check it).
        let mut links = LinksSolver::new(&m);
        links.count();
        g.throughput(Throughput::Elements(links.stats().updates));
        g.bench_function(BenchmarkId::new("count", name), |b| {
            b.iter(|| {
                links.reset();
                links.count().solutions
            })
        });
        let d = DenseMatrix::new(&m).unwrap();
        let mut dense = DenseSolver::new(&d);
        g.bench_function(BenchmarkId::new("dense-count", name), |b| {
            b.iter(|| {
                dense.reset();
                dense.count().solutions
            })
        });
        // The bits engine where it applies (queens, Langford pairs: not the
        // 72 primary items of pentominoes).
        let bits_tables = BitsMatrix::new(&m).ok();
        if let Some(t) = &bits_tables {
            let mut bits = BitsSolver::new(t);
            g.bench_function(BenchmarkId::new("bits-count", name), |b| {
                b.iter(|| {
                    bits.reset();
                    bits.count().solutions
                })
            });
        }
        // The masks engine where it applies (queens, Langford pairs), with
        // first-forced: its own tree, so the throughput reads in links
        // updates of the same count.
        if let Ok(t) = MasksMatrix::new(&m) {
            let mut masks = MasksSolver::new(&t);
            masks.set_branching(Branching::FirstForced).unwrap();
            g.bench_function(BenchmarkId::new("masks-count", name), |b| {
                b.iter(|| {
                    masks.reset();
                    masks.count().solutions
                })
            });
        }
        // Two threads, each engine, same updates (each iteration makes its
        // solvers and cuts the tree anew).
        g.bench_function(BenchmarkId::new("count-2-threads", name), |b| {
            b.iter(|| {
                count_parallel(&m, Engine::Links, Branching::Knuth, 2)
                    .unwrap()
                    .solutions
            })
        });
        g.bench_function(BenchmarkId::new("dense-count-2-threads", name), |b| {
            b.iter(|| {
                count_parallel(&m, Engine::Dense(&d), Branching::Knuth, 2)
                    .unwrap()
                    .solutions
            })
        });
        if let Some(t) = &bits_tables {
            g.bench_function(BenchmarkId::new("bits-count-2-threads", name), |b| {
                b.iter(|| {
                    count_parallel(&m, Engine::Bits(t), Branching::Knuth, 2)
                        .unwrap()
                        .solutions
                })
            });
        }
    }
    let cover = SudokuMatrix::new(3).unwrap();
    let puzzle = format::parse_line(&many()).unwrap();
    let mut solver = LinksSolver::new(cover.matrix());
    g.throughput(Throughput::Elements(20_000)); // solutions enumerated
    g.bench_function(BenchmarkId::new("enumerate", "sudoku-many"), |b| {
        b.iter(|| {
            solver.reset();
            for (k, &d) in puzzle.cells().iter().enumerate() {
                if d != 0 {
                    solver.preselect(cover.option(k / 9, k % 9, d)).unwrap();
                }
            }
            solver.solutions().take(20_000).count()
        })
    });
    // The same with the masks engine, the one `dlx sudoku` runs.
    let masks_tables = MasksMatrix::new(cover.matrix()).unwrap();
    let mut masks = MasksSolver::new(&masks_tables);
    masks.set_branching(Branching::FirstForced).unwrap();
    g.bench_function(BenchmarkId::new("masks-enumerate", "sudoku-many"), |b| {
        b.iter(|| {
            masks.reset();
            for (k, &d) in puzzle.cells().iter().enumerate() {
                if d != 0 {
                    masks.preselect(cover.option(k / 9, k % 9, d)).unwrap();
                }
            }
            masks.solutions().take(20_000).count()
        })
    });
    g.finish();
}

fn theirs(c: &mut Criterion) {
    use dlx085::choose::{mrv_chooser, no_tiebreak, prefer_any};
    use dlx085::x::{INodes, ONodes, Problem};
    use dlx085::{OptOrder, Solver as Their, Uint};
    let mut g = c.benchmark_group("dlx-crate-0.8.5");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, m) in instances() {
        let options: Vec<Vec<Uint>> = (0..m.option_count())
            .map(|k| {
                m.option_items(OptionId::must(k))
                    .map(|(i, _)| i.as_usize() as Uint)
                    .collect()
            })
            .collect();
        let n = m.item_count() as Uint;
        let np = m.primary_count() as Uint;
        g.bench_function(BenchmarkId::new("count", name), |b| {
            b.iter(|| {
                let items = INodes::new(np, n - np);
                let opts = ONodes::new(n, np, &options, OptOrder::Seq);
                let mut problem = Problem::new(items, opts);
                let mut solver = Their::new(&mut problem);
                let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
                let mut count = 0u64;
                while solver.next_solution(&mut chooser) {
                    count += 1;
                }
                count
            })
        });
    }
    g.finish();
}

criterion_group!(benches, ours, theirs);
criterion_main!(benches);
