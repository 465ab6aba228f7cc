//! f-puzzles' JSON, the format puzzle setters share variants in (f-puzzles,
//! SudokuPad and others read it): read into [`Rules`] and givens, and a
//! solution written back into the same JSON.
//!
//! Read: `size` (the side), `grid[r][c]` with `value` and `given` (a given
//! digit) and `region` (a region number replacing the default box), and
//! every key a registered [constraint](super::constraints) reads — flags
//! (`diagonal+`, `antiking`, `nonconsecutive` …), arrays (`killercage`,
//! `thermometer`, `arrow`, `difference`, `littlekillersum` …) and the
//! entries of `negative` — each module says which and their shapes. Cells
//! are named `R1C1`, 1-based. Default boxes are f-puzzles': h rows by n/h
//! columns, h the largest divisor of n with h² ≤ n (rows when n is prime).
//!
//! A constraint this layer does not model is refused by name, never
//! dropped: a puzzle solved without one of its rules is a wrong answer.
//! Cosmetic entries (title, author, rules text, lines, shapes, cosmetic
//! cages, text) and solver settings are passed over; an empty array or a
//! false flag of any kind is no constraint.

use serde_json::{Map, Value};

use super::constraints::{self, Geometry};
use super::rules::{Rules, RulesError};

/// Keys that carry no rule: cosmetics, metadata, the setter's solver
/// settings, and the solution a setter may store.
const COSMETIC: [&str; 14] = [
    "title",
    "author",
    "ruleset",
    "text",
    "line",
    "rectangle",
    "circle",
    "cage",
    "solution",
    "disabledlogic",
    "truecandidatesoptions",
    "highlightConflicts",
    "fogofwar",
    "fogLights",
];

/// Why a text is not an f-puzzles puzzle this layer can solve.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FpuzzlesError {
    /// Not JSON, or not an object.
    Json(String),
    /// A field missing or of the wrong shape.
    Field(String),
    /// A constraint this layer does not model, by its f-puzzles name.
    Unsupported(String),
    /// The rules are not a valid rule set.
    Rules(RulesError),
    /// The solution the document carries breaks the rules as read (the
    /// broken rule): the puzzle was misread, and is not answered.
    Solution(String),
}

impl std::fmt::Display for FpuzzlesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FpuzzlesError::Json(why) => write!(f, "not f-puzzles JSON: {why}"),
            FpuzzlesError::Field(why) => write!(f, "f-puzzles: {why}"),
            FpuzzlesError::Unsupported(name) => write!(
                f,
                "f-puzzles: the constraint `{name}` is not supported; solving without it would give wrong answers"
            ),
            FpuzzlesError::Rules(e) => write!(f, "f-puzzles: {e}"),
            FpuzzlesError::Solution(why) => write!(
                f,
                "f-puzzles: the solution the puzzle carries breaks its rules as read ({why}): \
                 a rule was misread or is not known here, so no answer is given"
            ),
        }
    }
}

impl std::error::Error for FpuzzlesError {}

impl From<RulesError> for FpuzzlesError {
    fn from(e: RulesError) -> Self {
        FpuzzlesError::Rules(e)
    }
}

/// A puzzle read from f-puzzles: its rules, its givens (row-major, 0 for
/// empty), and the JSON itself, for writing a solution back
/// ([`with_solution`](Self::with_solution)). [`puzzle`](Self::puzzle) is
/// the [`Puzzle`](crate::sudoku::Puzzle) to solve.
#[derive(Clone, Debug)]
pub struct Document {
    /// The rule set.
    pub rules: Rules,
    /// The given digits, row-major, 0 where none.
    pub givens: Vec<u8>,
    json: Map<String, Value>,
}

/// f-puzzles' default box height for side n: the largest divisor h of n
/// with h² ≤ n (1 when there is none but 1).
pub fn default_box_rows(n: usize) -> usize {
    (2..=n)
        .take_while(|h| h * h <= n)
        .filter(|h| n.is_multiple_of(*h))
        .last()
        .unwrap_or(1)
}

/// A cell named `R<r>C<c>` (1-based, either case) in a grid of side n, as
/// a row-major index: f-puzzles' names, which the variant text uses too.
pub(crate) fn cell_index(name: &str, n: usize) -> Option<usize> {
    let rest = name.strip_prefix(['R', 'r'])?;
    let (r, c) = rest.split_once(['C', 'c'])?;
    let (r, c): (usize, usize) = (r.parse().ok()?, c.parse().ok()?);
    if r == 0 || c == 0 || r > n || c > n {
        return None;
    }
    Some((r - 1) * n + c - 1)
}

/// Reads a puzzle as people paste it: the JSON; the compressed string
/// (LZString, base 64) f-puzzles puts in its links; or a whole link, with
/// the string after `load=` (f-puzzles) or after `fpuzzles` in the path
/// (SudokuPad), percent-escapes undone.
pub fn read_pasted(text: &str) -> Result<Document, FpuzzlesError> {
    let text = text.trim();
    if text.starts_with('{') {
        return read(text);
    }
    let payload = if let Some((_, after)) = text.split_once("load=") {
        after.split(['&', '#']).next().unwrap_or("")
    } else if let Some(at) = text.rfind("fpuzzles") {
        &text[at + "fpuzzles".len()..]
    } else {
        text
    };
    // A `+` read back from a query string is a space.
    let packed = percent_decoded(payload).replace(' ', "+");
    let json = super::lzstring::decompress_from_base64(&packed).ok_or_else(|| {
        FpuzzlesError::Json("neither JSON nor an f-puzzles link or compressed string".into())
    })?;
    read(&json)
}

/// `text` with its `%XX` escapes undone (a malformed escape kept as it
/// is): the links that carry puzzles, f-puzzles' and SudokuPad's.
pub(crate) fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: Option<&u8>| b.and_then(|&b| (b as char).to_digit(16));
        match (bytes[i], hex(bytes.get(i + 1)), hex(bytes.get(i + 2))) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether `text` is an f-puzzles compressed string alone (the `load=`
/// part of a link, pasted bare): base 64 that decompresses to a JSON
/// object. Readers that detect formats use it: a bare string is no grid.
pub fn is_compressed(text: &str) -> bool {
    decompressed(text).is_some()
}

/// The JSON of `text` when it is an f-puzzles compressed string alone
/// ([`is_compressed`]): decompressed once, for a reader that tells the
/// form and then reads it.
pub(crate) fn decompressed(text: &str) -> Option<String> {
    let text = text.trim();
    let base64 = text.len() >= 16
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='));
    if !base64 {
        return None;
    }
    super::lzstring::decompress_from_base64(text).filter(|json| json.trim_start().starts_with('{'))
}

/// Reads one f-puzzles puzzle (the JSON object, as the tool exports it).
pub fn read(text: &str) -> Result<Document, FpuzzlesError> {
    let value: Value =
        serde_json::from_str(text.trim()).map_err(|e| FpuzzlesError::Json(e.to_string()))?;
    let Value::Object(json) = value else {
        return Err(FpuzzlesError::Json("not an object".into()));
    };
    for (key, v) in &json {
        let empty = matches!(v, Value::Null | Value::Bool(false))
            || v.as_array().is_some_and(Vec::is_empty);
        let known = key == "size"
            || key == "grid"
            || constraints::reads_fpuzzles_key(key)
            || COSMETIC.contains(&key.as_str());
        if !known && !empty {
            return Err(FpuzzlesError::Unsupported(key.clone()));
        }
    }
    for entry in json
        .get("negative")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = entry.as_str().unwrap_or_default();
        if !constraints::reads_negative(name) {
            return Err(FpuzzlesError::Unsupported(format!("negative {entry}")));
        }
    }
    let n = json
        .get("size")
        .and_then(Value::as_u64)
        .ok_or_else(|| FpuzzlesError::Field("no \"size\"".into()))? as usize;
    if n == 0 || n > super::rules::MAX_SIDE {
        return Err(RulesError::Side(n).into());
    }
    let grid = json
        .get("grid")
        .and_then(Value::as_array)
        .filter(|rows| rows.len() == n)
        .ok_or_else(|| FpuzzlesError::Field(format!("\"grid\" is not {n} rows")))?;
    let h = default_box_rows(n);
    let w = n / h;
    let mut regions = Vec::with_capacity(n * n);
    let mut givens = Vec::with_capacity(n * n);
    for (r, row) in grid.iter().enumerate() {
        let row = row
            .as_array()
            .filter(|cs| cs.len() == n)
            .ok_or_else(|| FpuzzlesError::Field(format!("row {} is not {n} cells", r + 1)))?;
        for (c, cell) in row.iter().enumerate() {
            let region = match cell.get("region") {
                None => (r / h) * (n / w) + c / w,
                Some(v) => v.as_u64().ok_or_else(|| {
                    FpuzzlesError::Field(format!(
                        "R{}C{}: a cell outside every region",
                        r + 1,
                        c + 1
                    ))
                })? as usize,
            };
            regions.push(region);
            let given = cell.get("given").and_then(Value::as_bool) == Some(true);
            let digit = match cell.get("value").and_then(Value::as_u64) {
                Some(d) if given => {
                    if d == 0 || d as usize > n {
                        return Err(FpuzzlesError::Field(format!(
                            "R{}C{}: {d} is not a digit 1 to {n}",
                            r + 1,
                            c + 1
                        )));
                    }
                    d as u8
                }
                _ => 0,
            };
            givens.push(digit);
        }
    }
    let mut rules = Rules::jigsaw(&regions)?;
    let g = Geometry {
        side: n,
        box_rows: h,
        box_cols: w,
    };
    for kind in constraints::KINDS {
        let read = (kind.read_fpuzzles)(&json, &g).map_err(FpuzzlesError::Field)?;
        for c in read {
            rules = rules.with_shared(c)?;
        }
    }
    if let Some(solution) = embedded_solution(&json, n) {
        // The puzzle's own answer must keep the rules as read: if not, the
        // reading is wrong (a rule misread, or one this reader does not
        // know), and no answer of it may be printed.
        if let Err(broken) = super::rules::check(&rules, &givens, &solution) {
            return Err(FpuzzlesError::Solution(broken.to_string()));
        }
    }
    Ok(Document {
        rules,
        givens,
        json,
    })
}

/// The `solution` an f-puzzles document carries (n² digits, numbers or
/// strings, as its writers put them), when it is whole.
fn embedded_solution(json: &Map<String, Value>, n: usize) -> Option<Vec<u8>> {
    let list = json.get("solution")?.as_array()?;
    let digits: Vec<u8> = list
        .iter()
        .map(|v| match v {
            Value::Number(d) => d.as_u64(),
            Value::String(d) => d.trim().parse().ok(),
            _ => None,
        })
        .map(|d| d.filter(|&d| d >= 1 && d as usize <= n).map(|d| d as u8))
        .collect::<Option<_>>()?;
    (digits.len() == n * n).then_some(digits)
}

/// A classic grid as f-puzzles JSON: `size` and `grid`, the `givens`
/// (row-major, 0 for empty) marked given, and `solution`'s digits, when
/// there is one, entered in the other cells. Boxes are f-puzzles' default.
pub fn write(side: usize, givens: &[u8], solution: Option<&[u8]>) -> String {
    let h = default_box_rows(side);
    match Rules::boxes(h, side / h.max(1)) {
        Ok(rules) => write_rules(&rules, givens, solution),
        Err(_) => String::from("{}"),
    }
}

/// The f-puzzles link that opens `json` (as [`write_rules`] writes it):
/// `https://f-puzzles.com/?load=` and the JSON compressed as f-puzzles
/// compresses it (lz-string's `compressToBase64`),
/// which [`read_pasted`] reads back.
///
/// ```
/// use dlx::sudoku::fpuzzles;
///
/// let json = fpuzzles::write(4, &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2], None);
/// let link = fpuzzles::link(&json);
/// assert!(link.starts_with("https://f-puzzles.com/?load="));
/// assert_eq!(fpuzzles::read_pasted(&link).unwrap().puzzle().givens()[15], 2);
/// ```
pub fn link(json: &str) -> String {
    format!(
        "https://f-puzzles.com/?load={}",
        super::lzstring::compress_to_base64(json)
    )
}

/// A puzzle of any rules as f-puzzles JSON, loadable into the tool: the
/// grid as [`write()`] writes it, each cell's `region` where the regions are
/// not f-puzzles' default boxes, and each constraint as its module writes
/// it (f-puzzles' own keys and shapes: `diagonal-`, `killercage` with its
/// sum as text, `thermometer`, …).
pub fn write_rules(rules: &Rules, givens: &[u8], solution: Option<&[u8]>) -> String {
    let side = rules.side();
    let h = default_box_rows(side);
    let default = Rules::boxes(h, side / h.max(1)).ok();
    let jigsaw = default.as_ref().map(Rules::regions) != Some(rules.regions());
    let rows: Vec<Value> = (0..side)
        .map(|r| {
            let cells: Vec<Value> = (0..side)
                .map(|c| {
                    let k = r * side + c;
                    let mut cell = Map::new();
                    match (givens.get(k), solution.and_then(|s| s.get(k))) {
                        (Some(&g), _) if g != 0 => {
                            cell.insert("value".into(), Value::from(g));
                            cell.insert("given".into(), Value::Bool(true));
                        }
                        (_, Some(&d)) if d != 0 => {
                            cell.insert("value".into(), Value::from(d));
                        }
                        _ => {}
                    }
                    if jigsaw {
                        cell.insert("region".into(), Value::from(rules.regions()[k]));
                    }
                    Value::Object(cell)
                })
                .collect();
            Value::Array(cells)
        })
        .collect();
    let mut json = Map::new();
    json.insert("size".into(), Value::from(side));
    json.insert("grid".into(), Value::Array(rows));
    for c in rules.constraints() {
        c.to_fpuzzles(side, &mut json);
    }
    Value::Object(json).to_string()
}

impl Document {
    /// The puzzle to solve: the rules and the givens.
    /// The solution the document carries, checked at reading, is the
    /// puzzle's expected one ([`Puzzle::expecting`](crate::sudoku::Puzzle::expecting)).
    pub fn puzzle(&self) -> crate::sudoku::Puzzle {
        let puzzle = crate::sudoku::Puzzle::from_parts(self.rules.clone(), self.givens.clone());
        match embedded_solution(&self.json, self.rules.side()) {
            Some(solution) => puzzle.clone().expecting(solution).unwrap_or(puzzle),
            None => puzzle,
        }
    }

    /// The puzzle's JSON with `solution` (row-major digits) entered in its
    /// empty cells, as f-puzzles shows a solved grid; givens stay givens.
    pub fn with_solution(&self, solution: &[u8]) -> String {
        let mut json = self.json.clone();
        let n = self.rules.side();
        if let Some(Value::Array(rows)) = json.get_mut("grid") {
            for (r, row) in rows.iter_mut().enumerate() {
                let Value::Array(cs) = row else { continue };
                for (c, cell) in cs.iter_mut().enumerate() {
                    let k = r * n + c;
                    if let (Value::Object(o), Some(&d)) = (cell, solution.get(k)) {
                        if self.givens.get(k) == Some(&0) && d != 0 {
                            o.insert("value".into(), Value::from(d));
                        }
                    }
                }
            }
        }
        Value::Object(json).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{default_box_rows, read, FpuzzlesError};
    use crate::sudoku::rules::{check, Rules};

    /// An f-puzzles JSON of side n with `givens` (row-major) and `more`
    /// fields (already JSON, with a leading comma).
    fn json(n: usize, givens: &[u8], more: &str) -> String {
        let rows: Vec<String> = (0..n)
            .map(|r| {
                let cells: Vec<String> = (0..n)
                    .map(|c| match givens[r * n + c] {
                        0 => "{}".to_string(),
                        d => format!(r#"{{"value":{d},"given":true}}"#),
                    })
                    .collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        format!(
            r#"{{"size":{n},"title":"t","grid":[{}]{more}}}"#,
            rows.join(",")
        )
    }

    fn digits(line: &str) -> Vec<u8> {
        line.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    #[test]
    fn a_classic_grid_written_reads_back() {
        let givens = digits("1..4..1.4...2..3");
        let solution = digits("1234341243212143");
        let text = super::write(4, &givens, Some(&solution));
        let p = read(&text).unwrap();
        assert_eq!(p.givens, givens);
        assert_eq!(p.rules, Rules::boxes(2, 2).unwrap());
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["grid"][0][1]["value"], 2);
        assert_eq!(v["grid"][0][1].get("given"), None);
        assert_eq!(
            read(&super::write(4, &givens, None)).unwrap().givens,
            givens
        );
    }

    #[test]
    fn every_rule_written_reads_back() {
        use crate::sudoku::generate::variant::{Variant, VariantGenerator};
        let mut g = VariantGenerator::new(2, 3, &Variant::ALL[..2], 1).unwrap();
        let jigsaw_x = g.puzzle().unwrap();
        let mut g = VariantGenerator::new(2, 3, &[Variant::AntiKing, Variant::Killer], 1).unwrap();
        let king_killer = g.puzzle().unwrap();
        let mut g = VariantGenerator::new(2, 3, &[Variant::NonConsecutive], 1).unwrap();
        let non_consecutive = g.puzzle().unwrap();
        let mut g = VariantGenerator::new(2, 3, &[Variant::AntiKnight], 1).unwrap();
        let knight = g.puzzle().unwrap();
        let windows = Rules::boxes(2, 2)
            .unwrap()
            .extra_region(&[5, 6, 9, 10])
            .unwrap()
            .cage(&[0, 1], None)
            .unwrap();
        for (rules, givens) in [
            (jigsaw_x.rules, jigsaw_x.givens),
            (king_killer.rules, king_killer.givens),
            (non_consecutive.rules, non_consecutive.givens),
            (knight.rules, knight.givens),
            (windows, vec![0; 16]),
        ] {
            let text = super::write_rules(&rules, &givens, None);
            let back = read(&text).unwrap();
            assert_eq!(back.rules, rules, "{text}");
            assert_eq!(back.givens, givens);
        }
    }

    #[test]
    fn default_boxes_are_f_puzzles_own() {
        let sizes: Vec<(usize, usize)> = [4, 5, 6, 8, 9, 10, 12, 15, 16]
            .iter()
            .map(|&n| (n, default_box_rows(n)))
            .collect();
        assert_eq!(
            sizes,
            [
                (4, 2),
                (5, 1),
                (6, 2),
                (8, 2),
                (9, 3),
                (10, 2),
                (12, 3),
                (15, 3),
                (16, 4)
            ]
        );
        let p = read(&json(6, &[0; 36], "")).unwrap();
        assert_eq!(p.rules.regions(), Rules::boxes(2, 3).unwrap().regions());
    }

    #[test]
    fn a_classic_puzzle_reads_and_solves_and_its_solution_writes_back() {
        let line =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let givens = digits(line);
        let p = read(&json(9, &givens, "")).unwrap();
        assert_eq!(p.givens, givens);
        assert_eq!(p.rules, Rules::boxes(3, 3).unwrap());
        let (count, first) = p.rules.matrix().unwrap().count(&p.givens, 2);
        assert_eq!(count.solutions, 1);
        let solution = first.unwrap();
        check(&p.rules, &givens, &solution).unwrap();
        // Written back, the solution is in the grid and the givens stay.
        let back = p.with_solution(&solution);
        let again = read(&back).unwrap();
        assert_eq!(again.givens, givens);
        assert!(back.contains(r#""title":"t""#));
        let v: serde_json::Value = serde_json::from_str(&back).unwrap();
        assert_eq!(v["grid"][0][2]["value"], solution[2]);
    }

    #[test]
    fn flags_cages_and_extra_regions_become_rules() {
        let more = r#","diagonal+":true,"diagonal-":true,"antiking":true,"antiknight":false,
            "nonconsecutive":true,"disjointgroups":false,
            "killercage":[{"cells":["R1C1","R1C2"],"value":"3"},{"cells":["R4C4","R3C4"],"value":""}],
            "extraregion":[{"cells":["R2C2","R2C3","R3C3"]}],
            "thermometer":[],"arrow":[]"#;
        let p = read(&json(4, &[0; 16], more)).unwrap();
        let want = Rules::boxes(2, 2)
            .unwrap()
            .extra_region(&[0, 5, 10, 15])
            .unwrap()
            .extra_region(&[12, 9, 6, 3])
            .unwrap()
            .anti_king()
            .non_consecutive()
            .extra_region(&[5, 6, 10])
            .unwrap()
            .cage(&[0, 1], Some(3))
            .unwrap()
            .cage(&[15, 11], None)
            .unwrap();
        assert_eq!(p.rules, want);
        // Disjoint groups: the same place in every box.
        let p = read(&json(4, &[0; 16], r#","disjointgroups":true"#)).unwrap();
        assert_eq!(p.rules.extra_regions()[0], [0, 2, 8, 10]);
        assert_eq!(p.rules.extra_regions()[3], [5, 7, 13, 15]);
    }

    #[test]
    fn links_and_compressed_strings_read_as_the_json() {
        // `{"size":4,"grid":[[{}]]}` compressed by lz-string: a grid of one
        // row, refused for its shape after decompressing.
        let packed = "N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF8BdEooA";
        for pasted in [
            packed.to_string(),
            format!("https://www.f-puzzles.com/?load={packed}"),
            format!("https://sudokupad.app/fpuzzles{packed}"),
        ] {
            let err = super::read_pasted(&pasted).unwrap_err();
            assert_eq!(
                err,
                FpuzzlesError::Field("\"grid\" is not 4 rows".into()),
                "{pasted}"
            );
        }
        assert!(matches!(
            super::read_pasted("https://example.com/?load=!!!"),
            Err(FpuzzlesError::Json(_))
        ));
        // A 4×4 anti-king puzzle, compressed by lz-string, read as its JSON.
        let plain = r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],[{},{},{"value":3,"given":true},{}],[{},{"value":4,"given":true},{},{}],[{},{},{},{"value":2,"given":true}]],"antiking":true}"#;
        let packed = "N4IgzglgXgpiBcAWANCA5gJwgEwQbT1ADcBDAGwFc54BGVNCImAOwQBcMqBfZYHv3lwC6yQv34hSlagGZ6jFu04xxIsb0nkqCFOgWt4HboMFqB5iVO3wATPKYGjKoSJAlmbCAGsIzNEu4gA=";
        let want = super::read(plain).unwrap();
        let link = format!(
            "https://www.f-puzzles.com/?load={}",
            packed.replace('+', "%2B").replace('=', "%3D")
        );
        for pasted in [packed, &link] {
            let got = super::read_pasted(pasted).unwrap();
            assert_eq!(
                (got.rules, got.givens),
                (want.rules.clone(), want.givens.clone())
            );
        }
        assert_eq!(want.rules, Rules::boxes(2, 2).unwrap().anti_king());
    }

    #[test]
    fn what_is_not_modelled_is_refused_by_name() {
        let lockout = r#","lockout":[{"lines":[["R1C1","R1C2","R1C3"]],"value":"2"}]"#;
        assert_eq!(
            read(&json(4, &[0; 16], lockout)).unwrap_err(),
            FpuzzlesError::Unsupported("lockout".into())
        );
        let err = read(&json(
            4,
            &[0; 16],
            r#","doublearrow":[{"lines":[["R1C1","R1C2","R1C3"]]}]"#,
        ))
        .unwrap_err();
        assert!(
            err.to_string().contains("`doublearrow` is not supported"),
            "{err}"
        );
        let negative = r#","negative":["xv","sum"]"#;
        assert_eq!(
            read(&json(4, &[0; 16], negative)).unwrap_err(),
            FpuzzlesError::Unsupported("negative \"sum\"".into())
        );
        let bad_cell = r#","extraregion":[{"cells":["R5C1"]}]"#;
        assert!(matches!(
            read(&json(4, &[0; 16], bad_cell)),
            Err(FpuzzlesError::Field(_))
        ));
        let bad_sum = r#","killercage":[{"cells":["R1C1","R1C2"],"value":"x"}]"#;
        assert!(matches!(
            read(&json(4, &[0; 16], bad_sum)),
            Err(FpuzzlesError::Field(_))
        ));
        let impossible = r#","killercage":[{"cells":["R1C1","R1C2"],"value":"99"}]"#;
        assert!(matches!(
            read(&json(4, &[0; 16], impossible)),
            Err(FpuzzlesError::Rules(_))
        ));
        assert!(matches!(read("[1,2]"), Err(FpuzzlesError::Json(_))));
        assert!(matches!(read("{\"size\":4}"), Err(FpuzzlesError::Field(_))));
    }
}
