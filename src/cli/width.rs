//! The console's width: tables and long lines on stdout fitted to the terminal.
//!
//! When stdout is a terminal, `sim` fits its console output to its width: the summary
//! tables ([`crate::format::Table::to_text`]) narrow their widest columns and wrap their
//! cells, and the lines of the commands that print reports ([`wraps_lines`]) are wrapped
//! at word boundaries ([`WrapLines`]). The width is `COLUMNS` when it is set to a number
//! (so a user can ask for a narrower layout), else the terminal's own (`terminal_size`).
//!
//! When stdout is **not** a terminal (a file, a pipe, a test, a committed transcript)
//! nothing changes: the bytes are exactly those of earlier versions, and `COLUMNS` is
//! ignored, because a shell may export it (bash does with `checkwinsize`) and a script's
//! saved output must not depend on the window it ran in.

use std::io::{self, IsTerminal, Write};

/// Terminals narrower than this are not wrapped for: the output would be mostly line
/// breaks.
pub const MIN_WIDTH: usize = 20;

/// The width to fit stdout to: `None` unless stdout is a terminal; then `COLUMNS` if it
/// holds a number of at least [`MIN_WIDTH`], else the terminal's width if at least
/// [`MIN_WIDTH`], else `None`.
pub fn stdout_width() -> Option<usize> {
    if !io::stdout().is_terminal() {
        return None;
    }
    let columns = std::env::var("COLUMNS").ok();
    width_from(
        columns.as_deref(),
        terminal_size::terminal_size_of(io::stdout()).map(|(w, _)| usize::from(w.0)),
    )
}

/// [`stdout_width`] for a terminal, from `COLUMNS` and the terminal's width.
fn width_from(columns: Option<&str>, terminal: Option<usize>) -> Option<usize> {
    let wide = |w: &usize| *w >= MIN_WIDTH;
    columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(wide)
        .or(terminal.filter(wide))
}

/// Whether a command's stdout lines are wrapped to the terminal: the commands that print
/// reports and summaries (prose and tables). Not `play`, `replay`, `analyze` and `serve`,
/// whose boards, move lists and prompts are laid out by column, and not machine-readable
/// output (`sim info --format json`).
pub fn wraps_lines(command: &super::Command) -> bool {
    use super::Command as C;
    match command {
        C::Info(a) => matches!(a.format, super::info::Format::Text),
        C::Tournament(_)
        | C::Experiment(_)
        | C::Solve(_)
        | C::Soak(_)
        | C::Merge(_)
        | C::Report(_)
        | C::Skill(_)
        | C::Verify(_)
        | C::Balance(_)
        | C::Design(_)
        | C::List(_) => true,
        C::Play(_) | C::Replay(_) | C::Analyze(_) | C::Serve(_) => false,
    }
}

/// A writer that wraps each line longer than `width` at word boundaries
/// ([`super::wrap_to`]: continuation lines indented by two spaces) before passing it on;
/// with no width it passes every byte through unchanged. Lines are held until their
/// newline; [`Write::flush`] passes on a pending partial line as it is (a progress line, a
/// prompt), and the rest of that line is wrapped as if it had been written whole when it
/// can be (else passed on as it is).
#[derive(Debug)]
pub struct WrapLines<W: Write> {
    inner: W,
    width: Option<usize>,
    /// The current line's bytes not yet passed on.
    pending: Vec<u8>,
    /// The current line's bytes already passed on by a flush.
    sent: Vec<u8>,
}

impl<W: Write> WrapLines<W> {
    /// Wraps `inner` at `width` characters (`None`: unchanged).
    pub fn new(inner: W, width: Option<usize>) -> Self {
        WrapLines {
            inner,
            width,
            pending: Vec::new(),
            sent: Vec::new(),
        }
    }

    /// Passes on one complete line (without its newline) of the current line.
    fn emit_line(&mut self, width: usize) -> io::Result<()> {
        let sent = self.sent.len();
        let mut whole = std::mem::take(&mut self.sent);
        whole.append(&mut self.pending);
        let text = String::from_utf8_lossy(&whole);
        let wrapped = if text.chars().count() > width {
            super::wrap_to(&text, width)
        } else {
            text.into_owned()
        };
        // What a flush already passed on stays; the rest follows as wrapped, if the
        // wrapping kept that start, else unchanged.
        let rest: &[u8] = match wrapped.as_bytes().strip_prefix(&whole[..sent]) {
            Some(r) => r,
            None => &whole[sent..],
        };
        self.inner.write_all(rest)?;
        self.inner.write_all(b"\n")
    }
}

impl<W: Write> Write for WrapLines<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let Some(width) = self.width else {
            return self.inner.write(buf);
        };
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            self.pending.extend_from_slice(&rest[..i]);
            self.emit_line(width)?;
            rest = &rest[i + 1..];
        }
        self.pending.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            self.inner.write_all(&self.pending)?;
            let p = std::mem::take(&mut self.pending);
            self.sent.extend(p);
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(width: Option<usize>, parts: &[&str], flush_after: &[usize]) -> String {
        let mut w = WrapLines::new(Vec::new(), width);
        for (i, p) in parts.iter().enumerate() {
            w.write_all(p.as_bytes()).unwrap();
            if flush_after.contains(&i) {
                w.flush().unwrap();
            }
        }
        w.flush().unwrap();
        String::from_utf8(w.inner).unwrap()
    }

    #[test]
    fn without_a_width_every_byte_passes_unchanged() {
        let long = "word ".repeat(40);
        assert_eq!(
            through(None, &[&long, "\n", "x"], &[]),
            format!("{long}\nx")
        );
    }

    #[test]
    fn long_lines_wrap_at_words_and_short_ones_stay() {
        let out = through(
            Some(24),
            &[
                "short line\n",
                "the seats are not equal at any player count\n",
            ],
            &[],
        );
        assert_eq!(
            out,
            "short line\nthe seats are not equal\n  at any player count\n"
        );
        for l in out.lines() {
            assert!(l.chars().count() <= 24, "{l:?}");
        }
    }

    #[test]
    fn a_flushed_start_is_kept_and_the_rest_wrapped_with_it() {
        let out = through(
            Some(24),
            &["the seats are ", "not equal at any player count\nnext\n"],
            &[0],
        );
        assert_eq!(
            out,
            "the seats are not equal\n  at any player count\nnext\n"
        );
        // A flushed start that the wrapping breaks: the rest is passed on unchanged.
        let out = through(Some(24), &["abcdefghijklmnopqrstuvwxyz ", "tail\n"], &[0]);
        assert_eq!(out, "abcdefghijklmnopqrstuvwxyz tail\n");
    }

    #[test]
    fn columns_wins_then_the_terminal_then_nothing_below_the_minimum() {
        assert_eq!(width_from(Some("60"), Some(200)), Some(60));
        assert_eq!(width_from(Some("junk"), Some(200)), Some(200));
        assert_eq!(width_from(None, Some(100)), Some(100));
        assert_eq!(width_from(Some("10"), Some(100)), Some(100));
        assert_eq!(width_from(None, Some(12)), None);
        assert_eq!(width_from(None, None), None);
    }
}
