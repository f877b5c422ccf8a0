/*
 * test_vectors.c: the C codec against the frame vectors (device-api/src/test/resources/frames):
 * every request encodes to its file byte for byte, every response decodes to the README's values,
 * and every file in the directory is one of those (a vector added on the Java side and not here
 * fails the test); then malformed payloads (truncated at every length, a trailing byte, bools of 2, bad UTF-8, bad
 * ranges) are rejected without crashing.
 *
 * Usage: test_vectors FRAMES_DIR
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "smartssd.h"

static const char *frames_dir;

#define H UINT64_C(0x8000000000000001)
#define O UINT64_C(0xFEDCBA9876543210)
#define T UINT64_C(0x8000000000000002)
#define E UINT64_C(0xC000000000000003)
#define NON_ASCII_PATH "/donn\xC3\xA9" "es/wc98/\xE3\x83\xAD\xE3\x82\xB0-1.log"
#define MAX_PAYLOAD (64u << 20)

/* PROTOCOL.md's handshake test vector: the proofs for secret "000102...1f" (64 ASCII bytes),
 * device nonce 32 x A0 and host nonce 32 x B0. */
static const uint8_t HOST_PROOF[32] = {
    0x68, 0x59, 0x09, 0x2a, 0x68, 0x72, 0x0a, 0x3e, 0x6e, 0x0a, 0xea, 0x0f, 0x32, 0xdd, 0x76, 0xa1,
    0x78, 0xd5, 0x7d, 0x65, 0x4b, 0xe5, 0xd3, 0xfd, 0x11, 0x04, 0xf2, 0x2d, 0x26, 0x32, 0xc9, 0x0f};
static const uint8_t DEVICE_PROOF[32] = {
    0xce, 0x42, 0xa4, 0x21, 0x07, 0x57, 0xa4, 0x85, 0xe8, 0xa0, 0x41, 0xe8, 0x05, 0x58, 0x99, 0xb8,
    0xc1, 0x7e, 0xa1, 0xb3, 0x27, 0x4b, 0x27, 0xf9, 0x04, 0x29, 0x81, 0x61, 0xd2, 0xf7, 0xf7, 0xc1};

typedef struct file {
  uint8_t *data;
  size_t len;
} file;

/* The vectors checked so far: encoded to (requests) or decoded from (responses). */
#define MAX_VECTORS 256
static char covered[MAX_VECTORS][96];
static int n_covered;

static void cover(const char *name) {
  for (int i = 0; i < n_covered; i++) {
    if (strcmp(covered[i], name) == 0) return;
  }
  REQUIRE(n_covered < MAX_VECTORS && strlen(name) < sizeof covered[0]);
  snprintf(covered[n_covered++], sizeof covered[0], "%s", name);
}

static file load(const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", frames_dir, name);
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(1);
  }
  file out = {NULL, 0};
  size_t cap = 0;
  for (;;) {
    if (out.len == cap) {
      cap = cap == 0 ? 4096 : cap * 2;
      out.data = realloc(out.data, cap);
      REQUIRE(out.data != NULL);
    }
    size_t n = fread(out.data + out.len, 1, cap - out.len, f);
    if (n == 0) {
      break;
    }
    out.len += n;
  }
  fclose(f);
  return out;
}

/* ---- requests -------------------------------------------------------------------------------- */

/* Compares an encoded buffer with a vector file, and frees the buffer. */
static void expect_file(const char *name, int rc, ssd_buffer *b, const ssd_error *err) {
  file f = load(name);
  cover(name);
  if (rc != SSD_OK) {
    check_failf(__FILE__, __LINE__, "%s: encoder failed: %d %s", name, rc, err->message);
  } else if (b->len != f.len || memcmp(b->data, f.data, f.len) != 0) {
    size_t at = 0;
    while (at < b->len && at < f.len && b->data[at] == f.data[at]) {
      at++;
    }
    check_failf(__FILE__, __LINE__,
                "%s: encoded %zu bytes, file has %zu; first difference at byte %zu", name,
                b->len, f.len, at);
  } else {
    check_count++;
  }
  free(f.data);
  ssd_buffer_free(b);
}

#define ENCODES_TO(name, call)        \
  do {                                \
    ssd_buffer b;                     \
    ssd_error err;                    \
    ssd_buffer_alloc(&b);             \
    int rc = (call);                  \
    expect_file(name, rc, &b, &err);  \
  } while (0)

static void test_requests(void) {
  static const uint8_t sequence[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  static const uint8_t jar[16] = {0x50, 0x4B, 0x03, 0x04, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  /* Given out of key order, as the Java vector's map was. */
  const char *const param_keys[] = {"pattern", "field"};
  const char *const param_values[] = {"/donn\xC3\xA9" "es/", "2"};
  const ssd_input_range inputs[] = {
      {NON_ASCII_PATH, 0, UINT64_C(0x100000000)},
      {"/data/wc98/day-02.log", 4096, SSD_TO_END},
  };
  const char *const option_keys[] = {"merge"};
  const char *const option_values[] = {"host"};

  ENCODES_TO("request-api-versions.bin", ssd_encode_api_versions(&b, 1, &err));
  ENCODES_TO("request-device-info.bin", ssd_encode_device_info(&b, 2, &err));
  ENCODES_TO("request-statistics.bin", ssd_encode_statistics(&b, 3, &err));
  ENCODES_TO("request-shutdown.bin", ssd_encode_shutdown(&b, 4, &err));
  uint8_t host_nonce[SSD_NONCE_BYTES];
  memset(host_nonce, 0xB0, sizeof host_nonce);
  ENCODES_TO("request-auth-challenge.bin", ssd_encode_auth_challenge(&b, 5, host_nonce, &err));
  ENCODES_TO("request-authenticate.bin", ssd_encode_authenticate(&b, 6, HOST_PROOF, &err));
  ENCODES_TO("request-mkdirs.bin", ssd_encode_mkdirs(&b, 0x10, "/data/wc98", &err));
  ENCODES_TO("request-create.bin",
             ssd_encode_create(&b, UINT64_C(0x0102030405060708), NON_ASCII_PATH, true, false,
                               &err));
  ENCODES_TO("request-append.bin", ssd_encode_append(&b, 0x12, "/data/wc98/day-01.log", &err));
  ENCODES_TO("request-write.bin",
             ssd_encode_write(&b, UINT64_C(0xFFFFFFFFFFFFFFFE), H, sequence, 16, &err));
  ENCODES_TO("request-flush.bin", ssd_encode_flush(&b, 0x14, H, &err));
  ENCODES_TO("request-sync.bin", ssd_encode_sync(&b, 0x15, H, &err));
  ENCODES_TO("request-close.bin", ssd_encode_close(&b, 0x16, H, &err));
  ENCODES_TO("request-open.bin", ssd_encode_open(&b, 0x17, "/data/wc98/day-01.log", &err));
  ENCODES_TO("request-read.bin",
             ssd_encode_read(&b, 0x18, O, UINT64_C(0x100000005), 65536, &err));
  ENCODES_TO("request-status.bin", ssd_encode_status(&b, 0x19, "/data", &err));
  ENCODES_TO("request-list.bin", ssd_encode_list(&b, 0x1A, "/data/wc98", "day-01.log", 100, &err));
  ENCODES_TO("request-rename.bin",
             ssd_encode_rename(&b, 0x1B, "/tmp/part-00000", "/out/part-00000", &err));
  ENCODES_TO("request-delete.bin", ssd_encode_delete(&b, 0x1C, "/tmp", true, &err));
  ENCODES_TO("request-create-object.bin",
             ssd_encode_create_object(&b, 0x20, jar, sizeof jar, "org.example.wc.GrepTasklet",
                                      param_keys, param_values, 2, &err));
  ENCODES_TO("request-execute-object.bin",
             ssd_encode_execute_object(&b, 0x21, T, inputs, 2, option_keys, option_values, 1,
                                       &err));
  ENCODES_TO("request-read-object.bin", ssd_encode_read_object(&b, 0x22, E, 4u << 20, &err));
  ENCODES_TO("request-cancel.bin", ssd_encode_cancel(&b, 0x23, E, &err));
  ENCODES_TO("request-remove-object.bin", ssd_encode_remove_object(&b, 0x24, T, &err));

  /* Version 4. */
  const char *const groups[] = {"analysts", "donn\xC3\xA9" "es"};
  ENCODES_TO("request-identify.bin", ssd_encode_identify(&b, 7, "alice", groups, 2, &err));
  ENCODES_TO("request-mkdirs-v4.bin", ssd_encode_mkdirs_v4(&b, 0x10, "/data/wc98", 0750, &err));
  ENCODES_TO("request-create-v4.bin",
             ssd_encode_create_v4(&b, UINT64_C(0x0102030405060708), NON_ASCII_PATH, false, true,
                                  01640, &err));
  ENCODES_TO("request-set-permission.bin",
             ssd_encode_set_permission(&b, 0x1D, "/data/wc98", 01777, &err));
  ENCODES_TO("request-set-owner.bin", ssd_encode_set_owner(&b, 0x1E, NON_ASCII_PATH, "bob", NULL, &err));
  ENCODES_TO("request-set-times.bin",
             ssd_encode_set_times(&b, 0x1F, "/data/wc98/day-01.log", UINT64_C(1700000123456),
                                  SSD_KEEP_TIME, &err));

  /* Version 5: EXECUTE_OBJECT with an output object. */
  const char *const device_merge[] = {"device"};
  ENCODES_TO("request-execute-object-v5.bin",
             ssd_encode_execute_object_v5(&b, 0x21, T, &inputs[1], 1, option_keys, device_merge, 1,
                                          "/donn\xC3\xA9" "es/out/part-00000", 01640, &err));
}

/* Frames appended one after the other; a fixed buffer too small; argument checks. */
static void test_encoder_buffers_and_arguments(void) {
  ssd_error err;
  ssd_buffer b;
  uint8_t mem[64];

  /* Two frames in one fixed buffer: the second does not fit, and leaves the first alone. */
  ssd_buffer_fixed(&b, mem, sizeof mem);
  CHECK_INT(ssd_encode_status(&b, 0x19, "/data", &err), SSD_OK);
  CHECK_EQ(b.len, 39);
  CHECK_INT(ssd_encode_status(&b, 0x19, "/data", &err), SSD_E_ARG);
  CHECK_EQ(b.len, 39);
  CHECK_EQ(b.needed, 78);
  CHECK_CONTAINS(err.message, "78 bytes");
  file f = load("request-status.bin");
  CHECK_EQ(f.len, 39);
  CHECK_MEM(mem, f.data, f.len);
  free(f.data);

  /* A growable buffer takes many frames. */
  ssd_buffer_alloc(&b);
  for (int i = 0; i < 100; i++) {
    REQUIRE(ssd_encode_flush(&b, (uint64_t)i, H, &err) == SSD_OK);
  }
  CHECK_EQ(b.len, 100 * 40);
  ssd_buffer_free(&b);

  /* Permissions: the sticky bit and rwx three times, no more; IDENTIFY names a user. */
  ssd_buffer_alloc(&b);
  CHECK_INT(ssd_encode_set_permission(&b, 1, "/a", 02000, &err), SSD_E_ARG);
  CHECK_CONTAINS(err.message, "2000");
  CHECK_INT(ssd_encode_mkdirs_v4(&b, 1, "/a", -1, &err), SSD_E_ARG);
  CHECK_INT(ssd_encode_create_v4(&b, 1, "/a", false, false, 010000, &err), SSD_E_ARG);
  CHECK_INT(ssd_encode_identify(&b, 1, "", NULL, 0, &err), SSD_E_ARG);
  CHECK_INT(ssd_encode_identify(&b, 1, "alice", NULL, 1, &err), SSD_E_ARG);
  /* EXECUTE_OBJECT's output permission is checked as CREATE's, its path as any string. */
  CHECK_INT(ssd_encode_execute_object_v5(&b, 1, T, NULL, 0, NULL, NULL, 0, "/out", 02000, &err),
            SSD_E_ARG);
  CHECK_CONTAINS(err.message, "output permission 2000");
  CHECK_INT(ssd_encode_execute_object_v5(&b, 1, T, NULL, 0, NULL, NULL, 0, "/out", -1, &err),
            SSD_E_ARG);
  CHECK_INT(ssd_encode_execute_object_v5(&b, 1, T, NULL, 0, NULL, NULL, 0, "/bad\xC3(", 0640,
                                         &err),
            SSD_E_ARG);
  CHECK_CONTAINS(err.message, "output path");
  CHECK_EQ(b.len, 0);
  ssd_buffer_free(&b);

  /* Without an output object (NULL or ""), a version 5 EXECUTE_OBJECT is the version 1 one in a
   * version 5 header, with an empty path and the permission after the options. */
  const ssd_input_range one = {"/in", 7, SSD_TO_END};
  const char *const k[] = {"merge"};
  const char *const v[] = {"host"};
  ssd_buffer v1, v5;
  ssd_buffer_alloc(&v1);
  ssd_buffer_alloc(&v5);
  REQUIRE(ssd_encode_execute_object(&v1, 9, T, &one, 1, k, v, 1, &err) == SSD_OK);
  REQUIRE(ssd_encode_execute_object_v5(&v5, 9, T, &one, 1, k, v, 1, NULL, 0644, &err) == SSD_OK);
  REQUIRE(ssd_encode_execute_object_v5(&v5, 9, T, &one, 1, k, v, 1, "", 0644, &err) == SSD_OK);
  REQUIRE(v1.len > 32 && v5.len == 2 * (v1.len + 4));
  for (int i = 0; i < 2; i++) {
    const uint8_t *f5 = v5.data + (size_t)i * (v1.len + 4);
    CHECK_MEM(f5, v1.data, 4);                           /* magic */
    CHECK_MEM(f5 + 4, "\x00\x05", 2);                     /* version 5 */
    CHECK_MEM(f5 + 6, v1.data + 6, 6);                   /* opcode, flags, status */
    CHECK_EQ(((uint32_t)f5[14] << 8 | f5[15]), v1.len - 32 + 4); /* payload length */
    CHECK_MEM(f5 + 16, v1.data + 16, v1.len - 16);       /* id, nanos, the version 1 payload */
    CHECK_MEM(f5 + v1.len, "\x00\x00\x01\xa4", 4);       /* "", then 0644 */
  }
  ssd_buffer_free(&v1);
  ssd_buffer_free(&v5);

  ssd_buffer_alloc(&b);
  CHECK_INT(ssd_encode_mkdirs(&b, 1, "/bad\xC3(", &err), SSD_E_ARG);
  CHECK_CONTAINS(err.message, "UTF-8");
  CHECK_INT(ssd_encode_mkdirs(&b, 1, "/surrogate\xED\xA0\x80", &err), SSD_E_ARG);
  CHECK_INT(ssd_encode_mkdirs(&b, 1, "/overlong\xC0\xAF", &err), SSD_E_ARG);
  CHECK_INT(ssd_encode_mkdirs(&b, 1, NULL, &err), SSD_E_ARG);
  char *long_path = malloc(70000);
  REQUIRE(long_path != NULL);
  memset(long_path, 'a', 69999);
  long_path[0] = '/';
  long_path[69999] = '\0';
  CHECK_INT(ssd_encode_open(&b, 1, long_path, &err), SSD_E_ARG);
  CHECK_CONTAINS(err.message, "65535");
  long_path[65535] = '\0'; /* exactly 65535 bytes: fits */
  CHECK_INT(ssd_encode_open(&b, 1, long_path, &err), SSD_OK);
  CHECK_EQ(b.len, 32 + 2 + 65535);
  free(long_path);
  size_t before = b.len;
  CHECK_INT(ssd_encode_read(&b, 1, O, 0, 0x80000000u, &err), SSD_E_ARG);
  CHECK_INT(ssd_encode_list(&b, 1, "/", NULL, 0x80000000u, &err), SSD_E_ARG);
  CHECK_INT(ssd_encode_read_object(&b, 1, E, 0xFFFFFFFFu, &err), SSD_E_ARG);
  CHECK_INT(ssd_encode_write(&b, 1, H, NULL, 5, &err), SSD_E_ARG);
  CHECK_INT(ssd_encode_auth_challenge(&b, 1, NULL, &err), SSD_E_ARG);
  CHECK_INT(ssd_encode_authenticate(&b, 1, NULL, &err), SSD_E_ARG);
  const char *const dup_keys[] = {"a", "b", "a"};
  const char *const dup_values[] = {"1", "2", "3"};
  CHECK_INT(ssd_encode_create_object(&b, 1, NULL, 0, "X", dup_keys, dup_values, 3, &err),
            SSD_E_ARG);
  CHECK_CONTAINS(err.message, "twice");
  ssd_input_range bad_offset = {"/a", UINT64_C(0x8000000000000000), 1};
  CHECK_INT(ssd_encode_execute_object(&b, 1, T, &bad_offset, 1, NULL, NULL, 0, &err), SSD_E_ARG);
  ssd_input_range bad_length = {"/a", 0, UINT64_C(0xFFFFFFFFFFFFFFFE)};
  CHECK_INT(ssd_encode_execute_object(&b, 1, T, &bad_length, 1, NULL, NULL, 0, &err), SSD_E_ARG);
  CHECK_EQ(b.len, before); /* failed encoders leave the buffer as it was */
  /* start_after NULL means "" */
  CHECK_INT(ssd_encode_list(&b, 1, "/", NULL, 5, &err), SSD_OK);
  CHECK_EQ(b.len, before + 32 + 2 + 1 + 2 + 4);
  ssd_buffer_free(&b);
}

/* Keys travel in UTF-16 code unit order: U+1F600 (a surrogate pair, D83D DE00) sorts before
 * U+FF61, though its UTF-8 (F0 ..) sorts after (EF ..). */
static void test_map_order(void) {
  const char *smiley = "\xF0\x9F\x98\x80";
  const char *halfwidth = "\xEF\xBD\xA1";
  const char *const keys[] = {halfwidth, "z", smiley, "A"};
  const char *const values[] = {"1", "2", "3", "4"};
  ssd_buffer b;
  ssd_error err;
  ssd_buffer_alloc(&b);
  REQUIRE(ssd_encode_create_object(&b, 1, NULL, 0, "C", keys, values, 4, &err) == SSD_OK);
  /* payload: u32 0 code, string "C", u32 4, then entries */
  const uint8_t *p = b.data + 32 + 4 + 3 + 4;
  const uint8_t expected[] = {
      0, 1, 'A', 0, 1, '4',                          /* A */
      0, 1, 'z', 0, 1, '2',                          /* z */
      0, 4, 0xF0, 0x9F, 0x98, 0x80, 0, 1, '3',       /* U+1F600 */
      0, 3, 0xEF, 0xBD, 0xA1, 0, 1, '1',             /* U+FF61 */
  };
  CHECK_EQ(b.len, 32 + 4 + 3 + 4 + sizeof expected);
  CHECK_MEM(p, expected, sizeof expected);
  ssd_buffer_free(&b);
}

/* ---- responses ------------------------------------------------------------------------------- */

/* Loads a response vector and checks its header. The payload stays in *f. */
static const uint8_t *response_of(const char *name, file *f, uint16_t version, uint16_t opcode,
                                  uint64_t id, uint16_t status, uint64_t nanos, uint32_t *len) {
  *f = load(name);
  cover(name);
  ssd_header h;
  const uint8_t *payload;
  ssd_error err;
  int rc = ssd_frame_parse(f->data, f->len, MAX_PAYLOAD, &h, &payload, &err);
  if (rc != SSD_OK) {
    fprintf(stderr, "%s: %s\n", name, err.message);
  }
  REQUIRE(rc == SSD_OK);
  CHECK_EQ(h.version, version);
  CHECK_EQ(h.opcode, opcode);
  CHECK_EQ(h.flags, SSD_FLAG_RESPONSE);
  CHECK_EQ(h.status, status);
  CHECK_EQ(h.request_id, id);
  CHECK_EQ(h.modelled_nanos, nanos);
  CHECK_EQ(h.payload_len, f->len - 32);
  *len = h.payload_len;
  return payload;
}

/* A response vector of protocol version 1, as most are. */
static const uint8_t *response(const char *name, file *f, uint16_t opcode, uint64_t id,
                               uint16_t status, uint64_t nanos, uint32_t *len) {
  return response_of(name, f, 1, opcode, id, status, nanos, len);
}

static void check_str(const ssd_str *s, const char *expected) {
  CHECK_STR(s->s, expected);
  CHECK_EQ(s->len, strlen(expected));
}

static void check_stats_running(const ssd_execution_stats *s) {
  CHECK_EQ(s->lanes, 8);
  CHECK_EQ(s->bytes_scanned, UINT64_C(0x100000000));
  CHECK_EQ(s->pages_read, 131072);
  CHECK_EQ(s->records, 0);
  CHECK_EQ(s->result_records, 0);
  CHECK_EQ(s->result_bytes, 0);
  CHECK_EQ(s->wall_nanos, 5000000);
  CHECK_EQ(s->lane_cpu_nanos, 4000000);
  CHECK_EQ(s->modelled_nanos, 7000000);
  CHECK_EQ(s->modelled_read_nanos, 6000000);
  CHECK_EQ(s->modelled_compute_nanos, 3000000);
  CHECK_EQ(s->modelled_merge_nanos, 0);
  CHECK_EQ(s->modelled_transfer_nanos, 0);
  CHECK_EQ(s->modelled_device_microjoules, 1234);
  CHECK_EQ(s->modelled_host_microjoules, 56789);
  CHECK_EQ(s->counted_ops, 250000000);
  CHECK_EQ(s->counted_memory_accesses, 60000000);
  CHECK_EQ(s->counted_library_calls, 1000000);
  CHECK_EQ(s->counted_bulk_bytes, 4096);
  CHECK_EQ(s->modelled_host_delay_nanos, 12345);
  CHECK_EQ(s->behind_model_nanos, 0);
  CHECK_EQ(s->counted_tail_ops, 0);
  CHECK_EQ(s->counted_tail_bulk_bytes, 0);
}

/* The statistics of response-progress.bin, one value each, and so of response-progress-v5.bin. */
static void check_stats_counted(const ssd_execution_stats *s) {
  CHECK_EQ(s->lanes, 4);
  CHECK_EQ(s->bytes_scanned, UINT64_C(0x100000001));
  CHECK_EQ(s->pages_read, 2);
  CHECK_EQ(s->records, 3);
  CHECK_EQ(s->result_records, 4);
  CHECK_EQ(s->result_bytes, 5);
  CHECK_EQ(s->wall_nanos, 6);
  CHECK_EQ(s->lane_cpu_nanos, 7);
  CHECK_EQ(s->modelled_nanos, 8);
  CHECK_EQ(s->modelled_read_nanos, 9);
  CHECK_EQ(s->modelled_compute_nanos, 10);
  CHECK_EQ(s->modelled_merge_nanos, 11);
  CHECK_EQ(s->modelled_transfer_nanos, 12);
  CHECK_EQ(s->modelled_device_microjoules, 13);
  CHECK_EQ(s->modelled_host_microjoules, UINT64_C(0x7FFFFFFFFFFFFFFF));
  CHECK_EQ(s->counted_ops, 14);
  CHECK_EQ(s->counted_memory_accesses, 15);
  CHECK_EQ(s->counted_library_calls, 16);
  CHECK_EQ(s->counted_bulk_bytes, 17);
  CHECK_EQ(s->modelled_host_delay_nanos, 18);
  CHECK_EQ(s->behind_model_nanos, 19);
  CHECK_EQ(s->counted_tail_ops, 20);
  CHECK_EQ(s->counted_tail_memory_accesses, 21);
  CHECK_EQ(s->counted_tail_library_calls, 22);
  CHECK_EQ(s->counted_tail_bulk_bytes, 23);
}

/* The statistics of a frame before version 5, or of an execution without an output object. */
static void check_no_output(const ssd_execution_stats *s) {
  CHECK_EQ(s->output_bytes, 0);
  CHECK_EQ(s->pages_programmed, 0);
  CHECK_EQ(s->modelled_write_nanos, 0);
  CHECK_EQ(s->lane_state_bytes, 0);
  CHECK_EQ(s->swap_pages_read, 0);
}

static void check_statistics(const ssd_device_statistics *st) {
  CHECK_EQ(st->uptime_nanos, UINT64_C(3600000000000));
  CHECK_EQ(st->commands, 123456);
  CHECK_EQ(st->host_bytes_in, UINT64_C(0x100000001));
  CHECK_EQ(st->host_bytes_out, 987654321);
  CHECK_EQ(st->link_busy_nanos, 55000000);
  CHECK_EQ(st->modelled_horizon_nanos, UINT64_C(0x7FFFFFFFFFFFFFFF));
  CHECK_EQ(st->gc_pages_moved, 42);
  CHECK_EQ(st->modelled_internal_delay_nanos, 777000);
  CHECK_EQ(st->commands_delayed_by_internal, 3);
  CHECK_EQ(st->answers_behind_model_nanos, 4500);
  CHECK_EQ(st->modelled_command_nanos, 88000000);
  CHECK_EQ(st->modelled_execution_nanos, 99000000);
  REQUIRE(st->n_channels == 2);
  CHECK_EQ(st->channels[0].pages_read, 100);
  CHECK_EQ(st->channels[0].pages_programmed, 200);
  CHECK_EQ(st->channels[0].blocks_erased, 3);
  CHECK_EQ(st->channels[0].busy_nanos, 5000000);
  CHECK_EQ(st->channels[1].pages_read, UINT64_C(0x7FFFFFFFFFFFFFFF));
  CHECK_EQ(st->channels[1].pages_programmed, 1);
  CHECK_EQ(st->channels[1].blocks_erased, 0);
  CHECK_EQ(st->channels[1].busy_nanos, 9);
}

static void test_responses(void) {
  file f;
  uint32_t len;
  const uint8_t *p;
  ssd_error err;

  p = response("response-versions.bin", &f, SSD_OP_API_VERSIONS, 1, 0, 0, &len);
  uint16_t lo = 0, hi = 0;
  CHECK_INT(ssd_decode_versions(p, len, &lo, &hi, &err), SSD_OK);
  CHECK_EQ(lo, 1);
  CHECK_EQ(hi, 1);
  free(f.data);

  p = response("response-auth-challenge.bin", &f, SSD_OP_AUTH_CHALLENGE, 5, 0, 0, &len);
  bool required = false;
  uint8_t nonce[SSD_NONCE_BYTES];
  uint8_t a0[SSD_NONCE_BYTES];
  memset(a0, 0xA0, sizeof a0);
  CHECK_INT(ssd_decode_auth_challenge(p, len, &required, nonce, &err), SSD_OK);
  CHECK(required);
  CHECK_MEM(nonce, a0, sizeof a0);
  free(f.data);

  p = response("response-auth-challenge-not-required.bin", &f, SSD_OP_AUTH_CHALLENGE, 5, 0, 0,
               &len);
  static const uint8_t zeros[SSD_NONCE_BYTES] = {0};
  CHECK_INT(ssd_decode_auth_challenge(p, len, &required, nonce, &err), SSD_OK);
  CHECK(!required);
  CHECK_MEM(nonce, zeros, sizeof zeros);
  free(f.data);

  p = response("response-authenticated.bin", &f, SSD_OP_AUTHENTICATE, 6, 0, 0, &len);
  uint8_t proof[SSD_PROOF_BYTES];
  CHECK_INT(ssd_decode_authenticated(p, len, proof, &err), SSD_OK);
  CHECK_MEM(proof, DEVICE_PROOF, sizeof proof);
  free(f.data);

  p = response("response-info.bin", &f, SSD_OP_DEVICE_INFO, 2, 0, 1000, &len);
  struct ssd_device_info info;
  REQUIRE(ssd_decode_device_info(p, len, &info, &err) == SSD_OK);
  check_str(&info.name, "node-07.example.org");
  check_str(&info.profile, "smart-ssd-2013");
  CHECK_EQ(info.geometry.channels, 8);
  CHECK_EQ(info.geometry.ways_per_channel, 4);
  CHECK_EQ(info.geometry.blocks_per_way, 1024);
  CHECK_EQ(info.geometry.pages_per_block, 128);
  CHECK_EQ(info.geometry.page_size_bytes, 8192);
  CHECK_EQ(info.geometry.stripe_unit_pages, 4);
  CHECK_EQ(info.capacity_bytes, UINT64_C(0x10000000000));
  CHECK_EQ(info.free_bytes, UINT64_C(0xF012345678));
  CHECK(info.paced);
  REQUIRE(info.n_params == 3);
  check_str(&info.params[0].key, "smartssd.device.host.max-frame-bytes");
  check_str(&info.params[0].value, "67108864");
  check_str(&info.params[1].key, "smartssd.device.profile");
  check_str(&info.params[1].value, "smart-ssd-2013");
  check_str(&info.params[2].key, "smartssd.device.timing.cell-read-ns");
  check_str(&info.params[2].value, "50000");
  ssd_device_info_free(&info);
  CHECK(info.params == NULL && info.mem_ == NULL);
  ssd_device_info_free(&info); /* twice is harmless */
  free(f.data);

  p = response("response-statistics.bin", &f, SSD_OP_STATISTICS, 3, 0, 1000, &len);
  ssd_device_statistics st;
  REQUIRE(ssd_decode_statistics(p, len, 1, &st, &err) == SSD_OK);
  CHECK(!st.has_disk_use);
  check_statistics(&st);
  ssd_device_statistics_free(&st);
  /* Version 1 has nothing after the channels; version 2 needs its DiskUse. */
  CHECK_INT(ssd_decode_statistics(p, len, 2, &st, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "diskUse.reclaiming");
  free(f.data);

  p = response_of("response-statistics-v2.bin", &f, 2, SSD_OP_STATISTICS, 3, 0, 1000, &len);
  REQUIRE(ssd_decode_statistics(p, len, 2, &st, &err) == SSD_OK);
  check_statistics(&st);
  CHECK(st.has_disk_use);
  CHECK(!st.disk_use.reclaiming);
  check_str(&st.disk_use.reclaim_note, "the file system of /data/flash does not support punching holes");
  CHECK_EQ(st.disk_use.allocated_bytes, SSD_UNKNOWN_BYTES);
  CHECK_EQ(st.disk_use.file_bytes, UINT64_C(0x800000000));
  CHECK_EQ(st.disk_use.live_bytes, UINT64_C(0x123456789));
  CHECK_EQ(st.disk_use.punched_bytes, UINT64_C(0x8000000000000005));
  CHECK_EQ(st.disk_use.holes_punched, 77);
  CHECK(!st.has_energy);
  ssd_device_statistics_free(&st);
  CHECK_INT(ssd_decode_statistics(p, len, 1, &st, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "trailing");
  /* Version 3 needs its DeviceEnergy after the DiskUse. */
  CHECK_INT(ssd_decode_statistics(p, len, 3, &st, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "energy.coreBusyNanos");
  free(f.data);

  p = response_of("response-statistics-v3.bin", &f, 3, SSD_OP_STATISTICS, 3, 0, 1000, &len);
  REQUIRE(ssd_decode_statistics(p, len, 3, &st, &err) == SSD_OK);
  check_statistics(&st);
  CHECK(st.has_disk_use);
  CHECK_EQ(st.disk_use.holes_punched, 77);
  CHECK(st.has_energy);
  CHECK_EQ(st.energy.core_busy_nanos, 250000000);
  CHECK_EQ(st.energy.core_nanojoules, 75000000);
  CHECK_EQ(st.energy.flash_read_nanojoules, UINT64_C(0x100000002));
  CHECK_EQ(st.energy.flash_program_nanojoules, 33000);
  CHECK_EQ(st.energy.flash_erase_nanojoules, 0);
  CHECK_EQ(st.energy.link_nanojoules, UINT64_C(0x8000000000000007));
  ssd_device_statistics_free(&st);
  CHECK_INT(ssd_decode_statistics(p, len, 2, &st, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "trailing");
  free(f.data);

  p = response("response-empty.bin", &f, SSD_OP_MKDIRS, 0x10, 0, 25000, &len);
  CHECK_EQ(len, 0);
  CHECK_INT(ssd_decode_empty(p, len, &err), SSD_OK);
  free(f.data);

  p = response("response-opened.bin", &f, SSD_OP_CREATE, UINT64_C(0x0102030405060708), 0, 30000,
               &len);
  ssd_opened o;
  REQUIRE(ssd_decode_opened(p, len, &o, &err) == SSD_OK);
  CHECK_EQ(o.handle, H);
  CHECK_EQ(o.object_id, O);
  CHECK_EQ(o.length, 0);
  free(f.data);

  p = response("response-length.bin", &f, SSD_OP_SYNC, 0x15, 0, UINT64_C(0x100000000), &len);
  uint64_t v = 0;
  REQUIRE(ssd_decode_u64(p, len, &v, &err) == SSD_OK);
  CHECK_EQ(v, UINT64_C(0x100000011));
  free(f.data);

  p = response("response-stat.bin", &f, SSD_OP_STATUS, 0x19, 0, 5000, &len);
  ssd_object_status os;
  REQUIRE(ssd_decode_object_status(p, len, 1, &os, &err) == SSD_OK);
  check_str(&os.path, "/data");
  CHECK_EQ(os.owner.len, 0);
  CHECK_INT(os.permission, SSD_PERMISSION_UNKNOWN);
  CHECK_EQ(os.atime_ms, os.mtime_ms);
  CHECK(os.directory);
  CHECK_EQ(os.length, 0);
  CHECK_EQ(os.mtime_ms, UINT64_C(1700000000000));
  CHECK_EQ(os.object_id, 2);
  ssd_object_status_free(&os);
  free(f.data);

  p = response("response-data.bin", &f, SSD_OP_READ, 0x18, 0, 123456789, &len);
  const uint8_t *data = NULL;
  uint32_t data_len = 0;
  REQUIRE(ssd_decode_data(p, len, &data, &data_len, &err) == SSD_OK);
  CHECK_EQ(data_len, 12);
  CHECK_MEM(data, "Smart SSD\n\0\xFF", 12);
  free(f.data);

  p = response("response-listing-empty.bin", &f, SSD_OP_LIST, 0x1A, 0, 7000, &len);
  ssd_listing l;
  REQUIRE(ssd_decode_listing(p, len, 1, &l, &err) == SSD_OK);
  CHECK_EQ(l.n_entries, 0);
  CHECK(!l.more);
  ssd_listing_free(&l);
  free(f.data);

  p = response("response-listing.bin", &f, SSD_OP_LIST, 0x1A, 0, 8000, &len);
  REQUIRE(ssd_decode_listing(p, len, 1, &l, &err) == SSD_OK);
  REQUIRE(l.n_entries == 2);
  check_str(&l.entries[0].path, NON_ASCII_PATH);
  CHECK_EQ(l.entries[0].path.len, 27);
  CHECK(!l.entries[0].directory);
  CHECK_EQ(l.entries[0].length, UINT64_C(0x100000000));
  CHECK_EQ(l.entries[0].mtime_ms, UINT64_C(1700000123456));
  CHECK_EQ(l.entries[0].object_id, O);
  check_str(&l.entries[1].path, "/donn\xC3\xA9" "es/wc98/sub");
  CHECK(l.entries[1].directory);
  CHECK_EQ(l.entries[1].length, 0);
  CHECK_EQ(l.entries[1].mtime_ms, UINT64_C(0xFFFFFFFFFFFFFFFF));
  CHECK_EQ(l.entries[1].object_id, 7);
  CHECK(l.more);
  ssd_listing_free(&l);
  free(f.data);

  /* Version 4: owner, group, permission and access time after the object id. */
  p = response_of("response-stat-v4.bin", &f, 4, SSD_OP_STATUS, 0x19, 0, 5000, &len);
  REQUIRE(ssd_decode_object_status(p, len, 4, &os, &err) == SSD_OK);
  check_str(&os.path, "/data");
  CHECK(os.directory);
  CHECK_EQ(os.object_id, 2);
  check_str(&os.owner, "hdfs");
  check_str(&os.group, "supergroup");
  CHECK_INT(os.permission, 0755);
  CHECK_EQ(os.atime_ms, UINT64_C(1700000000001));
  ssd_object_status_free(&os);
  /* The same bytes read as version 3 have bytes left over. */
  CHECK_INT(ssd_decode_object_status(p, len, 3, &os, &err), SSD_E_PROTOCOL);
  free(f.data);

  p = response_of("response-listing-v4.bin", &f, 4, SSD_OP_LIST, 0x1A, 0, 8000, &len);
  REQUIRE(ssd_decode_listing(p, len, 4, &l, &err) == SSD_OK);
  REQUIRE(l.n_entries == 2);
  check_str(&l.entries[0].path, NON_ASCII_PATH);
  check_str(&l.entries[0].owner, "alice");
  check_str(&l.entries[0].group, "donn\xC3\xA9" "es");
  CHECK_INT(l.entries[0].permission, 0640);
  CHECK_EQ(l.entries[0].atime_ms, UINT64_C(0x8000000000000009));
  CHECK(l.entries[1].directory);
  CHECK_EQ(l.entries[1].owner.len, 0);
  CHECK_EQ(l.entries[1].group.len, 0);
  CHECK_INT(l.entries[1].permission, 01777);
  CHECK_EQ(l.entries[1].atime_ms, 0);
  CHECK(!l.more);
  ssd_listing_free(&l);
  free(f.data);

  p = response("response-tasklet-created.bin", &f, SSD_OP_CREATE_OBJECT, 0x20, 0, 1000, &len);
  REQUIRE(ssd_decode_u64(p, len, &v, &err) == SSD_OK);
  CHECK_EQ(v, T);
  free(f.data);

  p = response("response-execution-started.bin", &f, SSD_OP_EXECUTE_OBJECT, 0x21, 0, 2000, &len);
  REQUIRE(ssd_decode_u64(p, len, &v, &err) == SSD_OK);
  CHECK_EQ(v, E);
  free(f.data);

  ssd_execution_progress pr;
  p = response("response-progress-empty.bin", &f, SSD_OP_READ_OBJECT, 0x22, 0, 500, &len);
  REQUIRE(ssd_decode_execution_progress(p, len, 1, &pr, &err) == SSD_OK);
  CHECK_INT(pr.state, SSD_EXEC_RUNNING);
  check_str(&pr.message, "");
  check_stats_running(&pr.stats);
  check_no_output(&pr.stats);
  CHECK_EQ(pr.n_results, 0);
  CHECK(!pr.finished);
  ssd_execution_progress_free(&pr);
  free(f.data);

  p = response("response-progress.bin", &f, SSD_OP_READ_OBJECT, 0x22, 0, UINT64_C(0x100000000),
               &len);
  REQUIRE(ssd_decode_execution_progress(p, len, 1, &pr, &err) == SSD_OK);
  CHECK_INT(pr.state, SSD_EXEC_DONE);
  check_str(&pr.message, "");
  check_stats_counted(&pr.stats);
  check_no_output(&pr.stats);
  REQUIRE(pr.n_results == 3);
  CHECK_INT(pr.results[0].lane, 0);
  CHECK_EQ(pr.results[0].len, 15);
  CHECK_MEM(pr.results[0].data, "GET /index.html", 15);
  CHECK_INT(pr.results[1].lane, 65534);
  CHECK_EQ(pr.results[1].len, 2);
  CHECK_MEM(pr.results[1].data, "\x00\xFF", 2);
  CHECK_INT(pr.results[2].lane, SSD_MERGE_LANE);
  CHECK_EQ(pr.results[2].len, 8);
  CHECK_MEM(pr.results[2].data, "count=3\n", 8);
  CHECK(pr.finished);
  ssd_execution_progress_free(&pr);
  /* The same in a version 4 frame; a version 5 one has the output's statistics after the counters. */
  REQUIRE(ssd_decode_execution_progress(p, len, 4, &pr, &err) == SSD_OK);
  check_stats_counted(&pr.stats);
  check_no_output(&pr.stats);
  ssd_execution_progress_free(&pr);
  CHECK_INT(ssd_decode_execution_progress(p, len, 5, &pr, &err), SSD_E_PROTOCOL);
  CHECK(pr.mem_ == NULL && pr.results == NULL);
  REQUIRE(ssd_decode_execution_progress(p, len, 1, &pr, &err) == SSD_OK);
  free(f.data); /* the progress owns copies of the results */
  CHECK_MEM(pr.results[2].data, "count=3\n", 8);
  ssd_execution_progress_free(&pr);

  p = response("response-progress-failed.bin", &f, SSD_OP_READ_OBJECT, 0x22, 0, 500, &len);
  REQUIRE(ssd_decode_execution_progress(p, len, 1, &pr, &err) == SSD_OK);
  CHECK_INT(pr.state, SSD_EXEC_FAILED);
  check_str(&pr.message, "lane 3: java.lang.IllegalStateException: boom");
  check_stats_running(&pr.stats);
  check_no_output(&pr.stats);
  CHECK_EQ(pr.n_results, 0);
  CHECK(pr.finished);
  ssd_execution_progress_free(&pr);
  free(f.data);

  /* Version 5: output bytes, pages programmed and modelled write after the 24 counters. */
  p = response_of("response-progress-v5.bin", &f, 5, SSD_OP_READ_OBJECT, 0x22, 0,
                  UINT64_C(0x100000000), &len);
  REQUIRE(ssd_decode_execution_progress(p, len, 5, &pr, &err) == SSD_OK);
  CHECK_INT(pr.state, SSD_EXEC_DONE);
  check_str(&pr.message, "");
  check_stats_counted(&pr.stats);
  CHECK_EQ(pr.stats.output_bytes, UINT64_C(0x8000000000000018));
  CHECK_EQ(pr.stats.pages_programmed, 25);
  CHECK_EQ(pr.stats.modelled_write_nanos, 26);
  CHECK_EQ(pr.stats.lane_state_bytes, 0);
  CHECK_EQ(pr.stats.swap_pages_read, 0);
  REQUIRE(pr.n_results == 1);
  CHECK_INT(pr.results[0].lane, SSD_MERGE_LANE);
  CHECK_EQ(pr.results[0].len, 10);
  CHECK_MEM(pr.results[0].data, "records=3\n", 10);
  CHECK(pr.finished);
  ssd_execution_progress_free(&pr);
  /* Read as version 4, the output bytes' high half (top bit set) is taken for the result count;
   * read as version 5, a version 4 payload is short of the output's statistics. */
  CHECK_INT(ssd_decode_execution_progress(p, len, 4, &pr, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "results");
  CHECK(pr.mem_ == NULL);
  free(f.data);
  p = response("response-progress-empty.bin", &f, SSD_OP_READ_OBJECT, 0x22, 0, 500, &len);
  CHECK_INT(ssd_decode_execution_progress(p, len, 5, &pr, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "statistics.outputBytes");
  free(f.data);

  /* Version 6: lane state bytes and swap pages read after the output's statistics. */
  p = response_of("response-progress-v6.bin", &f, 6, SSD_OP_READ_OBJECT, 0x22, 0,
                  UINT64_C(0x100000000), &len);
  REQUIRE(ssd_decode_execution_progress(p, len, 6, &pr, &err) == SSD_OK);
  check_stats_counted(&pr.stats);
  CHECK_EQ(pr.stats.output_bytes, UINT64_C(0x8000000000000018));
  CHECK_EQ(pr.stats.modelled_write_nanos, 26);
  CHECK_EQ(pr.stats.lane_state_bytes, UINT64_C(0x800000000000001B));
  CHECK_EQ(pr.stats.swap_pages_read, 28);
  REQUIRE(pr.n_results == 1);
  CHECK_MEM(pr.results[0].data, "records=3\n", 10);
  CHECK(pr.finished);
  ssd_execution_progress_free(&pr);
  /* Read as version 5, the lane state bytes' high half (top bit set) is taken for the result count. */
  CHECK_INT(ssd_decode_execution_progress(p, len, 5, &pr, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "results");
  free(f.data);
  p = response_of("response-progress-v5.bin", &f, 5, SSD_OP_READ_OBJECT, 0x22, 0,
                  UINT64_C(0x100000000), &len);
  CHECK_INT(ssd_decode_execution_progress(p, len, 6, &pr, &err), SSD_E_PROTOCOL);
  free(f.data);

  /* Version 7: the profile, checked and kept as its bytes; none in the answer that carries none. */
  p = response_of("response-progress-v7.bin", &f, 7, SSD_OP_READ_OBJECT, 0x22, 0,
                  UINT64_C(0x100000000), &len);
  REQUIRE(ssd_decode_execution_progress(p, len, 7, &pr, &err) == SSD_OK);
  CHECK_EQ(pr.stats.swap_pages_read, 28);
  CHECK(pr.finished);
  /* bool 1 (truncated), u32 2 methods, "a.Map.map", "org.apache.hadoop.io.Text.set", u32 2 nodes of 40 */
  CHECK_INT(pr.profile_len, 1 + 4 + 2 + 9 + 2 + 29 + 4 + 2 * 40);
  REQUIRE(pr.profile != NULL);
  CHECK_INT(pr.profile[0], 1);
  CHECK_MEM(pr.profile + 1 + 4 + 2, "a.Map.map", 9);
  ssd_execution_progress_free(&pr);
  /* Read as version 6, the profile's bool is a trailing byte. */
  CHECK_INT(ssd_decode_execution_progress(p, len, 6, &pr, &err), SSD_E_PROTOCOL);
  free(f.data);
  p = response_of("response-progress-v7-no-profile.bin", &f, 7, SSD_OP_READ_OBJECT, 0x23, 0, 0, &len);
  REQUIRE(ssd_decode_execution_progress(p, len, 7, &pr, &err) == SSD_OK);
  CHECK(!pr.finished);
  CHECK(pr.profile == NULL && pr.profile_len == 0);
  CHECK_EQ(pr.stats.counted_library_reads, 0);
  ssd_execution_progress_free(&pr);
  free(f.data);

  /* Version 8: the library reads in the statistics and a fifth count in each profile node. */
  p = response_of("response-progress-v8.bin", &f, 8, SSD_OP_READ_OBJECT, 0x22, 0,
                  UINT64_C(0x100000000), &len);
  REQUIRE(ssd_decode_execution_progress(p, len, 8, &pr, &err) == SSD_OK);
  CHECK_EQ(pr.stats.swap_pages_read, 28);
  CHECK_EQ(pr.stats.counted_library_reads, UINT64_C(0x800000000000001D));
  CHECK_EQ(pr.stats.counted_tail_library_reads, 30);
  CHECK(pr.finished);
  /* as version 7's, with nodes of 48 bytes */
  CHECK_INT(pr.profile_len, 1 + 4 + 2 + 9 + 2 + 29 + 4 + 2 * 48);
  ssd_execution_progress_free(&pr);
  /* Read as version 7, the library reads are taken for the result count. */
  CHECK_INT(ssd_decode_execution_progress(p, len, 7, &pr, &err), SSD_E_PROTOCOL);
  free(f.data);
}

static void expect_error(const char *name, uint16_t opcode, uint64_t id, uint16_t status,
                         uint64_t nanos, const char *message) {
  file f;
  uint32_t len;
  const uint8_t *p = response(name, &f, opcode, id, status, nanos, &len);
  char text[512];
  ssd_error err;
  CHECK_INT(ssd_decode_error_message(p, len, text, sizeof text, &err), SSD_OK);
  CHECK_STR(text, message);
  free(f.data);
}

static void test_error_responses(void) {
  expect_error("response-error-not-found.bin", SSD_OP_OPEN, 0x17, SSD_NOT_FOUND, 2000,
               "/data/missing.log: no such file or directory");
  expect_error("response-error-lease-conflict.bin", SSD_OP_APPEND, 0x12, SSD_LEASE_CONFLICT, 2000,
               "/data/wc98/day-01.log is open for writing");
  expect_error("response-error-frame-too-large.bin", SSD_OP_WRITE, UINT64_C(0xFFFFFFFFFFFFFFFE),
               SSD_FRAME_TOO_LARGE, 0, "payload of 134217728 bytes exceeds the limit of 67108864");
  expect_error("response-error-unsupported-version.bin", SSD_OP_STATUS, 0x19,
               SSD_UNSUPPORTED_VERSION, 0, "version 2 is not spoken here; versions 1..1 are");
  expect_error("response-error-bad-handle.bin", SSD_OP_CLOSE, 0x16, SSD_BAD_HANDLE, 1000,
               "handle 9223372036854775809 is closed or unknown");
  expect_error("response-error-bad-request-tasklet.bin", SSD_OP_CREATE_OBJECT, 0x20,
               SSD_BAD_REQUEST, 0, "class org.example.Missing is not in the jar");
  expect_error("response-error-busy.bin", SSD_OP_EXECUTE_OBJECT, 0x21, SSD_BUSY, 0,
               "8 executions are running; the limit is 8");
  expect_error("response-error-auth-required.bin", SSD_OP_DELETE, 0x1C, SSD_AUTH_REQUIRED, 0,
               "DELETE: device d requires hosts to authenticate first");
  expect_error("response-error-corrupt.bin", SSD_OP_READ, 0x18, SSD_CORRUPT, 50000,
               "'/data/wc98/day-01.log' is corrupt at offset 8192: bytes 8192..16383 are lost");
  {
    file f;
    uint32_t len;
    const uint8_t *p = response_of("response-error-permission-denied.bin", &f, 4, SSD_OP_OPEN, 0x17,
                                   SSD_PERMISSION_DENIED, 2000, &len);
    char text[512];
    ssd_error err;
    CHECK_INT(ssd_decode_error_message(p, len, text, sizeof text, &err), SSD_OK);
    CHECK_STR(text, "Permission denied: user=bob, access=READ, inode=\"/data/wc98/day-01.log\":alice:"
                    "analysts:-rw-------");
    CHECK_STR(ssd_status_name(SSD_PERMISSION_DENIED), "PERMISSION_DENIED");
    free(f.data);
  }
  ssd_error err;

  /* Messages the library writes are cut between characters too: a key of 400 "é" given twice
   * makes a message longer than 511 bytes. */
  char *key = malloc(801);
  REQUIRE(key != NULL);
  for (int i = 0; i < 400; i++) {
    key[2 * i] = (char)0xC3;
    key[2 * i + 1] = (char)0xA9;
  }
  key[800] = '\0';
  const char *const keys[] = {key, key};
  const char *const values[] = {"1", "2"};
  ssd_buffer b;
  ssd_buffer_alloc(&b);
  CHECK_INT(ssd_encode_create_object(&b, 1, NULL, 0, "C", keys, values, 2, &err), SSD_E_ARG);
  size_t n = strlen(err.message);
  CHECK(n >= 500 && n <= 511);
  /* it ends with a whole "é": the last lead byte C3 is followed by exactly one byte */
  const char *last = strrchr(err.message, (char)0xC3);
  CHECK(last != NULL && last + 2 == err.message + n);
  ssd_buffer_free(&b);
  free(key);

  /* A message cut to fit is cut between characters. */
  const uint8_t accented[] = {0, 6, 0xC3, 0xA9, 0xC3, 0xA9, 0xC3, 0xA9}; /* "ééé" */
  char small[4];
  CHECK_INT(ssd_decode_error_message(accented, sizeof accented, small, sizeof small, &err),
            SSD_OK);
  CHECK_STR(small, "\xC3\xA9"); /* 3 bytes of room: one é, not one and a half */
}

/* ---- rejecting malformed payloads ------------------------------------------------------------ */

/* Decodes a payload with the decoder for a kind of response; frees whatever it decoded. */
enum kind {
  K_VERSIONS, K_INFO, K_STATISTICS, K_STATISTICS_V2, K_STATISTICS_V3, K_EMPTY, K_OPENED, K_U64,
  K_STATUS, K_DATA, K_LISTING, K_PROGRESS, K_ERROR, K_AUTH_CHALLENGE, K_AUTHENTICATED, K_STATUS_V4,
  K_LISTING_V4, K_PROGRESS_V5, K_PROGRESS_V6, K_PROGRESS_V7, K_PROGRESS_V8
};

static int decode(enum kind k, const uint8_t *p, size_t len, ssd_error *err) {
  switch (k) {
    case K_VERSIONS: {
      uint16_t a, b;
      return ssd_decode_versions(p, len, &a, &b, err);
    }
    case K_INFO: {
      struct ssd_device_info x;
      int rc = ssd_decode_device_info(p, len, &x, err);
      ssd_device_info_free(&x);
      return rc;
    }
    case K_STATISTICS:
    case K_STATISTICS_V2:
    case K_STATISTICS_V3: {
      ssd_device_statistics x;
      int version = k == K_STATISTICS ? 1 : k == K_STATISTICS_V2 ? 2 : 3;
      int rc = ssd_decode_statistics(p, len, version, &x, err);
      ssd_device_statistics_free(&x);
      return rc;
    }
    case K_EMPTY:
      return ssd_decode_empty(p, len, err);
    case K_OPENED: {
      ssd_opened x;
      return ssd_decode_opened(p, len, &x, err);
    }
    case K_U64: {
      uint64_t x;
      return ssd_decode_u64(p, len, &x, err);
    }
    case K_STATUS:
    case K_STATUS_V4: {
      ssd_object_status x;
      int rc = ssd_decode_object_status(p, len, k == K_STATUS ? 1 : 4, &x, err);
      ssd_object_status_free(&x);
      return rc;
    }
    case K_DATA: {
      const uint8_t *d;
      uint32_t n;
      return ssd_decode_data(p, len, &d, &n, err);
    }
    case K_LISTING:
    case K_LISTING_V4: {
      ssd_listing x;
      int rc = ssd_decode_listing(p, len, k == K_LISTING ? 1 : 4, &x, err);
      ssd_listing_free(&x);
      return rc;
    }
    case K_PROGRESS:
    case K_PROGRESS_V5:
    case K_PROGRESS_V6:
    case K_PROGRESS_V7:
    case K_PROGRESS_V8: {
      ssd_execution_progress x;
      int version = k == K_PROGRESS ? 1 : k == K_PROGRESS_V5 ? 5 : k == K_PROGRESS_V6 ? 6 : k == K_PROGRESS_V7 ? 7 : 8;
      int rc = ssd_decode_execution_progress(p, len, version, &x, err);
      ssd_execution_progress_free(&x);
      return rc;
    }
    case K_ERROR: {
      char m[64];
      return ssd_decode_error_message(p, len, m, sizeof m, err);
    }
    case K_AUTH_CHALLENGE: {
      bool required;
      uint8_t nonce[SSD_NONCE_BYTES];
      return ssd_decode_auth_challenge(p, len, &required, nonce, err);
    }
    case K_AUTHENTICATED: {
      uint8_t proof[SSD_PROOF_BYTES];
      return ssd_decode_authenticated(p, len, proof, err);
    }
  }
  return SSD_E_ARG;
}

static const struct {
  const char *file;
  enum kind kind;
} VECTORS[] = {
    {"response-versions.bin", K_VERSIONS},
    {"response-info.bin", K_INFO},
    {"response-statistics.bin", K_STATISTICS},
    {"response-statistics-v2.bin", K_STATISTICS_V2},
    {"response-statistics-v3.bin", K_STATISTICS_V3},
    {"response-empty.bin", K_EMPTY},
    {"response-opened.bin", K_OPENED},
    {"response-length.bin", K_U64},
    {"response-stat.bin", K_STATUS},
    {"response-data.bin", K_DATA},
    {"response-listing-empty.bin", K_LISTING},
    {"response-listing.bin", K_LISTING},
    {"response-tasklet-created.bin", K_U64},
    {"response-execution-started.bin", K_U64},
    {"response-progress-empty.bin", K_PROGRESS},
    {"response-progress.bin", K_PROGRESS},
    {"response-progress-failed.bin", K_PROGRESS},
    {"response-error-not-found.bin", K_ERROR},
    {"response-error-busy.bin", K_ERROR},
    {"response-auth-challenge.bin", K_AUTH_CHALLENGE},
    {"response-auth-challenge-not-required.bin", K_AUTH_CHALLENGE},
    {"response-authenticated.bin", K_AUTHENTICATED},
    {"response-error-auth-required.bin", K_ERROR},
    {"response-stat-v4.bin", K_STATUS_V4},
    {"response-listing-v4.bin", K_LISTING_V4},
    {"response-error-permission-denied.bin", K_ERROR},
    {"response-progress-v5.bin", K_PROGRESS_V5},
    {"response-progress-v6.bin", K_PROGRESS_V6},
    {"response-progress-v7.bin", K_PROGRESS_V7},
    {"response-progress-v7-no-profile.bin", K_PROGRESS_V7},
    {"response-progress-v8.bin", K_PROGRESS_V8},
};

/* Every strict prefix of every payload, and the payload plus one byte, are malformed. Each
 * prefix is copied to a buffer of its exact size, so that ASan sees any over-read. */
static void test_truncated_and_trailing(void) {
  for (size_t v = 0; v < sizeof VECTORS / sizeof *VECTORS; v++) {
    file f = load(VECTORS[v].file);
    const uint8_t *payload = f.data + 32;
    size_t len = f.len - 32;
    ssd_error err;
    CHECK_INT(decode(VECTORS[v].kind, payload, len, &err), SSD_OK);
    for (size_t cut = 0; cut < len; cut++) {
      uint8_t *copy = malloc(cut == 0 ? 1 : cut);
      REQUIRE(copy != NULL);
      memcpy(copy, payload, cut);
      int rc = decode(VECTORS[v].kind, copy, cut, &err);
      if (rc != SSD_E_PROTOCOL) {
        check_failf(__FILE__, __LINE__, "%s cut to %zu bytes decoded with %d", VECTORS[v].file,
                    cut, rc);
      } else {
        check_count++;
        CHECK_INT(err.code, SSD_E_PROTOCOL);
      }
      free(copy);
    }
    uint8_t *longer = malloc(len + 1);
    REQUIRE(longer != NULL);
    memcpy(longer, payload, len);
    longer[len] = 0;
    CHECK_INT(decode(VECTORS[v].kind, longer, len + 1, &err), SSD_E_PROTOCOL);
    CHECK_CONTAINS(err.message, "trailing");
    free(longer);
    free(f.data);
  }
}

/* Decodes the vector's payload with one byte changed; expects SSD_E_PROTOCOL naming `field`. */
static void expect_rejected(const char *name, enum kind kind, size_t at, uint8_t value,
                            const char *field) {
  file f = load(name);
  uint8_t *payload = f.data + 32;
  size_t len = f.len - 32;
  REQUIRE(at < len);
  payload[at] = value;
  ssd_error err;
  int rc = decode(kind, payload, len, &err);
  if (rc != SSD_E_PROTOCOL) {
    check_failf(__FILE__, __LINE__, "%s with byte %zu = 0x%02x decoded with %d", name, at, value,
                rc);
  } else {
    check_count++;
    CHECK_CONTAINS(err.message, field);
  }
  free(f.data);
}

static void test_bad_values(void) {
  /* bools of 2 */
  expect_rejected("response-listing-empty.bin", K_LISTING, 4, 2, "more");
  expect_rejected("response-listing.bin", K_LISTING, 103, 2, "more");
  expect_rejected("response-progress.bin", K_PROGRESS, 166 + 10 * 8, 2, "finished");
  expect_rejected("response-info.bin", K_INFO, 77, 2, "paced"); /* the byte after free */
  /* bad UTF-8: a lone continuation byte, a truncated sequence, an overlong slash */
  expect_rejected("response-stat.bin", K_STATUS, 3, 0x80, "path");
  expect_rejected("response-listing.bin", K_LISTING, 4 + 2 + 7, 0xC3, "entries[0].path");
  expect_rejected("response-info.bin", K_INFO, 2, 0xC0, "deviceName");
  expect_rejected("response-progress-failed.bin", K_PROGRESS, 4, 0xFF, "message");
  expect_rejected("response-error-not-found.bin", K_ERROR, 2, 0xFE, "message");
  /* ranges */
  expect_rejected("response-stat.bin", K_STATUS, 7, 2, "kind");
  /* A permission beyond 01777: the high byte of the u16 after "/data", kind, length, time, id,
   * "hdfs" and "supergroup" (7 + 1 + 24 + 6 + 12 = 50). */
  expect_rejected("response-stat-v4.bin", K_STATUS_V4, 50, 0x04, "permission");
  expect_rejected("response-stat.bin", K_STATUS, 8, 0x80, "length"); /* top bit: negative */
  expect_rejected("response-progress-empty.bin", K_PROGRESS, 0, 4, "state");
  expect_rejected("response-progress-empty.bin", K_PROGRESS, 123 + 10 * 8, 1, "finished"); /* running */
  expect_rejected("response-progress-empty.bin", K_PROGRESS, 3, 0x80, "lanes");
  expect_rejected("response-info.bin", K_INFO, 40, 0, "geometry.channels"); /* 8 -> 0 */
  expect_rejected("response-info.bin", K_INFO, 37, 0x80, "geometry.channels"); /* negative */
  expect_rejected("response-versions.bin", K_VERSIONS, 1, 2, "maxVersion"); /* 2..1 */
  /* counts larger than the payload can hold: rejected before allocating */
  expect_rejected("response-listing.bin", K_LISTING, 0, 0x7F, "entries");
  expect_rejected("response-listing.bin", K_LISTING, 0, 0x80, "entries"); /* negative */
  expect_rejected("response-statistics.bin", K_STATISTICS, 12 * 8 + 3, 3, "channels");
  /* DiskUse: a bool of 2; a reason not to reclaim while reclaiming */
  expect_rejected("response-statistics-v2.bin", K_STATISTICS_V2, 12 * 8 + 4 + 2 * 32, 2,
                  "diskUse.reclaiming");
  expect_rejected("response-statistics-v2.bin", K_STATISTICS_V2, 12 * 8 + 4 + 2 * 32, 1,
                  "diskUse.reclaimNote");
  expect_rejected("response-data.bin", K_DATA, 3, 13, "data");
  expect_rejected("response-progress.bin", K_PROGRESS, 1 + 2 + 4 + 24 * 8, 0x40, "results");
  /* Version 5: the result count after the output's statistics; finished, the last byte. */
  expect_rejected("response-progress-v5.bin", K_PROGRESS_V5, 1 + 2 + 4 + 27 * 8, 0x40, "results");
  expect_rejected("response-progress-v5.bin", K_PROGRESS_V5, 1 + 2 + 4 + 27 * 8 + 4 + 6 + 10, 2,
                  "finished");
  /* Version 6: the result count after the lanes' memory. */
  expect_rejected("response-progress-v6.bin", K_PROGRESS_V6, 1 + 2 + 4 + 29 * 8, 0x40, "results");
  /* Version 7: the profile after finished; a node naming a later one as its caller, a method past the
   * names. The profile starts after the 29 counters, the count, one result (2 + 4 + 10) and finished. */
  size_t profile = 1 + 2 + 4 + 29 * 8 + 4 + 6 + 10 + 1;
  expect_rejected("response-progress-v7.bin", K_PROGRESS_V7, profile, 2, "has profile");
  /* bool truncated, u32 2, "a.Map.map" (2 + 9), "org.apache.hadoop.io.Text.set" (2 + 29), u32 2 */
  size_t nodes = profile + 1 + 1 + 4 + 11 + 31 + 4;
  expect_rejected("response-progress-v7.bin", K_PROGRESS_V7, nodes + 3, 2, "parent");
  expect_rejected("response-progress-v7.bin", K_PROGRESS_V7, nodes + 7, 2, "method");
  /* the handshake: a bool of 2; a nonce of the wrong length for `required`; a short proof */
  expect_rejected("response-auth-challenge-not-required.bin", K_AUTH_CHALLENGE, 0, 2, "required");
  expect_rejected("response-auth-challenge-not-required.bin", K_AUTH_CHALLENGE, 0, 1,
                  "deviceNonce"); /* required, but no nonce */
  expect_rejected("response-auth-challenge.bin", K_AUTH_CHALLENGE, 0, 0,
                  "deviceNonce"); /* not required, yet a nonce */
  expect_rejected("response-authenticated.bin", K_AUTHENTICATED, 3, 31, "proof");
  expect_rejected("response-authenticated.bin", K_AUTHENTICATED, 3, 33, "proof");
}

/* A DEVICE_INFO payload built by hand, for maps out of order and with a key twice. */
typedef struct builder {
  uint8_t b[512];
  size_t n;
} builder;

static void b_u8(builder *b, uint8_t v) { b->b[b->n++] = v; }
static void b_u32(builder *b, uint32_t v) {
  for (int i = 3; i >= 0; i--) b_u8(b, (uint8_t)(v >> (8 * i)));
}
static void b_u64(builder *b, uint64_t v) {
  for (int i = 7; i >= 0; i--) b_u8(b, (uint8_t)(v >> (8 * i)));
}
static void b_str(builder *b, const char *s) {
  size_t n = strlen(s);
  b_u8(b, (uint8_t)(n >> 8));
  b_u8(b, (uint8_t)n);
  memcpy(b->b + b->n, s, n);
  b->n += n;
}

static void info_with_params(builder *b, const char *const *kv, size_t n) {
  b->n = 0;
  b_str(b, "dev");
  b_str(b, "p");
  for (int i = 0; i < 6; i++) b_u32(b, 2);
  b_u64(b, 100);
  b_u64(b, 50);
  b_u8(b, 0);
  b_u32(b, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    b_str(b, kv[2 * i]);
    b_str(b, kv[2 * i + 1]);
  }
}

static void test_maps(void) {
  builder b;
  ssd_error err;
  struct ssd_device_info info;
  const char *const unsorted[] = {"\xEF\xBD\xA1", "1", "b", "2", "\xF0\x9F\x98\x80", "3", "a", "4"};
  info_with_params(&b, unsorted, 4);
  REQUIRE(ssd_decode_device_info(b.b, b.n, &info, &err) == SSD_OK);
  REQUIRE(info.n_params == 4);
  check_str(&info.params[0].key, "a");
  check_str(&info.params[1].key, "b");
  check_str(&info.params[2].key, "\xF0\x9F\x98\x80");
  check_str(&info.params[2].value, "3");
  check_str(&info.params[3].key, "\xEF\xBD\xA1");
  CHECK(!info.paced);
  ssd_device_info_free(&info);

  const char *const twice[] = {"a", "1", "b", "2", "a", "3"};
  info_with_params(&b, twice, 3);
  CHECK_INT(ssd_decode_device_info(b.b, b.n, &info, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "duplicate key a");
  CHECK(info.params == NULL && info.mem_ == NULL);

  /* A geometry with more pages than Java can address. */
  b.n = 0;
  b_str(&b, "dev");
  b_str(&b, "p");
  b_u32(&b, 65536);
  b_u32(&b, 65536);
  for (int i = 0; i < 4; i++) b_u32(&b, 1);
  b_u64(&b, 0);
  b_u64(&b, 0);
  b_u8(&b, 1);
  b_u32(&b, 0);
  CHECK_INT(ssd_decode_device_info(b.b, b.n, &info, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "geometry");
}

static void test_headers(void) {
  ssd_error err;
  ssd_header h = {.version = 1, .opcode = 0x18, .flags = 1, .status = 6, .payload_len = 12,
                  .request_id = UINT64_C(0x8000000000000001), .modelled_nanos = 99};
  uint8_t bytes[32];
  ssd_header_encode(&h, bytes);
  CHECK_MEM(bytes, "SSDP\x00\x01\x00\x18\x00\x01\x00\x06\x00\x00\x00\x0c", 16);
  ssd_header back;
  REQUIRE(ssd_header_decode(bytes, sizeof bytes, &back, &err) == SSD_OK);
  CHECK_EQ(back.status, 6);
  CHECK_EQ(back.request_id, h.request_id);
  CHECK_EQ(back.modelled_nanos, 99);
  CHECK_INT(ssd_header_check_response(&back, 12, &err), SSD_OK);
  CHECK_INT(ssd_header_check_response(&back, 11, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "exceeds the limit of 11");
  back.flags = 0;
  CHECK_INT(ssd_header_check_response(&back, 12, &err), SSD_E_PROTOCOL);
  back.flags = 3;
  CHECK_INT(ssd_header_check_response(&back, 12, &err), SSD_E_PROTOCOL);
  CHECK_INT(ssd_header_decode(bytes, 31, &back, &err), SSD_E_PROTOCOL);
  bytes[0] = 'X';
  CHECK_INT(ssd_header_decode(bytes, sizeof bytes, &back, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "bad magic 0x58534450");

  file f = load("response-data.bin");
  const uint8_t *payload;
  CHECK_INT(ssd_frame_parse(f.data, f.len - 1, MAX_PAYLOAD, &h, &payload, &err), SSD_E_PROTOCOL);
  CHECK_INT(ssd_frame_parse(f.data, f.len, 15, &h, &payload, &err), SSD_E_PROTOCOL);
  CHECK_INT(ssd_frame_parse(f.data, f.len, 16, &h, &payload, &err), SSD_OK);
  free(f.data);
  f = load("request-read.bin"); /* a request: not a response's flags */
  CHECK_INT(ssd_frame_parse(f.data, f.len, MAX_PAYLOAD, &h, &payload, &err), SSD_E_PROTOCOL);
  free(f.data);
}

static void test_names(void) {
  CHECK_STR(ssd_status_name(SSD_OK), "OK");
  CHECK_STR(ssd_status_name(SSD_NOT_FOUND), "NOT_FOUND");
  CHECK_STR(ssd_status_name(SSD_PAST_END), "PAST_END");
  CHECK_STR(ssd_status_name(SSD_BAD_HANDLE), "BAD_HANDLE");
  CHECK_STR(ssd_status_name(SSD_AUTH_REQUIRED), "AUTH_REQUIRED");
  CHECK_INT(SSD_AUTH_REQUIRED, 16);
  CHECK_STR(ssd_status_name(SSD_CORRUPT), "CORRUPT");
  CHECK_INT(SSD_CORRUPT, 17);
  CHECK_STR(ssd_status_name(SSD_PERMISSION_DENIED), "PERMISSION_DENIED");
  CHECK_INT(SSD_PERMISSION_DENIED, 18);
  CHECK_STR(ssd_status_name(19), "UNKNOWN");
  CHECK_STR(ssd_status_name(SSD_E_IO), "IO_ERROR");
  CHECK_STR(ssd_status_name(SSD_E_VERSION), "NO_COMMON_VERSION");
  CHECK_STR(ssd_status_name(SSD_E_INTERRUPTED), "INTERRUPTED");
  CHECK_STR(ssd_status_name(SSD_E_AGAIN), "AGAIN");
  CHECK_STR(ssd_status_name(SSD_E_SECRET), "BAD_SECRET");
  CHECK_STR(ssd_status_name(-11), "UNKNOWN");
  CHECK_STR(ssd_opcode_name(SSD_OP_READ_OBJECT), "READ_OBJECT");
  CHECK_STR(ssd_opcode_name(SSD_OP_AUTH_CHALLENGE), "AUTH_CHALLENGE");
  CHECK_STR(ssd_opcode_name(SSD_OP_AUTHENTICATE), "AUTHENTICATE");
  CHECK_EQ(SSD_OP_AUTH_CHALLENGE, 0x0005);
  CHECK_EQ(SSD_OP_AUTHENTICATE, 0x0006);
  CHECK_STR(ssd_opcode_name(SSD_OP_IDENTIFY), "IDENTIFY");
  CHECK_EQ(SSD_OP_IDENTIFY, 0x0007);
  CHECK_STR(ssd_opcode_name(SSD_OP_SET_PERMISSION), "SET_PERMISSION");
  CHECK_STR(ssd_opcode_name(SSD_OP_SET_OWNER), "SET_OWNER");
  CHECK_STR(ssd_opcode_name(SSD_OP_SET_TIMES), "SET_TIMES");
  CHECK_EQ(SSD_OP_SET_TIMES, 0x001F);
  CHECK_STR(ssd_opcode_name(0x0008), "UNKNOWN");
  ssd_options o = ssd_options_default();
  CHECK_INT(o.connect_timeout_ms, 5000);
  CHECK_INT(o.request_timeout_ms, 30000);
  CHECK_EQ(o.max_frame_bytes, (64u << 20) + 4096);
  CHECK(o.secret == NULL && o.secret_len == 0 && o.secret_file == NULL);
  CHECK(o.user == NULL && o.groups == NULL && o.n_groups == 0);
}

/* Every vector in the directory was checked above: encoded to, or decoded from. */
static void test_every_vector_covered(void) {
  DIR *d = opendir(frames_dir);
  REQUIRE(d != NULL);
  int files = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    if (n < 4 || strcmp(e->d_name + n - 4, ".bin") != 0) continue;
    files++;
    bool found = false;
    for (int i = 0; i < n_covered && !found; i++) {
      found = strcmp(covered[i], e->d_name) == 0;
    }
    if (found) {
      check_count++;
    } else {
      check_failf(__FILE__, __LINE__, "%s/%s: a frame vector no test encodes or decodes", frames_dir,
                  e->d_name);
    }
  }
  closedir(d);
  CHECK_INT(files, n_covered); /* and nothing covered that is not there (load would have failed) */
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s FRAMES_DIR\n", argv[0]);
    return 2;
  }
  frames_dir = argv[1];
  test_requests();
  test_encoder_buffers_and_arguments();
  test_map_order();
  test_responses();
  test_error_responses();
  test_truncated_and_trailing();
  test_bad_values();
  test_maps();
  test_headers();
  test_names();
  test_every_vector_covered();
  return check_exit("test_vectors");
}
