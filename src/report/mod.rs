//! Reports: `sim report DIR` reads a results directory (the CSV files a tournament, a
//! sweep, a ladder or an endgame experiment wrote; never in-memory state) and writes one
//! self-contained `report.html` (inline SVG charts drawn with `plotters`, inline CSS, no
//! scripts, no external resources) or a `report.md` for a design document.
//!
//! What is in a report, by directory kind (detected from its files):
//! - **tournament** (`summary.csv`): the plain-language verdicts (seat advantage; the
//!   head-to-head comparison at 2 agents), win-rate bars with 95% Wilson intervals, seat
//!   advantage, agent by seat, ratings (Bradley–Terry at 2 seats, Plackett–Luce at 3–4,
//!   with bootstrap intervals; from `games.csv`), score and margin histograms and
//!   quantiles (from `games.csv`), end conditions and game length, the game-metric charts
//!   (`metrics.csv`: winners against the others), per-action frequencies and win rates
//!   (from `games.csv`, or the means of `metrics.csv`), and the label win rates
//!   (`labels.csv`). Parts that need `games.csv` say so when it is absent (committed
//!   results leave it out; the recorded command regenerates it).
//! - **sweep** (`sweep.csv`): the cells, win rates and seat win rates by level of each
//!   factor, and the **variant comparison**: each level of a factor with 2+ levels against
//!   its first level, in cells that agree on every other factor: the difference of win
//!   rates per agent and per seat (Newcombe's hybrid score interval, pooled z-test) and of
//!   mean score and game length (Welch), each with a one-line verdict.
//! - **ladder** (`ladder.csv`, `pairs.csv`): the ratings with Fisher and bootstrap
//!   intervals, the head-to-head heat map, chance versus skill (how often random beats the
//!   strongest agent) and skill depth (score against search budget per agent kind).
//! - **endgame** (`endgame.csv`): each agent's mean loss against equilibrium.
//! - **balance** (`recommendation.csv` with `spec.toml`, written by `sim balance`): the
//!   study's report ([`crate::balance::report::from_dir`]), the same byte for byte as the
//!   one `sim balance` wrote.
//! - **design** (`restricted.csv`, `personas.csv` or `kingmaking.csv`, written by `sim
//!   design`): the design-metrics report ([`crate::cli::design::report_from_dir`]), the same
//!   byte for byte as the one `sim design` wrote.
//!
//! - **decisiveness** (`decisiveness.csv`, `lead_changes.csv`, written with
//!   `--decisiveness`): how often the leader after round r (or after q% of the rounds) wins,
//!   and the histogram of lead changes, on tournament and sweep pages.
//!
//! The bootstrap uses [`BOOTSTRAP_REPLICATES`] replicates from seed [`BOOTSTRAP_SEED`], so a
//! report is a pure function of the directory's files.

pub mod charts;
pub mod data;
mod experiment;
mod tournament;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub use experiment::short_names;

/// Bootstrap replicates for rating intervals.
pub const BOOTSTRAP_REPLICATES: usize = 1000;

/// The seed of the bootstrap's generator.
pub const BOOTSTRAP_SEED: u64 = 1;

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `report.html`: one self-contained page with SVG charts.
    Html,
    /// `report.md`: Markdown tables and verdicts (no charts).
    Md,
}

impl Format {
    /// The file name written.
    pub fn file_name(self) -> &'static str {
        match self {
            Format::Html => "report.html",
            Format::Md => "report.md",
        }
    }
}

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The directory does not exist.
    #[error("'{}' is not a directory: expected a results directory written by `sim tournament` or `sim experiment`", .0.display())]
    NoDir(PathBuf),
    /// The directory holds no known results.
    #[error("'{}' is not a results directory: expected summary.csv (a tournament), sweep.csv (a sweep), ladder.csv (a ladder), endgame.csv (an endgame experiment), recommendation.csv with spec.toml (a balance study) or restricted.csv, personas.csv or kingmaking.csv (a design study)", .0.display())]
    NotResults(PathBuf),
    /// A file cannot be read or lacks a column.
    #[error("cannot read '{}': {message}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The report cannot be written.
    #[error("cannot write '{}': {error}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
}

impl ReportError {
    /// Whether the error is bad input (exit code 2): a missing or wrong directory, or a
    /// file that is not what a results directory holds.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, ReportError::Write { .. })
    }
}

/// One piece of a report.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A heading of level 1–3.
    Heading(u8, String),
    /// A paragraph of plain text.
    Para(String),
    /// A plain-language verdict (highlighted).
    Verdict(String),
    /// A table ([`crate::format::Table`], the model the console prints too).
    Table(crate::format::Table),
    /// An SVG chart (HTML only; Markdown leaves it out).
    Chart(String),
}

/// A report: a title and its blocks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The page title.
    pub title: String,
    /// The content.
    pub blocks: Vec<Block>,
}

impl Report {
    pub(crate) fn h(&mut self, level: u8, s: impl Into<String>) {
        self.blocks.push(Block::Heading(level, s.into()));
    }
    pub(crate) fn p(&mut self, s: impl Into<String>) {
        self.blocks.push(Block::Para(s.into()));
    }
    pub(crate) fn verdict(&mut self, s: impl Into<String>) {
        self.blocks.push(Block::Verdict(s.into()));
    }
    /// Adds a table of these headers and rows ([`crate::format::Table::new`]: the first
    /// column left, the others right, no units).
    pub(crate) fn table(&mut self, headers: &[&str], rows: Vec<Vec<String>>) {
        self.blocks
            .push(Block::Table(crate::format::Table::new(headers, rows)));
    }
    /// Adds a table built on the shared model ([`crate::format::Table`]), with its units
    /// and alignment (e.g. the agent table of [`crate::format::agent_table`], which the
    /// console prints too).
    pub(crate) fn table_model(&mut self, t: crate::format::Table) {
        self.blocks.push(Block::Table(t));
    }
    pub(crate) fn chart(&mut self, svg: String) {
        if !svg.is_empty() {
            self.blocks.push(Block::Chart(svg));
        }
    }

    /// The self-contained HTML page.
    pub fn to_html(&self) -> String {
        use charts::escape;
        let mut s = String::new();
        let _ = write!(
            s,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"generator\" content=\"tabletop-sim {}\">\n<title>{}</title>\n\
             <style>\n{CSS}</style>\n</head>\n<body>\n<main>\n<h1>{}</h1>\n",
            env!("CARGO_PKG_VERSION"),
            escape(&self.title),
            escape(&self.title)
        );
        for b in &self.blocks {
            match b {
                Block::Heading(l, t) => {
                    let l = (*l).clamp(2, 4);
                    let _ = writeln!(s, "<h{l}>{}</h{l}>", escape(t));
                }
                Block::Para(t) => {
                    let _ = writeln!(s, "<p>{}</p>", escape(t));
                }
                Block::Verdict(t) => {
                    let _ = writeln!(s, "<p class=\"verdict\">{}</p>", escape(t));
                }
                Block::Table(t) => s += &t.to_html(),
                Block::Chart(svg) => {
                    let _ = writeln!(s, "<figure>{svg}</figure>");
                }
            }
        }
        s += "</main>\n</body>\n</html>\n";
        s
    }

    /// The Markdown summary (charts left out).
    pub fn to_markdown(&self) -> String {
        let mut s = format!("# {}\n\n", self.title);
        for b in &self.blocks {
            match b {
                Block::Heading(l, t) => {
                    let _ = writeln!(s, "{} {t}\n", "#".repeat(usize::from((*l).clamp(2, 4))));
                }
                Block::Para(t) => {
                    let _ = writeln!(s, "{t}\n");
                }
                Block::Verdict(t) => {
                    let _ = writeln!(s, "**{t}**\n");
                }
                Block::Table(t) => s += &t.to_markdown(),
                Block::Chart(_) => {}
            }
        }
        s
    }
}

const CSS: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;\
background:#fafafa;margin:0}\nmain{max-width:1120px;margin:0 auto;padding:16px 24px 48px;background:#fff}\n\
h1{font-size:1.6em;border-bottom:2px solid #4e79a7;padding-bottom:6px}\nh2{font-size:1.3em;\
margin-top:2em;border-bottom:1px solid #ddd}\nh3{font-size:1.1em}\n.verdict{background:#eef4fa;\
border-left:4px solid #4e79a7;padding:8px 12px}\n.table{overflow-x:auto}\ntable{border-collapse:\
collapse;font-size:0.88em;margin:8px 0}\nth,td{border:1px solid #ddd;padding:3px 8px;text-align:left;\
vertical-align:top}\nth{background:#f2f2f2}\ntd.n{text-align:right;font-variant-numeric:tabular-nums}\n\
figure{display:inline-block;vertical-align:top;margin:8px 12px 8px 0}\nsvg.chart{max-width:100%;height:auto}\n";

/// Builds the report of `dir` (see the module docs for what it holds).
///
/// # Errors
/// [`ReportError::NoDir`] or [`ReportError::NotResults`] for a wrong directory,
/// [`ReportError::Read`] for an unreadable or malformed file.
pub fn build(dir: &Path) -> Result<Report, ReportError> {
    if !dir.is_dir() {
        return Err(ReportError::NoDir(dir.to_path_buf()));
    }
    if dir.join("sweep.csv").is_file() {
        experiment::sweep(dir)
    } else if dir.join("ladder.csv").is_file() {
        experiment::ladder(dir)
    } else if dir.join("endgame.csv").is_file() {
        experiment::endgame(dir)
    } else if dir.join("summary.csv").is_file() {
        tournament::report(dir)
    } else if dir.join("recommendation.csv").is_file() && dir.join("spec.toml").is_file() {
        crate::balance::report::from_dir(dir)
    } else if ["restricted.csv", "personas.csv", "kingmaking.csv"]
        .iter()
        .any(|f| dir.join(f).is_file())
    {
        crate::cli::design::report_from_dir(dir)
    } else {
        Err(ReportError::NotResults(dir.to_path_buf()))
    }
}

/// Builds the report of `dir` and writes it as `report.html` or `report.md` in `dir`
/// (written to `NAME.partial` and renamed, so a half-written report never appears).
/// Returns the file written.
///
/// # Errors
/// As [`build`], and [`ReportError::Write`] when the file cannot be written.
pub fn write(dir: &Path, format: Format) -> Result<PathBuf, ReportError> {
    let report = build(dir)?;
    let text = match format {
        Format::Html => report.to_html(),
        Format::Md => report.to_markdown(),
    };
    let path = dir.join(format.file_name());
    let partial = dir.join(format!("{}.partial", format.file_name()));
    let werr = |error| ReportError::Write {
        path: path.clone(),
        error,
    };
    std::fs::write(&partial, text).map_err(werr)?;
    std::fs::rename(&partial, &path).map_err(werr)?;
    Ok(path)
}
