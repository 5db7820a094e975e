#!/usr/bin/env python3
"""Interleaved closed-loop load: two sides of one server in phases of a fraction of a second.

wrk measures one side at a time, so a round compares runs seconds apart, and on a shared host the
throughput drifts by several percent from second to second: one round's ratio spread over ±10% in
MEASUREMENTS.md's round 15. This client keeps CONNECTIONS keep-alive connections busy (each sends
its next request when the last one's answer arrives, as wrk does) and switches all of them between
side A and side B every PHASE_MS milliseconds, in blocks of four phases A B B A. Both sides of a
block see the same second of the host; a block's ratio is A's answers over B's, each answer counted
in the phase its request was sent in.

It prints the ratio over all blocks, with a 95% interval from resampling the blocks, each side's
requests/s, and the spread of one block's ratio. The first block warms up and the last, cut short,
is dropped. At a phase's start the connections' requests of the phase before are still in flight:
about CONNECTIONS answers of a phase's (a few percent at 100 ms) count for the side before, which
draws the ratio towards 1 by that fraction.

usage: interleaved-load.py [--post] [--phase-ms 100] [--connections 16] HOST PORT SECONDS PATH_A PATH_B
"""
import argparse
import random
import selectors
import socket
import statistics
import sys
import time

PATTERN = (0, 1, 1, 0)  # a block's phases: A B B A


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("seconds", type=float)
    parser.add_argument("path_a")
    parser.add_argument("path_b")
    parser.add_argument("--post", action="store_true", help="POST a note with a unique title, not GET")
    parser.add_argument("--phase-ms", type=float, default=100)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--label", default="", help="printed before the summary, instead of the paths")
    options = parser.parse_args()
    counts, failures = run(options)
    if failures:
        sys.exit(f"{options.label}: {failures} answers were not 2xx")
    summarise(options, counts)


def run(options):
    """Sends requests for `options.seconds`; returns the answers counted by phase, and how many were not 2xx."""
    paths = (options.path_a, options.path_b)
    phase = options.phase_ms / 1000
    prefix = f"{random.randrange(10**9)}"
    serial = 0

    def request(side):
        nonlocal serial
        path = paths[side]
        if not options.post:
            return f"GET {path} HTTP/1.1\r\nHost: {options.host}\r\n\r\n".encode()
        serial += 1
        body = f'{{"title": "interleaved {prefix}-{serial}"}}'.encode()
        head = (f"POST {path} HTTP/1.1\r\nHost: {options.host}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n")
        return head.encode() + body

    selector = selectors.DefaultSelector()
    connections = []
    for _ in range(options.connections):
        try:
            sock = socket.create_connection((options.host, options.port))
        except OSError as error:
            sys.exit(f"cannot connect to {options.host}:{options.port}: {error}")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(False)
        connection = {"socket": sock, "buffer": b"", "phase": 0}
        connections.append(connection)
        selector.register(sock, selectors.EVENT_READ, connection)

    start = time.monotonic()
    end = start + options.seconds
    counts = {}
    failures = 0

    def send(connection):
        index = int((time.monotonic() - start) / phase)
        connection["phase"] = index
        try:
            connection["socket"].sendall(request(PATTERN[index % 4]))
        except OSError as error:
            sys.exit(f"a connection failed: {error}")

    for connection in connections:
        send(connection)
    while time.monotonic() < end:
        for key, _ in selector.select(timeout=0.5):
            connection = key.data
            try:
                data = connection["socket"].recv(65536)
            except OSError as error:
                sys.exit(f"a connection failed: {error}")
            if not data:
                sys.exit("the server closed a connection")
            connection["buffer"] += data
            while (answer := take_answer(connection)) is not None:
                if not 200 <= answer < 300:
                    failures += 1
                counts[connection["phase"]] = counts.get(connection["phase"], 0) + 1
                send(connection)
    for connection in connections:
        connection["socket"].close()
    blocks = int(options.seconds / phase) // 4  # the last may be cut short by the end
    return {index: n for index, n in counts.items() if 4 <= index < 4 * (blocks - 1)}, failures


def take_answer(connection):
    """The status of the first whole answer in the connection's buffer, which it removes; None if there is none yet."""
    buffer = connection["buffer"]
    head_end = buffer.find(b"\r\n\r\n")
    if head_end < 0:
        return None
    head = buffer[:head_end].decode("latin-1").split("\r\n")
    length = 0
    for line in head[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
        elif name.strip().lower() == "transfer-encoding":
            sys.exit(f"an answer came with transfer-encoding {value.strip()}; this client reads content-length bodies only")
    total = head_end + 4 + length
    if len(buffer) < total:
        return None
    connection["buffer"] = buffer[total:]
    return int(head[0].split(" ", 2)[1])


def summarise(options, counts):
    blocks = []
    for block in sorted({index // 4 for index in counts}):
        phases = [4 * block + i for i in range(4)]
        if all(index in counts for index in phases):
            a = sum(counts[index] for index in phases if PATTERN[index % 4] == 0)
            b = sum(counts[index] for index in phases if PATTERN[index % 4] == 1)
            blocks.append((a, b))
    if len(blocks) < 10:
        sys.exit(f"{options.label}: only {len(blocks)} whole blocks; run for longer")
    ratio = sum(a for a, _ in blocks) / sum(b for _, b in blocks)
    rng = random.Random(1)
    resampled = sorted(
        sum(a for a, _ in sample) / sum(b for _, b in sample)
        for sample in ([rng.choice(blocks) for _ in blocks] for _ in range(2000))
    )
    low, high = resampled[50], resampled[1949]
    spread = statistics.stdev(a / b for a, b in blocks)
    seconds = len(blocks) * 2 * options.phase_ms / 1000  # each side's time
    rate_a = sum(a for a, _ in blocks) / seconds
    rate_b = sum(b for _, b in blocks) / seconds
    print(f"{options.label or f'{options.path_a} / {options.path_b}: '}throughput ratio {ratio:.4f} ({(ratio - 1) * 100:+.2f}%),"
          f" 95% interval {(low - 1) * 100:+.2f}% to {(high - 1) * 100:+.2f}%;"
          f" {rate_a:.0f} and {rate_b:.0f} requests/s; {len(blocks)} blocks of 4 x {options.phase_ms:g} ms,"
          f" one block's ratio ±{spread * 100:.1f}% (sd)")


if __name__ == "__main__":
    main()
