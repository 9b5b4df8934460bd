/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON writer of wl_stream --json and wl_compare's results.json.
 *
 * A streaming writer (struct wl_jsonw): objects, arrays, strings (escaped),
 * numbers (non-finite ones become null), booleans and null, written on one
 * line with commas placed automatically.  No allocation; nesting is
 * limited to WL_JSONW_DEPTH.  And the two plain writers of one value.
 */
#ifndef WL_CORE_JSON_WRITE_H
#define WL_CORE_JSON_WRITE_H

#include <stdbool.h>
#include <stdio.h>

#define WL_JSONW_DEPTH	16

/**
 * struct wl_jsonw - writer state
 * @f:		output
 * @depth:	open objects/arrays
 * @count:	members written so far at each depth
 */
struct wl_jsonw {
	FILE *f;
	int depth;
	int count[WL_JSONW_DEPTH];
};

void wl_jsonw_init(struct wl_jsonw *j, FILE *f);

void wl_jsonw_obj(struct wl_jsonw *j, const char *key);

void wl_jsonw_obj_end(struct wl_jsonw *j);

void wl_jsonw_arr(struct wl_jsonw *j, const char *key);

void wl_jsonw_arr_end(struct wl_jsonw *j);

void wl_jsonw_str(struct wl_jsonw *j, const char *key,
		  const char *val);

void wl_jsonw_num(struct wl_jsonw *j, const char *key, double v);

/* A number with a fixed count of decimals (rates, percentages). */
void wl_jsonw_fix(struct wl_jsonw *j, const char *key, double v,
		  int decimals);

void wl_jsonw_int(struct wl_jsonw *j, const char *key, long long v);

void wl_jsonw_u64(struct wl_jsonw *j, const char *key,
		  unsigned long long v);

void wl_jsonw_bool(struct wl_jsonw *j, const char *key, bool v);

void wl_jsonw_null(struct wl_jsonw *j, const char *key);

/* Write s as a JSON string literal. */
void wl_json_put_string(FILE *f, const char *s);

/* Write a double as a JSON number, or null when it is not finite. */
void wl_json_put_number(FILE *f, double v);

#endif /* WL_CORE_JSON_WRITE_H */
