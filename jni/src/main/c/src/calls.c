/*
 * calls.c: the typed synchronous calls: encode the payload, submit, wait, decode the reply
 * (AbstractDeviceClient's methods, in C).
 */
#include <string.h>

#include "client_internal.h"
#include "codec.h"

/* A payload being encoded: on the stack while small, on the heap when it outgrows that. */
typedef struct payload {
  uint8_t stack[512];
  ssd_buffer buf;
  ssd_writer w;
} payload;

static void payload_begin(payload *p) {
  ssd_buffer_stack(&p->buf, p->stack, sizeof p->stack);
  ssd_writer_init(&p->w, &p->buf);
}

/* rc: the encoder's argument checks. */
static int payload_end(payload *p, int rc, ssd_error *err) {
  if (rc == SSD_OK) {
    rc = ssd_writer_result(&p->w, err);
  }
  if (rc == SSD_OK) {
    p->buf.len = p->w.pos;
  }
  return rc;
}

static void payload_free(payload *p) {
  ssd_buffer_free(&p->buf);
}

static int no_client(ssd_error *err) {
  ssd_set_error(err, SSD_E_ARG, "no client");
  return SSD_E_ARG;
}

/* SSD_OK when there is a client and a place for the output. */
static int need(const ssd_client *c, const void *out, ssd_error *err) {
  if (c == NULL) {
    return no_client(err);
  }
  if (out == NULL) {
    ssd_set_error(err, SSD_E_ARG, "no place for the output");
    return SSD_E_ARG;
  }
  return SSD_OK;
}

/* Submits one request and waits for its reply: the status; *reply filled (free it). */
static int call(ssd_client *c, uint16_t opcode, const ssd_iovec *pieces, int n_pieces,
                void *dst, uint32_t dst_cap, ssd_reply *reply, uint64_t *nanos, ssd_error *err) {
  memset(reply, 0, sizeof *reply);
  uint64_t id;
  int rc = ssd_submitv(c, opcode, pieces, n_pieces, dst, dst_cap, 0, &id, err);
  if (rc == SSD_OK) {
    rc = ssd_wait(c, id, reply, err);
  }
  if (nanos != NULL) {
    *nanos = reply->modelled_nanos;
  }
  return rc;
}

/* A call whose payload was encoded into p (freed here). */
static int call_payload(ssd_client *c, uint16_t opcode, payload *p, ssd_reply *reply,
                        uint64_t *nanos, ssd_error *err) {
  ssd_iovec piece = {p->buf.data, p->buf.len};
  int rc = call(c, opcode, &piece, 1, NULL, 0, reply, nanos, err);
  payload_free(p);
  return rc;
}

/* A decoder's failure names the device too. */
static int decoded(ssd_client *c, int rc, ssd_error *err) {
  if (rc != SSD_OK) {
    ssd_prefix_error(err, ssd_address(c));
  }
  return rc;
}

/* Encoding failed before anything was sent: no modelled time. */
static int not_sent(int rc, uint64_t *nanos) {
  if (nanos != NULL) {
    *nanos = 0;
  }
  return rc;
}

/* Requests without a payload and with an empty reply. */
static int call_empty(ssd_client *c, uint16_t opcode, payload *p, uint64_t *nanos,
                      ssd_error *err) {
  ssd_reply reply;
  int rc = p != NULL ? call_payload(c, opcode, p, &reply, nanos, err)
                     : call(c, opcode, NULL, 0, NULL, 0, &reply, nanos, err);
  if (rc == SSD_OK) {
    rc = decoded(c, ssd_decode_empty(reply.payload, reply.payload_len, err), err);
  }
  ssd_reply_free(&reply);
  return rc;
}

/* Requests with one u64 in and one u64 out (FLUSH, SYNC, CLOSE, and the ids). */
static int call_u64(ssd_client *c, uint16_t opcode, payload *p, uint64_t *out, uint64_t *nanos,
                    ssd_error *err) {
  ssd_reply reply;
  int rc = call_payload(c, opcode, p, &reply, nanos, err);
  uint64_t v = 0;
  if (rc == SSD_OK) {
    rc = decoded(c, ssd_decode_u64(reply.payload, reply.payload_len, &v, err), err);
  }
  ssd_reply_free(&reply);
  if (rc == SSD_OK && out != NULL) {
    *out = v;
  }
  return rc;
}

static int handle_call(ssd_client *c, uint16_t opcode, uint64_t handle, uint64_t *length,
                       uint64_t *nanos, ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  payload p;
  payload_begin(&p);
  ssd_payload_u64(&p.w, handle);
  int rc = payload_end(&p, SSD_OK, err);
  if (rc != SSD_OK) {
    payload_free(&p);
    return not_sent(rc, nanos);
  }
  return call_u64(c, opcode, &p, length, nanos, err);
}

static int id_call_empty(ssd_client *c, uint16_t opcode, uint64_t id, uint64_t *nanos,
                         ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  payload p;
  payload_begin(&p);
  ssd_payload_u64(&p.w, id);
  int rc = payload_end(&p, SSD_OK, err);
  if (rc != SSD_OK) {
    payload_free(&p);
    return not_sent(rc, nanos);
  }
  return call_empty(c, opcode, &p, nanos, err);
}

/* OPEN and STATUS. */
static int path_call_status(ssd_client *c, uint16_t opcode, const char *path,
                            ssd_object_status *out, uint64_t *nanos, ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  payload p;
  payload_begin(&p);
  int rc = payload_end(&p, ssd_payload_path(&p.w, "path", path, err), err);
  if (rc != SSD_OK) {
    payload_free(&p);
    return not_sent(rc, nanos);
  }
  ssd_reply reply;
  rc = call_payload(c, opcode, &p, &reply, nanos, err);
  if (rc == SSD_OK) {
    ssd_object_status status;
    /* The device answers in the version of the request: the negotiated one. */
    rc = decoded(c,
                 ssd_decode_object_status(reply.payload, reply.payload_len, ssd_protocol_version(c),
                                          &status, err),
                 err);
    if (rc == SSD_OK) {
      if (out != NULL) {
        *out = status;
      } else {
        ssd_object_status_free(&status);
      }
    }
  }
  ssd_reply_free(&reply);
  return rc;
}

/* CREATE and APPEND. */
static int opened_call(ssd_client *c, uint16_t opcode, payload *p, int rc, ssd_opened *out,
                       uint64_t *nanos, ssd_error *err) {
  rc = payload_end(p, rc, err);
  if (rc != SSD_OK) {
    payload_free(p);
    return not_sent(rc, nanos);
  }
  ssd_reply reply;
  rc = call_payload(c, opcode, p, &reply, nanos, err);
  ssd_opened o;
  if (rc == SSD_OK) {
    rc = decoded(c, ssd_decode_opened(reply.payload, reply.payload_len, &o, err), err);
  }
  ssd_reply_free(&reply);
  if (rc == SSD_OK && out != NULL) {
    *out = o;
  }
  return rc;
}

/* ---- device ---------------------------------------------------------------------------------- */

SSD_API int ssd_device_info(ssd_client *c, struct ssd_device_info *out, uint64_t *nanos,
                            ssd_error *err) {
  int rc = need(c, out, err);
  if (rc != SSD_OK) {
    return not_sent(rc, nanos);
  }
  ssd_reply reply;
  rc = call(c, SSD_OP_DEVICE_INFO, NULL, 0, NULL, 0, &reply, nanos, err);
  if (rc == SSD_OK) {
    rc = decoded(c, ssd_decode_device_info(reply.payload, reply.payload_len, out, err), err);
  }
  ssd_reply_free(&reply);
  return rc;
}

SSD_API int ssd_statistics(ssd_client *c, ssd_device_statistics *out, uint64_t *nanos,
                           ssd_error *err) {
  int rc = need(c, out, err);
  if (rc != SSD_OK) {
    return not_sent(rc, nanos);
  }
  ssd_reply reply;
  rc = call(c, SSD_OP_STATISTICS, NULL, 0, NULL, 0, &reply, nanos, err);
  if (rc == SSD_OK) {
    /* The device answers in the version of the request: the negotiated one. */
    rc = decoded(c,
                 ssd_decode_statistics(reply.payload, reply.payload_len, ssd_protocol_version(c),
                                       out, err),
                 err);
  }
  ssd_reply_free(&reply);
  return rc;
}

SSD_API int ssd_shutdown(ssd_client *c, uint64_t *nanos, ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  return call_empty(c, SSD_OP_SHUTDOWN, NULL, nanos, err);
}

/* ---- files ----------------------------------------------------------------------------------- */

SSD_API int ssd_mkdirs(ssd_client *c, const char *path, uint64_t *nanos, ssd_error *err) {
  return ssd_mkdirs_permission(c, path, SSD_DEFAULT_DIR_PERMISSION, nanos, err);
}

SSD_API int ssd_mkdirs_permission(ssd_client *c, const char *path, int permission, uint64_t *nanos,
                                  ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  payload p;
  payload_begin(&p);
  int rc = payload_end(
      &p, ssd_payload_mkdirs(&p.w, path, permission, ssd_protocol_version(c), err), err);
  if (rc != SSD_OK) {
    payload_free(&p);
    return not_sent(rc, nanos);
  }
  return call_empty(c, SSD_OP_MKDIRS, &p, nanos, err);
}

SSD_API int ssd_create(ssd_client *c, const char *path, bool overwrite, bool create_parents,
                       ssd_opened *out, uint64_t *nanos, ssd_error *err) {
  return ssd_create_permission(c, path, overwrite, create_parents, SSD_DEFAULT_FILE_PERMISSION, out,
                               nanos, err);
}

SSD_API int ssd_create_permission(ssd_client *c, const char *path, bool overwrite,
                                  bool create_parents, int permission, ssd_opened *out,
                                  uint64_t *nanos, ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  payload p;
  payload_begin(&p);
  int rc = ssd_payload_create_permission(&p.w, path, overwrite, create_parents, permission,
                                         ssd_protocol_version(c), err);
  return opened_call(c, SSD_OP_CREATE, &p, rc, out, nanos, err);
}

/* SET_PERMISSION, SET_OWNER and SET_TIMES exist from version 4 on: an older device is not asked. */
static int needs_permissions(ssd_client *c, const char *command, ssd_error *err) {
  if (ssd_protocol_version(c) < SSD_PERMISSIONS_VERSION) {
    ssd_set_error(err, SSD_E_VERSION, "device %s: %s needs protocol version %d; the device speaks %d,"
                  " and keeps no owners, permissions or times but modification times",
                  ssd_address(c), command, SSD_PERMISSIONS_VERSION, ssd_protocol_version(c));
    return SSD_E_VERSION;
  }
  return SSD_OK;
}

/* A version 4 command whose payload `rc`/`p` holds, answered with an empty payload. */
static int empty_call_v4(ssd_client *c, uint16_t opcode, payload *p, int rc, uint64_t *nanos,
                         ssd_error *err) {
  rc = payload_end(p, rc, err);
  if (rc != SSD_OK) {
    payload_free(p);
    return not_sent(rc, nanos);
  }
  return call_empty(c, opcode, p, nanos, err);
}

SSD_API int ssd_set_permission(ssd_client *c, const char *path, int permission, uint64_t *nanos,
                               ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  int rc = needs_permissions(c, "SET_PERMISSION", err);
  if (rc != SSD_OK) {
    return not_sent(rc, nanos);
  }
  payload p;
  payload_begin(&p);
  rc = ssd_payload_set_permission(&p.w, path, permission, err);
  return empty_call_v4(c, SSD_OP_SET_PERMISSION, &p, rc, nanos, err);
}

SSD_API int ssd_set_owner(ssd_client *c, const char *path, const char *owner, const char *group,
                          uint64_t *nanos, ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  int rc = needs_permissions(c, "SET_OWNER", err);
  if (rc != SSD_OK) {
    return not_sent(rc, nanos);
  }
  payload p;
  payload_begin(&p);
  rc = ssd_payload_set_owner(&p.w, path, owner, group, err);
  return empty_call_v4(c, SSD_OP_SET_OWNER, &p, rc, nanos, err);
}

SSD_API int ssd_set_times(ssd_client *c, const char *path, uint64_t mtime_ms, uint64_t atime_ms,
                          uint64_t *nanos, ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  int rc = needs_permissions(c, "SET_TIMES", err);
  if (rc != SSD_OK) {
    return not_sent(rc, nanos);
  }
  payload p;
  payload_begin(&p);
  rc = ssd_payload_set_times(&p.w, path, mtime_ms, atime_ms, err);
  return empty_call_v4(c, SSD_OP_SET_TIMES, &p, rc, nanos, err);
}

SSD_API int ssd_append(ssd_client *c, const char *path, ssd_opened *out, uint64_t *nanos,
                       ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  payload p;
  payload_begin(&p);
  int rc = ssd_payload_path(&p.w, "path", path, err);
  return opened_call(c, SSD_OP_APPEND, &p, rc, out, nanos, err);
}

SSD_API int ssd_write(ssd_client *c, uint64_t handle, const void *data, size_t len,
                      uint64_t *length, uint64_t *nanos, ssd_error *err) {
  if (nanos != NULL) {
    *nanos = 0;
  }
  if (c == NULL) {
    return no_client(err);
  }
  if (data == NULL && len > 0) {
    ssd_set_error(err, SSD_E_ARG, "WRITE data: NULL with a length of %zu", len);
    return SSD_E_ARG;
  }
  /* One WRITE after the other, not pipelined: the device may run a connection's requests in
   * any order, and appends must land in order. Each fits the frame limit, and the device's
   * default limit too (the default max_frame_bytes is above it, to receive 64 MiB reads). */
  uint32_t frame = ssd_client_max_frame(c);
  if (frame > SSD_DEVICE_MAX_FRAME_DEFAULT) {
    frame = SSD_DEVICE_MAX_FRAME_DEFAULT;
  }
  size_t chunk = frame - SSD_WRITE_OVERHEAD;
  const uint8_t *rest = data;
  size_t left = len;
  uint64_t total_nanos = 0;
  int rc;
  do {
    uint32_t n = (uint32_t)(left < chunk ? left : chunk);
    uint8_t prefix[SSD_WRITE_OVERHEAD];
    ssd_buffer b;
    ssd_writer w;
    ssd_buffer_fixed(&b, prefix, sizeof prefix);
    ssd_writer_init(&w, &b);
    rc = ssd_payload_write_prefix(&w, handle, n, err);
    if (rc != SSD_OK) {
      break;
    }
    ssd_iovec pieces[2] = {{prefix, sizeof prefix}, {rest, n}};
    ssd_reply reply;
    uint64_t call_nanos;
    rc = call(c, SSD_OP_WRITE, pieces, 2, NULL, 0, &reply, &call_nanos, err);
    total_nanos += call_nanos;
    uint64_t after = 0;
    if (rc == SSD_OK) {
      rc = decoded(c, ssd_decode_u64(reply.payload, reply.payload_len, &after, err), err);
    }
    ssd_reply_free(&reply);
    if (rc != SSD_OK) {
      break;
    }
    if (length != NULL) {
      *length = after;
    }
    rest += n;
    left -= n;
  } while (left > 0);
  if (nanos != NULL) {
    *nanos = total_nanos;
  }
  return rc;
}

SSD_API int ssd_flush(ssd_client *c, uint64_t handle, uint64_t *length, uint64_t *nanos,
                      ssd_error *err) {
  return handle_call(c, SSD_OP_FLUSH, handle, length, nanos, err);
}

SSD_API int ssd_sync(ssd_client *c, uint64_t handle, uint64_t *length, uint64_t *nanos,
                     ssd_error *err) {
  return handle_call(c, SSD_OP_SYNC, handle, length, nanos, err);
}

SSD_API int ssd_close_handle(ssd_client *c, uint64_t handle, uint64_t *length, uint64_t *nanos,
                             ssd_error *err) {
  return handle_call(c, SSD_OP_CLOSE, handle, length, nanos, err);
}

SSD_API int ssd_open(ssd_client *c, const char *path, ssd_object_status *out, uint64_t *nanos,
                     ssd_error *err) {
  return path_call_status(c, SSD_OP_OPEN, path, out, nanos, err);
}

SSD_API int ssd_read(ssd_client *c, uint64_t object_id, uint64_t offset, void *dst, uint32_t cap,
                     uint32_t *n_read, uint64_t *nanos, ssd_error *err) {
  if (n_read != NULL) {
    *n_read = 0;
  }
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  if (dst == NULL || cap == 0) {
    if (dst == NULL && cap > 0) {
      ssd_set_error(err, SSD_E_ARG, "READ: no destination buffer");
      return not_sent(SSD_E_ARG, nanos);
    }
    ssd_clear_error(err);
    return not_sent(SSD_OK, nanos); /* nothing asked, nothing sent (as the Java client) */
  }
  uint32_t limit = ssd_client_max_frame(c) - SSD_READ_OVERHEAD;
  uint32_t asked = cap < limit ? cap : limit;
  uint8_t bytes[8 + 8 + 4];
  ssd_buffer b;
  ssd_writer w;
  ssd_buffer_fixed(&b, bytes, sizeof bytes);
  ssd_writer_init(&w, &b);
  int rc = ssd_payload_read(&w, object_id, offset, asked, err);
  if (rc != SSD_OK) {
    return not_sent(rc, nanos);
  }
  ssd_iovec piece = {bytes, sizeof bytes};
  ssd_reply reply;
  rc = call(c, SSD_OP_READ, &piece, 1, dst, asked, &reply, nanos, err);
  if (rc == SSD_OK && n_read != NULL) {
    *n_read = reply.data_len;
  }
  ssd_reply_free(&reply);
  return rc;
}

SSD_API int ssd_status(ssd_client *c, const char *path, ssd_object_status *out, uint64_t *nanos,
                       ssd_error *err) {
  return path_call_status(c, SSD_OP_STATUS, path, out, nanos, err);
}

SSD_API int ssd_list(ssd_client *c, const char *path, const char *start_after, uint32_t limit,
                     ssd_listing *out, uint64_t *nanos, ssd_error *err) {
  int rc = need(c, out, err);
  if (rc != SSD_OK) {
    return not_sent(rc, nanos);
  }
  payload p;
  payload_begin(&p);
  rc = payload_end(&p, ssd_payload_list(&p.w, path, start_after, limit, err), err);
  if (rc != SSD_OK) {
    payload_free(&p);
    return not_sent(rc, nanos);
  }
  ssd_reply reply;
  rc = call_payload(c, SSD_OP_LIST, &p, &reply, nanos, err);
  if (rc == SSD_OK) {
    rc = decoded(c,
                 ssd_decode_listing(reply.payload, reply.payload_len, ssd_protocol_version(c), out,
                                    err),
                 err);
  }
  ssd_reply_free(&reply);
  return rc;
}

SSD_API int ssd_rename(ssd_client *c, const char *source, const char *destination,
                       uint64_t *nanos, ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  payload p;
  payload_begin(&p);
  int rc = payload_end(&p, ssd_payload_rename(&p.w, source, destination, err), err);
  if (rc != SSD_OK) {
    payload_free(&p);
    return not_sent(rc, nanos);
  }
  return call_empty(c, SSD_OP_RENAME, &p, nanos, err);
}

SSD_API int ssd_delete(ssd_client *c, const char *path, bool recursive, uint64_t *nanos,
                       ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  payload p;
  payload_begin(&p);
  int rc = payload_end(&p, ssd_payload_delete(&p.w, path, recursive, err), err);
  if (rc != SSD_OK) {
    payload_free(&p);
    return not_sent(rc, nanos);
  }
  return call_empty(c, SSD_OP_DELETE, &p, nanos, err);
}

/* ---- in-storage processing ------------------------------------------------------------------- */

SSD_API int ssd_create_object(ssd_client *c, const void *code, uint32_t code_len,
                              const char *class_name, const char *const *keys,
                              const char *const *values, size_t n_params, uint64_t *tasklet_id,
                              uint64_t *nanos, ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  payload p;
  payload_begin(&p);
  int rc = payload_end(&p,
                       ssd_payload_create_object(&p.w, code, code_len, class_name, keys, values,
                                                 n_params, err),
                       err);
  if (rc != SSD_OK) {
    payload_free(&p);
    return not_sent(rc, nanos);
  }
  return call_u64(c, SSD_OP_CREATE_OBJECT, &p, tasklet_id, nanos, err);
}

/* EXECUTE_OBJECT as the negotiated version lays it out (an output path needs version 5). */
static int execute_call(ssd_client *c, uint64_t tasklet_id, const ssd_input_range *inputs,
                        size_t n_inputs, const char *const *keys, const char *const *values,
                        size_t n_options, const char *output_path, int output_permission,
                        uint64_t *execution_id, uint64_t *nanos, ssd_error *err) {
  payload p;
  payload_begin(&p);
  int rc = payload_end(&p,
                       ssd_payload_execute_object_output(&p.w, tasklet_id, inputs, n_inputs, keys,
                                                         values, n_options, output_path,
                                                         output_permission,
                                                         ssd_protocol_version(c), err),
                       err);
  if (rc != SSD_OK) {
    payload_free(&p);
    return not_sent(rc, nanos);
  }
  return call_u64(c, SSD_OP_EXECUTE_OBJECT, &p, execution_id, nanos, err);
}

SSD_API int ssd_execute_object(ssd_client *c, uint64_t tasklet_id, const ssd_input_range *inputs,
                               size_t n_inputs, const char *const *keys,
                               const char *const *values, size_t n_options,
                               uint64_t *execution_id, uint64_t *nanos, ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  /* From version 5 on with an empty output path, and the permission Request.ExecuteObject gives. */
  return execute_call(c, tasklet_id, inputs, n_inputs, keys, values, n_options, "",
                      SSD_DEFAULT_FILE_PERMISSION, execution_id, nanos, err);
}

SSD_API int ssd_execute_object_output(ssd_client *c, uint64_t tasklet_id,
                                      const ssd_input_range *inputs, size_t n_inputs,
                                      const char *const *keys, const char *const *values,
                                      size_t n_options, const char *output_path,
                                      int output_permission, uint64_t *execution_id,
                                      uint64_t *nanos, ssd_error *err) {
  if (c == NULL) {
    return not_sent(no_client(err), nanos);
  }
  if (output_path == NULL || output_path[0] == '\0') {
    ssd_set_error(err, SSD_E_ARG, "EXECUTE_OBJECT: an output path must name an object");
    return not_sent(SSD_E_ARG, nanos);
  }
  /* An older device is not asked: it would take the output fields for trailing bytes. */
  if (ssd_protocol_version(c) < SSD_OUTPUT_VERSION) {
    ssd_set_error(err, SSD_E_VERSION,
                  "device %s: EXECUTE_OBJECT with an output object needs protocol version %d;"
                  " the device speaks %d",
                  ssd_address(c), SSD_OUTPUT_VERSION, ssd_protocol_version(c));
    return not_sent(SSD_E_VERSION, nanos);
  }
  return execute_call(c, tasklet_id, inputs, n_inputs, keys, values, n_options, output_path,
                      output_permission, execution_id, nanos, err);
}

SSD_API int ssd_read_object(ssd_client *c, uint64_t execution_id, uint32_t max_bytes,
                            ssd_execution_progress *out, uint64_t *nanos, ssd_error *err) {
  int rc = need(c, out, err);
  if (rc != SSD_OK) {
    return not_sent(rc, nanos);
  }
  /* The reply must fit the frame limit: results plus the other fields, as the negotiated version
   * lays them out. */
  uint32_t limit = ssd_client_max_frame(c) - SSD_READ_OBJECT_OVERHEAD(ssd_protocol_version(c));
  uint32_t asked = max_bytes < limit ? max_bytes : limit;
  payload p;
  payload_begin(&p);
  rc = payload_end(&p, ssd_payload_read_object(&p.w, execution_id, asked, err), err);
  if (rc != SSD_OK) {
    payload_free(&p);
    return not_sent(rc, nanos);
  }
  ssd_reply reply;
  rc = call_payload(c, SSD_OP_READ_OBJECT, &p, &reply, nanos, err);
  if (rc == SSD_OK) {
    /* The device answers in the version of the request: the negotiated one. */
    rc = decoded(c,
                 ssd_decode_execution_progress(reply.payload, reply.payload_len,
                                               ssd_protocol_version(c), out, err),
                 err);
  }
  ssd_reply_free(&reply);
  return rc;
}

SSD_API int ssd_cancel(ssd_client *c, uint64_t execution_id, uint64_t *nanos, ssd_error *err) {
  return id_call_empty(c, SSD_OP_CANCEL, execution_id, nanos, err);
}

SSD_API int ssd_remove_object(ssd_client *c, uint64_t tasklet_id, uint64_t *nanos,
                              ssd_error *err) {
  return id_call_empty(c, SSD_OP_REMOVE_OBJECT, tasklet_id, nanos, err);
}
