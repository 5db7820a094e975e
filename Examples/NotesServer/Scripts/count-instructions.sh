#!/usr/bin/env bash
# The container's cost per request in instructions, which load on a shared machine does not change:
# the release server runs under callgrind, a client sends the same requests to /notes (request
# scopes) and /hand/notes (wired by hand) one at a time on one keep-alive connection, and callgrind's
# counters are zeroed before and dumped after each batch (vgdb monitor commands), so each dump holds
# the instructions the server ran (every thread: NIO, the task pool, GRDB's queues) for that batch.
# Needs valgrind (apt-get install -y valgrind) and python3.
#
#   Examples/NotesServer/Scripts/count-instructions.sh              # 4 rounds of 500 requests per batch
#   REQUESTS=200 ROUNDS=2 Examples/NotesServer/Scripts/count-instructions.sh
#   KEEP=/tmp/notes-callgrind Examples/NotesServer/Scripts/count-instructions.sh   # keep the dumps
#   CACHE_SIM=1 Examples/NotesServer/Scripts/count-instructions.sh   # also simulated cache misses
#
# With CACHE_SIM=1, callgrind also simulates this machine's caches and the summary gives, for each
# side, first-level instruction (I1mr) and data (D1mr, D1mw) misses per request, and last-level ones
# (ILmr, DLmr, DLmw): the container's code evicts the server's own from a 32 KiB instruction cache,
# a cost instructions do not show. (One request at a time leaves the last level warm: its misses
# are few here; the benchmarks' `--cold` counts them for a request that finds it cold.)
set -euo pipefail
cd "$(dirname "$0")/.."

REQUESTS=${REQUESTS:-500}
ROUNDS=${ROUNDS:-4}
PORT=${PORT:-8090}
HOST=127.0.0.1

swift build -c release --product NotesServer >/dev/null
data=$(mktemp -d)
dumps=${KEEP:-$(mktemp -d)}
mkdir -p "$dumps"
rm -f "$dumps"/callgrind.out*
# Two workarounds for valgrind 3.19 (Debian 12), neither of which changes the code measured:
# - it cannot read the DWARF 5 debug information Swift 6.3 emits, so it runs a copy without it
#   (the symbol table stays: the profile still names every function);
# - its rt_sigsuspend handler writes to the signal mask it is given, and libdispatch's main-queue
#   thread passes a `static const` one (read-only memory): valgrind crashes when an async `main`
#   starts. A preloaded `sigsuspend` passes the kernel a copy instead.
tools=$(mktemp -d)
strip --strip-debug -o "$tools/NotesServer" .build/release/NotesServer
cat > "$tools/sigsuspend.c" <<'C'
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, sizeof(unsigned long));
}
C
"${CC:-cc}" -shared -fPIC -O2 -o "$tools/sigsuspend.so" "$tools/sigsuspend.c"
# No maintenance ticks during the run: a checkpoint would land in whichever batch was running.
# This machine's caches (32 KiB instruction and 48 KiB data first level, 2 MiB last level), as the
# benchmarks' `Scripts/instruction-counts.sh --cold` simulates them.
cache_sim=(); [ -n "${CACHE_SIM:-}" ] && cache_sim=(--cache-sim=yes --I1=32768,8,64 --D1=49152,12,64 --LL=2097152,16,64)
LD_PRELOAD="$tools/sigsuspend.so" valgrind --tool=callgrind "${cache_sim[@]}" --callgrind-out-file="$dumps/callgrind.out" \
    "$tools/NotesServer" --data-dir "$data" --port "$PORT" --log-level warning \
    --maintenance-interval 100000 2>"$dumps/valgrind.log" &
server=$!
cleanup() {
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$data" "$tools"
    [ -n "${KEEP:-}" ] || rm -rf "$dumps"
}
trap cleanup EXIT
for _ in $(seq 300); do
    curl -fs "http://$HOST:$PORT/notes" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || { cat "$dumps/valgrind.log" >&2; exit 1; }
    sleep 0.5
done

# requests PATH METHOD COUNT: COUNT requests on one keep-alive connection, each answer read whole.
requests() {
    python3 - "$HOST" "$PORT" "$@" <<'PY'
import http.client, json, sys, uuid
host, port, path, method, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
connection = http.client.HTTPConnection(host, port)
prefix = uuid.uuid4().hex[:8]
for index in range(count):
    if method == "POST":
        body = json.dumps({"title": f"count {prefix} {index}"})
        connection.request("POST", path, body, {"content-type": "application/json"})
    else:
        connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    if response.status >= 300:
        sys.exit(f"{method} {path}: {response.status}")
connection.close()
PY
}

id=$(curl -fs -X POST "http://$HOST:$PORT/notes" -H 'content-type: application/json' \
    -d '{"title": "counted", "body": "a note the GET batches read"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
# Warm up: every path once through its first-time work (caches, lazy metadata, the pool's readers).
for path in "/notes/$id" "/hand/notes/$id"; do requests "$path" GET 200; done
for path in /notes /hand/notes; do requests "$path" POST 200; done

batch() { # name path method
    vgdb --pid="$server" zero >/dev/null 2>&1
    requests "$2" "$3" "$REQUESTS"
    vgdb --pid="$server" dump "$1" >/dev/null 2>&1
}
for round in $(seq "$ROUNDS"); do
    if ((round % 2)); then order="scoped hand"; else order="hand scoped"; fi
    for side in $order; do
        prefix=""; [ "$side" = hand ] && prefix="/hand"
        batch "GET-$side-$round" "$prefix/notes/$id" GET
    done
    for side in $order; do
        prefix=""; [ "$side" = hand ] && prefix="/hand"
        batch "POST-$side-$round" "$prefix/notes" POST
    done
done

python3 - "$dumps" "$REQUESTS" <<'PY'
import glob, re, statistics, sys
directory, requests = sys.argv[1], int(sys.argv[2])
batches, events = {}, ["Ir"]
for path in glob.glob(f"{directory}/callgrind.out.*"):
    text = open(path, errors="replace").read()
    trigger = re.search(r"^desc: Trigger: dump (\S+)", text, re.M)
    totals = re.search(r"^(?:summary|totals): ([\d ]+)$", text, re.M)
    if trigger and totals:
        events = re.search(r"^events: (.*)$", text, re.M).group(1).split()
        what, side, round_ = trigger.group(1).split("-")
        counts = [int(count) / requests for count in totals.group(1).split()]
        batches.setdefault(what, {}).setdefault(side, []).append(counts)
print(f"instructions per request, {requests} requests per batch (every server thread):")
for what, sides in batches.items():
    scoped, hand = (statistics.median(batch[0] for batch in sides[side]) for side in ("scoped", "hand"))
    print(f"  {what:4} request scope {scoped:9.0f}  (batches: {', '.join(f'{x[0]:.0f}' for x in sides['scoped'])})")
    print(f"  {what:4} hand-wired    {hand:9.0f}  (batches: {', '.join(f'{x[0]:.0f}' for x in sides['hand'])})")
    print(f"  {what:4} the container's cost: {scoped - hand:+.0f} instructions a request, {(scoped / hand - 1) * 100:+.2f}%")
    for index, event in enumerate(events):
        if event in ("I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"):
            scoped, hand = (statistics.median(batch[index] for batch in sides[side]) for side in ("scoped", "hand"))
            print(f"  {what:4} {event} misses: request scope {scoped:7.0f}, hand-wired {hand:7.0f}, {scoped - hand:+.0f} a request")
PY

# Where the container's instructions go: for the first GET batch through request scopes, each
# Injector function's cost per request including what it calls (so nested ones overlap), with its
# calls per request. Async functions are left out: callgrind splits them at each suspension.
python3 - "$dumps" "$REQUESTS" <<'PY'
import collections, glob, re, subprocess, sys
directory, requests = sys.argv[1], int(sys.argv[2])
path = next(p for p in sorted(glob.glob(f"{directory}/callgrind.out.*"))
            if re.search(r"^desc: Trigger: dump GET-scoped-", open(p, errors="replace").read(4096), re.M))
names, own, calls, counts = {}, collections.Counter(), collections.Counter(), collections.Counter()
function = callee = pending = None
for line in open(path, errors="replace"):
    match = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
    if match:
        kind, number, name = match.groups()
        if name:
            names[number] = name.strip()
        if kind == "fn":
            function = names[number]
        else:
            callee = names[number]
    elif line.startswith("calls="):
        pending = int(line.split("=")[1].split()[0])
    elif line[:1].isdigit() or line[:1] in "+-*":
        fields = line.split()
        if len(fields) >= 2:
            if pending is None:
                own[function] += int(fields[1])
            else:
                calls[function] += int(fields[1]) if callee != function else 0
                counts[callee] += pending
                pending = None
mangled = sorted(set(names.values()))
demangled = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(mangled),
                           capture_output=True, text=True).stdout.split("\n")
injector = re.compile(r"^(specialized )?(static )?(LifetimeScope|Container|ResolutionContext|DisposalBag|InstanceStore"
                      r"|InstanceGates|Resolver|Provider|SharedObjects|ScopeValues|weakReferenceable|isSameInstance)\b")
rows = collections.defaultdict(lambda: [0, 0])
for name, readable in zip(mangled, demangled):
    if injector.search(readable) and not re.search(r"Ya|T[QY]\d+_", name):  # not async
        rows[readable][0] += own[name] + calls[name]
        rows[readable][1] += counts[name]
print(f"\nInjector functions in {path.split('/')[-1]}, per request (including their callees; nested ones overlap):")
for readable, (cost, count) in sorted(rows.items(), key=lambda row: -row[1][0])[:24]:
    if cost / requests >= 200:
        print(f"  {cost / requests:8.0f}  x{count / requests:4.1f}  {readable[:140]}")
PY
