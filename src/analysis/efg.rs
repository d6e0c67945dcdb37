//! The extensive forms of Kuhn poker and Goofspiel for the tabular solvers
//! ([`crate::solvers`]), built on the rules engines through the [`GameState`] API, and
//! [`build_tree`], the game lookup of `sim solve`.
//!
//! Goofspiel's chance is enumerated through the [`Chance`] trait: a transition (the setup,
//! or a joint action) is replayed with a script of picks ([`Picks`]); when the game asks
//! for a pick past the script, the node is a chance node whose `n` outcomes (`below(n)` =
//! `0..n`) each have probability `1/n`, and outcome `i` replays the script extended by `i`.
//! This works for any game whose chance is drawn through [`Chance`], and it enumerates
//! exactly the distribution the game samples in play.
//!
//! Kuhn poker is the one exception: its root lists the six deals ([`KUHN_DEALS`], 1/6 each)
//! and builds each with `kuhn::State::from_deal`, the textbook tree whose deal labels
//! (`01`, `12`) the published strategies use. A test checks that these are exactly the
//! deals, with the same probabilities, that `new_game` draws through [`Chance`].
//!
//! Simultaneous moves are encoded the standard way: seat 0 bids, then seat 1 bids without
//! seeing seat 0's pending bid (its information-set key is that of the round start).

use crate::game::{Chance, GameState, RulesRef, Seat, Turn};
use crate::games::{goofspiel, kuhn};
use crate::params::ParamSet;
use crate::rng::test_rng;
use crate::solvers::SolverError;
use crate::solvers::efg::{ExtensiveForm, NodeKind, Tree};

/// The games with an extensive form, as named on the command line.
pub const SOLVABLE_GAMES: &[&str] = &["kuhn", "goofspiel"];

/// Most chance picks one transition of an adapted game may ask for.
pub const MAX_PICKS: usize = 4;

/// A script of chance picks within one transition: pick `i` answers the `i`-th
/// `below(n)` the transition asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Picks {
    picks: [u8; MAX_PICKS],
    len: u8,
}

impl Picks {
    /// The script extended by `pick`.
    ///
    /// # Panics
    /// If the script already holds [`MAX_PICKS`] picks.
    pub fn then(mut self, pick: u8) -> Self {
        assert!(
            usize::from(self.len) < MAX_PICKS,
            "more than {MAX_PICKS} chance picks in one transition"
        );
        self.picks[usize::from(self.len)] = pick;
        self.len += 1;
        self
    }

    /// The picks so far.
    pub fn as_slice(&self) -> &[u8] {
        &self.picks[..usize::from(self.len)]
    }
}

/// Chance that replays [`Picks`], then records the first pool size it could not answer.
struct Replay<'a> {
    picks: &'a [u8],
    used: usize,
    starved: Option<u32>,
}

impl Chance for Replay<'_> {
    fn below(&mut self, n: u32) -> u32 {
        match self.picks.get(self.used) {
            Some(&x) if self.starved.is_none() => {
                self.used += 1;
                debug_assert!(u32::from(x) < n, "scripted pick {x} out of 0..{n}");
                u32::from(x)
            }
            _ => {
                self.starved.get_or_insert(n);
                0
            }
        }
    }
}

/// Runs `transition` with chance scripted by `picks`: `Ok(result)` if the script answered
/// every pick, `Err(n)` if the transition asked for one more pick among `n` outcomes.
pub fn replay<T>(picks: &Picks, transition: impl FnOnce(&mut dyn Chance) -> T) -> Result<T, u32> {
    let mut chance = Replay {
        picks: picks.as_slice(),
        used: 0,
        starved: None,
    };
    let out = transition(&mut chance);
    match chance.starved {
        None => Ok(out),
        Some(n) => Err(n),
    }
}

/// Kuhn poker in extensive form: a chance root dealing one of the six ordered deals (each
/// 1/6), then the betting of [`kuhn::State`]. Utilities are seat 0's chips; information
/// sets are keyed as in OpenSpiel (`1pb` = Queen, after pass then bet).
#[derive(Clone, Copy, Debug, Default)]
pub struct KuhnEfg;

/// The six ordered Kuhn deals, in the order of the chance root's outcomes.
pub const KUHN_DEALS: [[u8; 2]; 6] = [[0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1]];

impl ExtensiveForm for KuhnEfg {
    /// `None` before the deal.
    type State = Option<kuhn::State>;

    fn name(&self) -> String {
        "kuhn".into()
    }

    fn root(&self) -> Self::State {
        None
    }

    fn node_kind(&self, s: &Self::State) -> NodeKind {
        match s {
            None => NodeKind::Chance,
            Some(s) => match s.turn() {
                Turn::Player(p) => NodeKind::Decision(p),
                _ => NodeKind::Terminal,
            },
        }
    }

    fn chance_outcomes(&self, _: &Self::State) -> Vec<(String, f64)> {
        KUHN_DEALS
            .iter()
            .map(|d| (format!("{}{}", d[0], d[1]), 1.0 / 6.0))
            .collect()
    }

    fn actions(&self, _: &Self::State) -> Vec<String> {
        vec!["p".into(), "b".into()]
    }

    fn info_set_key(&self, s: &Self::State) -> String {
        let s = s.as_ref().expect("a decision node is dealt");
        match s.turn() {
            Turn::Player(p) => s.info_set_string(p),
            _ => String::new(),
        }
    }

    fn child(&self, s: &Self::State, i: usize) -> Self::State {
        match s {
            None => Some(kuhn::State::from_deal(KUHN_DEALS[i])),
            Some(s) => {
                let mut c = *s;
                let Turn::Player(p) = s.turn() else {
                    panic!("child of a terminal Kuhn node")
                };
                let a = kuhn::State::action_from_id(i).expect("action 0 or 1");
                c.apply_unchecked(p, a, &mut test_rng(0));
                Some(c)
            }
        }
    }

    fn utility(&self, s: &Self::State) -> f64 {
        f64::from(s.as_ref().map_or(0, |s| s.chips()))
    }
}

crate::param_enum! {
    /// The zero-sum utility of a Goofspiel extensive form, from seat 0's point of view
    /// (seat 1 receives the negation). Both are OpenSpiel's `returns_type` of the same
    /// meaning at 2 players.
    pub enum GoofspielUtility {
        /// +1 if seat 0 scores more, -1 if less, 0 on a tie (OpenSpiel's default `win_loss`).
        WinLoss = "win-loss",
        /// Seat 0's score minus the mean of both scores, `(a - b) / 2` (OpenSpiel's
        /// `point_difference`: own points minus the mean of all players' points). Half the
        /// game's `returns=margin`.
        PointDifference = "points",
    }
}

impl GoofspielUtility {
    /// Seat 0's utility for final scores `a` (seat 0) and `b` (seat 1).
    pub fn of_scores(self, a: i32, b: i32) -> f64 {
        match self {
            GoofspielUtility::WinLoss => f64::from(i8::from(a > b) - i8::from(a < b)),
            GoofspielUtility::PointDifference => f64::from(a - b) / 2.0,
        }
    }
}

/// Goofspiel at 2 players in extensive form, rooted at a given state or before setup.
/// Each round becomes: seat 0 bids, seat 1 bids without seeing seat 0's bid, then the
/// joint bid is applied through the game, and the next point card it draws (`random`
/// order) becomes a chance node of `cards left` outcomes. Information-set keys are
/// [`goofspiel::State::info_set_string`].
///
/// Size: the default node limit of `sim solve` takes `num_cards <= 5` with
/// `order=random` and `num_cards <= 6` with `order=descending`.
#[derive(Clone, Debug)]
pub struct GoofspielEfg {
    rules: RulesRef<goofspiel::State>,
    root: Option<goofspiel::State>,
    utility: GoofspielUtility,
}

/// A Goofspiel extensive-form node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GoofspielNode {
    /// A transition waiting for a chance pick: from `from` (`None`: the game's setup) with
    /// seat 0's and seat 1's `bids` (`None` at setup), after the picks `picks`, asking
    /// for one of `outcomes`.
    Chance {
        /// The state the transition starts from (`None`: before setup).
        from: Option<goofspiel::State>,
        /// The joint bid being applied.
        bids: Option<[u8; 2]>,
        /// The chance picks made so far in this transition.
        picks: Picks,
        /// Number of outcomes of the next pick.
        outcomes: u32,
    },
    /// A round start: seat 0 bids (`pending` is `None`), or seat 1 bids after seat 0's
    /// `pending` bid; terminal when the state is.
    Bid {
        /// The state at the round start.
        state: goofspiel::State,
        /// Seat 0's bid this round, once made.
        pending: Option<u8>,
    },
}

impl GoofspielEfg {
    /// The whole game under `params` at 2 players, from before the first point card.
    ///
    /// # Errors
    /// [`SolverError::BadGame`] if the parameters are rejected.
    pub fn new(params: &goofspiel::Params, utility: GoofspielUtility) -> Result<Self, SolverError> {
        let rules = crate::game::rules::<goofspiel::State>(params, 2)
            .map_err(|e| SolverError::BadGame(e.to_string()))?;
        Ok(GoofspielEfg {
            rules,
            root: None,
            utility,
        })
    }

    /// The subgame from `state` (a 2-player state; every state is a round start).
    ///
    /// # Panics
    /// If `state` is not a 2-player game.
    pub fn from_state(state: goofspiel::State, utility: GoofspielUtility) -> Self {
        assert_eq!(state.num_players(), 2, "the extensive form is 2-player");
        GoofspielEfg {
            rules: state.rules(),
            root: Some(state),
            utility,
        }
    }

    fn hand(s: &goofspiel::State, p: Seat) -> Vec<u8> {
        let mut v = Vec::new();
        s.legal_actions(p, &mut v);
        v.into_iter().map(|a| a.0).collect()
    }

    /// The node reached by running the transition from `from` with `bids` under `picks`.
    fn transition(
        &self,
        from: Option<goofspiel::State>,
        bids: Option<[u8; 2]>,
        picks: Picks,
    ) -> GoofspielNode {
        let run = |chance: &mut dyn Chance| match (from, bids) {
            (None, _) => goofspiel::State::new_game(self.rules, chance),
            (Some(mut s), Some([a, b])) => {
                let joint = [
                    Some(goofspiel::Action(a)),
                    Some(goofspiel::Action(b)),
                    None,
                    None,
                ];
                s.apply_joint_unchecked(&joint, chance);
                s
            }
            (Some(s), None) => s,
        };
        match replay(&picks, run) {
            Ok(state) => GoofspielNode::Bid {
                state,
                pending: None,
            },
            Err(outcomes) => GoofspielNode::Chance {
                from,
                bids,
                picks,
                outcomes,
            },
        }
    }
}

impl ExtensiveForm for GoofspielEfg {
    type State = GoofspielNode;

    fn name(&self) -> String {
        let p = self.rules.params();
        format!(
            "goofspiel num_cards={} imp_info={} order={} utility={}",
            p.num_cards, p.imp_info, p.order, self.utility
        )
    }

    fn root(&self) -> GoofspielNode {
        self.transition(self.root, None, Picks::default())
    }

    fn node_kind(&self, s: &GoofspielNode) -> NodeKind {
        match s {
            GoofspielNode::Chance { .. } => NodeKind::Chance,
            GoofspielNode::Bid { state, .. } if state.turn().is_terminal() => NodeKind::Terminal,
            GoofspielNode::Bid { pending: None, .. } => NodeKind::Decision(0),
            GoofspielNode::Bid { .. } => NodeKind::Decision(1),
        }
    }

    /// Outcome `i` of `0..n` with probability `1/n`, labelled by the point card it reveals.
    fn chance_outcomes(&self, s: &GoofspielNode) -> Vec<(String, f64)> {
        let GoofspielNode::Chance { outcomes, .. } = *s else {
            return Vec::new();
        };
        (0..outcomes as usize)
            .map(|i| {
                let label = match self.child(s, i) {
                    GoofspielNode::Bid { state, .. } => format!("point{}", state.point()),
                    GoofspielNode::Chance { .. } => format!("pick{i}"),
                };
                (label, 1.0 / f64::from(outcomes))
            })
            .collect()
    }

    fn actions(&self, s: &GoofspielNode) -> Vec<String> {
        let GoofspielNode::Bid { state, pending } = s else {
            return Vec::new();
        };
        Self::hand(state, usize::from(pending.is_some()))
            .into_iter()
            .map(|c| goofspiel::Action(c).to_string())
            .collect()
    }

    fn info_set_key(&self, s: &GoofspielNode) -> String {
        match s {
            GoofspielNode::Bid { state, pending } => {
                state.info_set_string(usize::from(pending.is_some()))
            }
            GoofspielNode::Chance { .. } => String::new(),
        }
    }

    fn child(&self, s: &GoofspielNode, i: usize) -> GoofspielNode {
        match *s {
            GoofspielNode::Chance {
                from, bids, picks, ..
            } => self.transition(from, bids, picks.then(i as u8)),
            GoofspielNode::Bid { state, pending } => {
                let bid = Self::hand(&state, usize::from(pending.is_some()))[i];
                match pending {
                    None => GoofspielNode::Bid {
                        state,
                        pending: Some(bid),
                    },
                    Some(b0) => self.transition(Some(state), Some([b0, bid]), Picks::default()),
                }
            }
        }
    }

    fn utility(&self, s: &GoofspielNode) -> f64 {
        match s {
            GoofspielNode::Bid { state, .. } => {
                let sc = state.scores();
                self.utility.of_scores(sc[0], sc[1])
            }
            GoofspielNode::Chance { .. } => 0.0,
        }
    }
}

/// Expands the extensive form of game `name` under `settings` (`key=value` rule variants;
/// Goofspiel also accepts `utility=win-loss|points`, default `win-loss`).
///
/// # Errors
/// [`SolverError::UnknownGame`] naming the valid games, [`SolverError::BadGame`] for a bad
/// setting (the message lists the valid keys or values), [`SolverError::TooLarge`] past
/// `max_nodes`.
pub fn build_tree<S: AsRef<str>>(
    name: &str,
    settings: &[S],
    max_nodes: usize,
) -> Result<Tree, SolverError> {
    let bad = |e: crate::ParamError| SolverError::BadGame(e.to_string());
    match name {
        "kuhn" => {
            kuhn::Params::from_settings(settings, "game kuhn").map_err(bad)?;
            Tree::build(&KuhnEfg, max_nodes)
        }
        "goofspiel" => {
            let mut utility = GoofspielUtility::WinLoss;
            let mut rest = Vec::new();
            for s in settings {
                let s = s.as_ref();
                match s.split_once('=') {
                    Some((k, v)) if k.trim() == "utility" => {
                        utility = crate::params::ParamValue::parse_param(v).map_err(|expected| {
                            SolverError::BadGame(format!(
                                "bad value '{}' for 'utility' of goofspiel: expected {expected}",
                                v.trim()
                            ))
                        })?;
                    }
                    _ => rest.push(s.to_string()),
                }
            }
            let params = goofspiel::params_from_settings(&rest).map_err(bad)?;
            Tree::build(&GoofspielEfg::new(&params, utility)?, max_nodes)
        }
        other => Err(SolverError::UnknownGame {
            name: other.to_string(),
            valid: SOLVABLE_GAMES.join(", "),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ScriptedChance;

    /// The Kuhn root's deals ([`KUHN_DEALS`], 1/6 each) are what `new_game` draws through
    /// [`Chance`]: each script of picks (3 × 2 outcomes, equally likely) gives one deal,
    /// and every deal comes from exactly one script.
    #[test]
    fn kuhn_root_deals_are_the_deals_new_game_draws() {
        let rules = crate::game::default_rules::<kuhn::State>();
        let mut drawn = Vec::new();
        for a in 0..3 {
            for b in 0..2 {
                let mut chance = ScriptedChance::new(&[a, b]);
                let s = kuhn::State::new_game(rules, &mut chance);
                assert_eq!(chance.asked(), [3, 2], "one pick of 3, then one of 2");
                drawn.push(s);
            }
        }
        for deal in KUHN_DEALS {
            let n = drawn
                .iter()
                .filter(|s| **s == kuhn::State::from_deal(deal))
                .count();
            assert_eq!(n, 1, "deal {deal:?} drawn {n} times");
        }
    }

    /// OpenSpiel's `point_difference` is own points minus the mean of all players'
    /// points: `(a - b) / 2` for seat 0 at 2 players, not `a - b`.
    #[test]
    fn point_difference_is_openspiels_own_minus_mean() {
        assert_eq!(GoofspielUtility::PointDifference.of_scores(7, 3), 2.0);
        assert_eq!(GoofspielUtility::PointDifference.of_scores(3, 7), -2.0);
        assert_eq!(GoofspielUtility::WinLoss.of_scores(7, 3), 1.0);
        assert_eq!(GoofspielUtility::WinLoss.of_scores(3, 3), 0.0);
        assert_eq!(GoofspielUtility::WinLoss.of_scores(2, 3), -1.0);
        // Through the tree: 1 card, both bid 1: the point card is discarded (0); 2 cards
        // descending: seat 0 wins 2 with bid 2 against 1, then seat 1 wins 1.
        let p = goofspiel::Params {
            num_cards: 2,
            order: goofspiel::PointOrder::Descending,
            ..goofspiel::Params::default()
        };
        let t = Tree::build(
            &GoofspielEfg::new(&p, GoofspielUtility::PointDifference).unwrap(),
            100,
        )
        .unwrap();
        let leaves: Vec<f64> = t
            .nodes
            .iter()
            .filter_map(|n| match n {
                crate::solvers::efg::TreeNode::Terminal(u) => Some(*u),
                _ => None,
            })
            .collect();
        // Joint first bids (1,1), (1,2), (2,1), (2,2): scores 0:0, 1:2, 2:1, 0:0.
        assert_eq!(leaves, [0.0, -0.5, 0.5, 0.0]);
    }

    /// The adapter enumerates exactly the chance the game draws: the root's outcomes are
    /// the point cards `1..=n`, each `1/n`, in the order of the scripted picks.
    #[test]
    fn chance_is_enumerated_through_the_game() {
        let p = goofspiel::Params {
            num_cards: 3,
            ..goofspiel::Params::default()
        };
        let g = GoofspielEfg::new(&p, GoofspielUtility::WinLoss).unwrap();
        let root = g.root();
        assert_eq!(g.node_kind(&root), NodeKind::Chance);
        let outcomes = g.chance_outcomes(&root);
        assert_eq!(
            outcomes,
            vec![
                ("point1".to_string(), 1.0 / 3.0),
                ("point2".to_string(), 1.0 / 3.0),
                ("point3".to_string(), 1.0 / 3.0)
            ]
        );
        for i in 0..3 {
            let GoofspielNode::Bid { state, .. } = g.child(&root, i) else {
                panic!("a drawn point card starts a round");
            };
            let rules = crate::game::rules::<goofspiel::State>(&p, 2).unwrap();
            let direct = goofspiel::State::new_game(rules, &mut ScriptedChance::new(&[i as u32]));
            assert_eq!(state, direct);
        }
        // Descending order draws nothing: the root is seat 0's decision.
        let d = goofspiel::Params {
            order: goofspiel::PointOrder::Descending,
            ..p
        };
        let g = GoofspielEfg::new(&d, GoofspielUtility::WinLoss).unwrap();
        assert_eq!(g.node_kind(&g.root()), NodeKind::Decision(0));
        let t = Tree::build(&g, 10_000).unwrap();
        // 1 + 3 + 9 (round 1) + 9 * (2 + 4) (round 2) + 9 * 4 * (1 + 1) (round 3).
        assert_eq!(t.nodes.len(), 1 + 3 + 9 + 9 * 6 + 36 * 2);
    }

    #[test]
    fn replay_reports_the_pool_it_could_not_answer() {
        let picks = Picks::default().then(2);
        let r = replay(&picks, |c| (c.below(5), c.below(4)));
        assert_eq!(r, Err(4));
        assert_eq!(replay(&picks, |c| c.below(3)), Ok(2));
        assert_eq!(replay(&Picks::default(), |_| 7), Ok(7));
    }

    #[test]
    fn unknown_games_name_the_solvable_ones() {
        let e = build_tree::<&str>("chess", &[], 10)
            .unwrap_err()
            .to_string();
        assert!(e.contains("chess") && e.contains("kuhn, goofspiel"), "{e}");
    }
}
