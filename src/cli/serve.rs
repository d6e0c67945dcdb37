//! `sim serve`: the local web app ([`crate::serve`]) on 127.0.0.1 by default.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use clap::Args;

use super::CliError;

/// The long help of `sim serve`.
pub const LONG_ABOUT: &str = "\
Serve a local web app to play any game against the agents in a browser: a board per game,
your legal moves as buttons, undo, the game log, save and load positions (the format of
`sim play --save-at`).

It listens on 127.0.0.1 (this machine only) and prints the address to open. The page and
its script are built into the program: no network is needed. Each human seat is shown only
its own observation. Stop it with Ctrl-C.

The Results tab lists the result folders under --results (default `results`): their reports
and tables, and any game of a tournament folder (a row of games.csv, a failed game of
errors.csv, or any index) replayed move by move, forwards and backwards, from a seat's view
or the omniscient one, with the agents' search statistics for each move on request.";

/// The port tried first when none is given.
pub const DEFAULT_PORT: u16 = 8765;

/// Options of `sim serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Port to listen on; 0 picks a free port [default: 8765, or a free port when it is
    /// taken].
    #[arg(long)]
    pub port: Option<u16>,

    /// Address to listen on. Anything other than a loopback address lets other machines
    /// play (and read saved positions).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,

    /// The folder whose result folders the page lists and replays.
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub results: std::path::PathBuf,
}

/// Runs `sim serve` until the process is stopped.
///
/// # Errors
/// Bad input (exit 2): the port asked for cannot be bound. A server failure (exit 1).
pub fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let port = args.port.unwrap_or(DEFAULT_PORT);
    let addr = SocketAddr::new(args.host, port);
    // Without --port a taken default port falls back to a free one.
    let addr = match (args.port, std::net::TcpListener::bind(addr)) {
        (None, Err(_)) => SocketAddr::new(args.host, 0),
        (Some(_), Err(e)) => {
            return Err(CliError::bad_input(anyhow::anyhow!(
                "--port {port}: cannot listen on {addr}: {e}"
            )));
        }
        (_, Ok(probe)) => {
            drop(probe);
            addr
        }
    };
    let mut announced = Ok(());
    let results = crate::serve::results::Results::new(args.results.clone());
    let result = crate::serve::serve(addr, results, |bound| {
        announced = writeln!(
            out,
            "sim serve: open http://{bound}/ in a browser (Ctrl-C stops the server); results \
             from {}",
            args.results.display()
        )
        .and_then(|()| out.flush());
    });
    announced.map_err(CliError::failure)?;
    result.map_err(|e| CliError::failure(anyhow::anyhow!("serving on {addr}: {e}")))
}
