//! `VecEnv`: many games stepped together in Rust, writing into preallocated numpy buffers,
//! with the GIL released for the whole batch and the environments spread over threads.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use tabletop_sim::rng::rng_for;
use tabletop_sim::{SimRng, Turn};

use crate::{DynState, Game, value_error};

/// One environment: its game, the choices gathered so far at a simultaneous node, the stream
/// of its built-in opponents and how many games it has started.
struct Env {
    state: Box<dyn DynState>,
    pending: Vec<Option<usize>>,
    opponents: SimRng,
    /// The stream of `random_actions` (stream 2 of the environment's game 0).
    sampler: SimRng,
    /// The built-in agent of the seats other than the learner (`None`: uniformly random);
    /// behind a mutex only so the environment is `Sync` (it is reached through `&mut`).
    opponent: Option<std::sync::Mutex<Box<dyn crate::DynAgent>>>,
    games: u64,
}

/// The seed stream of game `k` of environment `i` (chance: stream 0; opponents: stream 1 of
/// game 0): [`rng_for`] with the game index `i << 32 | k`, so every environment replays
/// exactly whatever the thread count or batch size.
fn game_index(env: usize, k: u64) -> u64 {
    ((env as u64) << 32) | k
}

impl Env {
    /// The seat whose decision is asked next: the acting seat, or at a simultaneous node the
    /// lowest acting seat without a gathered choice. `None` when terminal.
    fn next_seat(&self) -> Option<usize> {
        match self.state.turn() {
            Turn::Player(p) => Some(p),
            Turn::Simultaneous(s) => s.iter().find(|&p| self.pending[p].is_none()),
            Turn::Terminal => None,
        }
    }

    /// Applies `seat`'s (legal) choice `id`: at once at a turn-based node, or once every
    /// acting seat has chosen at a simultaneous one.
    fn decide(&mut self, seat: usize, id: usize) {
        match self.state.turn() {
            Turn::Player(_) => {
                // Legal by the caller's mask check: an error here is a bug.
                self.state
                    .apply(seat, id)
                    .expect("VecEnv applies only actions its mask allowed");
            }
            Turn::Simultaneous(s) => {
                self.pending[seat] = Some(id);
                if s.iter().all(|p| self.pending[p].is_some()) {
                    let fresh = vec![None; self.pending.len()];
                    let joint = std::mem::replace(&mut self.pending, fresh);
                    self.state
                        .apply_joint(&joint)
                        .expect("VecEnv applies only actions its masks allowed");
                }
            }
            Turn::Terminal => {}
        }
    }

    /// Lets the built-in random opponents act until `learner` must decide or the game ends.
    fn play_opponents(&mut self, learner: Option<usize>) {
        let Some(learner) = learner else { return };
        while let Some(seat) = self.next_seat() {
            if seat == learner {
                return;
            }
            let id = match &mut self.opponent {
                None => self.state.random_id(seat, &mut self.opponents),
                Some(agent) => agent
                    .get_mut()
                    .unwrap_or_else(|p| p.into_inner())
                    .step(self.state.as_ref(), seat, &mut self.opponents)
                    .expect("the opponent is asked only at its own decisions"),
            };
            self.decide(seat, id);
        }
    }
}

/// The rows of one thread's share of the batch.
struct Rows<'a> {
    envs: &'a mut [Env],
    actions: &'a [i64],
    obs: &'a mut [f32],
    masks: &'a mut [i8],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    seats: &'a mut [i64],
}

/// What every row needs besides its own data.
#[derive(Clone, Copy)]
struct Shared<'a> {
    game: &'a dyn crate::DynGame,
    seed: u64,
    first: usize,
    obs_len: usize,
    n_actions: usize,
    players: usize,
    learner: Option<usize>,
}

fn write_row(env: &mut Env, obs: &mut [f32], mask: &mut [i8], seat: &mut i64) {
    let mut m = vec![0u8; mask.len()];
    match env.next_seat() {
        Some(s) => {
            env.state.obs_tensor(s, obs);
            env.state.mask(s, &mut m);
            *seat = s as i64;
        }
        None => {
            obs.fill(0.0);
            *seat = -1;
        }
    }
    for (d, v) in mask.iter_mut().zip(m) {
        *d = v as i8;
    }
}

fn new_env(sh: Shared<'_>, i: usize, k: u64) -> Env {
    let seed_index = game_index(i, k);
    let state = sh.game.new_state(rng_for(sh.seed, seed_index, 0), sh.seed);
    Env {
        pending: vec![None; state.players()],
        state,
        opponents: rng_for(sh.seed, game_index(i, 0), 1),
        sampler: rng_for(sh.seed, game_index(i, 0), 2),
        opponent: None,
        games: k,
    }
}

/// Steps (or, with `actions` empty, only observes) every row of `r`.
fn step_rows(sh: Shared<'_>, r: Rows<'_>, reset: bool) {
    for (j, env) in r.envs.iter_mut().enumerate() {
        let obs = &mut r.obs[j * sh.obs_len..(j + 1) * sh.obs_len];
        let mask = &mut r.masks[j * sh.n_actions..(j + 1) * sh.n_actions];
        let rewards = &mut r.rewards[j * sh.players..(j + 1) * sh.players];
        rewards.fill(0.0);
        r.terminated[j] = false;
        if reset {
            env.play_opponents(sh.learner);
        } else if let Some(seat) = env.next_seat() {
            env.decide(seat, r.actions[j] as usize);
            env.play_opponents(sh.learner);
            if env.state.turn().is_terminal() {
                for (d, v) in rewards.iter_mut().zip(env.state.returns()) {
                    *d = v as f32;
                }
                r.terminated[j] = true;
                // Auto-reset: the environment's next game.
                let k = env.games + 1;
                let (opponents, sampler) = (env.opponents.clone(), env.sampler.clone());
                let opponent = env.opponent.take();
                *env = new_env(sh, sh.first + j, k);
                env.opponents = opponents;
                env.sampler = sampler;
                env.opponent = opponent;
                env.play_opponents(sh.learner);
            }
        }
        write_row(env, obs, mask, &mut r.seats[j]);
    }
}

/// `n_envs` games of one game stepped together in Rust (a vectorised environment).
///
/// `VecEnv(game, n_envs, seed=0, threads=1, learner=None, opponents="random")`. With
/// `learner=None` (self-play) every decision of every seat is returned; with `learner=s` the
/// built-in agent `opponents` (`random`, `greedy`, `mcts:iters=100`, ...: one per
/// environment, playing every other seat) acts inside Rust, and only seat `s`'s decisions
/// are returned. The opponents draw from stream 1 of the environment's game 0.
/// At a simultaneous node the acting seats decide one after another (their choices are
/// applied together once all have chosen; none sees another's choice).
///
/// Buffers (numpy, preallocated, rewritten in place by `reset()` and `step()`):
/// `observations` float32 `[n_envs, L]` (the deciding seat's tensor), `action_masks` int8
/// `[n_envs, A]`, `rewards` float32 `[n_envs, players]` (the returns of a game that ended at
/// this step, else 0), `terminated` bool `[n_envs]`, `seats` int64 `[n_envs]` (the deciding
/// seat). A game that ends is replaced at once by the environment's next game (auto-reset).
/// Game `k` of environment `i` draws its chance from `rng_for(seed, i << 32 | k, 0)`, so a
/// batch replays exactly at any thread count.
#[pyclass(module = "tabletop_sim")]
pub(crate) struct VecEnv {
    game: Py<Game>,
    envs: Vec<Env>,
    opponents: String,
    seed: u64,
    threads: usize,
    learner: Option<usize>,
    obs: Py<PyArray2<f32>>,
    masks: Py<PyArray2<i8>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    seats: Py<PyArray1<i64>>,
}

impl VecEnv {
    fn run(&mut self, py: Python<'_>, actions: Option<&[i64]>) -> PyResult<()> {
        let game = self.game.get();
        let info = &game.info;
        let obs_len: usize = info.observation_shape.iter().product();
        let n_actions = info.game_type.num_action_ids;
        let players = info.players;
        let n = self.envs.len();
        let obs = self.obs.bind(py);
        let masks = self.masks.bind(py);
        let rewards = self.rewards.bind(py);
        let terminated = self.terminated.bind(py);
        let seats = self.seats.bind(py);
        let mut obs = obs
            .try_readwrite()
            .map_err(|e| value_error(e.to_string()))?;
        let mut masks = masks
            .try_readwrite()
            .map_err(|e| value_error(e.to_string()))?;
        let mut rewards = rewards
            .try_readwrite()
            .map_err(|e| value_error(e.to_string()))?;
        let mut terminated = terminated
            .try_readwrite()
            .map_err(|e| value_error(e.to_string()))?;
        let mut seats = seats
            .try_readwrite()
            .map_err(|e| value_error(e.to_string()))?;
        let obs = obs.as_slice_mut().map_err(|e| value_error(e.to_string()))?;
        let masks = masks
            .as_slice_mut()
            .map_err(|e| value_error(e.to_string()))?;
        let rewards = rewards
            .as_slice_mut()
            .map_err(|e| value_error(e.to_string()))?;
        let terminated = terminated
            .as_slice_mut()
            .map_err(|e| value_error(e.to_string()))?;
        let seats = seats
            .as_slice_mut()
            .map_err(|e| value_error(e.to_string()))?;
        let zeros = vec![0i64; n];
        let reset = actions.is_none();
        let actions = actions.unwrap_or(&zeros);
        // Every action must be allowed by the mask the caller was given.
        if !reset {
            for (i, &a) in actions.iter().enumerate() {
                let legal = usize::try_from(a)
                    .ok()
                    .filter(|&a| a < n_actions && masks[i * n_actions + a] == 1);
                if legal.is_none() {
                    let allowed: Vec<usize> = (0..n_actions)
                        .filter(|&x| masks[i * n_actions + x] == 1)
                        .collect();
                    return Err(value_error(format!(
                        "environment {i} ({} game {}, seat {}): action {a} is not legal; legal: {allowed:?}",
                        info.game_type.short_name, self.envs[i].games, seats[i]
                    )));
                }
            }
        }
        let threads = self.threads.clamp(1, n.max(1));
        let per = n.div_ceil(threads);
        let learner = self.learner;
        let seed = self.seed;
        let dyn_game: &dyn crate::DynGame = game.inner.as_ref();
        let envs = &mut self.envs;
        py.detach(|| {
            std::thread::scope(|scope| {
                let chunks = envs
                    .chunks_mut(per)
                    .zip(actions.chunks(per))
                    .zip(obs.chunks_mut(per * obs_len))
                    .zip(masks.chunks_mut(per * n_actions))
                    .zip(rewards.chunks_mut(per * players))
                    .zip(terminated.chunks_mut(per))
                    .zip(seats.chunks_mut(per))
                    .enumerate();
                for (c, ((((((envs, actions), obs), masks), rewards), terminated), seats)) in chunks
                {
                    let sh = Shared {
                        game: dyn_game,
                        seed,
                        first: c * per,
                        obs_len,
                        n_actions,
                        players,
                        learner,
                    };
                    let rows = Rows {
                        envs,
                        actions,
                        obs,
                        masks,
                        rewards,
                        terminated,
                        seats,
                    };
                    if threads == 1 {
                        step_rows(sh, rows, reset);
                    } else {
                        scope.spawn(move || step_rows(sh, rows, reset));
                    }
                }
            });
        });
        Ok(())
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (game, n_envs, seed = 0, threads = 1, learner = None, opponents = "random"))]
    fn new(
        py: Python<'_>,
        game: Py<Game>,
        n_envs: usize,
        seed: u64,
        threads: usize,
        learner: Option<i64>,
        opponents: &str,
    ) -> PyResult<Self> {
        // Checked now, so a bad spec is an error of the constructor.
        game.get()
            .inner
            .make_agent(opponents)
            .map_err(value_error)?;
        let g = game.get();
        let players = g.info.players;
        if n_envs == 0 {
            return Err(value_error("n_envs must be at least 1"));
        }
        if threads == 0 {
            return Err(value_error("threads must be at least 1"));
        }
        let learner = learner
            .map(|s| {
                usize::try_from(s).ok().filter(|&s| s < players).ok_or_else(|| {
                    value_error(format!(
                        "learner seat {s} is out of range: this game has {players} seats (0..{})",
                        players - 1
                    ))
                })
            })
            .transpose()?;
        let obs_len: usize = g.info.observation_shape.iter().product();
        let n_actions = g.info.game_type.num_action_ids;
        let mut env = VecEnv {
            envs: Vec::new(),
            opponents: opponents.to_string(),
            seed,
            threads,
            learner,
            obs: PyArray2::zeros(py, [n_envs, obs_len], false).unbind(),
            masks: PyArray2::zeros(py, [n_envs, n_actions], false).unbind(),
            rewards: PyArray2::zeros(py, [n_envs, players], false).unbind(),
            terminated: PyArray1::from_vec(py, vec![false; n_envs]).unbind(),
            seats: PyArray1::zeros(py, n_envs, false).unbind(),
            game,
        };
        env.fresh(py)?;
        env.run(py, None)?;
        Ok(env)
    }

    /// Starts every environment at its game 0 again and refreshes the buffers; returns
    /// `(observations, action_masks, seats)`.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        self.fresh(py)?;
        self.run(py, None)?;
        self.buffers(py)
    }

    /// Applies `actions` (int64 `[n_envs]`, one action id per environment for its deciding
    /// seat), lets the opponents play, auto-resets finished games and rewrites the buffers;
    /// returns `(observations, action_masks, rewards, terminated, seats)`.
    ///
    /// Raises `ValueError` (changing nothing) for a wrong shape or an action the mask does not
    /// allow, naming the environment, its game and the legal actions.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        let n = self.envs.len();
        let a = actions.as_slice().map_err(|e| value_error(e.to_string()))?;
        if a.len() != n {
            return Err(value_error(format!(
                "actions has shape ({},), expected ({n},): one action per environment",
                a.len()
            )));
        }
        let a = a.to_vec();
        self.run(py, Some(&a))?;
        let t = (
            self.obs.clone_ref(py),
            self.masks.clone_ref(py),
            self.rewards.clone_ref(py),
            self.terminated.clone_ref(py),
            self.seats.clone_ref(py),
        );
        t.into_pyobject(py)
    }

    /// A uniformly random legal action for every environment's deciding seat (int64
    /// `[n_envs]`; 0 for none), drawn in Rust with the GIL released from each environment's
    /// own stream (stream 2 of its game 0), so it replays with the batch: a baseline policy
    /// and a cheap way to explore.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let envs = &mut self.envs;
        let out: Vec<i64> = py.detach(|| {
            envs.iter_mut()
                .map(|e| match e.next_seat() {
                    Some(s) => e.state.random_id(s, &mut e.sampler) as i64,
                    None => 0,
                })
                .collect()
        });
        PyArray1::from_vec(py, out)
    }
    /// The action masks buffer (int8 `[n_envs, A]`).
    fn action_masks(&self, py: Python<'_>) -> Py<PyArray2<i8>> {
        self.masks.clone_ref(py)
    }
    /// The observations buffer (float32 `[n_envs, L]`).
    #[getter]
    fn observations(&self, py: Python<'_>) -> Py<PyArray2<f32>> {
        self.obs.clone_ref(py)
    }
    /// The deciding seats (int64 `[n_envs]`).
    #[getter]
    fn seats(&self, py: Python<'_>) -> Py<PyArray1<i64>> {
        self.seats.clone_ref(py)
    }
    /// Number of environments.
    fn __len__(&self) -> usize {
        self.envs.len()
    }
    /// A copy of environment `i`'s current state.
    fn state(&self, py: Python<'_>, i: usize) -> PyResult<crate::State> {
        let env = self.envs.get(i).ok_or_else(|| {
            value_error(format!(
                "environment {i} out of range (0..{})",
                self.envs.len()
            ))
        })?;
        Ok(crate::State::new(
            env.state.clone_box(),
            self.game.clone_ref(py),
        ))
    }
}

impl VecEnv {
    fn fresh(&mut self, py: Python<'_>) -> PyResult<()> {
        let g = self.game.get();
        let sh = Shared {
            game: g.inner.as_ref(),
            seed: self.seed,
            first: 0,
            obs_len: 0,
            n_actions: 0,
            players: g.info.players,
            learner: self.learner,
        };
        let n = self.masks.bind(py).dims()[0];
        self.envs = (0..n).map(|i| new_env(sh, i, 0)).collect();
        // Only seats other than a learner's need the built-in agent; `random` draws a
        // uniformly random legal action directly, without building one.
        if self.learner.is_some() && self.opponents != "random" {
            for env in &mut self.envs {
                let agent = g.inner.make_agent(&self.opponents).map_err(value_error)?;
                env.opponent = Some(std::sync::Mutex::new(agent));
            }
        }
        Ok(())
    }

    fn buffers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        (
            self.obs.clone_ref(py),
            self.masks.clone_ref(py),
            self.seats.clone_ref(py),
        )
            .into_pyobject(py)
    }
}
