# apod_cuda.m4: find the CUDA toolkit and choose the GPU architectures.
#
# APOD_CHECK_CUDA: --with-cuda[=PATH], --with-cuda-arch=LIST,
# --enable-cudart-shared and --disable-fmad; sets and substitutes NVCC,
# CUDA_GENCODE, CUDA_ARCHS, CUDA_HOME, CUDA_LIBS, CUDA_CPPFLAGS, NVCC_FMAD,
# APOD_FMAD, CUPTI_CPPFLAGS and CUPTI_PATH, defines HAVE_CUDA, and sets the
# automake conditionals HAVE_CUDA and HAVE_CUPTI.
#
# The toolkit's directory is asked of nvcc itself (its --dryrun output), not
# guessed from where nvcc was found: the nvcc on the PATH may be a wrapper
# script whose parent directory holds no CUDA libraries.
AC_DEFUN([APOD_CHECK_CUDA], [
AC_ARG_WITH([cuda],
  [AS_HELP_STRING([--with-cuda@<:@=PATH@:>@], [build the GPU stages with the CUDA toolkit in PATH (default: find nvcc)])],
  [], [with_cuda=check])
AC_ARG_WITH([cuda-arch],
  [AS_HELP_STRING([--with-cuda-arch=LIST], [GPU architectures, e.g. "75 90" (default: the oldest nvcc supports and the GPU found here)])],
  [], [with_cuda_arch=auto])
AC_ARG_ENABLE([cudart-shared],
  [AS_HELP_STRING([--enable-cudart-shared], [link the CUDA runtime as a shared library (default: static, so the binary needs only the driver)])],
  [], [enable_cudart_shared=no])
AC_ARG_ENABLE([fmad],
  [AS_HELP_STRING([--disable-fmad], [compile device code with --fmad=false, so that it rounds like the CPU reference])],
  [], [enable_fmad=yes])

NVCC=""
CUPTI_PATH=""
CUPTI_CPPFLAGS=""
AS_CASE([$with_cuda],
  [no], [],
  [yes|check], [AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])],
  [AC_PATH_PROG([NVCC], [nvcc], [], [$with_cuda/bin])])
AS_IF([test "x$with_cuda" = xyes && test -z "$NVCC"],
  [AC_MSG_ERROR([--with-cuda given but no nvcc found])])
AS_IF([test "x$with_cuda" != xno && test "x$with_cuda" != xyes && test "x$with_cuda" != xcheck && test -z "$NVCC"],
  [AC_MSG_ERROR([--with-cuda=$with_cuda: no nvcc in $with_cuda/bin])])

CUDA_GENCODE=""
CUDA_ARCHS=""
AS_IF([test -n "$NVCC"], [
  dnl Ask nvcc where its toolkit is: the nvcc found on the PATH may be a
  dnl wrapper script (such as /usr/local/bin/nvcc), whose parent directory
  dnl holds no CUDA libraries.
  AC_MSG_CHECKING([for the CUDA toolkit's directory])
  nvcc_dryrun=`"$NVCC" --dryrun -c -x cu /dev/null -o /dev/null 2>&1`
  CUDA_HOME=`echo "$nvcc_dryrun" | sed -n 's/^#\$ TOP=//p' | head -n1`
  AS_IF([test -z "$CUDA_HOME"], [CUDA_HOME=`dirname "$NVCC"`/..])
  CUDA_HOME=`cd "$CUDA_HOME" 2>/dev/null && pwd -P`
  AS_IF([test -z "$CUDA_HOME"], [AC_MSG_ERROR([cannot find the toolkit directory of $NVCC])])
  AC_MSG_RESULT([$CUDA_HOME])
  cuda_target=`echo "$nvcc_dryrun" | sed -n 's/^#\$ _TARGET_DIR_=\(..*\)$/\1/p' | tail -n1`
  AC_MSG_CHECKING([for the CUDA runtime library directory])
  CUDA_LIBDIR=""
  for d in "$CUDA_HOME/$cuda_target/lib" "$CUDA_HOME/lib64" "$CUDA_HOME/lib"; do
    AS_IF([test -f "$d/libcudart_static.a" || test -f "$d/libcudart.so"], [CUDA_LIBDIR=$d; break])
  done
  AS_IF([test -z "$CUDA_LIBDIR"], [AC_MSG_ERROR([no libcudart under $CUDA_HOME: is the toolkit complete?])])
  AC_MSG_RESULT([$CUDA_LIBDIR])
  AS_IF([test "x$enable_cudart_shared" != xyes && test ! -f "$CUDA_LIBDIR/libcudart_static.a"], [
    AC_MSG_WARN([$CUDA_LIBDIR has no libcudart_static.a: linking the CUDA runtime as a shared library])
    enable_cudart_shared=yes])
  AS_IF([test "x$enable_cudart_shared" = xyes && test ! -f "$CUDA_LIBDIR/libcudart.so"],
    [AC_MSG_ERROR([--enable-cudart-shared: $CUDA_LIBDIR has no libcudart.so])])
  supported=`"$NVCC" --list-gpu-arch 2>/dev/null | sed -n 's/^compute_\([[0-9]]*\)$/\1/p' | sort -n | tr '\n' ' '`
  AS_IF([test -z "$supported"], [AC_MSG_ERROR([$NVCC --list-gpu-arch lists no architectures])])
  AC_MSG_CHECKING([for the GPU architectures to build])
  AS_IF([test "x$with_cuda_arch" = xauto], [
    dnl The oldest this nvcc accepts, so the binary runs as widely as it can,
    dnl and the GPU of this machine if there is one, so it runs natively here.
    oldest=`echo $supported | cut -d' ' -f1`
    here=`nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d '. \r'`
    CUDA_ARCHS="$oldest"
    AS_CASE([" $supported "], [*" $here "*], [AS_IF([test "$here" != "$oldest"], [CUDA_ARCHS="$oldest $here"])])
  ], [
    CUDA_ARCHS=`echo "$with_cuda_arch" | tr ',;' '  ' | sed 's/sm_//g; s/compute_//g'`
  ])
  dnl One space between architectures and none at the ends ("75," gave
  dnl "75 "): configure's summary prints the list as it is.
  CUDA_ARCHS=`echo $CUDA_ARCHS`
  newest=""
  for a in $CUDA_ARCHS; do
    AS_CASE([" $supported "], [*" $a "*], [], [AC_MSG_ERROR([architecture $a is not supported by $NVCC (it supports: $supported)])])
    CUDA_GENCODE="$CUDA_GENCODE -gencode=arch=compute_$a,code=sm_$a"
    newest=$a
  done
  dnl PTX for the newest, so a GPU newer than any listed still runs, through the JIT.
  CUDA_GENCODE="$CUDA_GENCODE -gencode=arch=compute_$newest,code=compute_$newest"
  AC_MSG_RESULT([$CUDA_ARCHS (+PTX $newest)])
  dnl cuRAND, for the Monte Carlo bench's yardstick: static where the toolkit
  dnl has it (before the runtime it calls), else shared.
  AS_IF([test -f "$CUDA_LIBDIR/libcurand_static.a"], [curand_libs="-lcurand_static -lculibos"],
    [test -f "$CUDA_LIBDIR/libcurand.so"], [curand_libs="-Wl,-rpath,$CUDA_LIBDIR -lcurand"],
    [AC_MSG_ERROR([no cuRAND under $CUDA_LIBDIR: is the toolkit complete?])])
  AS_IF([test "x$enable_cudart_shared" = xyes],
    [CUDA_LIBS="-L$CUDA_LIBDIR $curand_libs -Wl,-rpath,$CUDA_LIBDIR -lcudart -ldl -lstdc++"],
    [CUDA_LIBS="-L$CUDA_LIBDIR $curand_libs -lcudart_static -ldl -lpthread -lrt -lstdc++"])
  CUDA_CPPFLAGS="-I$CUDA_HOME/include"
  AC_DEFINE([HAVE_CUDA], [1], [the GPU stages are built])
  dnl CUPTI, for `apod --trace`: loaded with dlopen when a trace is asked
  dnl for, so the binary does not depend on it; only its header and where
  dnl its library lies are needed here.
  AC_MSG_CHECKING([for CUPTI (apod --trace)])
  cupti_inc=""
  for d in "$CUDA_HOME/include" "$CUDA_HOME/extras/CUPTI/include"; do
    AS_IF([test -f "$d/cupti.h"], [cupti_inc=$d; break])
  done
  for d in "$CUDA_LIBDIR" "$CUDA_HOME/extras/CUPTI/lib64"; do
    AS_IF([test -f "$d/libcupti.so"], [CUPTI_PATH=$d/libcupti.so; break])
  done
  AS_IF([test -n "$cupti_inc" && test -n "$CUPTI_PATH"], [
    CUPTI_CPPFLAGS="-I$cupti_inc -I$CUDA_HOME/include"
    AC_MSG_RESULT([$CUPTI_PATH])
  ], [
    CUPTI_PATH=""
    AC_MSG_RESULT([no: apod --trace will say so])
  ])
])
NVCC_FMAD=""
AS_IF([test "x$enable_fmad" = xno], [NVCC_FMAD="--fmad=false"])
AC_SUBST([APOD_FMAD], [$enable_fmad])
AM_CONDITIONAL([HAVE_CUDA], [test -n "$NVCC"])
AM_CONDITIONAL([HAVE_CUPTI], [test -n "$CUPTI_PATH"])
AC_SUBST([CUPTI_CPPFLAGS])
AC_SUBST([CUPTI_PATH])
AC_SUBST([NVCC])
AC_SUBST([CUDA_GENCODE])
AC_SUBST([CUDA_ARCHS])
AC_SUBST([CUDA_HOME])
AC_SUBST([CUDA_LIBS])
AC_SUBST([CUDA_CPPFLAGS])
AC_SUBST([NVCC_FMAD])

])
