#include <stdarg.h>
#include <stdio.h>

#include "fail.h"

/* Per thread: the snapshot writer thread fails on its own. */
static __thread char message[1024] = "no error";
static __thread int usage_error;

static void record(const char *fmt, va_list ap)
{
	vsnprintf(message, sizeof message, fmt, ap);
}

int apod_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	record(fmt, ap);
	va_end(ap);
	usage_error = 0;
	return -1;
}

int apod_usage_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	record(fmt, ap);
	va_end(ap);
	usage_error = 1;
	return -1;
}

const char *apod_failure(void)
{
	return message;
}

int apod_failure_status(void)
{
	return usage_error ? APOD_EXIT_USAGE : APOD_EXIT_FAIL;
}
