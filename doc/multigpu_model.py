#!/usr/bin/env python3
"""The efficiency model of doc/multigpu.md: heat's mgpu stage at P GPUs, from one GPU's
measured step and the measured cost of moving a halo.  Run from the top of the tree:

    python3 doc/multigpu_model.py

Inputs, and where each comes from:
  mgpu's step at one rank, medium and large deck (the APOD tables of
  doc/results/2026-11-24-h200-trace/at-0f6f292/, compute_seconds_per_step: the step and the
  statistics as the host waited for them); a straight line through the two gives a fixed
  cost per step F and a cost per cell b;
  the sweep alone on 8192x8192 (kernels-large.json of at-29f6e36, queued), which hides the
  halo exchange when it is longer;
  the halo: a row of 8192 floats sent each way between two H200s over NVLink in 16 us (the
  single-process NCCL probe of 2026-11-23 on the two-GPU machine);
  the statistics: per step one MPI_Gather of the moments and one MPI_Reduce of the histogram
  (and every 10 steps one of the zones), each a tree of ceil(log2 P) levels; ALPHA_NODE and
  ALPHA_NET below are assumed latencies per level, not measured here.
"""
import json, math, os

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RES = os.path.join(TOP, "doc", "results", "2026-11-24-h200-trace")
HALO_US = 16.0           # measured: a row each way, two H200s over NVLink
ALPHA_NODE = 2.0         # assumed: one MPI tree level between GPUs of one host (us)
ALPHA_NET = 5.0          # assumed: one level between hosts (us)
GPUS_PER_HOST = 8
COLLECTIVES = 2.1        # per step: gather + reduce, and a tenth of a zone reduce


def step_us(deck):
    t = json.load(open(os.path.join(RES, "at-0f6f292", "table-%s.json" % deck)))
    row = next(s for s in t["stages"] if s["stage"] == "mgpu")
    nx, ny = t["params"]["size"]
    return 1e6 * row["compute_seconds_per_step"], nx * ny / 1e6


def sweep_us():
    k = json.load(open(os.path.join(RES, "at-29f6e36", "kernels-large.json")))
    return 1e3 * next(r["ms"] for r in k["kernels"] if r["kernel"] == "gpu1-3 sweep + pin")


def reduce_us(p):
    levels = math.ceil(math.log2(p)) if p > 1 else 0
    inside = min(levels, int(math.log2(GPUS_PER_HOST)))
    return COLLECTIVES * (inside * ALPHA_NODE + (levels - inside) * ALPHA_NET)


(t_med, m_med), (t_big, m_big) = step_us("medium"), step_us("large")
b = (t_big - t_med) / (m_big - m_med)      # us per million cells
F = t_med - b * m_med                       # us per step, whatever the size
sweep = sweep_us()
print("inputs: one GPU %.1f us/step at %.1fM cells, %.1f at %.1fM: F = %.1f us, b = %.2f us/Mcell;"
      % (t_med, m_med, t_big, m_big, F, b))
print("        sweep of 8192x8192 %.1f us; halo %.0f us; tree level %.0f us (host), %.0f (network)"
      % (sweep, HALO_US, ALPHA_NODE, ALPHA_NET))
print("%5s  %-34s  %-34s" % ("GPUs", "weak: 8192x8192 a GPU", "strong: 8192x8192 in all"))
for p in (1, 2, 8, 64, 512):
    # Weak: every rank has 8192x8192 and at most two neighbours; the halo
    # hides under the interior sweep if that is the longer.
    weak = t_big + reduce_us(p) + (max(0.0, HALO_US - sweep) if p > 1 else 0.0)
    # Strong: the cells are shared out; F is paid whole by every rank.
    strong = F + b * m_big / p + reduce_us(p) + (max(0.0, HALO_US - sweep / p) if p > 1 else 0.0)
    print("%5d  %8.1f us/step, efficiency %5.1f%%   %8.1f us/step, efficiency %5.1f%%"
          % (p, weak, 100 * t_big / weak, strong, 100 * t_big / (p * strong)))
