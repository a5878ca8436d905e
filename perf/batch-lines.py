#!/usr/bin/env python3
"""The order consumer's DEBUG batch lines of a service log, summed up: batch sizes and times, the longest waits in
the outbox and on the topic, and each consumer thread's busy time.   perf/batch-lines.py SERVICE_LOG"""
import re, sys, statistics as st
pat = re.compile(r'^(\S+)\s.*\[\s*([^\]]+)\].*settled a batch of (\d+) reservations from \S+-(\d+)@\d+\.\.\d+ in (\d+) ms '
                 r'\(longest waits: (-?\d+) ms in the outbox, (-?\d+) ms on the topic\)')
rows = []
for line in open(sys.argv[1], errors='replace'):
    m = pat.search(line)
    if m:
        rows.append((m.group(1), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5)), int(m.group(6)), int(m.group(7))))
if not rows:
    print("no batch lines"); sys.exit()
def pct(v, p):
    v = sorted(v); return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]
def show(name, v):
    print(f"{name}: p50 {pct(v,50)}, p90 {pct(v,90)}, p99 {pct(v,99)}, max {max(v)}, mean {st.mean(v):.0f}")
print(f"batches {len(rows)}, records {sum(r[2] for r in rows)}")
show("batch size", [r[2] for r in rows])
show("batch ms", [r[4] for r in rows])
show("longest in outbox ms", [r[5] for r in rows])
show("longest on topic ms", [r[6] for r in rows])
threads = {}
for r in rows:
    threads.setdefault(r[1], []).append(r[4])
for t, v in sorted(threads.items()):
    print(f"thread {t}: {len(v)} batches, busy {sum(v)/1000:.1f} s")
