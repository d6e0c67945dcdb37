"""An OpenSpiel face: every tabletop_sim game as a ``pyspiel`` game (needs ``open_spiel``).

Importing this module registers each game as ``tabletop_<name>`` with
``pyspiel.register_game``, so OpenSpiel's own algorithms run on it unchanged::

    import pyspiel
    import tabletop_sim.openspiel  # registers tabletop_kuhn, tabletop_goofspiel, ...
    game = pyspiel.load_game("tabletop_goofspiel", {"players": 2, "num_cards": 4})

Parameters are ``players`` and the game's rule variants (``sim list``), typed as OpenSpiel
parameters (int, bool or string), plus ``explicit_chance`` (bool).

**Chance.** The simulator draws chance inside ``apply`` as a sequence of uniform picks
``0..n``. With ``explicit_chance=True`` (the default for Kuhn poker and Goofspiel, whose
chance is a few picks per game) each pick becomes an OpenSpiel chance node with ``n``
outcomes of probability ``1/n``, so tree algorithms (CFR, exploitability, expectiminimax)
enumerate chance exactly; the game type says ``EXPLICIT_STOCHASTIC``. With
``explicit_chance=False`` (the default for Daxu, Dunhuang, Q.A.X. and Daimyo, which shuffle
decks) chance is drawn from the state's own stream and the type says
``SAMPLED_STOCHASTIC``; ``new_initial_state()`` then uses a new seed each call (from
``pyspiel``-independent ``numpy`` entropy) unless the game was loaded with ``seed``.

**Simultaneous nodes** where only some seats act (Daxu) give the others one legal action,
``pass`` (id ``num_action_ids``), as OpenSpiel requires every seat to act at such a node.

**Observations.** ``observation_tensor``/``observation_string`` are the simulator's; the
information state string is the simulator's ``information_state_string`` (perfect recall
where the game declares it). No information-state tensor is provided.

**Utilities** are the simulator's returns (win share by default: constant-sum 1; Kuhn's
are ``(2 + chips) / 4``, so OpenSpiel's exploitability of bridged Kuhn is that of
``kuhn_poker`` divided by 4).

**Policies** of the bridged Kuhn poker and Goofspiel convert to and from the dicts of the
simulator's own solvers (:mod:`tabletop_sim.solvers`) with :func:`policy_to_tree` and
:func:`policy_from_tree`, so OpenSpiel's and the simulator's CFR and best responses can be
compared on the same policies.
"""

import re

import numpy as np
import pyspiel
from open_spiel.python import policy as _policy

from ._tabletop_sim import GAMES, load_game

__all__ = ["policy_from_tree", "policy_to_tree", "register", "short_name", "tree_key"]

_EXPLICIT_BY_DEFAULT = {"kuhn", "goofspiel"}


def short_name(name):
    """The OpenSpiel name of simulator game ``name``: ``tabletop_<name>``."""
    return f"tabletop_{name}"


def _typed(text):
    """A variant value as the OpenSpiel parameter type it reads as."""
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _as_variant(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _game_type(name, sim, explicit):
    t = pyspiel.GameType
    spec = {"players": sim.num_players(), "explicit_chance": explicit, "seed": -1}
    for kv in sim.variant:
        k, v = kv.split("=", 1)
        spec[k] = _typed(v)
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"{sim.long_name} (tabletop-sim)",
        dynamics=t.Dynamics.SIMULTANEOUS if sim.dynamics == "simultaneous" else t.Dynamics.SEQUENTIAL,
        chance_mode=(
            t.ChanceMode.DETERMINISTIC
            if sim.chance_mode == "deterministic"
            else (t.ChanceMode.EXPLICIT_STOCHASTIC if explicit else t.ChanceMode.SAMPLED_STOCHASTIC)
        ),
        # OpenSpiel counts a game with simultaneous moves as imperfect information (a seat
        # does not see the others' pending choices), as its own Goofspiel does.
        information=(
            t.Information.PERFECT_INFORMATION
            if sim.information == "perfect" and sim.dynamics == "sequential"
            else t.Information.IMPERFECT_INFORMATION
        ),
        utility={
            "zero_sum": t.Utility.ZERO_SUM,
            "constant_sum": t.Utility.CONSTANT_SUM,
            "general_sum": t.Utility.GENERAL_SUM,
        }[sim.utility],
        reward_model=t.RewardModel.TERMINAL,
        max_num_players=sim.player_range[1],
        min_num_players=sim.player_range[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


class _Game(pyspiel.Game):
    """A simulator game under OpenSpiel's ``Game`` interface."""

    name = None  # set per registered subclass

    def __init__(self, params=None):
        params = dict(params or {})
        players = params.pop("players", None)
        explicit = params.pop("explicit_chance", self.name in _EXPLICIT_BY_DEFAULT)
        seed = params.pop("seed", -1)
        variant = {k: _as_variant(v) for k, v in params.items()}
        self.sim = load_game(self.name, players=players, **variant)
        self.explicit = bool(explicit) and self.sim.chance_mode != "deterministic"
        self._seeds = np.random.default_rng(None if seed < 0 else seed)
        sim = self.sim
        n = sim.num_players()
        returns_sum = 1.0 if sim.utility == "constant_sum" else 0.0
        # A pass id for seats that do not act at a partial simultaneous node.
        self.pass_id = sim.num_distinct_actions()
        num_actions = self.pass_id + (1 if sim.dynamics == "simultaneous" else 0)
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions,
            max_chance_outcomes=self._max_chance_outcomes(),
            num_players=n,
            min_utility=self._min_utility(),
            max_utility=self._max_utility(),
            utility_sum=returns_sum,
            max_game_length=sim.max_game_length(),
        )
        type_ = _game_type(self.name, sim, self.explicit)
        full = {"players": n, "explicit_chance": self.explicit, "seed": seed}
        for kv in sim.variant:
            k, v = kv.split("=", 1)
            full[k] = _typed(v)
        super().__init__(type_, info, full)
        self.context = _Context(sim, self.explicit, self.pass_id, self._seeds)

    def _max_chance_outcomes(self):
        # The largest pick of a game: Kuhn deals from 3 cards, Goofspiel reveals from at most
        # its num_cards point cards; sampled games declare none.
        if not self.explicit:
            return 0
        if self.name == "kuhn":
            return 3
        if self.name == "goofspiel":
            return int(next(kv for kv in self.sim.variant if kv.startswith("num_cards="))[10:])
        raise ValueError(
            f"explicit_chance=true is offered for kuhn and goofspiel only; {self.name} "
            "shuffles decks, so its chance is sampled (explicit_chance=false)"
        )

    def _min_utility(self):
        return -1.0 if self.sim.utility == "zero_sum" else 0.0

    def _max_utility(self):
        return 1.0

    def new_initial_state(self):
        return _State(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self, recall)


class _Context:
    """What every state of one bridged game shares: the simulator game, the chance mode, the
    pass id and the seed source. OpenSpiel clones states with ``copy.deepcopy``; the context
    is shared, not copied."""

    def __init__(self, sim, explicit, pass_id, seeds):
        self.sim = sim
        self.explicit = explicit
        self.pass_id = pass_id
        self.seeds = seeds

    def __deepcopy__(self, memo):
        return self


class _State(pyspiel.State):
    """A simulator state under OpenSpiel's ``State`` interface, with explicit chance nodes
    built from the simulator's picks when the game says so."""

    def __init__(self, game):
        super().__init__(game)
        self._bridge = game.context
        sim = game.sim
        self._n = sim.num_players()
        if game.explicit:
            # Setup chance: pending until every pick of the deal is chosen.
            self._base = None
            self._pending = ("setup", None)
            self._picks = []
            self._resolve()
        else:
            self._sim = sim.new_initial_state(seed=int(self._bridge.seeds.integers(0, 2**63)))
            self._pending = None

    # -- chance ----------------------------------------------------------------------
    def _resolve(self):
        """Replays the pending step with the picks chosen so far: done when it asks for no
        more, else a chance node for the next pick."""
        kind, action = self._pending
        if kind == "setup":
            state, asked = self._bridge.sim.new_initial_state_with_chance(self._picks)
        else:
            state = self._base.clone()
            if kind == "one":
                asked = state.apply_action_with_chance(action, self._picks)
            else:
                asked = state.apply_actions_with_chance(action, self._picks)
        if len(asked) <= len(self._picks):
            self._sim, self._pending, self._base, self._picks = state, None, None, []
            self._next_pick = 0
        else:
            self._sim = state
            self._next_pick = asked[len(self._picks)]

    def _step(self, kind, action):
        if not self._bridge.explicit:
            if kind == "one":
                self._sim.apply_action(action)
            else:
                self._sim.apply_actions(action)
            return
        self._base, self._pending, self._picks = self._sim, (kind, action), []
        # Checks legality (raising before anything changes) and learns the first pick.
        probe = self._base.clone()
        if kind == "one":
            probe.apply_action(action)
        else:
            probe.apply_actions(action)
        self._resolve()

    # -- OpenSpiel API -----------------------------------------------------------------
    def current_player(self):
        if self._pending is not None:
            return pyspiel.PlayerId.CHANCE
        p = self._sim.current_player()
        if p == -2:
            return pyspiel.PlayerId.SIMULTANEOUS
        if p == -4:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player):
        if self._pending is not None:
            return []
        if self._sim.is_simultaneous_node() and player not in self._sim.acting_players():
            return [self._bridge.pass_id]
        return self._sim.legal_actions(player)

    def chance_outcomes(self):
        n = self._next_pick
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action):
        if self._pending is not None:
            self._picks.append(int(action))
            self._resolve()
        else:
            self._step("one", int(action))

    def _apply_actions(self, actions):
        acting = self._sim.acting_players()
        joint = {p: int(actions[p]) for p in acting}
        self._step("joint", joint)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance:{action}"
        if action == self._bridge.pass_id:
            return "pass"
        return self._sim.action_to_string(action)

    def is_terminal(self):
        return self._pending is None and self._sim.is_terminal()

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self._n
        return self._sim.returns()

    def __str__(self):
        return str(self._sim)

    @property
    def sim_state(self):
        """The simulator state: before the pending step at a chance node, ``None`` while the
        setup chance is being chosen (nothing is dealt yet)."""
        return self._sim if self._pending is None else self._base


class _Observer:
    """OpenSpiel's PyObserver: the simulator's observation tensor and strings."""

    def __init__(self, game, perfect_recall):
        self._recall = perfect_recall
        size = 0 if perfect_recall else game.sim.observation_tensor_size()
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self._recall:
            return
        if state.sim_state is None:
            self.tensor.fill(0)
        else:
            state.sim_state.write_observation_tensor(player, self.tensor)

    def string_from(self, state, player):
        sim = state.sim_state
        if sim is None:
            return ""
        if self._recall:
            return sim.information_state_string(player)
        return sim.observation_string(player)


# The line `pyspiel.convert_to_turn_based` puts before a state's information-state string.
_TURN_BASED_PREFIX = re.compile(r"\ACurrent player: \d+\n")


def tree_key(info_state):
    """The :class:`tabletop_sim.solvers.GameTree` key of an information-state string of a
    bridged game: the string itself, less the ``Current player: i`` line that
    ``pyspiel.convert_to_turn_based`` puts first (the simulator's Goofspiel keys are already
    those of a round start, which is what the turn-based seat 1 sees)."""
    return _TURN_BASED_PREFIX.sub("", info_state, count=1)


def _rows(tree, tabular):
    """``(tree key, action ids, row)`` for every row of an OpenSpiel ``TabularPolicy`` of a
    bridged game; ``ValueError`` if a row has no information set in ``tree`` or other legal
    actions."""
    sets = {key: ids for key, _, ids, _ in tree.infosets()}
    for os_key, row in tabular.state_lookup.items():
        key = tree_key(os_key)
        ids = sets.get(key)
        if ids is None:
            raise ValueError(
                f"OpenSpiel information state {os_key!r} has no information set {key!r} "
                f"in {tree.name}"
            )
        legal = np.flatnonzero(tabular.legal_actions_mask[row]).tolist()
        if sorted(ids) != legal:
            raise ValueError(
                f"information set {key!r}: OpenSpiel's legal actions {legal} differ from "
                f"the tree's {sorted(ids)}"
            )
        yield key, ids, row


def policy_to_tree(tree, tabular):
    """The OpenSpiel ``TabularPolicy`` ``tabular`` of a bridged game (``tabletop_kuhn``, or
    ``tabletop_goofspiel`` through ``pyspiel.convert_to_turn_based``) as a policy dict of
    ``tree`` (``{key: [probability per action]}``, the tree's action order), for
    ``tree.evaluate``. Raises ``ValueError`` if the information sets differ."""
    out = {}
    for key, ids, row in _rows(tree, tabular):
        probs = [float(tabular.action_probability_array[row, a]) for a in ids]
        if out.setdefault(key, probs) != probs:
            raise ValueError(f"two OpenSpiel information states of {key!r} play differently")
    return out


def policy_from_tree(tree, table, game):
    """A policy dict of ``tree`` (``{key: [probability per action]}``, e.g.
    ``tree.solve(...)["average_policy"]``) as an OpenSpiel ``TabularPolicy`` of the bridged
    ``game`` (turn-based for Goofspiel), for OpenSpiel's ``exploitability``."""
    tabular = _policy.TabularPolicy(game)
    for key, ids, row in _rows(tree, tabular):
        tabular.action_probability_array[row] = 0.0
        tabular.action_probability_array[row, ids] = table[key]
    return tabular


def register():
    """Registers every simulator game with OpenSpiel as ``tabletop_<name>`` (idempotent)."""
    known = set(pyspiel.registered_names())
    for name in GAMES:
        if short_name(name) in known:
            continue
        cls = type(f"Tabletop_{name}", (_Game,), {"name": name})
        default = load_game(name)
        pyspiel.register_game(_game_type(name, default, name in _EXPLICIT_BY_DEFAULT), cls)


register()
