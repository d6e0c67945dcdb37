#!/bin/bash
# Submits a sharded tournament to Slurm: an array of COUNT shard tasks
# (tournament.sbatch) and a merge job (merge.sbatch) that runs once every task succeeded.
#
#   SHARED=/shared/run1 COUNT=16 SIM=/shared/bin/sim GAME=dunhuang AGENTS=greedy,random \
#       GAMES=10000000 SEED=7 deploy/slurm/submit.sh [extra sbatch options, e.g. -p batch]
#
# Prints the two job ids. See the README section "Sharded runs on Slurm or Kubernetes".
set -euo pipefail

: "${SHARED:?set SHARED to a directory on shared storage}"
: "${COUNT:?set COUNT, the number of shards}"
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$SHARED"
export SHARED COUNT
array=$(sbatch --parsable --array=0-$((COUNT - 1)) --export=ALL --chdir="$SHARED" "$@" \
    "$here/tournament.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
    --export=ALL --chdir="$SHARED" "$@" "$here/merge.sbatch")
echo "array job $array ($COUNT shards), merge job $merge"
