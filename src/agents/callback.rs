//! The `callback` agent kind: a seat played by a function that the program embedding the
//! library registered at run time, so that the tournament runner (its seating, statistics
//! and CSV files) can pit code that is not a built-in agent against the built-in ones.
//! The Python module registers a Python callable here for the length of one
//! `tabletop_sim.tournament(...)` call; `sim` itself registers nothing, so the kind is
//! hidden from `sim list` (like `panic`).
//!
//! Spec: `callback:name=NAME`. Building the agent looks `NAME` up in a process-wide
//! registry ([`register`]); the entry must have been registered for the game being played.
//! The registered value is a *factory*: the runner builds agents once per worker job and
//! again after a failed game, and every build calls the factory for a fresh decision
//! function ([`Decide`]).
//!
//! **Failures.** A decision function cannot return an error (the [`Agent`] contract): it
//! panics, and the runner reports the panic as the game's failure (`errors.csv`, or the
//! run's error with `fail_fast`), naming the game index and the ply; the message should
//! name the seat and what went wrong. An action the seat may not play is caught by the
//! runner before it is applied, as for any agent.
//!
//! **Reproducibility.** The decision function is given the seat's random stream, so a
//! function that draws its randomness from it (and keeps no memory across games) plays the
//! same games for the same master seed, whatever the thread count.

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::{Agent, AgentError, canonical_spec};
use crate::game::{GameState, Playable, View};
use crate::params::{ParamError, ParamValue, Syntax};
use crate::rng::SimRng;

/// The kind's name.
pub const NAME: &str = "callback";

/// A decision function: the action of the view's seat at the view's state (a decision node
/// where the seat acts), drawing any randomness from the given stream. It panics to report
/// a failure (see the module docs).
pub type Decide<G> =
    Box<dyn FnMut(&View<'_, G>, &mut SimRng) -> <G as GameState>::Action + Send + 'static>;

/// What is registered: builds a fresh [`Decide`] for every agent the runner builds.
pub type Factory<G> = Arc<dyn Fn() -> Decide<G> + Send + Sync + 'static>;

/// One registered name: the game it plays and its [`Factory`] (as `Box<Factory<G>>`).
struct Entry {
    game: &'static str,
    factory: Box<dyn Any + Send + Sync>,
}

/// The process-wide registry, by name.
static REGISTRY: Mutex<BTreeMap<String, Entry>> = Mutex::new(BTreeMap::new());

/// The registry, taken over if a panic poisoned it (it holds no invariant a panic can
/// break: every change is a single insert or remove).
fn registry() -> MutexGuard<'static, BTreeMap<String, Entry>> {
    REGISTRY.lock().unwrap_or_else(|p| p.into_inner())
}

/// A callback name: ASCII letters, digits, `_`, `-` and `.`, 1 to 64 characters (it is
/// written into agent specs, `agents.csv` and `config.toml`, so it needs no quoting).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CallbackName(String);

impl CallbackName {
    /// Checks `name` (see the type's docs).
    ///
    /// # Errors
    /// What a name may hold, and what was wrong.
    pub fn new(name: &str) -> Result<Self, String> {
        let ok = !name.is_empty()
            && name.len() <= 64
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        if ok {
            Ok(CallbackName(name.to_string()))
        } else {
            Err(format!(
                "a name of 1 to 64 ASCII letters, digits, '_', '-' or '.'; got '{name}'"
            ))
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl ParamValue for CallbackName {
    const SYNTAX: Syntax = Syntax::PLAIN;

    fn parse_param(s: &str) -> Result<Self, String> {
        CallbackName::new(s.trim())
    }

    fn format_param(&self) -> String {
        self.0.clone()
    }

    fn type_name() -> String {
        "callback name".into()
    }
}

crate::param_set! {
    /// Settings of the callback agent.
    pub struct Params {
        /// The registered name (required).
        pub name: CallbackName = CallbackName::default(),
    }
    validate = check_params;
}

fn check_params(p: &Params, owner: &str) -> Result<(), ParamError> {
    if p.name.0.is_empty() {
        return Err(ParamError::Invalid {
            owner: owner.to_string(),
            reason: "name is required: callback:name=NAME, a name registered by the program \
                     that embeds the library (tabletop_sim.tournament in Python)"
                .to_string(),
        });
    }
    Ok(())
}

/// Keeps a name registered; dropping it removes the name.
#[derive(Debug)]
#[must_use = "the name is unregistered when the registration is dropped"]
pub struct Registration {
    name: String,
}

impl Registration {
    /// The registered name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        registry().remove(&self.name);
    }
}

/// Registers `factory` under `name` for game `G` until the returned [`Registration`] is
/// dropped; `callback:name=NAME` then builds agents from it.
///
/// # Errors
/// A bad name ([`CallbackName::new`]) or a name already registered (by another tournament
/// running at the same time).
pub fn register<G: Playable>(name: &str, factory: Factory<G>) -> Result<Registration, String> {
    let name = CallbackName::new(name)?.0;
    let mut reg = registry();
    if reg.contains_key(&name) {
        return Err(format!(
            "the callback name '{name}' is already registered (by a tournament running now); \
             choose another name"
        ));
    }
    reg.insert(
        name.clone(),
        Entry {
            game: G::NAME,
            factory: Box::new(factory),
        },
    );
    Ok(Registration { name })
}

/// The names registered now, comma-separated (`(none)` when empty), for error messages.
fn registered_names() -> String {
    let reg = registry();
    if reg.is_empty() {
        "(none)".to_string()
    } else {
        reg.iter()
            .map(|(n, e)| format!("{n} ({})", e.game))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Builds the callback agent of `params` for game `G`.
///
/// # Errors
/// [`AgentError::Param`] when no callback of that name is registered for `G`, naming the
/// registered ones.
pub(super) fn build<G: Playable>(params: Params) -> Result<Box<dyn Agent<G>>, AgentError> {
    let factory = {
        let reg = registry();
        reg.get(params.name.as_str())
            .filter(|e| e.game == G::NAME)
            .and_then(|e| e.factory.downcast_ref::<Factory<G>>())
            .cloned()
    };
    let Some(factory) = factory else {
        return Err(AgentError::Param(ParamError::BadValue {
            key: "name".into(),
            value: params.name.0.clone(),
            owner: format!("agent {NAME}"),
            expected: format!(
                "the name of a callback registered for {} by the program that embeds the \
                 library (tabletop_sim.tournament in Python; `sim` registers none); \
                 registered: {}",
                G::NAME,
                registered_names()
            ),
        }));
    };
    Ok(Box::new(CallbackAgent {
        params,
        decide: factory(),
    }))
}

/// The agent of a registered decision function (see the module docs).
pub struct CallbackAgent<G: Playable> {
    params: Params,
    decide: Decide<G>,
}

impl<G: Playable> Agent<G> for CallbackAgent<G> {
    fn spec(&self) -> String {
        canonical_spec(NAME, &self.params)
    }

    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action {
        (self.decide)(view, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::race::Race;

    #[test]
    fn a_registered_callback_plays_and_is_gone_after_its_registration() {
        let factory: Factory<Race> = Arc::new(|| {
            let mut buf = Vec::new();
            Box::new(move |view: &View<'_, Race>, rng: &mut SimRng| {
                view.random_action(&mut buf, rng)
            })
        });
        let reg = register::<Race>("test_cb-1.a", factory).unwrap();
        assert!(register::<Race>("test_cb-1.a", Arc::new(|| unreachable!())).is_err());
        let agent = super::super::build::<Race>("callback:name=test_cb-1.a").unwrap();
        assert_eq!(agent.spec(), "callback:name=test_cb-1.a");
        // Registered for race, so not for another game.
        let other = super::super::build::<crate::games::kuhn::State>("callback:name=test_cb-1.a");
        assert!(other.is_err());
        drop(reg);
        let e = super::super::build::<Race>("callback:name=test_cb-1.a")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("test_cb-1.a") && e.contains("registered"), "{e}");
        assert!(CallbackName::new("a,b").is_err());
        assert!(super::super::build::<Race>("callback").is_err());
    }
}
