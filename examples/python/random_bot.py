#!/usr/bin/env python3
"""A random agent for tabletop-sim's external-agent protocol (docs/ext-protocol.md).

Standard library only. Run it through the simulator, e.g.

    sim play --game daxu --agents 'ext:cmd=python3 examples/python/random_bot.py,random'
    sim tournament --game daxu -n 20 --agents 'ext:cmd=python3 examples/python/random_bot.py,greedy'

Every line the simulator sends is a keyword and, for most, a JSON payload. The bot speaks
protocol 2: it answers `hello` with its own hello (naming the protocol), each `act` with
`action <id> <request>`, picking uniformly among the legal actions with the decision's
`seed`, so its games are reproducible, and each `result` with `ready <request>`. Write your
own agent by replacing `choose`.
"""

import json
import random
import sys


def choose(request):
    """Picks one legal action id for an `act` request (a dict, see the protocol)."""
    rng = random.Random(request["seed"])
    return rng.choice(request["legal"])["id"]


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        keyword, _, payload = line.strip().partition(" ")
        if keyword == "hello":
            send('hello {"name": "random_bot", "version": "2.0", "protocol": 2}')
        elif keyword == "game":
            pass  # {"game", "players", "seat", "variant", "index"}: nothing to prepare
        elif keyword == "act":
            request = json.loads(payload)
            send("action %d %d" % (choose(request), request["request"]))
        elif keyword == "result":
            # {"request", "seat", "scores", "ranks", "observation"}: acknowledged, so the
            # simulator knows every answer of the game has arrived.
            send("ready %d" % json.loads(payload)["request"])
        elif keyword == "quit":
            return


if __name__ == "__main__":
    main()
