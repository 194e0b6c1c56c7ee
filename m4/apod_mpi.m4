# apod_mpi.m4: find MPI for the stages of several processes (libapod's ranks).
#
# APOD_CHECK_MPI: --with-mpi / --without-mpi; libapod links what it finds
# (apod/ranks.h).  Asks the compiler wrapper for its flags (Open MPI's
# mpicc --showme:compile and --showme:link), or pkg-config's ompi-c, then
# checks that a program calling MPI_Init_thread links.  Sets and
# substitutes MPI_CFLAGS, MPI_INCLUDES, MPI_LIBS and MPIRUN, defines
# HAVE_MPI and sets the automake conditional HAVE_MPI.  A missing MPI is
# not an error unless --with-mpi was given: the stage is then listed as
# unavailable.
AC_DEFUN([APOD_CHECK_MPI], [
AC_ARG_WITH([mpi],
  [AS_HELP_STRING([--without-mpi], [build without MPI: no stage of several processes (default: with MPI where it is found)])],
  [], [with_mpi=check])
have_mpi=no
mpi_summary="no (the mpi stage is listed as unavailable)"
AS_IF([test "x$with_mpi" != xno], [
  AC_PATH_PROG([MPICC], [mpicc])
  AS_IF([test -n "$MPICC"], [
    MPI_CFLAGS=`"$MPICC" --showme:compile 2>/dev/null`
    MPI_LIBS=`"$MPICC" --showme:link 2>/dev/null`])
  AS_IF([test -z "$MPI_LIBS"], [
    PKG_CHECK_MODULES([MPI], [ompi-c], [], [MPI_CFLAGS=; MPI_LIBS=])])
  AS_IF([test -n "$MPI_LIBS"], [
    AC_MSG_CHECKING([whether a program calling MPI_Init_thread links])
    apod_save_CFLAGS=$CFLAGS; apod_save_LIBS=$LIBS
    CFLAGS="$CFLAGS $MPI_CFLAGS"; LIBS="$MPI_LIBS $LIBS"
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
        [[int p; return MPI_Init_thread(0, 0, MPI_THREAD_FUNNELED, &p);]])],
      [have_mpi=yes], [have_mpi=no])
    CFLAGS=$apod_save_CFLAGS; LIBS=$apod_save_LIBS
    AC_MSG_RESULT([$have_mpi])])
  AC_PATH_PROG([MPIRUN], [mpirun])
  AS_IF([test "x$with_mpi" = xyes && test "x$have_mpi" != xyes],
    [AC_MSG_ERROR([--with-mpi given but no working MPI found (install libopenmpi-dev openmpi-bin)])])
])
AS_IF([test "x$have_mpi" = xyes], [
  AC_DEFINE([HAVE_MPI], [1], [heat's mpi stage is built])
  mpi_summary="yes ($MPI_LIBS; run with ${MPIRUN:-mpirun})"
], [MPI_CFLAGS=; MPI_LIBS=])
AC_SUBST([MPI_CFLAGS])
# Its include folders alone, for apod.pc (a wrapper's other flags, such as
# -pthread, are not every compiler's: nvcc takes -I only).
MPI_INCLUDES=
for apod_f in $MPI_CFLAGS; do
  case $apod_f in -I*) MPI_INCLUDES="$MPI_INCLUDES $apod_f" ;; esac
done
AC_SUBST([MPI_INCLUDES])
AC_SUBST([MPI_LIBS])
AC_SUBST([MPIRUN])
AC_SUBST([HAVE_MPI_VALUE], [$have_mpi])
AM_CONDITIONAL([HAVE_MPI], [test "x$have_mpi" = xyes])
])
