//! `sim list`: the registered games with their rules file (`docs/rules/<game>.md`) and rule
//! parameters, and the agent kinds with their parameters ([`crate::games::all`],
//! [`crate::agents::kinds`]); `sim list GAME` for one game.

use std::io::Write;

use anyhow::Context;

use clap::Args;

use super::CliError;
use crate::games::GameEntry;
use crate::params::ParamInfo;

/// Options of `sim list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Show only this game (its players, rules file, parameters and agent defaults).
    pub game: Option<String>,
}

fn params_table(out: &mut dyn Write, params: &[ParamInfo], usage: &str) -> std::io::Result<()> {
    if params.is_empty() {
        return writeln!(out, "    (no parameters)");
    }
    let w_name = params
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let w_kind = params
        .iter()
        .map(|p| p.kind.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let w_def = params
        .iter()
        .map(|p| p.default.len())
        .max()
        .unwrap_or(0)
        .max(7);
    writeln!(out, "    parameters ({usage}):")?;
    writeln!(
        out,
        "    {:<w_name$}  {:<w_kind$}  {:<w_def$}  meaning",
        "name", "type", "default"
    )?;
    for p in params {
        writeln!(
            out,
            "    {:<w_name$}  {:<w_kind$}  {:<w_def$}  {}",
            p.name, p.kind, p.default, p.meaning
        )?;
    }
    Ok(())
}

/// Writes one game's entry: its description, players, rules file, parameters and agent
/// defaults.
///
/// # Errors
/// The I/O error of writing.
pub fn write_game(out: &mut dyn Write, g: &GameEntry) -> std::io::Result<()> {
    writeln!(out, "\n  {}: {}", g.name, g.description)?;
    let (lo, hi) = g.players;
    let range = if lo == hi {
        format!("{lo}")
    } else {
        format!("{lo}-{hi}")
    };
    writeln!(out, "    players: {range} (default {})", g.default_players)?;
    writeln!(
        out,
        "    rules: docs/rules/{}.md (clause ids cited by the parameters below)",
        g.name
    )?;
    params_table(out, &g.params, "--variant key=value")?;
    for (kind, settings) in g.agent_defaults {
        writeln!(
            out,
            "    agent defaults for this game: {kind}:{settings} (your settings override them)"
        )?;
    }
    Ok(())
}

/// Writes the listing to `out`.
///
/// # Errors
/// The I/O error of writing.
pub fn write_list(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "Games (sim tournament --game NAME [--players N] [--variant KEY=VALUE]...):"
    )?;
    for g in crate::games::all() {
        write_game(out, &g)?;
    }
    writeln!(out, "\nAgents (--agents KIND or KIND:KEY=VALUE,...):")?;
    for a in crate::agents::kinds() {
        writeln!(out, "\n  {}: {}", a.name, a.description)?;
        params_table(out, &a.params, &format!("{}:key=value,...", a.name))?;
    }
    writeln!(
        out,
        "\nPresets (agents/*.toml; use by name, e.g. --agents mcts-strong or mcts-strong:iters=500):"
    )?;
    for p in crate::agents::presets::shipped() {
        writeln!(out, "  {:<14} {}: {}", p.name, p.spec(), p.description)?;
    }
    Ok(())
}

/// Runs `sim list` (every game and agent) or `sim list GAME` (one game).
///
/// # Errors
/// An unknown game (exit 2, naming the valid games and the closest one); a failure writing
/// to `out` (exit 1).
pub fn run(args: &ListArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let written = match &args.game {
        None => write_list(out),
        Some(name) => {
            let Some(g) = crate::games::all().into_iter().find(|g| g.name == name) else {
                return Err(CliError::bad_input(anyhow::anyhow!(
                    "unknown game '{name}'; valid games: {}{}",
                    crate::games::NAMES.join(", "),
                    crate::format::did_you_mean_hint(name, crate::games::NAMES)
                )));
            };
            writeln!(
                out,
                "Game (sim tournament --game {} [--players N] [--variant KEY=VALUE]...):",
                g.name
            )
            .and_then(|()| write_game(out, &g))
        }
    };
    written
        .context("writing the list to stdout")
        .map_err(CliError::failure)
}

#[cfg(test)]
mod tests {
    /// `sim list GAME` shows that game alone; a mistyped name is refused with the closest
    /// name suggested.
    #[test]
    fn one_game_is_listed_and_a_typo_gets_a_suggestion() {
        let mut buf = Vec::new();
        let args = super::ListArgs {
            game: Some("qax".into()),
        };
        super::run(&args, &mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(
            text.contains("  qax: ") && text.contains("max_rounds"),
            "{text}"
        );
        assert!(
            !text.contains("  daxu: ") && !text.contains("Agents ("),
            "{text}"
        );
        let args = super::ListArgs {
            game: Some("dunhaung".into()),
        };
        let e = super::run(&args, &mut Vec::new()).unwrap_err();
        assert_eq!(e.code, 2);
        assert!(
            format!("{:#}", e.error).contains("did you mean 'dunhuang'?"),
            "{:#}",
            e.error
        );
        assert_eq!(
            crate::format::did_you_mean("chess", crate::games::NAMES),
            None
        );
    }

    #[test]
    fn lists_every_game_and_agent_with_parameters() {
        let mut buf = Vec::new();
        super::write_list(&mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        for g in crate::games::NAMES {
            assert!(text.contains(&format!("  {g}: ")), "{text}");
            assert!(
                text.contains(&format!("    rules: docs/rules/{g}.md ")),
                "{text}"
            );
        }
        for a in crate::agents::kinds() {
            assert!(text.contains(&format!("  {}: ", a.name)), "{text}");
            for p in &a.params {
                assert!(text.contains(p.name) && text.contains(&p.meaning), "{text}");
            }
        }
        assert!(text.contains("samples") && text.contains("int"));
        for p in crate::agents::presets::shipped() {
            assert!(
                text.contains(&p.name) && text.contains(&p.description),
                "{text}"
            );
        }
    }
}
