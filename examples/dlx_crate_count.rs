//! The `dlx` crate of crates.io (0.8.5, a dev-dependency) counting the
//! solutions of a file in Knuth's format, as a whole process: the other
//! side of the exact-cover table's `dlx crate` column (`benches/refresh.py`).
//! The file is read by our reader and handed over as item lists; the crate
//! then builds its own nodes and walks DLX1's tree (minimum remaining
//! values, no tie-break). Matrices with colors or multiplicities are
//! refused: the crate has neither.
//!
//! `cargo run --release --example dlx_crate_count -- FILE`

use dlx::{knuth, OptionId};
use dlx085::choose::{mrv_chooser, no_tiebreak, prefer_any};
use dlx085::x::{INodes, ONodes, Problem};
use dlx085::{OptOrder, Solver, Uint};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: dlx_crate_count FILE");
        std::process::exit(2);
    };
    let read = std::fs::File::open(&path)
        .map_err(|e| e.to_string())
        .and_then(|f| knuth::read(std::io::BufReader::new(f)).map_err(|e| e.to_string()));
    let m = match read {
        Ok(m) => m,
        Err(e) => {
            eprintln!("dlx_crate_count: {path}: {e}");
            std::process::exit(2);
        }
    };
    if m.has_bounds() {
        eprintln!("dlx_crate_count: {path}: multiplicities are not the crate's");
        std::process::exit(2);
    }
    let mut options: Vec<Vec<Uint>> = Vec::with_capacity(m.option_count());
    for k in 0..m.option_count() {
        let mut items = Vec::new();
        for (i, color) in m.option_items(OptionId::must(k)) {
            if color.is_some() {
                eprintln!("dlx_crate_count: {path}: colors are not the crate's");
                std::process::exit(2);
            }
            items.push(i.as_usize() as Uint);
        }
        options.push(items);
    }
    let n = m.item_count() as Uint;
    let np = m.primary_count() as Uint;
    let items = INodes::new(np, n - np);
    let opts = ONodes::new(n, np, &options, OptOrder::Seq);
    let mut problem = Problem::new(items, opts);
    let mut solver = Solver::new(&mut problem);
    let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
    let mut count = 0u64;
    while solver.next_solution(&mut chooser) {
        count += 1;
    }
    println!("{count}");
}
