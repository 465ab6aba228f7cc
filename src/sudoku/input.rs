//! The one reader of a puzzle as people paste it: it tells the form once
//! ([`Form::detect`]) and reads it ([`read`]), for every front end — the
//! command line's variant inputs, [`Puzzle`]'s `FromStr` (and so Python's
//! `pydlx.sudoku`), and the page.
//!
//! The forms, in the order they are told apart:
//! * f-puzzles: its JSON (the text starts with `{`), a link that carries
//!   it (`?load=…`, SudokuPad's `…/fpuzzles…` and `?puzzleid=fpuzzles…`),
//!   or the compressed string alone (base 64 that decompresses to a JSON
//!   object: decompressed once, here, and read);
//! * any other link: refused by name ([`ReadError::Link`]), never read as
//!   a grid;
//! * the variant text form: a grid line, then rule words
//!   ([`rule_line`]);
//! * pencil marks given as clues (a Sukaku, or a solver's grid with its
//!   marks): a line of 729 symbols, each cell's nine places holding its
//!   candidates' digits (`.` or `0` elsewhere), or a 9×9 or 4×4 grid of
//!   candidate lists as HoDoKu and SudokuWiki print it (one list a cell,
//!   apart by spaces and `|`, border lines of `-`, `.`, `:`, `+`, `=`, `*`,
//!   `'` passed over); a cell of one candidate is a given, the others
//!   [`GivenCandidates`](super::constraints::GivenCandidates);
//! * a classic grid pasted row by row: several lines of digits, dots and
//!   separators (`|`, `+`, `-`, spaces), joined into one line;
//! * a classic grid's line.
//!
//! Why one reader: the same text must mean the same puzzle wherever it is
//! pasted, and the next form (SudokuPad's own) is added here once, not in
//! each front end. Files of many puzzles in the judges' formats are read
//! by [`format`](mod@super::format); each of their puzzles is a classic grid.

use std::fmt;

use super::fpuzzles::{self, Document};
use super::puzzle::{GivensError, Puzzle, ReadError};
use super::rules::MAX_SIDE;
use super::sudokupad::{self, SudokuPadError};
use super::{format, rule_line, Alphabet};

/// The form a puzzle's text is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Form {
    /// f-puzzles: its JSON, a link that carries it, or its compressed
    /// string.
    Fpuzzles,
    /// A link to a puzzle that is not f-puzzles data.
    Link,
    /// The variant text form: a grid line, then rule words (or a grid
    /// line alone whose side is no square: [`bare_side`]).
    Variant,
    /// Pencil marks given as clues: a Sukaku line of 729 symbols, or a
    /// grid of candidate lists.
    Marks,
    /// A classic grid pasted row by row.
    Rows,
    /// A classic grid's line.
    Line,
}

impl Form {
    /// The form of `text` (a byte-order mark and surrounding white space
    /// ignored); `None` for an empty text.
    ///
    /// ```
    /// use dlx::sudoku::input::Form;
    ///
    /// assert_eq!(Form::detect("1..............."), Some(Form::Line));
    /// assert_eq!(Form::detect("1............... x"), Some(Form::Variant));
    /// assert_eq!(Form::detect("1 . | . .\n. . | . ."), Some(Form::Rows));
    /// assert_eq!(Form::detect(r#"{"size":4}"#), Some(Form::Fpuzzles));
    /// assert_eq!(Form::detect("https://f-puzzles.com/?load=N4Ig"), Some(Form::Fpuzzles));
    /// assert_eq!(Form::detect("https://sudokupad.app/abc"), Some(Form::Link));
    /// assert_eq!(Form::detect("  "), None);
    /// ```
    pub fn detect(text: &str) -> Option<Form> {
        Some(match classify(text)? {
            Found::Json(_)
            | Found::FpuzzlesLink(_)
            | Found::SudokuPad(Ok(sudokupad::Payload::Fpuzzles(_))) => Form::Fpuzzles,
            Found::Link(_) | Found::SudokuPad(_) => Form::Link,
            Found::Variant(_) => Form::Variant,
            Found::Marks(_) => Form::Marks,
            Found::Rows(_) => Form::Rows,
            Found::Line(_) => Form::Line,
        })
    }

    /// The form's name, as messages and `--format` say it.
    pub fn name(self) -> &'static str {
        match self {
            Form::Fpuzzles => "f-puzzles",
            Form::Link => "link",
            Form::Variant => "variant text",
            Form::Marks => "pencil marks",
            Form::Rows => "grid rows",
            Form::Line => "line",
        }
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A puzzle read by [`read`]: the puzzle, the form it came in, and, for
/// f-puzzles, its document (a solution is written back into it).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Pasted {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The form its text was in.
    pub form: Form,
    /// The f-puzzles document it came as, if it did.
    pub fpuzzles: Option<Document>,
}

/// Reads one puzzle as people paste it, in the form [`Form::detect`]
/// tells.
///
/// ```
/// use dlx::sudoku::input::{read, Form};
///
/// let p = read("1...\n....\n....\n...2").unwrap();
/// assert_eq!((p.form, p.puzzle.givens()[15]), (Form::Rows, 2));
/// assert!(read("https://sudokupad.app/abc").is_err());
/// ```
pub fn read(text: &str) -> Result<Pasted, ReadError> {
    let found = classify(text).ok_or(ReadError::Empty)?;
    // (A grid of pencil marks is one puzzle, whatever its lines look like.)
    if let Some(n) = several(trimmed(text)).filter(|_| !matches!(found, Found::Marks(_))) {
        return Err(ReadError::Several(n));
    }
    read_found(found)
}

/// The number of puzzles in `text` when it holds more than one: lines
/// that are each a whole puzzle (a classic line of 81 symbols or more, the
/// variant text form, f-puzzles' JSON or a link), or a classic line's
/// grid followed by another grid of its length. Rows of one grid pasted
/// line by line are no puzzles each (a 16×16 grid's rows are as long as a
/// 4×4 puzzle's line: those are never counted).
fn several(text: &str) -> Option<usize> {
    if text.starts_with('{') {
        return None;
    }
    let whole = |line: &str| {
        let line = line.trim();
        let first = line.split_whitespace().next().unwrap_or("");
        let len = first.chars().count();
        line.starts_with('{')
            || is_link(line)
            || rule_line::looks_like(line)
            || (len >= 81 && (3..=8).any(|b: usize| b.pow(4) == len))
    };
    let lines = text.lines().filter(|l| whole(l)).count();
    if lines > 1 {
        return Some(lines);
    }
    // One line: a grid, then more grids of its length.
    let mut tokens = text.split_whitespace();
    let first = tokens.next()?.chars().count();
    let grid = |t: &&str| {
        t.chars().count() == first
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    };
    let grids = 1 + tokens.filter(grid).count();
    (text.lines().count() == 1 && first >= 16 && grids > 1).then_some(grids)
}

/// Reads one puzzle in the form named (a front end's `--format`), whatever
/// its text looks like: f-puzzles (JSON, a link or the compressed string),
/// the variant text form, rows or a line. A [`Form::Link`] is read as
/// whatever the text is.
pub fn read_as(text: &str, form: Form) -> Result<Pasted, ReadError> {
    let text = trimmed(text);
    if text.is_empty() {
        return Err(ReadError::Empty);
    }
    match form {
        // A SudokuPad link that carries f-puzzles data is read as one is.
        Form::Fpuzzles if sudokupad::is_link(text) => read(text),
        Form::Fpuzzles => {
            let doc = fpuzzles::read_pasted(text).map_err(ReadError::Fpuzzles)?;
            from_document(doc)
        }
        Form::Variant => read_found(Found::Variant(text)),
        Form::Marks => match marks(text) {
            Some(m) => read_found(Found::Marks(m)),
            None => Err(ReadError::Marks(
                "not a line of 729 symbols nor a grid of candidate lists".into(),
            )),
        },
        Form::Rows => read_found(Found::Rows(text)),
        Form::Line => read_found(Found::Line(text)),
        Form::Link => read(text),
    }
}

/// A text told apart, with what reading it needs (a bare compressed
/// string decompressed once: telling it from a grid line takes that).
enum Found<'a> {
    Json(std::borrow::Cow<'a, str>),
    FpuzzlesLink(&'a str),
    /// A SudokuPad link: what it carries, or why nothing to read.
    SudokuPad(Result<sudokupad::Payload, SudokuPadError>),
    Link(&'a str),
    Variant(&'a str),
    /// Each cell's candidates (bit d − 1 for digit d), row-major.
    Marks(Vec<u64>),
    Rows(&'a str),
    Line(&'a str),
}

fn trimmed(text: &str) -> &str {
    text.trim().trim_start_matches('\u{feff}').trim_start()
}

fn classify(text: &str) -> Option<Found<'_>> {
    let text = trimmed(text);
    if text.is_empty() {
        return None;
    }
    if text.starts_with('{') {
        return Some(Found::Json(text.into()));
    }
    if is_link(text) && sudokupad::is_link(text) {
        return Some(Found::SudokuPad(sudokupad::payload(text)));
    }
    if is_link(text) {
        return Some(if text.contains("load=") || text.contains("fpuzzles") {
            Found::FpuzzlesLink(text)
        } else {
            Found::Link(text)
        });
    }
    if let Some(json) = fpuzzles::decompressed(text) {
        return Some(Found::Json(json.into()));
    }
    if let Some(marks) = marks(text) {
        return Some(Found::Marks(marks));
    }
    if text.lines().count() > 1 && is_rows(text) {
        return Some(Found::Rows(text));
    }
    if rule_line::looks_like(text) || bare_side(text).is_some() {
        return Some(Found::Variant(text));
    }
    Some(Found::Line(text))
}

/// The side n of `text` when it is one grid line alone (no rule word) of
/// n² cells for a side of 5 or more that is no square — 6, 8, 10, 12, …,
/// whose boxes are not square (2×3 for 6, as the variant text form makes
/// them; 2 and 3 are too small for a puzzle, and their 4 and 9 symbols a
/// classic grid's row) — every
/// symbol empty (`.`, `0`, `-`, `_`) or a digit up to n; `None` otherwise.
/// Such a line is the variant text form of a puzzle without rules beyond
/// its boxes. A classic line's side is a square (4, 9, 16, …), and a line
/// of 36 symbols with one past 6 is a row of a 36×36 grid.
///
/// ```
/// use dlx::sudoku::input::{bare_side, read, Form};
///
/// let six = format!("1{}", ".".repeat(35));
/// assert_eq!(bare_side(&six), Some(6));
/// assert_eq!(read(&six).unwrap().form, Form::Variant);
/// assert_eq!(bare_side(&format!("7{}", ".".repeat(35))), None);
/// assert_eq!(bare_side(&".".repeat(81)), None); // a classic 9×9
/// ```
pub fn bare_side(text: &str) -> Option<usize> {
    let mut tokens = trimmed(text).split_whitespace();
    let token = tokens.next()?;
    if tokens.next().is_some() {
        return None;
    }
    let len = token.chars().count();
    let n = (5..=MAX_SIDE)
        .find(|n| n * n >= len)
        .filter(|n| n * n == len)?;
    if (1..=n).any(|b| b * b == n) {
        return None;
    }
    let alphabet = Alphabet::default_for(n);
    let cell = |c: char| {
        matches!(c, '.' | '0' | '-' | '_')
            || alphabet
                .digit(c, n)
                .is_some_and(|d| (1..=n).contains(&usize::from(d)))
    };
    token.chars().all(cell).then_some(n)
}

/// Each cell's candidates (bit d − 1 for digit d) when `text` is pencil
/// marks (see the module documentation): a Sukaku line of 729 symbols, or
/// a grid of n² candidate lists (n = 4 or 9) of which one at least lists
/// two digits; `None` for any other text.
fn marks(text: &str) -> Option<Vec<u64>> {
    let bit = |ch: char, n: usize| {
        ch.to_digit(10)
            .filter(|&d| (1..=n as u32).contains(&d))
            .map(|d| 1u64 << (d - 1))
    };
    if !text.contains(char::is_whitespace) && text.chars().count() == 729 {
        let symbols: Vec<char> = text.chars().collect();
        return symbols
            .chunks(9)
            .map(|cell| {
                cell.iter().try_fold(0u64, |m, &ch| match ch {
                    '.' | '0' => Some(m),
                    _ => bit(ch, 9).map(|b| m | b),
                })
            })
            .collect();
    }
    let border = |t: &str| t.chars().all(|c| "-.:+=*'_".contains(c));
    let lists: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '|')
        .filter(|t| !t.is_empty() && !border(t))
        .collect();
    let n = [4, 9].into_iter().find(|n| n * n == lists.len())?;
    if !lists.iter().any(|t| t.chars().count() > 1) {
        return None;
    }
    lists
        .iter()
        .map(|t| t.chars().try_fold(0u64, |m, ch| bit(ch, n).map(|b| m | b)))
        .collect()
}

/// The puzzle of pencil marks: classic rules of square boxes, a cell of
/// one candidate a given, one of some digits [`GivenCandidates`], one of
/// none an error naming it.
///
/// [`GivenCandidates`]: super::constraints::GivenCandidates
fn marked(marks: &[u64]) -> Result<Puzzle, ReadError> {
    use super::constraints::GivenCandidates;
    use super::rules::Rules;
    let n = if marks.len() == 16 { 4 } else { 9 };
    let b = if n == 4 { 2 } else { 3 };
    let full = (1u64 << n) - 1;
    let mut rules = Rules::boxes(b, b).map_err(|e| ReadError::Marks(e.to_string()))?;
    let mut givens = vec![0u8; n * n];
    for (k, &m) in marks.iter().enumerate() {
        let digits: Vec<u8> = (1..=n as u8).filter(|d| m >> (d - 1) & 1 == 1).collect();
        match digits.len() {
            0 => {
                return Err(ReadError::Marks(format!(
                    "{} has no candidate",
                    super::constraints::cell_name(k, n)
                )))
            }
            1 => givens[k] = digits[0],
            _ if m == full => {}
            _ => {
                rules = rules
                    .with(GivenCandidates::new(k, &digits))
                    .map_err(|e| ReadError::Marks(e.to_string()))?;
            }
        }
    }
    Puzzle::new(rules, givens).map_err(ReadError::Givens)
}

/// Whether `text` is a link: a scheme and `://` before any white space.
fn is_link(text: &str) -> bool {
    let head = text.split_whitespace().next().unwrap_or("");
    head.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
    })
}

/// Whether every line of `text` holds only cells and separators: digits,
/// letters, `.`, `-`, `|`, `+` and spaces (a rule word has `=`, and more
/// words than a row).
fn is_rows(text: &str) -> bool {
    text.chars().all(|c| {
        c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '|' | '+') || c.is_whitespace()
    })
}

/// The rows of a pasted grid as one line: separators and white space
/// left out, lines of separators alone skipped.
fn joined_rows(text: &str) -> String {
    text.lines()
        .filter(|l| l.chars().any(|c| c.is_ascii_alphanumeric() || c == '.'))
        .flat_map(|l| {
            l.chars()
                .filter(|c| !c.is_whitespace() && !matches!(c, '|' | '+'))
        })
        .collect()
}

fn from_document(doc: Document) -> Result<Pasted, ReadError> {
    let puzzle = checked(doc.puzzle())?;
    Ok(Pasted {
        puzzle,
        form: Form::Fpuzzles,
        fpuzzles: Some(doc),
    })
}

/// `puzzle`, or the clash of two of its givens: one verdict for one puzzle
/// in every form (a classic line's reader refuses a clash too).
fn checked(puzzle: Puzzle) -> Result<Puzzle, ReadError> {
    match puzzle.conflict() {
        Some(c) => Err(ReadError::Givens(GivensError::Conflict(c))),
        None => Ok(puzzle),
    }
}

fn read_found(found: Found<'_>) -> Result<Pasted, ReadError> {
    let (puzzle, form) = match found {
        Found::Json(json) => {
            let doc = fpuzzles::read(&json).map_err(ReadError::Fpuzzles)?;
            return from_document(doc);
        }
        Found::FpuzzlesLink(link) => {
            let doc = fpuzzles::read_pasted(link).map_err(ReadError::Fpuzzles)?;
            return from_document(doc);
        }
        Found::SudokuPad(Ok(sudokupad::Payload::Own(packed))) => {
            let puzzle = sudokupad::read_own(&packed).map_err(ReadError::SudokuPad)?;
            (checked(puzzle)?, Form::Link)
        }
        Found::SudokuPad(Ok(sudokupad::Payload::Fpuzzles(packed))) => {
            let doc = sudokupad::read_fpuzzles(&packed).map_err(ReadError::Fpuzzles)?;
            return from_document(doc);
        }
        Found::SudokuPad(Err(e)) => return Err(ReadError::SudokuPad(e)),
        Found::Link(link) => return Err(ReadError::Link(link.to_string())),
        Found::Variant(text) => {
            let (rules, givens) = rule_line::read(text).map_err(ReadError::Variant)?;
            let puzzle = Puzzle::new(rules, givens).map_err(ReadError::Givens)?;
            (checked(puzzle)?, Form::Variant)
        }
        Found::Marks(marks) => (checked(marked(&marks)?)?, Form::Marks),
        Found::Rows(rows) => {
            let grid = format::parse_line(&joined_rows(rows)).map_err(ReadError::Line)?;
            (Puzzle::classic(&grid), Form::Rows)
        }
        Found::Line(line) => {
            let grid = format::parse_line(line).map_err(ReadError::Line)?;
            (Puzzle::classic(&grid), Form::Line)
        }
    };
    Ok(Pasted {
        puzzle,
        form,
        fpuzzles: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4×4 puzzle in every form, each read to the same puzzle.
    #[test]
    fn every_form_is_told_apart_and_read_to_the_same_puzzle() {
        let line = "1..............2";
        let json = fpuzzles::write(4, format::parse_line(line).unwrap().cells(), None);
        let packed = super::super::lzstring::compress_to_base64(&json);
        let forms = [
            (line.to_string(), Form::Line),
            (
                "1 . . .\n. . . .\n. . . .\n. . . 2\n".to_string(),
                Form::Rows,
            ),
            (
                "+---+\n|1.|..|\n|..|..|\n+---+\n|..|..|\n|..|.2|\n".to_string(),
                Form::Rows,
            ),
            (json.clone(), Form::Fpuzzles),
            (packed.clone(), Form::Fpuzzles),
            (
                format!("https://www.f-puzzles.com/?load={packed}"),
                Form::Fpuzzles,
            ),
            (
                format!("https://sudokupad.app/fpuzzles{packed}"),
                Form::Fpuzzles,
            ),
            (format!("\u{feff}  {line}  "), Form::Line),
        ];
        let expected = read(line).unwrap().puzzle;
        for (text, form) in forms {
            assert_eq!(Form::detect(&text), Some(form), "{text}");
            let p = read(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!((p.puzzle, p.form), (expected.clone(), form), "{text}");
            assert_eq!(p.fpuzzles.is_some(), form == Form::Fpuzzles);
        }
        let x = read(&format!("{line} antiking")).unwrap();
        assert_eq!(x.form, Form::Variant);
        assert!(x.puzzle.rules().has_anti_king());
    }

    #[test]
    fn links_that_carry_no_puzzle_data_are_refused_by_name() {
        let link = "http://example.com/?x=1";
        assert_eq!(Form::detect(link), Some(Form::Link));
        assert_eq!(read(link).unwrap_err(), ReadError::Link(link.to_string()));
        let e = read(link).unwrap_err().to_string();
        assert!(e.contains(link), "{e}");
        // A long one is named by its head.
        let long = format!("https://example.com/{}", "x".repeat(500));
        let e = read(&long).unwrap_err().to_string();
        assert!(e.contains(&long[..60]) && !e.contains(&long[..61]), "{e}");
        // A SudokuPad short id: the data is on the server.
        let short = "https://sudokupad.app/abc";
        assert_eq!(Form::detect(short), Some(Form::Link));
        let e = read(short).unwrap_err();
        assert_eq!(
            e,
            ReadError::SudokuPad(SudokuPadError::ShortId("abc".into()))
        );
        // A grid line is no link; nor is a word before `://`'s absence.
        assert_eq!(Form::detect("1...:..."), Some(Form::Line));
        assert_eq!(read(" \n ").unwrap_err(), ReadError::Empty);
    }

    #[test]
    fn a_form_named_is_read_as_that_form() {
        let line = "1..............2";
        assert_eq!(read_as(line, Form::Line).unwrap().form, Form::Line);
        // Read as variant text, a bare grid line is a classic puzzle of
        // that form.
        let v = read_as(line, Form::Variant).unwrap();
        assert_eq!(
            (v.form, v.puzzle.classic_box_side()),
            (Form::Variant, Some(2))
        );
        assert!(matches!(
            read_as(line, Form::Fpuzzles),
            Err(ReadError::Fpuzzles(_))
        ));
    }

    /// Two givens of one digit in a row, a column or a region: one verdict
    /// in every form, naming the cells.
    #[test]
    fn clashing_givens_are_refused_in_every_form() {
        let cell = |v: &str| format!("{{{v}}}");
        let row = |cells: [&str; 4]| format!("[{}]", cells.map(cell).join(","));
        let json = format!(
            r#"{{"size":4,"grid":[{},{},{},{}]}}"#,
            row([
                r#""value":1,"given":true"#,
                r#""value":1,"given":true"#,
                "",
                ""
            ]),
            row(["", "", "", ""]),
            row(["", "", "", ""]),
            row(["", "", "", ""]),
        );
        let want = "conflicting givens: digit 1 twice in a row, at r1c1 and r1c2";
        for text in ["11..............", "11.............. boxes=2x2", &json] {
            let e = read(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
        // A box, and a jigsaw's region (r1c4, r2c3, r2c4 and r3c4: not a
        // rectangle).
        let e = read("1....1.......... boxes=2x2").unwrap_err().to_string();
        assert!(e.ends_with("twice in a box, at r1c1 and r2c2"), "{e}");
        let regions = "regions=0001021122312333";
        let e = read(&format!("...3..3......... {regions}")).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("twice in a region, at r1c4 and r2c3"),
            "{e}"
        );
        assert!(read(&format!("................ {regions}")).is_ok());
    }

    /// Two puzzles in one text are refused, not one of them read: a text
    /// is one puzzle.
    #[test]
    fn two_puzzles_in_one_text_are_refused() {
        let hard =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        for text in [
            format!("{hard}\n{hard}"),
            format!("{hard}\n{hard}\n"),
            format!("{hard} {hard}"),
            "1............... x\n1............... x".to_string(),
        ] {
            let e = read(&text).unwrap_err().to_string();
            assert!(e.contains("2 puzzles in one text"), "{text}: {e}");
        }
        // A rule word as long as the grid is no second puzzle; a grid
        // pasted row by row is one.
        for text in [
            "1............... cage=7:R1C1,R1C2",
            "1 . | . .\n. . | . .\n----+----\n. . | . .\n. . | . 2",
            "1...\n....\n....\n...2",
        ] {
            assert!(read(text).is_ok(), "{text}");
        }
    }

    /// Pencil marks, as a Sukaku line and as a grid of candidate lists,
    /// read to the same puzzle: one candidate a given, some the given
    /// candidates, all of them nothing; a cell of none refused by name.
    #[test]
    fn pencil_marks_are_read_as_given_candidates() {
        use crate::sudoku::constraints::GivenCandidates;
        // 4×4: R1C1 holds 1; R1C2 is 2 or 3; the rest open.
        let mut lists = vec!["1234".to_string(); 16];
        lists[0] = "1".into();
        lists[1] = "23".into();
        let grid =
            format!(
            ".---------.---------.\n| {} {} | {} {} |\n| {} {} | {} {} |\n:---------+---------:\n\
             | {} {} | {} {} |\n| {} {} | {} {} |\n'---------'---------'",
            lists[0], lists[1], lists[2], lists[3], lists[4], lists[5], lists[6], lists[7],
            lists[8], lists[9], lists[10], lists[11], lists[12], lists[13], lists[14], lists[15],
        );
        let p = read(&grid).unwrap();
        assert_eq!(p.form, Form::Marks);
        assert_eq!(&p.puzzle.givens()[..3], [1, 0, 0]);
        let marks: Vec<&GivenCandidates> = p.puzzle.rules().find::<GivenCandidates>().collect();
        assert_eq!(marks, [&GivenCandidates::new(1, &[2, 3])]);
        // The same on one line, and a 9×9 Sukaku line.
        assert_eq!(read(&grid.replace('\n', " ")).unwrap().puzzle, p.puzzle);
        let mut sukaku = "123456789".repeat(81);
        sukaku.replace_range(0..9, "....5....");
        sukaku.replace_range(9..18, "1.3000000");
        let p = read(&sukaku).unwrap();
        assert_eq!((p.form, p.puzzle.givens()[0]), (Form::Marks, 5));
        let marks: Vec<&GivenCandidates> = p.puzzle.rules().find::<GivenCandidates>().collect();
        assert_eq!(marks, [&GivenCandidates::new(1, &[1, 3])]);
        assert_eq!(read_as(&sukaku, Form::Marks).unwrap().puzzle, p.puzzle);
        // A cell of no candidate.
        sukaku.replace_range(18..27, ".........");
        let e = read(&sukaku).unwrap_err().to_string();
        assert!(e.contains("R1C3 has no candidate"), "{e}");
        // A classic grid of one digit a cell is no grid of marks.
        assert_eq!(
            Form::detect("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1"),
            Some(Form::Rows)
        );
    }
}
