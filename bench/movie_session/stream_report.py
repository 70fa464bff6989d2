#!/usr/bin/env python3
"""Summary of one live stream (stream_vs_motioncor3.sh): movies/s, latency from "file complete"
to "result written", and memory after movie 10 against after the last.

Usage: stream_report.py frost|motioncor3 LABEL COMPLETE_TXT RECORDS_JSONL|OUTPUT_DIR MEMORY_TXT
"""
import glob
import json
import os
import sys


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))]


def main():
    kind, label, complete_txt, results, memory_txt = sys.argv[1:6]
    complete = {}
    for line in open(complete_txt):
        name, t = line.split()
        complete[name] = float(t)
    ready, claimed = {}, {}
    if kind == "frost":
        if os.path.exists(results):
            for line in open(results):
                r = json.loads(line)
                if r.get("status") == "done":
                    name = os.path.splitext(os.path.basename(r["movie"]))[0]
                    ready[name] = r["ready_at"]
                    claimed[name] = r["check_at"]
    else:  # MotionCor3: the newest of a movie's output files
        for name in complete:
            times = [os.path.getmtime(p) for p in glob.glob(os.path.join(results, name + "*.mrc"))]
            if times:
                ready[name] = max(times)
    names = [n for n in complete if n in ready]
    if not names:
        print("%s: nothing finished of %d movies" % (label, len(complete)))
        return
    latency = [ready[n] - complete[n] for n in names]
    order = sorted(ready[n] for n in names)
    span = order[-1] - min(complete.values())
    gaps = [b - a for a, b in zip(order, order[1:])]
    print("%s: %d of %d done; %.2f movies/s from the first file complete to the last result (%.1f s), "
          "result-to-result median %.3f s; latency complete -> result median %.3f s, p95 %.3f s, max %.3f s"
          % (label, len(names), len(complete), len(names) / span, span,
             percentile(gaps, 0.5) if gaps else 0.0, percentile(latency, 0.5), percentile(latency, 0.95),
             max(latency)))
    if claimed:  # without the wait in the queue: from the claim (found complete) to the record
        own = [ready[n] - claimed[n] for n in names]
        print("%s: claim -> record median %.3f s, p95 %.3f s" % (label, percentile(own, 0.5), percentile(own, 0.95)))
    samples = []
    if os.path.exists(memory_txt):
        for line in open(memory_txt):
            parts = line.split()
            if len(parts) >= 3 and parts[1] != "0":
                samples.append((float(parts[0]), float(parts[1]) / 1024, float(parts[2] or 0)))
    if samples:
        def rss_at(t):  # the first sample at or after t (else the last)
            for s in samples:
                if s[0] >= t:
                    return s[1]
            return samples[-1][1]
        def rss_over(t0, t1):  # the median of the samples between two results
            inside = sorted(s[1] for s in samples if t0 <= s[0] <= t1)
            return inside[len(inside) // 2] if inside else rss_at(t0)
        tenth = order[min(9, len(order) - 1)]
        a, b = rss_at(tenth), rss_at(order[-1])
        k = len(order)
        if k >= 30:
            early, late = rss_over(order[4], order[14]), rss_over(order[k - 11], order[-1])
            print("%s: median RSS over movies 5-15 %.0f MiB, over the last 10 %.0f MiB (%+.1f %%)"
                  % (label, early, late, 100.0 * (late - early) / early))
            tenths = [rss_over(order[i * k // 10], order[min(k - 1, (i + 1) * k // 10)]) for i in range(10)]
            print("%s: median RSS per tenth of the movies (MiB): %s; after the last, idle %.0f"
                  % (label, " ".join("%.0f" % t for t in tenths), samples[-1][1]))
        print("%s: RSS after movie 10 %.0f MiB, after movie %d %.0f MiB (%+.1f %%); peak RSS %.0f MiB, "
              "peak device memory %.0f MiB (all GPUs, %d samples)"
              % (label, a, len(order), b, 100.0 * (b - a) / a, max(s[1] for s in samples),
                 max(s[2] for s in samples), len(samples)))


if __name__ == "__main__":
    main()
