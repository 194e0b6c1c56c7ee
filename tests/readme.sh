#!/bin/sh
# The command blocks of README.md and the walkthroughs, run top to bottom as
# a reader would, each document in a scratch copy of the tree's data and
# sources with ./apod the built program.  `apod` (the installed program) is
# the same program on PATH, with a staged install for pkg-config.  Each line
# runs on its own (a `cd` holds for its line only) and must exit 0, or the
# N of an "exit status N" in its comment.  Not run:
#   - the build itself (./bootstrap, ./configure, make ...): this runs in it;
#   - a line whose comment says it "needs a GPU" (run where a GPU stage is
#     available), "needs nvcc" (run where apod was built with CUDA), "needs
#     MPI", "needs gnuplot" (run where gnuplot is), or "takes minutes".
# A transcript block ("$ COMMAND" and its output) must print that output.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/userbuild.sh"
[ "${APOD_SANITIZE:-no}" = no ] || { echo "SKIP: a sanitizer build's libapod cannot link a reader's program"; exit 77; }
stage_install "$work/inst" || { echo "SKIP: cannot stage the install"; exit 77; }
mkdir -p "$work/bin"
ln -s "$APOD" "$work/bin/apod"
PATH=$work/bin:$PATH
export PATH

gpu=no
"$APOD" stages | grep -q '^gpu[0-9]* *available' && gpu=yes
nvcc=no
[ -n "$user_nvcc" ] && command -v nvcc >/dev/null 2>&1 && nvcc=yes

# Why LINE is not run here, or nothing.
skip_reason() {
	comment=${1#*#}
	[ "$comment" = "$1" ] && comment=
	case $comment in
	*"needs a GPU"*) [ "$gpu" = yes ] || { echo "needs a GPU"; return; } ;;
	*"needs nvcc"*) [ "$nvcc" = yes ] || { echo "needs nvcc"; return; } ;;
	*"needs MPI"*) echo "needs MPI"; return ;;
	*"needs gnuplot"*) command -v gnuplot >/dev/null 2>&1 || { echo "needs gnuplot"; return; } ;;
	*"takes minutes"*|*"takes a minute"*) echo "takes minutes"; return ;;
	esac
	case $1 in
	./bootstrap*|./configure*|make\ *|make) echo "the build: this test runs in the built tree" ;;
	esac
}

run_doc() {
	doc=$1
	dir=$work/$(basename "$doc" .md)
	mkdir -p "$dir/doc"
	cp -r "$top_srcdir/data" "$top_srcdir/shared" "$dir/"
	mkdir -p "$dir/cpu" && cp -r "$top_srcdir/cpu/particles" "$dir/cpu/"
	cp -r "$top_srcdir/doc/examples" "$dir/doc/"
	chmod -R u+w "$dir"
	ln -s "$APOD" "$dir/apod"
	awk -f "$top_srcdir/tests/readme-blocks.awk" "$top_srcdir/$doc" > "$work/lines"
	[ -s "$work/lines" ] || { echo "FAIL: no command lines found in $doc"; fails=$((fails + 1)); return; }
	ran=0
	last_out=
	while IFS= read -r line; do
		case $line in
		"> "*)
			[ -n "$last_out" ] || continue
			grep -qxF -- "${line#> }" "$last_out" \
				&& echo "ok:   printed: ${line#> }" \
				|| { echo "FAIL: $doc: did not print: ${line#> }"; sed 's/^/  | /' "$last_out"; fails=$((fails + 1)); }
			continue ;;
		"\$ "*) cmd=${line#\$ } transcript=1 ;;
		*) cmd=$line transcript=0 ;;
		esac
		last_out=
		why=$(skip_reason "$cmd")
		if [ -n "$why" ]; then
			echo "skip: $cmd  ($why)"
			continue
		fi
		want=0
		case $cmd in
		*"exit status "[0-9]*) want=$(printf '%s\n' "$cmd" | sed 's/.*exit status \([0-9]*\).*/\1/') ;;
		esac
		ran=$((ran + 1))
		( cd "$dir" && sh -c "$cmd" ) > "$work/out.$ran" 2>&1 < /dev/null
		got=$?
		if [ "$transcript" = 1 ]; then
			# The output lines that follow are the check; any status but a crash.
			[ "$got" -lt 128 ] && echo "ok:   $cmd -> $got" \
				|| { echo "FAIL: $doc: '$cmd' died ($got)"; fails=$((fails + 1)); }
			last_out=$work/out.$ran
		elif [ "$got" = "$want" ]; then
			echo "ok:   $cmd -> $got"
		else
			echo "FAIL: $doc: '$cmd' exited $got, expected $want"; sed 's/^/  | /' "$work/out.$ran" | tail -20
			fails=$((fails + 1))
		fi
	done < "$work/lines"
	echo "$doc: $ran command lines run"
}

for doc in README.md doc/porting.md; do
	echo "== $doc"
	run_doc "$doc"
done
finish
