//! `dlx gen`: classic problems in Knuth's format, to pipe into `dlx cover`
//! (or into Knuth's own DLX1, for comparison).

use clap::{Args, ValueEnum};

use super::exit;
use super::output::Output;
use dlx::problems::tiling::{family, parse_pieces, Board, Tiling, Uses};
use dlx::problems::{dominoes, langford, polyomino, queens, two_queens};

#[derive(Args, Debug)]
pub(crate) struct GenArgs {
    /// Which problem.
    problem: Problem,
    /// Its size: n for queens, two-queens and langford; ROWSxCOLS for
    /// pentominoes and dominoes; for tiling, the board: ROWSxCOLS or a
    /// file with its picture (`#` a cell, `.` a hole).
    size: String,
    /// The seed of the dominoes' costs (1 to 9 each; default 1). Dominoes
    /// only.
    #[arg(long)]
    seed: Option<u64>,
    /// Each piece may be used from 0 to N times (`0:N|` on the pieces,
    /// DLX3's multiplicities), every cell still exactly once. Pentominoes
    /// only.
    #[arg(long, value_name = "N")]
    up_to: Option<u32>,
    /// Tiling's pieces: a family by name (monominoes, dominoes, trominoes,
    /// tetrominoes, pentominoes, hexominoes, heptominoes) or size (1 to 7),
    /// or a file of pictures (blank lines between them, `= NAME` before
    /// one to name it). Default: pentominoes.
    #[arg(long, value_name = "FAMILY|FILE")]
    pieces: Option<String>,
    /// Tiling: pieces are rotated but not turned over (the one-sided
    /// family: 7 tetrominoes, 18 pentominoes).
    #[arg(long)]
    one_sided: bool,
    /// Tiling: each piece `once` (the default), `any` number of times, or
    /// between `U:V` times (DLX3's multiplicities on the piece items).
    #[arg(long, value_name = "once|any|U:V")]
    each: Option<String>,
    /// Tiling: count each tiling once, its copies by the board's rotations
    /// and reflections folded away (one piece used once, with no symmetry
    /// of the board's, is kept to one placement per orbit).
    #[arg(long)]
    distinct: bool,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Problem {
    /// N queens (rows, columns primary; diagonals secondary).
    Queens,
    /// Two queens in every row and column of an NxN board, at most two on
    /// any diagonal: `2|` rows and columns, `0:2|` diagonals (DLX3's
    /// multiplicities).
    TwoQueens,
    /// Langford pairs of order n.
    Langford,
    /// The 12 pentominoes packed into a ROWSxCOLS box.
    Pentominoes,
    /// Domino tilings of a ROWSxCOLS board, each domino with a cost (DLX5):
    /// `dlx cover --best 1` is a minimum-weight perfect matching.
    Dominoes,
    /// Polyomino tilings of any board (ROWSxCOLS or a picture file) by a
    /// family or a file of pieces: --pieces, --one-sided, --each,
    /// --distinct.
    Tiling,
}

pub(crate) fn run(args: GenArgs) -> u8 {
    if args.seed.is_some() && !matches!(args.problem, Problem::Dominoes) {
        return usage("--seed is for dominoes' costs; this problem has none");
    }
    if args.up_to.is_some() && !matches!(args.problem, Problem::Pentominoes) {
        return usage("--up-to is for pentominoes' pieces; this problem has none");
    }
    if !matches!(args.problem, Problem::Tiling)
        && (args.pieces.is_some() || args.one_sided || args.each.is_some() || args.distinct)
    {
        return usage("--pieces, --one-sided, --each and --distinct are for tiling");
    }
    let matrix = match args.problem {
        Problem::Tiling => {
            return match tiling(&args) {
                Ok(m) => write(&m),
                Err(e) => usage(&e),
            }
        }
        Problem::Queens | Problem::TwoQueens | Problem::Langford => {
            match args.size.parse::<usize>() {
                Ok(n) if n <= 1000 => match args.problem {
                    Problem::Queens => queens(n),
                    Problem::TwoQueens => two_queens(n),
                    _ => langford(n),
                },
                _ => {
                    return usage(&format!(
                        "size `{}` is not a number from 0 to 1000",
                        args.size
                    ))
                }
            }
        }
        Problem::Pentominoes | Problem::Dominoes => {
            let dims = args
                .size
                .split_once(['x', 'X'])
                .and_then(|(r, c)| Some((r.parse::<i32>().ok()?, c.parse::<i32>().ok()?)));
            match dims {
                Some((r, c)) if (1..=100).contains(&r) && (1..=100).contains(&c) => {
                    if matches!(args.problem, Problem::Dominoes) {
                        dominoes(r as usize, c as usize, args.seed.unwrap_or(1))
                    } else if let Some(most) = args.up_to {
                        polyomino::packing_up_to(&polyomino::PENTOMINOES, r, c, most)
                    } else {
                        polyomino::packing(&polyomino::PENTOMINOES, r, c)
                    }
                }
                _ => {
                    return usage(&format!(
                        "size `{}` is not ROWSxCOLS (1 to 100 each)",
                        args.size
                    ))
                }
            }
        }
    };
    match matrix {
        Ok(m) => write(&m),
        Err(e) => usage(&e.to_string()),
    }
}

/// `dlx gen tiling`: the board, the pieces and their uses read, the
/// library's matrix made.
fn tiling(args: &GenArgs) -> Result<dlx::Matrix, String> {
    let read = |path: &str| std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"));
    let dims = args
        .size
        .split_once(['x', 'X'])
        .and_then(|(r, c)| Some((r.parse::<i32>().ok()?, c.parse::<i32>().ok()?)));
    let board = match dims {
        Some((r, c)) if (1..=100).contains(&r) && (1..=100).contains(&c) => Board::rectangle(r, c),
        _ => Board::parse(&read(&args.size)?).map_err(|e| format!("{}: {e}", args.size))?,
    };
    let name = args.pieces.as_deref().unwrap_or("pentominoes");
    let sizes = [
        "monominoes",
        "dominoes",
        "trominoes",
        "tetrominoes",
        "pentominoes",
        "hexominoes",
        "heptominoes",
    ];
    let size = sizes
        .iter()
        .position(|&s| s == name)
        .map(|k| k + 1)
        .or_else(|| name.parse::<usize>().ok());
    let pieces = match size {
        Some(n) => family(n, args.one_sided).map_err(|e| e.to_string())?,
        None => parse_pieces(&read(name)?).map_err(|e| format!("{name}: {e}"))?,
    };
    let uses = match args.each.as_deref() {
        None | Some("once") => Uses::Once,
        Some("any") => Uses::Any,
        Some(b) => match b
            .split_once(':')
            .and_then(|(u, v)| Some((u.parse().ok()?, v.parse().ok()?)))
        {
            Some((u, v)) if u <= v && v >= 1 => Uses::Between(u, v),
            _ => {
                return Err(format!(
                    "--each `{b}`: once, any, or U:V with U <= V and V >= 1"
                ))
            }
        },
    };
    Tiling::new(board, pieces)
        .one_sided(args.one_sided)
        .uses(uses)
        .distinct(args.distinct)
        .matrix()
        .map_err(|e| e.to_string())
}

/// Writes `matrix` in Knuth's format on stdout.
fn write(matrix: &dlx::Matrix) -> u8 {
    let mut out = Output::stdout();
    // A write error is kept by `out`, and reported by `finish`.
    let _ = dlx::knuth::write(matrix, &mut out);
    out.finish("dlx gen", exit::FOUND)
}

fn usage(msg: &str) -> u8 {
    eprintln!("dlx gen: {msg}");
    exit::BAD_INPUT
}
