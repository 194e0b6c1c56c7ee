#!/bin/sh
# The Monte Carlo workload through the gate: serial against its committed
# reference, omp against serial, the serial estimates against the closed
# forms, damaged results caught, bad keys refused by name, and the GPU
# stages held to the same gate wherever they can run.
. "$top_srcdir/tests/lib.sh"
deck="$top_srcdir/data/montecarlo/small.deck"
ref="$top_srcdir/data/montecarlo/ref/small"
W=--workload=montecarlo
stages=$("$APOD" stages $W)

for s in serial omp gpu1 gpu2 gpu3; do
	echo "$stages" | grep -q "^$s " || { echo "FAIL: stage $s is not listed"; echo "$stages"; fails=$((fails + 1)); }
done

# The references are what was committed, and serial still reproduces them
# (within the gate's bounds: another libm may move the last bits).
( cd "$ref" && sha256sum --quiet -c SHA256SUMS ) ||
	{ echo "FAIL: data/montecarlo/ref/small does not match its SHA256SUMS"; fails=$((fails + 1)); }
expect 0 "stage serial" "$APOD" run $W --stage=serial --deck="$deck" --out="$work/serial"
expect 0 "PASS" "$APOD" verify "$ref" "$work/serial"

# omp: every path's payoffs are serial's bits; only the sums' order moves.
OMP_NUM_THREADS=3 expect 0 "stage omp" "$APOD" run $W --stage=omp --deck="$deck" --out="$work/omp"
expect 0 "PASS" "$APOD" verify "$work/serial" "$work/omp"
expect 0 "hist        ok    counts: 0 of" "$APOD" verify "$work/serial" "$work/omp"

# The closed forms.  The last row of each series is the final estimate;
# |mean - exact| <= 3.2905 standard errors is the two-sided 99.9% interval.
# For a correct implementation the estimate is asymptotically normal about
# the exact price, so a seed fails a column with probability 0.1%, and this
# test (two columns) fails for at most 0.2% of the seeds one could commit;
# the deck's seed passes, and being deterministic, always will.
closed_form() {   # DIR: prints "ok" or why not
	paste -d, "$1/mean.csv" "$1/stderr.csv" "$1/exact.csv" | tail -n 1 | awk -F, '{
		# mean: $2..$5, stderr: $7..$10, exact: $12, $13
		ze = ($2 - $12) / $7; zg = ($3 - $13) / $8
		if (ze < 0) ze = -ze
		if (zg < 0) zg = -zg
		if (ze <= 3.2905 && zg <= 3.2905) printf "ok: european %.2f, geometric %.2f standard errors\n", ze, zg
		else printf "outside: european %.2f, geometric %.2f standard errors\n", ze, zg
	}'
}
got=$(closed_form "$work/serial")
echo "closed forms: $got"
case $got in ok*) ;; *) echo "FAIL: serial is not within 99.9% of the closed forms: $got"; fails=$((fails + 1)) ;; esac
# The check can fail: the same estimates against the closed forms of a
# strike 1% higher are tens of standard errors away.
"$APOD" run $W --stage=serial --deck="$deck" --strike=106.05 --batches=1 --out="$work/k106" >/dev/null ||
	fails=$((fails + 1))
mkdir -p "$work/mixed"
cp "$work/serial/mean.csv" "$work/serial/stderr.csv" "$work/mixed/"
{ head -n 1 "$work/k106/exact.csv"; tail -n +2 "$work/serial/exact.csv" | while IFS=, read -r step a b; do
	tail -n 1 "$work/k106/exact.csv" | sed "s/^[0-9]*,/$step,/"; done; } > "$work/mixed/exact.csv"
got=$(closed_form "$work/mixed")
case $got in outside*) echo "ok: a wrong closed form is caught ($got)" ;;
	*) echo "FAIL: the closed-form check passed estimates of another strike: $got"; fails=$((fails + 1)) ;; esac
# The arithmetic mean of a path is at least its geometric mean, path by
# path (AM-GM), so the arithmetic call's estimate is at least the geometric one's.
tail -n 1 "$work/serial/mean.csv" | awk -F, '{ exit !($4 >= $3) }' ||
	{ echo "FAIL: arithmetic below geometric"; fails=$((fails + 1)); }
# The control variate estimates the same price as the plain arithmetic
# estimator: their difference has a standard deviation of at most the sum
# of the two standard errors (Minkowski), so at 99.9% they are within
# 3.2905 times that.  And it is the point of the control: its standard
# error is far below the plain one's (about 16 times on this deck; a third
# is asked).
paste -d, "$work/serial/mean.csv" "$work/serial/stderr.csv" | tail -n 1 | awk -F, '{
	d = $5 - $4; if (d < 0) d = -d
	printf "control variate: %.6f against %.6f, standard errors %.3g and %.3g\n", $5, $4, $10, $9
	exit !(d <= 3.2905 * ($9 + $10) && 3 * $10 < $9) }' ||
	{ echo "FAIL: the control-variate estimator"; fails=$((fails + 1)); }

# Damaged results are caught: one batch mean (a double well past the header)...
cp -r "$work/omp" "$work/bad"
printf '\100\100\100\100\100\100\100\100' | dd of="$work/bad/batch_mean.npy" bs=1 seek=200 conv=notrunc 2>/dev/null
expect 1 "FAIL" "$APOD" verify "$work/serial" "$work/bad"
# ...and a histogram that lost one path of a batch.
cp -r "$work/omp" "$work/bad2"
awk -F, 'BEGIN { OFS = "," } NR == 3 { $22 = $22 - 1 } { print }' "$work/omp/hist.csv" > "$work/bad2/hist.csv"
expect 1 "FAIL" "$APOD" verify "$work/serial" "$work/bad2"

# Two different decks are not compared at all.
expect 0 "stage serial" "$APOD" run $W --stage=serial --deck="$deck" --seed=2 --out="$work/seed2"
expect 2 "'seed'" "$APOD" verify "$work/serial" "$work/seed2"

# Bad parameters: a usage error (2) that names the key.
expect 2 "paths_per_batch: 0 is out of range" "$APOD" run $W --stage=serial --paths_per_batch=0
expect 2 "batches: 0 is out of range" "$APOD" run $W --stage=serial --batches=0
expect 2 "monitor: 0 is out of range" "$APOD" run $W --stage=serial --monitor=0
expect 2 "sigma: 0 is outside" "$APOD" run $W --stage=serial --sigma=0
expect 2 "sigma: -0.2 is outside" "$APOD" run $W --stage=serial --sigma=-0.2
expect 2 "sigma: 'nan' is not a finite number" "$APOD" run $W --stage=serial --sigma=nan
expect 2 "strike: 'inf' is not a finite number" "$APOD" run $W --stage=serial --strike=inf
expect 2 "s0: -1 is outside" "$APOD" run $W --stage=serial --s0=-1
expect 2 "maturity: 0 is outside" "$APOD" run $W --stage=serial --maturity=0
expect 2 "rate: -0.01 is outside" "$APOD" run $W --stage=serial --rate=-0.01
expect 2 "hist_lo 300 is not below hist_hi" "$APOD" run $W --stage=serial --hist_lo=300

# The GPU stages, where they can run.
for s in gpu1 gpu2 gpu3; do
	if echo "$stages" | grep -q "^$s *available"; then
		expect 0 "stage $s" "$APOD" run $W --stage=$s --deck="$deck" --out="$work/$s"
		expect 0 "PASS" "$APOD" verify "$work/serial" "$work/$s"
		# A batch no multiple of a block, warp or grid, and a probe every
		# other batch (the sums cross in twos); one monitoring date.
		expect 0 "stage serial" "$APOD" run $W --stage=serial --paths_per_batch=1001 --batches=5 --monitor=1 \
			--stats_every=2 --out="$work/s1001"
		expect 0 "stage $s" "$APOD" run $W --stage=$s --paths_per_batch=1001 --batches=5 --monitor=1 \
			--stats_every=2 --out="$work/${s}1001"
		expect 0 "PASS" "$APOD" verify "$work/s1001" "$work/${s}1001"
	else
		echo "note: $s stage not run: $(echo "$stages" | grep -A1 "^$s " | sed -n 's/.*why: //p')"
	fi
done
finish
