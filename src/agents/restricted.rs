//! Restricted play (Jaffe, Miller, Andersen, Liu, Karlin & Popović 2012, "Evaluating
//! Competitive Game Balance with Restricted Play"): another agent that never takes a named
//! class of action, so that the cost of removing the class can be measured against the
//! unrestricted agent on the same deals.
//!
//! An action class is a prefix of the action's text (its `Display`, as `sim play` prints
//! it), ending at a word boundary: `give` is Daxu's Give and Daimyo's `give helmet …`;
//! `build radio_tower` is Daimyo's Radio tower; `buy|sell` names two classes. The spec is
//! `restricted:agent=SPEC,never=CLASS|CLASS`, the inner agent's own settings separated by
//! `;` (`restricted:agent=mcts:iters=200;rounds=1,never=buy`).
//!
//! At each decision the inner agent chooses; when its choice is in a forbidden class and
//! the seat has a legal action outside every forbidden class, the wrapper plays instead the
//! inner agent's preferred allowed action by its own statistics ([`Agent::analyze`]: the
//! most root visits, else the largest probability, else the largest value; ties to the
//! first in sorted order), or a uniformly random allowed action for an agent without
//! statistics (so `random` stays uniform over the allowed actions). When every legal
//! action is forbidden the inner choice is played (the game must go on) and counted as
//! forced ([`RestrictedAgent::forced`]).
//!
//! Limit: the inner agent's search still models its own future moves as unrestricted (a
//! search agent may plan on a class it will never be allowed to take); the restriction
//! acts on the moves played, as the paper's restricted players do.

use super::{ActionStat, Agent, build, canonical_spec, canonicalize};
use crate::game::{GameStart, Playable, View};
use crate::params::{ParamValue, Syntax};
use crate::rng::SimRng;
use rand::RngExt;

/// The kind's name in a spec.
pub const NAME: &str = "restricted";

/// One line for `sim list`.
pub const DESCRIPTION: &str = "another agent that never takes a named class of action \
(restricted play, Jaffe et al. 2012): restricted:agent=greedy,never=give|take";

/// An agent spec nested in a setting, its own settings separated by `;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InnerSpec(pub String);

impl InnerSpec {
    /// The spec with its settings separated by commas again.
    pub fn spec(&self) -> String {
        self.0.replace(';', ",")
    }
}

impl ParamValue for InnerSpec {
    /// A spec may contain `:`, `=` and `;`: it nests in no container.
    const SYNTAX: Syntax = Syntax::ANY;

    fn parse_param(s: &str) -> Result<Self, String> {
        let s = s.trim();
        let inner = InnerSpec(s.to_string());
        canonicalize(&inner.spec()).map_err(|e| format!("{}; {e}", Self::type_name()))?;
        Ok(inner)
    }

    fn format_param(&self) -> String {
        self.0.clone()
    }

    fn type_name() -> String {
        "an agent spec with ; between its settings".into()
    }
}

/// Action classes: prefixes of the action text, separated by `|`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Classes(pub Vec<String>);

impl Classes {
    /// Whether `text` (an action's text) is in one of the classes: it equals a prefix or
    /// continues it after a space.
    pub fn contains(&self, text: &str) -> bool {
        self.0.iter().any(|c| {
            text.strip_prefix(c.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        })
    }
}

impl ParamValue for Classes {
    /// Classes hold spaces and `|`: they nest in no container.
    const SYNTAX: Syntax = Syntax::ANY;

    fn parse_param(s: &str) -> Result<Self, String> {
        let s = s.trim();
        if s.is_empty() || s == "none" {
            return Ok(Classes(Vec::new()));
        }
        let classes: Vec<String> = s.split('|').map(|c| c.trim().to_string()).collect();
        if classes.iter().any(String::is_empty) {
            return Err(format!("{}; an empty class", Self::type_name()));
        }
        Ok(Classes(classes))
    }

    fn format_param(&self) -> String {
        if self.0.is_empty() {
            "none".into()
        } else {
            self.0.join("|")
        }
    }

    fn type_name() -> String {
        "action-text prefixes joined by vertical bars, or none".into()
    }
}

crate::param_set! {
    /// The restricted agent's settings.
    pub struct Params {
        /// The agent whose choices are restricted (its settings separated by ;).
        pub agent: InnerSpec = InnerSpec("greedy".into()),
        /// The forbidden classes: action-text prefixes separated by |.
        pub never: Classes = Classes::default(),
    }
}

/// Another agent that never takes a forbidden class of action (module docs).
pub struct RestrictedAgent<G: Playable> {
    params: Params,
    inner: Box<dyn Agent<G>>,
    buf: Vec<G::Action>,
    forced: u64,
}

impl<G: Playable> RestrictedAgent<G> {
    /// Wraps the inner agent of `params`.
    ///
    /// # Panics
    /// If the inner spec does not build, which [`InnerSpec`]'s parsing already refused.
    pub fn new(params: Params) -> Self {
        let inner = build::<G>(&params.agent.spec()).expect("the inner spec was validated");
        RestrictedAgent {
            params,
            inner,
            buf: Vec::new(),
            forced: 0,
        }
    }

    /// Decisions at which every legal action was forbidden (the inner choice was played).
    pub fn forced(&self) -> u64 {
        self.forced
    }

    fn forbidden(&self, a: G::Action) -> bool {
        self.params.never.contains(&a.to_string())
    }
}

/// The ordering key of an action's statistics: visits, then probability, then value.
fn preference<A>(s: &ActionStat<A>) -> (f64, f64, f64) {
    let f = |x: Option<f64>| x.unwrap_or(f64::NEG_INFINITY);
    (f(s.visits.map(|v| v as f64)), f(s.probability), f(s.value))
}

impl<G: Playable> Agent<G> for RestrictedAgent<G> {
    fn spec(&self) -> String {
        canonical_spec(NAME, &self.params)
    }

    fn start_game(&mut self, start: &GameStart<G>) {
        self.inner.start_game(start);
    }

    fn end_game(&mut self, view: &View<'_, G>) {
        self.inner.end_game(view);
    }

    fn uses_wall_clock(&self) -> bool {
        self.inner.uses_wall_clock()
    }

    fn act(&mut self, view: &View<'_, G>, rng: &mut SimRng) -> G::Action {
        let a = self.inner.act(view, rng);
        if self.params.never.0.is_empty() || !self.forbidden(a) {
            return a;
        }
        let mut buf = std::mem::take(&mut self.buf);
        view.legal_actions(&mut buf);
        buf.retain(|&b| !self.forbidden(b));
        let choice = if buf.is_empty() {
            self.forced += 1;
            a
        } else if let Some(stats) = self.inner.analyze(view, rng) {
            let mut best: Option<(G::Action, (f64, f64, f64))> = None;
            for s in stats.iter().filter(|s| buf.contains(&s.action)) {
                let k = preference(s);
                if best.is_none_or(|(_, b)| k > b) {
                    best = Some((s.action, k));
                }
            }
            best.map_or(buf[0], |(b, _)| b)
        } else {
            buf[rng.random_range(0..buf.len())]
        };
        self.buf = buf;
        choice
    }

    fn analyze(
        &mut self,
        view: &View<'_, G>,
        rng: &mut SimRng,
    ) -> Option<Vec<ActionStat<G::Action>>> {
        let stats = self.inner.analyze(view, rng)?;
        let allowed: Vec<_> = stats
            .iter()
            .filter(|s| !self.forbidden(s.action))
            .copied()
            .collect();
        Some(if allowed.is_empty() { stats } else { allowed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Turn, play_ply, rules};
    use crate::params::ParamSet;
    use crate::rng::{rng_from_seed, seed_for};

    #[test]
    fn classes_match_whole_words_of_the_action_text() {
        let c = Classes::parse_param("give|build radio_tower").unwrap();
        assert!(c.contains("give") && c.contains("give helmet 1"));
        assert!(c.contains("build radio_tower"));
        assert!(!c.contains("build techno_farm") && !c.contains("giver"));
        assert!(Classes::parse_param("a||b").is_err());
        assert_eq!(Classes::parse_param("none").unwrap(), Classes::default());
    }

    #[test]
    fn specs_nest_the_inner_agent_with_semicolons() {
        let p = Params::from_settings(
            &["agent=greedy:samples=2", "never=give|take"],
            "agent restricted",
        )
        .unwrap();
        assert_eq!(p.agent.spec(), "greedy:samples=2");
        assert_eq!(
            canonical_spec(NAME, &p),
            "restricted:agent=greedy:samples=2,never=give|take"
        );
        let e = Params::from_settings(&["agent=alphazero"], "agent restricted")
            .unwrap_err()
            .to_string();
        assert!(e.contains("alphazero") && e.contains("random"), "{e}");
    }

    /// Plays `games` games of `G` with seat 0 restricted (inner `inner`, never `never`)
    /// and the other seats random; checks that seat 0 never plays a forbidden action when
    /// an allowed one is legal. Returns how many of seat 0's decisions had a forbidden
    /// action legal (so the test is not vacuous).
    fn conformance<G: Playable>(inner: &str, never: &str, games: u64) -> u64 {
        let spec = format!("restricted:agent={inner},never={never}");
        let classes = Classes::parse_param(never).unwrap();
        let mut agent = build::<G>(&spec).unwrap();
        let mut random = build::<G>("random").unwrap();
        let r = rules::<G>(&G::Params::default(), G::DEFAULT_PLAYERS).unwrap();
        let mut tempted = 0;
        let mut buf = Vec::new();
        for g in 0..games {
            let mut chance = rng_from_seed(seed_for(11, g, 0));
            let mut seat_rng = rng_from_seed(seed_for(11, g, 1));
            let mut state = G::new_game(r, &mut chance);
            for seat in 0..state.num_players() {
                let start = GameStart {
                    seat,
                    index: g,
                    rules: r,
                };
                agent.start_game(&start);
                random.start_game(&start);
            }
            while state.turn() != Turn::Terminal {
                play_ply(&mut state, &mut chance, |s, p, _| {
                    let view = View::new(s, p);
                    if p != 0 {
                        return random.act(&view, &mut seat_rng);
                    }
                    s.legal_actions(p, &mut buf);
                    let any_forbidden = buf.iter().any(|a| classes.contains(&a.to_string()));
                    let any_allowed = buf.iter().any(|a| !classes.contains(&a.to_string()));
                    tempted += u64::from(any_forbidden && any_allowed);
                    let a = agent.act(&view, &mut seat_rng);
                    assert!(buf.contains(&a), "{} played an illegal {a}", G::NAME);
                    assert!(
                        !any_allowed || !classes.contains(&a.to_string()),
                        "{}: seat 0 played the forbidden {a} with an allowed action legal",
                        G::NAME
                    );
                    a
                });
            }
        }
        tempted
    }

    /// The wrapper never plays a forbidden class when an allowed action exists, over
    /// random games of each of the four games, around a random and a greedy agent.
    #[test]
    fn restricted_agents_never_play_the_forbidden_class() {
        use crate::games::{daimyo, daxu, dunhuang, qax};
        assert!(conformance::<daxu::State>("random", "give", 30) > 20);
        assert!(conformance::<daxu::State>("greedy:samples=1", "give|take", 10) > 10);
        assert!(conformance::<qax::State>("random", "buy|sell", 4) > 0);
        assert!(conformance::<dunhuang::State>("random", "keep 5|keep 6|keep 7", 10) > 0);
        assert!(conformance::<daimyo::State>("random", "build", 3) > 0);
    }
}
