#!/usr/bin/env python3
"""Steps per second of random play through Python, per game, beside OpenSpiel's pyspiel.

Each step is what a Python agent loop does: ask the legal actions (of each acting seat at a
simultaneous node), pick one with ``random.Random``, apply it. Games start from
``new_initial_state(seed=i)`` and run to the end; a game's plies count as steps. The
OpenSpiel rows play OpenSpiel's own C++ games (kuhn_poker, goofspiel with 13 cards) in the
same loop, one state at a time, if ``pyspiel`` is installed.

    python benches/python/steps.py [--seconds 2]

Prints one row per game: steps, wall seconds, steps/s, and microseconds per step. The
machine's load changes wall-clock numbers: compare rows of one run, not across runs.
"""

import argparse
import random
import time

import tabletop_sim


def play_sim(game, seconds):
    rng = random.Random(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(seed=games)
        while not state.is_terminal():
            if state.is_simultaneous_node():
                state.apply_actions(
                    {p: rng.choice(state.legal_actions(p)) for p in state.acting_players()}
                )
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def play_pyspiel(game, seconds):
    import pyspiel

    rng = random.Random(0)
    steps = games = 0
    start = time.perf_counter()
    n = game.num_players()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(n)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    return steps, games, time.perf_counter() - start


def per_apply_us(first, apply, n=200_000):
    """Microseconds of one apply call: (clone + apply) minus clone, each timed over ``n``."""
    t = time.perf_counter()
    for _ in range(n):
        first.clone()
    clone = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(n):
        apply(first.clone())
    both = time.perf_counter() - t
    return 1e6 * (both - clone) / n


def row(label, steps, games, secs):
    print(
        f"{label:<28} {steps:>9} steps {games:>7} games {secs:6.2f} s "
        f"{steps / secs:>11,.0f} steps/s {1e6 * secs / steps:7.2f} us/step"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per game (default 2)")
    args = ap.parse_args()
    for name in tabletop_sim.GAMES:
        game = tabletop_sim.load_game(name)
        row(f"tabletop_sim {name} {game.num_players()}p", *play_sim(game, args.seconds))
    try:
        import pyspiel
    except ImportError:
        print("pyspiel not installed: no OpenSpiel rows")
        return
    for name, params in [("kuhn_poker", {}), ("goofspiel", {"num_cards": 13, "points_order": "random"})]:
        row(f"pyspiel {name}", *play_pyspiel(pyspiel.load_game(name, params), args.seconds))
    # One apply from Python, Goofspiel(13) 2 seats, first round (both bid card 1), and
    # Kuhn poker's first bet, after the deal.
    ours = tabletop_sim.load_game("goofspiel").new_initial_state(seed=0)
    theirs = pyspiel.load_game("goofspiel", {"num_cards": 13, "points_order": "random"})
    theirs = theirs.new_initial_state()
    theirs.apply_action(theirs.chance_outcomes()[0][0])
    a = per_apply_us(ours, lambda s: s.apply_actions([0, 0]))
    b = per_apply_us(theirs, lambda s: s.apply_actions([0, 0]))
    print(f"one apply_actions, goofspiel(13): tabletop_sim {a:.2f} us, pyspiel {b:.2f} us")
    ours = tabletop_sim.load_game("kuhn").new_initial_state(seed=0)
    theirs = pyspiel.load_game("kuhn_poker").new_initial_state()
    theirs.apply_action(0)
    theirs.apply_action(1)
    a = per_apply_us(ours, lambda s: s.apply_action(1))
    b = per_apply_us(theirs, lambda s: s.apply_action(1))
    print(f"one apply_action, kuhn: tabletop_sim {a:.2f} us, pyspiel {b:.2f} us")


if __name__ == "__main__":
    main()
