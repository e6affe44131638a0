#!/usr/bin/env python3
"""Compares two builds of the generated app (see generate.py and measure.py) by running their executables in
the same interleaved rounds, so that the machine's load and its slow and fast periods fall on both alike.

One run of measure.py can move by more than a change does (back-to-back runs of one build have given 1.075x to
1.123x for Macros/Code), so a change is judged here: both builds' medians and ratios to their own Code, and the
median of each round's Macros/Code ratio, which pairs runs made moments apart. CPU time (user + system) from
wait4, as in measure.py. Copy each build's bin directory aside first (the executables and their .so files: they
find their libraries through $ORIGIN).

  compare.py BEFORE_BIN_DIR AFTER_BIN_DIR [ROUNDS]
"""
import os
import statistics
import subprocess
import sys

builds = {"before": sys.argv[1], "after": sys.argv[2]}
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 201
variants = ["Code", "Macros", "C", "C20"]
runs = [(build, variant) for build in builds for variant in variants]


def cpu_ms(build, variant):
    """CPU time of one run; stops the comparison when the app fails."""
    process = subprocess.Popen([os.path.join(builds[build], variant)])
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"compare: {build} {variant} failed with status {status}")
    return (usage.ru_utime + usage.ru_stime) * 1000


times = {key: [] for key in runs}
for key in runs:  # warm the page cache; not measured
    cpu_ms(*key)
for r in range(rounds):
    for key in runs[r % len(runs):] + runs[:r % len(runs)]:
        times[key].append(cpu_ms(*key))

print(f"{rounds} interleaved rounds, CPU median per run and ratio to the same build's Code")
for build in builds:
    code = statistics.median(times[(build, "Code")])
    cells = [f"{v} {statistics.median(times[(build, v)]):.2f} ms ({statistics.median(times[(build, v)]) / code:.3f}x)"
             for v in variants]
    per_round = statistics.median(m / c for m, c in zip(times[(build, "Macros")], times[(build, "Code")]))
    print(f"{build:6}  " + "  ".join(cells) + f"  per-round Macros/Code median {per_round:.3f}x")
