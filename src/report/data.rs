//! Reading a results directory's CSV files into small tables (by column name, so files
//! with extra columns still read).

use std::io::Read;
use std::path::{Path, PathBuf};

use super::ReportError;

/// A CSV file read whole: its header and its records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The file it came from.
    pub path: PathBuf,
    /// The column names.
    pub headers: Vec<String>,
    /// The records, one string per column.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Reads `path` (a `.gz` file is decompressed).
    ///
    /// # Errors
    /// [`ReportError::Read`] when the file cannot be read or is not CSV.
    pub fn read(path: &Path) -> Result<Table, ReportError> {
        let err = |e: String| ReportError::Read {
            path: path.to_path_buf(),
            message: e,
        };
        let file = std::fs::File::open(path).map_err(|e| err(e.to_string()))?;
        let reader: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
            Box::new(flate2::read::MultiGzDecoder::new(std::io::BufReader::new(
                file,
            )))
        } else {
            Box::new(std::io::BufReader::new(file))
        };
        let mut r = csv::Reader::from_reader(reader);
        let headers = r
            .headers()
            .map_err(|e| err(e.to_string()))?
            .iter()
            .map(String::from)
            .collect();
        let mut rows = Vec::new();
        for rec in r.records() {
            let rec = rec.map_err(|e| err(e.to_string()))?;
            rows.push(rec.iter().map(String::from).collect());
        }
        Ok(Table {
            path: path.to_path_buf(),
            headers,
            rows,
        })
    }

    /// Reads `dir/name` if it exists.
    ///
    /// # Errors
    /// As [`Table::read`].
    pub fn read_opt(dir: &Path, name: &str) -> Result<Option<Table>, ReportError> {
        let p = dir.join(name);
        if p.is_file() {
            Table::read(&p).map(Some)
        } else {
            Ok(None)
        }
    }

    /// The index of column `name`.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.headers.iter().position(|h| h == name)
    }

    /// Whether the table has column `name`.
    pub fn has(&self, name: &str) -> bool {
        self.col(name).is_some()
    }

    /// The index of column `name`, or an error naming the file and the column.
    ///
    /// # Errors
    /// [`ReportError::Read`] when the column is missing.
    pub fn need(&self, name: &str) -> Result<usize, ReportError> {
        self.col(name).ok_or_else(|| ReportError::Read {
            path: self.path.clone(),
            message: format!("no column '{name}' (columns: {})", self.headers.join(", ")),
        })
    }

    /// Row `r`'s field in column `c`.
    pub fn s(&self, r: usize, c: usize) -> &str {
        self.rows[r].get(c).map_or("", String::as_str)
    }

    /// Row `r`'s field in column `c` as a number (NaN when empty or not a number).
    pub fn f(&self, r: usize, c: usize) -> f64 {
        self.s(r, c).trim().parse().unwrap_or(f64::NAN)
    }

    /// Row `r`'s field in column `c` as a count (0 when empty or not a count).
    pub fn u(&self, r: usize, c: usize) -> u64 {
        let s = self.s(r, c).trim();
        s.parse()
            .ok()
            .or_else(|| s.parse::<f64>().ok().map(|x| x.max(0.0).round() as u64))
            .unwrap_or(0)
    }

    /// Row `r`'s field in column `c` as an integer (0 when empty or not an integer).
    pub fn i(&self, r: usize, c: usize) -> i64 {
        let s = self.s(r, c).trim();
        s.parse()
            .ok()
            .or_else(|| s.parse::<f64>().ok().map(|x| x.round() as i64))
            .unwrap_or(0)
    }
}

/// Reads a TOML file if it exists.
///
/// # Errors
/// [`ReportError::Read`] when it exists but cannot be read or parsed.
pub fn read_toml(dir: &Path, name: &str) -> Result<Option<toml::Table>, ReportError> {
    let p = dir.join(name);
    if !p.is_file() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(&p).map_err(|e| ReportError::Read {
        path: p.clone(),
        message: e.to_string(),
    })?;
    text.parse::<toml::Table>()
        .map(Some)
        .map_err(|e| ReportError::Read {
            path: p,
            message: e.to_string(),
        })
}

/// A string at a dotted path of a TOML table (`tournament.game`), numbers and booleans
/// printed as they are; `None` when absent.
pub fn toml_str(t: &toml::Table, path: &str) -> Option<String> {
    let mut v: Option<&toml::Value> = None;
    let mut table = Some(t);
    for key in path.split('.') {
        v = table?.get(key);
        table = v.and_then(toml::Value::as_table);
    }
    match v? {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Array(a) => Some(
            a.iter()
                .map(|x| x.as_str().map_or_else(|| x.to_string(), String::from))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        other => Some(other.to_string()),
    }
}

/// The settings among `settings` (`key=value`, as `config.toml` lists them) that differ
/// from the defaults of the game named `game` ([`crate::games::all`]); all of them for a
/// game outside the registry. The report shows only these: the full list stays in
/// `config.toml`.
pub fn non_default_settings(game: &str, settings: &[String]) -> Vec<String> {
    let Some(entry) = crate::games::all().into_iter().find(|g| g.name == game) else {
        return settings.to_vec();
    };
    settings
        .iter()
        .filter(|kv| {
            let Some((k, v)) = kv.split_once('=') else {
                return true;
            };
            entry
                .params
                .iter()
                .find(|p| p.name == k.trim())
                .is_none_or(|p| p.default != v.trim())
        })
        .cloned()
        .collect()
}

/// `command` without its `--variant key=value` arguments (bare or quoted) that set a
/// default of the game named `game`: the same run, since a setting left out takes its
/// default.
pub fn without_default_variants(game: &str, command: &str) -> String {
    let Some(entry) = crate::games::all().into_iter().find(|g| g.name == game) else {
        return command.to_string();
    };
    let mut out = command.to_string();
    for p in &entry.params {
        let kv = format!("{}={}", p.name, p.default);
        for form in [
            format!(" --variant {kv}"),
            format!(" --variant '{kv}'"),
            format!(" --variant \"{kv}\""),
        ] {
            // Only a whole argument: the next character ends it.
            while let Some(at) = out.find(&form) {
                let end = at + form.len();
                if out[end..].starts_with(' ') || end == out.len() {
                    out.replace_range(at..end, "");
                } else {
                    break;
                }
            }
        }
    }
    out
}
