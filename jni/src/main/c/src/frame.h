/*
 * frame.h: the bounds-checked big-endian writer and reader the codec is built on, and the sizes
 * of the protocol's fixed parts.
 *
 * Both have sticky errors: after the first failure every operation does nothing, so an encoder
 * or decoder can run straight through and check once at the end (and before allocating anything
 * sized from the input).
 */
#ifndef SMARTSSD_FRAME_H
#define SMARTSSD_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Largest value of a u16 field, and so the longest string in bytes. */
#define SSD_MAX_U16 0xFFFFu
/* u32 lengths, counts and limits of 2^31 or more are negative to Java: a bad request. */
#define SSD_MAX_LENGTH 0x7FFFFFFFu
#define SSD_MAX_LANE 65534

/* Smallest encodings, for checking counts before allocating. */
#define SSD_MIN_OBJECT_STATUS_BYTES (2 + 1 + 8 + 8 + 8)
#define SSD_MIN_MAP_ENTRY_BYTES (2 + 2)
#define SSD_MIN_TASKLET_RESULT_BYTES (2 + 4)
#define SSD_CHANNEL_STATISTICS_BYTES (4 * 8)
/* ExecutionStatistics: the lane count and 24 counters; from protocol version 5 on, 3 more; from
 * version 6 on, 2 more. */
#define SSD_EXECUTION_STATS_BYTES (4 + 24 * 8)
#define SSD_OUTPUT_STATS_BYTES (3 * 8)
#define SSD_LANE_MEMORY_STATS_BYTES (2 * 8)

/* Bytes of a READ_OBJECT reply besides its results (state, empty message, statistics, count,
 * finished) in a frame of protocol `version`: 204, 228 from version 5 on, 244 from version 6 on. */
#define SSD_READ_OBJECT_OVERHEAD(version)                                          \
  (1 + 2 + SSD_EXECUTION_STATS_BYTES +                                             \
   ((version) >= SSD_OUTPUT_VERSION ? SSD_OUTPUT_STATS_BYTES : 0) +                \
   ((version) >= SSD_LANE_MEMORY_VERSION ? SSD_LANE_MEMORY_STATS_BYTES : 0) + 4 + 1)
/* The device's default smartssd.device.host.max-frame-bytes: the largest request payload a
 * device accepts unless configured otherwise. */
#define SSD_DEVICE_MAX_FRAME_DEFAULT (64u << 20)
/* Bytes of a WRITE payload besides the data: handle and length. */
#define SSD_WRITE_OVERHEAD (8 + 4)
/* Bytes of a READ reply payload besides the data: its length. */
#define SSD_READ_OVERHEAD 4

/* ---- writer ---------------------------------------------------------------------------------- */

typedef struct ssd_writer {
  ssd_buffer *b;
  size_t pos;  /* logical position: keeps counting past a full fixed buffer (to report the need) */
  int error;   /* SSD_OK, SSD_E_NOMEM, or SSD_E_ARG (a fixed buffer is full) */
} ssd_writer;

void ssd_writer_init(ssd_writer *w, ssd_buffer *b);
void ssd_put_u8(ssd_writer *w, uint8_t v);
void ssd_put_u16(ssd_writer *w, uint16_t v);
void ssd_put_u32(ssd_writer *w, uint32_t v);
void ssd_put_u64(ssd_writer *w, uint64_t v);
void ssd_put_raw(ssd_writer *w, const void *p, size_t n);
/* Overwrites 4 bytes at an absolute position already written (a length placeholder). */
void ssd_patch_u32(ssd_writer *w, size_t at, uint32_t v);

/* A buffer backed by caller memory that moves to the heap when it outgrows it. */
void ssd_buffer_stack(ssd_buffer *b, void *mem, size_t cap);

/* ---- reader ---------------------------------------------------------------------------------- */

typedef struct ssd_reader {
  const uint8_t *p;
  size_t len;
  size_t pos;
  const char *context;  /* "LIST response" */
  const char *list;     /* when reading an element of a list: its name ... */
  uint32_t index;       /* ... and index, for messages such as entries[3].path */
  ssd_arena *arena;     /* where strings are copied */
  ssd_error *err;
  bool failed;
} ssd_reader;

void ssd_reader_init(ssd_reader *r, const void *p, size_t len, const char *context,
                     ssd_arena *arena, ssd_error *err);
/* Marks the reader failed with "CONTEXT: field 'F': problem" (first failure only). */
void ssd_reader_fail(ssd_reader *r, const char *field, const char *fmt, ...) SSD_PRINTF(3, 4);
/* Names the list element being read; NULL list for top-level fields. */
void ssd_reader_element(ssd_reader *r, const char *list, uint32_t index);

uint8_t ssd_get_u8(ssd_reader *r, const char *field);
bool ssd_get_bool(ssd_reader *r, const char *field);
uint16_t ssd_get_u16(ssd_reader *r, const char *field);
uint32_t ssd_get_u32(ssd_reader *r, const char *field);
uint64_t ssd_get_u64(ssd_reader *r, const char *field);
/* A u32 length or limit: 2^31 or more is rejected. */
uint32_t ssd_get_length(ssd_reader *r, const char *field);
/* A u32 count of elements of at least min_each bytes: rejected when the rest cannot hold them. */
uint32_t ssd_get_count(ssd_reader *r, const char *field, size_t min_each);
/* A u16 length and that many bytes of valid UTF-8, copied NUL-terminated into the arena. */
void ssd_get_string(ssd_reader *r, const char *field, ssd_str *out);
/* A u32 length and that many bytes; *data points into the input. */
void ssd_get_bytes(ssd_reader *r, const char *field, const uint8_t **data, uint32_t *n);
/* Rejects trailing bytes. */
void ssd_reader_end(ssd_reader *r);

#endif /* SMARTSSD_FRAME_H */
