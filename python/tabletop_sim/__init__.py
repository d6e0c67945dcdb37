"""tabletop-sim's games as Python objects.

    import tabletop_sim
    game = tabletop_sim.load_game("goofspiel", players=2, num_cards=6)
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        ...

``load_game(name, players=None, **variant)`` returns a :class:`Game` (the facts of the game
under those rules and ``new_initial_state(seed=...)``); a :class:`State` has
``legal_actions()``, ``legal_actions_mask()``, ``apply_action()`` / ``apply_actions()``,
``current_player()`` / ``acting_players()``, ``is_terminal()``, ``returns()``, ``scores()``,
``observation_tensor(seat)`` (numpy float32), ``information_state_string(seat)``,
``observation_string(seat)``, ``clone()``, ``serialize()`` / ``Game.deserialize_state()``,
``determinize(seat, seed)`` and action names both ways. Actions are integer ids below
``game.num_distinct_actions()``; seats are ``0..num_players()-1``. Bad input raises
``ValueError`` with the simulator's message.

``agent(spec)`` is any built-in agent (``random``, ``greedy``, ``mcts:iters=1000``, ...):
``agent.step(state, seat)`` returns its move. :class:`VecEnv` steps many games together in Rust (numpy buffers, GIL released, threads).

``tournament(game, agents, games, ...)`` runs ``sim tournament`` from Python (the same files),
with Python callables ``f(state, seat) -> action`` as agents beside built-in specs; a Python
exception in one raises :class:`TournamentError` naming the game and ply.

``tabletop_sim.trajectories.record`` saves self-play decisions as ``.npz`` or Parquet for
offline learning.

``tabletop_sim.solvers`` runs the simulator's exact solvers (CFR, CFR+, MCCFR, best responses,
NashConv) on Kuhn poker and Goofspiel.

Optional faces: :func:`pettingzoo_env` (needs ``pettingzoo``), ``tabletop_sim.openspiel``
(needs ``open_spiel``).
"""

from ._tabletop_sim import (
    GAMES,
    Agent,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    State,
    TournamentError,
    VecEnv,
    agent,
    deserialize_state,
    load_game,
    registered_games,
    tournament,
)

__all__ = [
    "GAMES",
    "Agent",
    "agent",
    "SIMULTANEOUS",
    "TERMINAL",
    "Game",
    "State",
    "TournamentError",
    "VecEnv",
    "tournament",
    "deserialize_state",
    "load_game",
    "registered_games",
    "pettingzoo_env",
]


def pettingzoo_env(name, players=None, **kwargs):
    """A PettingZoo environment of game ``name`` (see :mod:`tabletop_sim.pettingzoo`)."""
    from .pettingzoo import env

    return env(name, players=players, **kwargs)
