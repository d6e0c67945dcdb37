#!/usr/bin/env python3
"""Steps per second of ``tabletop_sim.VecEnv`` (batched stepping in Rust), beside pyspiel
stepping OpenSpiel's C++ Goofspiel(13) one state at a time from Python.

A VecEnv step is one decision in each of ``n_envs`` environments (self-play: every seat's
decisions, games auto-reset). The random legal actions come either from numpy for the whole
batch (``argmax(mask * uniform)``, O(n_envs * A) per step: it dominates for games with
thousands of action ids) or from ``VecEnv.random_actions()`` (drawn in Rust); both columns
are printed. The pyspiel
loop is ``legal_actions``, ``random.choice``, ``apply_actions`` per state (chance nodes
sampled from ``chance_outcomes``, not counted as steps). OpenSpiel has no Daxu, Dunhuang or
Daimyo: their pyspiel rows step the bridged games (``tabletop_daxu``, ...: the simulator
behind OpenSpiel's Python game API, ``tabletop_sim.openspiel``) in the same loop, one state
at a time, which is what an OpenSpiel user of these games gets without ``VecEnv``.

    python benches/python/vec_steps.py [--seconds 3] [--n-envs 1024] [--threads 2]
"""

import argparse
import random
import time

import numpy as np

import tabletop_sim


def vec_rate(name, players, n_envs, threads, seconds, rust, **variant):
    game = tabletop_sim.load_game(name, players=players, **variant)
    env = tabletop_sim.VecEnv(game, n_envs, seed=0, threads=threads)
    rng = np.random.default_rng(0)
    masks = env.action_masks()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if rust:
            actions = env.random_actions()
        else:
            actions = np.argmax(masks * rng.random(masks.shape, dtype=np.float32), axis=1)
        _, masks, _, _, _ = env.step(actions.astype(np.int64, copy=False))
        steps += n_envs
    return steps / (time.perf_counter() - start)


def pyspiel_goofspiel_rate(seconds):
    import pyspiel

    game = pyspiel.load_game("goofspiel", {"num_cards": 13, "points_order": "random"})
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
            steps += 1
        # Each joint action is 2 decisions, as in VecEnv's self-play.
    return 2 * steps / (time.perf_counter() - start)


def pyspiel_rate(game, seconds):
    """Decisions per second of random play of a pyspiel ``game``, one state at a time."""
    import pyspiel

    rng = random.Random(0)
    decisions = 0
    n = game.num_players()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
                joint = [rng.choice(state.legal_actions(p)) for p in range(n)]
                # Seats that do not act at a bridged simultaneous node only "pass".
                sim = getattr(state, "_sim", None)
                decisions += len(sim.acting_players()) if sim is not None else n
                state.apply_actions(joint)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--n-envs", type=int, default=1024)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    rows = [("goofspiel", 2, {"num_cards": 13}), ("kuhn", 2, {}), ("daxu", 2, {}),
            ("dunhuang", 4, {}), ("daimyo", 2, {}), ("qax", 2, {})]
    for name, players, variant in rows:
        r = [vec_rate(name, players, a.n_envs, a.threads, a.seconds, rust, **variant)
             for rust in (False, True)]
        print(f"VecEnv {name:>9} {players}p n={a.n_envs} threads={a.threads}: "
              f"{r[0]:>12,.0f} decisions/s (numpy actions) {r[1]:>12,.0f} (random_actions)")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("pyspiel not installed: no OpenSpiel rows")
        return
    r = pyspiel_goofspiel_rate(a.seconds)
    print(f"pyspiel goofspiel(13) 2p, one state at a time: {r:>12,.0f} decisions/s")
    import pyspiel
    import tabletop_sim.openspiel  # noqa: F401  (registers tabletop_daxu, ...)

    for name, players in [("daxu", 2), ("dunhuang", 4), ("daimyo", 2)]:
        game = pyspiel.load_game(f"tabletop_{name}", {"players": players})
        r = pyspiel_rate(game, a.seconds)
        print(f"pyspiel tabletop_{name} {players}p (the bridge), one state at a time: "
              f"{r:>12,.0f} decisions/s")
    # Side by side: alternating short slices, so a change of the machine's load hits both.
    ours, theirs = [], []
    for _ in range(6):
        ours.append(vec_rate("goofspiel", 2, a.n_envs, a.threads, 0.5, True, num_cards=13))
        theirs.append(pyspiel_goofspiel_rate(0.5))
    ratios = sorted(o / t for o, t in zip(ours, theirs))
    print(f"goofspiel(13) VecEnv / pyspiel, 6 alternating 0.5 s slices: ratios "
          f"{', '.join(f'{x:.1f}' for x in ratios)} (median {np.median(ratios):.1f}x)")


if __name__ == "__main__":
    main()
