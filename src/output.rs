//! Output directories whose files appear all at once: the one writer behind every command
//! that writes files (`sim tournament`, `sim experiment`, `sim solve`).
//!
//! Every file of an [`OutputDir`] is written as `NAME.partial` and renamed to `NAME` only by
//! [`OutputDir::commit`], after the whole run succeeded, in the order the files were
//! created. By convention the last file created is the record of the run (`config.toml`,
//! `experiment.toml`): any stale copy of it is removed before the renames and it is renamed
//! last, so a directory holding it holds a complete, consistent set of files from one run.
//!
//! - A run that fails (an error return, a panic that unwinds) drops its [`OutputDir`]
//!   uncommitted, which removes its partial files: nothing incomplete is left behind.
//! - A run that is killed leaves only `*.partial` files (ignored by `.gitignore`); a file
//!   with its final name is always complete.
//! - Files are not `fsync`ed: the promise is about failed and killed runs, not about a
//!   crash of the operating system, and syncing a multi-gigabyte `games.csv` would cost
//!   seconds.
//!
//! Errors say which file failed. The first file created doubles as the check that the
//! directory is writable, so a failure there is [`OutputError::Dir`]: bad input for the
//! CLI (exit 2), reported before any work when the caller creates its files up front.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why an output file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The directory cannot be created, or no file can be created in it (bad input: the
    /// user chose an unusable `--out`).
    #[error("cannot write to the output directory '{}': {error}", path.display())]
    Dir {
        /// The directory.
        path: PathBuf,
        /// The I/O error (part of the message, not a separate source).
        error: io::Error,
    },
    /// Writing, flushing or renaming one file failed (a failure of the run).
    #[error("writing '{}' failed: {error}", path.display())]
    Write {
        /// The file, by its final name.
        path: PathBuf,
        /// The I/O error (part of the message, not a separate source).
        error: io::Error,
    },
}

impl OutputError {
    /// Whether the error is the user's input (an unusable output directory) rather than a
    /// failure during the run.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, OutputError::Dir { .. })
    }

    /// A [`OutputError::Write`] for `path`.
    pub fn write(path: impl Into<PathBuf>, error: io::Error) -> Self {
        OutputError::Write {
            path: path.into(),
            error,
        }
    }
}

/// A directory whose files are written as `NAME.partial` and renamed together on
/// [`OutputDir::commit`] (see the module docs); dropped uncommitted, it removes its partial
/// files.
#[derive(Debug)]
pub struct OutputDir {
    dir: PathBuf,
    /// (partial path, final path), in creation order.
    files: Vec<(PathBuf, PathBuf)>,
    committed: bool,
}

impl OutputDir {
    /// Creates the directory (and its parents) if needed. Nothing is written yet.
    ///
    /// # Errors
    /// [`OutputError::Dir`] if the directory cannot be created.
    pub fn create(dir: &Path) -> Result<Self, OutputError> {
        fs::create_dir_all(dir).map_err(|error| OutputError::Dir {
            path: dir.to_path_buf(),
            error,
        })?;
        Ok(OutputDir {
            dir: dir.to_path_buf(),
            files: Vec::new(),
            committed: false,
        })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The final path of file `name` (for error messages).
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Creates (or truncates) `NAME.partial` and registers `name` for the commit. Creating
    /// a name again truncates its partial file and keeps its place in the commit order.
    ///
    /// # Errors
    /// [`OutputError::Dir`] if this is the directory's first file (the writability check),
    /// [`OutputError::Write`] otherwise.
    pub fn create_file(&mut self, name: &str) -> Result<File, OutputError> {
        let partial = self.dir.join(format!("{name}.partial"));
        let file = File::create(&partial).map_err(|error| {
            if self.files.is_empty() {
                OutputError::Dir {
                    path: self.dir.clone(),
                    error,
                }
            } else {
                OutputError::write(self.dir.join(name), error)
            }
        })?;
        if !self.files.iter().any(|(p, _)| *p == partial) {
            self.files.push((partial, self.dir.join(name)));
        }
        Ok(file)
    }

    /// Writes file `name` through a buffered writer given to `fill`, then flushes it.
    ///
    /// # Errors
    /// As [`OutputDir::create_file`]; the I/O error of `fill` or of the flush as
    /// [`OutputError::Write`] naming the file.
    pub fn write_with(
        &mut self,
        name: &str,
        fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<(), OutputError> {
        let mut w = BufWriter::new(self.create_file(name)?);
        fill(&mut w)
            .and_then(|()| w.flush())
            .map_err(|e| OutputError::write(self.path(name), e))
    }

    /// Writes file `name` with the contents `bytes`.
    ///
    /// # Errors
    /// As [`OutputDir::write_with`].
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> Result<(), OutputError> {
        self.write_with(name, |w| w.write_all(bytes))
    }

    /// Renames every partial file to its final name, in creation order (the last created
    /// last), after removing a stale final copy of the last one, so that a failure here
    /// never leaves an old record of a run beside new data. Returns the final paths in
    /// rename order.
    ///
    /// # Errors
    /// [`OutputError::Write`] naming the file that could not be removed or renamed; the
    /// partial files not yet renamed are removed.
    pub fn commit(mut self) -> Result<Vec<PathBuf>, OutputError> {
        if let Some((_, last)) = self.files.last() {
            match fs::remove_file(last) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(OutputError::write(last.clone(), e)),
            }
        }
        let mut done = Vec::with_capacity(self.files.len());
        for (partial, fin) in &self.files {
            fs::rename(partial, fin).map_err(|e| OutputError::write(fin.clone(), e))?;
            done.push(fin.clone());
        }
        self.committed = true;
        Ok(done)
    }
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        if !self.committed {
            for (partial, _) in &self.files {
                let _ = fs::remove_file(partial);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn files_appear_only_on_commit_in_creation_order() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a/b");
        let mut out = OutputDir::create(&dir).unwrap();
        out.create_file("data.csv")
            .unwrap()
            .write_all(b"1,2\n")
            .unwrap();
        out.write_with("table.csv", |w| writeln!(w, "x")).unwrap();
        out.write("config.toml", b"k = 1\n").unwrap();
        assert_eq!(
            names(&dir),
            [
                "config.toml.partial",
                "data.csv.partial",
                "table.csv.partial"
            ]
        );
        let done = out.commit().unwrap();
        let done: Vec<&str> = done
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap())
            .collect();
        assert_eq!(done, ["data.csv", "table.csv", "config.toml"]);
        assert_eq!(names(&dir), ["config.toml", "data.csv", "table.csv"]);
        assert_eq!(fs::read(dir.join("data.csv")).unwrap(), b"1,2\n");
        assert_eq!(fs::read(dir.join("table.csv")).unwrap(), b"x\n");
    }

    #[test]
    fn an_uncommitted_directory_removes_its_partial_files() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("keep.txt"), "mine").unwrap();
        let mut out = OutputDir::create(tmp.path()).unwrap();
        out.write("games.csv", b"half").unwrap();
        assert!(tmp.path().join("games.csv.partial").exists());
        drop(out);
        assert_eq!(names(tmp.path()), ["keep.txt"]);
    }

    #[test]
    fn a_panic_removes_the_partial_files() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let r = std::panic::catch_unwind(move || {
            let mut out = OutputDir::create(&dir).unwrap();
            out.write("x.csv", b"1").unwrap();
            panic!("the run fails");
        });
        assert!(r.is_err());
        assert!(names(tmp.path()).is_empty());
    }

    #[test]
    fn commit_replaces_an_old_run_and_recreating_a_name_truncates() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("config.toml"), "old").unwrap();
        fs::write(tmp.path().join("games.csv"), "old").unwrap();
        let mut out = OutputDir::create(tmp.path()).unwrap();
        out.write("games.csv", b"first attempt").unwrap();
        out.write("config.toml", b"new").unwrap();
        out.write("games.csv", b"new").unwrap();
        let done = out.commit().unwrap();
        assert!(done.last().unwrap().ends_with("config.toml"));
        assert_eq!(done.len(), 2);
        assert_eq!(fs::read(tmp.path().join("config.toml")).unwrap(), b"new");
        assert_eq!(fs::read(tmp.path().join("games.csv")).unwrap(), b"new");
        assert_eq!(names(tmp.path()), ["config.toml", "games.csv"]);
    }

    #[test]
    fn an_unusable_directory_is_bad_input_and_later_errors_name_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("plain-file");
        fs::write(&file, "x").unwrap();
        let e = OutputDir::create(&file.join("sub")).unwrap_err();
        assert!(e.is_bad_input(), "{e}");
        assert!(e.to_string().contains("plain-file/sub"), "{e}");

        let mut out = OutputDir::create(tmp.path()).unwrap();
        out.write("a.csv", b"1").unwrap();
        // A name that cannot be created once the directory is known to be writable.
        let e = out.create_file("missing-dir/b.csv").unwrap_err();
        assert!(!e.is_bad_input(), "{e}");
        assert!(e.to_string().contains("missing-dir/b.csv"), "{e}");
        let e = out
            .write_with("c.csv", |_| Err(io::Error::other("disk full")))
            .unwrap_err();
        assert!(
            !e.is_bad_input()
                && e.to_string().contains("c.csv")
                && e.to_string().contains("disk full"),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_first_file_checks_that_the_directory_is_writable() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("ro");
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
        // Root ignores permissions; the check only means something for other users.
        if File::create(dir.join("probe")).is_err() {
            let mut out = OutputDir::create(&dir).unwrap();
            let e = out.create_file("games.csv").unwrap_err();
            assert!(e.is_bad_input(), "{e}");
        }
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    }
}
