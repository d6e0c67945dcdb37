#!/bin/sh
# The soak runs of results/soak/ (issue 12 item 5), in two lanes run side by side:
#   results/soak/run.sh lane1 & results/soak/run.sh lane2 &
# Each run writes <game>-<mix>.toml (the report with its command), .txt (what sim soak
# printed) and .log (progress lines). SIM is the release binary (default target/release/sim).
# Every run is one thread at nice 10: the machine is shared.
set -u
SIM=${SIM:-target/release/sim}
OUT=results/soak
soak() { # name, then sim soak arguments
    name=$1; shift
    nice -n 10 "$SIM" soak --threads 1 --seed 1 --out "$OUT/$name.toml" "$@" \
        > "$OUT/$name.txt" 2> "$OUT/$name.log"
    echo "$name: exit $?" >> "$OUT/exit-codes.txt"
}
case "$1" in
lane1)
    soak daxu-random      --game daxu --mix random        -n 9700000 --check-every 32 --save-every 512
    soak daxu-greedy-random --game daxu --mix greedy-random -n 200000
    soak daxu-greedy      --game daxu --mix greedy        -n 100000
    soak kuhn             --game kuhn                     -n 10000000
    soak race-random      --game race --mix random        -n 1000000
    soak race-greedy      --game race --mix greedy-random,greedy -n 30000
    soak goofspiel-random --game goofspiel --mix random   -n 1000000
    soak goofspiel-greedy --game goofspiel --mix greedy-random,greedy -n 3000
    soak dunhuang-random  --game dunhuang --mix random    -n 10000000 --check-every 256 --save-every 4096
    ;;
lane2)
    soak daimyo-random    --game daimyo --mix random      -n 1000000 --check-every 1024 --save-every 8192
    soak daimyo-greedy-random --game daimyo --mix greedy-random -n 20000 --check-every 256 --save-every 4096
    soak daimyo-greedy    --game daimyo --mix greedy      -n 5000 --check-every 256 --save-every 4096
    soak dunhuang-greedy-random --game dunhuang --mix greedy-random -n 100000 --check-every 256 --save-every 4096
    soak dunhuang-greedy  --game dunhuang --mix greedy    -n 20000 --check-every 256 --save-every 4096
    soak qax-greedy-random --game qax --mix greedy-random -n 20000 --check-every 256 --save-every 4096
    soak qax-random-r30   --game qax --mix random --variant max_rounds=30 -n 1000000 --check-every 256 --save-every 4096
    ;;
*) echo "usage: $0 lane1|lane2" >&2; exit 2 ;;
esac
