//! The [`crate::Playable`] implementation of Daimyo: the static facts, agent defaults, metric
//! columns, turn, legal actions, apply, returns and scores, the information key and
//! determinization.

use super::Params;
use super::action::Action;
use super::observation::Observation;
use super::options::OptionCache;
use super::setup::{RulesData, check_rules};
use super::state::*;
use crate::game::{
    Chance, Column, GameState, JointAction, Labels, MAX_PLAYERS, Measured, Metrics, PerSeat,
    RulesRef, RunningScore, Seat, Turn,
};
use crate::game::{ChanceMode, Dynamics, GameType, Information, Rules, TensorField, UtilityKind};
use crate::params::ParamError;
use crate::rng::{SimRng, mix64};

#[cfg(debug_assertions)]
thread_local! {
    /// The legal-action buffer of the debug option-cache check in `random_action`.
    static DEBUG_FRESH: std::cell::RefCell<Vec<Action>> = const { std::cell::RefCell::new(Vec::new()) };
}
impl GameState for State {
    type Action = Action;
    type Params = Params;
    type RulesData = RulesData;
    type Observation = Observation;

    const TYPE: GameType = GameType {
        short_name: "daimyo",
        long_name: "Daimyo: Rebirth of the Empire",
        description: "Daimyo: Rebirth of the Empire, 2-4 players (dice drafting, clans, heroes, relics, influence; synthetic Hero list)",
        min_players: 2,
        max_players: 4,
        default_players: 2,
        dynamics: Dynamics::Sequential,
        chance_mode: ChanceMode::SampledStochastic,
        information: Information::Imperfect,
        utility: UtilityKind::ConstantSum,
        num_action_ids: super::action::KINDS * 256,
        perfect_recall: true,
    };

    fn build_rules(params: &Params, players: usize) -> Result<RulesData, ParamError> {
        check_rules(params, players)
    }

    fn new_game<C: Chance + ?Sized>(rules: RulesRef<State>, chance: &mut C) -> Self {
        State::setup(rules, chance)
    }

    fn rules(&self) -> RulesRef<State> {
        self.rules
    }

    fn turn(&self) -> Turn {
        if self.phase == Phase::Over {
            Turn::Terminal
        } else {
            Turn::Player(self.actor as usize)
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.phase == Phase::Over || player != self.actor as usize {
            return;
        }
        // The generators mostly write in id order without repeats: then the list is
        // already what sorting and deduplicating would give.
        self.options(out);
        if !out.windows(2).all(|w| w[0].0 < w[1].0) {
            out.sort_unstable();
            out.dedup();
        }
    }

    /// The uniform choice of [`crate::game::uniform_legal_action`] (the same draw, the
    /// same action) from the options `settle` already built (`OptionCache`); builds the
    /// list only when there is no valid cache.
    fn random_action(&self, player: Seat, buf: &mut Vec<Action>, rng: &mut SimRng) -> Action {
        use rand::RngExt;
        match self.cache.get() {
            Some(list) if player == self.actor as usize && self.phase != Phase::Over => {
                // A buffer per thread: the debug check allocates nothing in the games it
                // watches (`tests/integration/alloc.rs`).
                #[cfg(debug_assertions)]
                DEBUG_FRESH.with_borrow_mut(|fresh| {
                    self.legal_actions(player, fresh);
                    assert!(fresh[..] == list[..], "the option cache is stale");
                });
                list[rng.random_range(0..list.len())]
            }
            _ => crate::game::uniform_legal_action(self, player, buf, rng),
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(
        &mut self,
        player: Seat,
        action: Action,
        chance: &mut C,
    ) {
        debug_assert_eq!(player, self.actor as usize);
        // Every decision is public (a discarded Hero was the pile's top card).
        self.history = record(self.history, ((player as u64) << 16) | action.0 as u64);
        self.choose(action, chance);
        self.ply += 1;
        self.settle(chance);
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, _: &JointAction<Action>, _: &mut C) {
        unreachable!("Daimyo has no simultaneous nodes");
    }

    fn returns(&self) -> PerSeat<f64> {
        self.params()
            .returns
            .returns(&self.ranks(), &self.scores(), self.n())
    }

    fn value(&self) -> PerSeat<f64> {
        if self.phase == Phase::Over {
            return self.returns();
        }
        let n = self.n();
        let projected = self.projected();
        let win = crate::game::win_share_from_scores(&projected, n, 6.0);
        self.params().returns.estimate(&win, &projected, n)
    }

    fn scores(&self) -> PerSeat<i32> {
        let mut out = [0; MAX_PLAYERS];
        for (p, o) in out.iter_mut().enumerate().take(self.n()) {
            *o = self.seats[p].popularity as i32;
        }
        out
    }

    /// Most PP; ties: most Rice + Metal + Crystal left, then shared (DAI-7.6).
    fn ranks(&self) -> PerSeat<u8> {
        let komi = &self.params().komi;
        if !komi.is_zero() {
            // DAI-7.7: Popularity Points plus komi, then the DAI-7.6 tie-break.
            let leftover = std::array::from_fn(|p| if p < self.n() { self.leftover(p) } else { 0 });
            return komi.rank(&self.scores(), &leftover, self.n());
        }
        let mut keys = [(0i32, 0u32); MAX_PLAYERS];
        for (p, k) in keys.iter_mut().enumerate().take(self.n()) {
            *k = (self.seats[p].popularity as i32, self.leftover(p));
        }
        crate::game::ranks_by_key(&keys, self.n())
    }

    /// A digest of everything the seat has seen (perfect recall): its current view
    /// ([`State::canonical`]: the public state, its own hand and deck, the pile sizes),
    /// the public history ([`State::history`]: every decision and public chance outcome
    /// since setup) and its private history (its own Hero draws, [`State::recall`]). The
    /// same content as [`GameState::information_state_string`], hashed without building the
    /// string (see the module docs, "Information state").
    fn info_key(&self, player: Seat) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        self.canonical(player).hash(&mut h);
        self.pile_sizes().hash(&mut h);
        mix64(h.finish())
    }

    /// The layout of the module docs ("Observation tensor"): 2,647 / 3,200 / 3,753 values
    /// at 2 / 3 / 4 players with the built-in data.
    fn observation_layout(rules: &Rules<Self>) -> Vec<TensorField> {
        super::observation::observation_layout(rules.data(), rules.players())
    }

    /// Writes the layout of the module docs ("Observation tensor"): the public state, the
    /// seat's own Heroes, and of another seat's Heroes only what is public (DAI-27).
    fn observation_tensor(&self, seat: Seat, out: &mut [f32]) {
        self.write_observation(seat, out);
    }

    /// The observation ([`GameState::observation`], what the seat sees now) followed by the two
    /// running digests that make it perfect recall: the public history
    /// ([`State::history`]: every decision and public chance outcome since setup) and the
    /// seat's private history ([`State::recall`]: its own Hero draws), in hex.
    fn information_state_string(&self, seat: Seat) -> String {
        format!(
            "{}\npublic history {:016x}\nprivate history {:016x}",
            self.observation(seat),
            self.history,
            self.recall[seat]
        )
    }

    fn observation(&self, seat: Seat) -> Observation {
        let sizes = self.pile_sizes();
        let sizes: Vec<[u32; 3]> = sizes[..self.n()].to_vec();
        Observation {
            seat,
            text: format!(
                "{}\npile sizes (hand, deck, discard) {sizes:?}",
                self.canonical(seat)
            ),
        }
    }

    /// Resamples the only hidden part (DAI-27): which of another seat's Heroes in hand and
    /// deck are in the hand. The union of hand and deck is public (the clan's starting
    /// Heroes, hires, and the face-up discard pile that refills the deck); the Heroes known
    /// to be in hand (hired, not played since) stay; the rest of the hand is drawn uniformly
    /// from the unknown cards. The relic bag, the Hero deck and the dice are drawn lazily,
    /// so there is nothing else to resample.
    fn determinize(&self, observer: Seat, rng: &mut SimRng) -> Self {
        let mut out = self.clone();
        // Another seat's hand may change, and with it the options.
        out.cache = OptionCache::default();
        let public = self.params().hero_discard_public;
        for q in 0..self.n() {
            if q == observer {
                continue;
            }
            let top = self.top_bit(q);
            let seat = &mut out.seats[q];
            let known = self.known_hand[q] & seat.hand;
            let mut pool = (seat.hand | seat.deck) & !known;
            if !public {
                // Only the top of the discard pile is seen (DAI-27 alternative).
                pool |= seat.discard & !top;
            }
            let mut draw = |k: u32| {
                let mut got = 0u64;
                for _ in 0..k {
                    let i = rng.below(pool.count_ones());
                    let c = bits(pool).nth(i as usize).expect("i < popcount");
                    pool &= !(1u64 << c);
                    got |= 1u64 << c;
                }
                got
            };
            let hand = known | draw(seat.hand.count_ones() - known.count_ones());
            if !public {
                seat.discard = top | draw(seat.discard.count_ones() - top.count_ones());
            }
            seat.hand = hand;
            seat.deck = pool;
        }
        out
    }

    fn action_id(action: Action) -> usize {
        action.0 as usize
    }

    fn action_from_id(id: usize) -> Option<Action> {
        Action::from_id(id)
    }

    /// The default's answer (the first id in id order whose text is `text`, trimmed) from a
    /// table of every id's text built once per process, instead of formatting up to all
    /// 8,960 ids at each call (the soak's deep checks parse every legal action's text back).
    fn parse_action(text: &str) -> Option<Action> {
        static BY_TEXT: std::sync::OnceLock<std::collections::HashMap<String, Action>> =
            std::sync::OnceLock::new();
        BY_TEXT
            .get_or_init(|| {
                let mut map = std::collections::HashMap::new();
                for a in (0..Self::NUM_ACTION_IDS).filter_map(Action::from_id) {
                    map.entry(a.to_string()).or_insert(a);
                }
                map
            })
            .get(text.trim())
            .copied()
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn round(&self) -> u32 {
        self.round as u32
    }

    fn end_condition(&self) -> &'static str {
        if self.phase == Phase::Over {
            "rounds_done"
        } else {
            ""
        }
    }

    fn max_plies(&self) -> u32 {
        20_000
    }

    /// A documented bound, far above any game seen (the longest of 10 million random games
    /// in the soak is a small fraction of it).
    fn max_game_length(_: &Rules<Self>) -> u32 {
        20_000
    }

    /// The checks of the `validate` module (counters, the effect stack, dice, the
    /// conservation of Heroes, resources, pieces and Relic tiles, an option to choose).
    fn validate(&self) -> Result<(), crate::game::InvalidState> {
        self.check_position()
            .map_err(crate::game::InvalidState::of::<Self>)
    }
}

impl Measured for State {
    const SEAT_METRICS: &'static [Column] = &[
        Column {
            name: "pp_influence",
            meaning: "PP from influence scoring at the ends of rounds (daimyo.txt L643)",
        },
        Column {
            name: "pp_relics",
            meaning: "PP for restored Relics at the end (L712)",
        },
        Column {
            name: "pp_buildings",
            meaning: "PP for Techno-farms and Radio towers at the end (L716)",
        },
        Column {
            name: "pp_army",
            meaning: "PP for the army ranking at the end (L726)",
        },
        Column {
            name: "pp_helmet",
            meaning: "PP for holding the Mighty Helmet at the end (L752), 0 or 2",
        },
        Column {
            name: "pp_resources",
            meaning: "PP for lots of 5 leftover Rice/Metal/Crystal (L754)",
        },
        Column {
            name: "pp_other",
            meaning: "PP from storage increases beyond the maximum (L302) and Heroes",
        },
        Column {
            name: "heroes_played",
            meaning: "Heroes played (by strength or the Noble ability)",
        },
        Column {
            name: "heroes_hired",
            meaning: "Heroes hired from the market",
        },
        Column {
            name: "relics_restored",
            meaning: "Relics restored",
        },
        Column {
            name: "assassinations",
            meaning: "enemy Governors eliminated by this seat's Shadows",
        },
        Column {
            name: "actions_villagers",
            meaning: "Help from Villagers main actions resolved from a die (L296)",
        },
        Column {
            name: "actions_production",
            meaning: "Production main actions resolved from a die (L340)",
        },
        Column {
            name: "actions_relic",
            meaning: "Relic main actions resolved from a die (L354)",
        },
        Column {
            name: "actions_recruitment",
            meaning: "Recruitment main actions resolved from a die (L454)",
        },
        Column {
            name: "actions_construction",
            meaning: "Construction main actions resolved from a die (L507)",
        },
        Column {
            name: "actions_tax",
            meaning: "dice placed on Tax (L536)",
        },
    ];

    const SEAT_LABELS: &'static [Column] = &[Column {
        name: "clan",
        meaning: "the seat's clan (nature, tech, nomad, noble)",
    }];

    fn metrics(&self, out: &mut Metrics) {
        for p in 0..self.n() {
            let s = &self.seats[p];
            let m = &mut out.seat[p];
            for (slot, &v) in m.iter_mut().zip(&s.pp) {
                *slot = v as i32;
            }
            m[7] = s.heroes_played as i32;
            m[8] = s.heroes_hired as i32;
            m[9] = s.restored.iter().map(|&r| r as i32).sum();
            m[10] = s.assassinations as i32;
            for (slot, &k) in m[11..11 + SPACES].iter_mut().zip(&s.mains) {
                *slot = k as i32;
            }
        }
    }

    fn labels(&self, out: &mut Labels) {
        let d = self.data();
        for p in 0..self.n() {
            out.seat[p][0] = d.clans[self.seats[p].clan as usize].name.as_str();
        }
    }
}

impl RunningScore for State {
    /// Running score: the Popularity points (PP) so far, earned round by round
    /// (DAI-1.1); the end-of-game points are added only at the end.
    const HAS_RUNNING_SCORE: bool = true;
}
