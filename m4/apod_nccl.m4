# apod_nccl.m4: find NCCL for heat's mgpu stage (one MPI rank per GPU).
#
# APOD_CHECK_NCCL: --with-nccl[=PATH] / --without-nccl.  Needs CUDA and MPI
# found first (APOD_CHECK_CUDA, APOD_CHECK_MPI).  Looks for nccl.h and
# libnccl in PATH, else in the CUDA toolkit configure found (CUDA_HOME: the
# toolkit ships them), else in the system's directories.  Sets and
# substitutes NCCL_CPPFLAGS and NCCL_LIBS, defines HAVE_NCCL and sets the
# automake conditional HAVE_NCCL (true only with CUDA and MPI as well: the
# mgpu stage needs all three).  Missing, the stage is listed as unavailable.
AC_DEFUN([APOD_CHECK_NCCL], [
AC_ARG_WITH([nccl],
  [AS_HELP_STRING([--with-nccl@<:@=PATH@:>@], [build heat's mgpu stage with NCCL in PATH (default: the CUDA toolkit's, or the system's)])],
  [], [with_nccl=check])
have_nccl=no
NCCL_CPPFLAGS=
NCCL_LIBS=
nccl_summary="no (the mgpu stage is listed as unavailable)"
AS_IF([test "x$with_nccl" != xno && test -n "$NVCC" && test "x$have_mpi" = xyes], [
  AS_CASE([$with_nccl],
    [yes|check], [nccl_roots="$CUDA_HOME /usr"],
    [nccl_roots="$with_nccl"])
  AC_MSG_CHECKING([for NCCL (nccl.h and libnccl)])
  for root in $nccl_roots; do
    AS_IF([test -f "$root/include/nccl.h"], [
      for d in "$root/lib64" "$root/lib" "$root"/targets/*/lib "$root/lib/x86_64-linux-gnu" "$root/lib/aarch64-linux-gnu"; do
        AS_IF([test -f "$d/libnccl.so" || test -f "$d/libnccl_static.a"], [
          NCCL_CPPFLAGS="-I$root/include"
          NCCL_LIBS="-L$d -Wl,-rpath,$d -lnccl"
          have_nccl=yes
          break])
      done])
    AS_IF([test "x$have_nccl" = xyes], [break])
  done
  AS_IF([test "x$have_nccl" = xyes], [AC_MSG_RESULT([$NCCL_LIBS])], [AC_MSG_RESULT([no])])
])
AS_IF([test "x$with_nccl" != xno && test "x$with_nccl" != xcheck && test "x$have_nccl" != xyes],
  [AC_MSG_ERROR([--with-nccl given but no NCCL found (it needs CUDA and MPI as well)])])
AS_IF([test "x$have_nccl" = xyes], [
  AC_DEFINE([HAVE_NCCL], [1], [heat's mgpu stage is built (CUDA, MPI and NCCL)])
  nccl_summary="yes ($NCCL_LIBS)"])
AC_SUBST([NCCL_CPPFLAGS])
AC_SUBST([NCCL_LIBS])
AM_CONDITIONAL([HAVE_NCCL], [test "x$have_nccl" = xyes])
])
