#!/usr/bin/env bash
# Load run on loopback, bounded in time: the same handlers reached through Injector's request scopes
# (/notes) and wired by hand (/hand/notes), against one release build of the server, in one run.
# Needs wrk (apt-get install -y wrk) and python3 (for the summary). Besides requests/s and p99, it
# reports the server's CPU time per request (user and system, from /proc/PID/stat over each run).
#
# So that the two sides see the same machine:
# - the server runs on one core and wrk on the other (taskset), so they do not take turns on a core;
# - the sides alternate round by round (ABBA: scoped first in odd rounds, hand-wired first in even
#   ones), so a warmer cache, a growing table or a busier machine does not favour one of them;
# - the summary gives each side's median, and the per-round ratio scoped / hand-wired, whose median
#   is the figure: both runs of a round are seconds apart.
#
# SIDES names the sides to run: `scoped` (/notes), `hand` (/hand/notes), `scope-only`
# (/scope-only/notes: hand-wired, inside a request scope that resolves nothing, which tells the
# scope's open and close from the resolve), and `calibrate-N` for N in 250, 500, 1000, 2000
# (/calibrate/N/notes: hand-wired, plus N ns of CPU time a request in a busy loop), which tell what
# a given amount of work on the handler's path costs this server. With more than two sides, the
# order also rotates every two rounds. Each side is compared with `hand`.
#
#   Examples/NotesServer/Scripts/compare-load.sh                   # 10 rounds of 10 s per side and endpoint
#   ROUNDS=3 DURATION=5s Examples/NotesServer/Scripts/compare-load.sh
#   SERVER_CPU=0 CLIENT_CPU=1 Examples/NotesServer/Scripts/compare-load.sh
#   SIDES="hand calibrate-250 calibrate-500 calibrate-1000 calibrate-2000 scoped" \
#       ROUNDS=8 DURATION=6s Examples/NotesServer/Scripts/compare-load.sh
#
# CLIENT=interleaved runs Scripts/interleaved-load.py instead of wrk: for each endpoint and each side
# after the first `hand`, one run of DURATION (default 180s) in which all connections switch
# between that side and `hand` every PHASE_MS milliseconds (default 100), so that both see the same
# second of the host. Its ratio is known to a few tenths of a percent where wrk's rounds spread
# over ±10%. SIDES="hand hand" compares the hand-wired side with itself: the ratio must be 1.
#
#   CLIENT=interleaved Examples/NotesServer/Scripts/compare-load.sh
#   CLIENT=interleaved SIDES="hand hand calibrate-1000 scoped" DURATION=60s Examples/NotesServer/Scripts/compare-load.sh
set -euo pipefail
cd "$(dirname "$0")/.."

CLIENT=${CLIENT:-wrk}
ROUNDS=${ROUNDS:-10}
DURATION=${DURATION:-$([ "$CLIENT" = interleaved ] && echo 180s || echo 10s)}
PHASE_MS=${PHASE_MS:-100}
CONNECTIONS=${CONNECTIONS:-16}
THREADS=${THREADS:-1}
PORT=${PORT:-8089}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
read -r -a sides <<<"${SIDES:-scoped hand}"
HOST=127.0.0.1

prefix() { # side -> the path prefix of its routes
    case "$1" in
    scoped) echo "" ;;
    hand) echo "/hand" ;;
    scope-only) echo "/scope-only" ;;
    calibrate-*) echo "/calibrate/${1#calibrate-}" ;;
    *) echo "unknown side $1 (scoped, hand, scope-only, calibrate-N)" >&2; exit 2 ;;
    esac
}
for side in "${sides[@]}"; do prefix "$side" >/dev/null; done
[[ " ${sides[*]} " == *" hand "* ]] || { echo "SIDES must include hand, which the others are compared with" >&2; exit 2; }
case "$CLIENT" in wrk | interleaved) ;; *) echo "CLIENT is wrk or interleaved, not $CLIENT" >&2; exit 2 ;; esac
if [ "$CLIENT" = interleaved ] && ! [[ "$DURATION" =~ ^[0-9]+s$ ]]; then
    echo "with CLIENT=interleaved, DURATION is in seconds (180s), not $DURATION" >&2; exit 2
fi

swift build -c release --product NotesServer >/dev/null
data=$(mktemp -d)
work=$(mktemp -d)
taskset -c "$SERVER_CPU" .build/release/NotesServer --data-dir "$data" --port "$PORT" --log-level warning &
server=$!
trap 'kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data" "$work"' EXIT
for _ in $(seq 50); do
    curl -fs "http://$HOST:$PORT/notes" >/dev/null 2>&1 && break
    sleep 0.2
done

id=$(curl -fs -X POST "http://$HOST:$PORT/notes" -H 'content-type: application/json' \
    -d '{"title": "load", "body": "a note the load test reads"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
for i in $(seq 20); do
    curl -fs -X POST "http://$HOST:$PORT/notes" -H 'content-type: application/json' -d "{\"title\": \"seed $i\"}" >/dev/null
done

# The POST script makes each title unique: per-thread prefix and counter.
post_script="$work/post.lua"
cat > "$post_script" <<'LUA'
local counter = 0
local prefix = tostring(math.random(1, 1e9)) .. "-" .. tostring({}):sub(8)
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
    counter = counter + 1
    return wrk.format(nil, nil, nil, '{"title": "load ' .. prefix .. '-' .. counter .. '"}')
end
LUA

# The server's CPU time so far (user and system, in clock ticks), from /proc.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }

load() { # endpoint side round path [script]
    local out rps p99 non2xx requests before after cpu
    before=$(cpu_ticks)
    out=$(taskset -c "$CLIENT_CPU" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency ${5:+-s "$5"} \
        "http://$HOST:$PORT$4")
    after=$(cpu_ticks)
    rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
    requests=$(awk '/requests in/ {print $1}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
    if [ -n "$non2xx" ]; then
        echo "$1 $2 round $3: $non2xx answers were not 2xx" >&2
        exit 1
    fi
    # Microseconds of server CPU per request.
    cpu=$(awk -v ticks=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$requests" \
        'BEGIN {printf "%.1f", ticks / hz * 1e6 / n}')
    printf '%-5s %-14s %5s %12s %10s %12s\n' "$1" "$2" "$3" "$rps" "$p99" "$cpu"
    echo "$1 $2 $3 $rps $p99 $cpu" >> "$work/results"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$CLIENT" = interleaved ]; then
    echo "interleaved, $CONNECTIONS connections on CPU $CLIENT_CPU, the server (pid $server) on CPU $SERVER_CPU," \
        "phases of $PHASE_MS ms, $DURATION a side and endpoint"
    taskset -c "$CLIENT_CPU" wrk -t1 -c4 -d3s "http://$HOST:$PORT/notes/$id" >/dev/null  # warm-up
    interleave() { # label path_a path_b [--post]
        local before started
        before=$(cpu_ticks)
        started=$(date +%s.%N)
        taskset -c "$CLIENT_CPU" python3 Scripts/interleaved-load.py ${4:-} --connections "$CONNECTIONS" \
            --phase-ms "$PHASE_MS" --label "$1" "$HOST" "$PORT" "${DURATION%s}" "$2" "$3"
        awk -v ticks=$(($(cpu_ticks) - before)) -v hz="$(getconf CLK_TCK)" -v started="$started" \
            -v ended="$(date +%s.%N)" \
            'BEGIN {printf "  (the server was busy %.0f%% of the time)\n", ticks / hz / (ended - started) * 100}'
    }
    compared=()
    seen_hand=false
    for side in "${sides[@]}"; do
        if [ "$side" = hand ] && ! $seen_hand; then seen_hand=true; continue; fi
        compared+=("$side")
    done
    for side in "${compared[@]}"; do
        interleave "GET  $side / hand: " "$(prefix "$side")/notes/$id" "/hand/notes/$id"
        interleave "POST $side / hand: " "$(prefix "$side")/notes" "/hand/notes" --post
    done
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi
echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION on CPU $CLIENT_CPU, the server (pid $server) on CPU $SERVER_CPU, $ROUNDS rounds"
# Warm up every side of both endpoints.
for side in "${sides[@]}"; do
    taskset -c "$CLIENT_CPU" wrk -t1 -c4 -d3s "http://$HOST:$PORT$(prefix "$side")/notes/$id" >/dev/null
    taskset -c "$CLIENT_CPU" wrk -t1 -c4 -d3s -s "$post_script" "http://$HOST:$PORT$(prefix "$side")/notes" >/dev/null
done
printf '%-5s %-14s %5s %12s %10s %12s\n' what side round 'requests/s' p99 'CPU µs/req'
count=${#sides[@]}
for round in $(seq "$ROUNDS"); do
    # Odd rounds in the given order, even ones reversed; with more than two sides, also shifted
    # by one every two rounds, so that every side takes every place.
    shift_by=0; ((count > 2)) && shift_by=$(((round - 1) / 2))
    order=()
    for ((k = 0; k < count; k++)); do
        if ((round % 2)); then place=$k; else place=$((count - 1 - k)); fi
        order+=("${sides[$(((place + shift_by) % count))]}")
    done
    for side in "${order[@]}"; do
        load GET "$side" "$round" "$(prefix "$side")/notes/$id"
    done
    for side in "${order[@]}"; do
        load POST "$side" "$round" "$(prefix "$side")/notes" "$post_script"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$work/results" <<'PY'
import statistics, sys

def ms(text):  # wrk prints latencies as 812.00us, 7.32ms or 1.02s
    for unit, factor in (("us", 0.001), ("ms", 1.0), ("s", 1000.0)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor
    raise ValueError(text)

runs = {}
for line in open(sys.argv[1]):
    what, side, round_, rps, p99, cpu = line.split()
    runs.setdefault(what, {}).setdefault(side, {})[int(round_)] = (float(rps), ms(p99), float(cpu))
print()
print("| endpoint | side | requests/s, median (min–max) | p99, median | server CPU per request, median |")
print("|---|---|---|---|---|")

def label(side):
    if side == "scoped":
        return "request scope"
    if side == "hand":
        return "hand-wired"
    if side == "scope-only":
        return "scope, nothing resolved"
    return f"hand-wired + {side.split('-')[1]} ns"

for what, sides in runs.items():
    for side in sides:
        rps, p99, cpu = zip(*sides[side].values())
        print(f"| {what} | {label(side)} | {statistics.median(rps):.0f} ({min(rps):.0f}–{max(rps):.0f})"
              f" | {statistics.median(p99):.2f} ms | {statistics.median(cpu):.1f} µs |")
print()
for what, sides in runs.items():
    for side in sides:
        if side == "hand":
            continue
        rounds = sorted(sides[side])
        ratio = {name: [sides[side][r][i] / sides["hand"][r][i] for r in rounds]
                 for i, name in enumerate(("throughput", "p99", "cpu"))}
        median = {name: statistics.median(values) for name, values in ratio.items()}
        print(f"{what}: {side} / hand-wired throughput per round: {', '.join(f'{x:.3f}' for x in ratio['throughput'])}")
        print(f"{what}: {side}: throughput median ratio {median['throughput']:.3f}"
              f" ({(median['throughput'] - 1) * 100:+.1f}%),"
              f" {sum(1 for x in ratio['throughput'] if x >= 0.97)} of {len(rounds)} rounds within 3%;"
              f" p99 {median['p99']:.3f}; CPU per request {median['cpu']:.3f} ({(median['cpu'] - 1) * 100:+.1f}%)")
PY
