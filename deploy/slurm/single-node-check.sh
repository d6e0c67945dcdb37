#!/bin/bash
# Verifies the Slurm path for real on one machine (Debian 12, as root): installs Debian's
# slurm-wlm and munge, writes a single-node slurm.conf, starts munged, slurmctld and
# slurmd, submits a sharded tournament with submit.sh (an array of COUNT shards and a
# dependent merge job), waits for both, then runs the same tournament on one machine
# into the same --out path and compares every file byte for byte (manifest.json aside: it
# records the pid, and the merge's lists its shards). Stops the daemons it started.
#
#   sudo deploy/slurm/single-node-check.sh 2>&1 | tee results/slurm/transcript.txt
#
# Settings: SIM (the sim binary [target/release/sim, else target/debug/sim]), SHARED
# [/tmp/slurm-check], COUNT [4], GAME [daxu], AGENTS [greedy,random], GAMES [20000],
# SEED [7], EXTRA [].
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if [ -z "${SIM:-}" ]; then
    if [ -x "$repo/target/release/sim" ]; then SIM=$repo/target/release/sim; else SIM=$repo/target/debug/sim; fi
fi
SIM=$(readlink -f "$SIM")
export SIM SHARED=${SHARED:-/tmp/slurm-check} COUNT=${COUNT:-4}
export GAME=${GAME:-daxu} AGENTS=${AGENTS:-greedy,random} GAMES=${GAMES:-20000} SEED=${SEED:-7}
export EXTRA=${EXTRA:-}
node=$(hostname -s)

step() { echo; echo "== $(date -u +%H:%M:%S) $*"; }

step "sim: $SIM ($("$SIM" --version))"
step "installing slurm-wlm and munge (Debian packages)"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge >/dev/null
fi
slurmctld -V

step "munge: key and daemon"
[ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
started=()
if ! munge -n >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged
    started+=(munged)
fi
munge -n | unmunge | grep STATUS

step "slurm.conf for one node ($node, $(nproc) CPUs)"
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=simcheck
SlurmctldHost=$node
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
cat /etc/slurm/slurm.conf

stop_daemons() {
    for d in slurmd slurmctld; do
        if [ -f "/run/$d.pid" ]; then kill "$(cat "/run/$d.pid")" 2>/dev/null || true; fi
    done
    for d in "${started[@]}"; do
        if [ "$d" = munged ] && [ -f /run/munge/munged.pid ]; then
            kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
        fi
    done
}
trap stop_daemons EXIT

step "starting slurmctld and slurmd"
slurmctld
slurmd
for _ in $(seq 60); do
    if sinfo -h -o '%T' 2>/dev/null | grep -Eq 'idle|mixed'; then break; fi
    sleep 1
done
sinfo

step "submitting $COUNT shards of: sim tournament --game $GAME --agents $AGENTS -n $GAMES --seed $SEED $EXTRA"
rm -rf "$SHARED"
ids=$("$here/submit.sh")
echo "$ids"
merge_id=${ids##* }
for _ in $(seq 3600); do
    if [ -z "$(squeue -h)" ]; then break; fi
    sleep 2
done
squeue
step "job outputs"
for f in "$SHARED"/sim-*.out; do echo "--- $(basename "$f")"; cat "$f"; done
state=$(scontrol show job "$merge_id" 2>/dev/null | grep -o 'JobState=[A-Z]*' || echo "JobState=(gone)")
echo "merge job $merge_id: $state"
grep -q '"state": "complete"' "$SHARED/merged/manifest.json"

step "the same tournament on one machine, into the same --out"
mv "$SHARED/merged" "$SHARED/merged-by-slurm"
players=()
if [ -n "${PLAYERS:-}" ]; then players=(--players "$PLAYERS"); fi
# shellcheck disable=SC2086
"$SIM" tournament --game "$GAME" --agents "$AGENTS" -n "$GAMES" --seed "$SEED" "${players[@]}" \
    --threads 2 --out "$SHARED/merged" $EXTRA >/dev/null

step "comparing every file (manifest.json aside)"
(cd "$SHARED/merged-by-slurm" && sha256sum -- * | grep -v manifest.json)
if diff -r -x manifest.json "$SHARED/merged-by-slurm" "$SHARED/merged"; then
    echo "IDENTICAL: the Slurm-sharded and merged run equals the single-machine run byte for byte"
else
    echo "DIFFERENT"
    exit 1
fi
step "manifest of the merge"
cat "$SHARED/merged-by-slurm/manifest.json"
