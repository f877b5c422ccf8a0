/* frame.c: buffers, the big-endian writer and reader, frame headers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"

/* ---- buffers --------------------------------------------------------------------------------- */

SSD_API void ssd_buffer_fixed(ssd_buffer *b, void *mem, size_t cap) {
  memset(b, 0, sizeof *b);
  b->data = mem;
  b->cap = mem == NULL ? 0 : cap;
}

SSD_API void ssd_buffer_alloc(ssd_buffer *b) {
  memset(b, 0, sizeof *b);
  b->growable = true;
}

void ssd_buffer_stack(ssd_buffer *b, void *mem, size_t cap) {
  ssd_buffer_fixed(b, mem, cap);
  b->growable = true;
}

SSD_API void ssd_buffer_free(ssd_buffer *b) {
  if (b == NULL) {
    return;
  }
  if (b->heap) {
    free(b->data);
  }
  memset(b, 0, sizeof *b);
}

/* ---- writer ---------------------------------------------------------------------------------- */

void ssd_writer_init(ssd_writer *w, ssd_buffer *b) {
  w->b = b;
  w->pos = b->len;
  w->error = SSD_OK;
  b->needed = 0;
}

/* Makes room for n more bytes at w->pos; false when they cannot be written (error set). */
static bool reserve(ssd_writer *w, size_t n) {
  if (w->error != SSD_OK) {
    w->pos += n; /* keep counting, for the size a fixed buffer would need */
    return false;
  }
  ssd_buffer *b = w->b;
  if (n > SIZE_MAX - w->pos) {
    w->error = SSD_E_NOMEM;
    return false;
  }
  size_t end = w->pos + n;
  if (end <= b->cap) {
    return true;
  }
  if (!b->growable) {
    w->error = SSD_E_ARG;
    w->pos = end;
    return false;
  }
  size_t cap = b->cap < 256 ? 256 : b->cap;
  while (cap < end) {
    cap = cap > SIZE_MAX / 2 ? end : cap * 2;
  }
  uint8_t *mem;
  if (b->heap) {
    mem = realloc(b->data, cap);
  } else {
    /* Caller memory (or none yet): the bytes written so far move to the heap. */
    mem = malloc(cap);
    if (mem != NULL && w->pos > 0) {
      memcpy(mem, b->data, w->pos);
    }
  }
  if (mem == NULL) {
    w->error = SSD_E_NOMEM;
    return false;
  }
  b->data = mem;
  b->cap = cap;
  b->heap = true;
  return true;
}

void ssd_put_raw(ssd_writer *w, const void *p, size_t n) {
  if (n == 0 || !reserve(w, n)) {
    return;
  }
  memcpy(w->b->data + w->pos, p, n);
  w->pos += n;
}

void ssd_put_u8(ssd_writer *w, uint8_t v) {
  ssd_put_raw(w, &v, 1);
}

void ssd_put_u16(ssd_writer *w, uint16_t v) {
  uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};
  ssd_put_raw(w, b, sizeof b);
}

void ssd_put_u32(ssd_writer *w, uint32_t v) {
  uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
  ssd_put_raw(w, b, sizeof b);
}

void ssd_put_u64(ssd_writer *w, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++) {
    b[i] = (uint8_t)(v >> (56 - 8 * i));
  }
  ssd_put_raw(w, b, sizeof b);
}

void ssd_patch_u32(ssd_writer *w, size_t at, uint32_t v) {
  if (w->error != SSD_OK || at + 4 > w->pos) {
    return;
  }
  uint8_t *p = w->b->data + at;
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* ---- reader ---------------------------------------------------------------------------------- */

void ssd_reader_init(ssd_reader *r, const void *p, size_t len, const char *context,
                     ssd_arena *arena, ssd_error *err) {
  static const uint8_t none[1];
  r->p = p == NULL ? none : p; /* never arithmetic on NULL */
  r->len = p == NULL ? 0 : len;
  r->pos = 0;
  r->context = context;
  r->list = NULL;
  r->index = 0;
  r->arena = arena;
  r->err = err;
  r->failed = false;
}

void ssd_reader_element(ssd_reader *r, const char *list, uint32_t index) {
  r->list = list;
  r->index = index;
}

void ssd_reader_fail(ssd_reader *r, const char *field, const char *fmt, ...) {
  if (r->failed) {
    return;
  }
  r->failed = true;
  if (r->err == NULL) {
    return;
  }
  char problem[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(problem, sizeof problem, fmt, ap);
  va_end(ap);
  if (r->list != NULL) {
    ssd_set_error(r->err, SSD_E_PROTOCOL, "%s: field '%s[%u].%s': %s", r->context, r->list,
                  (unsigned)r->index, field, problem);
  } else {
    ssd_set_error(r->err, SSD_E_PROTOCOL, "%s: field '%s': %s", r->context, field, problem);
  }
}

static const uint8_t *take(ssd_reader *r, const char *field, size_t n) {
  if (r->failed) {
    return NULL;
  }
  if (r->len - r->pos < n) {
    ssd_reader_fail(r, field, "truncated: needs %zu bytes, %zu remain", n, r->len - r->pos);
    return NULL;
  }
  const uint8_t *p = r->p + r->pos;
  r->pos += n;
  return p;
}

uint8_t ssd_get_u8(ssd_reader *r, const char *field) {
  const uint8_t *p = take(r, field, 1);
  return p == NULL ? 0 : p[0];
}

bool ssd_get_bool(ssd_reader *r, const char *field) {
  uint8_t v = ssd_get_u8(r, field);
  if (v > 1) {
    ssd_reader_fail(r, field, "bool must be 0 or 1, was %u", (unsigned)v);
    return false;
  }
  return v == 1;
}

uint16_t ssd_get_u16(ssd_reader *r, const char *field) {
  const uint8_t *p = take(r, field, 2);
  return p == NULL ? 0 : (uint16_t)(p[0] << 8 | p[1]);
}

uint32_t ssd_get_u32(ssd_reader *r, const char *field) {
  const uint8_t *p = take(r, field, 4);
  if (p == NULL) {
    return 0;
  }
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint64_t ssd_get_u64(ssd_reader *r, const char *field) {
  const uint8_t *p = take(r, field, 8);
  if (p == NULL) {
    return 0;
  }
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) {
    v = v << 8 | p[i];
  }
  return v;
}

uint32_t ssd_get_length(ssd_reader *r, const char *field) {
  uint32_t v = ssd_get_u32(r, field);
  if (v > SSD_MAX_LENGTH) {
    ssd_reader_fail(r, field, "negative length (u32 %u)", (unsigned)v);
    return 0;
  }
  return v;
}

uint32_t ssd_get_count(ssd_reader *r, const char *field, size_t min_each) {
  uint32_t n = ssd_get_length(r, field);
  if (r->failed) {
    return 0;
  }
  size_t remain = r->len - r->pos;
  if ((uint64_t)n * min_each > remain) {
    ssd_reader_fail(r, field, "count %u needs at least %llu bytes, %zu remain", (unsigned)n,
                    (unsigned long long)((uint64_t)n * min_each), remain);
    return 0;
  }
  return n;
}

void ssd_get_string(ssd_reader *r, const char *field, ssd_str *out) {
  out->s = NULL;
  out->len = 0;
  uint16_t n = ssd_get_u16(r, field);
  const uint8_t *p = take(r, field, n);
  if (p == NULL) {
    return;
  }
  if (!ssd_utf8_valid(p, n)) {
    ssd_reader_fail(r, field, "not valid UTF-8");
    return;
  }
  char *s = ssd_arena_alloc(r->arena, (size_t)n + 1);
  if (s == NULL) {
    return; /* the arena's failure is reported by the decoder */
  }
  memcpy(s, p, n);
  s[n] = '\0';
  out->s = s;
  out->len = n;
}

void ssd_get_bytes(ssd_reader *r, const char *field, const uint8_t **data, uint32_t *n) {
  *data = NULL;
  *n = 0;
  uint32_t len = ssd_get_length(r, field);
  const uint8_t *p = take(r, field, len);
  if (p != NULL) {
    *data = p;
    *n = len;
  }
}

void ssd_reader_end(ssd_reader *r) {
  if (!r->failed && r->pos != r->len) {
    r->failed = true;
    ssd_set_error(r->err, SSD_E_PROTOCOL, "%s: %zu trailing bytes after the last field",
                  r->context, r->len - r->pos);
  }
}

/* ---- headers --------------------------------------------------------------------------------- */

SSD_API void ssd_header_encode(const ssd_header *h, uint8_t out[SSD_HEADER_BYTES]) {
  ssd_buffer b;
  ssd_writer w;
  ssd_buffer_fixed(&b, out, SSD_HEADER_BYTES);
  ssd_writer_init(&w, &b);
  ssd_put_u32(&w, SSD_MAGIC);
  ssd_put_u16(&w, h->version);
  ssd_put_u16(&w, h->opcode);
  ssd_put_u16(&w, h->flags);
  ssd_put_u16(&w, h->status);
  ssd_put_u32(&w, h->payload_len);
  ssd_put_u64(&w, h->request_id);
  ssd_put_u64(&w, h->modelled_nanos);
}

SSD_API int ssd_header_decode(const void *buf, size_t len, ssd_header *out, ssd_error *err) {
  memset(out, 0, sizeof *out);
  if (buf == NULL || len < SSD_HEADER_BYTES) {
    ssd_set_error(err, SSD_E_PROTOCOL, "truncated frame header: %zu of %d bytes",
                  buf == NULL ? (size_t)0 : len, SSD_HEADER_BYTES);
    return SSD_E_PROTOCOL;
  }
  ssd_reader r;
  ssd_reader_init(&r, buf, SSD_HEADER_BYTES, "frame header", NULL, err);
  uint32_t magic = ssd_get_u32(&r, "magic");
  if (magic != SSD_MAGIC) {
    ssd_set_error(err, SSD_E_PROTOCOL, "bad magic 0x%08x (expected 0x%08x): not a frame boundary",
                  (unsigned)magic, (unsigned)SSD_MAGIC);
    return SSD_E_PROTOCOL;
  }
  out->version = ssd_get_u16(&r, "version");
  out->opcode = ssd_get_u16(&r, "opcode");
  out->flags = ssd_get_u16(&r, "flags");
  out->status = ssd_get_u16(&r, "status");
  out->payload_len = ssd_get_u32(&r, "payload length");
  out->request_id = ssd_get_u64(&r, "request id");
  out->modelled_nanos = ssd_get_u64(&r, "modelled nanos");
  ssd_clear_error(err);
  return SSD_OK;
}

SSD_API int ssd_header_check_response(const ssd_header *h, uint32_t max_payload, ssd_error *err) {
  if (h->flags != SSD_FLAG_RESPONSE) {
    ssd_set_error(err, SSD_E_PROTOCOL,
                  "frame with flags 0x%04x where a response (0x0001) was expected "
                  "(opcode 0x%04x, request %llu)",
                  (unsigned)h->flags, (unsigned)h->opcode, (unsigned long long)h->request_id);
    return SSD_E_PROTOCOL;
  }
  if (h->payload_len > max_payload) {
    ssd_set_error(err, SSD_E_PROTOCOL,
                  "frame of %lu payload bytes exceeds the limit of %lu (opcode 0x%04x, request %llu)",
                  (unsigned long)h->payload_len, (unsigned long)max_payload, (unsigned)h->opcode,
                  (unsigned long long)h->request_id);
    return SSD_E_PROTOCOL;
  }
  ssd_clear_error(err);
  return SSD_OK;
}

SSD_API int ssd_frame_parse(const void *buf, size_t len, uint32_t max_payload, ssd_header *h,
                            const uint8_t **payload, ssd_error *err) {
  *payload = NULL;
  int rc = ssd_header_decode(buf, len, h, err);
  if (rc == SSD_OK) {
    rc = ssd_header_check_response(h, max_payload, err);
  }
  if (rc != SSD_OK) {
    return rc;
  }
  size_t have = len - SSD_HEADER_BYTES;
  if (have != h->payload_len) {
    ssd_set_error(err, SSD_E_PROTOCOL, "frame holds %zu payload bytes; its header says %lu",
                  have, (unsigned long)h->payload_len);
    return SSD_E_PROTOCOL;
  }
  *payload = (const uint8_t *)buf + SSD_HEADER_BYTES;
  return SSD_OK;
}
