/*
 * internal.h: helpers shared by the library's sources (errors, UTF-8, arenas, clocks).
 * Nothing here is exported from libsmartssd.so.
 */
#ifndef SMARTSSD_INTERNAL_H
#define SMARTSSD_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smartssd.h"

#define SSD_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

/* The highest device status this library knows (a reply with a higher one is malformed). */
#define SSD_LAST_DEVICE_STATUS SSD_PERMISSION_DENIED

/* Fills err (when not NULL) with the code and a formatted message, cut at a UTF-8 boundary. */
void ssd_set_error(ssd_error *err, int code, const char *fmt, ...) SSD_PRINTF(3, 4);
void ssd_set_errorv(ssd_error *err, int code, const char *fmt, va_list ap) SSD_PRINTF(3, 0);
/* code 0, empty message. */
void ssd_clear_error(ssd_error *err);
/* Copies src into err (when both are not NULL). */
void ssd_copy_error(ssd_error *err, const ssd_error *src);
/* Prefixes err's message with "device ADDR: " (for decoder errors met by the client). */
void ssd_prefix_error(ssd_error *err, const char *address);

/* Cuts a NUL-terminated string so that it does not end inside a UTF-8 sequence. */
void ssd_utf8_trim_tail(char *s);

/* Strict UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF). */
bool ssd_utf8_valid(const uint8_t *s, size_t n);

/* Compares two valid UTF-8 strings as sequences of UTF-16 code units (Java's String.compareTo):
 * negative, zero or positive. */
int ssd_utf16_compare(const uint8_t *a, size_t an, const uint8_t *b, size_t bn);

/*
 * A bump allocator for decoded structures: blocks are never moved, so pointers stay valid, and
 * everything is released at once. `failed` is sticky once an allocation fails.
 */
struct ssd_arena_block;
typedef struct ssd_arena {
  struct ssd_arena_block *head;
  size_t first_size; /* size of the first block (a hint from the payload length) */
  bool failed;
} ssd_arena;

void ssd_arena_init(ssd_arena *a, size_t first_size);
/* Zeroed memory, aligned for any type; NULL (and failed set) when out of memory. n may be 0. */
void *ssd_arena_alloc(ssd_arena *a, size_t n);
/* The arena's memory as an opaque owner pointer (for the mem_ fields), or NULL when empty. */
void *ssd_arena_release(ssd_arena *a);
/* Frees what ssd_arena_release returned. Safe on NULL. */
void ssd_arena_free_owner(void *owner);

/* Monotonic clock in nanoseconds. */
int64_t ssd_now_ns(void);

#define SSD_NS_PER_MS INT64_C(1000000)

#endif /* SMARTSSD_INTERNAL_H */
