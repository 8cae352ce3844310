#!/usr/bin/env python3
"""Print one Markdown table from several bench/out/results*.json files.

Usage: bench/summarize.py RESULTS.json...

One row per (results file, command): the code measured, the command, mean
± standard deviation and min (ms), MiB/s, ratio to `innochecksum FILE` of the
same run, user / system CPU (ms), peak RSS (MiB) and its anonymous /
file-backed split, and the machine's CPU use during the timing.  The
innochecksum rows of every run are kept: they are that run's baseline.
"""
import json
import sys


def mib(kb):
    return "?" if kb is None else "%.1f" % (kb / 1024)


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    print("| run | code | command | mean ± σ (ms) | min (ms) | MiB/s | × innochecksum "
          "| user / sys (ms) | peak RSS (MiB) | anon / file (MiB) | CPU busy |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for path in paths:
        d = json.load(open(path))
        run = path.rsplit("/", 1)[-1].replace("results-", "").replace(".json", "")
        code = d["versions"].get("code", "?")
        busy = d["machine"].get("cpu_busy_pct_during_timing")
        for r in d["results"]:
            print("| %s | %s | `%s` | %.1f ± %.1f | %.1f | %.0f | %.2f | %.0f / %.0f | %.1f | %s / %s | %s%% |" % (
                run, code.split(" (")[0], r["command"], r["mean_s"] * 1e3, r["stddev_s"] * 1e3,
                r["min_s"] * 1e3, r["mib_per_s"], r["ratio_to_innochecksum"],
                r["user_s"] * 1e3, r["system_s"] * 1e3, r["max_rss_kb"] / 1024,
                mib(r.get("peak_rss_anon_kb_sampled")), mib(r.get("peak_rss_file_kb_sampled")),
                busy))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
