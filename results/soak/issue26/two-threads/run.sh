#!/bin/sh
# Two-thread soak rates (issue 26, round 4): each configuration of ../run.sh with
# --threads 2, stopped by SIGINT after 20 s (the report covers the games played).
SIM=${SIM:-target/release/sim}
OUT=results/soak/issue26/two-threads
soak() { name=$1; shift; timeout -s INT 20 nice -n 19 "$SIM" soak --threads 2 --seed 1 --out "$OUT/$name.toml" "$@" > "$OUT/$name.txt" 2>/dev/null; echo "$name: exit $?" >> "$OUT/exit-codes.txt"; }
soak daxu-random --game daxu --mix random -n 10000000 --check-every 32 --save-every 512
soak daxu-greedy --game daxu --mix greedy -n 10000000
soak dunhuang-random --game dunhuang --mix random -n 10000000 --check-every 256 --save-every 4096
soak dunhuang-greedy --game dunhuang --mix greedy -n 10000000 --check-every 256 --save-every 4096
soak qax-random --game qax --mix random --variant max_rounds=30 -n 10000000 --check-every 256 --save-every 4096
soak qax-greedy --game qax --mix greedy -n 10000000 --check-every 256 --save-every 4096
soak daimyo-random --game daimyo --mix random -n 10000000 --check-every 1024 --save-every 8192
soak daimyo-greedy --game daimyo --mix greedy -n 10000000 --check-every 256 --save-every 4096
