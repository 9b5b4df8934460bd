/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_compare's small, strict JSON reader for the one-line objects
 * "wl_stream --json" prints: it validates a whole document (RFC 8259
 * grammar, nesting limited) and finds members of objects by key, returning
 * pointers into the text, so wl_compare can pick the few fields it needs
 * ("aggregate", "integrity", "wakelab"."placement", ...) and keep the rest
 * verbatim.  The writer is wl/core/json_write.h.
 */
#ifndef WL_CORE_JSON_READ_H
#define WL_CORE_JSON_READ_H

#include <stddef.h>

#define WL_JSON_MAX_DEPTH	32

/* Whether s is exactly one JSON object (surrounding whitespace allowed). */
int wl_json_valid_object(const char *s);

/*
 * Value of member @key of the (valid) object at @obj, or NULL.  Keys are
 * compared as raw text, which is exact for keys without escapes.
 */
const char *wl_json_member(const char *obj, const char *key);

/* End of the value at p (of a valid document), or NULL. */
const char *wl_json_value_end(const char *p);

/* Number at p into *v; 0 or -EINVAL (NULL or not a number). */
int wl_json_number(const char *p, double *v);

/*
 * String at p into buf; escapes other than \" \\ \/ are rejected.
 * Return: 0, -EINVAL (NULL or not such a string) or -ENOSPC.
 */
int wl_json_string(const char *p, char *buf, size_t len);

/**
 * wl_json_next_member() - iterate the members of an object
 * @it:		cursor: set *it = NULL before the first call
 * @obj:	the (valid) object
 * @key:	key buffer
 * @klen:	its size
 *
 * Return: pointer to the value of the next member (key copied to @key), or
 * NULL at the end (or on a key that does not fit).
 */
const char *wl_json_next_member(const char **it,
				const char *obj, char *key,
				size_t klen);

/**
 * wl_json_next_elem() - iterate the elements of an array
 * @it:		cursor: set *it = NULL before the first call
 * @arr:	the (valid) array
 *
 * Return: pointer to the next element, or NULL at the end.
 */
const char *wl_json_next_elem(const char **it, const char *arr);

/**
 * wl_json_members_exact() - whether an object has exactly these members
 * @obj:	the (valid) object
 * @want:	member names, NULL-terminated
 * @more:	more member names, NULL-terminated, or NULL
 * @msg:	what differs ("missing 'x', unexpected 'y', duplicate 'z'")
 * @len:	its size
 *
 * The schema check: a member added, dropped or repeated is a difference;
 * the order is not.  Return: 0 when the set is exactly @want + @more, else
 * -1 with @msg filled.
 */
int wl_json_members_exact(const char *obj,
			  const char * const *want,
			  const char * const *more, char *msg,
			  size_t len);

/* Whether the value at p is the literal true. */
int wl_json_true(const char *p);

#endif /* WL_CORE_JSON_READ_H */
