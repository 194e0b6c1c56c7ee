/*
 * stage3.cu: nothing left.  gpu3 is described in cpu/nbody/stages.c, its
 * kernel (forces_tiled) named by its data, and runs resident.cu's ops with
 * gpu2..gpu4.  The file stays, empty, only while Makefile.am lists it.
 */
