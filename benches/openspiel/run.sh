#!/bin/sh
# Head to head on goofspiel(13), 2 players: sim's default search agent (`mcts`) against
# OpenSpiel's C++ MCTSBot (random rollouts, uct_c = 2) at equal iterations, with and without
# chance (order=random / order=descending). Seats alternate game by game (balanced).
#
#   python3 -m venv /tmp/osp && /tmp/osp/bin/pip install open_spiel
#   cargo build --release
#   benches/openspiel/run.sh [GAMES] [ITERS...]     # defaults: 600 games, 1000 4000
#
# Each row is `sim tournament ... --seed 21 --threads 1`; the score line is mcts's score
# (win 1, draw 1/2) with its 95% interval (score.py). OpenSpiel is never a build dependency.
set -e
here=$(cd "$(dirname "$0")" && pwd)
sim=${SIM:-$here/../../target/release/sim}
python=${OSP_PYTHON:-/tmp/osp/bin/python}
games=${1:-600}
shift || true
iters=${*:-1000 4000}
for it in $iters; do
  for order in descending random; do
    mkdir -p "${OUT:-/tmp/osp-bench}"
    out=${OUT:-/tmp/osp-bench}/$order-$it
    "$sim" tournament --game goofspiel --variant order=$order \
      --agents "ext:cmd=$python $here/osp_bot.py --sims $it,mcts:iters=$it" \
      -n "$games" --seed 21 --threads 1 --overwrite --out "$out" > "$out.log" 2>&1
    echo "order=$order iters=$it $(python3 "$here/score.py" "$out/games.csv" mcts)"
  done
done
