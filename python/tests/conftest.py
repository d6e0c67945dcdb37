"""Shared helpers of the tabletop_sim tests."""

import random

import tabletop_sim

# Every registered game at every player count it supports.
CONFIGS = [
    (name, n)
    for name in tabletop_sim.GAMES
    for n in range(
        tabletop_sim.load_game(name).player_range[0],
        tabletop_sim.load_game(name).player_range[1] + 1,
    )
]


def random_step(state, rng):
    """Applies one uniformly random legal (joint) action to ``state``."""
    if state.is_simultaneous_node():
        state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in state.acting_players()})
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def playout(state, seed):
    """Plays ``state`` to the end with random actions; returns the number of plies."""
    rng = random.Random(seed)
    plies = 0
    while not state.is_terminal():
        random_step(state, rng)
        plies += 1
    return plies
