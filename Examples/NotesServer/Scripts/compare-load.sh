#!/usr/bin/env bash
# Load run on loopback, bounded in time: the same handlers reached through Injector's request scopes
# (/notes) and wired by hand (/hand/notes), against one release build of the server, in one run,
# interleaved round by round so both see the same machine. Needs wrk (apt-get install -y wrk).
#
#   Examples/NotesServer/Scripts/compare-load.sh            # 5 rounds of 10 s per side and per endpoint
#   ROUNDS=3 DURATION=5s Examples/NotesServer/Scripts/compare-load.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-16}
THREADS=${THREADS:-1}
PORT=${PORT:-8089}
HOST=127.0.0.1

swift build -c release --product NotesServer >/dev/null
data=$(mktemp -d)
.build/release/NotesServer --data-dir "$data" --port "$PORT" --log-level warning &
server=$!
trap 'kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"' EXIT
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
post_script=$(mktemp --suffix=.lua)
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

run() { # label path [script]
    local out
    if [ -n "${3:-}" ]; then
        out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$3" "http://$HOST:$PORT$2")
    else
        out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "http://$HOST:$PORT$2")
    fi
    local rps p99 non2xx
    rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
    p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
    non2xx=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
    printf '%-8s %-9s %12s %10s %s\n' "$1" "$4" "$rps" "$p99" "${non2xx:+non-2xx: $non2xx}"
}

echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS rounds, server pid $server"
wrk -t1 -c4 -d2s "http://$HOST:$PORT/notes/$id" >/dev/null
wrk -t1 -c4 -d2s "http://$HOST:$PORT/hand/notes/$id" >/dev/null
printf '%-8s %-9s %12s %10s\n' endpoint side 'requests/s' p99
for round in $(seq "$ROUNDS"); do
    # Alternate which side goes first, so neither always runs on a warmer machine.
    if (( round % 2 )); then order="scoped hand"; else order="hand scoped"; fi
    for side in $order; do
        prefix=""; [ "$side" = hand ] && prefix="/hand"
        run GET "$prefix/notes/$id" "" "$side"
    done
    for side in $order; do
        prefix=""; [ "$side" = hand ] && prefix="/hand"
        run POST "$prefix/notes" "$post_script" "$side"
    done
done
rm -f "$post_script"
