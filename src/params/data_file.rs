//! A parameter naming a TOML data file (a card list, a board) that replaces a game's
//! built-in data (DESIGN.md §3: "card lists and boards that are data live in data files").

use std::fmt;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

use super::{ParamError, ParamValue, Syntax};

/// The word for "no file, the game's built-in data".
const BUILTIN: &str = "builtin";

/// A TOML data file given as a parameter (`--variant cards=my_cards.toml`), or `builtin`
/// for the game's own data (the usual default).
///
/// Parsing reads the file (relative paths from the current directory), checks that it is
/// UTF-8 TOML, and keeps its text and the SHA-256 of its bytes; the game deserializes the
/// text when it builds its rules ([`DataFile::toml`]). The value is shared: cloning it
/// copies a pointer. [`ParamValue::format_param`] gives the path as typed, so the canonical
/// settings in `config.toml` name the file, and [`ParamValue::fingerprint`] gives the hash,
/// recorded beside them so a rerun can tell whether the file changed.
///
/// A file literally named `builtin` is typed `./builtin`. Two values are equal when their
/// paths and contents are.
///
/// ```
/// use tabletop_sim::params::{DataFile, ParamValue};
/// let d = DataFile::parse_param("builtin").unwrap();
/// assert!(d.is_builtin() && d.fingerprint().is_none());
/// let e = DataFile::parse_param("no/such/file.toml").unwrap_err();
/// assert!(e.contains("cannot read 'no/such/file.toml'"), "{e}");
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct DataFile(Option<Arc<Loaded>>);

/// A file's path as typed, its text and its hash.
#[derive(PartialEq, Eq, Hash)]
struct Loaded {
    path: String,
    sha256: String,
    text: String,
}

impl DataFile {
    /// No file: the game uses its built-in data.
    pub const BUILTIN: DataFile = DataFile(None);

    /// Reads the TOML file at `path`.
    ///
    /// # Errors
    /// The path and the OS error when it cannot be read, or what is wrong with its content
    /// (not UTF-8, not TOML, with the parser's line and column).
    pub fn load(path: &str) -> Result<Self, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        let sha256 = sha256_hex(&bytes);
        let text = String::from_utf8(bytes)
            .map_err(|e| format!("'{path}' is not UTF-8 text: {}", e.utf8_error()))?;
        text.parse::<toml::Table>()
            .map_err(|e| format!("'{path}' is not valid TOML: {}", e.to_string().trim_end()))?;
        Ok(DataFile(Some(Arc::new(Loaded {
            path: path.to_string(),
            sha256,
            text,
        }))))
    }

    /// Whether this is the game's built-in data (no file).
    pub fn is_builtin(&self) -> bool {
        self.0.is_none()
    }

    /// The path as typed; `None` for built-in data.
    pub fn path(&self) -> Option<&str> {
        self.0.as_deref().map(|l| l.path.as_str())
    }

    /// The file's text; `None` for built-in data.
    pub fn text(&self) -> Option<&str> {
        self.0.as_deref().map(|l| l.text.as_str())
    }

    /// The SHA-256 of the file's bytes, 64 lowercase hex digits; `None` for built-in data.
    pub fn sha256(&self) -> Option<&str> {
        self.0.as_deref().map(|l| l.sha256.as_str())
    }

    /// Deserializes the file into the game's data type; `Ok(None)` for built-in data. `key`
    /// and `owner` name the parameter and the game in the error.
    ///
    /// # Errors
    /// [`ParamError::Invalid`] naming the parameter, the path and what does not fit the
    /// expected shape (with the parser's line and column).
    pub fn toml<T: DeserializeOwned>(
        &self,
        key: &str,
        owner: &str,
    ) -> Result<Option<T>, ParamError> {
        let Some(l) = self.0.as_deref() else {
            return Ok(None);
        };
        toml::from_str(&l.text)
            .map(Some)
            .map_err(|e| ParamError::Invalid {
                owner: owner.to_string(),
                reason: format!(
                    "parameter '{key}': data file '{}': {}",
                    l.path,
                    e.to_string().trim_end()
                ),
            })
    }
}

/// Lowercase hex of the SHA-256 of `bytes`.
fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl fmt::Debug for DataFile {
    /// The path and hash, not the text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_deref() {
            None => f.write_str("DataFile(builtin)"),
            Some(l) => write!(f, "DataFile({:?}, sha256 {})", l.path, l.sha256),
        }
    }
}

impl ParamValue for DataFile {
    /// A path may contain anything, so a data file nests in no container.
    const SYNTAX: Syntax = Syntax::ANY;

    fn parse_param(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if s == BUILTIN {
            return Ok(DataFile::BUILTIN);
        }
        DataFile::load(s).map_err(|detail| format!("{}; {detail}", Self::type_name()))
    }

    fn format_param(&self) -> String {
        self.path().unwrap_or(BUILTIN).to_string()
    }

    fn type_name() -> String {
        "path to a TOML data file, or builtin".into()
    }

    fn fingerprint(&self) -> Option<String> {
        self.sha256().map(str::to_string)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamSet;
    use std::path::Path;

    crate::param_set! {
        /// A test set with a data file.
        struct WithData {
            /// The card list.
            cards: DataFile = DataFile::BUILTIN,
            /// Something else.
            size: u8 = 3,
        }
    }

    fn write(dir: &Path, name: &str, text: &str) -> String {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    }

    #[test]
    fn builtin_is_the_default_and_has_no_fingerprint() {
        let d = DataFile::parse_param(" builtin ").unwrap();
        assert_eq!(d, DataFile::BUILTIN);
        assert_eq!(d, DataFile::default());
        assert!(d.is_builtin() && d.path().is_none() && d.text().is_none());
        assert_eq!(d.format_param(), "builtin");
        assert_eq!(d.fingerprint(), None);
        let p = WithData::default();
        assert!(p.fingerprints().is_empty());
        assert_eq!(p.values()[0], ("cards", "builtin".to_string()));
        assert_eq!(p.toml_cards(), None);
        assert_eq!(
            WithData::info()[0].kind,
            "path to a TOML data file, or builtin"
        );
    }

    impl WithData {
        fn toml_cards(&self) -> Option<toml::Table> {
            self.cards.toml("cards", "game g").unwrap()
        }
    }

    #[test]
    fn a_file_keeps_its_path_text_and_sha256() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "cards.toml", "a = 1\n");
        let p = WithData::from_settings(&[format!("cards={path}")], "game g").unwrap();
        assert_eq!(p.cards.path(), Some(path.as_str()));
        assert_eq!(p.cards.text(), Some("a = 1\n"));
        let sha = "cb78bd8a17f7b751fe0d4663366dcbc257204033ef7ddd64b1f2969573b5b2e2";
        assert_eq!(p.cards.sha256(), Some(sha));
        assert_eq!(p.fingerprints(), vec![("cards", sha.to_string())]);
        assert_eq!(p.values()[0], ("cards", path.clone()));
        assert_eq!(
            DataFile::parse_param(&p.cards.format_param()),
            Ok(p.cards.clone())
        );
        assert_eq!(p.toml_cards().unwrap()["a"].as_integer(), Some(1));
        let copy = p.cards.clone();
        assert!(
            std::ptr::eq(copy.text().unwrap(), p.cards.text().unwrap()),
            "a clone shares the text"
        );
        assert!(format!("{copy:?}").contains(sha));
    }

    #[test]
    fn the_hash_follows_the_content_not_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "cards.toml", "a = 1\n");
        let before = DataFile::load(&path).unwrap();
        write(dir.path(), "cards.toml", "a = 2\n");
        let after = DataFile::load(&path).unwrap();
        assert_eq!(
            after.fingerprint().as_deref(),
            Some("1382c01db535c28d9d2e3137ea7b6ff14ed03537bc4dab2e8d40182bd48bbd69")
        );
        assert_ne!(before, after, "same path, different content");
        let other = write(dir.path(), "copy.toml", "a = 2\n");
        let copy = DataFile::load(&other).unwrap();
        assert_eq!(copy.fingerprint(), after.fingerprint());
        assert_ne!(copy, after, "same content, different path");
    }

    #[test]
    fn errors_name_the_parameter_the_path_and_the_cause() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.toml").display().to_string();
        let e = WithData::from_settings(&[format!("cards={missing}")], "game g")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!(
                "bad value '{missing}' for parameter 'cards' of game g: expected path to a \
                 TOML data file, or builtin; cannot read '{missing}': "
            )) && e.contains("os error"),
            "{e}"
        );
        let broken = write(dir.path(), "broken.toml", "a = = 1\n");
        let e = DataFile::parse_param(&broken).unwrap_err();
        assert!(
            e.contains(&format!("'{broken}' is not valid TOML")) && e.contains("line 1"),
            "{e}"
        );
        let binary = dir.path().join("binary.toml");
        std::fs::write(&binary, [b'a', 0xff]).unwrap();
        let e = DataFile::parse_param(&binary.display().to_string()).unwrap_err();
        assert!(e.contains("is not UTF-8 text"), "{e}");
        let dir_path = dir.path().display().to_string();
        assert!(
            DataFile::parse_param(&dir_path)
                .unwrap_err()
                .contains("cannot read")
        );
    }

    #[test]
    fn a_shape_mismatch_names_the_parameter_and_the_path() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Cards {
            names: Vec<String>,
        }
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "cards.toml", "names = 3\n");
        let d = DataFile::load(&path).unwrap();
        let e = d.toml::<Cards>("cards", "game g").unwrap_err().to_string();
        assert!(
            e.starts_with(&format!(
                "invalid parameters for game g: parameter 'cards': data file '{path}': "
            )),
            "{e}"
        );
        let ok = write(dir.path(), "ok.toml", "names = [\"x\"]\n");
        let cards: Cards = DataFile::load(&ok)
            .unwrap()
            .toml("cards", "g")
            .unwrap()
            .unwrap();
        assert_eq!(cards.names, ["x"]);
    }
}
