/*
 * fail.h: one place to record why something failed.
 *
 * Library code never prints and never exits: it records a message here and
 * returns -1 (or NULL).  Only the command line in apod.c decides what to
 * print and which exit status a user sees, so the same module can be driven
 * by a test that checks the message.
 */
#ifndef APOD_FAIL_H
#define APOD_FAIL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exit statuses of the apod command. */
enum {
	APOD_EXIT_OK = 0,
	APOD_EXIT_FAIL = 1,     /* the run failed: I/O, memory, verification */
	APOD_EXIT_USAGE = 2     /* the request was wrong: options, deck, sizes */
};

/* Record a message (printf-style); always returns -1 for `return apod_fail(...)`. */
int apod_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Record a message and remember that it is the user's mistake, not the run's. */
int apod_usage_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The last message recorded. */
const char *apod_failure(void);
/* APOD_EXIT_USAGE if the last failure was a usage error, else APOD_EXIT_FAIL. */
int apod_failure_status(void);

#ifdef __cplusplus
}
#endif

#endif
