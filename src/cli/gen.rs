//! `dlx gen`: classic problems in Knuth's format, to pipe into `dlx cover`
//! (or into Knuth's own DLX1, for comparison).

use clap::{Args, ValueEnum};

use super::exit;
use super::output::Output;
use dlx::problems::{dominoes, langford, polyomino, queens, two_queens};

#[derive(Args, Debug)]
pub(crate) struct GenArgs {
    /// Which problem.
    problem: Problem,
    /// Its size: n for queens, two-queens and langford; ROWSxCOLS for
    /// pentominoes and dominoes.
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
}

pub(crate) fn run(args: GenArgs) -> u8 {
    if args.seed.is_some() && !matches!(args.problem, Problem::Dominoes) {
        return usage("--seed is for dominoes' costs; this problem has none");
    }
    if args.up_to.is_some() && !matches!(args.problem, Problem::Pentominoes) {
        return usage("--up-to is for pentominoes' pieces; this problem has none");
    }
    let matrix = match args.problem {
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
    let matrix = match matrix {
        Ok(m) => m,
        Err(e) => return usage(&e.to_string()),
    };
    let mut out = Output::stdout();
    // A write error is kept by `out`, and reported by `finish`.
    let _ = dlx::knuth::write(&matrix, &mut out);
    out.finish("dlx gen", exit::FOUND)
}

fn usage(msg: &str) -> u8 {
    eprintln!("dlx gen: {msg}");
    exit::BAD_INPUT
}
