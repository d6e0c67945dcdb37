#!/usr/bin/env bash
# The comparison of issue 24's targets: on the known-answer benchmarks, how often each
# search method's answer covers the true fair setting over seeded runs, and how many games
# it used, under the same budget rules (batch, per-probe limit, alpha, total budget).
#
#   kuhn:      experiments/kuhn-komi.toml (equilibrium evaluator), truth 1/18
#   goofspiel: experiments/goofspiel-balance-planted.toml (random self-play), truth 3
#
# Methods: root (the root finder at the spec's tolerance), grid (the baseline at the
# spacing of the root finder's tolerance, with a budget large enough to finish: the games a
# grid needs for that resolution), ntbea (the same levels as the grid, the root finder's
# budget). root and grid give an interval (covered = truth in [low, high]); NTBEA gives
# none (covered = its recommendation within one level of the truth).
#
# Usage: experiments/balance-compare.sh OUT SEEDS_KUHN SEEDS_GOOF [SIM]
#   e.g. experiments/balance-compare.sh results/balance-compare 50 10 target/release/sim
# Writes OUT/runs.csv (one row per run) and OUT/summary.csv (per benchmark and method).
# Runs already in OUT/runs.csv are kept and not repeated (so a run can be resumed, or the
# benchmarks run one at a time: SEEDS 0 skips a benchmark).
set -euo pipefail
out=${1:?OUT}
seeds_kuhn=${2:?SEEDS_KUHN}
seeds_goof=${3:?SEEDS_GOOF}
sim=${4:-sim}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
runs="$out/runs.csv"
[ -f "$runs" ] || echo "benchmark,method,seed,estimate,low,high,games,stop,truth,covered,abs_error" >"$runs"

# spec BENCH METHOD SEED -> a spec file
spec() {
  local bench=$1 method=$2 seed=$3 f="$work/$1-$2-$3.toml"
  if [ "$bench" = kuhn ]; then
    sed -e "s/^seed = 1/seed = $seed/" -e "s/^method = \"root\"/method = \"$method\"/" \
      -e 's/^verify = 100000/verify = 0/' "$here/kuhn-komi.toml" >"$f"
    case $method in
      grid) sed -i -e 's/^tolerance = 0.002/points = 501/' -e 's/^games = 1000000/games = 100000000/' "$f" ;;
      ntbea) sed -i -e 's/^tolerance = 0.002/points = 501/' "$f" ;;
    esac
  else
    sed -e "s/^seed = 1/seed = $seed/" -e "s/^method = \"root\"/method = \"$method\"/" \
      -e 's/^verify = 100000/verify = 0/' "$here/goofspiel-balance-planted.toml" >"$f"
    case $method in
      grid) sed -i -e 's/^tolerance = 0.05/points = 401/' -e 's/^games = 2000000/games = 100000000/' "$f" ;;
      ntbea) sed -i -e 's/^tolerance = 0.05/points = 401/' "$f" ;;
    esac
  fi
  echo "$f"
}

run() {
  local bench=$1 method=$2 seed=$3 truth step
  if [ "$bench" = kuhn ]; then truth=0.0555555556; step=0.002; else truth=3; step=0.05; fi
  local f d="$work/out-$bench-$method-$seed"
  if grep -q "^$bench,$method,$seed," "$runs"; then return; fi
  f=$(spec "$bench" "$method" "$seed")
  "$sim" balance "$f" --out "$d" >/dev/null 2>&1
  # parameter,setting,estimate,low,high,confidence,games,stop,...
  tail -n 1 "$d/recommendation.csv" | awk -F, -v b="$bench" -v m="$method" -v s="$seed" \
    -v t="$truth" -v step="$step" '{
      e = $3; lo = $4; hi = $5; err = e - t; if (err < 0) err = -err;
      if (m == "ntbea") cov = (err <= step + 1e-9) ? 1 : 0;
      else cov = (lo <= t && t <= hi) ? 1 : 0;
      printf "%s,%s,%s,%.6f,%s,%s,%s,%s,%s,%d,%.6f\n", b, m, s, e, lo, hi, $7, $8, t, cov, err
    }' >>"$runs"
}

for seed in $(seq 1 "$seeds_kuhn"); do
  for m in root grid ntbea; do run kuhn "$m" "$seed"; done
done
for seed in $(seq 1 "$seeds_goof"); do
  for m in root grid ntbea; do run goofspiel "$m" "$seed"; done
done

# Per benchmark and method: runs, coverage, mean games, mean interval width (root and
# grid), mean absolute error of the estimate.
awk -F, 'NR > 1 {
    k = $1 "," $2; n[k]++; c[k] += $10; g[k] += $7; a[k] += $11;
    if ($5 != "") w[k] += $6 - $5
  } END {
    print "benchmark,method,runs,coverage,mean_games,mean_width,mean_abs_error"
    for (k in n) {
      split(k, p, ",");
      width = (p[2] == "ntbea") ? "" : sprintf("%.6f", w[k] / n[k]);
      printf "%s,%d,%.3f,%.0f,%s,%.6f\n", k, n[k], c[k] / n[k], g[k] / n[k], width, a[k] / n[k]
    }
  }' "$runs" | (read -r h; echo "$h"; sort) >"$out/summary.csv"
cat "$out/summary.csv"
