#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fail.h"
#include "npy.h"
#include "outfile.h"

static const char magic[6] = { '\x93', 'N', 'U', 'M', 'P', 'Y' };

size_t apod_dtype_size(enum apod_dtype t)
{
	return t == APOD_F64 || t == APOD_I64 || t == APOD_U64 ? 8 : 4;
}

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

/* Find "'key':" in the header dict and return what follows, trimmed. */
static const char *dict_value(const char *h, const char *key)
{
	char pat[64];
	const char *p;
	snprintf(pat, sizeof pat, "'%s':", key);
	p = strstr(h, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	return p;
}

int apod_npy_read(const char *path, void **data, enum apod_dtype *dtype, int *ndim,
                  size_t dims[2])
{
	unsigned char pre[10];
	char *header = NULL;
	const char *v;
	size_t hlen, n, esize;
	unsigned long long a, b;
	FILE *f = fopen(path, "rb");
	*data = NULL;
	if (!f)
		return apod_usage_fail("%s: cannot open: %s", path, strerror(errno));
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
	if (!(v = dict_value(header, "descr")))
		goto malformed;
	if (apod_dtype_from_descr(v, dtype)) {
		fclose(f);
		free(header);
		return apod_usage_fail("%s: unsupported element type (want little-endian float32, "
		                       "float64, int32, int64 or uint64)", path);
	}
	esize = apod_dtype_size(*dtype);
	if (!(v = dict_value(header, "fortran_order")) || strncmp(v, "False", 5))
		goto malformed;
	if (!(v = dict_value(header, "shape")))
		goto malformed;
	if (sscanf(v, "(%llu, %llu)", &a, &b) == 2)
		*ndim = 2;
	else if (sscanf(v, "(%llu,)", &a) == 1 && strchr(v, ',') && strchr(v, ',') < strchr(v, ')')) {
		*ndim = 1;
		b = 1;
	} else
		goto malformed;
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
