//! SudokuPad's drawing read as rules: which drawn element means which
//! constraint, by SudokuPad's drawing conventions and the words of the
//! rules text.
//!
//! SudokuPad stores what a puzzle looks like, not its rules: `lines` (a
//! polyline through cell centres, a colour), `arrows` (the same with a
//! head), `cages` (cells, perhaps a value), `overlays` and `underlays`
//! (rectangles or circles, filled, bordered, perhaps with text). Points
//! are `[row, column]` in cells, a cell's centre at `r + 0.5, c + 0.5`.
//! Setters draw by conventions, and the rules text says what the rest
//! means. Read here, each into the f-puzzles entry the constraint registry
//! reads (so SudokuPad adds no second reader of constraints):
//!
//! * a cage: a killer cage (its value the sum, none when blank), when the
//!   rules speak of cages and do not let digits repeat in them; a product
//!   cage where its value is marked `×24` (or `x24`, `*24`), or where the
//!   text gives cages products and no sums;
//! * an arrow leaving a circle or a pill (a rounded shape over one or more
//!   cells), or a line ending in one, when the rules speak of arrows: an
//!   arrow, its shaft the cells the line passes;
//! * an arrow from outside the grid with a number beside it: a little
//!   killer along that diagonal, when the rules speak of diagonals;
//! * a line with a filled circle (a bulb) on one end, when the rules speak
//!   of thermometers: a thermometer from the bulb (slow when they say
//!   digits may stay the same);
//! * any other line, by the sentence of the rules text that names its
//!   colour (or, for the only kind of line drawn, the only kind the text
//!   names): renban, German or Dutch whispers (their gap from the text),
//!   palindrome, region sum line (its cells grouped by the puzzle's
//!   regions, which the caller adds as f-puzzles' `grid`), entropic and
//!   modular lines, zipper lines (a mark on the middle read with them);
//! * a small circle on the edge between two cells: a Kropki dot (white:
//!   consecutive, black: one double the other), and an `X` or `V` there:
//!   XV; "all … are given" makes them negative;
//! * a circle or square filling a cell, when a sentence says such shapes
//!   hold odd (or even) digits; circles the text counts ("a digit in a
//!   circle says how many circles hold it"): counting circles, all of
//!   them one constraint;
//! * anti-knight and anti-king from the rules text.
//!
//! Invariant: every visible element gets one meaning or the reading is
//! refused, naming the element and where it is; nothing is left out
//! silently. The reading is an interpretation of a drawing: the caller
//! checks it against the solution the link carries.

use serde_json::{Map, Value};

use crate::sudoku::constraints::{cell_name, object, push_entry};

/// A point `(row, column)` in cells.
type Point = (f64, f64);

/// A thermometer read: its cells from the bulb, and its colour.
type Thermometer = (Vec<(usize, usize)>, Option<Rgba>);

/// How far a drawn point may stray from where a convention puts it.
const SLACK: f64 = 0.06;

/// A colour, red, green, blue and opacity.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rgba([u8; 4]);

impl Rgba {
    /// SudokuPad's colours: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, the
    /// `#` optional, and its compact `#F` / `#0` (one digit repeated).
    fn of(v: &Value) -> Option<Rgba> {
        let text = v.as_str()?.trim();
        let hex = text.strip_prefix('#').unwrap_or(text);
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let digit = |i: usize| u8::from_str_radix(&hex[i..=i], 16).ok();
        let pair = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        let [r, g, b, a] = match hex.len() {
            1 => {
                let d = digit(0)? * 17;
                [d, d, d, 255]
            }
            3 => [digit(0)? * 17, digit(1)? * 17, digit(2)? * 17, 255],
            4 => [
                digit(0)? * 17,
                digit(1)? * 17,
                digit(2)? * 17,
                digit(3)? * 17,
            ],
            6 => [pair(0)?, pair(2)?, pair(4)?, 255],
            8 => [pair(0)?, pair(2)?, pair(4)?, pair(6)?],
            _ => return None,
        };
        Some(Rgba([r, g, b, a]))
    }

    fn visible(self) -> bool {
        self.0[3] > 0
    }

    /// The colour as seen over white (its opacity blended in).
    fn on_white(self) -> [f64; 3] {
        let a = f64::from(self.0[3]) / 255.0;
        [0, 1, 2].map(|i| 1.0 - a * (1.0 - f64::from(self.0[i]) / 255.0))
    }

    /// The words a rules text may call this colour by.
    fn words(self) -> &'static [&'static str] {
        let [r, g, b] = self.on_white();
        let (max, min) = (r.max(g).max(b), r.min(g).min(b));
        if max - min < 0.15 {
            return if min > 0.92 {
                &["white"]
            } else if max < 0.25 {
                &["black"]
            } else {
                &["grey", "gray"]
            };
        }
        let d = max - min;
        let hue = if max == r {
            60.0 * ((g - b) / d).rem_euclid(6.0)
        } else if max == g {
            60.0 * ((b - r) / d + 2.0)
        } else {
            60.0 * ((r - g) / d + 4.0)
        };
        match hue {
            h if !(15.0..345.0).contains(&h) => &["red"],
            h if h < 45.0 => &["orange", "peach", "brown", "tan"],
            h if h < 70.0 => &["yellow", "gold"],
            h if h < 165.0 => &["green", "lime"],
            h if h < 200.0 => &["blue", "turquoise", "teal", "cyan", "aqua"],
            h if h < 255.0 => &["blue", "navy"],
            h if h < 290.0 => &["purple", "lavender", "violet", "lilac"],
            _ => &["pink", "purple", "magenta", "violet"],
        }
    }

    /// Whether the two look the same over white.
    fn like(self, other: Rgba) -> bool {
        let (a, b) = (self.on_white(), other.on_white());
        (0..3).all(|i| (a[i] - b[i]).abs() < 0.05)
    }

    fn is_white(self) -> bool {
        self.words() == ["white"]
    }

    fn is_black(self) -> bool {
        self.words() == ["black"]
    }

    fn hex(self) -> String {
        let [r, g, b, _] = self.0;
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

/// A rectangle or circle of `overlays` or `underlays`.
struct Shape {
    key: &'static str,
    index: usize,
    center: Point,
    width: f64,
    height: f64,
    rounded: bool,
    fill: Option<Rgba>,
    border: Option<Rgba>,
    text: String,
}

impl Shape {
    fn of(key: &'static str, index: usize, v: &Value) -> Option<Shape> {
        let colour = |k: &str| v.get(k).and_then(Rgba::of).filter(|c| c.visible());
        let text = match v.get("text") {
            Some(Value::String(s)) => s.trim().to_string(),
            Some(Value::Number(x)) => x.to_string(),
            _ => String::new(),
        };
        Some(Shape {
            key,
            index,
            center: point(v.get("center")?)?,
            width: v.get("width").and_then(Value::as_f64).unwrap_or(1.0),
            height: v.get("height").and_then(Value::as_f64).unwrap_or(1.0),
            rounded: match v.get("rounded") {
                Some(Value::Bool(b)) => *b,
                Some(Value::Number(x)) => x.as_f64().is_some_and(|x| x != 0.0),
                _ => false,
            },
            fill: colour("backgroundColor"),
            border: colour("borderColor"),
            text,
        })
    }

    /// Whether it shows on the grid: a fill, a border or a text, but not a
    /// white fill alone (white on white: Sudoku Maker tints every cell so).
    fn visible(&self) -> bool {
        let white_alone =
            self.fill.is_some_and(Rgba::is_white) && self.border.is_none() && self.text.is_empty();
        (self.fill.is_some() || self.border.is_some() || !self.text.is_empty()) && !white_alone
    }

    /// Whether `p` lies on or within the shape.
    fn holds(&self, p: Point) -> bool {
        (p.0 - self.center.0).abs() <= self.height / 2.0 + SLACK
            && (p.1 - self.center.1).abs() <= self.width / 2.0 + SLACK
    }

    /// The cells of an `n`×`n` grid whose centres it covers.
    fn cells(&self, n: usize) -> Vec<usize> {
        (0..n * n)
            .filter(|&k| {
                let (r, c) = ((k / n) as f64 + 0.5, (k % n) as f64 + 0.5);
                (r - self.center.0).abs() < self.height / 2.0
                    && (c - self.center.1).abs() < self.width / 2.0
            })
            .collect()
    }

    /// A circle that marks a cell or a few (a bulb, an arrow's circle or
    /// pill): rounded, most of a cell across.
    fn is_circle(&self) -> bool {
        self.rounded && self.text.is_empty() && self.width >= 0.5 && self.height >= 0.5
    }

    fn place(&self) -> String {
        format!(
            "`{}` {} at ({}, {})",
            self.key,
            self.index + 1,
            self.center.0,
            self.center.1
        )
    }
}

/// A polyline of `lines` or `arrows`.
struct Stroke {
    key: &'static str,
    index: usize,
    points: Vec<Point>,
    colour: Option<Rgba>,
}

impl Stroke {
    fn of(key: &'static str, index: usize, v: &Value) -> Option<Stroke> {
        let points = v
            .get("wayPoints")?
            .as_array()?
            .iter()
            .map(point)
            .collect::<Option<Vec<_>>>()?;
        (points.len() >= 2).then(|| Stroke {
            key,
            index,
            points,
            colour: v.get("color").and_then(Rgba::of),
        })
    }

    fn place(&self) -> String {
        let (first, last) = (self.points[0], self.points[self.points.len() - 1]);
        format!(
            "`{}` {} (from ({}, {}) to ({}, {}))",
            self.key,
            self.index + 1,
            first.0,
            first.1,
            last.0,
            last.1
        )
    }
}

fn point(v: &Value) -> Option<Point> {
    let a = v.as_array()?;
    match a.as_slice() {
        [r, c] => Some((r.as_f64()?, c.as_f64()?)),
        _ => None,
    }
}

/// The cell whose centre `p` is, within [`SLACK`].
fn centre_cell(p: Point, n: usize) -> Option<(usize, usize)> {
    let (r, c) = (p.0 - 0.5, p.1 - 0.5);
    let near = |x: f64| (x - x.round()).abs() <= SLACK && x.round() >= 0.0;
    (near(r) && near(c))
        .then(|| (r.round() as usize, c.round() as usize))
        .filter(|&(r, c)| r < n && c < n)
}

/// The cell a line's end `p` stands for: the cell whose centre it is, or
/// the one it lies well inside (a fifth of a cell or more from each edge:
/// never a point on or near an edge, which could be either cell's).
fn end_cell(p: Point, n: usize) -> Option<(usize, usize)> {
    centre_cell(p, n).or_else(|| {
        let inner = |x: f64| x - x.floor() >= 0.2 && x.ceil() - x >= 0.2;
        cell_at(p, n).filter(|_| inner(p.0) && inner(p.1))
    })
}

/// The cell `p` lies in, when inside the grid.
fn cell_at(p: Point, n: usize) -> Option<(usize, usize)> {
    let inside = |x: f64| x >= 0.0 && x < n as f64;
    (inside(p.0) && inside(p.1)).then(|| (p.0.floor() as usize, p.1.floor() as usize))
}

/// The cells from `start` through the centres `points`, each segment
/// straight along a row, column or diagonal: every cell passed once in
/// order. `None` when a point is no cell's centre or a segment bends.
fn walk(start: (usize, usize), points: &[Point], n: usize) -> Option<Vec<(usize, usize)>> {
    let mut cells = vec![start];
    let mut at = start;
    for &p in points {
        let to = centre_cell(p, n)?;
        let (dr, dc) = (to.0 as isize - at.0 as isize, to.1 as isize - at.1 as isize);
        if dr != 0 && dc != 0 && dr.abs() != dc.abs() {
            return None;
        }
        let steps = dr.abs().max(dc.abs());
        for i in 1..=steps {
            let cell = (
                (at.0 as isize + dr.signum() * i) as usize,
                (at.1 as isize + dc.signum() * i) as usize,
            );
            cells.push(cell);
        }
        at = to;
    }
    Some(cells)
}

/// The rules text, lower case, in sentences.
struct Text {
    sentences: Vec<String>,
}

impl Text {
    fn new(rules: &str) -> Text {
        let lower = rules.to_lowercase().replace(['’', '‘'], "'");
        let sentences = lower
            .split(['.', '\n', ';', '!', '?', '•'])
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        Text { sentences }
    }

    fn says(&self, word: &str) -> bool {
        self.sentences.iter().any(|s| s.contains(word))
    }

    /// Whether some sentence holds every word of `all`.
    fn says_all(&self, all: &[&str]) -> bool {
        self.sentences
            .iter()
            .any(|s| all.iter().all(|w| s.contains(w)))
    }
}

/// Whether `s` has `word` as a whole word.
fn has_word(s: &str, word: &str) -> bool {
    s.split(|ch: char| !ch.is_alphanumeric()).any(|w| w == word)
}

/// Whether sentence `s` names a colour.
fn names_colour(s: &str) -> bool {
    [
        "red",
        "orange",
        "peach",
        "yellow",
        "green",
        "blue",
        "turquoise",
        "teal",
        "cyan",
        "purple",
        "lavender",
        "violet",
        "pink",
        "magenta",
        "grey",
        "gray",
        "white",
        "black",
        "brown",
    ]
    .iter()
    .any(|w| has_word(s, w))
}

/// What a line that is neither a thermometer nor an arrow may be.
#[derive(Clone, Copy, Debug, PartialEq)]
enum LineKind {
    Renban,
    Whispers(u32),
    Palindrome,
    RegionSum,
    Entropic,
    Modular,
    Zipper,
    DifferencesCount,
    Fibonacci,
    Index,
    Nabner,
    Parity,
    /// The first `k` digits add up to the last `k` (`None`: half the
    /// line each): "the sum of the first two digits equals the sum of the
    /// last two".
    Ends(Option<usize>),
}

impl LineKind {
    /// The kinds one sentence gives a line.
    fn named(s: &str, n: usize) -> Vec<LineKind> {
        let mut kinds = Vec::new();
        if s.contains("renban")
            || (s.contains("consecutive") && s.contains("line") && !s.contains("nabner"))
        {
            kinds.push(LineKind::Renban);
        }
        if s.contains("whisper")
            || (s.contains("line") && s.contains("differ") && !s.contains("same differ"))
        {
            let gap = number_after(s, "at least ")
                .or_else(|| number_before(s, " or more"))
                .or_else(|| s.contains("dutch").then_some(4))
                .or_else(|| (s.contains("german") && n == 9).then_some(5));
            if let Some(gap) = gap {
                kinds.push(LineKind::Whispers(gap));
            }
        }
        if s.contains("palindrome") {
            kinds.push(LineKind::Palindrome);
        }
        if s.contains("entropic") {
            kinds.push(LineKind::Entropic);
        }
        if s.contains("zipper") {
            kinds.push(LineKind::Zipper);
        }
        if s.contains("modular") {
            kinds.push(LineKind::Modular);
        }
        if s.contains("difference") && s.contains("how many") {
            kinds.push(LineKind::DifferencesCount);
        }
        if s.contains("fibonacci") {
            kinds.push(LineKind::Fibonacci);
        }
        if s.contains("index line") {
            kinds.push(LineKind::Index);
        }
        if s.contains("nabner") {
            kinds.push(LineKind::Nabner);
        }
        if s.contains("parity line")
            || (s.contains("line") && s.contains("alternate") && s.contains("odd"))
        {
            kinds.push(LineKind::Parity);
        }
        // The first digits against the last: "first two … last two",
        // "first half … second half".
        let ends = [("two", 2), ("three", 3), ("four", 4)]
            .into_iter()
            .find(|(w, _)| s.contains(&format!("first {w}")) && s.contains(&format!("last {w}")))
            .map(|(_, k)| Some(k))
            .or_else(|| (s.contains("first half") && s.contains("second half")).then_some(None));
        if let Some(k) = ends.filter(|_| s.contains("line") && s.contains("sum")) {
            kinds.push(LineKind::Ends(k));
        }
        if s.contains("region sum")
            || (s.contains("line")
                && s.contains("sum")
                && (s.contains("region") || s.contains("box"))
                && (s.contains("same") || s.contains("equal")))
        {
            kinds.push(LineKind::RegionSum);
        }
        kinds
    }

    fn key(self) -> &'static str {
        match self {
            LineKind::Renban => "renban",
            LineKind::Whispers(_) => "whispers",
            LineKind::Palindrome => "palindrome",
            LineKind::RegionSum => "regionsumline",
            LineKind::Entropic => "entropicline",
            LineKind::Modular => "modularline",
            LineKind::Zipper => "zipperline",
            LineKind::DifferencesCount => "differencescountline",
            LineKind::Fibonacci => "fibonacciline",
            LineKind::Index => "indexline",
            LineKind::Nabner => "nabnerline",
            LineKind::Parity => "parityline",
            LineKind::Ends(_) => "equalsums",
        }
    }
}

fn number_after(s: &str, before: &str) -> Option<u32> {
    let rest = &s[s.find(before)? + before.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

fn number_before(s: &str, after: &str) -> Option<u32> {
    let head = &s[..s.find(after)?];
    let digits: String = head
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    digits.parse().ok()
}

/// The drawing of an `n`×`n` puzzle (`json`, keys written out) and its
/// rules text, read into f-puzzles' constraint entries; or why not.
pub(super) fn read(
    json: &Map<String, Value>,
    n: usize,
    rules: &str,
) -> Result<Map<String, Value>, String> {
    let text = Text::new(rules);
    let list = |key: &str| {
        json.get(key)
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
    };
    let mut shapes = Vec::new();
    for key in ["overlays", "underlays"] {
        for (i, v) in list(key).iter().enumerate() {
            let shape =
                Shape::of(key, i, v).ok_or_else(|| format!("`{key}` {}: no centre", i + 1))?;
            if shape.visible() {
                shapes.push(shape);
            }
        }
    }
    let mut used = vec![false; shapes.len()];
    let mut out = Map::new();
    let name = |(r, c): (usize, usize)| Value::from(cell_name(r * n + c, n));
    let names = |cells: &[(usize, usize)]| names(cells, n);
    let push = push_entry;

    // Cages: their values sums, or products where the text says so.
    let cage_products = text.says_all(&["cage", "product"]) || text.says_all(&["cage", "multipl"]);
    let cage_sums = text.says_all(&["cage", "sum"]) || text.says_all(&["cage", "add up"]);
    for (i, cage) in list("cages").iter().enumerate() {
        let place = format!("`cages` {}", i + 1);
        let cells = cage
            .get("cells")
            .and_then(Value::as_array)
            .filter(|c| !c.is_empty())
            .ok_or_else(|| format!("{place}: a cage without cells"))?
            .iter()
            .map(|v| {
                let p = point(v)?;
                let (r, c) = (p.0 as usize, p.1 as usize);
                (p.0 >= 0.0 && p.1 >= 0.0 && p.0.fract() == 0.0 && p.1.fract() == 0.0)
                    .then_some((r, c))
                    .filter(|&(r, c)| r < n && c < n)
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| format!("{place}: a cell outside the grid"))?;
        if !text.says("cage") {
            return Err(format!(
                "{place}: a cage, and the rules text says nothing of cages"
            ));
        }
        if text.says_all(&["cage", "may repeat"]) || text.says_all(&["cage", "can repeat"]) {
            return Err(format!(
                "{place}: cages whose digits may repeat are not read yet"
            ));
        }
        let mut entry = Map::new();
        entry.insert("cells".into(), names(&cells));
        let mut key = "killercage";
        match cage.get("value") {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s.trim().is_empty() => {}
            Some(v) => {
                // A product: marked `×24` (or `x24`, `*24`), or every cage's
                // by the text.
                let text_v = v.as_str().map(str::trim);
                let marked = text_v.and_then(|s| s.strip_prefix(['×', 'x', 'X', '*']));
                let product = match marked {
                    Some(_) => true,
                    None if cage_products && cage_sums => {
                        return Err(format!(
                            "{place}: the rules text gives cages sums and products, and this \
                             value says not which"
                        ))
                    }
                    None => cage_products,
                };
                let value = v
                    .as_u64()
                    .or_else(|| marked.or(text_v).and_then(|s| s.trim().parse().ok()))
                    .ok_or_else(|| {
                        let what = if product { "product" } else { "sum" };
                        format!("{place}: the value {v} is no {what}")
                    })?;
                if product {
                    key = "productcage";
                }
                entry.insert("value".into(), Value::from(value.to_string()));
            }
        }
        push(&mut out, key, Value::Object(entry));
    }

    // Arrows: from a circle (an arrow) or from outside (a little killer,
    // or a diagonal whose product is every marked diagonal's).
    let products = text.says("product") && text.says("same");
    let mut diagonals: Vec<Value> = Vec::new();
    for (i, v) in list("arrows").iter().enumerate() {
        let stroke = Stroke::of("arrows", i, v)
            .ok_or_else(|| format!("`arrows` {}: no way points", i + 1))?;
        let start = stroke.points[0];
        match cell_at(start, n) {
            Some(cell) => {
                let entry = arrow(&stroke, cell, &shapes, &mut used, &text, n)?;
                push(&mut out, "arrow", entry);
            }
            None if products => {
                let place = stroke.place();
                let from = (start.0.floor() as isize, start.1.floor() as isize);
                let cells = diagonal(&stroke, from, n).map_err(|why| format!("{place}: {why}"))?;
                diagonals.push(Value::Array(cells));
            }
            None => {
                let entry = little_killer(&stroke, &shapes, &mut used, &text, n)?;
                push(&mut out, "littlekillersum", entry);
            }
        }
    }
    if !diagonals.is_empty() {
        let mut entry = Map::new();
        entry.insert("lines".into(), Value::Array(diagonals));
        push(&mut out, "equalproducts", Value::Object(entry));
    }

    // Lines: thermometers (a bulb on one end), arrows drawn without a head
    // (a circle on one end), then the rest by their colour's sentence.
    let strokes = list("lines")
        .iter()
        .enumerate()
        .map(|(i, v)| {
            Stroke::of("lines", i, v).ok_or_else(|| format!("`lines` {}: no way points", i + 1))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut others = Vec::new();
    let mut tips: Vec<(Point, Option<Rgba>)> = Vec::new();
    let mut thermometers: Vec<Thermometer> = Vec::new();
    for stroke in strokes {
        let ends = [stroke.points[0], stroke.points[stroke.points.len() - 1]];
        let at_end = |want: &dyn Fn(&Shape) -> bool| {
            (0..2).find_map(|e| {
                shapes
                    .iter()
                    .position(|s| want(s) && centre_cell(ends[e], n).is_some() && s.holds(ends[e]))
                    .map(|s| (e, s))
            })
        };
        // A bulb is filled with the line's colour; an arrow's circle is
        // white inside, bordered with it.
        let same = |c: Option<Rgba>| c.zip(stroke.colour).is_some_and(|(a, b)| a.like(b));
        let bulb = at_end(&|s: &Shape| s.is_circle() && same(s.fill));
        let circle = at_end(&|s: &Shape| {
            s.is_circle() && s.fill.is_none_or(Rgba::is_white) && same(s.border)
        });
        if let (Some((end, s)), true) = (bulb, text.says("thermo")) {
            used[s] = true;
            let mut points = stroke.points.clone();
            if end == 1 {
                points.reverse();
            }
            let first = centre_cell(points[0], n)
                .ok_or_else(|| format!("{}: its bulb is not on a cell", stroke.place()))?;
            let cells = walk(first, &points[1..], n)
                .ok_or_else(|| format!("{}: not a line through cells", stroke.place()))?;
            thermometers.push((cells, stroke.colour));
        } else if let (Some((end, _)), true) = (circle, text.says("arrow")) {
            let mut stroke = stroke;
            if end == 1 {
                stroke.points.reverse();
            }
            let cell = centre_cell(stroke.points[0], n)
                .ok_or_else(|| format!("{}: its circle is not on a cell", stroke.place()))?;
            let entry = arrow(&stroke, cell, &shapes, &mut used, &text, n)?;
            push(&mut out, "arrow", entry);
            tips.push((stroke.points[stroke.points.len() - 1], stroke.colour));
        } else {
            others.push(stroke);
        }
    }
    // A thermometer's branch: a line of its colour from one of its cells
    // on, the thermometer up to that cell and then the line.
    while let Some((i, path)) = others
        .iter()
        .enumerate()
        .find_map(|(i, stroke)| branch(stroke, &thermometers, n).map(|path| (i, path)))
    {
        let stroke = others.remove(i);
        thermometers.push((path, stroke.colour));
    }
    if !thermometers.is_empty() {
        let slow = text.sentences.iter().any(|s| {
            s.contains("thermo")
                && (s.contains("stay the same")
                    || s.contains("remain the same")
                    || s.contains("slow")
                    || s.contains("or equal")
                    || s.contains("non-decreas"))
        });
        let key = if slow {
            "slowthermometer"
        } else {
            "thermometer"
        };
        for (cells, _) in &thermometers {
            push(
                &mut out,
                key,
                object([("lines", Value::Array(vec![names(cells)]))]),
            );
        }
    }
    // The head of an arrow drawn as a line: short strokes of its colour
    // around its tip.
    others.retain(|stroke| {
        !tips.iter().any(|&(tip, colour)| {
            colour == stroke.colour
                && stroke
                    .points
                    .iter()
                    .all(|p| (p.0 - tip.0).abs() <= 0.4 && (p.1 - tip.1).abs() <= 0.4)
        })
    });
    read_lines(&others, &text, n, &shapes, &mut used, &mut out)?;

    // Dots and XV on edges, parity shapes in cells.
    let mut negative: Vec<&str> = Vec::new();
    let mut counted: Vec<Value> = Vec::new();
    let mut knights: Vec<Value> = Vec::new();
    let mut negative_sums: Vec<u32> = Vec::new();
    for (s, shape) in shapes.iter().enumerate() {
        if used[s] {
            continue;
        }
        let place = shape.place();
        let cells = if let Some(pair) = edge_cells(shape.center, n) {
            pair
        } else if let Some(cell) = centre_cell(shape.center, n) {
            if shape.text.starts_with('\u{2600}') && text.says("sun") && text.says("smaller") {
                // A sun (☀): how many cells around it hold smaller digits.
                let mut entry = Map::new();
                entry.insert("cell".into(), name(cell));
                push(&mut out, "sunburn", Value::Object(entry));
                continue;
            }
            let kind = if shape.rounded { "circle" } else { "square" };
            if !shape.text.is_empty() || shape.width < 0.4 || shape.width > 1.05 {
                return Err(format!("{place}: a mark whose rule is not read"));
            }
            let odd = text.says_all(&[kind, "odd"]);
            let even = text.says_all(&[kind, "even"]);
            let counting = kind == "circle"
                && ["how many", "counting", "exactly"]
                    .iter()
                    .any(|w| text.says_all(&["circle", w]));
            // "A digit in a circle must belong to the same entropic group
            // … as every cell a knight's move away."
            let knight = kind == "circle"
                && text.says_all(&["circle", "knight"])
                && (text.says("entropic") || text.says("group"));
            let key = match (odd, even, counting || knight) {
                (true, false, _) => "odd",
                (false, true, _) => "even",
                (false, false, true) if knight && !counting => {
                    knights.push(name(cell));
                    continue;
                }
                (false, false, true) => {
                    counted.push(name(cell));
                    continue;
                }
                _ => {
                    return Err(format!(
                        "{place}: a {kind} whose rule the text does not tell (odd, even, \
                         counting)"
                    ))
                }
            };
            let mut entry = Map::new();
            entry.insert("cell".into(), name(cell));
            push(&mut out, key, Value::Object(entry));
            continue;
        } else if let Some(cell) = outside_cell(shape.center, n) {
            // A number outside the grid: a clue of the one kind the text
            // names for such clues.
            let (key, value) =
                outside_clue(&text, &shape.text, n).map_err(|why| format!("{place}: {why}"))?;
            let mut entry = Map::new();
            entry.insert(
                "cell".into(),
                Value::from(format!("R{}C{}", cell.0, cell.1)),
            );
            entry.insert("value".into(), Value::from(value.to_string()));
            push(&mut out, key, Value::Object(entry));
            continue;
        } else {
            return Err(format!("{place}: a mark whose rule is not read"));
        };
        let mark = shape.text.to_ascii_uppercase();
        // A coloured mark whose colour's sentence gives its sums ("the
        // green dots are either X or V", "a blue square sums to 7").
        let coloured = shape.fill.filter(|f| !f.is_white() && !f.is_black());
        if let Some((fill, sums)) = coloured
            .filter(|_| mark.is_empty() && shape.width <= 0.5)
            .and_then(|f| Some((f, marked_sums(&text, f)?)))
        {
            let mut entry = Map::new();
            entry.insert("cells".into(), names(&cells));
            let list = sums.iter().map(|&s| Value::from(s)).collect();
            entry.insert("value".into(), Value::Array(list));
            push(&mut out, "summark", Value::Object(entry));
            let all = |s: &String| {
                has_word(s, "all")
                    && s.contains("given")
                    && !has_word(s, "not")
                    && fill.words().iter().any(|w| has_word(s, w))
            };
            if let ([sum], true) = (sums.as_slice(), text.sentences.iter().any(all)) {
                if !negative_sums.contains(sum) {
                    negative_sums.push(*sum);
                }
            }
            continue;
        }
        let (key, value) = match mark.as_str() {
            "X" | "V"
                if text
                    .sentences
                    .iter()
                    .any(|s| has_word(s, "x") || has_word(s, "v")) =>
            {
                ("xv", Some(mark.clone()))
            }
            "" if shape.rounded && shape.width <= 0.5 && text.says("dot") => match shape.fill {
                Some(f) if f.is_black() => ("ratio", None),
                Some(f) if f.is_white() => ("difference", None),
                None if shape.border.is_some() => ("difference", None),
                _ => return Err(format!("{place}: a dot neither white nor black")),
            },
            _ => return Err(format!("{place}: a mark whose rule is not read")),
        };
        let mut entry = Map::new();
        entry.insert("cells".into(), names(&cells));
        if let Some(v) = value {
            entry.insert("value".into(), Value::from(v));
        }
        push(&mut out, key, Value::Object(entry));
        if let Some(given) = all_given(&text, key) {
            if !negative.contains(&given) {
                negative.push(given);
            }
        }
    }
    if !counted.is_empty() {
        let mut entry = Map::new();
        entry.insert("cells".into(), Value::Array(counted));
        push(&mut out, "countingcircles", Value::Object(entry));
    }
    for sum in negative_sums {
        push(&mut out, "negativesum", Value::from(sum));
    }
    if !knights.is_empty() {
        let mut entry = Map::new();
        entry.insert("cells".into(), Value::Array(knights));
        push(&mut out, "knightcircles", Value::Object(entry));
    }
    if !negative.is_empty() {
        out.insert(
            "negative".into(),
            Value::Array(negative.into_iter().map(Value::from).collect()),
        );
    }

    // Rules told in words alone.
    let forbids = |piece: &str| {
        text.sentences.iter().any(|s| {
            s.contains(piece)
                && [
                    "cannot",
                    "can't",
                    "may not",
                    "must not",
                    "not contain",
                    "not be",
                    "never",
                ]
                .iter()
                .any(|w| s.contains(w))
        }) || text.says(&format!("anti-{piece}"))
            || text.says(&format!("anti{piece}"))
    };
    if forbids("knight") {
        out.insert("antiknight".into(), Value::Bool(true));
    }
    if forbids("king") {
        out.insert("antiking".into(), Value::Bool(true));
    }
    // "In every row and column, strings of 3 digits are never all even nor
    // all odd."
    for s in &text.sentences {
        let said = s.contains("all even")
            && s.contains("all odd")
            && (s.contains("row") || s.contains("column"))
            && ["never", "not", "cannot"].iter().any(|w| has_word(s, w));
        let length = number_after(s, "strings of ")
            .or_else(|| number_after(s, "runs of "))
            .or_else(|| number_before(s, " consecutive"));
        if let (true, Some(length)) = (said, length) {
            out.insert("paritystrings".into(), Value::from(length));
        }
    }
    Ok(out)
}

/// The clue cell `(r, c)` (1-based, 0 and n + 1 outside the grid) of a
/// point just outside the grid beside a row or a column.
fn outside_cell(p: Point, n: usize) -> Option<(usize, usize)> {
    let (r, c) = (p.0.floor() + 1.0, p.1.floor() + 1.0);
    let (r, c) = (
        (r >= 0.0).then_some(r as usize)?,
        (c >= 0.0).then_some(c as usize)?,
    );
    crate::sudoku::constraints::Look::at(r, c, n).map(|_| (r, c))
}

/// The f-puzzles key and value of a number `mark` outside the grid: the
/// one kind of clue outside the grid the rules text names (sandwiches
/// only between the 1 and the n), or why not.
fn outside_clue(text: &Text, mark: &str, n: usize) -> Result<(&'static str, u32), String> {
    let value: u32 = mark
        .parse()
        .map_err(|_| format!("a mark `{mark}` outside the grid that is no number"))?;
    let crusts = |s: &String| {
        let words: Vec<&str> = s
            .split(|ch: char| !ch.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        words.contains(&"1") && words.contains(&n.to_string().as_str())
    };
    // Each kind by the words naming it; a sentence naming one that speaks
    // of a loop ("loopy numbered rooms": counted along a loop the solver
    // draws) twists it.
    let named = [
        (&["sandwich"][..], "sandwichsum"),
        (&["skyscraper"], "skyscraper"),
        (&["x-sum", "x sum"], "xsum"),
        (&["numbered room"], "numberedroom"),
    ];
    let mut kinds: Vec<&'static str> = Vec::new();
    for (words, key) in named {
        let naming: Vec<&String> = text
            .sentences
            .iter()
            .filter(|s| words.iter().any(|w| s.contains(w)))
            .collect();
        if naming.iter().any(|s| s.contains("loop")) {
            return Err(format!(
                "a clue outside the grid, and the rules text twists its kind ({key}) with a loop"
            ));
        }
        if !naming.is_empty() {
            kinds.push(key);
        }
    }
    match kinds.as_slice() {
        ["sandwichsum"]
            if !text
                .sentences
                .iter()
                .any(|s| s.contains("sandwich") && crusts(s)) =>
        {
            Err(format!(
                "a sandwich clue whose crusts are not the 1 and the {n}"
            ))
        }
        [key] => Ok((key, value)),
        [] => Err("a clue outside the grid whose rule is not read".into()),
        _ => Err("a clue outside the grid, and the rules text gives several kinds".into()),
    }
}

/// The thermometer `stroke` branches off: one of `thermometers` of its
/// colour holding the cell of one of its ends, up to that cell, then the
/// stroke's cells from there.
fn branch(stroke: &Stroke, thermometers: &[Thermometer], n: usize) -> Option<Vec<(usize, usize)>> {
    for end in 0..2 {
        let mut points = stroke.points.clone();
        if end == 1 {
            points.reverse();
        }
        let start = centre_cell(points[0], n)?;
        for (cells, colour) in thermometers {
            let same = colour.zip(stroke.colour).is_some_and(|(a, b)| a.like(b));
            if let Some(i) = cells.iter().position(|&c| c == start).filter(|_| same) {
                let rest = walk(start, &points[1..], n)?;
                let mut path = cells[..=i].to_vec();
                path.extend_from_slice(&rest[1..]);
                return Some(path);
            }
        }
    }
    None
}

/// Cells `(row, column)` as f-puzzles names them, a JSON array.
fn names(cells: &[(usize, usize)], n: usize) -> Value {
    Value::Array(
        cells
            .iter()
            .map(|&(r, c)| Value::from(cell_name(r * n + c, n)))
            .collect(),
    )
}

/// The two cells either side of the edge whose middle is `p`.
fn edge_cells(p: Point, n: usize) -> Option<Vec<(usize, usize)>> {
    let whole = |x: f64| (x - x.round()).abs() <= SLACK && x.round() >= 1.0 && x.round() < n as f64;
    let half = |x: f64| centre_cell((x, 0.5), n).map(|(r, _)| r);
    if whole(p.0) {
        let (r, c) = (p.0.round() as usize, half(p.1)?);
        Some(vec![(r - 1, c), (r, c)])
    } else if whole(p.1) {
        let (r, c) = (half(p.0)?, p.1.round() as usize);
        Some(vec![(r, c - 1), (r, c)])
    } else {
        None
    }
}

/// Whether the rules text says every mark of `key` is given, as f-puzzles'
/// `negative` names it (`None`: not said): a sentence with "all" and
/// "given" and no "not", naming the marks or following the sentence that
/// does. For XV, the marks that sentence names: `xv`, or `x` or `v` alone.
fn all_given(text: &Text, key: &str) -> Option<&'static str> {
    let xv = |s: &str| {
        let both = has_word(s, "xv") || has_word(s, "xvs");
        (
            both || has_word(s, "x") || has_word(s, "xs"),
            both || has_word(s, "v") || has_word(s, "vs"),
        )
    };
    let names = |s: &str| match key {
        "xv" => xv(s) != (false, false),
        _ => s.contains("dot") || s.contains("kropki"),
    };
    let mut before: Option<&str> = None;
    for s in &text.sentences {
        let all = has_word(s, "all") && s.contains("given") && !has_word(s, "not");
        let named = if names(s) { Some(s.as_str()) } else { before };
        if let (true, Some(named)) = (all, named) {
            return Some(match (key, xv(named)) {
                ("xv", (true, false)) => "x",
                ("xv", (false, true)) => "v",
                ("xv", _) => "xv",
                ("difference", _) => "difference",
                _ => "ratio",
            });
        }
        before = names(s).then_some(s.as_str());
    }
    None
}

/// The sums a mark of colour `fill` allows, from the sentence naming the
/// colour: "either X or V" (5 or 10), or "sum to N" (N).
fn marked_sums(text: &Text, fill: Rgba) -> Option<Vec<u32>> {
    text.sentences
        .iter()
        .filter(|s| fill.words().iter().any(|w| has_word(s, w)))
        .find_map(|s| {
            if s.contains("either x or v") {
                return Some(vec![5, 10]);
            }
            let n = number_after(s, "sum to ")
                .or_else(|| number_after(s, "sums to "))
                .or_else(|| number_after(s, "add up to "))?;
            Some(vec![n])
        })
}

/// An arrow whose way points start in its circle's cell `cell`, the
/// shaft through the points after the first.
fn arrow(
    stroke: &Stroke,
    cell: (usize, usize),
    shapes: &[Shape],
    used: &mut [bool],
    text: &Text,
    n: usize,
) -> Result<Value, String> {
    if !(text.says("arrow") && text.says("sum")) {
        return Err(format!(
            "{}: an arrow, and the rules text does not say its digits sum",
            stroke.place()
        ));
    }
    let start = stroke.points[0];
    let s = shapes
        .iter()
        .position(|s| s.is_circle() && s.holds(start))
        .ok_or_else(|| format!("{}: an arrow that leaves no circle", stroke.place()))?;
    used[s] = true;
    let circle: Vec<usize> = shapes[s].cells(n);
    let k = cell.0 * n + cell.1;
    if !circle.contains(&k) {
        return Err(format!(
            "{}: an arrow that leaves no circle",
            stroke.place()
        ));
    }
    let path = walk(cell, &stroke.points[1..], n)
        .ok_or_else(|| format!("{}: not a line through cells", stroke.place()))?;
    let shaft: Vec<(usize, usize)> = path
        .into_iter()
        .filter(|&(r, c)| !circle.contains(&(r * n + c)))
        .collect();
    if shaft.is_empty() {
        return Err(format!("{}: an arrow without a shaft", stroke.place()));
    }
    let circle_names: Vec<Value> = circle
        .iter()
        .map(|&k| Value::from(cell_name(k, n)))
        .collect();
    let mut line = vec![cell];
    line.extend(shaft);
    Ok(object([
        ("cells", Value::Array(circle_names)),
        ("lines", Value::Array(vec![names(&line, n)])),
    ]))
}

/// A little killer: an arrow from outside the grid along a diagonal, its
/// sum the number written where it starts.
fn little_killer(
    stroke: &Stroke,
    shapes: &[Shape],
    used: &mut [bool],
    text: &Text,
    n: usize,
) -> Result<Value, String> {
    let place = stroke.place();
    if !(text.says("diagonal") && text.says("sum")) {
        return Err(format!(
            "{place}: an arrow from outside the grid, and the rules text does not say its \
             diagonal sums"
        ));
    }
    let first = stroke.points[0];
    let s = shapes
        .iter()
        .position(|s| {
            // Outside the grid, next to it.
            let near = |x: f64| x > -1.0 && x < n as f64 + 1.0;
            !s.text.is_empty()
                && cell_at(s.center, n).is_none()
                && near(s.center.0)
                && near(s.center.1)
                && (s.center.0 - first.0).abs() <= 0.75
                && (s.center.1 - first.1).abs() <= 0.75
        })
        .ok_or_else(|| format!("{place}: an arrow from outside the grid without a number"))?;
    let sum: u32 = shapes[s]
        .text
        .parse()
        .map_err(|_| format!("{place}: the clue `{}` is no number", shapes[s].text))?;
    used[s] = true;
    let clue = (
        shapes[s].center.0.floor() as isize,
        shapes[s].center.1.floor() as isize,
    );
    let cells = diagonal(stroke, clue, n).map_err(|why| format!("{place}: {why}"))?;
    let mut entry = Map::new();
    entry.insert("cells".into(), Value::Array(cells));
    entry.insert("value".into(), Value::from(sum.to_string()));
    Ok(Value::Object(entry))
}

/// The cells of the diagonal an arrow from outside the grid marks, from
/// the square `from` (outside the grid: the clue's, or the arrow's own)
/// the way the arrow points; or why it marks none.
fn diagonal(stroke: &Stroke, from: (isize, isize), n: usize) -> Result<Vec<Value>, String> {
    let (first, last) = (stroke.points[0], stroke.points[stroke.points.len() - 1]);
    let (dr, dc) = (last.0 - first.0, last.1 - first.1);
    if dr.abs() < SLACK || dc.abs() < SLACK || (dr.abs() - dc.abs()).abs() > SLACK {
        return Err("an arrow from outside the grid not along a diagonal".into());
    }
    let (sr, sc) = (dr.signum() as isize, dc.signum() as isize);
    let (mut r, mut c) = from;
    let inside = |x: isize| x >= 0 && x < n as isize;
    let mut cells = Vec::new();
    for _ in 0..=2 * n {
        (r, c) = (r + sr, c + sc);
        if inside(r) && inside(c) {
            cells.push(Value::from(cell_name(r as usize * n + c as usize, n)));
        } else if !cells.is_empty() {
            break;
        }
    }
    if cells.is_empty() {
        return Err("its diagonal meets no cell".into());
    }
    Ok(cells)
}

/// A line of `kind` through `cells` as the lines it is read as: a
/// renban's cells once each; another line itself when open; when it
/// closes on its first cell (a loop), the cells once
/// and what the loop adds where it closes — for whispers the closing
/// pair, for entropic and modular lines the four cells around the
/// closing point (their windows of three are the loop's across it); a
/// renban or a region sum line asks nothing more. `None`: a loop of a
/// kind whose reading around it is not clear (palindromes).
fn closed(cells: Vec<(usize, usize)>, kind: LineKind) -> Option<Vec<Vec<(usize, usize)>>> {
    if matches!(kind, LineKind::Renban | LineKind::Nabner) {
        // A renban's cells are a set, a Nabner line's too: a cell the line
        // passes twice is one.
        let mut once: Vec<(usize, usize)> = Vec::new();
        for c in cells {
            if !once.contains(&c) {
                once.push(c);
            }
        }
        return Some(vec![once]);
    }
    let m = cells.len();
    if m < 4 || cells[0] != cells[m - 1] {
        return Some(vec![cells]);
    }
    let once = cells[..m - 1].to_vec();
    let l = once.len();
    let closing = match kind {
        LineKind::Whispers(_) | LineKind::Parity => vec![vec![once[l - 1], once[0]]],
        LineKind::Entropic | LineKind::Modular if l >= 4 => {
            vec![vec![once[l - 2], once[l - 1], once[0], once[1]]]
        }
        LineKind::Entropic
        | LineKind::Modular
        | LineKind::Renban
        | LineKind::Nabner
        | LineKind::RegionSum => Vec::new(),
        LineKind::Palindrome
        | LineKind::Zipper
        | LineKind::DifferencesCount
        | LineKind::Fibonacci
        | LineKind::Index
        | LineKind::Ends(_) => return None,
    };
    let mut lines = vec![once];
    lines.extend(closing);
    Some(lines)
}

/// The lines left (neither thermometers nor arrows), by the sentence
/// that names their colour, or, when they are of one colour and the text
/// names one kind of line, that kind.
fn read_lines(
    strokes: &[Stroke],
    text: &Text,
    n: usize,
    shapes: &[Shape],
    used: &mut [bool],
    out: &mut Map<String, Value>,
) -> Result<(), String> {
    let colours: Vec<Option<Rgba>> = {
        let mut seen: Vec<Option<Rgba>> = Vec::new();
        for s in strokes {
            if !seen.contains(&s.colour) {
                seen.push(s.colour);
            }
        }
        seen
    };
    let all_kinds: Vec<LineKind> = {
        let mut kinds = Vec::new();
        for s in &text.sentences {
            for k in LineKind::named(s, n) {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
        }
        kinds
    };
    // The one kind named says "a coloured line": lines of every colour.
    let any_colour = text.sentences.iter().any(|s| {
        !LineKind::named(s, n).is_empty()
            && (s.contains("coloured line") || s.contains("colored line"))
    });
    let mut renbans: Vec<Drawn> = Vec::new();
    for stroke in strokes {
        let place = stroke.place();
        let words = stroke.colour.map_or(&[][..], Rgba::words);
        let mut kinds: Vec<LineKind> = Vec::new();
        // The sentences naming the colour; one that names no kind read
        // with the next when that one names no colour ("box borders cut
        // blue lines into segments. digits on each segment sum …").
        let mut told = String::new();
        for (i, s) in text.sentences.iter().enumerate() {
            if words.iter().any(|w| has_word(s, w)) {
                let mut said = s.clone();
                let next = text.sentences.get(i + 1);
                if LineKind::named(s, n).is_empty() && next.is_some_and(|t| !names_colour(t)) {
                    said = format!("{s} {}", next.map_or("", String::as_str));
                }
                for k in LineKind::named(&said, n) {
                    if !kinds.contains(&k) {
                        kinds.push(k);
                    }
                }
                told.push_str(&said);
            }
        }
        if kinds.is_empty() && all_kinds.len() == 1 && (colours.len() == 1 || any_colour) {
            kinds = all_kinds.clone();
        }
        let kind = match kinds.as_slice() {
            [k] => *k,
            [] => {
                return Err(format!(
                    "{place}: a {} line whose rule is not read",
                    stroke.colour.map_or("plain".into(), Rgba::hex)
                ))
            }
            _ => {
                return Err(format!(
                    "{place}: the rules text gives this line several kinds"
                ))
            }
        };
        // Its ends on cells' centres, or well inside a cell (a setter
        // shortens strokes that meet at a corner: sb027's triangles).
        let mut points = stroke.points.clone();
        let last = points.len() - 1;
        for i in [0, last] {
            if let Some((r, c)) = end_cell(points[i], n) {
                points[i] = (r as f64 + 0.5, c as f64 + 0.5);
            }
        }
        let first = centre_cell(points[0], n)
            .ok_or_else(|| format!("{place}: a line that does not start on a cell"))?;
        let mut cells = walk(first, &points[1..], n)
            .ok_or_else(|| format!("{place}: not a line through cells"))?;
        if kind == LineKind::Index {
            // Places are counted from the end with the mark (a diamond).
            let mark = |cell: (usize, usize)| {
                shapes.iter().position(|shape| {
                    !shape.rounded
                        && shape.text.is_empty()
                        && centre_cell(shape.center, n) == Some(cell)
                })
            };
            let last = cells[cells.len() - 1];
            match (mark(cells[0]), mark(last)) {
                (Some(s), None) => used[s] = true,
                (None, Some(s)) => {
                    used[s] = true;
                    cells.reverse();
                }
                _ => {
                    return Err(format!(
                        "{place}: an index line without a mark on one end to count from"
                    ))
                }
            }
        }
        if kind == LineKind::Zipper {
            // The mark on its middle (a dot, a circle, a diamond).
            let m = cells.len();
            let (a, b) = (cells[(m - 1) / 2], cells[m / 2]);
            let middle = (
                (a.0 + b.0) as f64 / 2.0 + 0.5,
                (a.1 + b.1) as f64 / 2.0 + 0.5,
            );
            for (s, shape) in shapes.iter().enumerate() {
                let near = (shape.center.0 - middle.0).abs() <= SLACK
                    && (shape.center.1 - middle.1).abs() <= SLACK;
                if near && shape.text.is_empty() {
                    used[s] = true;
                }
            }
        }
        let segments = kind == LineKind::RegionSum && told.contains("segment");
        let lines = if segments {
            // Segments of a loop: the line is written closed (its first
            // cell again at its end), and the reader joins its first and
            // last runs where they are one segment.
            vec![cells]
        } else {
            closed(cells, kind)
                .ok_or_else(|| format!("{place}: a closed {} line is not read", kind.key()))?
        };
        for cells in lines {
            if let LineKind::Ends(k) = kind {
                // Its first k cells against its last k (k: half of it).
                let m = cells.len();
                let k = match k {
                    Some(k) if 2 * k <= m => k,
                    None if m % 2 == 0 => m / 2,
                    _ => {
                        return Err(format!(
                            "{place}: a line of {m} cells, and the text sums its ends \
                             over more or an odd half"
                        ))
                    }
                };
                let groups = vec![names(&cells[..k], n), names(&cells[m - k..], n)];
                let mut entry = Map::new();
                entry.insert("groups".into(), Value::Array(groups));
                push_entry(out, kind.key(), Value::Object(entry));
                continue;
            }
            if kind == LineKind::Renban {
                // Strokes of one colour that share a cell are one renban.
                renbans.push((stroke.colour, cells));
                continue;
            }
            let mut entry = Map::new();
            entry.insert("lines".into(), Value::Array(vec![names(&cells, n)]));
            if let LineKind::Whispers(gap) = kind {
                entry.insert("value".into(), Value::from(gap.to_string()));
            }
            if segments {
                // Each run of the line in a region is a group of its own.
                entry.insert("segments".into(), Value::Bool(true));
            }
            push_entry(out, kind.key(), Value::Object(entry));
        }
    }
    for cells in joined(renbans) {
        let mut entry = Map::new();
        entry.insert("lines".into(), Value::Array(vec![names(&cells, n)]));
        push_entry(out, LineKind::Renban.key(), Value::Object(entry));
    }
    Ok(())
}

/// A line drawn: its colour and its cells (row, column), in order.
type Drawn = (Option<Rgba>, Vec<(usize, usize)>);

/// The renbans drawn (each with its colour), strokes of one colour that
/// share a cell joined into one: its cells the union, each once, in the
/// order drawn.
fn joined(mut drawn: Vec<Drawn>) -> Vec<Vec<(usize, usize)>> {
    let mut out: Vec<Vec<(usize, usize)>> = Vec::new();
    while !drawn.is_empty() {
        let (colour, mut cells) = drawn.remove(0);
        // Join every stroke left that meets this one, until none does.
        while let Some(i) = drawn
            .iter()
            .position(|(c, other)| *c == colour && other.iter().any(|x| cells.contains(x)))
        {
            let (_, other) = drawn.remove(i);
            for x in other {
                if !cells.contains(&x) {
                    cells.push(x);
                }
            }
        }
        out.push(cells);
    }
    out
}
