#!/bin/sh
# The command blocks of README.md, doc/porting.md and doc/extending.md, run
# top to bottom as a reader pastes them: each document in one shell (a `cd`
# or an `export` holds for the lines after it), in a scratch copy of the
# tree's data and sources with ./apod the built program.  `apod` (the
# installed program) is the same program on PATH, with a staged install for
# pkg-config.  Each line must exit 0, or the N of an "exit status N" in its
# comment.  Not run:
#   - the build itself (./bootstrap, ./configure, make ...): this runs in it;
#   - a line whose comment says it "needs a GPU" (run where a GPU stage is
#     available), "needs nvcc" (run where apod was built with CUDA), "needs
#     MPI", "needs gnuplot" (run where gnuplot is), or "takes minutes".
# A transcript block ("$ COMMAND" and its output) must print that output.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/userbuild.sh"
port_install "the reader's programs were"
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
	# One shell for the whole document, as a reader pastes it: a `cd` or an
	# `export` holds for the lines after it.  Each line's output and status
	# go to files of its own; the checks read them after the shell is done.
	script=$work/$(basename "$doc" .md).sh
	: > "$script"
	k=0
	while IFS= read -r line; do
		case $line in
		"> "*) continue ;;
		"\$ "*) cmd=${line#\$ } ;;
		*) cmd=$line ;;
		esac
		k=$((k + 1))
		[ -n "$(skip_reason "$cmd")" ] && continue
		printf '{ %s\n} > "%s" 2>&1 < /dev/null; echo $? > "%s"\n' "$cmd" "$work/out.$doc_n.$k" \
			"$work/rc.$doc_n.$k" >> "$script"
	done < "$work/lines"
	( cd "$dir" && sh "$script" ) > "$work/shell.$doc_n" 2>&1 < /dev/null
	ran=0
	last_out=
	k=0
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
		k=$((k + 1))
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
		out=$work/out.$doc_n.$k
		if [ ! -f "$work/rc.$doc_n.$k" ]; then
			echo "FAIL: $doc: '$cmd' never ran (an earlier line ended the shell)"; sed 's/^/  | /' "$work/shell.$doc_n" | tail -20
			fails=$((fails + 1))
			continue
		fi
		got=$(cat "$work/rc.$doc_n.$k")
		if [ "$transcript" = 1 ]; then
			# The output lines that follow are the check; any status but a crash.
			[ "$got" -lt 128 ] && echo "ok:   $cmd -> $got" \
				|| { echo "FAIL: $doc: '$cmd' died ($got)"; fails=$((fails + 1)); }
			last_out=$out
		elif [ "$got" = "$want" ]; then
			echo "ok:   $cmd -> $got"
		else
			echo "FAIL: $doc: '$cmd' exited $got, expected $want"; sed 's/^/  | /' "$out" | tail -20
			fails=$((fails + 1))
		fi
	done < "$work/lines"
	echo "$doc: $ran command lines run"
}

doc_n=0
for doc in README.md doc/porting.md doc/extending.md; do
	doc_n=$((doc_n + 1))
	echo "== $doc"
	run_doc "$doc"
done
finish
