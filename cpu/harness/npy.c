#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fail.h"
#include "infile.h"
#include "npy.h"
#include "outfile.h"

static const char magic[6] = { '\x93', 'N', 'U', 'M', 'P', 'Y' };

int apod_npy_open(struct apod_outfile *o, const char *path, enum apod_dtype dtype, int ndim,
                  const size_t dims[2])
{
	char header[256];
	int len;
	size_t total;
	if (apod_outfile_open(o, path))
		return -1;
	if (ndim == 1)
		len = snprintf(header, sizeof header,
		               "{'descr': '%s', 'fortran_order': False, 'shape': (%zu,), }",
		               apod_dtype_descr(dtype), dims[0]);
	else
		len = snprintf(header, sizeof header,
		               "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu), }",
		               apod_dtype_descr(dtype), dims[0], dims[1]);
	/* Pad with spaces so that the data starts on a 64-byte boundary, ending in '\n'. */
	total = 10 + (size_t)len + 1;
	while (total % 64)
		header[len++] = ' ', total++;
	header[len++] = '\n';
	fwrite(magic, 1, sizeof magic, o->f);
	fputc(1, o->f);
	fputc(0, o->f);
	fputc(len & 0xff, o->f);
	fputc((len >> 8) & 0xff, o->f);
	fwrite(header, 1, (size_t)len, o->f);
	return 0;
}

int apod_npy_write(const char *path, const void *data, enum apod_dtype dtype, int ndim,
                   const size_t dims[2])
{
	struct apod_outfile o;
	size_t n = ndim == 1 ? dims[0] : dims[0] * dims[1];
	if (apod_npy_open(&o, path, dtype, ndim, dims))
		return -1;
	if (fwrite(data, apod_dtype_size(dtype), n, o.f) != n) {
		int e = errno;
		apod_outfile_abort(&o);
		return apod_fail("%s: write failed: %s", path, strerror(e));
	}
	return apod_outfile_commit(&o);
}

/* ---- the header: a Python dict literal, parsed by key ------------------
 * {'descr': '<f4', 'fortran_order': False, 'shape': (203, 317), }
 * Exactly these three keys, each once, in any order; a trailing comma and
 * spaces allowed where Python allows them; the rest of the header spaces
 * and the closing newline.  Nothing is found by searching for a substring:
 * another value's text cannot stand in for a key. */
struct npy_header {
	char descr[8];
	int fortran_order;
	int ndim;
	unsigned long long dims[2];
};

static const char *spaces(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/* A single-quoted string without escapes, into out (len bytes). */
static const char *quoted(const char *p, char *out, size_t len)
{
	size_t n = 0;
	if (*p++ != '\'')
		return NULL;
	while (*p >= ' ' && *p <= '~' && *p != '\'' && *p != '\\') {
		if (n + 1 >= len)
			return NULL;
		out[n++] = *p++;
	}
	if (*p != '\'')
		return NULL;
	out[n] = '\0';
	return p + 1;
}

/* Decimal digits only: no sign, no space, at most a size_t's worth. */
static const char *whole(const char *p, unsigned long long *v)
{
	*v = 0;
	if (*p < '0' || *p > '9')
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(*v, 10ULL, v) ||
		    __builtin_add_overflow(*v, (unsigned long long)(*p - '0'), v) || *v > SIZE_MAX)
			return NULL;
	return p;
}

/* (a,) or (a, b), a trailing comma allowed after b; more axes refused. */
static const char *shape(const char *p, struct npy_header *h)
{
	if (*p++ != '(')
		return NULL;
	h->ndim = 0;
	for (p = spaces(p); *p != ')'; p = spaces(p)) {
		if (h->ndim == 2 || !(p = whole(p, &h->dims[h->ndim++])))
			return NULL;
		p = spaces(p);
		if (*p == ',')
			p++;
		else if (*p != ')')
			return NULL;
		else if (h->ndim == 1)
			return NULL;   /* (a) is a number in parentheses, not a tuple */
	}
	return h->ndim ? p + 1 : NULL;
}

static int parse_header(const char *p, struct npy_header *h)
{
	int seen[3] = { 0, 0, 0 };
	char key[16];
	p = spaces(p);
	if (*p++ != '{')
		return -1;
	for (p = spaces(p); *p != '}'; p = spaces(p)) {
		int k;
		if (!(p = quoted(p, key, sizeof key)))
			return -1;
		k = !strcmp(key, "descr") ? 0 : !strcmp(key, "fortran_order") ? 1 :
		    !strcmp(key, "shape") ? 2 : -1;
		if (k < 0 || seen[k]++)
			return -1;
		p = spaces(p);
		if (*p++ != ':')
			return -1;
		p = spaces(p);
		if (k == 0)
			p = quoted(p, h->descr, sizeof h->descr);
		else if (k == 1 && !strncmp(p, "False", 5))
			h->fortran_order = 0, p += 5;
		else if (k == 1 && !strncmp(p, "True", 4))
			h->fortran_order = 1, p += 4;
		else if (k == 1)
			p = NULL;
		else
			p = shape(p, h);
		if (!p)
			return -1;
		p = spaces(p);
		if (*p == ',')
			p++;
		else if (*p != '}')
			return -1;
	}
	if (!seen[0] || !seen[1] || !seen[2])
		return -1;
	/* Padding: spaces, then the one newline that ends the header. */
	p = spaces(p + 1);
	return p[0] == '\n' && p[1] == '\0' ? 0 : -1;
}

int apod_npy_read(const char *path, void **data, enum apod_dtype *dtype, int *ndim,
                  size_t dims[2])
{
	unsigned char pre[10];
	char *header = NULL;
	struct npy_header h;
	size_t hlen, n, esize;
	unsigned long long a, b;
	FILE *f = apod_infile_fopen(path);
	*data = NULL;
	if (!f)
		return -1;
	if (fread(pre, 1, 10, f) != 10 || memcmp(pre, magic, 6) != 0)
		goto malformed;
	if (pre[6] != 1 && pre[6] != 2)
		goto malformed;
	hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
	if (pre[6] == 2) {
		unsigned char ext[2];
		if (fread(ext, 1, 2, f) != 2)
			goto malformed;
		hlen |= (size_t)ext[0] << 16 | (size_t)ext[1] << 24;
	}
	if (hlen == 0 || hlen > 65536 || !(header = malloc(hlen + 1)))
		goto malformed;
	if (fread(header, 1, hlen, f) != hlen)
		goto malformed;
	header[hlen] = '\0';
	if (strlen(header) != hlen || parse_header(header, &h) || h.fortran_order)
		goto malformed;
	{
		static const enum apod_dtype all[] = { APOD_F32, APOD_F64, APOD_I32, APOD_I64, APOD_U64 };
		size_t k = 0;
		while (k < sizeof all / sizeof all[0] && strcmp(h.descr, apod_dtype_descr(all[k])))
			k++;
		if (k == sizeof all / sizeof all[0]) {
			fclose(f);
			free(header);
			return apod_usage_fail("%s: unsupported element type '%s' (want little-endian "
			                       "float32, float64, int32, int64 or uint64)", path, h.descr);
		}
		*dtype = all[k];
		esize = apod_dtype_size(*dtype);
	}
	*ndim = h.ndim;
	a = h.dims[0];
	b = h.ndim == 2 ? h.dims[1] : 1;
	if (a == 0 || b == 0 || __builtin_mul_overflow((size_t)a, (size_t)b, &n) ||
	    n > SIZE_MAX / 8)
		goto malformed;
	free(header);
	header = NULL;
	/* The file must hold exactly the data the header promises; checking it
	 * before allocating keeps a lying header from asking for terabytes. */
	{
		struct stat st;
		long pos = ftell(f);
		if (pos < 0 || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ||
		    (unsigned long long)st.st_size != (unsigned long long)pos + (unsigned long long)n * esize)
			goto malformed;
	}
	*data = malloc(n * esize);
	if (!*data) {
		fclose(f);
		return apod_fail("%s: cannot allocate %zu values", path, n);
	}
	if (fread(*data, esize, n, f) != n)
		goto malformed;
	if (fgetc(f) != EOF)
		goto malformed;
	fclose(f);
	dims[0] = (size_t)a;
	dims[1] = *ndim == 2 ? (size_t)b : 1;
	return 0;
malformed:
	fclose(f);
	free(header);
	free(*data);
	*data = NULL;
	return apod_usage_fail("%s: not a 1-D or 2-D .npy array this program wrote (malformed or truncated)",
	                       path);
}
