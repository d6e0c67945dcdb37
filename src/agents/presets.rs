//! Named agent presets: TOML files that name an agent kind and its parameters.
//!
//! The presets shipped in the top-level `agents/` folder are embedded at compile time, so
//! `--agents mcts-strong,random` works from any directory; a spec whose kind ends in
//! `.toml` is read as a path to a preset file instead. Settings given after the preset name
//! override the preset's (`mcts-strong:iters=500`). A preset's canonical spec is the
//! underlying kind's full canonical spec, so results never depend on the preset's name.
//!
//! File format:
//! ```toml
//! kind = "mcts"                    # an agent kind (see `sim list`)
//! description = "one line"         # optional
//! [params]                         # optional; any parameters of the kind
//! iters = 20000
//! rollout = "random"
//! ```

use serde::Deserialize;

use super::AgentError;

/// The presets shipped in `agents/`, embedded at compile time: (name, TOML text).
pub const SHIPPED: &[(&str, &str)] = &[
    ("mcts-fast", include_str!("../../agents/mcts-fast.toml")),
    ("mcts-strong", include_str!("../../agents/mcts-strong.toml")),
    ("mcts-pimc", include_str!("../../agents/mcts-pimc.toml")),
    ("ismcts-fast", include_str!("../../agents/ismcts-fast.toml")),
    (
        "ismcts-strong",
        include_str!("../../agents/ismcts-strong.toml"),
    ),
    ("cfr-fast", include_str!("../../agents/cfr-fast.toml")),
    ("cfr-strong", include_str!("../../agents/cfr-strong.toml")),
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PresetFile {
    kind: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    params: toml::Table,
}

/// A loaded preset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preset {
    /// The preset's name (shipped name, or the path it was read from).
    pub name: String,
    /// The agent kind it configures.
    pub kind: String,
    /// One line.
    pub description: String,
    /// Its parameters as `key=value` settings, sorted by key.
    pub settings: Vec<String>,
}

impl Preset {
    /// The spec the preset stands for: `kind:key=value,...` (not yet canonical).
    pub fn spec(&self) -> String {
        if self.settings.is_empty() {
            self.kind.clone()
        } else {
            format!("{}:{}", self.kind, self.settings.join(","))
        }
    }
}

fn preset_error(name: &str, reason: impl Into<String>) -> AgentError {
    AgentError::Preset {
        preset: name.to_string(),
        reason: reason.into(),
    }
}

/// Parses preset TOML text; `name` is used in errors.
///
/// # Errors
/// [`AgentError::Preset`] naming the preset: malformed TOML, unknown fields, or a
/// parameter value that is not a string, integer, float or boolean. The kind and the
/// parameter names are checked when the preset is used ([`super::build`]).
pub fn parse(name: &str, text: &str) -> Result<Preset, AgentError> {
    let file: PresetFile = toml::from_str(text).map_err(|e| preset_error(name, e.to_string()))?;
    let mut settings = Vec::with_capacity(file.params.len());
    for (key, value) in &file.params {
        let v = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => format!("{f}"),
            toml::Value::Boolean(b) => b.to_string(),
            other => {
                return Err(preset_error(
                    name,
                    format!(
                        "parameter '{key}' has unsupported value {other}; expected a string, number or boolean"
                    ),
                ));
            }
        };
        settings.push(format!("{key}={v}"));
    }
    Ok(Preset {
        name: name.to_string(),
        kind: file.kind,
        description: file.description,
        settings,
    })
}

/// The names of the shipped presets, comma-separated.
pub fn names() -> String {
    SHIPPED
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every shipped preset, parsed, in [`SHIPPED`] order (what `sim list` prints).
///
/// # Panics
/// Never for the shipped files (a test parses them all).
pub fn shipped() -> Vec<Preset> {
    SHIPPED
        .iter()
        .map(|(n, t)| parse(n, t).expect("shipped presets parse"))
        .collect()
}

/// Looks `name` up: a shipped preset, or a path when it ends in `.toml`. `None` when it is
/// neither (the caller reports an unknown agent).
///
/// # Errors
/// [`AgentError::Preset`] when the file cannot be read or parsed.
pub fn load(name: &str) -> Option<Result<Preset, AgentError>> {
    if let Some((n, text)) = SHIPPED.iter().find(|(n, _)| *n == name) {
        return Some(parse(n, text));
    }
    if name.ends_with(".toml") {
        return Some(
            std::fs::read_to_string(name)
                .map_err(|e| preset_error(name, format!("cannot read the file: {e}")))
                .and_then(|text| parse(name, &text)),
        );
    }
    None
}
