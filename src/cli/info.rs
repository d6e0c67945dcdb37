//! `sim info`: a game's static facts ([`crate::game::GameType`]) and the facts under a
//! player count and rule variant ([`crate::game::GameInfo`]): dynamics, chance mode,
//! information, utility, number of action ids, the bound on the game length, and the
//! observation tensor's shape and layout field by field. `--format json` prints the same
//! facts as one JSON object, for scripts and the Python module.

use std::io::Write;

use anyhow::Context;
use clap::{Args, ValueEnum};

use super::CliError;
use crate::game::{GameInfo, Playable};
use crate::params::ParamSet;

/// The long help of `sim info`.
pub const LONG_ABOUT: &str = "\
Print a game's facts (OpenSpiel's GameType and GameInfo): its names, player range,
dynamics (sequential, or with simultaneous nodes), chance mode, information (perfect or
imperfect), utility (zero-, constant- or general-sum), whether its information states are
perfect recall, the number of distinct action ids (the length of the legal-action mask),
an upper bound on the game length in plies, and the observation tensor's shape with its
layout field by field (offset, length, meaning). The facts that depend on the rules are
given for --players (default: the game's default) and the --variant settings.";

/// Output format of `sim info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Aligned text.
    Text,
    /// One JSON object.
    Json,
}

/// Options of `sim info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// Game (`sim list` shows the games).
    #[arg(short, long, help = super::game_help())]
    pub game: String,

    /// Number of seats [default: the game's default].
    #[arg(short, long, value_name = "N")]
    pub players: Option<usize>,

    /// A rule variant `key=value` (repeatable; `sim list` shows the parameters).
    #[arg(long, value_name = "KEY=VALUE")]
    pub variant: Vec<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// The facts of game `G` under the options' player count and variant.
fn facts<G: Playable>(args: &InfoArgs) -> Result<GameInfo, CliError> {
    let owner = format!("game {}", G::NAME);
    let params = G::Params::from_settings(&args.variant, &owner).map_err(CliError::bad_input)?;
    let players = args.players.unwrap_or(G::DEFAULT_PLAYERS);
    let rules = crate::game::rules::<G>(&params, players).map_err(CliError::bad_input)?;
    Ok(GameInfo::of::<G>(&rules))
}

/// Writes `info` as aligned text.
///
/// # Errors
/// The I/O error of writing.
pub fn write_text(out: &mut dyn Write, info: &GameInfo) -> std::io::Result<()> {
    let t = &info.game_type;
    let json = |v: &dyn erased::Named| v.name();
    writeln!(out, "{} ({})", t.long_name, t.short_name)?;
    writeln!(out, "  {}", t.description)?;
    let range = crate::game::player_range(t.min_players, t.max_players);
    let rows = [
        (
            "players",
            format!("{} ({range}; default {})", info.players, t.default_players),
        ),
        ("dynamics", json(&t.dynamics)),
        ("chance mode", json(&t.chance_mode)),
        ("information", json(&t.information)),
        ("utility", json(&t.utility)),
        (
            "perfect recall",
            if t.perfect_recall { "yes" } else { "no" }.into(),
        ),
        ("action ids", t.num_action_ids.to_string()),
        (
            "max game length",
            format!("{} plies (an upper bound)", info.max_game_length),
        ),
        ("observation shape", format!("{:?}", info.observation_shape)),
    ];
    for (k, v) in rows {
        writeln!(out, "  {k:<18} {v}")?;
    }
    writeln!(out, "  observation layout (f32, flat):")?;
    let w = info
        .observation_layout
        .iter()
        .map(|f| f.name.len())
        .max()
        .unwrap_or(5)
        .max(5);
    writeln!(
        out,
        "    {:>6}  {:>5}  {:<w$}  meaning",
        "offset", "len", "field"
    )?;
    let mut offset = 0;
    for f in &info.observation_layout {
        writeln!(
            out,
            "    {offset:>6}  {:>5}  {:<w$}  {}",
            f.len, f.name, f.meaning
        )?;
        offset += f.len;
    }
    Ok(())
}

/// The snake_case names of the fact enums, as `--format json` spells them.
mod erased {
    /// A fact value with its serialised name.
    pub trait Named {
        /// The name (`sampled_stochastic`).
        fn name(&self) -> String;
    }

    impl<T: serde::Serialize> Named for T {
        fn name(&self) -> String {
            serde_json::to_value(self)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        }
    }
}

/// Runs `sim info`.
///
/// # Errors
/// Exit 2 for an unknown game, a player count outside the game's range or a bad variant
/// (naming the valid choices); 1 if stdout fails.
pub fn run(args: &InfoArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let info = crate::dispatch_game!(args.game.as_str(), G => facts::<G>(args))
        .map_err(CliError::bad_input)??;
    match args.format {
        Format::Text => write_text(out, &info).context("writing to stdout"),
        Format::Json => serde_json::to_writer_pretty(&mut *out, &info)
            .context("writing to stdout")
            .and_then(|()| writeln!(out).context("writing to stdout")),
    }
    .map_err(CliError::failure)
}
