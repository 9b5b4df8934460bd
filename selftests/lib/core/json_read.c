// SPDX-License-Identifier: GPL-2.0
/* Strict JSON reader: see wl/core/json_read.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl/core/json_read.h"

static const char *wl_json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* End of the string starting at p (which points at '"'), or NULL. */
static const char *wl_json_skip_string(const char *p)
{
	int i;

	if (*p++ != '"')
		return NULL;
	for (;;) {
		unsigned char c = *p;

		if (c == '"')
			return p + 1;
		if (c < 0x20)
			return NULL;
		if (c != '\\') {
			p++;
			continue;
		}
		p++;
		if (*p && strchr("\"\\/bfnrt", *p)) {
			p++;
		} else if (*p == 'u') {
			for (i = 1; i <= 4; i++)
				if (!isxdigit((unsigned char)p[i]))
					return NULL;
			p += 5;
		} else {
			return NULL;
		}
	}
}

static const char *wl_json_skip_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0') {
		p++;
	} else if (*p >= '1' && *p <= '9') {
		while (isdigit((unsigned char)*p))
			p++;
	} else {
		return NULL;
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return NULL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return p;
}

/* End of the value starting at p (no leading whitespace), or NULL. */
static const char *wl_json_skip_value(const char *p, int depth)
{
	char close;

	if (depth > WL_JSON_MAX_DEPTH)
		return NULL;
	switch (*p) {
	case '"':
		return wl_json_skip_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	case '{':
	case '[':
		close = *p == '{' ? '}' : ']';
		p = wl_json_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				p = wl_json_skip_string(p);
				if (!p)
					return NULL;
				p = wl_json_ws(p);
				if (*p++ != ':')
					return NULL;
				p = wl_json_ws(p);
			}
			p = wl_json_skip_value(p, depth + 1);
			if (!p)
				return NULL;
			p = wl_json_ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
			p = wl_json_ws(p);
		}
	default:
		return wl_json_skip_number(p);
	}
}

const char *wl_json_value_end(const char *p)
{
	return p ? wl_json_skip_value(p, 0) : NULL;
}

int wl_json_valid_object(const char *s)
{
	const char *p = wl_json_ws(s);

	if (*p != '{')
		return 0;
	p = wl_json_skip_value(p, 0);
	return p && *wl_json_ws(p) == '\0';
}

const char *wl_json_member(const char *obj, const char *key)
{
	const char *p = obj ? wl_json_ws(obj) : "", *k, *end;
	size_t klen = strlen(key);

	if (*p != '{')
		return NULL;
	p = wl_json_ws(p + 1);
	while (*p == '"') {
		k = p + 1;
		end = wl_json_skip_string(p);
		if (!end)
			return NULL;
		p = wl_json_ws(end);
		if (*p != ':')
			return NULL;
		p = wl_json_ws(p + 1);
		if ((size_t)(end - 1 - k) == klen && !strncmp(k, key, klen))
			return p;
		p = wl_json_skip_value(p, 0);
		if (!p)
			return NULL;
		p = wl_json_ws(p);
		if (*p != ',')
			return NULL;
		p = wl_json_ws(p + 1);
	}
	return NULL;
}

int wl_json_number(const char *p, double *v)
{
	if (!p || !wl_json_skip_number(p))
		return -EINVAL;
	*v = strtod(p, NULL);
	return 0;
}

int wl_json_string(const char *p, char *buf, size_t len)
{
	size_t o = 0;

	if (!p || *p != '"' || !wl_json_skip_string(p))
		return -EINVAL;
	for (p++; *p != '"'; p++) {
		if (*p == '\\') {
			p++;
			if (*p != '"' && *p != '\\' && *p != '/')
				return -EINVAL;
		}
		if (o + 1 >= len)
			return -ENOSPC;
		buf[o++] = *p;
	}
	buf[o] = '\0';
	return 0;
}

const char *wl_json_next_member(const char **it,
				const char *obj, char *key,
				size_t klen)
{
	const char *p, *v;

	if (!*it) {
		p = wl_json_ws(obj);
		if (*p != '{')
			return NULL;
		p = wl_json_ws(p + 1);
	} else {
		p = wl_json_ws(*it);
		if (*p != ',')
			return NULL;
		p = wl_json_ws(p + 1);
	}
	if (*p != '"' || wl_json_string(p, key, klen))
		return NULL;
	p = wl_json_ws(wl_json_skip_string(p));
	if (*p != ':')
		return NULL;
	v = wl_json_ws(p + 1);
	*it = wl_json_skip_value(v, 0);
	return *it ? v : NULL;
}

const char *wl_json_next_elem(const char **it, const char *arr)
{
	const char *p;

	if (!*it) {
		p = wl_json_ws(arr);
		if (*p != '[')
			return NULL;
		p = wl_json_ws(p + 1);
		if (*p == ']')
			return NULL;
	} else {
		p = wl_json_ws(*it);
		if (*p != ',')
			return NULL;
		p = wl_json_ws(p + 1);
	}
	*it = wl_json_skip_value(p, 0);
	return *it ? p : NULL;
}

/* Whether @key is in the NULL-terminated list @a or @b (@b may be NULL). */
static int wl_json_key_listed(const char *key, const char * const *a,
			      const char * const *b)
{
	for (; a && *a; a++)
		if (!strcmp(*a, key))
			return 1;
	for (; b && *b; b++)
		if (!strcmp(*b, key))
			return 1;
	return 0;
}

static void wl_json_note(char *msg, size_t len, size_t *o,
			 const char *what, const char *key)
{
	if (*o < len)
		*o += snprintf(msg + *o, len - *o, "%s%s '%s'", *o ? "," : "",
			       what, key);
}

int wl_json_members_exact(const char *obj,
			  const char * const *want,
			  const char * const *more, char *msg,
			  size_t len)
{
	const char *it = NULL, *it2, * const *w;
	char key[128], key2[128];
	size_t o = 0;
	int n;

	msg[0] = '\0';
	if (!obj || *wl_json_ws(obj) != '{') {
		snprintf(msg, len, "not an object");
		return -1;
	}
	while (wl_json_next_member(&it, obj, key, sizeof(key))) {
		if (!wl_json_key_listed(key, want, more))
			wl_json_note(msg, len, &o, "unexpected", key);
		it2 = NULL;
		n = 0;
		while (wl_json_next_member(&it2, obj, key2, sizeof(key2)) &&
		       it2 <= it)
			n += !strcmp(key, key2);
		if (n > 1)
			wl_json_note(msg, len, &o, "duplicate", key);
	}
	for (w = want; *w; w++)
		if (!wl_json_member(obj, *w))
			wl_json_note(msg, len, &o, "missing", *w);
	for (w = more; w && *w; w++)
		if (!wl_json_member(obj, *w))
			wl_json_note(msg, len, &o, "missing", *w);
	return o ? -1 : 0;
}

int wl_json_true(const char *p)
{
	return p && !strncmp(p, "true", 4);
}
