"""PettingZoo environments of every tabletop_sim game (needs ``pettingzoo`` and ``gymnasium``:
``pip install "./python[pettingzoo]"``).

* :func:`env` / :class:`TabletopAECEnv`: the AEC (turn-by-turn) environment of any game.
  At a simultaneous node the acting seats are selected one after another; their choices
  are held back and applied together once the last one has chosen, so no seat sees another's
  pending choice (the observation does not change until the joint action is applied).
* :func:`parallel_env` / :class:`TabletopParallelEnv`: the Parallel environment of a game with
  simultaneous nodes (``game.dynamics == "simultaneous"``: Goofspiel, Daxu). Every live
  agent passes an action each step; at a node where only some seats act, the others' actions
  are ignored (their masks are all zeros).

Agents are ``player_0 .. player_{n-1}`` (seat order). Each observation is
``{"observation": float32[L], "action_mask": int8[A]}`` with ``L`` the game's
``observation_tensor_size()`` (fields: ``game.observation_layout()``) and ``A`` its
``num_distinct_actions()``; the action space is ``Discrete(A)``. Rewards are the game's
returns (win share by default: 1 to the winner, shared on ties), paid when the game ends,
0 before. ``termination`` means the game ended by its rules; ``truncation`` means it was cut
at ``max_plies`` (optional; games end by their rules within ``game.max_game_length()``).
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ._tabletop_sim import load_game

__all__ = ["TabletopAECEnv", "TabletopParallelEnv", "env", "parallel_env", "raw_env"]


def _spaces(game):
    size = game.observation_tensor_size()
    n_actions = game.num_distinct_actions()
    # The games declare no value bounds for their tensors (most fields are in [0, 1], some
    # counts and signed scores are not), so the box is unbounded.
    obs = spaces.Dict(
        {
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(n_actions)


class _Common:
    """What both faces share: the game, the agents, seeding and rendering."""

    def _setup(self, name, players, render_mode, max_plies, variant):
        self.game = load_game(name, players=players, **variant)
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs, act = _spaces(self.game)
        # One space object per agent, the same object on every call (PettingZoo's rule).
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.state = None
        self._seeds = np.random.default_rng()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _new_state(self, seed):
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.state = self.game.new_initial_state(seed=int(self._seeds.integers(0, 2**63)))

    def _observe_seat(self, seat):
        return {
            "observation": self.state.observation_tensor(seat),
            "action_mask": self.state.legal_actions_mask(seat),
        }

    def _truncated(self):
        return self.max_plies is not None and self.state.ply() >= self.max_plies

    def render(self):
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


class TabletopAECEnv(_Common, AECEnv):
    """The AEC environment of one game (see the module docs)."""

    metadata = {"render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, name, players=None, render_mode=None, max_plies=None, **variant):
        super().__init__()
        self._setup(name, players, render_mode, max_plies, variant)
        self.metadata = dict(self.metadata, name=f"tabletop_sim_{name}_v0")

    def observe(self, agent):
        return self._observe_seat(self._seat[agent])

    def reset(self, seed=None, options=None):
        self._new_state(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._pending = {}
        self._select()

    def _select(self):
        """The next agent to act: the lowest acting seat without a pending choice."""
        for seat in self.state.acting_players():
            if seat not in self._pending:
                self.agent_selection = self.possible_agents[seat]
                return

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_simultaneous_node():
            # Checked now, so the error names the seat that chose it.
            if int(action) not in self.state.legal_actions(seat):
                raise ValueError(
                    f"action {action} is illegal for {agent}; legal: {self.state.legal_actions(seat)}"
                )
            self._pending[seat] = int(action)
            if len(self._pending) < len(self.state.acting_players()):
                self._select()
                return
            joint, self._pending = self._pending, {}
            self.state.apply_actions(joint)
        else:
            self.state.apply_action(int(action))
        if self.state.is_terminal() or self._truncated():
            ended = self.state.is_terminal()
            returns = self.state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = ended
                self.truncations[a] = not ended
            self._accumulate_rewards()
            return
        self._select()
        self._accumulate_rewards()


class TabletopParallelEnv(_Common, ParallelEnv):
    """The Parallel environment of a game with simultaneous nodes (see the module docs)."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, name, players=None, render_mode=None, max_plies=None, **variant):
        self._setup(name, players, render_mode, max_plies, variant)
        if self.game.dynamics != "simultaneous":
            raise ValueError(
                f"{name} is a turn-based game; use the AEC environment "
                "(tabletop_sim.pettingzoo.env) for it"
            )
        self.metadata = dict(self.metadata, name=f"tabletop_sim_{name}_parallel_v0")

    def _observations(self):
        return {a: self._observe_seat(self._seat[a]) for a in self.agents}

    def reset(self, seed=None, options=None):
        self._new_state(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions):
        acting = self.state.acting_players()
        missing = [self.possible_agents[s] for s in acting if self.possible_agents[s] not in actions]
        if missing:
            raise ValueError(f"no action for acting agents {missing}")
        chosen = {s: int(actions[self.possible_agents[s]]) for s in acting}
        if self.state.is_simultaneous_node():
            self.state.apply_actions(chosen)
        else:
            self.state.apply_action(chosen[acting[0]])
        ended = self.state.is_terminal()
        cut = not ended and self._truncated()
        returns = self.state.returns() if ended or cut else [0.0] * len(self.possible_agents)
        agents = self.agents
        obs = self._observations()
        rewards = {a: float(returns[self._seat[a]]) for a in agents}
        terminations = {a: ended for a in agents}
        truncations = {a: cut for a in agents}
        infos = {a: {} for a in agents}
        if ended or cut:
            self.agents = []
        return obs, rewards, terminations, truncations, infos


def raw_env(name, players=None, **kwargs):
    """The unwrapped AEC environment of game ``name``."""
    return TabletopAECEnv(name, players=players, **kwargs)


def env(name, players=None, **kwargs):
    """The AEC environment of game ``name`` (``players`` seats, rule variants and
    ``render_mode`` / ``max_plies`` as keywords), wrapped in PettingZoo's order-enforcing
    wrapper. Raises ``ValueError`` for a bad game, player count or variant."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(name, players=players, **kwargs))


def parallel_env(name, players=None, **kwargs):
    """The Parallel environment of a game with simultaneous nodes (Goofspiel, Daxu)."""
    return TabletopParallelEnv(name, players=players, **kwargs)
