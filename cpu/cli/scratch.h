/*
 * scratch.h: the scratch folders of the table, report, bench, assess and
 * scale: $TMPDIR/apod-KIND-XXXXXX (TMPDIR unset or empty: /tmp).
 *
 * A scratch folder is removed, by file descriptor, when its command is done
 * with it, and also when the command is interrupted (SIGINT, SIGTERM,
 * SIGHUP): the child it is waiting for gets the same signal first.  A
 * kill -9 leaves no chance to clean up, so every folder carries a record
 * of who made it (host, pid and the process's start time), and the next
 * command that makes a scratch folder removes the folders whose maker is
 * gone.  It touches only folders of its own user whose record is its own
 * user's and names this host: another user's folder of the same name, a
 * folder without a record, or one whose maker still runs is left alone.
 */
#ifndef APOD_CLI_SCRATCH_H
#define APOD_CLI_SCRATCH_H

#include <limits.h>
#include <sys/types.h>

struct apod_scratch {
	char path[PATH_MAX];
	int fd;          /* the folder, held open: removal never follows a path */
	int slot;        /* its place among the folders the signal handler removes */
};

/* Make a scratch folder for command `kind` ("table", "bench"...): 0, or -1
 * after apod_fail.  Stale folders of earlier, killed commands go first. */
int apod_scratch_make(struct apod_scratch *s, const char *kind);
/* Remove the folder and everything in it; s is empty afterwards.  Safe to
 * call on a scratch never made or already removed. */
void apod_scratch_remove(struct apod_scratch *s);
/* Remove one entry of the folder (a file, or a folder and its contents). */
void apod_scratch_remove_entry(const struct apod_scratch *s, const char *name);
/* The child the command now waits for (0: none), killed with the same
 * signal if the command is interrupted, so that it writes nothing into a
 * folder being removed and does not outlive its parent. */
void apod_scratch_child(pid_t pid);

#endif
