"""The simulator's exact tabular solvers (CFR, CFR+, MCCFR, best responses) on the games with
an extensive form: Kuhn poker and 2-player Goofspiel (the trees of ``sim solve``).

    from tabletop_sim import solvers
    tree = solvers.game_tree("goofspiel", num_cards=4, order="descending", imp_info=True)
    result = tree.solve("cfr+", iterations=100)
    result["nash_conv"], result["exploitability"], result["average_policy"]
    tree.evaluate(tree.uniform_policy())["nash_conv"]

``game_tree(name, max_nodes=10_000_000, **settings)`` expands the tree (settings are the
game's rule variants, as for ``load_game``; Goofspiel also takes ``utility="win-loss"``, the
default, or ``"points"``). A :class:`GameTree` has:

=================================  ============================================================
call                               returns
=================================  ============================================================
``name``, ``game``                 the game and variant; the registry name
``num_nodes``, ``num_infosets``    sizes
``infosets()``                     ``[(key, seat, action_ids, action_names)]``, depth-first
``uniform_policy()``               ``{key: [1/k] * k}``
``evaluate(policy)``               ``{"value", "best_response": (br0, br1), "nash_conv",
                                   "exploitability"}`` of ``policy`` by exact best responses
``solve(algo, iterations, seed)``  the same for the average policy after ``iterations``, with
                                   ``"average_policy"``, ``"algo"``, ``"iterations"``
=================================  ============================================================

A policy is a dict ``{information-set key: [probability per action]}`` in the action order of
``infosets()``; the key is the game's ``information_state_string`` of the seat to move
(Goofspiel: at the round start, so seat 1 does not see seat 0's pending bid). Every
information set must be present and each row must sum to 1 (within 1e-6), else
``ValueError``.

**Units.** Values are seat 0's utility in the tree's units (seat 1 gets the negation): Kuhn
poker in chips; Goofspiel ``win-loss`` +1/0/-1 (or ``points``: ``(a - b) / 2``). The
simulator's returns (and so the OpenSpiel bridge's) are ``(2 + chips) / 4`` for Kuhn and win
shares ``(1 + u) / 2`` for Goofspiel: NashConv and exploitability measured on the bridged
games are these divided by 4 and by 2 (:data:`RETURNS_SCALE`).

**Algorithms** (``ALGORITHMS``): ``cfr`` is vanilla CFR with *simultaneous* updates and
uniform averaging (Zinkevich et al. 2007) = OpenSpiel's
``cfr._CFRSolver(game, regret_matching_plus=False, alternating_updates=False,
linear_averaging=False)``; ``cfr+`` is regret matching+ with alternating updates and linear
averaging (Tammelin 2014) = OpenSpiel's ``cfr.CFRPlusSolver``; ``cfr-alt`` is plain regret
matching with *alternating* updates and uniform averaging = OpenSpiel's default
``cfr.CFRSolver``. ``es-mccfr`` and ``os-mccfr`` sample from ``seed``.

``tabletop_sim.openspiel.policy_to_tree`` / ``policy_from_tree`` convert between these dicts
and OpenSpiel's ``TabularPolicy`` of the bridged games.
"""

from ._tabletop_sim import ALGORITHMS, GameTree, game_tree

__all__ = ["ALGORITHMS", "GameTree", "RETURNS_SCALE", "cfr", "game_tree"]

# Tree utility units per unit of the simulator's default returns (win share), by game: NashConv
# on the bridged game times this is the tree's NashConv (Goofspiel: with the tree's default
# utility="win-loss" and the game's default returns; not for utility="points").
RETURNS_SCALE = {"kuhn": 4.0, "goofspiel": 2.0}


def cfr(name, iterations, algo="cfr", seed=0, **settings):
    """Runs ``algo`` for ``iterations`` on the tree of ``name`` under ``settings`` (see the
    module docs) and returns ``GameTree.solve``'s dict: the average policy and its
    ``value``, ``best_response``, ``nash_conv`` and ``exploitability`` in tree units."""
    return game_tree(name, **settings).solve(algo, iterations, seed)
