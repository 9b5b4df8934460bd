// SPDX-License-Identifier: GPL-2.0
/* JSON writer: see wl/core/json_write.h. */
#include <math.h>
#include <stdio.h>

#include "wl/core/json_write.h"

void wl_jsonw_init(struct wl_jsonw *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->count[0] = 0;
}

void wl_json_put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* Comma and "key": before a member; @key is NULL inside arrays. */
static void wl_jsonw_key(struct wl_jsonw *j, const char *key)
{
	if (j->count[j->depth]++)
		fputc(',', j->f);
	if (key) {
		wl_json_put_string(j->f, key);
		fputc(':', j->f);
	}
}

static void wl_jsonw_open(struct wl_jsonw *j, const char *key, char c)
{
	if (j->depth || j->count[0])
		wl_jsonw_key(j, key);
	fputc(c, j->f);
	if (j->depth < WL_JSONW_DEPTH - 1)
		j->depth++;
	j->count[j->depth] = 0;
}

static void wl_jsonw_close(struct wl_jsonw *j, char c)
{
	fputc(c, j->f);
	if (j->depth)
		j->depth--;
	else
		j->count[0] = 1;
}

void wl_jsonw_obj(struct wl_jsonw *j, const char *key)
{
	wl_jsonw_open(j, key, '{');
}

void wl_jsonw_obj_end(struct wl_jsonw *j)
{
	wl_jsonw_close(j, '}');
}

void wl_jsonw_arr(struct wl_jsonw *j, const char *key)
{
	wl_jsonw_open(j, key, '[');
}

void wl_jsonw_arr_end(struct wl_jsonw *j)
{
	wl_jsonw_close(j, ']');
}

void wl_jsonw_str(struct wl_jsonw *j, const char *key,
		  const char *val)
{
	wl_jsonw_key(j, key);
	wl_json_put_string(j->f, val);
}

void wl_jsonw_num(struct wl_jsonw *j, const char *key, double v)
{
	wl_jsonw_key(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f);
}

void wl_jsonw_fix(struct wl_jsonw *j, const char *key, double v,
		  int decimals)
{
	wl_jsonw_key(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.*f", decimals, v);
	else
		fputs("null", j->f);
}

void wl_jsonw_int(struct wl_jsonw *j, const char *key, long long v)
{
	wl_jsonw_key(j, key);
	fprintf(j->f, "%lld", v);
}

void wl_jsonw_u64(struct wl_jsonw *j, const char *key,
		  unsigned long long v)
{
	wl_jsonw_key(j, key);
	fprintf(j->f, "%llu", v);
}

void wl_jsonw_bool(struct wl_jsonw *j, const char *key, bool v)
{
	wl_jsonw_key(j, key);
	fputs(v ? "true" : "false", j->f);
}

void wl_jsonw_null(struct wl_jsonw *j, const char *key)
{
	wl_jsonw_key(j, key);
	fputs("null", j->f);
}

void wl_json_put_number(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.10g", v);
}
