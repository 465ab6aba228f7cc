//! Every Sudoku solver on the same puzzles, as puzzles per second
//! (uniqueness checked: count to 2). Uses the sets in `puzzles/` (the judges'
//! samples and the project's generated 9×9, 16×16 and 25×25 puzzles) and,
//! when present, the public 9×9 and 16×16 collections in `../shared/puzzles`.
//! (Gecode's minimal 25×25 puzzles are left out: no solver here finishes
//! them; see README.md.)
//!
//! `cargo bench --bench sudoku`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dlx::sudoku::format::{ReadOptions, Reader};
use dlx::sudoku::{Grid, Limits, Settings, SolverKind, Sudoku};
use std::path::Path;
use std::time::Duration;

fn load(path: &Path, at_most: usize) -> Vec<Grid> {
    let Ok(file) = std::fs::File::open(path) else {
        return Vec::new();
    };
    Reader::new(std::io::BufReader::new(file), ReadOptions::default())
        .filter_map(|r| r.grid.ok())
        .take(at_most)
        .collect()
}

fn sets() -> Vec<(String, Vec<Grid>, bool)> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = Vec::new();
    let mut samples = Vec::new();
    for f in [
        "poj2676_sample.in",
        "poj3074_sample.in",
        "hdu1426_sample.in",
        "leetcode37_sample.in",
    ] {
        samples.extend(load(&here.join("puzzles").join(f), usize::MAX));
    }
    v.push(("judge-samples-9x9".to_string(), samples, true));
    for (f, plain) in [
        ("generated_9x9_seed1.txt", true),
        ("generated_16x16_seed1.poj3076.txt", false),
        ("generated_25x25_seed1.txt", false),
    ] {
        let grids = load(&here.join("puzzles").join(f), usize::MAX);
        v.push((f.trim_end_matches(".txt").to_string(), grids, plain));
    }
    let shared = here.join("../shared/puzzles");
    // (file, puzzles taken, run the plain backtracker too)
    for (f, n, plain) in [
        ("puzzles2_17_clue.txt", 2000, false),
        ("puzzles3_magictour_top1465.txt", 1465, false),
        ("puzzles5_forum_hardest_1905_11+.txt", 200, true),
        ("gecode_16x16_janko55.txt", 55, false),
    ] {
        let grids = load(&shared.join(f), n);
        if !grids.is_empty() {
            v.push((f.trim_end_matches(".txt").to_string(), grids, plain));
        }
    }
    v
}

fn bench(c: &mut Criterion) {
    for (name, grids, plain) in sets() {
        let mut g = c.benchmark_group(name.as_str());
        g.sample_size(10).measurement_time(Duration::from_secs(3));
        g.throughput(Throughput::Elements(grids.len() as u64));
        let big = grids.first().is_some_and(|p| p.side() > 16);
        for kind in SolverKind::ALL {
            if (big && kind != SolverKind::Dlx) || (kind == SolverKind::Backtrack && !plain) {
                continue; // the plain backtracker takes minutes on these
            }
            let mut sudoku = Sudoku::new(Settings::default().solver(kind));
            let mut solution = Grid::empty(3).unwrap();
            g.bench_function(BenchmarkId::new(kind.name(), grids.len()), |b| {
                b.iter(|| {
                    let mut unique = 0;
                    for p in &grids {
                        let answer = sudoku.solve_grid(p, &Limits::count_to(2), &mut solution);
                        unique += answer.is_ok_and(|a| a.solutions == 1) as usize;
                    }
                    unique
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
