#!/usr/bin/env python3
"""A Python policy in a tournament against built-in agents, with the statistics of `sim
tournament` (the same files: games.csv, summary.csv, ...).

    python examples/python/tournament.py [--games 200] [--out out/py-tournament]

The policy bids in Goofspiel the card closest to the prize on offer (read from the
observation tensor's `current_point` field), a strong hand-written rule against `random`.
"""

import argparse
import pathlib

import numpy as np

import tabletop_sim


def make_matcher(game):
    """A policy f(state, seat) -> action id: bid the card nearest the current prize."""
    offsets, start = {}, 0
    for name, length, _ in game.observation_layout():
        offsets[name] = (start, start + length)
        start += length
    lo, hi = offsets["current_point"]

    def matcher(state, seat):
        prize = int(np.argmax(state.observation_tensor(seat)[lo:hi])) + 1
        legal = state.legal_actions(seat)
        names = [int(game.action_to_string(a).removeprefix("bid")) for a in legal]
        return legal[int(np.argmin([abs(n - prize) for n in names]))]

    return matcher


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--out", default="out/py-tournament")
    a = ap.parse_args()
    game = tabletop_sim.load_game("goofspiel", num_cards=6)
    report = tabletop_sim.tournament(
        "goofspiel", [make_matcher(game), "random"], a.games, seed=1, threads=2,
        out=a.out, overwrite=True, num_cards=6,
    )
    print(report["summary"])
    print("files:", ", ".join(pathlib.Path(f).name for f in report["files"]))


if __name__ == "__main__":
    main()
