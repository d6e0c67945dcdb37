#!/bin/sh
# Issue 26 10M soak lanes, session of 2026-11-28 06:15 UTC, main dc9432e binary (== 7fce08c's code).
# Conventions of results/soak/issue26/10m/run.sh. Stopped by SIGINT before the session ends if
# unfinished; the report then names the --from command for the rest.
set -u
soak() { name=$1; shift
  /usr/bin/time -f "%e" -o "$name.time" nice -n 19 ./sim-dc9432e soak --threads 1 --seed 1 \
    --out "$name.toml" "$@" > "$name.txt" 2> "$name.log"
  echo "$name: exit $?" >> exit-codes.txt; }
case "$1" in
daimyo)
  soak daimyo-random --game daimyo --mix random -n 9700000 --check-every 1024 --save-every 8192
  soak daimyo-greedy-random --game daimyo --mix greedy-random -n 200000 --check-every 1024 --save-every 8192
  soak daimyo-greedy --game daimyo --mix greedy -n 100000 --check-every 1024 --save-every 8192 ;;
qax)
  soak qax-random --game qax --mix random --variant max_rounds=30 -n 9700000 --check-every 256 --save-every 4096 ;;
esac
