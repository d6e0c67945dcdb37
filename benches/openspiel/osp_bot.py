#!/usr/bin/env python3
"""OpenSpiel's C++ MCTSBot as an `ext` agent of tabletop-sim, for goofspiel (2 players).

Benchmark harness only (OpenSpiel is never a build dependency of the simulator). It speaks
the external-agent protocol (docs/ext-protocol.md) and answers each `act` with the move of
`pyspiel.MCTSBot` (random-rollout evaluator, one rollout per leaf) searching
`turn_based_simultaneous_game(goofspiel(...))` for `--sims` simulations with exploration
`--uct-c` (2.0, the value of OpenSpiel's own examples).

**The bot never sees the other seat's pending bid.** The position is rebuilt from this
seat's observation text alone (the point cards and both seats' bids of the rounds already
played, the current point card; all public with `imp_info=false`), and rebuilt *with this
seat as OpenSpiel's player 0*: the turn-based wrapper lets player 0 bid first, so the
bot's own decision is always made before any bid of the round exists in the state.
Inside its search the opponent's replies see the bot's tentative bid (the sequential
treatment of simultaneous moves that MCTSBot applies to the turn-based wrapper; pessimistic
for the bot, never an advantage). Goofspiel is symmetric between the seats, so swapping
them changes nothing but the labels.

Chance: with `order=random` the point cards are chance outcomes (`point - 1`) replayed from
the history; future cards stay undrawn, so the bot cannot read them either.

Reproducible: each decision's OpenSpiel seed is the `seed` of the `act` request.

    /tmp/osp/bin/python benches/openspiel/osp_bot.py --sims 1000
"""

import argparse
import json
import re
import sys

import pyspiel

ROUND = re.compile(r"round \d+: point (\d+) bids (\d+)/(\d+)")
HEAD = re.compile(r"seat (\d+) after (\d+) rounds: point (\d+), hand \[([0-9 ]*)\]")


def parse(text):
    """(seat, current point, [(point, bid of seat 0, bid of seat 1)], hand) from the text."""
    head = HEAD.match(text)
    if head is None:
        raise ValueError("unexpected goofspiel observation: " + text)
    seat, _, point, hand = head.groups()
    rounds = [tuple(int(x) for x in m.groups()) for m in ROUND.finditer(text)]
    return int(seat), int(point), rounds, [int(x) for x in hand.split()]


def rebuild(game, seat, point, rounds):
    """The turn-based OpenSpiel state of this decision, with `seat` as player 0."""
    state = game.new_initial_state()

    def chance(card):
        if state.is_chance_node():
            state.apply_action(card - 1)

    for p, b0, b1 in rounds:
        chance(p)
        mine, theirs = (b0, b1) if seat == 0 else (b1, b0)
        state.apply_action(mine - 1)
        state.apply_action(theirs - 1)
    chance(point)
    assert state.current_player() == 0, str(state)
    return state


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=1000, help="MCTS simulations per decision")
    ap.add_argument("--uct-c", type=float, default=2.0, help="UCT exploration constant")
    args = ap.parse_args()
    game = None
    for line in sys.stdin:
        keyword, _, payload = line.strip().partition(" ")
        if keyword == "hello":
            print('hello {"name": "openspiel_mcts", "version": "%s"}' % args.sims, flush=True)
        elif keyword == "game":
            g = json.loads(payload)
            v = g["variant"]
            if g["game"] != "goofspiel" or g["players"] != 2 or v.get("imp_info") != "false":
                sys.exit("osp_bot plays 2-player goofspiel with imp_info=false only")
            order = v["order"]
            game = pyspiel.load_game(
                "turn_based_simultaneous_game(game=goofspiel(num_cards=%s,points_order=%s,"
                "imp_info=False,players=2))" % (v["num_cards"], order)
            )
        elif keyword == "act":
            req = json.loads(payload)
            legal = [a["id"] for a in req["legal"]]
            if len(legal) == 1:
                print("action %d" % legal[0], flush=True)
                continue
            seat, point, rounds, hand = parse(req["observation"]["text"])
            assert seat == req["seat"]
            state = rebuild(game, seat, point, rounds)
            assert sorted(state.legal_actions()) == legal, (state.legal_actions(), legal, hand)
            seed = req["seed"] % (2**31 - 1)
            evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
            # uct_c, max_simulations, max_memory_mb, solve, seed, verbose
            bot = pyspiel.MCTSBot(game, evaluator, args.uct_c, args.sims, 1000, False, seed, False)
            print("action %d" % bot.step(state), flush=True)
        elif keyword == "quit":
            return


if __name__ == "__main__":
    main()
