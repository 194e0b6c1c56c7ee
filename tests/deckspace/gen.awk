# Draws decks over the documented range of every key of one workload.
#
# Input: `apod workloads --workload=W` (its table of keys, with the range
# column the deck parser checks).  Variables: w (the workload), seed, count
# (decks to write), dir (where), budget (the most work a deck may ask for, in
# the workload's unit: cell-steps, particle-steps, pair-steps, normal draws),
# cells (heat: the most cells a grid may have).
#
# Each deck mixes the range's edges (lo, hi, the default, 1 and 0 where
# legal), odd sizes, one row or column, one step and the largest that fit
# the budget, with values drawn uniformly or log-uniformly in between.
# Every key the table lists must have a rule here: a key added to a
# workload without one stops the test (exit 3) rather than go unexercised.
# The generator is its own Lehmer RNG (16807, 2^31-1), exact in any awk's
# doubles, so a seed gives the same decks with mawk, gawk or busybox.
BEGIN { S = (seed % 2147483646) + 1; inrows = 0 }
/^key +type +default +range/ { inrows = 1; next }
inrows && NF {
	key = $1
	KEYS[++NKEYS] = key
	if (match($0, /[\[(][-+0-9.e]+, [-+0-9.e]+\]/)) {
		r = substr($0, RSTART, RLENGTH)
		OPEN[key] = substr(r, 1, 1) == "("
		gsub(/[\[\]()]/, "", r)
		split(r, lh, ", ")
		LO[key] = lh[1] + 0
		HI[key] = lh[2] + 0
		HAS[key] = 1
	}
}
END {
	rules["heat"] = "name size steps alpha t_init t_hot t_cold stats_every summary_every snapshot_every zones hist_bins hist_range source sources"
	rules["particles"] = "name n steps dt seed energy_every snapshot_every"
	rules["nbody"] = "name n steps dt eps seed model stats_every energy_every snapshot_every"
	rules["montecarlo"] = "name paths_per_batch batches monitor s0 strike rate sigma maturity seed hist_bins hist_lo hist_hi stats_every"
	if (!(w in rules)) { print "gen.awk: no rules for workload '" w "'" > "/dev/stderr"; exit 3 }
	split(rules[w], known, " ")
	for (k in known) KNOWN[known[k]] = 1
	for (i = 1; i <= NKEYS; i++)
		if (!(KEYS[i] in KNOWN)) {
			print "gen.awk: " w "'s key '" KEYS[i] "' has no rule: add one" > "/dev/stderr"
			exit 3
		}
	for (d = 1; d <= count; d++) {
		file = sprintf("%s/%s-%03d.deck", dir, w, d)
		printf "# %s deck %d of the deck-space test (seed %d)\nname = space%d\n", w, d, seed, d > file
		if (w == "heat") heat()
		else if (w == "particles") particles()
		else if (w == "nbody") nbody()
		else montecarlo()
		close(file)
	}
}

function rnd() { S = (S * 16807) % 2147483647; return S / 2147483647 }
function irand(a, b) { return a + int(rnd() * (b - a + 1)) }
# Log-uniform in [a, b], a >= 1: small sizes as often as large ones.
function lrand(a, b,  x) { x = int(exp(log(a) + rnd() * (log(b + 1) - log(a)))); return x < a ? a : x > b ? b : x }
function min(a, b) { return a < b ? a : b }
function max(a, b) { return a > b ? a : b }
# Numbers in full: awk's default %.6g would print a 32-bit seed as 4.29497e+09.
function put(k, v) { print k " = " (v ~ /[a-z ]/ && v !~ /^[-+0-9.]+e[-+][0-9]+$/ ? v : fmt(v)) > file }
function fmt(v) { return v == int(v) && v < 1e15 && v > -1e15 ? sprintf("%.0f", v) : sprintf("%.9g", v) }
# A real in the key's range: an edge, or uniform, or log-uniform where the
# range spans decades; never an open end.
function real(k,  lo, hi, r) {
	lo = LO[k]; hi = HI[k]; r = rnd()
	if (r < 0.15) return hi
	if (r < 0.3) return OPEN[k] ? (lo == 0 ? 1e-6 * hi : lo * 1.000001) : lo
	if (lo > 0 && hi / lo > 100) return exp(log(lo) + rnd() * (log(hi) - log(lo)))
	if (lo == 0 && OPEN[k] && rnd() < 0.5) return hi * exp(-rnd() * 13)
	return lo + rnd() * (hi - lo) + (OPEN[k] && lo + 0 == lo ? 1e-9 * (hi - lo) : 0)
}
# A schedule key (every K steps): never, every step, never within the run
# (the key's top), past the run, or a divisor-or-not of the steps.
function every(k, steps,  r) {
	r = rnd()
	if (r < 0.15) return 0
	if (r < 0.35) return 1
	if (r < 0.45) return HI[k]
	if (r < 0.55) return steps + 1
	return irand(1, max(1, steps))
}
function seedval(k,  r) { r = rnd(); return r < 0.2 ? LO[k] : r < 0.4 ? HI[k] : irand(0, 2147483646) }
function steps_for(work, per,  r, top) {
	top = max(1, int(budget / max(1, work)))
	top = min(top, per)
	r = rnd()
	return r < 0.15 ? 1 : r < 0.3 ? top : lrand(min(2, top), top)
}

function heat(  r, nx, ny, steps, top, zx, zy, scale, ti, th, tc, ns, i, lo, hi, t) {
	top = HI["size"]
	r = rnd()
	# The first three decks: the smallest grid, the tallest and the widest.
	if (d <= 3) r = d == 1 ? 0 : 2
	if (d == 2) { nx = 3; ny = top }
	else if (d == 3) { nx = top; ny = 3 }
	else if (r < 0.1) { nx = 3; ny = 3 }
	else if (r < 0.2) { nx = rnd() < 0.3 ? top : lrand(3, min(top, cells / 3)); ny = irand(3, 5) }   # one row or a few
	else if (r < 0.3) { ny = rnd() < 0.5 ? top : lrand(3, min(top, cells / 3)); nx = irand(3, 5) }   # one column or a few: past a grid's 65535 blocks down
	else if (r < 0.55) { nx = 4 * lrand(1, int(sqrt(cells) / 4)); ny = lrand(3, int(cells / nx)) }   # gpu4's and gpu5's 16-byte kernels
	else { nx = lrand(3, int(sqrt(cells))); ny = lrand(3, int(cells / nx)) }
	if (ny > top) ny = top
	steps = steps_for(nx * ny, 200)
	put("size", nx "x" ny)
	put("steps", steps)
	put("alpha", real("alpha"))
	r = rnd(); scale = r < 0.3 ? 1 : r < 0.6 ? 100 : HI["t_init"]
	ti = (2 * rnd() - 1) * scale; th = (2 * rnd() - 1) * scale; tc = (2 * rnd() - 1) * scale
	if (rnd() < 0.1) { th = HI["t_hot"]; tc = LO["t_cold"] }
	if (rnd() < 0.05) { th = ti; tc = ti }            # one temperature: the histogram needs hist_range or a heater
	put("t_init", ti); put("t_hot", th); put("t_cold", tc)
	put("stats_every", every("stats_every", steps))
	put("summary_every", every("summary_every", steps))
	put("snapshot_every", every("snapshot_every", steps))
	zx = min(nx, HI["zones"]); zy = min(ny, HI["zones"])
	r = rnd()
	put("zones", (r < 0.3 ? 1 : r < 0.5 ? zx : irand(1, zx)) "x" (r < 0.3 ? 1 : r < 0.5 ? zy : irand(1, zy)))
	r = rnd()
	put("hist_bins", r < 0.15 ? 1 : r < 0.3 ? HI["hist_bins"] : r < 0.4 ? HI["hist_bins"] - 1 : lrand(1, HI["hist_bins"]))
	r = rnd()
	if (r < 0.3) {
		lo = (2 * rnd() - 1) * scale; hi = lo + (rnd() < 0.2 ? 1e-3 : rnd() * 2 * scale + 1e-3)
		put("hist_range", fmt(lo) " " fmt(hi))
	}
	r = rnd()
	if (r < 0.2) put("sources", "none")
	else {
		ns = r < 0.3 ? 16 : irand(1, 3)
		for (i = 0; i < ns; i++) {
			t = (2 * rnd() - 1) * scale
			put("source", fmt(rnd() < 0.1 ? 0 : rnd() < 0.1 ? 1 : rnd()) " " fmt(rnd() < 0.1 ? 1 : rnd()) " " \
			    fmt(rnd() < 0.1 ? 0.5 : rnd() < 0.1 ? 1e-6 : 0.5 * rnd() + 1e-9) " " fmt(t))
		}
	}
}

function particles(  r, n, steps) {
	r = rnd()
	n = r < 0.1 ? 1 : r < 0.2 ? irand(2, 65) : lrand(1, int(budget))
	steps = steps_for(n, 200)
	put("n", n); put("steps", steps)
	put("dt", real("dt"))
	put("seed", seedval("seed"))
	put("energy_every", every("energy_every", steps))
	put("snapshot_every", every("snapshot_every", steps))
}

function nbody(  r, n, steps) {
	r = rnd()
	n = r < 0.1 ? 1 : r < 0.2 ? irand(2, 65) : lrand(1, int(sqrt(budget)))
	steps = steps_for(n * n, 20)
	put("n", n); put("steps", steps)
	put("dt", real("dt"))
	put("eps", real("eps"))
	put("seed", seedval("seed"))
	put("model", rnd() < 0.5 ? "plummer" : "disk")
	put("stats_every", every("stats_every", steps))
	put("energy_every", every("energy_every", steps))
	put("snapshot_every", every("snapshot_every", steps))
}

function montecarlo(  r, paths, batches, monitor, lo, hi, t) {
	r = rnd()
	monitor = r < 0.2 ? 1 : r < 0.3 ? HI["monitor"] : lrand(1, HI["monitor"])
	r = rnd()
	paths = r < 0.1 ? 1 : r < 0.2 ? irand(2, 65) : lrand(1, max(1, int(budget / monitor)))
	batches = steps_for(paths * monitor, 20)
	put("paths_per_batch", paths); put("batches", batches); put("monitor", monitor)
	put("s0", real("s0")); put("strike", real("strike"))
	put("rate", real("rate")); put("sigma", real("sigma")); put("maturity", real("maturity"))
	put("seed", seedval("seed"))
	r = rnd()
	put("hist_bins", r < 0.15 ? 1 : r < 0.3 ? HI["hist_bins"] : lrand(1, HI["hist_bins"]))
	lo = rnd() < 0.3 ? 0 : real("hist_lo"); hi = real("hist_hi")
	if (!(lo < hi)) { t = lo; lo = hi * 0.5; hi = t > hi ? t : hi * 2 }
	if (hi > HI["hist_hi"]) hi = HI["hist_hi"]
	if (!(lo < hi)) lo = 0
	put("hist_lo", lo); put("hist_hi", hi)
	put("stats_every", every("stats_every", batches))
}
