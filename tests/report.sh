#!/bin/sh
# apod report: a page of the small deck, made by a run and again from the
# table's JSON written before (--from); the command each page shows, pasted,
# makes it again; its pictures inline SVG; without gnuplot a clear message
# and exit 1 before anything runs; usage errors exit 2.  Then the page in
# a real browser (headless Chromium): it loads, its SVGs render, and the
# screenshot is not one colour.  Skips (77) without gnuplot.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/heat/small.deck
fail() { echo "FAIL: $*"; exit 1; }

command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: no gnuplot (apt-get install gnuplot-nox)"; exit 77; }
# The report runs the table, whose mpi stage starts Open MPI, which frees
# not all it allocates (tests/table.sh): in the sanitizers' build its
# leaks are not checked; addresses and undefined behaviour still are.
if [ "${APOD_SANITIZE:-no}" = yes ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
fi

# No --out: a usage error.
"$APOD" report --deck="$deck" >"$work/o" 2>&1
[ $? -eq 2 ] || fail "report without --out: not exit 2: $(cat "$work/o")"
# No gnuplot: said, and nothing run.
APOD_GNUPLOT=/nonexistent/gnuplot "$APOD" report --deck="$deck" --out="$work/x.html" >"$work/o" 2>&1
[ $? -eq 1 ] || fail "report without gnuplot: not exit 1"
grep -q "gnuplot-nox" "$work/o" || fail "report without gnuplot does not say what to install: $(cat "$work/o")"
grep -q "^serial" "$work/o" && fail "report without gnuplot ran the stages first"
[ -e "$work/x.html" ] && fail "report without gnuplot wrote a page"

"$APOD" report --deck="$deck" --out="$work/r.html" --json="$work/t.json" >"$work/o" 2>&1 ||
	fail "report failed: $(cat "$work/o")"
page=$work/r.html
for want in "<svg" "The APOD table" "The ladder" "Roofline" "genTimeStep"; do
	grep -q "$want" "$page" || fail "the page has no '$want'"
done
[ "$(grep -c '<svg' "$page")" -ge 2 ] || fail "the page has fewer than two pictures"
grep -q '<?xml' "$page" && fail "the page inlines an XML declaration"
grep -q 'src="http\|href="http' "$page" && fail "the page fetches something"
# The verification column names the output closest to its tolerance, as the
# printed table does: omp's row (its worst output, from the printed line).
worst=$(sed -n 's/^omp .*PASS (worst: \([a-z0-9_]*\),.*/\1/p' "$work/o")
[ -n "$worst" ] || fail "the printed table names no worst output for omp: $(grep '^omp' "$work/o")"
grep -q "PASS (worst: $worst, " "$page" || fail "the page does not name omp's worst output ($worst)"

# The page's table is the terminal's: the same header, and each row that ran
# the same cells, word for word, as the printed line (both made by
# cpu/cli/table_print.c); the lines under the table are there too.
if command -v python3 >/dev/null 2>&1; then
	python3 - "$page" "$work/o" <<'PY' || fail "the page's table is not the terminal's"
import html, re, sys
page = open(sys.argv[1]).read()
printed = [l for l in open(sys.argv[2])]
words = lambda s: " ".join(s.split())
table = page[page.index("<h2>The APOD table</h2>"):]
table = table[:table.index("</table>")]
heads = [html.unescape(h) for h in re.findall(r"<th>(.*?)</th>", table)]
assert words(" ".join(heads)) == words(next(l for l in printed if l.startswith("stage "))), heads
rows = 0
for tr in re.findall(r"<tr>((?:<td[^>]*>.*?</td>)+)</tr>", table):
    cells = [html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr)]
    if len(cells) != len(heads):
        continue
    line = next(l for l in printed if l.split()[:1] == [cells[0]])
    assert words(" ".join(cells)) == words(line), (cells, line)
    rows += 1
assert rows >= 2, rows
for l in printed:
    if l.startswith(("MODEL BROKEN", "too noisy", "BUSY HOST", "ceilings: ")):
        assert html.escape(l.rstrip("\n"), quote=False) in page, l
print("rows alike:", rows)
PY
fi

# The page's command, as the page shows it (HTML entities undone).
page_cmd() {
	sed -n 's|.*<dt>this page</dt><dd><code>\([^<]*\)</code>.*|\1|p' "$1" |
		sed 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&amp;/\&/g'
}
cmd1=$(page_cmd "$page")
case $cmd1 in
"apod report "*"--out=$work/r.html"*"--json=$work/t.json"*) ;;
*) fail "the page does not show its own command: '$cmd'" ;;
esac

# A table where no phase declares bytes (Monte Carlo's): every point at the
# right edge, none with an intensity; the roofline is still drawn.
sed 's/"bytes": *[0-9][0-9.e+-]*/"bytes": 0/g' "$work/t.json" > "$work/nobytes.json"
"$APOD" report --from="$work/nobytes.json" --out="$work/nb.html" >"$work/o" 2>&1 ||
	fail "report of a table with no bytes declared failed: $(cat "$work/o")"
grep -q "1  &gt;serial/genTimeStep\|1  >serial/genTimeStep" "$work/nb.html" ||
	fail "the roofline of a table with no bytes declared has no point 1 at the edge"

# Roofline points numbered in the table as in the plot; roofs in words; a
# phase with no bytes says so; a page without --assess says where hotspots
# come from.
grep -q "<tr><td>1</td><td>serial</td><td>genTimeStep</td>" "$page" || fail "the phases table does not number serial's genTimeStep 1"
grep -q "<td>host_core" "$page" && fail "the page shows a roof's internal name"
grep -q "<td>none declared</td>" "$page" || fail "the phases table does not say where no bytes are declared"
grep -q "Not profiled: give <code>--assess=DIR</code>" "$page" || fail "a page without --assess does not say where hotspots come from"
grep -q "1  serial/genTimeStep" "$page" || fail "the roofline's key does not name point 1"

# The same page from the table's JSON, no stage run.
"$APOD" report --from="$work/t.json" --out="$work/f.html" >"$work/o" 2>&1 ||
	fail "report --from failed: $(cat "$work/o")"
grep -q "^serial" "$work/o" && fail "report --from ran the stages"
[ "$(grep -c '<svg' "$work/f.html")" -ge 2 ] || fail "report --from: fewer than two pictures"
grep -q "data/heat/small.deck" "$work/f.html" || fail "report --from lost the command"
# Pasted, the --from page's command (its hotspots' folder named, a space in
# it quoted) makes that page again, byte for byte.
"$APOD" report --from="$work/t.json" --out="$work/q.html" --assess="$work/no assess" >"$work/o" 2>&1 || fail "report --from with --assess failed: $(cat "$work/o")"
cmd=$(page_cmd "$work/q.html")
case $cmd in
"apod report --from=$work/t.json --out=$work/q.html '--assess=$work/no assess'") ;;
*) fail "the --from page's command is not the one given: '$cmd'" ;;
esac
grep -q "<dt>the table's run</dt><dd><code>apod report [^<]*--out=$work/r.html" "$work/q.html" ||
	fail "the --from page does not name the run that made its table"
mv "$work/q.html" "$work/q1.html"
( cd "$work" && PATH=$(dirname "$APOD"):$PATH && eval "$cmd" ) >"$work/o" 2>&1 ||
	fail "the page's command, pasted, failed: $(cat "$work/o")"
[ "$(page_cmd "$work/q.html")" = "$cmd" ] || fail "the pasted command made another page"
cmp -s "$work/q1.html" "$work/q.html" ||
	fail "the pasted command's page differs from the first"
# The first page's command reruns the stages: pasted, it makes a page of
# the same deck and stages, showing the same command.
grep -o '<h2>[^<]*</h2>\|<td>[a-z][a-z0-9]*</td>' "$page" > "$work/parts1"
( cd "$work" && PATH=$(dirname "$APOD"):$PATH && eval "$(page_cmd "$page")" ) >"$work/o" 2>&1 ||
	fail "the run's page command, pasted, failed: $(cat "$work/o")"
grep -o '<h2>[^<]*</h2>\|<td>[a-z][a-z0-9]*</td>' "$page" | cmp -s - "$work/parts1" ||
	fail "the run's page command, pasted, made a page of other parts"
[ "$(page_cmd "$page")" = "$cmd1" ] || fail "the pasted run's page shows another command"
"$APOD" report --from="$work/nonexistent.json" --out="$work/g.html" >"$work/o" 2>&1 &&
	fail "report --from a missing file succeeded"

# A table of --ranks=2 (its JSON's weak keys, as table_ranks.c writes them,
# put on two rows here): under each such stage its weak point beside
# Gustafson's bound, MODEL BROKEN above it, and a point not run, its why.
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))
ran = [r for r in t["stages"] if r["ran"]]
a, b = ran[-1], ran[0]
assert a is not b, "one stage ran"
a.update(ranks=2, weak_grown="size = 317x406", weak_one_rank_seconds=0.5, weak_seconds=0.625,
         weak_efficiency=0.8, weak_scaled_speedup=1.6, gustafson_p=0.9, gustafson=1.9, gustafson_holds=True)
b.update(ranks=2, weak_why="2 ranks but 1 visible GPU", weak_refused=True)
json.dump(t, open(sys.argv[2], "w"))
' "$work/t.json" "$work/tw.json" || fail "cannot write a table of --ranks=2"
	"$APOD" report --from="$work/tw.json" --out="$work/w.html" >"$work/o" 2>&1 ||
		fail "report --from a table of --ranks=2 failed: $(cat "$work/o")"
	grep -q "weak, 2 ranks: problem size = 317x406, 0.6250 s against 0.5000 s at 1 rank: efficiency 80.0%, scaled speedup 1.60x, within Gustafson's 1.90x (p = 0.9000)<" "$work/w.html" ||
		fail "the page has no weak point within Gustafson: $(grep -o 'weak, 2[^<]*' "$work/w.html")"
	grep -q "weak, 2 ranks: not run here: 2 ranks but 1 visible GPU<" "$work/w.html" ||
		fail "the page has no weak point not run here"
	sed 's/"gustafson_holds": *true/"gustafson_holds": false/' "$work/tw.json" > "$work/tb.json"
	"$APOD" report --from="$work/tb.json" --out="$work/b.html" >"$work/o" 2>&1 ||
		fail "report --from a broken model failed: $(cat "$work/o")"
	grep -q "above Gustafson's 1.90x (p = 0.9000) <span class=\"fail\">MODEL BROKEN" "$work/b.html" ||
		fail "the page does not call a weak point above Gustafson MODEL BROKEN"
	grep -q "weak, " "$work/f.html" && fail "a table without --ranks has a weak line"
fi

# In a browser.
browser=
for b in chromium chromium-browser; do
	command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
[ -n "$browser" ] || { echo "SKIP: the page is made; no chromium to open it in"; exit 77; }
command -v convert >/dev/null 2>&1 || command -v python3 >/dev/null 2>&1 ||
	{ echo "SKIP: nothing to read the screenshot with"; exit 77; }
HOME=$work timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--window-size=1200,2400 --screenshot="$work/shot.png" "file://$page" >"$work/b" 2>&1
[ -s "$work/shot.png" ] || fail "chromium made no screenshot: $(tail -5 "$work/b")"
# Not blank: more than a handful of colours (a page of text and pictures has hundreds).
if command -v convert >/dev/null 2>&1; then
	colours=$(convert "$work/shot.png" -format %k info:)
else
	colours=$(python3 -c "
import sys, zlib, struct
d = open(sys.argv[1], 'rb').read()
print(len(set(d[100:])))" "$work/shot.png")
fi
[ "${colours:-0}" -gt 16 ] || fail "the screenshot is blank ($colours colours)"
# The pictures rendered: the browser's own count of drawn SVG elements.
HOME=$work timeout 120 "$browser" --headless --no-sandbox --disable-gpu --dump-dom "file://$page" \
	>"$work/dom" 2>/dev/null
[ "$(grep -c '<svg' "$work/dom")" -ge 2 ] || fail "chromium's DOM of the page has fewer than two SVGs"
echo "report: the page, its JSON twin and chromium's screenshot ($colours colours)"
