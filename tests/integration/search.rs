//! Known-answer tests of the search agents (DESIGN.md §5.6) on tiny test games written
//! here: MCTS finds a forced win (Nim), the agents never read hidden state (a guessing
//! game whose true hidden part is sealed), regret matching approaches the mixed
//! equilibrium of a biased matching-pennies game, plus spec, preset and allocation checks.
//! Fixed seeds, no timing.

use std::cell::Cell;
use std::fmt;

use crate::counting::allocations;
use tabletop_sim::agents::ismcts::{self, IsmctsAgent};
use tabletop_sim::agents::mcts::{self, MctsAgent};
use tabletop_sim::agents::sm_mcts::{self, SmMctsAgent};
use tabletop_sim::agents::{AgentError, build, canonicalize, presets};
use tabletop_sim::game::{
    Chance, ChanceMode, Dynamics, GameState, GameType, Information, JointAction, Measured, PerSeat,
    Playable, RulesRef, RunningScore, Seat, SeatSet, Turn, UtilityKind, View, default_rules,
    ranks_by_key,
};
use tabletop_sim::params::{ParamError, ParamSet};
use tabletop_sim::rng::{SimRng, test_rng};
use tabletop_sim::{Agent, param_set};

/// The static facts of a test game: turn-based, stochastic, imperfect information,
/// constant-sum (the toy games here differ only in name, seats and action ids).
const fn toy_type(
    short_name: &'static str,
    description: &'static str,
    players: (usize, usize),
    num_action_ids: usize,
) -> GameType {
    GameType {
        short_name,
        long_name: short_name,
        description,
        min_players: players.0,
        max_players: players.1,
        default_players: players.0,
        dynamics: Dynamics::Sequential,
        chance_mode: ChanceMode::SampledStochastic,
        information: Information::Imperfect,
        utility: UtilityKind::ConstantSum,
        num_action_ids,
        perfect_recall: true,
    }
}

/// The information items of a test game: a one-value tensor and a string, both from its
/// information-set key (the test games are small and their keys exact).
macro_rules! toy_information {
    () => {
        fn observation_layout(
            _: &tabletop_sim::game::Rules<Self>,
        ) -> Vec<tabletop_sim::game::TensorField> {
            vec![tabletop_sim::game::TensorField::new(
                "key",
                1,
                "the information-set key modulo 2^20 (test game)",
            )]
        }
        fn observation_tensor(&self, seat: Seat, out: &mut [f32]) {
            out[0] = (self.info_key(seat) % (1 << 20)) as f32;
        }
        fn information_state_string(&self, seat: Seat) -> String {
            format!("{:016x}", self.info_key(seat))
        }
    };
}

/// The value estimate of the test games: the returns at the end, an even share before.
fn even_value<G: Playable>(s: &G) -> PerSeat<f64> {
    if s.turn().is_terminal() {
        return s.returns();
    }
    let n = s.num_players();
    std::array::from_fn(|p| if p < n { 1.0 / n as f64 } else { 0.0 })
}

// ---------------------------------------------------------------------------------------
// Nim: a pile of stones, each turn take 1-3, whoever takes the last stone wins. From a
// pile that is not a multiple of 4 exactly one move wins: leave a multiple of 4.

param_set! {
    /// Nim settings.
    pub struct NimParams {
        /// Starting pile.
        pub pile: u8 = 5,
    }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Nim {
    pile: u8,
    to_move: u8,
    winner: u8,
    ply: u32,
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pile {} seat {}", self.pile, self.to_move)
    }
}

impl GameState for Nim {
    type Action = u8;
    type Params = NimParams;
    type RulesData = ();
    type Observation = u64;
    const TYPE: GameType = toy_type("nim", "test Nim", (2, 2), 4);
    toy_information!();

    fn build_rules(_: &Self::Params, _: usize) -> Result<(), ParamError> {
        Ok(())
    }

    fn rules(&self) -> RulesRef<Self> {
        default_rules()
    }

    fn new_game<C: Chance + ?Sized>(_rules: RulesRef<Self>, _chance: &mut C) -> Self {
        let p = _rules.params();
        Nim {
            pile: p.pile,
            to_move: 0,
            winner: 0,
            ply: 0,
        }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.pile == 0 {
            Turn::Terminal
        } else {
            Turn::Player(self.to_move as usize)
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<u8>) {
        out.clear();
        if self.pile > 0 && player == self.to_move as usize {
            out.extend(1..=self.pile.min(3));
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, _: Seat, a: u8, _: &mut C) {
        self.pile -= a;
        if self.pile == 0 {
            self.winner = self.to_move;
        }
        self.to_move ^= 1;
        self.ply += 1;
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, _: &JointAction<u8>, _: &mut C) {
        unreachable!()
    }

    fn scores(&self) -> PerSeat<i32> {
        let mut s = [0; 4];
        s[self.winner as usize] = 1;
        s
    }

    fn ranks(&self) -> PerSeat<u8> {
        ranks_by_key(&self.scores(), 2)
    }

    fn info_key(&self, _: Seat) -> u64 {
        u64::from(self.pile) << 8 | u64::from(self.to_move)
    }

    fn determinize(&self, _: Seat, _: &mut SimRng) -> Self {
        self.clone()
    }

    fn value(&self) -> PerSeat<f64> {
        even_value(self)
    }

    fn observation(&self, seat: Seat) -> u64 {
        self.info_key(seat)
    }

    fn action_id(a: u8) -> usize {
        a as usize
    }

    fn action_from_id(id: usize) -> Option<u8> {
        (1..=3).contains(&id).then_some(id as u8)
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn round(&self) -> u32 {
        self.ply
    }

    fn end_condition(&self) -> &'static str {
        if self.pile == 0 { "last_stone" } else { "" }
    }

    fn max_plies(&self) -> u32 {
        u32::from(self.pile) + self.ply
    }

    fn max_game_length(rules: &tabletop_sim::game::Rules<Self>) -> u32 {
        u32::from(rules.params().pile)
    }
}

impl Measured for Nim {}

impl RunningScore for Nim {}

impl tabletop_sim::games::log::Logged for Nim {}

fn nim(pile: u8) -> Nim {
    tabletop_sim::game::setup::<Nim>(&NimParams { pile }, 2, &mut test_rng(0)).unwrap()
}

#[test]
fn mcts_finds_the_forced_win_in_nim() {
    // (pile, the unique winning take)
    for (pile, win) in [(5, 1), (6, 2), (7, 3), (9, 1), (11, 3)] {
        let state = nim(pile);
        let p = mcts::Params::from_settings(&["iters=3000", "depth=0"], "test").unwrap();
        let mut agent = MctsAgent::<Nim>::new(p);
        for seed in 0..3 {
            let a = agent.act(&View::new(&state, 0), &mut test_rng(seed));
            assert_eq!(a, win, "pile {pile}, seed {seed}");
        }
    }
}

#[test]
fn ismcts_and_cfr_find_the_forced_win_in_nim() {
    for (pile, win) in [(5, 1), (6, 2), (7, 3)] {
        let state = nim(pile);
        let view = View::new(&state, 0);
        let p = ismcts::Params::from_settings(&["iters=3000", "depth=0"], "test").unwrap();
        let a = IsmctsAgent::<Nim>::new(p).act(&view, &mut test_rng(1));
        assert_eq!(a, win, "ismcts, pile {pile}");
        let p = sm_mcts::Params::from_settings(&["iters=5000", "depth=0", "final=max"], "test")
            .unwrap();
        let a = SmMctsAgent::<Nim>::new(p).act(&view, &mut test_rng(1));
        assert_eq!(a, win, "cfr, pile {pile}");
    }
}

#[test]
fn mcts_value_rule_and_worlds_also_find_the_win() {
    let state = nim(7);
    for spec in [
        "mcts:iters=3000,depth=0,final=value",
        "mcts:iters=4000,depth=0,worlds=4",
        "mcts:iters=3000,depth=0,rollout=greedy,epsilon=0.5",
        "mcts:iters=3000,root=sh",
        "mcts:iters=3000,chance=closed",
        "ismcts:iters=3000,root=sh,chance=closed",
    ] {
        let mut agent = build::<Nim>(spec).unwrap();
        let a = agent.act(&View::new(&state, 0), &mut test_rng(3));
        assert_eq!(a, 3, "{spec}");
    }
}

#[test]
fn search_statistics_favour_the_winning_move() {
    let state = nim(5);
    let p = mcts::Params::from_settings(&["iters=4000", "depth=0"], "test").unwrap();
    let stats = MctsAgent::<Nim>::new(p).search(&View::new(&state, 0), &mut test_rng(9));
    let total: f64 = stats.iter().map(|s| s.1).sum();
    assert_eq!(total, 4000.0);
    let (a, visits, mean) = stats[0];
    assert_eq!(a, 1);
    assert!(visits > 0.5 * total, "{stats:?}");
    assert!(
        mean > 0.8,
        "the forced win should evaluate near 1: {stats:?}"
    );
}

#[test]
fn decisions_are_reproducible_and_independent_of_arena_reuse() {
    let state = nim(11);
    let view = View::new(&state, 0);
    for spec in ["mcts:iters=500", "ismcts:iters=500", "cfr:iters=500"] {
        let mut reused = build::<Nim>(spec).unwrap();
        let mut firsts = Vec::new();
        let mut seconds = Vec::new();
        for seed in 0..20 {
            firsts.push(build::<Nim>(spec).unwrap().act(&view, &mut test_rng(seed)));
            // A warm agent whose arena holds the previous search must decide the same.
            seconds.push(reused.act(&view, &mut test_rng(seed)));
        }
        assert_eq!(firsts, seconds, "{spec}");
    }
}

#[test]
fn warm_agents_allocate_nothing_per_iteration() {
    let state = nim(11);
    let view = View::new(&state, 0);
    for spec in [
        "mcts:iters=2000",
        "mcts:iters=2000,worlds=3,rollout=greedy",
        "mcts:iters=2000,root=sh,chance=closed",
        "ismcts:iters=2000",
        "ismcts:iters=2000,root=sh,chance=closed",
        "cfr:iters=2000",
        "mcts:iters=2000,rollout=mast,bias=1,reuse=true",
        "ismcts:iters=2000,rollout=mast,bias=1,reuse=true",
        "cfr:iters=2000,rollout=mast",
        "cfr:iters=2000,regret=plus,average=linear,turns=ucb",
        "ismcts:iters=2000,weights=greedy",
        "ismcts:iters=2000,observers=multi",
        "ismcts:iters=2000,observers=multi,rollout=mast,bias=1",
        "ismcts:iters=2000,observers=multi,root=sh,chance=closed",
    ] {
        let mut agent = build::<Nim>(spec).unwrap();
        agent.act(&view, &mut test_rng(5));
        // The same search again builds the same tree in the reused arena: not one allocation.
        let before = allocations();
        agent.act(&view, &mut test_rng(5));
        assert_eq!(
            allocations() - before,
            0,
            "{spec} allocated in a warm decision"
        );
        // Other searches may grow a buffer now and then, never once per iteration.
        let before = allocations();
        for seed in 6..16 {
            agent.act(&view, &mut test_rng(seed));
        }
        assert!(
            allocations() - before < 20,
            "{spec}: {} allocations",
            allocations() - before
        );
    }
}

/// Weighted determinization in a game that replays its history (Kuhn poker, seat 1 facing a
/// bet): the pool and its weights live in reused buffers, so a warm decision allocates
/// nothing.
#[test]
fn warm_weighted_determinization_allocates_nothing() {
    use tabletop_sim::games::kuhn;
    let mut state = kuhn::State::from_deal([2, 1]);
    state.apply(0, kuhn::Action::Bet, &mut test_rng(0)).unwrap();
    let view = View::new(&state, 1);
    for spec in [
        "ismcts:iters=2000,weights=greedy",
        "mcts:iters=2000,worlds=4,weights=greedy,pool=128",
    ] {
        let mut agent = build::<kuhn::State>(spec).unwrap();
        agent.act(&view, &mut test_rng(5));
        let before = allocations();
        agent.act(&view, &mut test_rng(5));
        assert_eq!(
            allocations() - before,
            0,
            "{spec} allocated in a warm decision"
        );
    }
}

/// The same at simultaneous nodes (goofspiel(13), the first bid), for every selection rule
/// there (`sm`): the stochastic rules' probabilities and regrets live in reused buffers.
#[test]
fn warm_agents_allocate_nothing_per_iteration_at_simultaneous_nodes() {
    use tabletop_sim::games::goofspiel;
    let mut rng = test_rng(5);
    let state =
        tabletop_sim::game::setup::<goofspiel::State>(&goofspiel::Params::default(), 2, &mut rng)
            .unwrap();
    let view = View::new(&state, 0);
    for spec in [
        "mcts:iters=2000,sm=ucb",
        "mcts:iters=2000,sm=ucb-ties",
        "mcts:iters=2000,sm=ucb-mix",
        "mcts:iters=2000,sm=exp3",
        "mcts:iters=2000,sm=rm",
        "ismcts:iters=2000,sm=rm",
        "ismcts:iters=2000",
        "ismcts:iters=2000,observers=multi",
        "ismcts:iters=2000,observers=multi,sm=rm",
    ] {
        let mut agent = build::<goofspiel::State>(spec).unwrap();
        agent.act(&view, &mut test_rng(5));
        let before = allocations();
        agent.act(&view, &mut test_rng(5));
        assert_eq!(
            allocations() - before,
            0,
            "{spec} allocated in a warm decision"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Guess: chance hands seat 1 a secret in 0..3; seat 0 guesses it and wins if right. The
// secret is hidden from seat 0. The true state is "sealed": while `SEALED` is set, reading
// the secret of a state that was not produced by `determinize` panics, so an agent that
// peeks fails the test; and an honest agent's choice cannot depend on the secret.

thread_local! {
    static SEALED: Cell<bool> = const { Cell::new(false) };
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Guess {
    secret: u8,
    guess: Option<u8>,
    real: bool,
}

impl Guess {
    fn secret(&self) -> u8 {
        if self.real && SEALED.with(Cell::get) {
            panic!("an agent read the true hidden state");
        }
        self.secret
    }
}

impl fmt::Display for Guess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "guess {:?}", self.guess)
    }
}

param_set! {
    /// Guess settings (none).
    pub struct NoParams {}
}

impl GameState for Guess {
    type Action = u8;
    type Params = NoParams;
    type RulesData = ();
    type Observation = u64;
    const TYPE: GameType = toy_type("guess", "test guessing game", (2, 2), 3);
    toy_information!();

    fn build_rules(_: &Self::Params, _: usize) -> Result<(), ParamError> {
        Ok(())
    }

    fn rules(&self) -> RulesRef<Self> {
        default_rules()
    }

    fn new_game<C: Chance + ?Sized>(_rules: RulesRef<Self>, rng: &mut C) -> Self {
        Guess {
            secret: rng.below(3) as u8,
            guess: None,
            real: true,
        }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.guess {
            None => Turn::Player(0),
            Some(_) => Turn::Terminal,
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<u8>) {
        out.clear();
        if self.guess.is_none() && player == 0 {
            out.extend(0..3);
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, _: Seat, a: u8, _: &mut C) {
        self.guess = Some(a);
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, _: &JointAction<u8>, _: &mut C) {
        unreachable!()
    }

    fn scores(&self) -> PerSeat<i32> {
        let right = self.guess == Some(self.secret());
        [i32::from(right), i32::from(!right), 0, 0]
    }

    fn ranks(&self) -> PerSeat<u8> {
        ranks_by_key(&self.scores(), 2)
    }

    fn info_key(&self, player: Seat) -> u64 {
        let g = self.guess.map_or(0, |g| u64::from(g) + 1);
        if player == 1 {
            g << 8 | u64::from(self.secret())
        } else {
            g
        }
    }

    fn determinize(&self, observer: Seat, rng: &mut SimRng) -> Self {
        use rand::RngExt;
        Guess {
            secret: if observer == 1 {
                self.secret
            } else {
                rng.random_range(0..3)
            },
            guess: self.guess,
            real: false,
        }
    }

    fn value(&self) -> PerSeat<f64> {
        even_value(self)
    }

    fn observation(&self, seat: Seat) -> u64 {
        self.info_key(seat)
    }

    fn action_id(a: u8) -> usize {
        a as usize
    }

    fn action_from_id(id: usize) -> Option<u8> {
        (id < 3).then_some(id as u8)
    }

    fn ply(&self) -> u32 {
        u32::from(self.guess.is_some())
    }

    fn round(&self) -> u32 {
        self.ply()
    }

    fn end_condition(&self) -> &'static str {
        if self.guess.is_some() { "guessed" } else { "" }
    }

    fn max_plies(&self) -> u32 {
        1
    }

    fn max_game_length(_: &tabletop_sim::game::Rules<Self>) -> u32 {
        1
    }
}

impl Measured for Guess {}

impl RunningScore for Guess {}

impl tabletop_sim::games::log::Logged for Guess {}

#[test]
fn agents_never_read_hidden_state() {
    for spec in [
        "mcts:iters=300,worlds=3",
        "mcts:iters=300,worlds=3,chance=closed,root=sh",
        "ismcts:iters=300",
        "ismcts:iters=300,chance=closed,root=sh",
        "cfr:iters=300,worlds=2",
        "ismcts:iters=300,weights=greedy",
        "ismcts:iters=300,observers=multi",
        "ismcts:iters=300,observers=multi,chance=closed,root=sh",
        "mcts:iters=300,worlds=3,weights=greedy",
        "greedy",
    ] {
        let mut agent = build::<Guess>(spec).unwrap();
        for seed in 0..10 {
            let mut choices = Vec::new();
            for secret in 0..3 {
                let state = Guess {
                    secret,
                    guess: None,
                    real: true,
                };
                SEALED.with(|s| s.set(true));
                let a = agent.act(&View::new(&state, 0), &mut test_rng(seed));
                SEALED.with(|s| s.set(false));
                choices.push(a);
            }
            // A peeking agent would guess each secret; an honest one cannot tell them apart.
            assert!(
                choices.iter().all(|&c| c == choices[0]),
                "{spec}, seed {seed}: choice depends on the hidden secret: {choices:?}"
            );
        }
    }
}

#[test]
#[should_panic(expected = "read the true hidden state")]
fn the_hidden_state_seal_catches_a_peek() {
    let state = Guess {
        secret: 1,
        guess: Some(1),
        real: true,
    };
    SEALED.with(|s| s.set(true));
    let _ = state.returns();
}

// ---------------------------------------------------------------------------------------
// Biased matching pennies, one shot, simultaneous. Seat 0's reward: (H,H) = 1, (T,T) = 0.5,
// mismatch = 0; seat 1 gets 1 minus that. The unique equilibrium mixes: both seats play H
// with probability 1/3 (game value 1/3 for seat 0).

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Pennies {
    moves: Option<(u8, u8)>,
}

impl fmt::Display for Pennies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.moves)
    }
}

const PAYOFF: [[f64; 2]; 2] = [[1.0, 0.0], [0.0, 0.5]];

impl GameState for Pennies {
    type Action = u8;
    type Params = NoParams;
    type RulesData = ();
    type Observation = u64;
    const TYPE: GameType = toy_type("pennies", "test biased matching pennies", (2, 2), 2);
    toy_information!();

    fn build_rules(_: &Self::Params, _: usize) -> Result<(), ParamError> {
        Ok(())
    }

    fn rules(&self) -> RulesRef<Self> {
        default_rules()
    }

    fn new_game<C: Chance + ?Sized>(_rules: RulesRef<Self>, _chance: &mut C) -> Self {
        Pennies { moves: None }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.moves {
            None => Turn::Simultaneous(SeatSet::all(2)),
            Some(_) => Turn::Terminal,
        }
    }

    fn legal_actions(&self, _: Seat, out: &mut Vec<u8>) {
        out.clear();
        if self.moves.is_none() {
            out.extend([0, 1]);
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, _: Seat, _: u8, _: &mut C) {
        unreachable!()
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, joint: &JointAction<u8>, _: &mut C) {
        self.moves = Some((joint[0].unwrap(), joint[1].unwrap()));
    }

    fn returns(&self) -> PerSeat<f64> {
        let (a, b) = self.moves.unwrap();
        let u = PAYOFF[a as usize][b as usize];
        [u, 1.0 - u, 0.0, 0.0]
    }

    fn scores(&self) -> PerSeat<i32> {
        let r = self.returns();
        [(r[0] * 2.0) as i32, (r[1] * 2.0) as i32, 0, 0]
    }

    fn ranks(&self) -> PerSeat<u8> {
        ranks_by_key(&self.scores(), 2)
    }

    fn info_key(&self, _: Seat) -> u64 {
        u64::from(self.moves.is_some())
    }

    fn determinize(&self, _: Seat, _: &mut SimRng) -> Self {
        self.clone()
    }

    fn value(&self) -> PerSeat<f64> {
        even_value(self)
    }

    fn observation(&self, seat: Seat) -> u64 {
        self.info_key(seat)
    }

    fn action_id(a: u8) -> usize {
        a as usize
    }

    fn action_from_id(id: usize) -> Option<u8> {
        (id < 2).then_some(id as u8)
    }

    fn ply(&self) -> u32 {
        u32::from(self.moves.is_some())
    }

    fn round(&self) -> u32 {
        self.ply()
    }

    fn end_condition(&self) -> &'static str {
        if self.moves.is_some() { "revealed" } else { "" }
    }

    fn max_plies(&self) -> u32 {
        1
    }

    fn max_game_length(_: &tabletop_sim::game::Rules<Self>) -> u32 {
        1
    }
}

impl Measured for Pennies {}

impl RunningScore for Pennies {}

impl tabletop_sim::games::log::Logged for Pennies {}

#[test]
fn regret_matching_approaches_the_mixed_equilibrium() {
    let state = Pennies { moves: None };
    for seat in 0..2 {
        for seed in 0..3 {
            // Regret matching converges in its uniform average (Hart & Mas-Colell 2000).
            let p = sm_mcts::Params::from_settings(
                &["iters=20000", "gamma=0.1", "average=uniform"],
                "test",
            )
            .unwrap();
            let mut agent = SmMctsAgent::<Pennies>::new(p);
            let strategy = agent.average_strategy(&View::new(&state, seat), &mut test_rng(seed));
            assert_eq!(strategy.len(), 2);
            let heads = strategy[0].1;
            assert!(
                (heads - 1.0 / 3.0).abs() < 0.07,
                "seat {seat}, seed {seed}: P(heads) = {heads}, equilibrium 1/3"
            );
        }
    }
}

#[test]
fn cfr_samples_its_move_from_the_average_strategy() {
    let state = Pennies { moves: None };
    let mut agent = build::<Pennies>("cfr:iters=2000,final=sample").unwrap();
    let mut heads = 0;
    for seed in 0..300 {
        if agent.act(&View::new(&state, 0), &mut test_rng(seed)) == 0 {
            heads += 1;
        }
    }
    // Sampling from ~(1/3, 2/3): a pure final rule would give 0 or 300.
    assert!((60..=140).contains(&heads), "heads {heads} of 300");
    let mut max = build::<Pennies>("cfr:iters=2000,final=max").unwrap();
    assert_eq!(max.act(&View::new(&state, 0), &mut test_rng(1)), 1);
    // final=max is the default: the bare spec plays the same pure move.
    let mut default = build::<Pennies>("cfr:iters=2000").unwrap();
    assert_eq!(default.act(&View::new(&state, 0), &mut test_rng(1)), 1);
}

#[test]
fn decoupled_uct_plays_simultaneous_nodes() {
    let state = Pennies { moves: None };
    for spec in ["mcts:iters=500", "ismcts:iters=500"] {
        let mut agent = build::<Pennies>(spec).unwrap();
        for seat in 0..2 {
            let a = agent.act(&View::new(&state, seat), &mut test_rng(2));
            assert!(a < 2);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Specs and presets.

#[test]
fn canonical_specs_list_every_parameter() {
    assert_eq!(
        canonicalize("mcts").unwrap(),
        "mcts:iters=2000,time_ms=0,c=0.7,rollout=random,epsilon=0.1,depth=0,rounds=0,worlds=1,final=visits,sm=ucb-mix,gamma=0.1,chance=open,root=uct,bias=0,reuse=false"
    );
    assert_eq!(
        canonicalize("ismcts:final=value, iters=10").unwrap(),
        "ismcts:iters=10,time_ms=0,c=0.7,rollout=random,epsilon=0.1,depth=0,rounds=0,final=value,sm=ucb-mix,gamma=0.1,chance=open,root=uct,bias=0,reuse=false"
    );
    assert_eq!(
        canonicalize("cfr:gamma=0.2,final=max").unwrap(),
        "cfr:iters=2000,time_ms=0,gamma=0.2,rollout=random,epsilon=0.1,depth=0,rounds=0,final=max,worlds=1,average=linear"
    );
    assert_eq!(
        canonicalize("cfr:gamma=0.2,final=max,average=uniform").unwrap(),
        "cfr:iters=2000,time_ms=0,gamma=0.2,rollout=random,epsilon=0.1,depth=0,rounds=0,final=max,worlds=1"
    );
    // Parameters added after results were committed are written only when they differ
    // from their default, so a committed spec canonicalizes to its own text again.
    assert_eq!(
        canonicalize("mcts:weights=greedy,pool=8").unwrap(),
        "mcts:iters=2000,time_ms=0,c=0.7,rollout=random,epsilon=0.1,depth=0,rounds=0,worlds=1,final=visits,sm=ucb-mix,gamma=0.1,chance=open,root=uct,bias=0,reuse=false,weights=greedy,pool=8"
    );
    assert!(
        canonicalize("cfr:weights=greedy").is_err(),
        "cfr has no weights"
    );
    assert_eq!(
        canonicalize("cfr:final=sample,average=linear,c=0.7").unwrap(),
        "cfr:iters=2000,time_ms=0,gamma=0.1,rollout=random,epsilon=0.1,depth=0,rounds=0,final=sample,worlds=1,average=linear"
    );
    for spec in [
        "mcts:c=1.5,worlds=2",
        "ismcts:rollout=greedy",
        "cfr:depth=0",
        "cfr:average=uniform,regret=plus",
        "cfr:final=sample",
    ] {
        let canon = canonicalize(spec).unwrap();
        assert_eq!(
            canonicalize(&canon).unwrap(),
            canon,
            "canonical form is a fixed point"
        );
        assert_eq!(build::<Nim>(spec).unwrap().spec(), canon);
    }
}

#[test]
fn unknown_keys_and_bad_values_list_the_valid_choices() {
    let e = canonicalize("mcts:itres=10").unwrap_err().to_string();
    assert!(
        e.contains("itres") && e.contains("iters (default 2000)"),
        "{e}"
    );
    assert!(e.contains("final (default visits)"), "{e}");
    let e = canonicalize("mcts:rollout=smart").unwrap_err().to_string();
    assert!(e.contains("smart") && e.contains("random|greedy"), "{e}");
    let e = canonicalize("cfr:final=visits").unwrap_err().to_string();
    assert!(e.contains("sample|max"), "{e}");
    let e = canonicalize("ismcts:worlds=2").unwrap_err().to_string();
    assert!(
        e.contains("worlds") && e.contains("valid parameters"),
        "{e}"
    );
    for (spec, word) in [
        ("mcts:iters=0", "iters"),
        ("mcts:worlds=0", "worlds"),
        ("mcts:c=-1", "c must"),
        ("ismcts:epsilon=2", "epsilon"),
        ("cfr:gamma=0", "gamma"),
    ] {
        let e = canonicalize(spec).unwrap_err().to_string();
        assert!(e.contains(word), "{spec}: {e}");
        assert!(build::<Nim>(spec).is_err(), "{spec}");
    }
    // The parameter sets validate on their own too, for callers that skip the registry.
    assert!(mcts::Params::from_settings(&["worlds=0"], "agent mcts").is_err());
    assert!(ismcts::Params::from_settings(&["iters=0"], "agent ismcts").is_err());
    assert!(sm_mcts::Params::from_settings(&["gamma=1.5"], "agent cfr").is_err());
}

#[test]
fn shipped_presets_resolve_to_their_kinds_canonical_spec() {
    let shipped = presets::shipped();
    assert!(shipped.len() >= 7);
    for kind in ["mcts", "ismcts", "cfr"] {
        for strength in ["fast", "strong"] {
            let name = format!("{kind}-{strength}");
            let p = shipped.iter().find(|p| p.name == name).expect(&name);
            assert_eq!(p.kind, kind);
            assert!(!p.description.is_empty());
            let canon = canonicalize(&name).unwrap();
            assert!(canon.starts_with(&format!("{kind}:")), "{canon}");
            assert_eq!(canon, canonicalize(&p.spec()).unwrap());
            assert_eq!(build::<Nim>(&name).unwrap().spec(), canon);
        }
    }
    assert!(canonicalize("mcts-strong").unwrap().contains("iters=20000"));
    // Settings after a preset override it.
    let c = canonicalize("mcts-pimc:iters=7").unwrap();
    assert!(c.contains("iters=7") && c.contains("worlds=8"), "{c}");
    assert!(canonicalize("cfr-fast").unwrap().contains("final=max"));
}

#[test]
fn preset_errors_name_the_preset_and_the_valid_choices() {
    let e = canonicalize("mcts-strongest").unwrap_err().to_string();
    assert!(e.contains("mcts-strongest"), "{e}");
    for valid in [
        "random",
        "mcts",
        "ismcts",
        "cfr",
        "mcts-strong",
        "cfr-fast",
        ".toml",
    ] {
        assert!(e.contains(valid), "missing {valid}: {e}");
    }
    let e = canonicalize("mcts-fast:bogus=1").unwrap_err();
    assert!(matches!(e, AgentError::Preset { .. }), "{e:?}");
    assert!(e.to_string().contains("mcts-fast") && e.to_string().contains("bogus"));

    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("mine.toml");
    std::fs::write(&good, "kind = \"ismcts\"\n[params]\niters = 123\nc = 1.5\n").unwrap();
    let good = good.to_str().unwrap().to_string();
    assert_eq!(
        canonicalize(&good).unwrap(),
        canonicalize("ismcts:iters=123,c=1.5").unwrap()
    );

    let cases = [
        ("badkind.toml", "kind = \"alphazero\"\n", "alphazero"),
        (
            "badkey.toml",
            "kind = \"mcts\"\n[params]\nspeed = 3\n",
            "speed",
        ),
        (
            "badvalue.toml",
            "kind = \"cfr\"\n[params]\nfinal = \"visits\"\n",
            "sample|max",
        ),
        ("badfield.toml", "kind = \"mcts\"\nitres = 3\n", "itres"),
        ("badtoml.toml", "kind = \n", "badtoml"),
        (
            "array.toml",
            "kind = \"mcts\"\n[params]\niters = [1]\n",
            "iters",
        ),
    ];
    for (file, text, word) in cases {
        let path = dir.path().join(file);
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        let e = canonicalize(path).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, AgentError::Preset { .. }), "{file}: {e:?}");
        assert!(msg.contains(file) && msg.contains(word), "{file}: {msg}");
    }
    let e = canonicalize("no/such/file.toml").unwrap_err().to_string();
    assert!(
        e.contains("no/such/file.toml") && e.contains("cannot read"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------
// Daxu: the agents play whole games legally, and a warm agent does not allocate.

fn play_daxu(specs: [&str; 2], seed: u64) -> tabletop_sim::games::daxu::State {
    use tabletop_sim::games::daxu::{Params, State};
    let mut agents = [
        build::<State>(specs[0]).unwrap(),
        build::<State>(specs[1]).unwrap(),
    ];
    let mut chance = test_rng(seed);
    let mut rngs = [test_rng(seed + 100), test_rng(seed + 200)];
    let mut s = tabletop_sim::game::setup::<State>(&Params::default(), 2, &mut chance).unwrap();
    loop {
        match s.turn() {
            Turn::Terminal => return s,
            Turn::Player(p) => {
                let a = agents[p].act(&View::new(&s, p), &mut rngs[p]);
                s.apply(p, a, &mut chance)
                    .expect("agent played an illegal action");
            }
            Turn::Simultaneous(_) => {
                let a = agents[0].act(&View::new(&s, 0), &mut rngs[0]);
                let b = agents[1].act(&View::new(&s, 1), &mut rngs[1]);
                s.apply_joint(&[Some(a), Some(b), None, None], &mut chance)
                    .expect("agent played an illegal action");
            }
        }
    }
}

#[test]
fn search_agents_play_legal_daxu_games() {
    let a = play_daxu(["mcts:iters=200", "ismcts:iters=200,rollout=greedy"], 1);
    let b = play_daxu(
        [
            "cfr:iters=200,worlds=2",
            "mcts:iters=200,depth=4,final=value",
        ],
        2,
    );
    for s in [a, b] {
        assert!(s.turn().is_terminal());
        let r = s.returns();
        assert!((r[0] + r[1] - 1.0).abs() < 1e-9);
    }
    // Same seeds, same game.
    let again = play_daxu(["mcts:iters=200", "ismcts:iters=200,rollout=greedy"], 1);
    assert_eq!(
        again,
        play_daxu(["mcts:iters=200", "ismcts:iters=200,rollout=greedy"], 1)
    );
}

#[test]
fn warm_agents_allocate_nothing_on_daxu() {
    use tabletop_sim::games::daxu::{Params, State};
    let s = tabletop_sim::game::setup::<State>(&Params::default(), 2, &mut test_rng(3)).unwrap();
    let view = View::new(&s, 0);
    for spec in [
        "mcts:iters=1000",
        "ismcts:iters=1000",
        "cfr:iters=1000,depth=6",
        // With Daxu's ismcts defaults (root=sh, chance=closed).
        "ismcts:iters=1000,observers=multi",
    ] {
        let mut agent = build::<State>(spec).unwrap();
        agent.act(&view, &mut test_rng(1));
        let before = allocations();
        agent.act(&view, &mut test_rng(1));
        assert_eq!(
            allocations() - before,
            0,
            "{spec} allocated in a warm decision"
        );
    }
}

#[test]
fn agents_never_read_the_opponents_card_in_kuhn() {
    use tabletop_sim::games::kuhn::State;
    // Seat 0 holds card `own`; the opponent's card (hidden) is one of the other two. With
    // the same RNG an honest agent must decide the same for both.
    for spec in [
        "mcts:iters=400,worlds=4",
        "ismcts:iters=400",
        "cfr:iters=400,worlds=4",
    ] {
        let mut agent = build::<State>(spec).unwrap();
        for own in 0..3u8 {
            let others: Vec<u8> = (0..3).filter(|&c| c != own).collect();
            for seed in 0..8 {
                let choices: Vec<_> = others
                    .iter()
                    .map(|&opp| {
                        let s = State::from_deal([own, opp]);
                        agent.act(&View::new(&s, 0), &mut test_rng(seed))
                    })
                    .collect();
                assert_eq!(choices[0], choices[1], "{spec}, card {own}, seed {seed}");
            }
        }
    }
}

#[test]
fn time_budgets_return_a_legal_move() {
    // Only legality is checked: what a time budget buys depends on the machine.
    let state = nim(9);
    for spec in [
        "mcts:time_ms=2,worlds=2",
        "ismcts:time_ms=2",
        "cfr:time_ms=2,worlds=2",
    ] {
        let a = build::<Nim>(spec)
            .unwrap()
            .act(&View::new(&state, 0), &mut test_rng(1));
        assert!((1..=3).contains(&a), "{spec}");
    }
}

// ---------------------------------------------------------------------------------------
// Three seats, max^n: seat 0 plays Left or Right. After Left, seat 1 picks between "seat 1
// wins" and "seat 0 wins" (it takes the first). After Right, seat 2 picks between "seats 0
// and 2 share" and "seat 1 wins" (it takes the first). With every seat maximising its own
// reward seat 0 gets 0 on the left and 0.5 on the right, so it plays Right; a backup that
// let every seat maximise seat 0's reward would play Left.

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Three {
    stage: u8,
    result: PerSeat<f64>,
}

impl fmt::Display for Three {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stage {}", self.stage)
    }
}

impl GameState for Three {
    type Action = u8;
    type Params = NoParams;
    type RulesData = ();
    type Observation = u64;
    const TYPE: GameType = toy_type("three", "test 3-seat max^n game", (3, 3), 2);
    toy_information!();

    fn build_rules(_: &Self::Params, _: usize) -> Result<(), ParamError> {
        Ok(())
    }

    fn rules(&self) -> RulesRef<Self> {
        default_rules()
    }

    fn new_game<C: Chance + ?Sized>(_rules: RulesRef<Self>, _chance: &mut C) -> Self {
        Three {
            stage: 0,
            result: [0.0; 4],
        }
    }

    fn num_players(&self) -> usize {
        3
    }

    fn turn(&self) -> Turn {
        match self.stage {
            0 => Turn::Player(0),
            1 => Turn::Player(1),
            2 => Turn::Player(2),
            _ => Turn::Terminal,
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<u8>) {
        out.clear();
        if self.turn() == Turn::Player(player) {
            out.extend([0, 1]);
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, _: Seat, a: u8, _: &mut C) {
        (self.stage, self.result) = match (self.stage, a) {
            (0, 0) => (1, self.result),
            (0, _) => (2, self.result),
            (1, 0) => (3, [0.0, 1.0, 0.0, 0.0]),
            (1, _) => (3, [1.0, 0.0, 0.0, 0.0]),
            (2, 0) => (3, [0.5, 0.0, 0.5, 0.0]),
            (_, _) => (3, [0.0, 1.0, 0.0, 0.0]),
        };
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, _: &JointAction<u8>, _: &mut C) {
        unreachable!()
    }

    fn returns(&self) -> PerSeat<f64> {
        self.result
    }

    fn scores(&self) -> PerSeat<i32> {
        self.result.map(|r| (r * 2.0) as i32)
    }

    fn ranks(&self) -> PerSeat<u8> {
        ranks_by_key(&self.scores(), 3)
    }

    fn info_key(&self, _: Seat) -> u64 {
        u64::from(self.stage)
    }

    fn determinize(&self, _: Seat, _: &mut SimRng) -> Self {
        self.clone()
    }

    fn value(&self) -> PerSeat<f64> {
        even_value(self)
    }

    fn observation(&self, seat: Seat) -> u64 {
        self.info_key(seat)
    }

    fn action_id(a: u8) -> usize {
        a as usize
    }

    fn action_from_id(id: usize) -> Option<u8> {
        (id < 2).then_some(id as u8)
    }

    fn ply(&self) -> u32 {
        u32::from(self.stage.min(1)) + u32::from(self.stage == 3)
    }

    fn round(&self) -> u32 {
        self.ply()
    }

    fn end_condition(&self) -> &'static str {
        if self.stage == 3 { "chosen" } else { "" }
    }

    fn max_plies(&self) -> u32 {
        2
    }

    fn max_game_length(_: &tabletop_sim::game::Rules<Self>) -> u32 {
        2
    }
}

impl Measured for Three {}

impl RunningScore for Three {}

impl tabletop_sim::games::log::Logged for Three {}

#[test]
fn multiplayer_backup_is_max_n() {
    let state =
        tabletop_sim::game::setup::<Three>(&NoParams::default(), 3, &mut test_rng(0)).unwrap();
    for spec in [
        "mcts:iters=2000",
        "ismcts:iters=2000",
        "cfr:iters=4000,final=max",
    ] {
        let mut agent = build::<Three>(spec).unwrap();
        for seed in 0..3 {
            let a = agent.act(&View::new(&state, 0), &mut test_rng(seed));
            assert_eq!(a, 1, "{spec}, seed {seed}: seat 0 should play Right");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Rare: one simultaneous move. Seat 1 holds a hidden card; only when it is the rare card
// (probability 1/RARE_ODDS in seat 0's determinizations) may seat 1 play `RARE` besides
// `COMMON`. Seat 1's reward is 0.6 for COMMON and 0.25 for RARE (seat 0 gets the rest);
// seat 0 has a single move (so tests call `search`, which `act` would skip). Counters record how often seat 1's rare move was applied and
// how many determinizations dealt the rare card, so a test can read the selection counts of
// the subset-armed bandit at seat 1's root edges.

const COMMON: u8 = 0;
const RARE: u8 = 1;
const RARE_ODDS: u32 = 64;
const COMMON_REWARD: f64 = 0.6;
const RARE_REWARD: f64 = 0.25;

thread_local! {
    static RARE_PLAYED: Cell<u32> = const { Cell::new(0) };
    static RARE_DEALT: Cell<u32> = const { Cell::new(0) };
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Rare {
    rare_card: bool,
    played: Option<u8>,
}

impl fmt::Display for Rare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rare {:?}", self.played)
    }
}

impl GameState for Rare {
    type Action = u8;
    type Params = NoParams;
    type RulesData = ();
    type Observation = u64;

    const TYPE: GameType = toy_type(
        "rare",
        "test game: a move available in few determinizations",
        (2, 2),
        2,
    );
    toy_information!();

    fn build_rules(_: &Self::Params, _: usize) -> Result<(), ParamError> {
        Ok(())
    }

    fn rules(&self) -> RulesRef<Self> {
        default_rules()
    }

    fn new_game<C: Chance + ?Sized>(_rules: RulesRef<Self>, chance: &mut C) -> Self {
        Rare {
            rare_card: chance.below(RARE_ODDS) == 0,
            played: None,
        }
    }

    fn turn(&self) -> Turn {
        match self.played {
            None => Turn::Simultaneous(SeatSet::all(2)),
            Some(_) => Turn::Terminal,
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<u8>) {
        out.clear();
        if self.played.is_none() {
            out.push(COMMON);
            if player == 1 && self.rare_card {
                out.push(RARE);
            }
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, _: Seat, _: u8, _: &mut C) {
        unreachable!()
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, joint: &JointAction<u8>, _: &mut C) {
        let a = joint[1].unwrap();
        if a == RARE {
            RARE_PLAYED.with(|c| c.set(c.get() + 1));
        }
        self.played = Some(a);
    }

    fn returns(&self) -> PerSeat<f64> {
        let r1 = if self.played == Some(RARE) {
            RARE_REWARD
        } else {
            COMMON_REWARD
        };
        [1.0 - r1, r1, 0.0, 0.0]
    }

    fn scores(&self) -> PerSeat<i32> {
        let r = self.returns();
        [(r[0] * 100.0) as i32, (r[1] * 100.0) as i32, 0, 0]
    }

    fn ranks(&self) -> PerSeat<u8> {
        ranks_by_key(&self.scores(), 2)
    }

    fn info_key(&self, player: Seat) -> u64 {
        let played = self.played.map_or(0, |a| u64::from(a) + 1);
        if player == 1 {
            played << 1 | u64::from(self.rare_card)
        } else {
            played << 1
        }
    }

    fn determinize(&self, observer: Seat, rng: &mut SimRng) -> Self {
        use rand::RngExt;
        let rare_card = if observer == 1 {
            self.rare_card
        } else {
            rng.random_range(0..RARE_ODDS) == 0
        };
        if rare_card {
            RARE_DEALT.with(|c| c.set(c.get() + 1));
        }
        Rare {
            rare_card,
            played: self.played,
        }
    }

    fn value(&self) -> PerSeat<f64> {
        if self.turn().is_terminal() {
            return self.returns();
        }
        [0.5, 0.5, 0.0, 0.0]
    }

    fn observation(&self, seat: Seat) -> u64 {
        self.info_key(seat)
    }

    fn action_id(a: u8) -> usize {
        a as usize
    }

    fn action_from_id(id: usize) -> Option<u8> {
        (id < 2).then_some(id as u8)
    }

    fn ply(&self) -> u32 {
        u32::from(self.played.is_some())
    }

    fn round(&self) -> u32 {
        self.ply()
    }

    fn end_condition(&self) -> &'static str {
        if self.played.is_some() { "played" } else { "" }
    }

    fn max_plies(&self) -> u32 {
        1
    }

    fn max_game_length(_: &tabletop_sim::game::Rules<Self>) -> u32 {
        1
    }
}

impl Measured for Rare {}

impl RunningScore for Rare {}

impl tabletop_sim::games::log::Logged for Rare {}

#[test]
fn ismcts_explores_a_rarely_available_move_by_its_availability_count() {
    // SO-ISMCTS (Cowling, Powley & Whitehouse 2012, §IV-C) scores an action by
    // mean + c * sqrt(ln m_a / n_a), with m_a the visits in which the action was *available*.
    // Seat 1's rare move is worse by D = 0.35 than its common move, so with c = 0.7 it is
    // chosen only while 0.25 + 0.7 sqrt(ln m / n) > 0.6 + (a positive bonus), i.e. while
    // n < (c / D)^2 ln m = 4 ln m: at most 4 ln m + 1 times in all. With the parent's visit
    // count N in place of m (plain UCB1) it would be chosen about 4 ln N times, and
    // ln N - ln m = ln 64 adds ~15 wasted selections at N = 20000 (measured: 21-22
    // selections in ~300 availabilities; 37 with parent counts).
    let c: f64 = 0.7;
    let gap = COMMON_REWARD - RARE_REWARD;
    let k = (c / gap).powi(2);
    let state = Rare {
        rare_card: false,
        played: None,
    };
    // The node is simultaneous: `sm=ucb` selects by UCB1 alone there, the bandit whose
    // bound is tested (the default `ucb-mix` adds about gamma * m / 2 uniform picks).
    for seed in 0..3 {
        let p = ismcts::Params::from_settings(&["iters=20000", "c=0.7", "sm=ucb"], "test").unwrap();
        RARE_PLAYED.with(|x| x.set(0));
        RARE_DEALT.with(|x| x.set(0));
        IsmctsAgent::<Rare>::new(p).search(&View::new(&state, 0), &mut test_rng(seed));
        let (n, m) = (RARE_PLAYED.with(Cell::get), RARE_DEALT.with(Cell::get));
        let ln_m = f64::from(m).ln();
        let upper = k * ln_m + 1.0;
        assert!(
            (m as f64 - 20000.0 / 64.0).abs() < 100.0,
            "seed {seed}: {m} rare deals"
        );
        assert!(
            f64::from(n) <= upper,
            "seed {seed}: the rare move was chosen {n} times in {m} availabilities; \
             availability counts allow at most {upper:.1} (parent counts: ~{:.1})",
            k * 20000f64.ln()
        );
        assert!(
            f64::from(n) >= 0.75 * k * ln_m,
            "seed {seed}: the rare move was chosen only {n} times in {m} availabilities"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Detour: seat 0 plays Safe (the game ends, seat 0 gets SAFE_REWARD) or Risky. After Risky,
// chance (drawn inside apply, so it differs from one iteration to the next in the same
// determinization) makes the world good with probability 1/4: seat 0 then chooses between
// Win (reward 1) and Lose (reward 0). Otherwise only Win is legal and it is worth 0. Risky
// is worth 1/4 with the right play, more than Safe; the open-loop node after Risky sees
// Lose legal in only a quarter of its visits. Seat 1 never moves and gets the rest.

const SAFE: u8 = 0;
const RISKY: u8 = 1;
const WIN: u8 = 0;
const LOSE: u8 = 1;
const SAFE_REWARD: f64 = 0.16;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
enum Detour {
    Start,
    After { good: bool },
    Over(f64),
}

impl fmt::Display for Detour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl GameState for Detour {
    type Action = u8;
    type Params = NoParams;
    type RulesData = ();
    type Observation = u64;

    const TYPE: GameType = toy_type(
        "detour",
        "test game: a move legal after some chance outcomes only",
        (2, 2),
        2,
    );
    toy_information!();

    fn build_rules(_: &Self::Params, _: usize) -> Result<(), ParamError> {
        Ok(())
    }

    fn rules(&self) -> RulesRef<Self> {
        default_rules()
    }

    fn new_game<C: Chance + ?Sized>(_rules: RulesRef<Self>, _chance: &mut C) -> Self {
        Detour::Start
    }

    fn turn(&self) -> Turn {
        match self {
            Detour::Over(_) => Turn::Terminal,
            _ => Turn::Player(0),
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<u8>) {
        out.clear();
        match self {
            _ if player != 0 => {}
            Detour::Start => out.extend([SAFE, RISKY]),
            Detour::After { good: true } => out.extend([WIN, LOSE]),
            Detour::After { good: false } => out.push(WIN),
            Detour::Over(_) => {}
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, _: Seat, a: u8, chance: &mut C) {
        *self = match (&*self, a) {
            (Detour::Start, SAFE) => Detour::Over(SAFE_REWARD),
            (Detour::Start, _) => Detour::After {
                good: chance.below(4) == 0,
            },
            (Detour::After { good: true }, WIN) => Detour::Over(1.0),
            (Detour::After { .. }, _) => Detour::Over(0.0),
            (Detour::Over(_), _) => unreachable!(),
        };
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, _: &JointAction<u8>, _: &mut C) {
        unreachable!()
    }

    fn returns(&self) -> PerSeat<f64> {
        let Detour::Over(r) = *self else {
            return [0.0; 4];
        };
        [r, 1.0 - r, 0.0, 0.0]
    }

    fn scores(&self) -> PerSeat<i32> {
        let r = self.returns();
        [(r[0] * 100.0) as i32, (r[1] * 100.0) as i32, 0, 0]
    }

    fn ranks(&self) -> PerSeat<u8> {
        ranks_by_key(&self.scores(), 2)
    }

    fn info_key(&self, _: Seat) -> u64 {
        match self {
            Detour::Start => 0,
            Detour::After { good } => 1 + u64::from(*good),
            Detour::Over(r) => 3 + (r * 100.0) as u64,
        }
    }

    fn determinize(&self, _: Seat, _: &mut SimRng) -> Self {
        self.clone()
    }

    fn value(&self) -> PerSeat<f64> {
        if self.turn().is_terminal() {
            return self.returns();
        }
        [0.5, 0.5, 0.0, 0.0]
    }

    fn observation(&self, seat: Seat) -> u64 {
        self.info_key(seat)
    }

    fn action_id(a: u8) -> usize {
        a as usize
    }

    fn action_from_id(id: usize) -> Option<u8> {
        (id < 2).then_some(id as u8)
    }

    fn ply(&self) -> u32 {
        match self {
            Detour::Start => 0,
            Detour::After { .. } => 1,
            Detour::Over(_) => 2,
        }
    }

    fn round(&self) -> u32 {
        self.ply()
    }

    fn end_condition(&self) -> &'static str {
        if matches!(self, Detour::Over(_)) {
            "over"
        } else {
            ""
        }
    }

    fn max_plies(&self) -> u32 {
        2
    }

    fn max_game_length(_: &tabletop_sim::game::Rules<Self>) -> u32 {
        2
    }
}

impl Measured for Detour {}

impl RunningScore for Detour {}

impl tabletop_sim::games::log::Logged for Detour {}

#[test]
fn regret_matching_updates_only_the_actions_legal_in_the_iteration() {
    // SM-MCTS-RM (Lanctot, Lisy & Winands 2013) updates the regrets of the actions the seat
    // could choose in this iteration. After Risky, Lose is legal in a quarter of the
    // visits; in the others seat 0 loses whatever it does (u = -1), and an update of the
    // absent Lose by 0 - u = +1 would pile up regret for it, make it the favourite move in
    // the good world and drag Risky's value (1/4 with the right play) below Safe's 0.16
    // (measured: P(Risky) > 0.99 over seeds 0-2; 0.03 with every edge updated).
    let state = Detour::Start;
    for seed in 0..3 {
        let p = sm_mcts::Params::from_settings(&["iters=20000", "final=max"], "test").unwrap();
        let strategy = SmMctsAgent::<Detour>::new(p)
            .average_strategy(&View::new(&state, 0), &mut test_rng(seed));
        let risky = strategy[RISKY as usize].1;
        assert!(
            risky > 0.7,
            "seed {seed}: Risky (worth 0.25) should beat Safe (0.16): {strategy:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Coin: seat 0 plays COIN_SAFE (then wins with probability 0.7) or COIN_GAMBLE (then a
// fair coin is flipped in public and seat 0 calls it: a right call wins, a wrong one
// loses). Calling the coin one has seen always wins, so COIN_GAMBLE is worth 1 and
// COIN_SAFE 0.7. An open-loop tree mixes both coin outcomes in the node after COIN_GAMBLE,
// where each call is then worth 0.5, so it prefers COIN_SAFE; a closed-loop tree gives
// each outcome its own node and finds COIN_GAMBLE.

const COIN_SAFE: u8 = 0;
const COIN_GAMBLE: u8 = 1;
const COIN_HEADS: u8 = 2;
const COIN_TAILS: u8 = 3;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Coin {
    /// 0: seat 0 chooses; 1: seat 0 calls the coin; 2: over.
    stage: u8,
    /// The coin after COIN_GAMBLE (COIN_HEADS or COIN_TAILS).
    coin: u8,
    /// Seat 0's reward at the end.
    won: bool,
}

impl fmt::Display for Coin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stage {} coin {}", self.stage, self.coin)
    }
}

impl GameState for Coin {
    type Action = u8;
    type Params = NoParams;
    type RulesData = ();
    type Observation = u64;
    const TYPE: GameType = toy_type("coin", "test game: call a public coin", (2, 2), 4);
    toy_information!();

    fn build_rules(_: &Self::Params, _: usize) -> Result<(), ParamError> {
        Ok(())
    }

    fn rules(&self) -> RulesRef<Self> {
        default_rules()
    }

    fn new_game<C: Chance + ?Sized>(_rules: RulesRef<Self>, _chance: &mut C) -> Self {
        Coin {
            stage: 0,
            coin: 0,
            won: false,
        }
    }

    fn turn(&self) -> Turn {
        if self.stage < 2 {
            Turn::Player(0)
        } else {
            Turn::Terminal
        }
    }

    fn legal_actions(&self, player: Seat, out: &mut Vec<u8>) {
        out.clear();
        match (player, self.stage) {
            (0, 0) => out.extend([COIN_SAFE, COIN_GAMBLE]),
            (0, 1) => out.extend([COIN_HEADS, COIN_TAILS]),
            _ => {}
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, _: Seat, a: u8, chance: &mut C) {
        match a {
            COIN_SAFE => {
                self.won = chance.below(10) < 7;
                self.stage = 2;
            }
            COIN_GAMBLE => {
                self.coin = COIN_HEADS + chance.below(2) as u8;
                self.stage = 1;
            }
            call => {
                self.won = call == self.coin;
                self.stage = 2;
            }
        }
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, _: &JointAction<u8>, _: &mut C) {
        unreachable!()
    }

    fn returns(&self) -> PerSeat<f64> {
        let r = f64::from(u8::from(self.won));
        [r, 1.0 - r, 0.0, 0.0]
    }

    fn scores(&self) -> PerSeat<i32> {
        let r = i32::from(self.won);
        [r, 1 - r, 0, 0]
    }

    fn ranks(&self) -> PerSeat<u8> {
        ranks_by_key(&self.scores(), 2)
    }

    fn info_key(&self, _: Seat) -> u64 {
        u64::from(self.stage) | u64::from(self.coin) << 8 | u64::from(self.won) << 16
    }

    fn determinize(&self, _: Seat, _: &mut SimRng) -> Self {
        self.clone()
    }

    fn value(&self) -> PerSeat<f64> {
        even_value(self)
    }

    fn observation(&self, seat: Seat) -> u64 {
        self.info_key(seat)
    }

    fn action_id(a: u8) -> usize {
        a as usize
    }

    fn action_from_id(id: usize) -> Option<u8> {
        (id < 4).then_some(id as u8)
    }

    fn ply(&self) -> u32 {
        u32::from(self.stage)
    }

    fn round(&self) -> u32 {
        u32::from(self.stage)
    }

    fn end_condition(&self) -> &'static str {
        if self.stage == 2 { "called" } else { "" }
    }

    fn max_plies(&self) -> u32 {
        2
    }

    fn max_game_length(_: &tabletop_sim::game::Rules<Self>) -> u32 {
        2
    }
}

impl Measured for Coin {}

impl RunningScore for Coin {}

impl tabletop_sim::games::log::Logged for Coin {}

/// Closed-loop chance (`chance=closed`) finds the gamble worth 1; the open-loop tree
/// (`chance=open`, the default) values it near 0.5 and plays safe. Fails if the tree stops
/// keying children by the observed outcome.
#[test]
fn closed_loop_chance_calls_the_coin_it_saw() {
    let state =
        tabletop_sim::game::setup::<Coin>(&NoParams::default(), 2, &mut test_rng(0)).unwrap();
    let view = View::new(&state, 0);
    for (spec, want) in [
        ("mcts:iters=2000,chance=closed", COIN_GAMBLE),
        ("ismcts:iters=2000,chance=closed", COIN_GAMBLE),
        ("mcts:iters=2000,chance=closed,root=sh", COIN_GAMBLE),
        ("mcts:iters=2000,chance=open", COIN_SAFE),
        ("ismcts:iters=2000", COIN_SAFE),
    ] {
        let mut agent = build::<Coin>(spec).unwrap();
        for seed in 0..4 {
            let a = agent.act(&view, &mut test_rng(seed));
            assert_eq!(a, want, "{spec}, seed {seed}");
        }
    }
    let p = mcts::Params::from_settings(&["iters=4000", "chance=closed"], "test").unwrap();
    let stats = MctsAgent::<Coin>::new(p).search(&view, &mut test_rng(1));
    let (a, _, mean) = stats[1];
    assert_eq!(a, COIN_GAMBLE);
    assert!(mean > 0.9, "the gamble is worth 1 closed-loop: {stats:?}");
}

/// Sequential Halving at the root under a time budget runs anytime (the plan restarts with
/// twice the budget) and returns a legal move.
#[test]
fn halving_root_runs_under_a_time_budget() {
    let state = nim(7);
    let view = View::new(&state, 0);
    for spec in [
        "mcts:time_ms=5,iters=50,root=sh",
        "ismcts:time_ms=5,iters=50,root=sh,chance=closed",
    ] {
        let mut agent = build::<Nim>(spec).unwrap();
        let a = agent.act(&view, &mut test_rng(2));
        assert!((1..=3).contains(&a), "{spec}: {a}");
    }
}

// ---------------------------------------------------------------------------------------
// Hidden guess: seat 0 hides 0 or 1 (seat 1 does not see which; the log's default calls
// every move private), then seat 1 guesses; seat 1 wins on a match. The value is 1/2 for
// either seat: whatever seat 0 hides, a guess that cannot see it matches half the time.

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct HiddenGuess {
    hidden: Option<u8>,
    guess: Option<u8>,
}

impl fmt::Display for HiddenGuess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} {:?}", self.hidden, self.guess)
    }
}

impl GameState for HiddenGuess {
    type Action = u8;
    type Params = NoParams;
    type RulesData = ();
    type Observation = u64;
    const TYPE: GameType = toy_type("hidden-guess", "test hidden move then a guess", (2, 2), 2);
    toy_information!();

    fn build_rules(_: &Self::Params, _: usize) -> Result<(), ParamError> {
        Ok(())
    }

    fn rules(&self) -> RulesRef<Self> {
        default_rules()
    }

    fn new_game<C: Chance + ?Sized>(_rules: RulesRef<Self>, _chance: &mut C) -> Self {
        HiddenGuess {
            hidden: None,
            guess: None,
        }
    }

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match (self.hidden, self.guess) {
            (None, _) => Turn::Player(0),
            (Some(_), None) => Turn::Player(1),
            _ => Turn::Terminal,
        }
    }

    fn legal_actions(&self, _: Seat, out: &mut Vec<u8>) {
        out.clear();
        if !self.turn().is_terminal() {
            out.extend([0, 1]);
        }
    }

    fn apply_unchecked<C: Chance + ?Sized>(&mut self, _: Seat, a: u8, _: &mut C) {
        if self.hidden.is_none() {
            self.hidden = Some(a);
        } else {
            self.guess = Some(a);
        }
    }

    fn apply_joint_unchecked<C: Chance + ?Sized>(&mut self, _: &JointAction<u8>, _: &mut C) {
        unreachable!("turn-based")
    }

    fn returns(&self) -> PerSeat<f64> {
        let win = f64::from(u8::from(self.hidden != self.guess));
        [win, 1.0 - win, 0.0, 0.0]
    }

    fn scores(&self) -> PerSeat<i32> {
        let r = self.returns();
        [r[0] as i32, r[1] as i32, 0, 0]
    }

    fn ranks(&self) -> PerSeat<u8> {
        ranks_by_key(&self.scores(), 2)
    }

    /// Seat 0 knows its hidden move; seat 1 only that it was made.
    fn info_key(&self, seat: Seat) -> u64 {
        let code = |x: Option<u8>| x.map_or(0, |v| u64::from(v) + 1);
        let hidden = if seat == 0 {
            code(self.hidden)
        } else {
            u64::from(self.hidden.is_some())
        };
        hidden * 3 + code(self.guess)
    }

    fn determinize(&self, seat: Seat, rng: &mut SimRng) -> Self {
        let mut s = self.clone();
        if seat == 1 && s.hidden.is_some() {
            use rand::RngExt;
            s.hidden = Some(rng.random_range(0..2));
        }
        s
    }

    fn value(&self) -> PerSeat<f64> {
        even_value(self)
    }

    fn observation(&self, seat: Seat) -> u64 {
        self.info_key(seat)
    }

    fn action_id(a: u8) -> usize {
        a as usize
    }

    fn action_from_id(id: usize) -> Option<u8> {
        (id < 2).then_some(id as u8)
    }

    fn ply(&self) -> u32 {
        u32::from(self.hidden.is_some()) + u32::from(self.guess.is_some())
    }

    fn round(&self) -> u32 {
        self.ply()
    }

    fn end_condition(&self) -> &'static str {
        if self.guess.is_some() { "guessed" } else { "" }
    }

    fn max_plies(&self) -> u32 {
        2
    }

    fn max_game_length(_: &tabletop_sim::game::Rules<Self>) -> u32 {
        2
    }
}

impl Measured for HiddenGuess {}

impl RunningScore for HiddenGuess {}

impl tabletop_sim::games::log::Logged for HiddenGuess {}

/// MO-ISMCTS known answer (Cowling, Powley & Whitehouse 2012, §V-C): at the hider's root,
/// single-observer ISMCTS lets the guesser's nodes split by the hidden move, so the guesser
/// always matches in the tree and every hiding move looks lost; with `observers=multi` the
/// guesser's tree has one node for both hidden moves and each hiding move is worth 1/2.
#[test]
fn multiple_observers_keep_a_hidden_move_hidden() {
    let state = HiddenGuess {
        hidden: None,
        guess: None,
    };
    for seed in 0..3 {
        let mut so = IsmctsAgent::<HiddenGuess>::new(
            ismcts::Params::from_settings(&["iters=4000"], "test").unwrap(),
        );
        let mut mo = IsmctsAgent::<HiddenGuess>::new(
            ismcts::Params::from_settings(&["iters=4000", "observers=multi"], "test").unwrap(),
        );
        let view = View::new(&state, 0);
        for (action, visits, mean) in so.search(&view, &mut test_rng(seed)) {
            assert!(
                mean < 0.3,
                "SO leaks: hide {action} worth {mean} ({visits} visits)"
            );
        }
        let table = mo.search(&view, &mut test_rng(seed));
        assert_eq!(table.iter().map(|r| r.1).sum::<f64>(), 4000.0);
        for (action, visits, mean) in table {
            assert!(
                (0.4..=0.6).contains(&mean),
                "MO: hide {action} worth {mean} ({visits} visits), expected 1/2"
            );
        }
        // The guesser, searching its own decision, sees no difference: 1/2 either way.
        let after = HiddenGuess {
            hidden: Some(1),
            guess: None,
        };
        let table = mo.search(&View::new(&after, 1), &mut test_rng(seed));
        for (action, _, mean) in table {
            assert!((0.4..=0.6).contains(&mean), "guess {action}: {mean}");
        }
    }
}

#[test]
fn multiple_observers_refuse_subtree_reuse() {
    let e = canonicalize("ismcts:observers=multi,reuse=true")
        .unwrap_err()
        .to_string();
    assert!(e.contains("observers=multi") && e.contains("reuse"), "{e}");
    assert!(
        canonicalize("ismcts:observers=multi")
            .unwrap()
            .ends_with(",observers=multi")
    );
    assert!(!canonicalize("ismcts").unwrap().contains("observers"));
}

/// MO-ISMCTS on Dunhuang (two and four players, the first decision: a hidden setup keep,
/// DUN-2.3, and the moves after it): the per-seat trees live in reused arenas, so a warm
/// decision allocates nothing.
#[test]
fn warm_multiple_observer_search_allocates_nothing_on_dunhuang() {
    use tabletop_sim::games::dunhuang::{Params, State};
    for players in [2, 4] {
        let s = tabletop_sim::game::setup::<State>(&Params::default(), players, &mut test_rng(3))
            .unwrap();
        let Turn::Player(seat) = s.turn() else {
            panic!("Dunhuang starts with a turn-based decision")
        };
        let view = View::new(&s, seat);
        let mut agent = build::<State>("ismcts:iters=1000,observers=multi").unwrap();
        agent.act(&view, &mut test_rng(1));
        let before = allocations();
        agent.act(&view, &mut test_rng(1));
        assert_eq!(
            allocations() - before,
            0,
            "{players} players: allocated in a warm decision"
        );
    }
}
