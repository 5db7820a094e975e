#!/usr/bin/env bash
# The resolve core's size budgets (issue 39), each judged ✓ or ✗: lines and code lines (no blank
# lines, no comments) of Sources/Injector, lines of Sources/Injector/Resolution (its gates included),
# `@usableFromInline` declarations, and the pairs `duplicates` finds in Sources/Injector (when that
# command is on the PATH). Prints Markdown; exits 0 whatever it finds.
#
#   Benchmarks/Scripts/size-budgets.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

python3 - << 'PYTHON'
import pathlib
import re
import shutil
import subprocess

def swift_files(folder):
    return sorted(pathlib.Path(folder).rglob("*.swift"))

def counts(folder):
    lines = code = 0
    for path in swift_files(folder):
        in_block = False
        for line in path.read_text().splitlines():
            lines += 1
            stripped = line.strip()
            if in_block:
                in_block = "*/" not in stripped
                continue
            if stripped.startswith("/*"):
                in_block = "*/" not in stripped
                continue
            if stripped and not stripped.startswith("//"):
                code += 1
    return lines, code

lines, code = counts("Sources/Injector")
resolution, _ = counts("Sources/Injector/Resolution")
inlinable = sum(len(re.findall(r"@usableFromInline", p.read_text())) for p in swift_files("Sources/Injector"))
pairs = None
if shutil.which("duplicates"):
    output = subprocess.run(["duplicates", "--repo", "Sources/Injector", "--most", "200"],
                            capture_output=True, text=True).stdout
    first = output.splitlines()[0] if output else ""
    match = re.match(r"(\d+) pairs?", first)
    pairs = int(match.group(1)) if match else (0 if first.startswith("no duplicates") else None)

def row(what, value, limit):
    mark = "–" if value is None else ("✓" if value <= limit else "✗")
    shown = "not run" if value is None else f"{value:,}"
    print(f"| {what} | {shown} | ≤ {limit:,} | {mark} |")

print("| Sources/Injector | now | budget | |")
print("| --- | ---: | ---: | --- |")
row("lines", lines, 6000)
row("code lines (no blanks, no comments)", code, 3500)
row("lines of Resolution/ (gates included)", resolution, 1800)
row("`@usableFromInline`", inlinable, 80)
row("pairs `duplicates` finds", pairs, 6)
PYTHON
