//! dlx in the browser: the Sudoku layer behind the page in `web/`, compiled
//! to WebAssembly with `wasm-bindgen` and run in a Web Worker.
//!
//! Two calls, JSON out, so the page's JavaScript stays a thin front end
//! (it parses nothing itself and decides nothing about the search):
//!
//! * [`describe`]: any input the library reads (an f-puzzles link, its
//!   `load=` string or JSON, the variant text form, a classic grid line or
//!   a grid pasted row by row) as the puzzle's f-puzzles JSON, which the
//!   page draws, with its variant text and its f-puzzles link;
//! * [`run`]: an action on it (`solve`, `check`, `count`, `candidates`,
//!   `random`, `hint`, `rate`) with the library's solver or logic engine:
//!   the answer as the page's test contract writes it (`result`, as the
//!   command line prints it), the grid or candidates to draw, the search's
//!   nodes and guesses, the next step's cells, and the f-puzzles link of
//!   the solution.
//!
//! The wasm32 target has no clock and no threads: every search runs on the
//! worker's one thread without a deadline, and the page's Stop button
//! ends the worker (the page then starts a new one). The same functions
//! build on the host, where the unit tests below run them.

use dlx::sudoku::explain::{self, Until};
use dlx::sudoku::{
    candidates, fpuzzles, random_solution, sudokupad, Candidates, Limits, Puzzle, Random, Solved,
    Sudoku,
};
use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// Most solutions `count` counts, and the cap on each candidate's count.
pub const DEFAULT_CAP: u64 = 1000;

/// Reads a puzzle through the library's one reader
/// ([`dlx::sudoku::input::read`]): every form it tells, a grid pasted as
/// rows included.
pub fn parse(input: &str) -> Result<Puzzle, String> {
    dlx::sudoku::input::read(input)
        .map(|p| p.puzzle)
        .map_err(|e| e.to_string())
}

/// The digit `d` of a grid as one character: 1–9, then A, B, … (16×16
/// writes 1–9 and A–G).
fn digit(d: u8) -> char {
    char::from_digit(u32::from(d), 36)
        .map(|c| c.to_ascii_uppercase())
        .unwrap_or('?')
}

fn line(cells: &[u8]) -> String {
    cells.iter().map(|&d| digit(d)).collect()
}

/// [`describe`] on the host: the puzzle's f-puzzles JSON, variant text,
/// side and link.
pub fn describe_json(input: &str) -> Result<Value, String> {
    let p = parse(input)?;
    let json = fpuzzles::write_rules(p.rules(), p.givens(), None);
    let fpuzzles: Value = serde_json::from_str(&json).map_err(|e| e.to_string())?;
    Ok(json!({
        "side": p.side(),
        "fpuzzles": fpuzzles,
        "text": p.to_string(),
        "link": fpuzzles::link(&json),
        "sudokupad": sudokupad::link(&json, None),
    }))
}

/// [`run`] on the host.
pub fn run_json(input: &str, action: &str, cap: u64, seed: u64) -> Result<Value, String> {
    let p = parse(input)?;
    let cap = cap.max(1);
    SUDOKU.with(|sudoku| act(&mut sudoku.borrow_mut(), &p, action, cap, seed))
}

thread_local! {
    /// The worker's solver, kept between calls: its engines' tables for
    /// classic grids, and the matrix of the last variant's rules, are made
    /// once.
    static SUDOKU: std::cell::RefCell<Sudoku> = std::cell::RefCell::new(Sudoku::default());
}

/// `solve`, `check` and `count`: the answer as a line, then the library's
/// report of the search ([`Solved`]: the count, how it ended, nodes,
/// guesses, the solution, the engine), then the solution's link.
#[derive(Serialize)]
struct Answered<'a> {
    result: String,
    #[serde(flatten)]
    solved: &'a Solved,
    link: Option<String>,
    /// The puzzle's SudokuPad link, the solution in it to check a solve.
    sudokupad: Option<String>,
}

/// `candidates`: the answer as a line, then the library's report
/// ([`Candidates`]: each cell's digits, their counts, the cap, whether
/// complete).
#[derive(Serialize)]
struct Found<'a> {
    result: String,
    #[serde(flatten)]
    candidates: &'a Candidates,
}

fn to_value(value: &impl Serialize) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|e| e.to_string())
}

fn act(
    sudoku: &mut Sudoku,
    p: &Puzzle,
    action: &str,
    cap: u64,
    seed: u64,
) -> Result<Value, String> {
    let link = |solution: &[u8]| {
        fpuzzles::link(&fpuzzles::write_rules(
            p.rules(),
            p.givens(),
            Some(solution),
        ))
    };
    let out = match action {
        "solve" | "check" | "count" => {
            let limit = match action {
                "solve" => 1,
                "check" => 2,
                _ => cap,
            };
            let solved = sudoku
                .solve(p, &Limits::count_to(limit))
                .map_err(|e| e.to_string())?;
            let a = solved.answer;
            let result = match action {
                "solve" => solved.solution.as_deref().map_or("none".to_string(), line),
                "check" => a.status().as_str().to_string(),
                _ if a.complete => a.solutions.to_string(),
                _ => format!("at least {}", a.solutions),
            };
            // The link is made for a shown solution only: compressing the
            // JSON takes longer than checking a 9×9.
            let shown = solved.solution.as_deref().filter(|_| action == "solve");
            let puzzle = || fpuzzles::write_rules(p.rules(), p.givens(), None);
            to_value(&Answered {
                result,
                solved: &solved,
                link: shown.map(link),
                sudokupad: shown.map(|s| sudokupad::link(&puzzle(), Some(s))),
            })?
        }
        "candidates" => {
            let c = candidates(sudoku, p, &Limits::count_to(cap.min(DEFAULT_CAP)))
                .map_err(|e| e.to_string())?;
            let result = if c.solvable() {
                (0..p.side() * p.side())
                    .map(|k| line(&c.digits(k)))
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                "none".to_string()
            };
            to_value(&Found {
                result,
                candidates: &c,
            })?
        }
        "random" => {
            match random_solution(p, seed, &Limits::count_to(1)).map_err(|e| e.to_string())? {
                Random::Solved(grid) => json!({
                    "result": line(&grid),
                    "link": link(&grid),
                    "solution": grid,
                }),
                Random::None => json!({ "result": "none", "solution": null }),
                Random::Stopped(stop) => return Err(format!("stopped: {stop:?}")),
            }
        }
        // The next step by logic, as `dlx sudoku hint` prints it, and the
        // step itself (its placements and eliminations, to mark).
        "hint" => {
            let step = explain::hint(p, &Until::default()).map_err(|e| e.to_string())?;
            let result = match &step {
                Some(s) => format!("[{:.1}] {}", s.rating, s.text),
                None => "no step: the grid is full".to_string(),
            };
            json!({ "result": result, "step": to_value(&step)? })
        }
        // SE's figures, as `dlx sudoku rate` prints them.
        "rate" => {
            let e = explain::explain(p).map_err(|e| e.to_string())?;
            let mut v = to_value(&e.rating())?;
            v["result"] = Value::String(e.rating_line());
            v
        }
        other => {
            return Err(format!(
                "unknown action `{other}` (solve, check, count, candidates, random, hint, rate)"
            ))
        }
    };
    Ok(out)
}

/// The puzzle `input` describes, as JSON: `side`, `fpuzzles` (its
/// f-puzzles JSON object, which the page draws), `text` (the variant text
/// form) and `link` (its f-puzzles link). An input the library cannot read
/// is an error carrying the library's message.
#[wasm_bindgen]
pub fn describe(input: &str) -> Result<String, JsError> {
    describe_json(input)
        .map(|v| v.to_string())
        .map_err(|e| JsError::new(&e))
}

/// Runs `action` on the puzzle `input`: `solve` (one solution), `check`
/// (unique, multiple or none), `count` (solutions up to `cap`),
/// `candidates` (each cell's digits in some solution, each counted up to
/// `cap`), `random` (a random solution for `seed`), `hint` (the next step
/// by logic, with its `step`: `place` and `eliminate`, cells as R1C1),
/// `rate` (Sudoku Explainer's ER/EP/ED). JSON with `result` (the
/// answer as one line of text: digits row-major or `none`; `unique`,
/// `multiple` or `none`; the count or `at least N`; one group of digits per
/// cell) and what the page draws and shows (`solution`, `candidates`,
/// `nodes`, `guesses`, `link`).
#[wasm_bindgen]
pub fn run(input: &str, action: &str, cap: f64, seed: f64) -> Result<String, JsError> {
    let cap = if cap.is_finite() && cap >= 1.0 {
        cap as u64
    } else {
        DEFAULT_CAP
    };
    let seed = if seed.is_finite() && seed >= 0.0 {
        seed as u64
    } else {
        0
    };
    run_json(input, action, cap, seed)
        .map(|v| v.to_string())
        .map_err(|e| JsError::new(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSIC: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn every_input_form_reads_to_the_same_puzzle() {
        let line = describe_json(CLASSIC).unwrap();
        let rows: String = CLASSIC
            .as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", String::from_utf8_lossy(r)))
            .collect();
        let from_rows = describe_json(&rows).unwrap();
        assert_eq!(line["fpuzzles"], from_rows["fpuzzles"]);
        let link = line["link"].as_str().unwrap();
        let from_link = describe_json(link).unwrap();
        assert_eq!(line["fpuzzles"], from_link["fpuzzles"]);
        let load = link.split_once("load=").unwrap().1;
        assert_eq!(describe_json(load).unwrap()["fpuzzles"], line["fpuzzles"]);
        assert_eq!(line["side"], 9);
        assert!(describe_json("").is_err());
        assert!(describe_json("not a puzzle").is_err());
    }

    #[test]
    fn actions_answer_as_the_contract_says() {
        let solved = run_json(CLASSIC, "solve", 1, 0).unwrap();
        let grid = solved["result"].as_str().unwrap();
        assert_eq!(grid.len(), 81);
        assert!(grid.starts_with('4'));
        assert_eq!(
            run_json(CLASSIC, "check", 1, 0).unwrap()["result"],
            "unique"
        );
        assert_eq!(run_json(CLASSIC, "count", 10, 0).unwrap()["result"], "1");
        let open = format!("{}{}", &CLASSIC[..80], ".");
        let few = "12..34..........";
        assert_eq!(run_json(few, "count", 1000, 0).unwrap()["result"], "12");
        assert_eq!(
            run_json(few, "count", 5, 0).unwrap()["result"],
            "at least 5"
        );
        assert_eq!(run_json(few, "check", 1, 0).unwrap()["result"], "multiple");
        let c = run_json(few, "candidates", 8, 0).unwrap();
        let groups: Vec<&str> = c["result"].as_str().unwrap().split(' ').collect();
        assert_eq!(groups.len(), 16);
        assert_eq!((groups[0], groups[2]), ("1", "34"));
        // The library's report of candidates: each digit's count beside it.
        assert_eq!(c["candidates"][2], json!([3, 4]));
        assert_eq!(c["counts"][2], json!([6, 6]));
        assert_eq!(
            (c["limit"].as_u64(), c["complete"].as_bool()),
            (Some(8), Some(true))
        );
        // The library's report of a search, its fields beside the result.
        let counted = run_json(few, "count", 1000, 0).unwrap();
        assert_eq!(counted["solutions"], 12);
        assert_eq!(counted["complete"], true);
        assert!(counted["nodes"].as_u64().unwrap() >= 12);
        assert!(counted["engine"].is_string() && counted["guesses"].is_u64());
        let none = "12..34.......... thermo=R1C2,R1C1";
        assert_eq!(run_json(none, "solve", 1, 0).unwrap()["result"], "none");
        assert_eq!(run_json(none, "check", 1, 0).unwrap()["result"], "none");
        assert_eq!(
            run_json(none, "candidates", 8, 0).unwrap()["result"],
            "none"
        );
        // The next step and the rating, as the command line says them.
        let hint = run_json(CLASSIC, "hint", 1, 0).unwrap();
        assert!(hint["result"]
            .as_str()
            .unwrap()
            .starts_with("[1.2] Hidden Single: "));
        assert_eq!(hint["step"]["place"].as_array().unwrap().len(), 1);
        let rated = run_json(CLASSIC, "rate", 1, 0).unwrap();
        // Hard for a search, easy for a person: SukakuExplainer says so too.
        assert_eq!(rated["result"], "2.6/1.2/1.2 Pointing");
        assert_eq!(rated["er"], 2.6);
        assert!(run_json(few, "hint", 1, 0).is_err());
        let r = run_json(&open, "random", 1, 7).unwrap();
        assert_eq!(r["result"].as_str().unwrap().len(), 81);
        assert!(run_json(CLASSIC, "dance", 1, 0).is_err());
        // The SudokuPad link carries the puzzle and the solution to check.
        let pad = solved["sudokupad"].as_str().unwrap();
        let pasted = dlx::sudoku::input::read(pad).unwrap();
        assert_eq!(
            pasted.puzzle.expected().map(line),
            solved["result"].as_str().map(str::to_string)
        );
        // The link of a solution opens the puzzle with it entered.
        let link = solved["link"].as_str().unwrap();
        let back = fpuzzles::read_pasted(link).unwrap();
        assert_eq!(back.puzzle().givens()[0], 4);
    }
}
