#!/usr/bin/env python3
"""The step's device time in a run against the kernels alone (apod bench --kernels),
per step, in microseconds, from the files in at-29f6e36/.  Run from this directory:

    python3 compare.py
"""
import json, os, statistics

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "at-29f6e36")
ROW = {"gpu2": "gpu1-3 sweep + pin", "gpu3": "gpu1-3 sweep + pin",
       "gpu4": "gpu4 fused sweep + statistics"}


def load(name):
    with open(os.path.join(HERE, name)) as f:
        return json.load(f)


def kernel(deck, traced, stage):
    k = load("kernels-%s%s.json" % ("trace-" if traced else "", deck))
    row = next(r for r in k["kernels"] if r["kernel"] == ROW[stage])
    return 1e3 * row["ms"], 1e3 * row.get("busy_ms", float("nan"))


def per_step(deck, traced, stage, key):
    vals = []
    for rep in (1, 2, 3):
        r = load("%s-%s-%s-%d.json" % ("trace" if traced else "run", deck, stage, rep))
        vals.append(1e6 * r[key]["genTimeStep"] / r["params"]["steps"])
    return min(vals), max(vals)


print("%-6s %-5s | %-34s | %s" % ("deck", "stage", "untraced: span / kernels queued", "traced: busy / bench busy"))
for deck in ("medium", "large"):
    for stage in ("gpu2", "gpu3", "gpu4"):
        q, _ = kernel(deck, False, stage)
        _, qb = kernel(deck, True, stage)
        s0, s1 = per_step(deck, False, stage, "device_seconds")
        b0, b1 = per_step(deck, True, stage, "device_busy_seconds")
        print("%-6s %-5s | %6.1f-%6.1f / %6.1f %+4.0f%%..%+3.0f%% | %6.2f-%6.2f / %6.2f %+5.1f%%..%+5.1f%%" % (
            deck, stage, s0, s1, q, 100 * (s0 / q - 1), 100 * (s1 / q - 1),
            b0, b1, qb, 100 * (b0 / qb - 1), 100 * (b1 / qb - 1)))
