//! Result folders for the page: the folders under the results root (`sim serve --results
//! DIR`, default `results`), what each holds (its files, its tournament settings from
//! `config.toml`, the games of `games.csv` and the failed games of `errors.csv`), and its
//! files to open (reports, CSV tables).
//!
//! **Paths.** The page names a folder by its path relative to the root (`daxu-ladder/pairs/0-1`).
//! Only plain components are accepted (no `..`, no absolute path, no hidden names), and the
//! resolved path must stay inside the root after following links, so the server reads
//! nothing outside the results root.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use serde::Serialize;
use serde_json::{Value, json};

/// The `[tournament]` table of a folder's `config.toml`: what replaying one of its games
/// needs. Read on its own (not as the whole [`crate::tournament::ConfigFile`]) so folders
/// written by older versions, whose other tables differ, still replay.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct Tournament {
    /// The game's registry name.
    pub game: String,
    /// Seats per game.
    pub players: usize,
    /// Rule settings `key=value`.
    #[serde(default)]
    pub variant: Vec<String>,
    /// The canonical agent specs, in lineup order.
    pub agents: Vec<String>,
    /// Number of games.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// `--paired`: each deal replayed under every seating of the block.
    #[serde(default)]
    pub paired: bool,
}

/// A `config.toml`: its `[tournament]` table and its `command`.
#[derive(Debug, Clone, serde::Deserialize)]
struct Config {
    #[serde(default)]
    command: String,
    tournament: Tournament,
}

/// The most games of one folder the page lists at once (`games`' `limit`).
pub const MAX_GAMES: usize = 500;

/// Why a results request was refused (HTTP 400 or 404).
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// A folder or file name that is not a plain relative path inside the root.
    #[error("{0:?} is not a folder or file inside the results root (plain names only)")]
    BadPath(String),
    /// No such folder or file.
    #[error("{0} does not exist under the results root {1}")]
    Missing(String, String),
    /// The folder holds no tournament settings (`config.toml`), so its games cannot be
    /// replayed.
    #[error(
        "{0} has no config.toml: only tournament folders (and a ladder's pairs/*) replay games"
    )]
    NoConfig(String),
    /// A file could not be read or parsed.
    #[error("{0}: {1}")]
    Read(String, String),
}

/// The results root and what the page may read from it.
#[derive(Debug, Clone)]
pub struct Results {
    root: PathBuf,
}

/// One game of `games.csv`, as the page lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameRow {
    /// The game index (the `game` column).
    pub game: u64,
    /// The variant label.
    pub variant: String,
    /// Per seat: the agent label, the score, the rank and whether it won.
    pub seats: Vec<(String, String, String, bool)>,
    /// Length in plies.
    pub plies: String,
    /// End condition.
    pub end: String,
}

/// One failed game of `errors.csv`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorRow {
    /// The game index.
    pub game: u64,
    /// The seating (agent labels by seat).
    pub seats: String,
    /// The ply at which it failed.
    pub ply: String,
    /// The error.
    pub message: String,
}

impl Results {
    /// The results under `root` (it need not exist: the list is then empty).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Results { root: root.into() }
    }

    /// The root, as given.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The path of `rel` under the root, checked (see the module docs).
    ///
    /// # Errors
    /// [`ResultsError::BadPath`] for anything but plain names; [`ResultsError::Missing`]
    /// when it does not exist.
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, ResultsError> {
        let bad = || ResultsError::BadPath(rel.to_string());
        let rel_path = Path::new(rel);
        if rel.is_empty() {
            return Ok(self.root.clone());
        }
        for c in rel_path.components() {
            match c {
                Component::Normal(s) if !s.to_string_lossy().starts_with('.') => {}
                _ => return Err(bad()),
            }
        }
        let path = self.root.join(rel_path);
        let missing = || ResultsError::Missing(rel.to_string(), self.root.display().to_string());
        let (root, full) = (
            self.root.canonicalize().map_err(|_| missing())?,
            path.canonicalize().map_err(|_| missing())?,
        );
        if !full.starts_with(&root) {
            return Err(bad());
        }
        Ok(path)
    }

    /// Every result folder: the root's folders and, inside them, a ladder's `pairs/*`, with
    /// their kind, game, agents and files.
    pub fn list(&self) -> Value {
        let mut folders = Vec::new();
        for name in sorted_dirs(&self.root) {
            let dir = self.root.join(&name);
            folders.push(summary(&dir, &name));
            for pair in sorted_dirs(&dir.join("pairs")) {
                let rel = format!("{name}/pairs/{pair}");
                folders.push(summary(&self.root.join(&rel), &rel));
            }
        }
        json!({ "root": self.root.display().to_string(), "folders": folders })
    }

    /// Folder `rel`: its files, settings, up to `limit` games of `games.csv` from `offset`,
    /// and every failed game of `errors.csv`.
    ///
    /// # Errors
    /// A bad or missing path; a `games.csv` or `errors.csv` that cannot be parsed.
    pub fn folder(&self, rel: &str, offset: usize, limit: usize) -> Result<Value, ResultsError> {
        let dir = self.resolve(rel)?;
        let mut v = summary(&dir, rel);
        let (rows, total) = games(&dir, offset, limit.min(MAX_GAMES))
            .map_err(|e| ResultsError::Read(format!("{rel}/games.csv"), e))?;
        let errors =
            errors(&dir).map_err(|e| ResultsError::Read(format!("{rel}/errors.csv"), e))?;
        let obj = v.as_object_mut().expect("summary is an object");
        obj.insert("games_listed".into(), json!(rows));
        obj.insert("games_in_file".into(), json!(total));
        obj.insert("offset".into(), json!(offset));
        obj.insert("errors".into(), json!(errors));
        obj.insert(
            "subfolders".into(),
            json!(
                sorted_dirs(&dir.join("pairs"))
                    .iter()
                    .map(|p| format!("{rel}/pairs/{p}"))
                    .collect::<Vec<_>>()
            ),
        );
        Ok(v)
    }

    /// The tournament settings of folder `rel` (its `config.toml`).
    ///
    /// # Errors
    /// A bad path, [`ResultsError::NoConfig`], or a file that does not parse.
    pub fn config(&self, rel: &str) -> Result<Tournament, ResultsError> {
        let dir = self.resolve(rel)?;
        let path = dir.join("config.toml");
        if !path.is_file() {
            return Err(ResultsError::NoConfig(rel.to_string()));
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| ResultsError::Read(format!("{rel}/config.toml"), e.to_string()))?;
        toml::from_str::<Config>(&text)
            .map(|c| c.tournament)
            .map_err(|e| ResultsError::Read(format!("{rel}/config.toml"), e.to_string()))
    }

    /// The bytes of file `name` of folder `rel` with its content type; only reports
    /// (`.html`, `.md`), tables (`.csv`), settings (`.toml`, `.json`) and SVG charts.
    ///
    /// # Errors
    /// A bad or missing path, or another kind of file.
    pub fn file(&self, rel: &str, name: &str) -> Result<(&'static str, Vec<u8>), ResultsError> {
        let joined = if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        };
        let path = self.resolve(&joined)?;
        let kind = match path.extension().and_then(|e| e.to_str()) {
            Some("html") => "text/html; charset=utf-8",
            Some("md" | "csv" | "toml") => "text/plain; charset=utf-8",
            Some("json") => "application/json",
            Some("svg") => "image/svg+xml",
            _ => return Err(ResultsError::BadPath(joined)),
        };
        if !path.is_file() {
            return Err(ResultsError::BadPath(joined));
        }
        let bytes =
            std::fs::read(&path).map_err(|e| ResultsError::Read(joined.clone(), e.to_string()))?;
        Ok((kind, bytes))
    }
}

/// The names of the folders directly inside `dir` (hidden ones skipped), sorted.
fn sorted_dirs(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// A folder's files, kind and (from `config.toml`) tournament settings.
fn summary(dir: &Path, rel: &str) -> Value {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .map(|es| {
            es.filter_map(Result::ok)
                .filter(|e| e.path().is_file())
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let manifest_kind = std::fs::read_to_string(dir.join("manifest.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|m| m.get("kind")?.as_str().map(str::to_string));
    let config = std::fs::read_to_string(dir.join("config.toml"))
        .ok()
        .and_then(|t| toml::from_str::<Config>(&t).ok());
    let settings = config.as_ref().map(|c| {
        json!({
            "game": c.tournament.game,
            "players": c.tournament.players,
            "agents": c.tournament.agents,
            "games": c.tournament.games,
            "seed": c.tournament.seed,
            "paired": c.tournament.paired,
            "command": c.command,
        })
    });
    let kind = manifest_kind.unwrap_or_else(|| {
        if config.is_some() {
            "tournament".into()
        } else if dir.join("experiment.toml").is_file() {
            "experiment".into()
        } else {
            "folder".into()
        }
    });
    json!({
        "dir": rel,
        "kind": kind,
        "files": files,
        "tournament": settings,
        "replayable": config.is_some(),
        "has_games": dir.join("games.csv").is_file() || dir.join("games.csv.gz").is_file(),
    })
}

/// Opens `games.csv` or `games.csv.gz` of `dir`, if either exists.
fn open_games(dir: &Path) -> Result<Option<Box<dyn Read>>, String> {
    let plain = dir.join("games.csv");
    if plain.is_file() {
        let f = std::fs::File::open(&plain).map_err(|e| e.to_string())?;
        return Ok(Some(Box::new(f)));
    }
    let gz = dir.join("games.csv.gz");
    if gz.is_file() {
        let f = std::fs::File::open(&gz).map_err(|e| e.to_string())?;
        return Ok(Some(Box::new(flate2::read::MultiGzDecoder::new(f))));
    }
    Ok(None)
}

/// Up to `limit` games of `dir`'s `games.csv` from the `offset`-th game (one row per
/// seat, grouped by the `game` column), and the number of games in the file.
fn games(dir: &Path, offset: usize, limit: usize) -> Result<(Vec<GameRow>, usize), String> {
    let Some(reader) = open_games(dir)? else {
        return Ok((Vec::new(), 0));
    };
    let mut csv = csv::Reader::from_reader(reader);
    let headers = csv.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| headers.iter().position(|h| h == name);
    let need = |name: &str| col(name).ok_or(format!("no `{name}` column"));
    let (game, agent, score, rank, won) = (
        need("game")?,
        need("agent")?,
        need("score")?,
        need("rank")?,
        need("won")?,
    );
    let (variant, plies, end) = (col("variant"), col("plies"), col("end"));
    let mut rows: Vec<GameRow> = Vec::new();
    let mut count = 0usize;
    let mut last: Option<u64> = None;
    for record in csv.records() {
        let r = record.map_err(|e| e.to_string())?;
        let get = |i: usize| r.get(i).unwrap_or("").to_string();
        let g: u64 = r
            .get(game)
            .and_then(|x| x.parse().ok())
            .ok_or(format!("a bad game index {:?}", r.get(game)))?;
        if last != Some(g) {
            last = Some(g);
            count += 1;
            if count > offset && rows.len() < limit {
                rows.push(GameRow {
                    game: g,
                    variant: variant.map(get).unwrap_or_default(),
                    seats: Vec::new(),
                    plies: plies.map(get).unwrap_or_default(),
                    end: end.map(get).unwrap_or_default(),
                });
            } else {
                continue;
            }
        }
        if let Some(row) = rows.last_mut().filter(|row| row.game == g) {
            row.seats
                .push((get(agent), get(score), get(rank), get(won) == "1"));
        }
    }
    Ok((rows, count))
}

/// The failed games of `dir`'s `errors.csv` (none when it does not exist).
fn errors(dir: &Path) -> Result<Vec<ErrorRow>, String> {
    let path = dir.join("errors.csv");
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let mut csv = csv::Reader::from_path(&path).map_err(|e| e.to_string())?;
    let headers = csv.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| headers.iter().position(|h| h == name);
    let game = col("game").ok_or("no `game` column")?;
    let mut out = Vec::new();
    for record in csv.records() {
        let r = record.map_err(|e| e.to_string())?;
        let get = |name: &str| col(name).and_then(|i| r.get(i)).unwrap_or("").to_string();
        out.push(ErrorRow {
            game: r
                .get(game)
                .and_then(|x| x.parse().ok())
                .ok_or(format!("a bad game index {:?}", r.get(game)))?,
            seats: get("seats"),
            ply: get("ply"),
            message: get("message"),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_outside_the_root_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("a/pairs/0-1")).unwrap();
        std::fs::write(tmp.path().join("a/report.md"), "# r").unwrap();
        std::fs::write(tmp.path().join("secret.txt"), "no").unwrap();
        let r = Results::new(tmp.path());
        for bad in ["../a", "/etc", "a/../../x", ".git", "a/.hidden"] {
            assert!(
                matches!(r.resolve(bad), Err(ResultsError::BadPath(_))),
                "{bad} was accepted"
            );
        }
        assert!(r.resolve("a/pairs/0-1").is_ok());
        assert!(matches!(r.resolve("b"), Err(ResultsError::Missing(..))));
        assert_eq!(r.file("a", "report.md").unwrap().1, b"# r");
        assert!(r.file("", "secret.txt").is_err(), "only reports and tables");
        let list = r.list();
        let dirs: Vec<&str> = list["folders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["dir"].as_str().unwrap())
            .collect();
        assert_eq!(dirs, ["a", "a/pairs/0-1"]);
    }

    #[test]
    fn games_are_grouped_by_index_and_paged() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(
            tmp.path().join("games.csv"),
            "game,seed,variant,seat,agent,score,rank,won,draw,plies,rounds,end\n\
             0,9,default,0,a,3,1,1,0,10,2,deck\n0,9,default,1,b,1,2,0,0,10,2,deck\n\
             1,8,default,0,b,2,1,1,0,12,2,deck\n1,8,default,1,a,0,2,0,0,12,2,deck\n",
        )
        .unwrap();
        let (rows, total) = games(tmp.path(), 1, 10).unwrap();
        assert_eq!(total, 2);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].game, 1);
        assert_eq!(rows[0].seats[0], ("b".into(), "2".into(), "1".into(), true));
        assert_eq!(rows[0].plies, "12");
        std::fs::write(
            tmp.path().join("errors.csv"),
            "game,seed,variant,seats,ply,message,replay\n7,1,default,a|b,3,\"boom, here\",sim replay\n",
        )
        .unwrap();
        let e = errors(tmp.path()).unwrap();
        assert_eq!(e[0].game, 7);
        assert_eq!(e[0].message, "boom, here");
    }
}
