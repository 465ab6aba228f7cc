//! `dlx sudoku generate`: classic puzzles of box side 2 to 8, and variants
//! (`--variant jigsaw,x,windoku,antiking,antiknight,nonconsecutive,killer`,
//! any together, on any grid f-puzzles makes with `--size`), every puzzle
//! unique, the same from the same seed; `--symmetry` keeps the givens
//! symmetric.
//!
//! Classic grids of square boxes go through the classic generator (its
//! seeds give the puzzles they always gave); variants, and sizes whose
//! boxes are not square (6×6, 8×8, 12×12), through
//! `dlx::sudoku::generate::variant`, written as variant text (the grid
//! line and its rule words: `line` and `variant` are the same there) or
//! f-puzzles JSON.

use clap::Args;

use super::super::exit;
use super::super::output::Output;
use super::FormatArg;
use dlx::sudoku::format;
use dlx::sudoku::fpuzzles::{self, default_box_rows};
use dlx::sudoku::generate::variant::{Variant, VariantGenerator};
use dlx::sudoku::generate::{Generator, Symmetry};
use dlx::sudoku::{rule_line, sudokupad, Alphabet};

#[derive(Args, Debug)]
pub(crate) struct GenerateArgs {
    /// Box side: 2 (4×4), 3 (9×9), 4 (16×16), 5 (25×25), up to 8.
    #[arg(long, default_value_t = 3, conflicts_with = "size")]
    box_side: usize,
    /// The grid's side, 4 to 16, with f-puzzles' boxes (6×6: 2×3, 8×8:
    /// 2×4, 12×12: 3×4); instead of --box-side.
    #[arg(long, value_parser = clap::value_parser!(u64).range(4..=16))]
    size: Option<u64>,
    /// Variant rules, any together, comma-separated: jigsaw (random
    /// regions), x, windoku, antiking, antiknight, nonconsecutive (or
    /// anti-king, anti-knight, non-consecutive),
    /// killer (cages over the whole grid, drawn from the solution).
    #[arg(long, value_delimiter = ',', value_parser = parse_variant)]
    variant: Vec<Variant>,
    /// Symmetry of the givens: none, rot180, rot90, mirror (left-right),
    /// diagonal (the main diagonal).
    #[arg(long, default_value = "none", value_parser = parse_symmetry)]
    symmetry: Symmetry,
    /// How many puzzles.
    #[arg(long, default_value_t = 10)]
    count: usize,
    /// The random seed: the same seed gives the same puzzles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search nodes allowed for one uniqueness check while removing clues
    /// (1 or more).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    node_budget: u64,
    /// Output format (default: line; variants are written as variant text
    /// or fpuzzles only).
    #[arg(long, value_enum)]
    output_format: Option<FormatArg>,
    /// Only puzzles whose Sudoku Explainer rating (ER, as `dlx sudoku
    /// rate` gives it) lies in MIN..MAX (e.g. 1.0..2.0, 7..8; classic grids
    /// of square boxes): puzzles outside it are made and dropped, at most
    /// 1,000 in a row before it gives up (exit 1).
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_rating)]
    rating: Option<(f32, f32)>,
}

fn parse_rating(s: &str) -> Result<(f32, f32), String> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| "a range MIN..MAX, as 4.0..6.5".to_string())?;
    let num = |t: &str| {
        t.trim()
            .parse::<f32>()
            .ok()
            .filter(|r| r.is_finite() && *r >= 0.0)
            .ok_or_else(|| format!("{t:?} is not a rating (a number like 4.2)"))
    };
    let (a, b) = (num(a)?, num(b)?);
    if a > b {
        return Err(format!("{a}..{b}: the low end is above the high one"));
    }
    Ok((a, b))
}

/// A variant by its name (`Variant::name`, or its hyphenated alias).
fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::from_name(s).ok_or_else(|| {
        format!(
            "one of {} (anti-king, anti-knight and non-consecutive too)",
            Variant::ALL.map(Variant::name).join(", ")
        )
    })
}

/// A symmetry by its name (`Symmetry::name`).
fn parse_symmetry(s: &str) -> Result<Symmetry, String> {
    Symmetry::ALL
        .into_iter()
        .find(|v| v.name() == s)
        .ok_or_else(|| format!("one of {}", Symmetry::ALL.map(Symmetry::name).join(", ")))
}

pub(crate) fn run(args: GenerateArgs) -> u8 {
    let (rows, cols) = match args.size {
        Some(n) => {
            let n = n as usize;
            (default_box_rows(n), n / default_box_rows(n))
        }
        None => (args.box_side, args.box_side),
    };
    if args.variant.is_empty() && rows == cols {
        return classic(&args, rows);
    }
    if args.rating.is_some() {
        eprintln!("dlx sudoku generate: --rating takes classic grids of square boxes (no --variant, no --size)");
        return exit::BAD_INPUT;
    }
    let format = args.output_format.unwrap_or(FormatArg::Variant);
    if !matches!(
        format,
        FormatArg::Line | FormatArg::Variant | FormatArg::Fpuzzles | FormatArg::Sudokupad
    ) {
        eprintln!(
            "dlx sudoku generate: variants and grids of {rows}×{cols} boxes are written as \
             variant text (line), fpuzzles or sudokupad"
        );
        return exit::BAD_INPUT;
    }
    let mut g = match VariantGenerator::new(rows, cols, &args.variant, args.seed) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("dlx sudoku generate: {e}");
            return exit::BAD_INPUT;
        }
    };
    g.node_budget = args.node_budget;
    g.symmetry = args.symmetry;
    let mut out = Output::stdout();
    for _ in 0..args.count {
        let p = match g.puzzle() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("dlx sudoku generate: {e}");
                return out.finish("dlx sudoku generate", exit::NONE);
            }
        };
        let line = match format {
            FormatArg::Fpuzzles => fpuzzles::write_rules(&p.rules, &p.givens, None),
            FormatArg::Sudokupad => {
                sudokupad::link(&fpuzzles::write_rules(&p.rules, &p.givens, None), None)
            }
            _ => rule_line::write(&p.rules, &p.givens),
        };
        if !out.println(&line) {
            break;
        }
    }
    out.finish("dlx sudoku generate", exit::FOUND)
}

/// Classic puzzles of box side `b`, by the classic generator.
/// Puzzles made and dropped in a row before `--rating` gives up.
const RATED_TRIES: usize = 1_000;

fn classic(args: &GenerateArgs, b: usize) -> u8 {
    let Some(cover) = dlx::sudoku::SudokuMatrix::new(b) else {
        eprintln!("dlx sudoku generate: box side {b} is not from 2 to 8");
        return exit::BAD_INPUT;
    };
    if b >= 6 && args.count > 0 {
        // Measured on a 2-core VM (2026-11-23): 36×36 took 47 s for one
        // puzzle; 49×49 did not finish one in 120 s.
        eprintln!(
            "dlx sudoku generate: {n}×{n} puzzles are slow to make: {} each on a current core \
             (every cell emptied is a uniqueness check over the whole grid)",
            if b == 6 {
                "about a minute"
            } else {
                "many minutes"
            },
            n = b * b
        );
    }
    let mut g = Generator::new(&cover, args.seed);
    g.node_budget = args.node_budget;
    g.symmetry = args.symmetry;
    let alphabet = Alphabet::default_for(b * b);
    let mut out = Output::stdout();
    let mut buf = String::new();
    for k in 0..args.count {
        buf.clear();
        let puzzle = match args.rating {
            None => g.puzzle(),
            Some((low, high)) => match g.puzzle_rated(low..=high, RATED_TRIES) {
                Some((puzzle, _)) => puzzle,
                None => {
                    eprintln!(
                        "dlx sudoku generate: {RATED_TRIES} puzzles in a row rated outside {low}..{high}; \
                         {k} found (the generator makes mostly easy puzzles)"
                    );
                    return out.finish("dlx sudoku generate", exit::NONE);
                }
            },
        };
        match args.output_format.unwrap_or(FormatArg::Line).classic() {
            Some(f) => format::write_answer(
                &mut buf,
                f,
                k == 0,
                k + 1,
                format::Answer::Grid(&puzzle, alphabet),
            ),
            None => {
                let json = fpuzzles::write(puzzle.side(), puzzle.cells(), None);
                if args.output_format == Some(FormatArg::Sudokupad) {
                    buf.push_str(&sudokupad::link(&json, None));
                } else {
                    buf.push_str(&json);
                }
                buf.push('\n');
            }
        }
        if !out.print(&buf) {
            break;
        }
    }
    out.finish("dlx sudoku generate", exit::FOUND)
}
