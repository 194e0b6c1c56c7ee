#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fail.h"

/* Per thread: the snapshot writer thread fails on its own. */
static __thread char message[1024] = "no error";
static __thread int usage_error;

/* A message longer than the buffer keeps its head and its tail, the middle
 * elided: the reason comes last ("DIR: cannot create: File name too long"),
 * and a 100 KB path must not push it out. */
static void record(const char *fmt, va_list ap)
{
	va_list again;
	char head[sizeof message], *full;
	int n;
	va_copy(again, ap);
	/* Formatted apart from `message`, which an argument may be: a failure
	 * that wraps the one before it, apod_fail("X: %s", apod_failure()),
	 * would read its own half-written text ("X: X: ted 1"). */
	n = vsnprintf(head, sizeof head, fmt, ap);
	if (n >= (int)sizeof head && (full = malloc((size_t)n + 1))) {
		vsnprintf(full, (size_t)n + 1, fmt, again);
		apod_elide(message, sizeof message, full, (size_t)n);
		free(full);
	} else
		memcpy(message, head, strlen(head) + 1);
	va_end(again);
}

void apod_elide(char *buf, size_t len, const char *s, size_t n)
{
	char mark[48];
	size_t head, tail, m;
	if (n < len) {
		memcpy(buf, s, n);
		buf[n] = '\0';
		return;
	}
	m = (size_t)snprintf(mark, sizeof mark, "[... %zu bytes ...]", n);
	if (len < m + 3) {
		snprintf(buf, len, "%s", s);
		return;
	}
	/* A third of the room for the head, the rest for the reason. */
	head = (len - 1 - m) / 3;
	tail = len - 1 - m - head;
	snprintf(mark, sizeof mark, "[... %zu bytes ...]", n - head - tail);
	m = strlen(mark);
	tail = len - 1 - m - head;
	memcpy(buf, s, head);
	memcpy(buf + head, mark, m);
	memcpy(buf + head + m, s + n - tail, tail);
	buf[head + m + tail] = '\0';
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

void apod_escape(char *buf, size_t len, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	if (!len)
		return;
	for (size_t i = 0; i < n && o + 1 < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			buf[o++] = (char)c;
			continue;
		}
		if (o + 5 > len)
			break;
		buf[o++] = '\\';
		if (c == '\\') {
			buf[o++] = '\\';
			continue;
		}
		buf[o++] = 'x';
		buf[o++] = hex[c >> 4];
		buf[o++] = hex[c & 15];
	}
	buf[o] = '\0';
}
