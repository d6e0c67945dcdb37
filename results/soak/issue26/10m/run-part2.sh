#!/bin/sh
# Issue 26 10M soak lanes, part 2: session of 2026-11-28 09:35 UTC, main 38c19a7 binary.
# Conventions of results/soak/issue26/10m/run.sh. Continues part 1 with --from; stopped by
# SIGINT before the session ends if unfinished; the report then names the --from command.
set -u
soak() { name=$1; shift
  /usr/bin/time -f "%e" -o "$name.time" nice -n 19 ./sim-38c19a7 soak --threads 1 --seed 1 \
    --out "$name.toml" "$@" > "$name.txt" 2> "$name.log"
  echo "$name: exit $?" >> exit-codes.txt; }
case "$1" in
a)
  soak daimyo-random-part2 --game daimyo --mix random -n 3842720 --from 5857280 --check-every 1024 --save-every 8192
  soak daimyo-greedy-random --game daimyo --mix greedy-random -n 200000 --check-every 1024 --save-every 8192
  soak daimyo-greedy --game daimyo --mix greedy -n 100000 --check-every 1024 --save-every 8192
  soak qax-greedy-random --game qax --mix greedy-random --variant max_rounds=30 -n 200000 --check-every 256 --save-every 4096
  soak qax-greedy --game qax --mix greedy --variant max_rounds=30 -n 100000 --check-every 256 --save-every 4096 ;;
b)
  soak qax-random-part2 --game qax --mix random --variant max_rounds=30 -n 8295072 --from 1404928 --check-every 256 --save-every 4096 ;;
esac
