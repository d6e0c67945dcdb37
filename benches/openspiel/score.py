#!/usr/bin/env python3
"""Score of one agent in a 2-player `sim tournament` games.csv: win 1, draw 1/2, loss 0 per
game, with the 95% normal interval of the mean (games are independent: seats alternate
between games, no --paired here).

    python3 benches/openspiel/score.py out/games.csv mcts
"""

import csv
import math
import sys


def score(path, agent):
    per_game = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["agent"] == agent:
                per_game[row["game"]] = (
                    1.0 if row["won"] == "1" else 0.5 if row["draw"] == "1" else 0.0
                )
    x = list(per_game.values())
    n = len(x)
    if n < 2:
        sys.exit("fewer than 2 games of %s in %s" % (agent, path))
    m = sum(x) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in x) / (n - 1))
    half = 1.959964 * sd / math.sqrt(n)
    w = sum(1 for v in x if v == 1.0)
    d = sum(1 for v in x if v == 0.5)
    return n, w, d, n - w - d, m, m - half, m + half


if __name__ == "__main__":
    n, w, d, l, m, lo, hi = score(sys.argv[1], sys.argv[2])
    print("%s: %d games, W/D/L %d/%d/%d, score %.3f [%.3f, %.3f]" % (sys.argv[2], n, w, d, l, m, lo, hi))
