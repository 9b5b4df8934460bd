/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal streaming JSON writer for wl_stream --json: objects, arrays,
 * strings (escaped), numbers (non-finite ones become null), booleans and
 * null, written on one line with commas placed automatically.  No
 * allocation; nesting is limited to WS_JSON_DEPTH.
 */
#ifndef WL_JSONW_H
#define WL_JSONW_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#define WS_JSON_DEPTH	16

/**
 * struct ws_json - writer state
 * @f:		output
 * @depth:	open objects/arrays
 * @count:	members written so far at each depth
 */
struct ws_json {
	FILE *f;
	int depth;
	int count[WS_JSON_DEPTH];
};

static inline void ws_json_init(struct ws_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->count[0] = 0;
}

static inline void ws_json_string(FILE *f, const char *s)
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
static inline void ws_json_key(struct ws_json *j, const char *key)
{
	if (j->count[j->depth]++)
		fputc(',', j->f);
	if (key) {
		ws_json_string(j->f, key);
		fputc(':', j->f);
	}
}

static inline void ws_json_open(struct ws_json *j, const char *key, char c)
{
	if (j->depth || j->count[0])
		ws_json_key(j, key);
	fputc(c, j->f);
	if (j->depth < WS_JSON_DEPTH - 1)
		j->depth++;
	j->count[j->depth] = 0;
}

static inline void ws_json_close(struct ws_json *j, char c)
{
	fputc(c, j->f);
	if (j->depth)
		j->depth--;
	else
		j->count[0] = 1;
}

static inline void ws_json_obj(struct ws_json *j, const char *key)
{
	ws_json_open(j, key, '{');
}

static inline void ws_json_obj_end(struct ws_json *j)
{
	ws_json_close(j, '}');
}

static inline void ws_json_arr(struct ws_json *j, const char *key)
{
	ws_json_open(j, key, '[');
}

static inline void ws_json_arr_end(struct ws_json *j)
{
	ws_json_close(j, ']');
}

static inline void ws_json_str(struct ws_json *j, const char *key,
			       const char *val)
{
	ws_json_key(j, key);
	ws_json_string(j->f, val);
}

static inline void ws_json_num(struct ws_json *j, const char *key, double v)
{
	ws_json_key(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f);
}

/* A number with a fixed count of decimals (rates, percentages). */
static inline void ws_json_fix(struct ws_json *j, const char *key, double v,
			       int decimals)
{
	ws_json_key(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.*f", decimals, v);
	else
		fputs("null", j->f);
}

static inline void ws_json_int(struct ws_json *j, const char *key, long long v)
{
	ws_json_key(j, key);
	fprintf(j->f, "%lld", v);
}

static inline void ws_json_u64(struct ws_json *j, const char *key,
			       unsigned long long v)
{
	ws_json_key(j, key);
	fprintf(j->f, "%llu", v);
}

static inline void ws_json_bool(struct ws_json *j, const char *key, bool v)
{
	ws_json_key(j, key);
	fputs(v ? "true" : "false", j->f);
}

static inline void ws_json_null(struct ws_json *j, const char *key)
{
	ws_json_key(j, key);
	fputs("null", j->f);
}

#endif /* WL_JSONW_H */
