//! The `ext` agent kind: an outside program plays a seat over a line-based protocol on its
//! stdin and stdout, the way chess engines speak UCI. The protocol is documented in
//! `docs/ext-protocol.md`; `examples/python/random_bot.py` is a complete client.
//!
//! Spec: `ext:cmd=python3 my_bot.py,timeout_ms=10000`. `cmd` is the command line, split
//! into words at spaces; a word may be quoted with `'…'` or `"…"` to hold spaces (commas
//! cannot appear in a spec value). The program is found on `PATH` and runs in the current
//! directory; its stderr goes to ours, so a traceback is shown.
//!
//! **Lifecycle.** The program is started when the agent first joins a game (building an
//! agent only to check its spec starts nothing), greets with `hello`, then serves every
//! game of this agent object: the runner reuses agent objects across games on a worker, so
//! a tournament starts one process per worker and agent, not one per game. When the agent
//! is dropped the program is sent `quit` and given 500 ms to exit, then killed.
//!
//! **Failures** — a program that cannot start, exits, prints a line that is not a protocol
//! message, answers an id that is not legal, answers a request twice or one it was not
//! asked, or does not answer within `timeout_ms` — end the decision with a panic whose
//! message starts with [`FAILURE_PREFIX`] and names the program, the game index, the seat
//! and the ply (an agent cannot return an error; the runner and `sim play` report panics as
//! the game's failure, and the runner stops a run after a few such games in a row).
//!
//! **Requests** (protocol 2). Every `act` carries a `request` number, unique for the
//! process; a reply names the request it answers (`action <id> <request>`), so a reply is
//! matched to its request and a second answer to one request fails the game in which it
//! was given, not a later one. A program that greets with `"protocol": 2` must name the
//! request and must acknowledge each `result` with `ready <request>` (which lets the
//! simulator see every line of a game before the game is recorded); a protocol-1 program
//! (no `protocol` in its hello) may answer `action <id>` alone, and an extra answer is
//! then caught when it has arrived by the next request or the end of the game.
//!
//! **Reproducibility.** Each decision carries a `seed` drawn from the seat's random stream,
//! so a program that draws its randomness from it plays the same games for the same master
//! seed, whatever the thread count.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use rand::RngExt;
use serde_json::{Value, json};

use super::{Agent, canonical_spec};
use crate::game::{GameStart, Playable, Seat, View};
use crate::params::{ParamError, ParamValue, Syntax};
use crate::rng::SimRng;

/// One line for `sim list`.
pub const DESCRIPTION: &str = "an outside program over stdin/stdout (docs/ext-protocol.md)";

/// The protocol version this build speaks (`hello {"protocol": 2, ...}`); it also serves
/// programs of version 1 (docs/ext-protocol.md, "Versions").
pub const PROTOCOL_VERSION: u32 = 2;

/// How every failure of an external agent's program starts (after `panic: ` in
/// `errors.csv`): the runner counts games failed in a row by external agents by it.
pub const FAILURE_PREFIX: &str = "external agent `";

/// The least time a program gets to start and greet, whatever `timeout_ms` says (an
/// interpreter's start-up on a loaded machine can take seconds).
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a program may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// A command line: the text as typed and its words ([`split_command`]).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CommandLine {
    text: String,
    words: Vec<String>,
}

impl CommandLine {
    /// The program and its arguments.
    pub fn words(&self) -> &[String] {
        &self.words
    }
}

/// Splits a command line into words at whitespace; `'…'` and `"…"` quote spaces (no
/// escapes inside quotes).
///
/// # Errors
/// An unterminated quote.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("an unterminated {q} quote"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

impl ParamValue for CommandLine {
    const SYNTAX: Syntax = Syntax::ANY;

    fn parse_param(s: &str) -> Result<Self, String> {
        let words = split_command(s).map_err(|e| {
            format!("a command line (words separated by spaces, quoted with '…' or \"…\"); {e}")
        })?;
        Ok(CommandLine {
            text: s.trim().to_string(),
            words,
        })
    }

    fn format_param(&self) -> String {
        self.text.clone()
    }

    fn type_name() -> String {
        "command line".into()
    }
}

crate::param_set! {
    /// Settings of the external agent.
    pub struct Params {
        /// The program's command line, e.g. `python3 examples/python/random_bot.py` (required; no commas).
        pub cmd: CommandLine = CommandLine::default(),
        /// Milliseconds the program may take to answer each decision (to start and greet: at least 10 s); >= 1.
        pub timeout_ms: u64 = 10_000,
    }
    validate = check_params;
}

fn check_params(p: &Params, owner: &str) -> Result<(), ParamError> {
    let reason = if p.cmd.words.is_empty() {
        "cmd is required: the program to run, e.g. ext:cmd=python3 examples/python/random_bot.py"
    } else if p.timeout_ms == 0 {
        "timeout_ms must be at least 1"
    } else {
        return Ok(());
    };
    Err(ParamError::Invalid {
        owner: owner.to_string(),
        reason: reason.to_string(),
    })
}

/// A line the program sent, as the protocol reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `hello {"name": ..., "version": ..., "protocol": ...}`: the greeting.
    Hello {
        /// The program's name.
        name: String,
        /// Its version (empty if not given).
        version: String,
        /// The protocol version it speaks (1 when not given).
        protocol: u64,
    },
    /// `action <id> [<request>]`: the chosen action's id and the request it answers.
    Action {
        /// The action id.
        id: u64,
        /// The request answered (protocol 2; `None` from a protocol-1 program).
        request: Option<u64>,
    },
    /// `ready <request>`: the acknowledgement of a `result` (protocol 2).
    Ready(u64),
    /// A blank line or `info …`: ignored.
    Ignore,
}

/// Why a line is not a protocol message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// An unknown keyword or a malformed message.
    #[error("'{line}' is not a protocol message ({why})")]
    Garbage {
        /// The line, shortened to 200 characters.
        line: String,
        /// What was expected.
        why: String,
    },
}

fn garbage(line: &str, why: &str) -> ProtocolError {
    let mut shown: String = line.chars().take(200).collect();
    if shown.len() < line.len() {
        shown.push('…');
    }
    ProtocolError::Garbage {
        line: shown,
        why: why.to_string(),
    }
}

/// Reads one line from the program: `hello {json}`, `action <id> [<request>]`,
/// `ready <request>`, `info …` or a blank line.
/// Never panics, whatever the line.
///
/// # Errors
/// [`ProtocolError::Garbage`] naming the line and what was expected.
pub fn parse_reply(line: &str) -> Result<Reply, ProtocolError> {
    let line = line.trim_end_matches(['\r', '\n']);
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return Ok(Reply::Ignore);
    }
    let (word, rest) = match trimmed.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (trimmed, ""),
    };
    match word {
        "info" => Ok(Reply::Ignore),
        "action" => {
            let bad = || {
                garbage(
                    line,
                    "expected `action <id> <request>` (or `action <id>` from a protocol-1 \
                     program) with non-negative integers",
                )
            };
            let mut words = rest.split_whitespace();
            let id = words
                .next()
                .and_then(|w| w.parse::<u64>().ok())
                .ok_or_else(bad)?;
            let request = match words.next() {
                None => None,
                Some(w) => Some(w.parse::<u64>().map_err(|_| bad())?),
            };
            if words.next().is_some() {
                return Err(bad());
            }
            Ok(Reply::Action { id, request })
        }
        "ready" => rest.parse::<u64>().map(Reply::Ready).map_err(|_| {
            garbage(
                line,
                "expected `ready <request>` with the request number of the `result`",
            )
        }),
        "hello" => {
            let v: Value = serde_json::from_str(rest).map_err(|_| {
                garbage(
                    line,
                    "expected `hello {\"name\": ..., \"version\": ...}` with a JSON object",
                )
            })?;
            let name = v
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| garbage(line, "the hello object needs a string field \"name\""))?;
            let version = v.get("version").and_then(Value::as_str).unwrap_or("");
            let protocol = match v.get("protocol") {
                None => 1,
                Some(p) => p.as_u64().filter(|&p| p >= 1).ok_or_else(|| {
                    garbage(line, "\"protocol\" must be a positive integer (1 or 2)")
                })?,
            };
            Ok(Reply::Hello {
                name: name.to_string(),
                version: version.to_string(),
                protocol,
            })
        }
        _ => Err(garbage(
            line,
            "expected `hello {...}`, `action <id> <request>`, `ready <request>`, `info ...` or \
             a blank line",
        )),
    }
}

/// A running program: its stdin, and its stdout lines arriving through a reader thread so
/// that reads can time out.
struct Program {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    name: String,
    /// The protocol version of its hello.
    protocol: u64,
    /// The number of the last request sent (`act` and, for protocol 2, `result`).
    request: u64,
    /// Where recent requests were asked (request, game, seat, ply), to name the request a
    /// late second answer belongs to.
    asked: std::collections::VecDeque<(u64, u64, Seat, u32)>,
}

impl Program {
    fn start(cmd: &CommandLine) -> Result<Program, String> {
        let (program, args) = cmd
            .words
            .split_first()
            .ok_or_else(|| "the command line is empty".to_string())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("could not be started: {e}"))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name("ext-agent-reader".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let failed = line.is_err();
                    if tx.send(line).is_err() || failed {
                        break;
                    }
                }
            })
            .map_err(|e| format!("could not start a reader thread: {e}"))?;
        Ok(Program {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            name: String::new(),
            protocol: 1,
            request: 0,
            asked: std::collections::VecDeque::new(),
        })
    }

    /// What became of a program whose stdout closed or whose stdin broke.
    fn exited(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("exited ({status})"),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => return "closed its output".to_string(),
            }
        }
    }

    fn send(&mut self, keyword: &str, payload: &Value) -> Result<(), String> {
        let line = format!("{keyword} {payload}\n");
        let ok = match self.stdin.as_mut() {
            Some(w) => w.write_all(line.as_bytes()).and_then(|_| w.flush()).is_ok(),
            None => false,
        };
        if ok { Ok(()) } else { Err(self.exited()) }
    }

    /// A new request number, remembered with where it is asked.
    fn next_request(&mut self, game: u64, seat: Seat, ply: u32) -> u64 {
        self.request += 1;
        if self.asked.len() == 64 {
            self.asked.pop_front();
        }
        self.asked.push_back((self.request, game, seat, ply));
        self.request
    }

    /// Names request `r`: where it was asked, if remembered.
    fn describe(&self, r: u64) -> String {
        match self.asked.iter().find(|a| a.0 == r) {
            Some((_, game, seat, ply)) => {
                format!("request {r} (game {game}, seat {seat}, ply {ply})")
            }
            None => format!("request {r}, which was never asked"),
        }
    }

    /// Fails if a message arrived that no request asked for: a second answer to an earlier
    /// request (every answer so far was read). Does not wait.
    fn nothing_unasked(&mut self) -> Result<(), String> {
        while let Ok(line) = self.lines.try_recv() {
            let Ok(line) = line else { return Ok(()) };
            match parse_reply(&line) {
                Ok(Reply::Ignore) => {}
                Ok(
                    Reply::Action {
                        request: Some(r), ..
                    }
                    | Reply::Ready(r),
                ) => {
                    return Err(format!(
                        "answered {} again ('{}'): each request gets one answer",
                        self.describe(r),
                        line.trim()
                    ));
                }
                Ok(_) => {
                    return Err(format!(
                        "sent '{}' when no request was waiting (a second answer to the last \
                         request?)",
                        line.trim()
                    ));
                }
                Err(e) => return Err(format!("printed garbage: {e}")),
            }
        }
        Ok(())
    }

    /// The next message that is not ignored, within `timeout`.
    fn receive(&mut self, timeout: Duration, what: &str) -> Result<Reply, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Ok(line)) => match parse_reply(&line) {
                    Ok(Reply::Ignore) => continue,
                    Ok(r) => return Ok(r),
                    Err(e) => return Err(format!("printed garbage instead of {what}: {e}")),
                },
                Ok(Err(e)) => return Err(format!("could not be read: {e}")),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "did not send {what} within {} ms{}; it was stopped. If it did write \
                         it, make sure the program flushes stdout after every line (Python: \
                         print(..., flush=True))",
                        timeout.as_millis(),
                        if what == "its hello" {
                            ""
                        } else {
                            " (timeout_ms)"
                        }
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{} before sending {what}", self.exited()));
                }
            }
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        if let Some(mut w) = self.stdin.take() {
            let _ = w.write_all(b"quit\n").and_then(|_| w.flush());
        }
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An agent played by an outside program (see the module docs).
pub struct ExtAgent<G: Playable> {
    params: Params,
    program: Option<Program>,
    /// The game being played (for messages).
    index: u64,
    /// Whether the program failed: later decisions fail at once instead of waiting again.
    broken: Option<String>,
    buf: Vec<G::Action>,
}

impl<G: Playable> ExtAgent<G> {
    /// An external agent for `params` (nothing is started until the first game).
    pub fn new(params: Params) -> Self {
        ExtAgent {
            params,
            program: None,
            index: 0,
            broken: None,
            buf: Vec::new(),
        }
    }

    fn timeout(&self) -> Duration {
        Duration::from_millis(self.params.timeout_ms)
    }

    /// Panics with the program, the game, the seat and the ply.
    fn fail(&mut self, seat: Seat, ply: u32, problem: String) -> ! {
        self.broken = Some(problem.clone());
        // Stop a program that misbehaved, so that it cannot answer a later question with a
        // stale line.
        self.program = None;
        panic!(
            "{FAILURE_PREFIX}{}` (game {}, seat {seat}, ply {ply}): {problem}",
            self.params.cmd.text, self.index
        )
    }

    /// The running program, started and greeted if needed.
    fn program(&mut self) -> Result<&mut Program, String> {
        if let Some(b) = &self.broken {
            return Err(format!("failed earlier: {b}"));
        }
        if self.program.is_none() {
            let mut p = Program::start(&self.params.cmd)?;
            p.send(
                "hello",
                &json!({
                    "protocol": PROTOCOL_VERSION,
                    "program": "tabletop-sim",
                    "version": env!("CARGO_PKG_VERSION"),
                }),
            )?;
            match p.receive(self.timeout().max(HELLO_TIMEOUT), "its hello")? {
                Reply::Hello { name, protocol, .. } => {
                    if protocol > u64::from(PROTOCOL_VERSION) {
                        return Err(format!(
                            "greeted with protocol {protocol}, but this build speaks protocol \
                             {PROTOCOL_VERSION} (and 1)"
                        ));
                    }
                    p.name = name;
                    p.protocol = protocol;
                }
                other => return Err(format!("answered the hello with {other:?}")),
            }
            self.program = Some(p);
        }
        Ok(self.program.as_mut().expect("started above"))
    }
}

impl<G: Playable> Agent<G> for ExtAgent<G> {
    fn spec(&self) -> String {
        canonical_spec("ext", &self.params)
    }

    fn start_game(&mut self, start: &GameStart<G>) {
        self.index = start.index;
        let rules = start.rules;
        let variant: serde_json::Map<String, Value> = rules
            .variant()
            .iter()
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
            .collect();
        let message = json!({
            "game": G::NAME,
            "players": rules.players(),
            "seat": start.seat,
            "variant": variant,
            "index": start.index,
        });
        let sent = self.program().and_then(|p| p.send("game", &message));
        if let Err(problem) = sent {
            self.fail(start.seat, 0, problem);
        }
    }

    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action {
        let (seat, ply) = (view.seat(), view.ply() + 1);
        let mut legal = std::mem::take(&mut self.buf);
        view.legal_actions(&mut legal);
        let index = self.index;
        let request = match self.program() {
            Ok(p) => p.next_request(index, seat, ply),
            Err(problem) => self.fail(seat, ply, problem),
        };
        let message = json!({
            "request": request,
            "seat": seat,
            "ply": ply,
            "round": view.round(),
            "seed": rng.random::<u64>(),
            "observation": crate::games::log::log::<G>().observation_json(&view.observation()),
            "legal": legal
                .iter()
                .map(|a| json!({"id": G::action_id(*a), "name": a.to_string()}))
                .collect::<Vec<_>>(),
        });
        let timeout = self.timeout();
        let answer = self.program().and_then(|p| {
            p.nothing_unasked()?;
            p.send("act", &message)?;
            let reply = p.receive(timeout, "an action")?;
            match reply {
                Reply::Action {
                    request: Some(r), ..
                } if r != request => Err(format!(
                    "answered {} while request {request} was waiting: each request gets one \
                     answer",
                    p.describe(r)
                )),
                Reply::Action { request: None, .. } if p.protocol >= 2 => Err(format!(
                    "answered without the request number; a protocol-{} program answers \
                     `action <id> {request}`",
                    p.protocol
                )),
                other => Ok(other),
            }
        });
        let chosen = match answer {
            Ok(Reply::Action { id, .. }) => legal
                .iter()
                .copied()
                .find(|a| G::action_id(*a) as u64 == id)
                .ok_or_else(|| {
                    let ids: Vec<String> = legal
                        .iter()
                        .map(|a| format!("{} ({a})", G::action_id(*a)))
                        .collect();
                    format!(
                        "answered action {id}, which is not legal here; legal ids: {}",
                        ids.join(", ")
                    )
                }),
            Ok(other) => Err(format!("answered {other:?} instead of an action")),
            Err(problem) => Err(problem),
        };
        self.buf = legal;
        match chosen {
            Ok(a) => a,
            Err(problem) => self.fail(seat, ply, problem),
        }
    }

    fn end_game(&mut self, view: &View<'_, G>) {
        let Some((scores, ranks)) = view.outcome() else {
            return;
        };
        let n = view.num_players();
        let (seat, ply) = (view.seat(), view.ply());
        let (index, timeout) = (self.index, self.timeout());
        let Some(p) = self.program.as_mut() else {
            return;
        };
        let request = p.next_request(index, seat, ply);
        let message = json!({
            "request": request,
            "seat": seat,
            "scores": &scores[..n],
            "ranks": &ranks[..n],
            "observation": crate::games::log::log::<G>().observation_json(&view.observation()),
        });
        // Every line the program sent during this game is read before the game is
        // recorded: a second answer to one of its requests fails this game. A protocol-2
        // program acknowledges the result, so its lines have all arrived; for a protocol-1
        // program, those that have.
        let checked = p.nothing_unasked().and_then(|()| {
            p.send("result", &message)?;
            if p.protocol < 2 {
                return Ok(());
            }
            match p.receive(timeout, "its `ready` for the result")? {
                Reply::Ready(r) if r == request => Ok(()),
                Reply::Ready(r)
                | Reply::Action {
                    request: Some(r), ..
                } => Err(format!(
                    "answered {} while the result (request {request}) was waiting for `ready \
                     {request}`",
                    p.describe(r)
                )),
                other => Err(format!(
                    "answered {other:?} instead of `ready {request}` for the result"
                )),
            }
        });
        // A program that fails here fails this game; a program that failed earlier (and
        // was stopped) is not asked.
        if let Err(problem) = checked {
            self.fail(seat, ply, problem);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn command_lines_split_at_spaces_and_keep_quoted_words() {
        assert_eq!(
            split_command(" python3  bot.py --x 'a b' \"c d\"e ").unwrap(),
            ["python3", "bot.py", "--x", "a b", "c de"]
        );
        assert!(split_command("python3 'bot.py").is_err());
        let p = super::super::canonicalize("ext:cmd=python3 bot.py").unwrap();
        assert_eq!(p, "ext:cmd=python3 bot.py,timeout_ms=10000");
        let e = super::super::canonicalize("ext").unwrap_err().to_string();
        assert!(e.contains("cmd is required"), "{e}");
        let e = super::super::canonicalize("ext:cmd=x,timeout_ms=0")
            .unwrap_err()
            .to_string();
        assert!(e.contains("timeout_ms"), "{e}");
    }

    #[test]
    fn replies_parse_and_garbage_is_named() {
        assert_eq!(
            parse_reply("action 3\n"),
            Ok(Reply::Action {
                id: 3,
                request: None
            })
        );
        assert_eq!(
            parse_reply("action 3 17"),
            Ok(Reply::Action {
                id: 3,
                request: Some(17)
            })
        );
        assert_eq!(parse_reply("ready 4"), Ok(Reply::Ready(4)));
        assert_eq!(parse_reply("  "), Ok(Reply::Ignore));
        assert_eq!(parse_reply("info thinking"), Ok(Reply::Ignore));
        assert_eq!(
            parse_reply(r#"hello {"name": "bot", "version": "2"}"#),
            Ok(Reply::Hello {
                name: "bot".into(),
                version: "2".into(),
                protocol: 1
            })
        );
        assert_eq!(
            parse_reply(r#"hello {"name": "bot", "protocol": 2}"#),
            Ok(Reply::Hello {
                name: "bot".into(),
                version: String::new(),
                protocol: 2
            })
        );
        for bad in [
            "action",
            "action -1",
            "action x",
            "action 3 x",
            "action 3 4 5",
            "ready",
            "hello {\"name\": \"b\", \"protocol\": 0}",
            "hello",
            "hello {}",
            "move 3",
            "3",
        ] {
            let e = parse_reply(bad).unwrap_err().to_string();
            assert!(e.contains(bad), "{e}");
        }
    }

    proptest! {
        /// The reader never panics: any line is a message or an error.
        #[test]
        fn arbitrary_lines_never_panic(line in any::<String>()) {
            let _ = parse_reply(&line);
        }

        #[test]
        fn arbitrary_protocol_like_lines_never_panic(
            word in prop::sample::select(vec!["hello", "action", "info", "", "quit"]),
            rest in "[ -~]{0,40}",
        ) {
            let _ = parse_reply(&format!("{word} {rest}"));
        }
    }
}
