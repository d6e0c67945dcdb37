//! Number formatting and the table models shared by the console summary (`sim tournament`,
//! `sim experiment`) and the reports (`sim report`, HTML and Markdown), so the two print
//! the same numbers the same way.
//!
//! Bottom layer (DESIGN.md §2): imports nothing from the rest of the crate.
//!
//! # Non-finite numbers
//! Two families of helpers, with two documented behaviours:
//! - **display helpers** ([`pct`], [`rate_ci`], [`num`], [`signed`]) write a NaN or an
//!   infinity as the **empty string**: a table cell with no number (a column missing from
//!   an older CSV file, an interval that does not exist) stays blank rather than showing
//!   `NaN%`;
//! - **CSV helpers** ([`f6`]) write exactly what Rust's `{:.6}` writes (`NaN`, `inf`,
//!   `-inf`), the bytes every committed `*.csv` file was written with; changing them would
//!   change committed results.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A float for a CSV cell: 6 decimals, non-finite values as Rust prints them (`NaN`,
/// `inf`, `-inf`; see the module docs).
pub fn f6(x: f64) -> String {
    format!("{x:.6}")
}

/// A proportion as a percentage with one decimal: `0.531` → `53.1%`; empty when not
/// finite.
pub fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1}%", 100.0 * x)
    } else {
        String::new()
    }
}

/// A rate with its interval, in percent with one decimal: `53.1% [52.2, 54.0]`; empty
/// when any of the three is not finite.
pub fn rate_ci(r: f64, lo: f64, hi: f64) -> String {
    if r.is_finite() && lo.is_finite() && hi.is_finite() {
        format!("{} [{:.1}, {:.1}]", pct(r), 100.0 * lo, 100.0 * hi)
    } else {
        String::new()
    }
}

/// A number with `d` decimals; empty when not finite.
pub fn num(x: f64, d: usize) -> String {
    if x.is_finite() {
        format!("{x:.d$}")
    } else {
        String::new()
    }
}

/// A number with `d` decimals and its sign always written (`+0.125`, `-1.000`); empty
/// when not finite. For quantities whose sign is the point, such as margins.
pub fn signed(x: f64, d: usize) -> String {
    if x.is_finite() {
        format!("{x:+.d$}")
    } else {
        String::new()
    }
}

/// A p-value for a verdict: `p < 0.001`, or `p = 0.042` (3 decimals).
pub fn format_p(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p = {p:.3}")
    }
}

/// How a column's cells are aligned, in every rendering of a [`Table`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Flush left: names and other words (the first column of every table so far).
    Left,
    /// Flush right: numbers, so that their digits line up. In HTML only the cells that
    /// start with a number (after a sign or `[`) get the numeric style, so a word in a
    /// numeric column (`always played`) reads as a word.
    Right,
}

/// One column of a [`Table`]: its name, the unit its numbers are in, and its alignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// What the column holds (`difference`, `rating`).
    pub name: String,
    /// The unit of its numbers (`points`, `Elo`), printed after the name in parentheses
    /// in every rendering (`difference (points)`), so the cells carry bare numbers; `None`
    /// when the name says it (`games`) or the cells do (`53.1% [52.2, 54.0]`).
    pub unit: Option<String>,
    /// How its cells are aligned.
    pub align: Align,
}

impl Column {
    /// The header as printed: the name, then the unit in parentheses if any.
    pub fn header(&self) -> String {
        match &self.unit {
            Some(u) => format!("{} ({u})", self.name),
            None => self.name.clone(),
        }
    }
}

/// A table: columns (name, unit, alignment) and rows of cells, already formatted: the one
/// model of every table the console summary prints ([`Table::to_text`]) and the reports
/// write ([`Table::to_markdown`], [`Table::to_html`]), so the three agree on headers,
/// numbers and alignment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// The columns, in order.
    pub columns: Vec<Column>,
    /// The rows, each with one cell per column.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these headers (no units) and rows: the first column aligned left (the
    /// row's name), the others right (numbers).
    pub fn new<S: AsRef<str>>(headers: &[S], rows: Vec<Vec<String>>) -> Self {
        Table {
            columns: headers
                .iter()
                .enumerate()
                .map(|(i, h)| Column {
                    name: h.as_ref().to_string(),
                    unit: None,
                    align: if i == 0 { Align::Left } else { Align::Right },
                })
                .collect(),
            rows,
        }
    }

    /// The table with the unit of the column named `name` set to `unit` (the header then
    /// reads `name (unit)`).
    ///
    /// # Panics
    /// If no column is named `name` (a programming error: the names are literals).
    #[must_use]
    pub fn unit(mut self, name: &str, unit: &str) -> Self {
        let c = self
            .columns
            .iter_mut()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no column '{name}'"));
        c.unit = Some(unit.to_string());
        self
    }

    /// The headers as printed ([`Column::header`]).
    pub fn headers(&self) -> Vec<String> {
        self.columns.iter().map(Column::header).collect()
    }

    /// Plain text for the console, fitted to [`console_width`]: [`Table::to_text_width`]
    /// at the width the `sim` command line set for a terminal on stdout; with none set (a
    /// pipe, a file, a test, a library caller) the unlimited layout, byte for byte the
    /// layout of every earlier version.
    pub fn to_text(&self) -> String {
        self.to_text_width(console_width())
    }

    /// Plain text for a terminal: each column padded to its widest cell and aligned as
    /// its [`Align`] says, two spaces between columns, trailing spaces trimmed, one line
    /// per row after the header.
    ///
    /// With `Some(width)` and a table wider than `width` columns (characters), the widest
    /// columns are narrowed until it fits and their cells wrapped at word boundaries
    /// (`textwrap`) onto as many lines as the row needs, each line aligned like its cell:
    /// first only headers wider than their cells wrap; cells wrap only when that is not
    /// enough; a column is narrowed below its longest word only when the words alone do
    /// not fit, and then to no fewer than [`MIN_WRAPPED_COLUMN`] characters (words are
    /// broken), so a terminal too narrow even for that gets lines longer than `width`. A table that fits,
    /// or `None`, gives the unlimited layout.
    pub fn to_text_width(&self, width: Option<usize>) -> String {
        let headers = self.headers();
        let natural = column_widths(
            self.columns.len(),
            std::iter::once(&headers).chain(&self.rows),
            |c| c.chars().count(),
        );
        let widths = match width {
            Some(w) => {
                let cells =
                    column_widths(self.columns.len(), self.rows.iter(), |c| c.chars().count());
                fitted_widths(&natural, &cells, &self.longest_words(&headers), w)
            }
            None => natural,
        };
        let mut out = String::new();
        let mut line = |cells: &[String]| {
            let wrapped: Vec<Vec<String>> = cells
                .iter()
                .zip(&widths)
                .map(|(c, &w)| {
                    if c.chars().count() <= w {
                        vec![c.clone()]
                    } else {
                        textwrap::wrap(c, w)
                            .into_iter()
                            .map(|l| l.into_owned())
                            .collect()
                    }
                })
                .collect();
            let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
            for k in 0..height {
                let mut l = String::new();
                for (i, ((cell, w), col)) in
                    wrapped.iter().zip(&widths).zip(&self.columns).enumerate()
                {
                    if i > 0 {
                        l += "  ";
                    }
                    let c = cell.get(k).map_or("", String::as_str);
                    let _ = match col.align {
                        Align::Left => write!(l, "{c:<w$}"),
                        Align::Right => write!(l, "{c:>w$}"),
                    };
                }
                out += l.trim_end();
                out.push('\n');
            }
        };
        line(&headers);
        for r in &self.rows {
            line(r);
        }
        out
    }

    /// The length of the longest word (run of characters between spaces) of each column,
    /// its header included: how narrow the column can be without breaking a word.
    fn longest_words(&self, headers: &[String]) -> Vec<usize> {
        column_widths(
            self.columns.len(),
            std::iter::once(headers).chain(self.rows.iter().map(Vec::as_slice)),
            |c| c.split(' ').map(|w| w.chars().count()).max().unwrap_or(0),
        )
    }

    /// A Markdown (GitHub) table: the header, the alignment row (`---` left, `---:`
    /// right), one line per row; `|` in a cell escaped and line breaks turned to spaces;
    /// a blank line after it.
    pub fn to_markdown(&self) -> String {
        let cell = |x: &str| x.replace('|', "\\|").replace('\n', " ");
        let row = |cells: &mut dyn Iterator<Item = &str>| {
            format!("| {} |\n", cells.map(cell).collect::<Vec<_>>().join(" | "))
        };
        let mut s = row(&mut self.headers().iter().map(String::as_str));
        let rule: Vec<&str> = self
            .columns
            .iter()
            .map(|c| match c.align {
                Align::Left => "---",
                Align::Right => "---:",
            })
            .collect();
        let _ = writeln!(s, "|{}|", rule.join("|"));
        for r in &self.rows {
            s += &row(&mut r.iter().map(String::as_str));
        }
        s.push('\n');
        s
    }

    /// An HTML table in a scrolling `<div class="table">`, text escaped; the cells of a
    /// right-aligned column that start with a number get `class="n"` (right-aligned,
    /// tabular digits, in the report's style sheet).
    pub fn to_html(&self) -> String {
        let mut s = String::from("<div class=\"table\"><table>\n<thead><tr>");
        for h in self.headers() {
            let _ = write!(s, "<th>{}</th>", escape_html(&h));
        }
        s += "</tr></thead>\n<tbody>\n";
        for r in &self.rows {
            s += "<tr>";
            for (i, x) in r.iter().enumerate() {
                let right = self.columns.get(i).is_none_or(|c| c.align == Align::Right);
                let n = right && looks_numeric(x);
                let _ = write!(
                    s,
                    "<td{}>{}</td>",
                    if n { " class=\"n\"" } else { "" },
                    escape_html(x)
                );
            }
            s += "</tr>\n";
        }
        s += "</tbody></table></div>\n";
        s
    }
}

/// The narrowest a column of [`Table::to_text_width`] is made when its words do not fit:
/// below this, a cell would be broken into too many pieces to read.
pub const MIN_WRAPPED_COLUMN: usize = 8;

/// The width of the console's tables and lines in characters, 0 for none: set once by
/// the `sim` command line ([`set_console_width`]) when stdout is a terminal.
static CONSOLE_WIDTH: AtomicUsize = AtomicUsize::new(0);

/// Sets the width that [`Table::to_text`] fits the console's tables to: `Some(columns)`
/// for a terminal on stdout, `None` (the default) for the unlimited layout. The `sim`
/// command line sets it once, before any command runs (`src/cli/width.rs`); a process-wide
/// setting because the console tables are rendered deep inside the commands, and only
/// for stdout (no file is written with [`Table::to_text`]).
pub fn set_console_width(width: Option<usize>) {
    CONSOLE_WIDTH.store(width.unwrap_or(0), Ordering::Relaxed);
}

/// The width set by [`set_console_width`], if any.
pub fn console_width() -> Option<usize> {
    match CONSOLE_WIDTH.load(Ordering::Relaxed) {
        0 => None,
        w => Some(w),
    }
}

/// The widest value of `measure` over each column's cells (`n` columns; a row shorter
/// than `n` leaves the rest alone).
fn column_widths<'a, R: AsRef<[String]> + 'a>(
    n: usize,
    rows: impl Iterator<Item = R>,
    measure: impl Fn(&str) -> usize,
) -> Vec<usize> {
    let mut widths = vec![0; n];
    for r in rows {
        for (w, c) in widths.iter_mut().zip(r.as_ref()) {
            *w = (*w).max(measure(c));
        }
    }
    widths
}

/// Column widths that fit `width` characters with two spaces between columns: the widest
/// column narrowed by one character at a time, in three stages, each only if the one
/// before was not enough: down to its widest cell (`cells`: only headers wrap), then to
/// its longest word (`words`: cells wrap at spaces), then to [`MIN_WRAPPED_COLUMN`] (words
/// break); `natural` unchanged when it fits.
fn fitted_widths(natural: &[usize], cells: &[usize], words: &[usize], width: usize) -> Vec<usize> {
    let total = |w: &[usize]| w.iter().sum::<usize>() + 2 * w.len().saturating_sub(1);
    let mut w = natural.to_vec();
    let stages = [
        cells.iter().zip(words).map(|(&c, &x)| c.max(x)).collect(),
        words.to_vec(),
        vec![MIN_WRAPPED_COLUMN; natural.len()],
    ];
    for floor in stages {
        while total(&w) > width {
            // The widest column that may still shrink (the first of equals, so the
            // result does not depend on anything but the widths).
            let Some(i) = (0..w.len())
                .filter(|&i| w[i] > floor[i].min(natural[i]))
                .max_by_key(|&i| (w[i], std::cmp::Reverse(i)))
            else {
                break;
            };
            w[i] -= 1;
        }
    }
    w
}

/// Whether a cell reads as a number (a digit after any leading `+`, `-` or `[`).
fn looks_numeric(x: &str) -> bool {
    let t = x.trim_start_matches(['+', '-', '[']);
    t.starts_with(|c: char| c.is_ascii_digit())
}

/// Text escaped for HTML and XML (`&`, `<`, `>`, `"`).
pub fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A plain-text table from headers and rows ([`Table::to_text`]).
pub fn text_table(headers: &[&str], rows: &[Vec<String>]) -> String {
    Table::new(headers, rows.to_vec()).to_text()
}

/// One agent's row of the agent table ([`agent_table`]): the numbers of a `summary.csv`
/// row. `None` is a number the source does not have (a column missing from an older
/// `summary.csv`); it prints as an empty cell.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentRow {
    /// The agent's label.
    pub agent: String,
    /// Games in which it held a seat (the trials of its win rate).
    pub games: u64,
    /// Games it won (alone in first place).
    pub wins: u64,
    /// Games in which it shared first place.
    pub draws: Option<u64>,
    /// Wins / games.
    pub win_rate: f64,
    /// The 95% Wilson interval of the win rate.
    pub interval: (f64, f64),
    /// The win rate of an equally strong agent without draws.
    pub expected: f64,
    /// Mean final score per seat-game.
    pub mean_score: Option<f64>,
    /// Sample standard deviation of the score per seat-game.
    pub sd_score: Option<f64>,
    /// Mean margin per seat-game (own score minus the best other score).
    pub mean_margin: Option<f64>,
    /// Mean rank per seat-game (1 = best).
    pub mean_rank: Option<f64>,
}

/// The headers of the agent table, in order.
pub const AGENT_TABLE_HEADERS: [&str; 10] = [
    "agent",
    "games",
    "wins",
    "draws",
    "win rate [95% CI]",
    "expected",
    "mean score",
    "sd score",
    "mean margin",
    "mean rank",
];

/// The agent table printed by the console summary and by the tournament report: one row
/// per agent, columns [`AGENT_TABLE_HEADERS`]. Rates in percent with one decimal, scores
/// and ranks with 3 decimals, margins signed ([`signed`]); a missing or non-finite number
/// is an empty cell.
pub fn agent_table(rows: &[AgentRow]) -> Table {
    let opt = |x: Option<f64>, f: fn(f64, usize) -> String| x.map_or_else(String::new, |x| f(x, 3));
    Table::new(
        &AGENT_TABLE_HEADERS,
        rows.iter()
            .map(|r| {
                vec![
                    r.agent.clone(),
                    r.games.to_string(),
                    r.wins.to_string(),
                    r.draws.map_or_else(String::new, |d| d.to_string()),
                    rate_ci(r.win_rate, r.interval.0, r.interval.1),
                    pct(r.expected),
                    opt(r.mean_score, num),
                    opt(r.sd_score, num),
                    opt(r.mean_margin, signed),
                    opt(r.mean_rank, num),
                ]
            })
            .collect(),
    )
}

/// The name among `choices` closest to a mistyped `name`, for a "did you mean" hint: the
/// one with the highest Jaro–Winkler similarity (`strsim`), case-insensitive, if it is at
/// least 0.8 (close enough that it is likely what was meant); `None` otherwise.
pub fn did_you_mean<'a>(name: &str, choices: &[&'a str]) -> Option<&'a str> {
    let name = name.to_lowercase();
    choices
        .iter()
        .map(|c| (strsim::jaro_winkler(&name, &c.to_lowercase()), *c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// `; did you mean 'dunhuang'?` for a mistyped `name`, or the empty string.
pub fn did_you_mean_hint(name: &str, choices: &[&str]) -> String {
    did_you_mean(name, choices).map_or(String::new(), |c| format!("; did you mean '{c}'?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_helpers_leave_non_finite_numbers_blank() {
        assert_eq!(pct(0.5312), "53.1%");
        assert_eq!(pct(f64::NAN), "");
        assert_eq!(pct(f64::INFINITY), "");
        assert_eq!(rate_ci(0.531, 0.522, 0.54), "53.1% [52.2, 54.0]");
        assert_eq!(rate_ci(0.5, f64::NAN, 0.6), "");
        assert_eq!(num(1.23456, 3), "1.235");
        assert_eq!(num(f64::NAN, 3), "");
        assert_eq!(signed(0.125, 3), "+0.125");
        assert_eq!(signed(-1.0, 3), "-1.000");
        assert_eq!(signed(f64::NEG_INFINITY, 3), "");
    }

    #[test]
    fn the_csv_helper_keeps_rusts_spelling_of_non_finite_numbers() {
        // Committed CSV files were written with `{:.6}`; these bytes must not change.
        assert_eq!(f6(0.5), "0.500000");
        assert_eq!(f6(f64::NAN), "NaN");
        assert_eq!(f6(f64::INFINITY), "inf");
        assert_eq!(f6(-0.0), "-0.000000");
    }

    fn agent_like_table() -> Table {
        Table::new(
            &["agent", "games", "win rate [95% CI]", "mean score"],
            vec![
                vec![
                    "mcts:iters=500,rollout=random".into(),
                    "1000".into(),
                    "53.1% [52.2, 54.0]".into(),
                    "41.250".into(),
                ],
                vec![
                    "greedy".into(),
                    "1000".into(),
                    "46.9% [46.0, 47.8]".into(),
                    "38.0".into(),
                ],
            ],
        )
    }

    #[test]
    fn a_table_that_fits_or_no_width_keeps_the_unlimited_layout() {
        let t = agent_like_table();
        let plain = t.to_text_width(None);
        let widest = plain.lines().map(|l| l.chars().count()).max().unwrap();
        assert_eq!(t.to_text_width(Some(widest)), plain);
        assert_eq!(t.to_text_width(Some(500)), plain);
        // Nothing set the console width in this test: to_text is the unlimited layout.
        assert_eq!(t.to_text(), plain);
    }

    #[test]
    fn a_narrow_width_wraps_the_widest_cells_at_words_and_keeps_alignment() {
        let t = agent_like_table();
        // 56 columns: the words alone need 52 (29 + 5 + 6 + 6 and three gaps of 2).
        let text = t.to_text_width(Some(56));
        for l in text.lines() {
            assert!(l.chars().count() <= 56, "{l:?} in\n{text}");
        }
        let lines: Vec<&str> = text.lines().collect();
        // The header wraps ("win rate" / "[95% CI]"), the cells keep every character.
        assert!(lines.len() > 3, "{text}");
        for word in [
            "53.1%",
            "[52.2,",
            "54.0]",
            "mcts:iters=500,rollout=random",
            "41.250",
        ] {
            assert!(text.contains(word), "{word} in\n{text}");
        }
        // Right-aligned numbers end at the same column on every line of the table.
        let ends: Vec<usize> = lines
            .iter()
            .filter(|l| l.ends_with("41.250") || l.ends_with("38.0"))
            .map(|l| l.chars().count())
            .collect();
        assert_eq!(ends.len(), 2, "{text}");
        assert_eq!(ends[0], ends[1], "{text}");
    }

    #[test]
    fn headers_wrap_before_cells() {
        let t = Table::new(
            &["label", "win rate [95% CI]", "mean score", "mean rank"],
            vec![vec![
                "owner".into(),
                "100.0% [83.9, 100.0]".into(),
                "21.900".into(),
                "1.000".into(),
            ]],
        );
        // Natural width 5 + 20 + 10 + 9 + 6 = 50; at 45 the two wide headers wrap and
        // every cell keeps its line.
        let text = t.to_text_width(Some(45));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines.iter().all(|l| l.chars().count() <= 45), "{text}");
        assert!(lines[0].ends_with("mean     mean"), "{text}");
        assert!(lines[1].ends_with("score     rank"), "{text}");
        assert!(
            lines[2].starts_with("owner  100.0% [83.9, 100.0]") && lines[2].ends_with("1.000"),
            "{text}"
        );
    }

    #[test]
    fn words_are_broken_only_when_the_words_alone_do_not_fit() {
        let t = agent_like_table();
        // 29 characters of agent spec cannot fit in 30 columns with three more columns:
        // the spec is broken, no column is narrower than MIN_WRAPPED_COLUMN.
        let text = t.to_text_width(Some(30));
        assert!(!text.contains("mcts:iters=500,rollout=random"), "{text}");
        assert!(text.contains("mcts:ite"), "{text}");
        let (natural, words) = ([29, 5, 18, 10], [29, 5, 6, 5]);
        let w = fitted_widths(&natural, &natural, &words, 30);
        for i in 0..4 {
            // A column is narrowed below its longest word only down to MIN_WRAPPED_COLUMN.
            assert!(w[i] >= words[i].min(MIN_WRAPPED_COLUMN), "{w:?}");
        }
        assert_eq!(w[0], MIN_WRAPPED_COLUMN, "{w:?}");
        // Wide enough for the words: no word broken.
        let w = fitted_widths(&[29, 5, 18, 10], &[29, 4, 18, 6], &[29, 5, 6, 5], 55);
        assert_eq!(w.iter().sum::<usize>() + 6, 55);
        assert_eq!(w[0], 29, "{w:?}");
    }

    #[test]
    fn p_values() {
        assert_eq!(format_p(0.0004), "p < 0.001");
        assert_eq!(format_p(0.0424), "p = 0.042");
    }

    #[test]
    fn text_tables_align_the_first_column_left_and_the_rest_right() {
        let t = Table::new(
            &["agent", "wins"],
            vec![
                vec!["greedy".into(), "7".into()],
                vec!["r".into(), "12".into()],
            ],
        );
        assert_eq!(t.to_text(), "agent   wins\ngreedy     7\nr         12\n");
    }

    /// One model, three renderings that agree: the unit joins the header everywhere, a
    /// left-aligned column is padded right in text and `---` in Markdown, and HTML marks
    /// only the numbers of right-aligned columns.
    #[test]
    fn the_table_model_renders_units_and_alignment_alike_in_text_markdown_and_html() {
        let mut t = Table::new(
            &["agent", "kind", "difference"],
            vec![
                vec!["a".into(), "mcts".into(), "+1.5".into()],
                vec!["b|c".into(), "7".into(), "always played".into()],
            ],
        )
        .unit("difference", "points");
        t.columns[1].align = Align::Left;
        assert_eq!(t.headers(), ["agent", "kind", "difference (points)"]);
        assert_eq!(
            t.to_text(),
            "agent  kind  difference (points)\n\
             a      mcts                 +1.5\n\
             b|c    7           always played\n"
        );
        assert_eq!(
            t.to_markdown(),
            "| agent | kind | difference (points) |\n|---|---|---:|\n| a | mcts | +1.5 |\n\
             | b\\|c | 7 | always played |\n\n"
        );
        assert_eq!(
            t.to_html(),
            "<div class=\"table\"><table>\n<thead><tr><th>agent</th><th>kind</th>\
             <th>difference (points)</th></tr></thead>\n<tbody>\n<tr><td>a</td><td>mcts</td>\
             <td class=\"n\">+1.5</td></tr>\n<tr><td>b|c</td><td>7</td><td>always played</td>\
             </tr>\n</tbody></table></div>\n"
        );
    }

    #[test]
    fn the_agent_table_has_every_column_and_blanks_what_is_missing() {
        let row = AgentRow {
            agent: "greedy".into(),
            games: 10,
            wins: 8,
            draws: None,
            win_rate: 0.8,
            interval: (0.4902, 0.9433),
            expected: 0.5,
            mean_score: Some(12.0),
            sd_score: None,
            mean_margin: Some(2.5),
            mean_rank: Some(1.2),
        };
        let t = agent_table(&[row]);
        assert_eq!(t.headers(), AGENT_TABLE_HEADERS);
        assert_eq!(
            t.rows[0],
            [
                "greedy",
                "10",
                "8",
                "",
                "80.0% [49.0, 94.3]",
                "50.0%",
                "12.000",
                "",
                "+2.500",
                "1.200"
            ]
        );
    }
}
