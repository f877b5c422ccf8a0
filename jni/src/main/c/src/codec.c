/*
 * codec.c: request payloads and frames (encoding), response payloads (decoding), as laid out in
 * docs/PROTOCOL.md. The frame vectors under device-api/src/test/resources/frames/ pin the bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "codec.h"

/* ---- encoding: arguments --------------------------------------------------------------------- */

/* Checks a string argument: not NULL (unless allow_null: then ""), valid UTF-8, at most 65535
 * bytes. Stores its length in *len. */
static int check_string(const char *what, const char *s, bool allow_null, size_t *len,
                        ssd_error *err) {
  if (s == NULL) {
    if (allow_null) {
      *len = 0;
      return SSD_OK;
    }
    ssd_set_error(err, SSD_E_ARG, "%s: NULL string", what);
    return SSD_E_ARG;
  }
  size_t n = strlen(s);
  if (n > SSD_MAX_U16) {
    ssd_set_error(err, SSD_E_ARG,
                  "%s: string of %zu bytes of UTF-8 is longer than the %u a string field holds",
                  what, n, SSD_MAX_U16);
    return SSD_E_ARG;
  }
  if (!ssd_utf8_valid((const uint8_t *)s, n)) {
    ssd_set_error(err, SSD_E_ARG, "%s: not valid UTF-8", what);
    return SSD_E_ARG;
  }
  *len = n;
  return SSD_OK;
}

static void put_string(ssd_writer *w, const char *s, size_t n) {
  ssd_put_u16(w, (uint16_t)n);
  ssd_put_raw(w, s, n);
}

/* Checks and writes a string argument. */
static int string_arg(ssd_writer *w, const char *what, const char *s, bool allow_null,
                      ssd_error *err) {
  size_t n;
  int rc = check_string(what, s, allow_null, &n, err);
  if (rc == SSD_OK) {
    put_string(w, s, n);
  }
  return rc;
}

static int length_arg(const char *what, uint64_t v, ssd_error *err) {
  if (v > SSD_MAX_LENGTH) {
    ssd_set_error(err, SSD_E_ARG, "%s %llu is 2^31 or more (negative to the device)", what,
                  (unsigned long long)v);
    return SSD_E_ARG;
  }
  return SSD_OK;
}

typedef struct map_entry {
  const char *key;
  size_t key_len;
  const char *value;
  size_t value_len;
} map_entry;

static int compare_entries(const void *a, const void *b) {
  const map_entry *x = a, *y = b;
  return ssd_utf16_compare((const uint8_t *)x->key, x->key_len, (const uint8_t *)y->key,
                           y->key_len);
}

/* A map: u32 n, then the entries sorted by key in UTF-16 code unit order (PROTOCOL.md). */
static int map_arg(ssd_writer *w, const char *what, const char *const *keys,
                   const char *const *values, size_t n, ssd_error *err) {
  if (n > 0 && (keys == NULL || values == NULL)) {
    ssd_set_error(err, SSD_E_ARG, "%s: %zu entries but no keys or values", what, n);
    return SSD_E_ARG;
  }
  int rc = length_arg(what, n, err);
  if (rc != SSD_OK) {
    return rc;
  }
  map_entry *entries = NULL;
  if (n > 0) {
    entries = malloc(n * sizeof *entries);
    if (entries == NULL) {
      ssd_set_error(err, SSD_E_NOMEM, "%s: out of memory sorting %zu entries", what, n);
      return SSD_E_NOMEM;
    }
  }
  for (size_t i = 0; i < n && rc == SSD_OK; i++) {
    entries[i].key = keys[i];
    entries[i].value = values[i];
    rc = check_string(what, keys[i], false, &entries[i].key_len, err);
    if (rc == SSD_OK) {
      rc = check_string(what, values[i], false, &entries[i].value_len, err);
    }
  }
  if (rc == SSD_OK && n > 1) {
    qsort(entries, n, sizeof *entries, compare_entries);
    for (size_t i = 1; i < n; i++) {
      if (compare_entries(&entries[i - 1], &entries[i]) == 0) {
        ssd_set_error(err, SSD_E_ARG, "%s: key '%s' given twice", what, entries[i].key);
        rc = SSD_E_ARG;
        break;
      }
    }
  }
  if (rc == SSD_OK) {
    ssd_put_u32(w, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
      put_string(w, entries[i].key, entries[i].key_len);
      put_string(w, entries[i].value, entries[i].value_len);
    }
  }
  free(entries);
  return rc;
}

/* ---- encoding: payloads ---------------------------------------------------------------------- */

int ssd_payload_path(ssd_writer *w, const char *what, const char *path, ssd_error *err) {
  return string_arg(w, what, path, false, err);
}

int ssd_payload_create(ssd_writer *w, const char *path, bool overwrite, bool create_parents,
                       ssd_error *err) {
  int rc = string_arg(w, "path", path, false, err);
  ssd_put_u8(w, overwrite ? 1 : 0);
  ssd_put_u8(w, create_parents ? 1 : 0);
  return rc;
}

/* A permission argument: the sticky bit and rwx three times, no more. */
static int permission_arg(ssd_writer *w, const char *what, int permission, ssd_error *err) {
  if (permission < 0 || (permission & ~SSD_PERMISSION_BITS) != 0) {
    ssd_set_error(err, SSD_E_ARG, "%s %o (octal) is not within %o", what, (unsigned)permission,
                  (unsigned)SSD_PERMISSION_BITS);
    return SSD_E_ARG;
  }
  ssd_put_u16(w, (uint16_t)permission);
  return SSD_OK;
}

int ssd_payload_mkdirs(ssd_writer *w, const char *path, int permission, int version,
                       ssd_error *err) {
  int rc = string_arg(w, "path", path, false, err);
  if (rc == SSD_OK && version >= SSD_PERMISSIONS_VERSION) {
    rc = permission_arg(w, "MKDIRS permission", permission, err);
  }
  return rc;
}

int ssd_payload_create_permission(ssd_writer *w, const char *path, bool overwrite,
                                  bool create_parents, int permission, int version,
                                  ssd_error *err) {
  int rc = ssd_payload_create(w, path, overwrite, create_parents, err);
  if (rc == SSD_OK && version >= SSD_PERMISSIONS_VERSION) {
    rc = permission_arg(w, "CREATE permission", permission, err);
  }
  return rc;
}

int ssd_payload_identify(ssd_writer *w, const char *user, const char *const *groups,
                         size_t n_groups, ssd_error *err) {
  if (user == NULL || user[0] == '\0') {
    ssd_set_error(err, SSD_E_ARG, "IDENTIFY: the user must have a name");
    return SSD_E_ARG;
  }
  if (n_groups > 65536 || (n_groups > 0 && groups == NULL)) {
    ssd_set_error(err, SSD_E_ARG, "IDENTIFY: %zu groups (at most 65536, and not NULL)", n_groups);
    return SSD_E_ARG;
  }
  int rc = string_arg(w, "IDENTIFY user", user, false, err);
  ssd_put_u32(w, (uint32_t)n_groups);
  for (size_t i = 0; rc == SSD_OK && i < n_groups; i++) {
    rc = string_arg(w, "IDENTIFY group", groups[i], false, err);
  }
  return rc;
}

int ssd_payload_set_permission(ssd_writer *w, const char *path, int permission, ssd_error *err) {
  int rc = string_arg(w, "path", path, false, err);
  if (rc == SSD_OK) {
    rc = permission_arg(w, "SET_PERMISSION permission", permission, err);
  }
  return rc;
}

int ssd_payload_set_owner(ssd_writer *w, const char *path, const char *owner, const char *group,
                          ssd_error *err) {
  int rc = string_arg(w, "path", path, false, err);
  if (rc == SSD_OK) {
    rc = string_arg(w, "SET_OWNER owner", owner, true, err);
  }
  if (rc == SSD_OK) {
    rc = string_arg(w, "SET_OWNER group", group, true, err);
  }
  return rc;
}

int ssd_payload_set_times(ssd_writer *w, const char *path, uint64_t mtime_ms, uint64_t atime_ms,
                          ssd_error *err) {
  int rc = string_arg(w, "path", path, false, err);
  ssd_put_u64(w, mtime_ms);
  ssd_put_u64(w, atime_ms);
  return rc;
}

int ssd_payload_write_prefix(ssd_writer *w, uint64_t handle, uint32_t len, ssd_error *err) {
  int rc = length_arg("WRITE data length", len, err);
  ssd_put_u64(w, handle);
  ssd_put_u32(w, len);
  return rc;
}

void ssd_payload_u64(ssd_writer *w, uint64_t v) {
  ssd_put_u64(w, v);
}

int ssd_payload_read(ssd_writer *w, uint64_t object_id, uint64_t offset, uint32_t len,
                     ssd_error *err) {
  int rc = length_arg("READ length", len, err);
  ssd_put_u64(w, object_id);
  ssd_put_u64(w, offset);
  ssd_put_u32(w, len);
  return rc;
}

int ssd_payload_list(ssd_writer *w, const char *path, const char *start_after, uint32_t limit,
                     ssd_error *err) {
  int rc = length_arg("LIST limit", limit, err);
  if (rc == SSD_OK) {
    rc = string_arg(w, "path", path, false, err);
  }
  if (rc == SSD_OK) {
    rc = string_arg(w, "start after", start_after, true, err);
  }
  ssd_put_u32(w, limit);
  return rc;
}

int ssd_payload_rename(ssd_writer *w, const char *source, const char *destination,
                       ssd_error *err) {
  int rc = string_arg(w, "source", source, false, err);
  if (rc == SSD_OK) {
    rc = string_arg(w, "destination", destination, false, err);
  }
  return rc;
}

int ssd_payload_delete(ssd_writer *w, const char *path, bool recursive, ssd_error *err) {
  int rc = string_arg(w, "path", path, false, err);
  ssd_put_u8(w, recursive ? 1 : 0);
  return rc;
}

int ssd_payload_create_object(ssd_writer *w, const void *code, uint32_t code_len,
                              const char *class_name, const char *const *keys,
                              const char *const *values, size_t n_params, ssd_error *err) {
  if (code == NULL && code_len > 0) {
    ssd_set_error(err, SSD_E_ARG, "code: NULL with a length of %lu", (unsigned long)code_len);
    return SSD_E_ARG;
  }
  int rc = length_arg("code length", code_len, err);
  if (rc != SSD_OK) {
    return rc;
  }
  ssd_put_u32(w, code_len);
  ssd_put_raw(w, code, code_len);
  rc = string_arg(w, "class name", class_name, false, err);
  if (rc == SSD_OK) {
    rc = map_arg(w, "parameters", keys, values, n_params, err);
  }
  return rc;
}

int ssd_payload_execute_object(ssd_writer *w, uint64_t tasklet_id, const ssd_input_range *inputs,
                               size_t n_inputs, const char *const *keys,
                               const char *const *values, size_t n_options, ssd_error *err) {
  if (n_inputs > 0 && inputs == NULL) {
    ssd_set_error(err, SSD_E_ARG, "inputs: %zu ranges but no array", n_inputs);
    return SSD_E_ARG;
  }
  int rc = length_arg("input count", n_inputs, err);
  if (rc != SSD_OK) {
    return rc;
  }
  ssd_put_u64(w, tasklet_id);
  ssd_put_u32(w, (uint32_t)n_inputs);
  for (size_t i = 0; i < n_inputs; i++) {
    const ssd_input_range *in = &inputs[i];
    if (in->offset > INT64_MAX) {
      ssd_set_error(err, SSD_E_ARG, "inputs[%zu]: offset %llu is 2^63 or more", i,
                    (unsigned long long)in->offset);
      return SSD_E_ARG;
    }
    if (in->length > INT64_MAX && in->length != SSD_TO_END) {
      ssd_set_error(err, SSD_E_ARG,
                    "inputs[%zu]: length %llu is 2^63 or more (only SSD_TO_END is)", i,
                    (unsigned long long)in->length);
      return SSD_E_ARG;
    }
    rc = string_arg(w, "input path", in->path, false, err);
    if (rc != SSD_OK) {
      return rc;
    }
    ssd_put_u64(w, in->offset);
    ssd_put_u64(w, in->length);
  }
  return map_arg(w, "options", keys, values, n_options, err);
}

int ssd_payload_execute_object_output(ssd_writer *w, uint64_t tasklet_id,
                                      const ssd_input_range *inputs, size_t n_inputs,
                                      const char *const *keys, const char *const *values,
                                      size_t n_options, const char *output_path,
                                      int output_permission, int version, ssd_error *err) {
  if (version < SSD_OUTPUT_VERSION && output_path != NULL && output_path[0] != '\0') {
    ssd_set_error(err, SSD_E_ARG, "an output object needs protocol version %d or later, not %d",
                  SSD_OUTPUT_VERSION, version);
    return SSD_E_ARG;
  }
  int rc = ssd_payload_execute_object(w, tasklet_id, inputs, n_inputs, keys, values, n_options,
                                      err);
  if (rc == SSD_OK && version >= SSD_OUTPUT_VERSION) {
    rc = string_arg(w, "output path", output_path, true, err);
  }
  if (rc == SSD_OK && version >= SSD_OUTPUT_VERSION) {
    rc = permission_arg(w, "EXECUTE_OBJECT output permission", output_permission, err);
  }
  return rc;
}

void ssd_payload_fixed_bytes(ssd_writer *w, const uint8_t *data, uint32_t n) {
  ssd_put_u32(w, n);
  ssd_put_raw(w, data, n);
}

int ssd_payload_read_object(ssd_writer *w, uint64_t execution_id, uint32_t max_bytes,
                            ssd_error *err) {
  int rc = length_arg("READ_OBJECT max result bytes", max_bytes, err);
  ssd_put_u64(w, execution_id);
  ssd_put_u32(w, max_bytes);
  return rc;
}

int ssd_writer_result(const ssd_writer *w, ssd_error *err) {
  switch (w->error) {
    case SSD_OK:
      return SSD_OK;
    case SSD_E_ARG:
      ssd_set_error(err, SSD_E_ARG, "the frame needs %zu bytes; the buffer holds %zu", w->pos,
                    w->b->cap);
      return SSD_E_ARG;
    default:
      ssd_set_error(err, SSD_E_NOMEM, "out of memory encoding a frame of %zu bytes", w->pos);
      return SSD_E_NOMEM;
  }
}

/* ---- encoding: frames ------------------------------------------------------------------------ */

/* Starts a request frame at out->len: the header with a payload length to patch. */
static size_t frame_begin_version(ssd_writer *w, ssd_buffer *out, uint16_t version, uint16_t opcode,
                                  uint64_t id) {
  ssd_writer_init(w, out);
  size_t start = w->pos;
  ssd_put_u32(w, SSD_MAGIC);
  ssd_put_u16(w, version);
  ssd_put_u16(w, opcode);
  ssd_put_u16(w, 0); /* flags */
  ssd_put_u16(w, 0); /* status */
  ssd_put_u32(w, 0); /* payload length, patched by frame_end */
  ssd_put_u64(w, id);
  ssd_put_u64(w, 0); /* modelled nanos */
  return start;
}

static size_t frame_begin(ssd_writer *w, ssd_buffer *out, uint16_t opcode, uint64_t id) {
  return frame_begin_version(w, out, SSD_CURRENT_VERSION, opcode, id);
}

/* Finishes the frame: patches its length and commits it to out->len, or leaves out->len as it
 * was when anything failed (rc from the arguments' checks, or the writer's error). */
static int frame_end(ssd_writer *w, size_t start, int rc, ssd_error *err) {
  ssd_buffer *out = w->b;
  if (rc == SSD_OK) {
    rc = ssd_writer_result(w, err);
    if (rc == SSD_E_ARG) {
      out->needed = w->pos;
    }
  }
  if (rc == SSD_OK && w->pos - start - SSD_HEADER_BYTES > SSD_MAX_LENGTH) {
    rc = SSD_E_ARG;
    ssd_set_error(err, rc, "payload of %zu bytes is 2^31 or more",
                  w->pos - start - SSD_HEADER_BYTES);
  }
  if (rc != SSD_OK) {
    out->len = start;
    return rc;
  }
  ssd_patch_u32(w, start + 12, (uint32_t)(w->pos - start - SSD_HEADER_BYTES));
  out->len = w->pos;
  ssd_clear_error(err);
  return SSD_OK;
}

static int bad_buffer(ssd_buffer *out, ssd_error *err) {
  if (out == NULL) {
    ssd_set_error(err, SSD_E_ARG, "no buffer to encode into");
    return 1;
  }
  return 0;
}

/* Encoders of requests without a payload. */
#define ENCODE_EMPTY(fn, op)                                                          \
  SSD_API int fn(ssd_buffer *out, uint64_t request_id, ssd_error *err) {              \
    if (bad_buffer(out, err)) return SSD_E_ARG;                                       \
    ssd_writer w;                                                                     \
    size_t start = frame_begin(&w, out, op, request_id);                              \
    return frame_end(&w, start, SSD_OK, err);                                         \
  }

ENCODE_EMPTY(ssd_encode_api_versions, SSD_OP_API_VERSIONS)
ENCODE_EMPTY(ssd_encode_device_info, SSD_OP_DEVICE_INFO)
ENCODE_EMPTY(ssd_encode_statistics, SSD_OP_STATISTICS)
ENCODE_EMPTY(ssd_encode_shutdown, SSD_OP_SHUTDOWN)

/* Encoders of requests whose payload is one `bytes` of a fixed length (a nonce, a proof). */
static int encode_fixed_bytes(ssd_buffer *out, uint16_t opcode, uint64_t request_id,
                              const uint8_t *data, uint32_t n, const char *what, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  if (data == NULL) {
    ssd_set_error(err, SSD_E_ARG, "%s: NULL", what);
    return SSD_E_ARG;
  }
  ssd_writer w;
  size_t start = frame_begin(&w, out, opcode, request_id);
  ssd_payload_fixed_bytes(&w, data, n);
  return frame_end(&w, start, SSD_OK, err);
}

SSD_API int ssd_encode_auth_challenge(ssd_buffer *out, uint64_t request_id,
                                      const uint8_t host_nonce[SSD_NONCE_BYTES], ssd_error *err) {
  return encode_fixed_bytes(out, SSD_OP_AUTH_CHALLENGE, request_id, host_nonce, SSD_NONCE_BYTES,
                            "AUTH_CHALLENGE host nonce", err);
}

SSD_API int ssd_encode_authenticate(ssd_buffer *out, uint64_t request_id,
                                    const uint8_t proof[SSD_PROOF_BYTES], ssd_error *err) {
  return encode_fixed_bytes(out, SSD_OP_AUTHENTICATE, request_id, proof, SSD_PROOF_BYTES,
                            "AUTHENTICATE proof", err);
}

/* Encoders of requests whose payload is one path. */
#define ENCODE_PATH(fn, op)                                                           \
  SSD_API int fn(ssd_buffer *out, uint64_t request_id, const char *path, ssd_error *err) { \
    if (bad_buffer(out, err)) return SSD_E_ARG;                                       \
    ssd_writer w;                                                                     \
    size_t start = frame_begin(&w, out, op, request_id);                              \
    return frame_end(&w, start, ssd_payload_path(&w, "path", path, err), err);        \
  }

ENCODE_PATH(ssd_encode_mkdirs, SSD_OP_MKDIRS)
ENCODE_PATH(ssd_encode_append, SSD_OP_APPEND)
ENCODE_PATH(ssd_encode_open, SSD_OP_OPEN)
ENCODE_PATH(ssd_encode_status, SSD_OP_STATUS)

/* Encoders of requests whose payload is one u64 (a handle or an id). */
#define ENCODE_U64(fn, op)                                                            \
  SSD_API int fn(ssd_buffer *out, uint64_t request_id, uint64_t value, ssd_error *err) { \
    if (bad_buffer(out, err)) return SSD_E_ARG;                                       \
    ssd_writer w;                                                                     \
    size_t start = frame_begin(&w, out, op, request_id);                              \
    ssd_payload_u64(&w, value);                                                       \
    return frame_end(&w, start, SSD_OK, err);                                         \
  }

ENCODE_U64(ssd_encode_flush, SSD_OP_FLUSH)
ENCODE_U64(ssd_encode_sync, SSD_OP_SYNC)
ENCODE_U64(ssd_encode_close, SSD_OP_CLOSE)
ENCODE_U64(ssd_encode_cancel, SSD_OP_CANCEL)
ENCODE_U64(ssd_encode_remove_object, SSD_OP_REMOVE_OBJECT)

SSD_API int ssd_encode_create(ssd_buffer *out, uint64_t request_id, const char *path,
                              bool overwrite, bool create_parents, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin(&w, out, SSD_OP_CREATE, request_id);
  return frame_end(&w, start, ssd_payload_create(&w, path, overwrite, create_parents, err), err);
}

SSD_API int ssd_encode_mkdirs_v4(ssd_buffer *out, uint64_t request_id, const char *path,
                                 int permission, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin_version(&w, out, SSD_PERMISSIONS_VERSION, SSD_OP_MKDIRS, request_id);
  return frame_end(&w, start,
                   ssd_payload_mkdirs(&w, path, permission, SSD_PERMISSIONS_VERSION, err), err);
}

SSD_API int ssd_encode_create_v4(ssd_buffer *out, uint64_t request_id, const char *path,
                                 bool overwrite, bool create_parents, int permission,
                                 ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin_version(&w, out, SSD_PERMISSIONS_VERSION, SSD_OP_CREATE, request_id);
  return frame_end(&w, start,
                   ssd_payload_create_permission(&w, path, overwrite, create_parents, permission,
                                                 SSD_PERMISSIONS_VERSION, err),
                   err);
}

SSD_API int ssd_encode_identify(ssd_buffer *out, uint64_t request_id, const char *user,
                                const char *const *groups, size_t n_groups, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin_version(&w, out, SSD_PERMISSIONS_VERSION, SSD_OP_IDENTIFY, request_id);
  return frame_end(&w, start, ssd_payload_identify(&w, user, groups, n_groups, err), err);
}

SSD_API int ssd_encode_set_permission(ssd_buffer *out, uint64_t request_id, const char *path,
                                      int permission, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start =
      frame_begin_version(&w, out, SSD_PERMISSIONS_VERSION, SSD_OP_SET_PERMISSION, request_id);
  return frame_end(&w, start, ssd_payload_set_permission(&w, path, permission, err), err);
}

SSD_API int ssd_encode_set_owner(ssd_buffer *out, uint64_t request_id, const char *path,
                                 const char *owner, const char *group, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin_version(&w, out, SSD_PERMISSIONS_VERSION, SSD_OP_SET_OWNER, request_id);
  return frame_end(&w, start, ssd_payload_set_owner(&w, path, owner, group, err), err);
}

SSD_API int ssd_encode_set_times(ssd_buffer *out, uint64_t request_id, const char *path,
                                 uint64_t mtime_ms, uint64_t atime_ms, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin_version(&w, out, SSD_PERMISSIONS_VERSION, SSD_OP_SET_TIMES, request_id);
  return frame_end(&w, start, ssd_payload_set_times(&w, path, mtime_ms, atime_ms, err), err);
}

SSD_API int ssd_encode_write(ssd_buffer *out, uint64_t request_id, uint64_t handle,
                             const void *data, uint32_t len, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  if (data == NULL && len > 0) {
    ssd_set_error(err, SSD_E_ARG, "WRITE data: NULL with a length of %lu", (unsigned long)len);
    return SSD_E_ARG;
  }
  ssd_writer w;
  size_t start = frame_begin(&w, out, SSD_OP_WRITE, request_id);
  int rc = ssd_payload_write_prefix(&w, handle, len, err);
  ssd_put_raw(&w, data, len);
  return frame_end(&w, start, rc, err);
}

SSD_API int ssd_encode_read(ssd_buffer *out, uint64_t request_id, uint64_t object_id,
                            uint64_t offset, uint32_t len, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin(&w, out, SSD_OP_READ, request_id);
  return frame_end(&w, start, ssd_payload_read(&w, object_id, offset, len, err), err);
}

SSD_API int ssd_encode_list(ssd_buffer *out, uint64_t request_id, const char *path,
                            const char *start_after, uint32_t limit, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin(&w, out, SSD_OP_LIST, request_id);
  return frame_end(&w, start, ssd_payload_list(&w, path, start_after, limit, err), err);
}

SSD_API int ssd_encode_rename(ssd_buffer *out, uint64_t request_id, const char *source,
                              const char *destination, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin(&w, out, SSD_OP_RENAME, request_id);
  return frame_end(&w, start, ssd_payload_rename(&w, source, destination, err), err);
}

SSD_API int ssd_encode_delete(ssd_buffer *out, uint64_t request_id, const char *path,
                              bool recursive, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin(&w, out, SSD_OP_DELETE, request_id);
  return frame_end(&w, start, ssd_payload_delete(&w, path, recursive, err), err);
}

SSD_API int ssd_encode_create_object(ssd_buffer *out, uint64_t request_id, const void *code,
                                     uint32_t code_len, const char *class_name,
                                     const char *const *keys, const char *const *values,
                                     size_t n_params, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin(&w, out, SSD_OP_CREATE_OBJECT, request_id);
  int rc = ssd_payload_create_object(&w, code, code_len, class_name, keys, values, n_params, err);
  return frame_end(&w, start, rc, err);
}

SSD_API int ssd_encode_execute_object(ssd_buffer *out, uint64_t request_id, uint64_t tasklet_id,
                                      const ssd_input_range *inputs, size_t n_inputs,
                                      const char *const *keys, const char *const *values,
                                      size_t n_options, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin(&w, out, SSD_OP_EXECUTE_OBJECT, request_id);
  int rc = ssd_payload_execute_object(&w, tasklet_id, inputs, n_inputs, keys, values, n_options,
                                      err);
  return frame_end(&w, start, rc, err);
}

SSD_API int ssd_encode_execute_object_v5(ssd_buffer *out, uint64_t request_id, uint64_t tasklet_id,
                                         const ssd_input_range *inputs, size_t n_inputs,
                                         const char *const *keys, const char *const *values,
                                         size_t n_options, const char *output_path,
                                         int output_permission, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start =
      frame_begin_version(&w, out, SSD_OUTPUT_VERSION, SSD_OP_EXECUTE_OBJECT, request_id);
  int rc = ssd_payload_execute_object_output(&w, tasklet_id, inputs, n_inputs, keys, values,
                                             n_options, output_path, output_permission,
                                             SSD_OUTPUT_VERSION, err);
  return frame_end(&w, start, rc, err);
}

SSD_API int ssd_encode_read_object(ssd_buffer *out, uint64_t request_id, uint64_t execution_id,
                                   uint32_t max_bytes, ssd_error *err) {
  if (bad_buffer(out, err)) return SSD_E_ARG;
  ssd_writer w;
  size_t start = frame_begin(&w, out, SSD_OP_READ_OBJECT, request_id);
  return frame_end(&w, start, ssd_payload_read_object(&w, execution_id, max_bytes, err), err);
}

/* ---- decoding -------------------------------------------------------------------------------- */

/* Ends a decode: SSD_OK, or the reader's error, or SSD_E_NOMEM when the arena ran out. */
static int decode_result(ssd_reader *r, ssd_arena *arena) {
  if (r->failed) {
    return SSD_E_PROTOCOL;
  }
  if (arena != NULL && arena->failed) {
    ssd_set_error(r->err, SSD_E_NOMEM, "%s: out of memory decoding %zu bytes", r->context,
                  r->len);
    return SSD_E_NOMEM;
  }
  ssd_clear_error(r->err);
  return SSD_OK;
}

/* Ends a decode whose output points into `arena`: on success hands the arena's memory to *owner
 * (the output keeps it, and frees it with the output); on failure frees it and zeroes the output. */
static int finish_owned(ssd_reader *r, ssd_arena *arena, void *out, size_t out_size, void **owner) {
  int rc = decode_result(r, arena);
  void *mem = ssd_arena_release(arena);
  if (rc != SSD_OK) {
    ssd_arena_free_owner(mem);
    memset(out, 0, out_size);
    *owner = NULL;
    return rc;
  }
  *owner = mem;
  return SSD_OK;
}


/* Reads an ObjectStatus as protocol `version` lays it out: kind 0 or 1, a length below 2^63; from
 * version 4 on, owner, group, a permission within SSD_PERMISSION_BITS and the access time. */
static void get_object_status(ssd_reader *r, int version, ssd_object_status *out) {
  ssd_get_string(r, "path", &out->path);
  uint8_t kind = ssd_get_u8(r, "kind");
  if (kind > 1) {
    ssd_reader_fail(r, "kind", "must be 0 (file) or 1 (directory), was %u", (unsigned)kind);
  }
  out->directory = kind == 1;
  out->length = ssd_get_u64(r, "length");
  if (out->length > INT64_MAX) {
    ssd_reader_fail(r, "length", "negative length %lld", (long long)out->length);
  }
  out->mtime_ms = ssd_get_u64(r, "modificationTime");
  out->object_id = ssd_get_u64(r, "objectId");
  out->mem_ = NULL;
  if (version < SSD_PERMISSIONS_VERSION) {
    static char empty[1] = "";
    out->owner.s = empty;
    out->owner.len = 0;
    out->group = out->owner;
    out->permission = SSD_PERMISSION_UNKNOWN;
    out->atime_ms = out->mtime_ms;
    return;
  }
  ssd_get_string(r, "owner", &out->owner);
  ssd_get_string(r, "group", &out->group);
  uint16_t permission = ssd_get_u16(r, "permission");
  if ((permission & ~SSD_PERMISSION_BITS) != 0) {
    ssd_reader_fail(r, "permission", "must be within %o (octal), was %o", (unsigned)SSD_PERMISSION_BITS,
                    (unsigned)permission);
  }
  out->permission = permission;
  out->atime_ms = ssd_get_u64(r, "accessTime");
}

/* A map: entries in any order, kept sorted by key; a key twice is malformed. */
static void get_map(ssd_reader *r, const char *list, uint32_t *n_out, ssd_kv **out) {
  *n_out = 0;
  *out = NULL;
  uint32_t n = ssd_get_count(r, list, SSD_MIN_MAP_ENTRY_BYTES);
  if (r->failed || n == 0) {
    return;
  }
  ssd_kv *kv = ssd_arena_alloc(r->arena, (size_t)n * sizeof *kv);
  if (kv == NULL) {
    return;
  }
  for (uint32_t i = 0; i < n && !r->failed; i++) {
    ssd_reader_element(r, list, i);
    ssd_get_string(r, "key", &kv[i].key);
    ssd_get_string(r, "value", &kv[i].value);
    if (kv[i].key.s == NULL) {
      return; /* failed: reader or arena */
    }
    /* Insertion into the sorted prefix; the device sends keys sorted, so this is one compare. */
    uint32_t j = i;
    ssd_kv item = kv[i];
    while (j > 0) {
      int c = ssd_utf16_compare((const uint8_t *)kv[j - 1].key.s, kv[j - 1].key.len,
                                (const uint8_t *)item.key.s, item.key.len);
      if (c == 0) {
        ssd_reader_fail(r, "key", "duplicate key %s", item.key.s);
        return;
      }
      if (c < 0) {
        break;
      }
      kv[j] = kv[j - 1];
      j--;
    }
    kv[j] = item;
  }
  ssd_reader_element(r, NULL, 0);
  *n_out = n;
  *out = kv;
}

/* Reads an ExecutionStatistics as protocol `version` lays it out: from version 5 on, output
 * bytes, pages programmed and modelled write after the 24 counters (0 before). */
static void get_execution_stats(ssd_reader *r, int version, ssd_execution_stats *s) {
  s->lanes = ssd_get_u32(r, "statistics.lanes");
  if (s->lanes > SSD_MAX_LENGTH) {
    ssd_reader_fail(r, "statistics.lanes", "lane count %lu is 2^31 or more",
                    (unsigned long)s->lanes);
  }
  s->bytes_scanned = ssd_get_u64(r, "statistics.bytesScanned");
  s->pages_read = ssd_get_u64(r, "statistics.pagesRead");
  s->records = ssd_get_u64(r, "statistics.records");
  s->result_records = ssd_get_u64(r, "statistics.resultRecords");
  s->result_bytes = ssd_get_u64(r, "statistics.resultBytes");
  s->wall_nanos = ssd_get_u64(r, "statistics.wallNanos");
  s->lane_cpu_nanos = ssd_get_u64(r, "statistics.laneCpuNanos");
  s->modelled_nanos = ssd_get_u64(r, "statistics.modelledNanos");
  s->modelled_read_nanos = ssd_get_u64(r, "statistics.modelledReadNanos");
  s->modelled_compute_nanos = ssd_get_u64(r, "statistics.modelledComputeNanos");
  s->modelled_merge_nanos = ssd_get_u64(r, "statistics.modelledMergeNanos");
  s->modelled_transfer_nanos = ssd_get_u64(r, "statistics.modelledTransferNanos");
  s->modelled_device_microjoules = ssd_get_u64(r, "statistics.modelledDeviceMicrojoules");
  s->modelled_host_microjoules = ssd_get_u64(r, "statistics.modelledHostMicrojoules");
  s->counted_ops = ssd_get_u64(r, "statistics.countedOps");
  s->counted_memory_accesses = ssd_get_u64(r, "statistics.countedMemoryAccesses");
  s->counted_library_calls = ssd_get_u64(r, "statistics.countedLibraryCalls");
  s->counted_bulk_bytes = ssd_get_u64(r, "statistics.countedBulkBytes");
  s->modelled_host_delay_nanos = ssd_get_u64(r, "statistics.modelledHostDelayNanos");
  s->behind_model_nanos = ssd_get_u64(r, "statistics.behindModelNanos");
  s->counted_tail_ops = ssd_get_u64(r, "statistics.countedTailOps");
  s->counted_tail_memory_accesses = ssd_get_u64(r, "statistics.countedTailMemoryAccesses");
  s->counted_tail_library_calls = ssd_get_u64(r, "statistics.countedTailLibraryCalls");
  s->counted_tail_bulk_bytes = ssd_get_u64(r, "statistics.countedTailBulkBytes");
  if (version >= SSD_OUTPUT_VERSION) {
    s->output_bytes = ssd_get_u64(r, "statistics.outputBytes");
    s->pages_programmed = ssd_get_u64(r, "statistics.pagesProgrammed");
    s->modelled_write_nanos = ssd_get_u64(r, "statistics.modelledWriteNanos");
  } else {
    s->output_bytes = 0;
    s->pages_programmed = 0;
    s->modelled_write_nanos = 0;
  }
  if (version >= SSD_LANE_MEMORY_VERSION) {
    s->lane_state_bytes = ssd_get_u64(r, "statistics.laneStateBytes");
    s->swap_pages_read = ssd_get_u64(r, "statistics.swapPagesRead");
  } else {
    s->lane_state_bytes = 0;
    s->swap_pages_read = 0;
  }
  if (version >= SSD_LIBRARY_READS_VERSION) {
    s->counted_library_reads = ssd_get_u64(r, "statistics.countedLibraryReads");
    s->counted_tail_library_reads = ssd_get_u64(r, "statistics.countedTailLibraryReads");
  } else {
    s->counted_library_reads = 0;
    s->counted_tail_library_reads = 0;
  }
}

SSD_API int ssd_decode_versions(const void *payload, size_t len, uint16_t *min_version,
                                uint16_t *max_version, ssd_error *err) {
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "API_VERSIONS response", NULL, err);
  uint16_t lo = ssd_get_u16(&r, "minVersion");
  uint16_t hi = ssd_get_u16(&r, "maxVersion");
  if (lo > hi) {
    ssd_reader_fail(&r, "maxVersion", "below minVersion: %u..%u", (unsigned)lo, (unsigned)hi);
  }
  ssd_reader_end(&r);
  int rc = decode_result(&r, NULL);
  if (rc == SSD_OK) {
    *min_version = lo;
    *max_version = hi;
  }
  return rc;
}

/* A `bytes` field that must hold exactly `expected` bytes; *data points into the input. */
static void get_fixed_bytes(ssd_reader *r, const char *field, uint32_t expected,
                            const uint8_t **data) {
  uint32_t n;
  ssd_get_bytes(r, field, data, &n);
  if (!r->failed && n != expected) {
    ssd_reader_fail(r, field, "must be %lu bytes, was %lu", (unsigned long)expected,
                    (unsigned long)n);
  }
}

SSD_API int ssd_decode_auth_challenge(const void *payload, size_t len, bool *required,
                                      uint8_t device_nonce[SSD_NONCE_BYTES], ssd_error *err) {
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "AUTH_CHALLENGE response", NULL, err);
  bool req = ssd_get_bool(&r, "required");
  const uint8_t *nonce = NULL;
  get_fixed_bytes(&r, "deviceNonce", req ? SSD_NONCE_BYTES : 0, &nonce);
  ssd_reader_end(&r);
  int rc = decode_result(&r, NULL);
  if (rc == SSD_OK) {
    *required = req;
    if (req) {
      memcpy(device_nonce, nonce, SSD_NONCE_BYTES);
    } else {
      memset(device_nonce, 0, SSD_NONCE_BYTES);
    }
  }
  return rc;
}

SSD_API int ssd_decode_authenticated(const void *payload, size_t len,
                                     uint8_t proof[SSD_PROOF_BYTES], ssd_error *err) {
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "AUTHENTICATE response", NULL, err);
  const uint8_t *p = NULL;
  get_fixed_bytes(&r, "proof", SSD_PROOF_BYTES, &p);
  ssd_reader_end(&r);
  int rc = decode_result(&r, NULL);
  if (rc == SSD_OK) {
    memcpy(proof, p, SSD_PROOF_BYTES);
  }
  return rc;
}

SSD_API int ssd_decode_device_info(const void *payload, size_t len, struct ssd_device_info *out,
                                   ssd_error *err) {
  memset(out, 0, sizeof *out);
  ssd_arena arena;
  ssd_arena_init(&arena, 2 * len);
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "DEVICE_INFO response", &arena, err);
  ssd_get_string(&r, "deviceName", &out->name);
  ssd_get_string(&r, "profile", &out->profile);
  ssd_geometry *g = &out->geometry;
  static const char *const names[] = {"geometry.channels",      "geometry.waysPerChannel",
                                      "geometry.blocksPerWay",   "geometry.pagesPerBlock",
                                      "geometry.pageSizeBytes",  "geometry.stripeUnitPages"};
  uint32_t *fields[] = {&g->channels,        &g->ways_per_channel, &g->blocks_per_way,
                        &g->pages_per_block, &g->page_size_bytes,  &g->stripe_unit_pages};
  for (size_t i = 0; i < 6; i++) {
    *fields[i] = ssd_get_u32(&r, names[i]);
    /* Java's DeviceGeometry: every dimension positive (as an int). */
    if (!r.failed && (*fields[i] == 0 || *fields[i] > SSD_MAX_LENGTH)) {
      ssd_reader_fail(&r, names[i], "must be positive, was %ld", (long)(int32_t)*fields[i]);
    }
  }
  uint64_t pages = (uint64_t)g->channels * g->ways_per_channel;
  pages = pages > SSD_MAX_LENGTH ? pages : pages * g->blocks_per_way;
  pages = pages > SSD_MAX_LENGTH ? pages : pages * g->pages_per_block;
  if (!r.failed && pages > SSD_MAX_LENGTH) {
    ssd_reader_fail(&r, "geometry", "more than 2^31-1 pages are not addressable");
  }
  out->capacity_bytes = ssd_get_u64(&r, "capacityBytes");
  out->free_bytes = ssd_get_u64(&r, "freeBytes");
  out->paced = ssd_get_bool(&r, "paced");
  get_map(&r, "parameters", &out->n_params, &out->params);
  ssd_reader_end(&r);
  void *owner;
  int rc = finish_owned(&r, &arena, out, sizeof *out, &owner);
  if (rc != SSD_OK) {
    return rc;
  }
  out->mem_ = owner;
  return SSD_OK;
}

SSD_API int ssd_decode_statistics(const void *payload, size_t len, int version,
                                  ssd_device_statistics *out, ssd_error *err) {
  memset(out, 0, sizeof *out);
  ssd_arena arena;
  ssd_arena_init(&arena, len + 1);
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "STATISTICS response", &arena, err);
  out->uptime_nanos = ssd_get_u64(&r, "uptimeNanos");
  out->commands = ssd_get_u64(&r, "commands");
  out->host_bytes_in = ssd_get_u64(&r, "hostBytesIn");
  out->host_bytes_out = ssd_get_u64(&r, "hostBytesOut");
  out->link_busy_nanos = ssd_get_u64(&r, "linkBusyNanos");
  out->modelled_horizon_nanos = ssd_get_u64(&r, "modelledHorizonNanos");
  out->gc_pages_moved = ssd_get_u64(&r, "gcPagesMoved");
  out->modelled_internal_delay_nanos = ssd_get_u64(&r, "modelledInternalDelayNanos");
  out->commands_delayed_by_internal = ssd_get_u64(&r, "commandsDelayedByInternal");
  out->answers_behind_model_nanos = ssd_get_u64(&r, "answersBehindModelNanos");
  out->modelled_command_nanos = ssd_get_u64(&r, "modelledCommandNanos");
  out->modelled_execution_nanos = ssd_get_u64(&r, "modelledExecutionNanos");
  uint32_t n = ssd_get_count(&r, "channels", SSD_CHANNEL_STATISTICS_BYTES);
  ssd_channel_statistics *ch = NULL;
  if (n > 0) {
    ch = ssd_arena_alloc(&arena, (size_t)n * sizeof *ch);
  }
  for (uint32_t i = 0; ch != NULL && i < n; i++) {
    ssd_reader_element(&r, "channels", i);
    ch[i].pages_read = ssd_get_u64(&r, "pagesRead");
    ch[i].pages_programmed = ssd_get_u64(&r, "pagesProgrammed");
    ch[i].blocks_erased = ssd_get_u64(&r, "blocksErased");
    ch[i].busy_nanos = ssd_get_u64(&r, "busyNanos");
  }
  ssd_reader_element(&r, NULL, 0);
  if (version >= SSD_DISK_USE_VERSION) {
    ssd_disk_use *d = &out->disk_use;
    d->reclaiming = ssd_get_bool(&r, "diskUse.reclaiming");
    ssd_get_string(&r, "diskUse.reclaimNote", &d->reclaim_note);
    if (!r.failed && d->reclaiming && d->reclaim_note.len > 0) {
      ssd_reader_fail(&r, "diskUse.reclaimNote", "set while reclaiming: %s", d->reclaim_note.s);
    }
    d->allocated_bytes = ssd_get_u64(&r, "diskUse.allocatedBytes");
    d->file_bytes = ssd_get_u64(&r, "diskUse.fileBytes");
    d->live_bytes = ssd_get_u64(&r, "diskUse.liveBytes");
    d->punched_bytes = ssd_get_u64(&r, "diskUse.punchedBytes");
    d->holes_punched = ssd_get_u64(&r, "diskUse.holesPunched");
    out->has_disk_use = true;
  }
  if (version >= SSD_ENERGY_VERSION) {
    ssd_device_energy *e = &out->energy;
    e->core_busy_nanos = ssd_get_u64(&r, "energy.coreBusyNanos");
    e->core_nanojoules = ssd_get_u64(&r, "energy.coreNanojoules");
    e->flash_read_nanojoules = ssd_get_u64(&r, "energy.flashReadNanojoules");
    e->flash_program_nanojoules = ssd_get_u64(&r, "energy.flashProgramNanojoules");
    e->flash_erase_nanojoules = ssd_get_u64(&r, "energy.flashEraseNanojoules");
    e->link_nanojoules = ssd_get_u64(&r, "energy.linkNanojoules");
    out->has_energy = true;
  }
  ssd_reader_end(&r);
  void *owner;
  int rc = finish_owned(&r, &arena, out, sizeof *out, &owner);
  if (rc != SSD_OK) {
    return rc;
  }
  out->n_channels = n;
  out->channels = ch;
  out->mem_ = owner;
  return SSD_OK;
}

SSD_API int ssd_decode_empty(const void *payload, size_t len, ssd_error *err) {
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "empty response", NULL, err);
  ssd_reader_end(&r);
  return decode_result(&r, NULL);
}

SSD_API int ssd_decode_opened(const void *payload, size_t len, ssd_opened *out, ssd_error *err) {
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "CREATE/APPEND response", NULL, err);
  ssd_opened o;
  o.handle = ssd_get_u64(&r, "handle");
  o.object_id = ssd_get_u64(&r, "objectId");
  o.length = ssd_get_u64(&r, "length");
  ssd_reader_end(&r);
  int rc = decode_result(&r, NULL);
  if (rc == SSD_OK) {
    *out = o;
  }
  return rc;
}

SSD_API int ssd_decode_u64(const void *payload, size_t len, uint64_t *out, ssd_error *err) {
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "u64 response", NULL, err);
  uint64_t v = ssd_get_u64(&r, "value");
  ssd_reader_end(&r);
  int rc = decode_result(&r, NULL);
  if (rc == SSD_OK) {
    *out = v;
  }
  return rc;
}

SSD_API int ssd_decode_object_status(const void *payload, size_t len, int version,
                                     ssd_object_status *out, ssd_error *err) {
  memset(out, 0, sizeof *out);
  ssd_arena arena;
  ssd_arena_init(&arena, len + 1);
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "OPEN/STATUS response", &arena, err);
  get_object_status(&r, version, out);
  ssd_reader_end(&r);
  void *owner;
  int rc = finish_owned(&r, &arena, out, sizeof *out, &owner);
  if (rc != SSD_OK) {
    return rc;
  }
  out->mem_ = owner;
  return SSD_OK;
}

SSD_API int ssd_decode_data(const void *payload, size_t len, const uint8_t **data,
                            uint32_t *data_len, ssd_error *err) {
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "READ response", NULL, err);
  const uint8_t *d;
  uint32_t n;
  ssd_get_bytes(&r, "data", &d, &n);
  ssd_reader_end(&r);
  int rc = decode_result(&r, NULL);
  if (rc == SSD_OK) {
    *data = d;
    *data_len = n;
  }
  return rc;
}

SSD_API int ssd_decode_listing(const void *payload, size_t len, int version, ssd_listing *out,
                               ssd_error *err) {
  memset(out, 0, sizeof *out);
  ssd_arena arena;
  ssd_arena_init(&arena, 2 * len);
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "LIST response", &arena, err);
  uint32_t n = ssd_get_count(&r, "entries", SSD_MIN_OBJECT_STATUS_BYTES);
  ssd_object_status *entries = NULL;
  if (n > 0) {
    entries = ssd_arena_alloc(&arena, (size_t)n * sizeof *entries);
  }
  for (uint32_t i = 0; entries != NULL && i < n && !r.failed; i++) {
    ssd_reader_element(&r, "entries", i);
    get_object_status(&r, version, &entries[i]);
  }
  ssd_reader_element(&r, NULL, 0);
  bool more = ssd_get_bool(&r, "more");
  ssd_reader_end(&r);
  void *owner;
  int rc = finish_owned(&r, &arena, out, sizeof *out, &owner);
  if (rc != SSD_OK) {
    return rc;
  }
  out->n_entries = n;
  out->entries = entries;
  out->more = more;
  out->mem_ = owner;
  return SSD_OK;
}

/* A WorkProfile (PROTOCOL.md, "Profiles"): bool truncated, u32 methods and each a string, u32 nodes
 * and each u32 parent + 1 (at most the node's own index), u32 method (below the method count), four
 * u64 counts (five from version 8 on). Checked and skipped; the caller keeps its bytes. */
static void get_work_profile(ssd_reader *r, int version) {
  int counts = version >= SSD_LIBRARY_READS_VERSION ? 5 : 4;
  ssd_get_bool(r, "profile.truncated");
  uint32_t methods = ssd_get_count(r, "profile.methods", 2);
  for (uint32_t i = 0; i < methods && !r->failed; i++) {
    ssd_str name;
    ssd_reader_element(r, "profile.methods", i);
    ssd_get_string(r, "name", &name);
  }
  ssd_reader_element(r, NULL, 0);
  uint32_t nodes = ssd_get_count(r, "profile.nodes", (uint32_t)(4 + 4 + counts * 8));
  for (uint32_t i = 0; i < nodes && !r->failed; i++) {
    ssd_reader_element(r, "profile.nodes", i);
    uint32_t parent = ssd_get_u32(r, "parent");
    if (!r->failed && parent > i) {
      ssd_reader_fail(r, "parent", "node %u names node %d as its caller: a caller must come before its callees",
                      (unsigned)i, (int)parent - 1);
    }
    uint32_t method = ssd_get_u32(r, "method");
    if (!r->failed && method >= methods) {
      ssd_reader_fail(r, "method", "node %u names method %u of %u", (unsigned)i, (unsigned)method,
                      (unsigned)methods);
    }
    ssd_get_u64(r, "ops");
    ssd_get_u64(r, "memoryAccesses");
    ssd_get_u64(r, "libraryCalls");
    ssd_get_u64(r, "bulkBytes");
    if (counts == 5) {
      ssd_get_u64(r, "libraryReads");
    }
  }
  ssd_reader_element(r, NULL, 0);
}

SSD_API int ssd_decode_execution_progress(const void *payload, size_t len, int version,
                                          ssd_execution_progress *out, ssd_error *err) {
  memset(out, 0, sizeof *out);
  ssd_arena arena;
  ssd_arena_init(&arena, 2 * len);
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "READ_OBJECT response", &arena, err);
  uint8_t state = ssd_get_u8(&r, "state");
  if (state > SSD_EXEC_CANCELLED) {
    ssd_reader_fail(&r, "state", "unknown execution state %u", (unsigned)state);
  }
  ssd_get_string(&r, "message", &out->message);
  get_execution_stats(&r, version, &out->stats);
  uint32_t n = ssd_get_count(&r, "results", SSD_MIN_TASKLET_RESULT_BYTES);
  ssd_tasklet_result *results = NULL;
  if (n > 0) {
    results = ssd_arena_alloc(&arena, (size_t)n * sizeof *results);
  }
  for (uint32_t i = 0; results != NULL && i < n && !r.failed; i++) {
    ssd_reader_element(&r, "results", i);
    results[i].lane = (int)ssd_get_u16(&r, "lane") - 1; /* sent as lane + 1; 0 is the merge */
    const uint8_t *data;
    uint32_t data_len;
    ssd_get_bytes(&r, "data", &data, &data_len);
    /* Copied, so that the progress owns everything it points to. */
    uint8_t *copy = ssd_arena_alloc(&arena, data_len);
    if (copy != NULL && data_len > 0) {
      memcpy(copy, data, data_len);
    }
    results[i].data = copy;
    results[i].len = data_len;
  }
  ssd_reader_element(&r, NULL, 0);
  bool finished = ssd_get_bool(&r, "finished");
  if (finished && state == SSD_EXEC_RUNNING) {
    ssd_reader_fail(&r, "finished", "set while the state is RUNNING");
  }
  uint8_t *profile = NULL;
  uint32_t profile_len = 0;
  if (version >= SSD_PROFILE_VERSION && ssd_get_bool(&r, "has profile") && !r.failed) {
    size_t start = r.pos;
    get_work_profile(&r, version);
    if (!r.failed) {
      profile_len = (uint32_t)(r.pos - start);
      profile = ssd_arena_alloc(&arena, profile_len);
      if (profile != NULL) {
        memcpy(profile, r.p + start, profile_len);
      }
    }
  }
  ssd_reader_end(&r);
  void *owner;
  int rc = finish_owned(&r, &arena, out, sizeof *out, &owner);
  if (rc != SSD_OK) {
    return rc;
  }
  out->state = state;
  out->n_results = n;
  out->results = results;
  out->finished = finished;
  out->profile = profile;
  out->profile_len = profile_len;
  out->mem_ = owner;
  return SSD_OK;
}

SSD_API int ssd_decode_error_message(const void *payload, size_t len, char *message, size_t cap,
                                     ssd_error *err) {
  ssd_reader r;
  ssd_reader_init(&r, payload, len, "error response", NULL, err);
  uint16_t n = ssd_get_u16(&r, "message");
  const uint8_t *p = NULL;
  if (!r.failed) {
    if (r.len - r.pos < n) {
      ssd_reader_fail(&r, "message", "truncated: needs %u bytes, %zu remain", (unsigned)n,
                      r.len - r.pos);
    } else {
      p = r.p + r.pos;
      r.pos += n;
      if (!ssd_utf8_valid(p, n)) {
        ssd_reader_fail(&r, "message", "not valid UTF-8");
      }
    }
  }
  ssd_reader_end(&r);
  int rc = decode_result(&r, NULL);
  if (rc == SSD_OK && message != NULL && cap > 0) {
    size_t k = n < cap - 1 ? n : cap - 1;
    memcpy(message, p, k);
    message[k] = '\0';
    if (k < n) {
      ssd_utf8_trim_tail(message);
    }
  }
  return rc;
}

/* ---- freeing --------------------------------------------------------------------------------- */

SSD_API void ssd_object_status_free(ssd_object_status *status) {
  if (status != NULL) {
    ssd_arena_free_owner(status->mem_);
    memset(status, 0, sizeof *status);
  }
}

SSD_API void ssd_device_info_free(struct ssd_device_info *info) {
  if (info != NULL) {
    ssd_arena_free_owner(info->mem_);
    memset(info, 0, sizeof *info);
  }
}

SSD_API void ssd_device_statistics_free(ssd_device_statistics *stats) {
  if (stats != NULL) {
    ssd_arena_free_owner(stats->mem_);
    memset(stats, 0, sizeof *stats);
  }
}

SSD_API void ssd_listing_free(ssd_listing *listing) {
  if (listing != NULL) {
    ssd_arena_free_owner(listing->mem_);
    memset(listing, 0, sizeof *listing);
  }
}

SSD_API void ssd_execution_progress_free(ssd_execution_progress *progress) {
  if (progress != NULL) {
    ssd_arena_free_owner(progress->mem_);
    memset(progress, 0, sizeof *progress);
  }
}
