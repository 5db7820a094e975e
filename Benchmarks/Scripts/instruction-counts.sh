#!/usr/bin/env bash
# Instructions per operation (callgrind) for each benchmark case: Injector beside direct construction,
# closure wiring and Swinject. Deterministic where wall time is not, so it is the number to compare
# before and after an engine change. Prints Markdown on standard output, progress on standard error.
#
#   Benchmarks/Scripts/instruction-counts.sh [--iterations N] [--annotate] [--footprint] [--cold N] [--keep DIR]
#       [CASE ...]
#
#   CASE          case letters; default A B C D E F H J (G is about threads; I has its own sides and
#                 its own notes in Benchmarks/README.md)
#   --iterations  operations per batch (default 1000); see "How" below
#   --annotate    also show where Injector's instructions go in each case, from one more run that
#                 collects inside Injector's batch only (`--toggle-collect`): the top functions by
#                 exclusive cost per operation, and Injector's own functions by inclusive cost
#   --footprint   also count each contender's code footprint: the 64-byte lines of machine code an
#                 operation runs every time, from one more run per contender that collects inside its
#                 batch only and records each instruction's count (`--dump-instr=yes`). In a server,
#                 where the rest of a request evicts them, each line is a cache miss per operation:
#                 there the footprint, more than the instruction count, is the container's cost.
#                 A second table says how Injector's lines are packed: the 16-byte blocks of code
#                 it runs (a quarter as many lines, packed together) and the runs they form
#   --cold N      also count each contender's cache misses in operations run cold (the benchmark's
#                 `--cold`: the caches emptied before each operation, as a server's other work empties
#                 them between requests), under callgrind's simulation of this machine's caches
#                 (32 KiB first-level instruction cache, 48 KiB data, 2 MiB second level): the misses
#                 of the second, last simulated level an operation, for code, data read and data
#                 written; from runs of N and 2N operations (EVICT_MB defaults to 3 here)
#   --keep DIR    keep the callgrind files in DIR (default: a temporary directory, removed at the end)
#
# How. Each case runs twice under callgrind, alone (`--filter "D. its title"`: the two D cases' batches
# are the same code, which the compiler folds into one symbol), with `--iterations N` and with
# `--iterations 2N` (batches of a fixed size, never repeated after a preemption). Every contender's
# batch is a closure made by a function of its own (`TransientCase.injectorBatch(_:)`,
# `….directBatch()`, …), so its inclusive cost can be read from the call graph. The difference between the two runs, divided by the
# operations it adds ((1 + repetitions) × N: the allocation-counting batch and any first-time work
# cancel out), is the cost of one operation, its loop and checksum included (a few instructions, the
# same for every contender). Case F does not depend on N: its registries' `register`, `finish` and
# `resolve` are counted by their calls, so registration is (register + finishRegistration) ÷
# registrations, over every N the case runs.
#
# Needs valgrind (apt-get install -y valgrind), python3 and the Swift toolchain (`swift demangle`).
set -euo pipefail

package="$(cd "$(dirname "$0")/.." && pwd)"
command -v valgrind > /dev/null || { echo "valgrind is missing: apt-get install -y valgrind" >&2; exit 1; }
case " $* " in *" -h "* | *" --help "*) sed -n '2,41p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
swift build -c release --package-path "$package" >&2
binary="$(swift build -c release --package-path "$package" --show-bin-path)/InjectorBenchmarks"

exec python3 - "$binary" "$@" << 'PYTHON'
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

binary, arguments = sys.argv[1], sys.argv[2:]
iterations, annotate, footprint, cold, keep, cases = 1000, False, False, None, None, []


def positive(option):
    """The positive whole number that follows `option`."""
    value = arguments.pop(0) if arguments else ""
    if not value.isdigit() or int(value) == 0:
        sys.exit(f"{option} needs a positive whole number")
    return int(value)


while arguments:
    argument = arguments.pop(0)
    if argument == "--iterations":
        iterations = positive(argument)
    elif argument == "--annotate":
        annotate = True
    elif argument == "--footprint":
        footprint = True
    elif argument == "--cold":
        cold = positive(argument)
    elif argument == "--keep":
        if not arguments:
            sys.exit("--keep needs a directory")
        keep = arguments.pop(0)
    elif argument.startswith("-"):
        sys.exit(f"unknown option: {argument}")
    else:
        cases.append(argument.upper())
cases = cases or list("ABCDEFHJ")
out = keep or tempfile.mkdtemp()
os.makedirs(out, exist_ok=True)
CONTENDERS = ["injector", "direct", "closureWired", "swinject"]


def profile(selection, count, name, *options):
    """Runs the cases `--filter selection` selects under callgrind; returns (callgrind file, stdout)."""
    print(f"callgrind: {selection}, --iterations {count} {' '.join(options)}", file=sys.stderr)
    path = f"{out}/{name}.callgrind"
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={path}", "--compress-strings=no",
         "--compress-pos=no", *options, binary, "--filter", selection, "--iterations", str(count)],
        capture_output=True, text=True,
    )
    if run.returncode != 0:
        sys.exit(f"{selection} failed under callgrind:\n{run.stderr[-3000:]}")
    return path, run.stdout


def call_graph(path):
    """Inclusive cost and call count of every function (summed over the arcs that call it), and its
    exclusive cost (the cost lines of its own)."""
    inclusive, calls, exclusive = defaultdict(int), defaultdict(int), defaultdict(int)
    function = callee = pending = None
    with open(path) as lines:
        for line in lines:
            if line.startswith("fn="):
                function = line[3:].strip()
            elif line.startswith("cfn="):
                callee = line[4:].strip()
            elif line.startswith("calls="):
                pending = int(line[6:].split()[0])
            elif line[:1].isdigit() or line[:1] in "+-*":
                cost = int(line.split()[1])
                if pending is None:
                    exclusive[function] += cost
                elif callee != function:  # a recursive call is already inside the caller's cost
                    inclusive[callee] += cost
                    calls[callee] += pending
                pending = None
    return inclusive, calls, exclusive


CACHES = ["--cache-sim=yes", "--I1=32768,8,64", "--D1=49152,12,64", "--LL=2097152,16,64"]
MISSES = ["ILmr", "DLmr", "DLmw"]
# The most misses a cold operation of Injector may take, by case letter (Benchmarks/README.md, "Case
# J and issue 12's target"): issue 12's 3% of the server example's throughput, as misses.
COLD_TARGETS = {"J": 365}


def cold_misses(selection, count, name):
    """Each contender's last-level misses (code, data read, data written) over `count` cold
    operations of the case `--filter selection` selects: the inclusive events of its batch closure."""
    print(f"callgrind, caches simulated: {selection}, --cold {count}", file=sys.stderr)
    path = f"{out}/{name}.callgrind"
    environment = dict(os.environ, EVICT_MB=os.environ.get("EVICT_MB", "3"))
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={path}", "--compress-strings=no",
         "--compress-pos=no", *CACHES, binary, "--filter", selection, "--cold", str(count)],
        capture_output=True, text=True, env=environment,
    )
    if run.returncode == 2 and "--cold runs the cases that time one operation" in run.stderr:
        return None
    if run.returncode != 0:
        sys.exit(f"{selection} failed under callgrind:\n{run.stderr[-3000:]}")
    events, columns, totals = [], None, defaultdict(lambda: [0] * len(MISSES))
    callee = pending = None
    with open(path) as lines:
        for line in lines:
            if line.startswith("events:"):
                events = line.split()[1:]
                columns = [events.index(event) for event in MISSES]
            elif line.startswith("cfn="):
                callee = line[4:].strip()
            elif line.startswith("calls="):
                pending = True
            elif pending and (line[:1].isdigit() or line[:1] in "+-*"):
                for contender in CONTENDERS:
                    # The batch closure itself, not a closure inside it (whose misses it includes).
                    if re.search(rf"V\d+{contender}Batch\S*fU_$", callee) and callee.count("fU_") == 1:
                        values = line.split()[1:]
                        for slot, column in enumerate(columns):
                            totals[contender][slot] += int(values[column]) if column < len(values) else 0
                pending = None
    return totals


def code_lines(path, operations):
    """The 64-byte lines of code holding an instruction that ran at least `operations` times, in a
    file written with `--dump-instr=yes --compress-pos=no` (positions: instruction address, then
    line; a `calls=` line's cost line is the call's, not an instruction's)."""
    counts, image, after_call = defaultdict(int), None, False
    with open(path) as lines:
        for line in lines:
            if after_call:
                after_call = False
            elif line.startswith("ob="):
                image = line[3:].strip()
            elif line.startswith("calls="):
                after_call = True
            elif line.startswith("0x"):
                address, _, cost = line.split()[:3]
                counts[(image, int(address, 16))] += int(cost)
    return {(image, address) for (image, address), cost in counts.items() if cost >= operations}


def packing(hot):
    """How `hot` instruction addresses are packed: the 16-byte blocks holding one (the lines they
    would fill, packed together: about a quarter as many), and the runs of such blocks that follow
    one another. Each run's first and last lines are partly other code, so the more runs, the more
    lines the same code spans."""
    blocks = sorted({(image, address // 16) for image, address in hot})
    follows = lambda previous, block: previous is not None and block == (previous[0], previous[1] + 1)
    runs = sum(1 for previous, block in zip([None] + blocks, blocks) if not follows(previous, block))
    return len(blocks), runs


def short(name):
    """A C++ runtime name without its return type, template arguments and parameters."""
    if "::" not in name:
        return name
    depth, kept = 0, ""
    for character in name.replace("(anonymous namespace)", "{anonymous}"):
        depth += character == "<"
        if depth == 0:
            kept += character
        depth -= character == ">" and depth > 0
    return kept.split("(")[0].split(" ")[-1]


def demangle(names):
    names = sorted(set(names))
    text = subprocess.run(
        ["swift", "demangle", "--simplified"], input="\n".join(names) + "\n", capture_output=True, text=True,
        check=True,
    ).stdout
    return dict(zip(names, text.splitlines()))


BATCH = re.compile(r"^(?:partial apply for )?closure #1 in static (\w+)\.(\w+)Batch\(")
REGISTRY = [
    re.compile(r"^(?P<who>Injector|Swinject|Direct|ClosureWired)Registry\.(?P<what>register|finish|resolve)\b"),
    re.compile(r"^protocol witness for Registry\.(?P<what>register|finish|resolve)\b.* in conformance "
               r"(?P<who>Injector|Swinject|Direct|ClosureWired)Registry"),
]


def batches(path):
    """{contender: inclusive cost of its batch closure}, the outermost when nested. One case runs, so
    a batch named after another case type is this one's, folded by the compiler into that symbol."""
    inclusive, _, _ = call_graph(path)
    result = {}
    for mangled, name in demangle(name for name in inclusive if "Batch" in name).items():
        match = BATCH.match(name)
        if match:
            result[match.group(2)] = max(result.get(match.group(2), 0), inclusive[mangled])
    return result


# [(letter, title, type)] of every case, from the tool itself.
listing = subprocess.run([binary, "--list"], capture_output=True, text=True, check=True).stdout
CASES = [tuple(line.split("\t")) for line in listing.splitlines()]
unknown = [letter for letter in cases if letter not in {case[0] for case in CASES}]
if unknown:
    sys.exit(f"no case lettered {', '.join(unknown)}")


def number(pattern, text, what):
    match = re.search(pattern, text)
    if not match:
        sys.exit(f"no {what} in the benchmark's output")
    return int(match.group(1).replace(",", ""))


def count(value):
    return f"{value:,.0f}" if value is not None else "–"


def ratio(a, b):
    return f"{a / b:.2f}×" if a and b else "–"


# The resolve core's budgets (Benchmarks/README.md, "Budgets"): Injector ÷ direct construction, or
# instructions per operation, by the start of a case's label.
BUDGETS = [("A. transient, declared", "ratio", 1.3), ("B. transient graph of 4, declared", "ratio", 1.3),
           ("A.", "ratio", 1.6), ("B.", "ratio", 1.6), ("C.", "ratio", 1.8), ("D. diamond, all", "ratio", 2.2),
           ("E.", "ratio", 2.0), ("F. first resolve", "ratio", 3.0), ("F. register", "count", 1200),
           ("H.", "count", 3800)]


def budget(label, injector, direct):
    for prefix, kind, limit in BUDGETS:
        if label.startswith(prefix) and injector:
            if kind == "ratio" and direct:
                return f"≤ {limit:.1f}× {'✓' if injector / direct <= limit else '✗'}"
            if kind == "count":
                return f"≤ {limit:,} {'✓' if injector <= limit else '✗'}"
    return "–"


rows, annotations, footprints, packings, colds = [], [], [], [], []
for letter in cases:
    if letter == "F":
        if cold:
            print("F: not a case of one operation, no cold row", file=sys.stderr)
        path, _ = profile("F", iterations, "F")
        inclusive, calls, _ = call_graph(path)
        cost, called = defaultdict(int), defaultdict(int)
        for mangled, name in demangle(name for name in inclusive if "Registry" in name).items():
            for pattern in REGISTRY:
                match = pattern.match(name)
                if match:
                    key = (match["who"][0].lower() + match["who"][1:], match["what"])
                    if inclusive[mangled] > cost[key]:
                        cost[key], called[key] = inclusive[mangled], calls[mangled]
        register, resolve = {}, {}
        for contender in CONTENDERS:
            if contender != "direct" and called[(contender, "register")]:
                register[contender] = (cost[(contender, "register")] + cost[(contender, "finish")]) / called[
                    (contender, "register")]
            if called[(contender, "resolve")]:
                resolve[contender] = cost[(contender, "resolve")] / called[(contender, "resolve")]
        rows.append((f"F. register + finishRegistration(), per service ({called[('injector', 'register')]:,})",
                     register))
        rows.append((f"F. first resolve ({called[('injector', 'resolve')]:,})", resolve))
        continue

    for _, title, case_type in [case for case in CASES if case[0] == letter]:
        selection = f"{letter}. {title}"
        first, stdout = profile(selection, iterations, f"{case_type}-1")
        second, _ = profile(selection, 2 * iterations, f"{case_type}-2")
        first_costs, second_costs = batches(first), batches(second)
        repetitions = number(r"(\d+) repetitions? of batches", stdout, "repetitions")
        added = (1 + repetitions) * iterations
        values = {}
        for contender in CONTENDERS:
            if contender in first_costs and contender in second_costs:
                values[contender] = (second_costs[contender] - first_costs[contender]) / added
        rows.append((selection, values))

        if footprint:
            inclusive, _, _ = call_graph(first)
            lines_per_operation = {}
            for contender in CONTENDERS:
                symbols = [name for name in inclusive if re.search(rf"V\d+{contender}Batch\S*fU_$", name)]
                if len(symbols) != 1:
                    continue
                path, stdout = profile(
                    selection, iterations, f"{case_type}-{contender}-footprint", f"--toggle-collect={symbols[0]}",
                    "--dump-instr=yes",
                )
                operations = added + number(r"extra untimed batch \(of ([\d,]+)\)", stdout, "allocation batch")
                hot = code_lines(path, operations)
                lines_per_operation[contender] = len({(image, address // 64) for image, address in hot})
                if contender == "injector":
                    packings.append((selection, lines_per_operation[contender], *packing(hot)))
            footprints.append((selection, lines_per_operation))

        first_misses = cold and cold_misses(selection, cold, f"{case_type}-cold-1")
        if cold and first_misses is None:
            print(f"{selection}: not a case of one operation, no cold row", file=sys.stderr)
        elif cold:
            second_misses = cold_misses(selection, 2 * cold, f"{case_type}-cold-2")
            colds.append((selection, {
                contender: [(second_misses[contender][slot] - first_misses[contender][slot]) / cold
                            for slot in range(len(MISSES))]
                for contender in CONTENDERS if contender in second_misses
            }))

        if annotate:
            # Collect inside Injector's batch closure only: the closure itself (`…fU_`), not its
            # partial-apply forwarder (`…fU_TA`): a pattern matching both turns collection off again
            # inside. Operations in that run: warm-up and timed batches, and the allocation count.
            inclusive, _, _ = call_graph(first)
            symbols = [name for name in inclusive if re.search(r"V13injectorBatch\S*fU_$", name)]
            if len(symbols) != 1:
                annotations.append(f"{selection}: Injector's batch closure not found alone ({symbols})")
                continue
            path, stdout = profile(
                selection, iterations, f"{case_type}-injector", f"--toggle-collect={symbols[0]}"
            )
            operations = added + number(r"extra untimed batch \(of ([\d,]+)\)", stdout, "allocation batch")
            inclusive, calls, exclusive = call_graph(path)
            total = sum(exclusive.values())
            names = demangle(list(exclusive) + list(inclusive))
            top = sorted(exclusive.items(), key=lambda item: -item[1])[:15]
            lines = [f"#### {selection}: Injector, {total / operations:,.0f} instructions per operation",
                     "", "| Instructions per op | Share | Function |", "| ---: | ---: | --- |"]
            lines += [f"| {cost / operations:,.1f} | {100 * cost / total:.1f}% | `{short(names[name])}` |"
                      for name, cost in top]
            engine = sorted((name for name in inclusive if name.startswith("$s8Injector")), key=lambda n: -inclusive[n])
            lines += ["", "| Inclusive per op | Calls per op | Injector's function |", "| ---: | ---: | --- |"]
            lines += [f"| {inclusive[name] / operations:,.0f} | {calls[name] / operations:.1f} | `{names[name]}` |"
                      for name in engine[:12]]
            annotations.append("\n".join(lines))

print(f"Instructions per operation (callgrind; difference of `--iterations {2 * iterations}` and "
      f"`--iterations {iterations}`; case F: per call)\n")
print("| Case | Injector | Direct | Closure-wired | Swinject | Injector ÷ direct | Injector ÷ closure-wired "
      "| Budget |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for label, values in rows:
    injector, direct, closures = (values.get(key) for key in ("injector", "direct", "closureWired"))
    print(f"| {label} | {count(injector)} | {count(direct)} | {count(closures)} | {count(values.get('swinject'))} "
          f"| {ratio(injector, direct)} | {ratio(injector, closures)} | {budget(label, injector, direct)} |")
if footprints:
    print("\nCode footprint per operation (64-byte lines of machine code every operation runs, in the"
          " program and the libraries it calls; `--footprint`)\n")
    print("| Case | Injector | Direct | Closure-wired | Swinject | Injector − direct |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, values in footprints:
        injector, direct = values.get("injector"), values.get("direct")
        difference = f"{injector - direct:+,}" if injector is not None and direct is not None else "–"
        print(f"| {label} | {count(injector)} | {count(direct)} | {count(values.get('closureWired'))} "
              f"| {count(values.get('swinject'))} | {difference} |")
if packings:
    print("\nHow Injector's footprint is packed: the 16-byte blocks of code it runs, the lines they would"
          " fill packed together, and the runs of consecutive blocks they form\n")
    print("| Case | Lines | 16-byte blocks | Lines, packed | Runs |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, lines, blocks, runs in packings:
        print(f"| {label} | {lines:,} | {blocks:,} | {(blocks + 3) // 4:,} | {runs:,} |")
if colds:
    print("\nCache misses per cold operation (the caches emptied before each; callgrind's simulation:"
          " misses of its 2 MiB last level, `--cold`)\n")
    print("| Case | Contender | Code | Data read | Data written | Total |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for label, values in colds:
        for contender in CONTENDERS:
            if contender in values:
                code, read, written = values[contender]
                print(f"| {label} | {contender} | {code:,.0f} | {read:,.0f} | {written:,.0f} "
                      f"| {code + read + written:,.0f} |")
    for label, values in colds:
        limit = COLD_TARGETS.get(label.split(".")[0])
        if limit is not None and "injector" in values:
            total = sum(values["injector"])
            print(f"\nTarget, {label.split('.')[0]}: Injector ≤ {limit:,} misses a cold operation: "
                  f"{total:,.0f} {'✓' if total <= limit else '✗'}")
for annotation in annotations:
    print("\n" + annotation)
if keep is None:
    shutil.rmtree(out)
PYTHON
