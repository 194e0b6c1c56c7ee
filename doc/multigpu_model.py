#!/usr/bin/env python3
"""The efficiency model of doc/multigpu.md: heat's mgpu stage at P GPUs, from measured terms.
Run from the top of the tree:

    python3 doc/multigpu_model.py [RESULTS]

RESULTS is a folder that doc/results/2026-12-06-heat-mgpu/run.sh filled (default: the one
committed in its first/).  Inputs, and where each comes from:
  T(c): mgpu's step at one rank (genTimeStep + calcStats + calcSummaryData over the steps, host
  clocks, the statistics every step and the zones every tenth) on 2048^2 and 8192^2, from
  RESULTS/mgpu1-*.txt; a straight line through the two gives a fixed cost a step F and a cost a
  cell b;
  the same for mgpu at two ranks where RESULTS has it (mgpu2-*.txt, two GPUs), set beside the
  model's prediction for two;
  HOST_US: the host's time to issue a step at two ranks (the two band launches, the NCCL group,
  the middle launch, the events), 25 us, measured by probe.cu on the two H200s on 2026-11-28
  (doc/results/2026-11-28-h200x2-mgpu/): a step can be no shorter;
  HALO_US: a row each way between two H200s over NVLink, 16 us (single-process NCCL probe,
  2026-11-23); it is hidden while the middle band lasts longer;
  the reductions: one NCCL group (all-gather of the moments, sum of the histograms) and one sum of
  the zones each 128 steps, each a ring or tree of latency COLL_NODE_US inside a host and
  COLL_NET_US per level across hosts.  These two are assumed (not measured here); spread over
  128 steps they are under a microsecond a step at 512 GPUs;
  HALO_NET_US: a halo between hosts, assumed 10 us (one row over InfiniBand), hidden the same way.
"""
import math, os, re, sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "doc", "results", "2026-12-06-heat-mgpu", "first")
HOST_US = 25.0           # measured (probe.cu, two H200s, 2026-11-28)
HALO_US = 16.0           # measured (NCCL probe, two H200s over NVLink, 2026-11-23)
HALO_NET_US = 10.0       # assumed: one row between hosts
COLL_NODE_US = 20.0      # assumed: one NCCL collective among a host's GPUs
COLL_NET_US = 15.0       # assumed: each doubling of the hosts
GPUS_PER_HOST = 8
ROWS = 128               # the rows collected at once (MGPU_DEFER_ROWS)
PHASES = ("genTimeStep", "calcStats", "calcSummaryData")


def step_us(name):
    """A step's microseconds and the millions of cells, from one `apod run` output."""
    text = open(os.path.join(RES, name + ".txt")).read()
    steps = int(re.search(r"\): (\d+) steps", text).group(1))
    nx, ny = map(int, re.search(r"size=(\d+)x(\d+)", text).groups())
    t = sum(float(re.search(r"^\s*%s\s+([0-9.e+-]+)" % p, text, re.M).group(1)) for p in PHASES)
    return 1e6 * t / steps, nx * ny / 1e6


def collect_us(p):
    """The reductions of 128 rows, spread over the 128 steps."""
    if p == 1:
        return 0.0
    hosts = math.ceil(p / GPUS_PER_HOST)
    per = COLL_NODE_US + (COLL_NET_US * math.ceil(math.log2(hosts)) if hosts > 1 else 0.0)
    return 2 * per / ROWS


def halo_us(p):
    return HALO_US if p <= GPUS_PER_HOST else max(HALO_US, HALO_NET_US)


(t_med, m_med), (t_big, m_big) = step_us("mgpu1-2048x2048"), step_us("mgpu1-8192x8192")
b = (t_big - t_med) / (m_big - m_med)      # us per million cells
F = t_med - b * m_med                       # us per step, whatever the size
print("inputs: mgpu at 1 rank %.1f us a step at %.1fM cells, %.1f at %.1fM: F = %.1f us, b = %.2f us/Mcell;"
      % (t_med, m_med, t_big, m_big, F, b))
print("        host issue %.0f us a step; halo %.0f us (NVLink), %.0f (network, assumed); "
      "collectives %.0f us (host), +%.0f a level (network), assumed, every %d steps"
      % (HOST_US, HALO_US, HALO_NET_US, COLL_NODE_US, COLL_NET_US, ROWS))
print("%5s  %-34s  %-34s" % ("GPUs", "weak: 8192x8192 a GPU", "strong: 8192x8192 in all"))
model = {}
for p in (1, 2, 4, 8, 64, 512):
    # Weak: every rank has 8192x8192 and at most two neighbours; the halo
    # hides under the middle band (most of the step) if that is the longer.
    weak = t_big + collect_us(p) + (max(0.0, halo_us(p) - 0.9 * t_big) if p > 1 else 0.0)
    # Strong: the cells are shared out; F is paid whole by every rank, and
    # no step is shorter than the host takes to issue it.
    work = F + b * m_big / p
    strong = max(work, HOST_US if p > 1 else 0.0) + collect_us(p) + \
        (max(0.0, halo_us(p) - 0.9 * (work - F)) if p > 1 else 0.0)
    model[p] = (weak, strong)
    print("%5d  %8.1f us/step, efficiency %5.1f%%   %8.1f us/step, efficiency %5.1f%%"
          % (p, weak, 100 * t_big / weak, strong, 100 * t_big / (p * strong)))
for kind, name, k in (("strong", "mgpu2-8192x8192", 1), ("weak", "mgpu2-weak", 0)):
    if os.path.exists(os.path.join(RES, name + ".txt")):
        t, _ = step_us(name)
        print("measured at 2 GPUs, %s: %.1f us a step (model %.1f)" % (kind, t, model[2][k]))
