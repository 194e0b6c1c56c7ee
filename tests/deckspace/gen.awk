# Draws decks over the documented range of every key of one workload, from
# its key table alone: no rule here names a workload or a key.
#
# Input: `apod workloads --workload=W --json=FILE` (one key a line: type,
# default, range, choices, and what the key does to a run: "role" steps,
# schedule or size, and "work_exponent" e, a run's declared work growing as
# value^e).  Variables: w (the workload), seed, count (decks to write), dir
# (where), budget (the most work a deck may ask for: the product of its
# keys' value^e, steps included: cell-steps, particle-steps, pair-steps),
# cells (the most a deck may ask of one step, the same product without the
# steps), most_steps (the most steps; default 200).
#
# Each deck mixes every key's edges (lo, hi, the default, 0 and 1 where
# legal, powers of two and their neighbours), with values drawn uniformly
# or log-uniformly in between.  The keys that size the work share the
# budget, in an order drawn afresh for each deck, so that one dimension at
# its edge and the others large (one row, one column, one step, one body)
# all come; the steps take what is left.  A schedule key is set against
# the steps the deck runs: never, every step, past the run, at its top, or
# any step between.  A workload that declares no work keeps its other
# integer keys at or below their defaults.  A choice is any of its names; a
# repeating text key, some of its defaults; other text keys are left to
# their defaults (decks of tests/deckspace/regress/ cover their values).
# Decks the workload's checks across keys refuse (exit 2) are counted, not
# failed, by the runner.
#
# The generator is its own Lehmer RNG (16807, 2^31-1), exact in any awk's
# doubles, so a seed gives the same decks with mawk, gawk or busybox.
BEGIN { S = (seed % 2147483646) + 1; if (most_steps == "") most_steps = 200 }
/"declares_work": false/ { nowork = 1 }
/^\{ "key": / {
	k = raw($0, "key")
	KEYS[++NKEYS] = k
	TYPE[k] = raw($0, "type")
	DEF[k] = raw($0, "default")
	LO[k] = raw($0, "lo") + 0
	HI[k] = raw($0, "hi") + 0
	OPEN[k] = raw($0, "lo_open") == "true"
	NEUTRAL[k] = raw($0, "neutral") == "true"
	REPEATS[k] = raw($0, "repeats") == "true"
	ROLE[k] = raw($0, "role")
	e = raw($0, "work_exponent")
	gsub(/[\[\] ]/, "", e)
	NE[k] = split(e, EXPS, ",")
	EXP[k, 1] = EXPS[1] + 0
	EXP[k, 2] = EXPS[2] + 0
	CHOICES[k] = raw($0, "choices")
}
END {
	if (!NKEYS) { print "gen.awk: no key table for workload '" w "'" > "/dev/stderr"; exit 3 }
	for (d = 1; d <= count; d++) {
		file = sprintf("%s/%s-%03d.deck", dir, w, d)
		printf "# %s deck %d of the deck-space test (seed %d)\n", w, d, seed > file
		deck()
		close(file)
	}
}

# A field's value as its text: a string's inside of its quotes, an array's
# brackets and all, a number or a literal as it stands; "" where absent.
function raw(line, f,  v) {
	if (!match(line, "\"" f "\": ")) return ""
	v = substr(line, RSTART + RLENGTH)
	if (v ~ /^"/) { match(v, /^"[^"]*"/); return substr(v, 2, RLENGTH - 2) }
	if (v ~ /^\[/) { match(v, /^\[[^\]]*\]/); return substr(v, RSTART, RLENGTH) }
	match(v, /^[^, }]*/)
	return substr(v, 1, RLENGTH)
}
# The strings of a JSON array of strings.
function strings(a, out,  n, i, parts) {
	gsub(/^\[ *"|" *\]$/, "", a)
	n = split(a, parts, /" *, *"/)
	for (i = 1; i <= n; i++) out[i] = parts[i]
	return n
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
# v^(1/e) rounded down, a little below so that value^e never passes v.
function root(v, e) { return e == 1 ? int(v) : int(exp(log(v) / e) * (1 - 1e-9)) }

# A power of two in [a, b], or one of its neighbours: where kernels change
# their way (vector widths, blocks, warps).
function pow2(a, b,  p, x) {
	p = 1
	while (p * 2 <= b) p *= 2
	x = 2 ^ int(rnd() * (log(p) / log(2) + 1)) + irand(-1, 1)
	return x < a ? a : x > b ? b : x
}
# An integer in [lo, m] drawn for its edges: the ends, a power of two, else
# log-uniform from 1 up (uniform where the range is narrow).
function integer(lo, m, def,  r) {
	r = rnd()
	if (r < 0.15) return lo
	if (r < 0.3) return m
	if (r < 0.4 && def != "" && def + 0 >= lo && def + 0 <= m) return def + 0
	if (r < 0.5 && lo <= 1 && m >= 1) return lo == 0 && rnd() < 0.5 ? 0 : 1
	if (r < 0.65) return pow2(lo, m)
	if (m - lo > 100) return lrand(max(lo, 1), m)
	return irand(lo, m)
}
# A real in the key's range: an edge, or uniform, or log-uniform where the
# range spans decades; never an open end.
function real(k,  lo, hi, r) {
	lo = LO[k]; hi = HI[k]; r = rnd()
	if (r < 0.15) return hi
	if (r < 0.3) return OPEN[k] ? (lo == 0 ? 1e-6 * hi : lo * 1.000001) : lo
	if (r < 0.35 && DEF[k] != "") return DEF[k] + 0
	if (lo > 0 && hi / lo > 100) return exp(log(lo) + rnd() * (log(hi) - log(lo)))
	if (lo == 0 && rnd() < 0.5) return hi * exp(-rnd() * 13)
	return lo + rnd() * (hi - lo) + (OPEN[k] && lo + 0 == lo ? 1e-9 * (hi - lo) : 0)
}
# A schedule key (every K steps): never, every step, never within the run
# (the key's top), past the run, or a divisor-or-not of the steps.
function every(k, steps,  r) {
	r = rnd()
	if (r < 0.15 && LO[k] <= 0) return 0
	if (r < 0.35) return max(1, LO[k])
	if (r < 0.45) return HI[k]
	if (r < 0.55) return min(HI[k], steps + 1)
	return max(LO[k], irand(1, max(1, min(HI[k], steps))))
}

# The sizes first, in a fresh order, each taking a share of what the budget
# has left; the steps last.  VAL[k, c]: component c of key k.
function sizes(  n, i, j, t, k, c, e, m, left, step_left, order, comp, v) {
	n = 0
	for (i = 1; i <= NKEYS; i++) {
		k = KEYS[i]
		if (ROLE[k] != "size") continue
		for (c = 1; c <= NE[k]; c++)
			if (EXP[k, c] > 0) { order[++n] = k; comp[n] = c }
	}
	for (i = n; i > 1; i--) {
		j = irand(1, i)
		t = order[i]; order[i] = order[j]; order[j] = t
		t = comp[i]; comp[i] = comp[j]; comp[j] = t
	}
	left = budget; step_left = cells
	for (i = 1; i <= n; i++) {
		k = order[i]; c = comp[i]; e = EXP[k, c]
		m = max(LO[k], min(HI[k], root(min(left, step_left), e)))
		v = integer(LO[k], m, "")
		VAL[k, c] = v
		left = max(1, left / v ^ e); step_left = max(1, step_left / v ^ e)
	}
	for (i = 1; i <= NKEYS; i++) {
		k = KEYS[i]
		if (ROLE[k] != "steps") continue
		m = max(LO[k], min(min(HI[k], most_steps), root(left, EXP[k, 1] > 0 ? EXP[k, 1] : 1)))
		STEPS = VAL[k, 1] = integer(LO[k], m, "")
		left = max(1, left / STEPS ^ EXP[k, 1])
	}
}

function deck(  i, k, c, n, names, v, top, any) {
	delete VAL
	STEPS = 1
	sizes()
	for (i = 1; i <= NKEYS; i++) {
		k = KEYS[i]
		if (TYPE[k] == "integer" || TYPE[k] == "pair") {
			for (c = 1; c <= (TYPE[k] == "pair" ? 2 : 1); c++) {
				if ((k, c) in VAL) continue
				if (ROLE[k] == "schedule") { VAL[k, c] = every(k, STEPS); continue }
				# Where no work is declared, nothing says how a key sizes the run.
				top = nowork && DEF[k] != "" ? max(LO[k], min(HI[k], first(DEF[k], c))) : HI[k]
				VAL[k, c] = integer(LO[k], top, TYPE[k] == "integer" ? DEF[k] : "")
			}
			put(k, TYPE[k] == "pair" ? fmt(VAL[k, 1]) "x" fmt(VAL[k, 2]) : VAL[k, 1])
		} else if (TYPE[k] == "number")
			put(k, real(k))
		else if (TYPE[k] == "choice") {
			n = strings(CHOICES[k], names)
			put(k, names[irand(1, n)])
		} else if (TYPE[k] == "name")
			put(k, NEUTRAL[k] ? "space" d : DEF[k])
		else if (REPEATS[k] && DEF[k] != "" && rnd() < 0.5) {
			# Some of its defaults: one, several, or all.
			n = strings(DEF[k], names)
			any = 0
			for (v = 1; v <= n; v++)
				if (rnd() < 0.5 || (v == n && !any)) { put(k, names[v]); any = 1 }
		}
	}
}
# Component c of a pair's text "AxB" (or the integer itself).
function first(text, c,  p) { split(text, p, "x"); return p[c] + 0 }
