#!/bin/sh
# The 10-million-game soak of issue 26 (Tests: "a 10-million-game soak per game with random
# and greedy agents after the changes"), one lane at a time in the background:
#   nohup results/soak/issue26/10m/run.sh daxu-dunhuang &
# Per game: 9.7M random + 200k greedy-random + 100k greedy games (the split of the issue-12
# soak, results/soak/run.sh), one thread, nice 19, --seed 1. Each run writes <name>.toml
# (the report with its exact command and counts), .txt (what sim soak printed), .log
# (progress lines), .time (wall seconds); exit-codes.txt the exit codes. A run stopped by
# SIGINT reports the games played and prints the `--from` command that plays the rest.
# SIM is the release binary.
set -u
SIM=${SIM:-target/release/sim}
OUT=results/soak/issue26/10m
soak() { # name, then sim soak arguments
    name=$1; shift
    /usr/bin/time -f "%e" -o "$OUT/$name.time" nice -n 19 "$SIM" soak --threads 1 --seed 1 \
        --out "$OUT/$name.toml" "$@" > "$OUT/$name.txt" 2> "$OUT/$name.log"
    echo "$name: exit $?" >> "$OUT/exit-codes.txt"
}
case "$1" in
daxu-dunhuang)
    soak daxu-random          --game daxu --mix random        -n 9700000 --check-every 32 --save-every 512
    soak daxu-greedy-random   --game daxu --mix greedy-random -n 200000
    soak daxu-greedy          --game daxu --mix greedy        -n 100000
    soak dunhuang-random      --game dunhuang --mix random        -n 9700000 --check-every 256 --save-every 4096
    soak dunhuang-greedy-random --game dunhuang --mix greedy-random -n 200000 --check-every 256 --save-every 4096
    soak dunhuang-greedy      --game dunhuang --mix greedy        -n 100000 --check-every 256 --save-every 4096
    ;;
qax-daimyo)
    soak daimyo-random        --game daimyo --mix random        -n 9700000 --check-every 1024 --save-every 8192
    ;;
*) echo "usage: $0 daxu-dunhuang|qax-daimyo" >&2; exit 2 ;;
esac
