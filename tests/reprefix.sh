#!/bin/sh
# `make installcheck`: configuring again with another --prefix after a build
# must give a working install there.  The install paths are compiled into
# the program (apod new's template, apod assess's apod-pg), so the objects
# that hold them must be rebuilt when configure changes them.  In a scratch
# copy of the distributed sources (APOD_DISTDIR, made by the Makefile's
# installcheck-local): configure, build, configure with --prefix=P, build,
# install, then P/bin/apod must find P's files with no environment help, and
# `apod new`'s next steps, pasted, build a skeleton against P.
set -eu
: "${APOD_DISTDIR:?the distributed sources (make distdir)}"
work=$(mktemp -d "${TMPDIR:-/tmp}/apod-reprefix-XXXXXX")
trap 'rm -rf "$work"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
cp -r "$APOD_DISTDIR" "$work/src" && chmod -R u+w "$work/src"
cd "$work/src"
# CPU-only: the paths are the same in every build, and this one is quick.
echo "reprefix: ./configure --without-cuda && make"
./configure --without-cuda --prefix="$work/first" > "$work/configure1.log" 2>&1 \
	|| { tail -20 "$work/configure1.log"; exit 1; }
make -j"$jobs" > "$work/make1.log" 2>&1 || { tail -30 "$work/make1.log"; exit 1; }
echo "reprefix: ./configure --without-cuda --prefix=P && make && make install"
./configure --without-cuda --prefix="$work/P" > "$work/configure2.log" 2>&1 \
	|| { tail -20 "$work/configure2.log"; exit 1; }
make -j"$jobs" > "$work/make2.log" 2>&1 || { tail -30 "$work/make2.log"; exit 1; }
make install > "$work/install.log" 2>&1 || { tail -30 "$work/install.log"; exit 1; }

unset APOD_TEMPLATE_DIR APOD_PG LD_LIBRARY_PATH
cd "$work"
"$work/P/bin/apod" new fresh > "$work/new.log" 2>&1 \
	|| { echo "FAIL: P/bin/apod new did not find P's template"; cat "$work/new.log"; exit 1; }
echo "ok: P/bin/apod new found $work/P/share/apod/template"
# Its next steps, pasted into one shell as printed, with nothing else set:
# P is where pkg-config does not look, so they say what to export.
grep -qxF "    export PKG_CONFIG_PATH=$work/P/lib/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}   # pkg-config does not look in this install's folder by itself" "$work/new.log" \
	|| { echo "FAIL: apod new does not say to export P's PKG_CONFIG_PATH"; cat "$work/new.log"; exit 1; }
sed -n 's/^    //p' "$work/new.log" > "$work/next.sh"
( unset PKG_CONFIG_PATH MAKEFLAGS MFLAGS MAKELEVEL; PATH=$work/P/bin:$PATH; cd "$work" && sh -e "$work/next.sh" ) \
	> "$work/next.log" 2>&1 \
	|| { echo "FAIL: apod new's next steps, pasted, failed"; cat "$work/new.log" "$work/next.log"; exit 1; }
grep -q "^serial" "$work/next.log" || { echo "FAIL: apod new's next steps printed no table"; cat "$work/next.log"; exit 1; }
echo "ok: apod new's next steps, pasted, built fresh against P and printed its table"
"$work/P/bin/apod" assess --deck="$work/P/share/apod/heat/small.deck" --steps=5 --out="$work/assess" \
	> "$work/assess.log" 2>&1 \
	|| { echo "FAIL: P/bin/apod assess did not find P's apod-pg"; cat "$work/assess.log"; exit 1; }
echo "ok: P/bin/apod assess found $work/P/libexec/apod/apod-pg"
echo "reprefix: passed"
