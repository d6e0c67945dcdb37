#!/bin/sh
SIM=${SIM:-target/release/sim}
OUT=results/soak/issue26
soak() { name=$1; shift; /usr/bin/time -f "%e" -o "$OUT/$name.time" nice -n 10 "$SIM" soak --threads 1 --seed 1 --out "$OUT/$name.toml" "$@" > "$OUT/$name.txt" 2> "$OUT/$name.log"; echo "$name: exit $?" >> "$OUT/exit-codes.txt"; }
case "$1" in
lane1)
 soak daxu-random --game daxu --mix random -n 600000 --check-every 32 --save-every 512
 soak daxu-greedy --game daxu --mix greedy -n 20000
 soak dunhuang-random --game dunhuang --mix random -n 400000 --check-every 256 --save-every 4096
 soak dunhuang-greedy --game dunhuang --mix greedy -n 20000 --check-every 256 --save-every 4096
 ;;
lane2)
 soak daimyo-random --game daimyo --mix random -n 12000 --check-every 1024 --save-every 8192
 soak daimyo-greedy --game daimyo --mix greedy -n 2000 --check-every 256 --save-every 4096
 soak qax-random --game qax --mix random --variant max_rounds=30 -n 4000 --check-every 256 --save-every 4096
 soak qax-greedy-random --game qax --mix greedy-random -n 400 --check-every 256 --save-every 4096
 ;;
esac
