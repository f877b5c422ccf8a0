/*
 * fuzz_frame.c: feeds arbitrary bytes to the frame header decoder and checker, the whole-frame
 * parser (with the decoder its opcode and status call for), and then every response payload
 * decoder; none may crash, leak or read out of bounds, and what they accept must be consistent.
 *
 * Built with clang -fsanitize=fuzzer it is a libFuzzer target (make fuzz). Built with
 * -DFUZZ_STANDALONE it replays the files given as arguments, each also cut at every length and
 * with every byte changed (make test runs it over the frame vectors).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smartssd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ENSURE(cond)                                                      \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                            \
    }                                                                     \
  } while (0)

static void check_str(const ssd_str *s) {
  ENSURE(s->s != NULL);
  ENSURE(s->s[s->len] == '\0');
  ENSURE(strlen(s->s) <= s->len);
}

static void check_status(const ssd_object_status *o, int version) {
  check_str(&o->path);
  ENSURE(o->length <= INT64_MAX);
  check_str(&o->owner);
  check_str(&o->group);
  if (version >= SSD_PERMISSIONS_VERSION) {
    ENSURE(o->permission >= 0 && (o->permission & ~SSD_PERMISSION_BITS) == 0);
  } else {
    ENSURE(o->permission == SSD_PERMISSION_UNKNOWN && o->owner.len == 0 && o->atime_ms == o->mtime_ms);
  }
}

/* Runs one decoder, checks what it accepted, frees it. */
static void decode_as(int which, const uint8_t *p, size_t n) {
  ssd_error err;
  err.message[0] = '\0';
  switch (which) {
    case 0: {
      uint16_t lo, hi;
      if (ssd_decode_versions(p, n, &lo, &hi, &err) == SSD_OK) {
        ENSURE(lo <= hi && n == 4);
      }
      break;
    }
    case 1: {
      struct ssd_device_info info;
      if (ssd_decode_device_info(p, n, &info, &err) == SSD_OK) {
        check_str(&info.name);
        check_str(&info.profile);
        ENSURE(info.geometry.channels > 0);
        for (uint32_t i = 0; i < info.n_params; i++) {
          check_str(&info.params[i].key);
          check_str(&info.params[i].value);
        }
      }
      ssd_device_info_free(&info);
      break;
    }
    case 2: {
      ssd_device_statistics st;
      if (ssd_decode_statistics(p, n, 1, &st, &err) == SSD_OK) {
        ENSURE(n == 12 * 8 + 4 + (size_t)st.n_channels * 32);
        ENSURE(st.n_channels == 0 || st.channels != NULL);
        ENSURE(!st.has_disk_use);
      }
      ssd_device_statistics_free(&st);
      break;
    }
    case 13: {
      ssd_device_statistics st;
      if (ssd_decode_statistics(p, n, 2, &st, &err) == SSD_OK) {
        ENSURE(st.has_disk_use);
        check_str(&st.disk_use.reclaim_note);
        ENSURE(!st.disk_use.reclaiming || st.disk_use.reclaim_note.len == 0);
        ENSURE(n == 12 * 8 + 4 + (size_t)st.n_channels * 32 + 1 + 2 + st.disk_use.reclaim_note.len + 5 * 8);
        ENSURE(st.n_channels == 0 || st.channels != NULL);
        ENSURE(!st.has_energy);
      }
      ssd_device_statistics_free(&st);
      break;
    }
    case 14: {
      ssd_device_statistics st;
      if (ssd_decode_statistics(p, n, 3, &st, &err) == SSD_OK) {
        ENSURE(st.has_disk_use && st.has_energy);
        check_str(&st.disk_use.reclaim_note);
        ENSURE(n == 12 * 8 + 4 + (size_t)st.n_channels * 32 + 1 + 2 + st.disk_use.reclaim_note.len + 5 * 8 +
                        6 * 8);
        ENSURE(st.n_channels == 0 || st.channels != NULL);
      }
      ssd_device_statistics_free(&st);
      break;
    }
    case 3:
      if (ssd_decode_empty(p, n, &err) == SSD_OK) {
        ENSURE(n == 0);
      }
      break;
    case 4: {
      ssd_opened o;
      if (ssd_decode_opened(p, n, &o, &err) == SSD_OK) {
        ENSURE(n == 24);
      }
      break;
    }
    case 5: {
      uint64_t v;
      if (ssd_decode_u64(p, n, &v, &err) == SSD_OK) {
        ENSURE(n == 8);
      }
      break;
    }
    case 6:
    case 15: {
      int version = which == 6 ? 1 : SSD_PERMISSIONS_VERSION;
      ssd_object_status o;
      if (ssd_decode_object_status(p, n, version, &o, &err) == SSD_OK) {
        check_status(&o, version);
      }
      ssd_object_status_free(&o);
      break;
    }
    case 7: {
      const uint8_t *d;
      uint32_t len;
      if (ssd_decode_data(p, n, &d, &len, &err) == SSD_OK) {
        ENSURE((size_t)len + 4 == n);
        ENSURE(len == 0 || (d >= p && d + len <= p + n));
      }
      break;
    }
    case 8:
    case 16: {
      int version = which == 8 ? 1 : SSD_PERMISSIONS_VERSION;
      ssd_listing l;
      if (ssd_decode_listing(p, n, version, &l, &err) == SSD_OK) {
        for (uint32_t i = 0; i < l.n_entries; i++) {
          check_status(&l.entries[i], version);
        }
      }
      ssd_listing_free(&l);
      break;
    }
    case 9:
    case 17: {
      int version = which == 9 ? SSD_PERMISSIONS_VERSION : SSD_OUTPUT_VERSION;
      ssd_execution_progress pr;
      if (ssd_decode_execution_progress(p, n, version, &pr, &err) == SSD_OK) {
        check_str(&pr.message);
        ENSURE(pr.state >= SSD_EXEC_RUNNING && pr.state <= SSD_EXEC_CANCELLED);
        ENSURE(!(pr.finished && pr.state == SSD_EXEC_RUNNING));
        ENSURE(pr.stats.lanes <= INT32_MAX);
        if (version < SSD_OUTPUT_VERSION) {
          ENSURE(pr.stats.output_bytes == 0 && pr.stats.pages_programmed == 0 &&
                 pr.stats.modelled_write_nanos == 0);
        }
        ENSURE(pr.n_results == 0 || pr.results != NULL);
        /* state, message, the statistics of this version, count, results, finished: all of it */
        size_t expected = 1 + 2 + (size_t)pr.message.len + 4 + 24 * 8 +
                          (version >= SSD_OUTPUT_VERSION ? 3 * 8 : 0) + 4 + 1;
        for (uint32_t i = 0; i < pr.n_results; i++) {
          ENSURE(pr.results[i].lane >= -1 && pr.results[i].lane <= 65534);
          expected += 2 + 4 + (size_t)pr.results[i].len;
          if (pr.results[i].len > 0) {
            /* the copy is readable to its end */
            volatile uint8_t last = pr.results[i].data[pr.results[i].len - 1];
            (void)last;
          }
        }
        ENSURE(expected == n);
      }
      ssd_execution_progress_free(&pr);
      break;
    }
    case 10: {
      char message[64];
      if (ssd_decode_error_message(p, n, message, sizeof message, &err) == SSD_OK) {
        ENSURE(strlen(message) < sizeof message);
      }
      break;
    }
    case 11: {
      bool required;
      uint8_t nonce[SSD_NONCE_BYTES];
      if (ssd_decode_auth_challenge(p, n, &required, nonce, &err) == SSD_OK) {
        ENSURE(n == (required ? 1 + 4 + SSD_NONCE_BYTES : 1 + 4));
      }
      break;
    }
    case 12: {
      uint8_t proof[SSD_PROOF_BYTES];
      if (ssd_decode_authenticated(p, n, proof, &err) == SSD_OK) {
        ENSURE(n == 4 + SSD_PROOF_BYTES);
      }
      break;
    }
    default:
      break;
  }
  /* Every message is NUL-terminated within its array. */
  ENSURE(memchr(err.message, '\0', sizeof err.message) != NULL);
}

#define N_DECODERS 18

/* The decoder of a reply to this opcode with this status, in a frame of this version (as the client
 * picks it). */
static int decoder_for(uint16_t version, uint16_t opcode, uint16_t status) {
  if (status != SSD_OK) {
    return 10;
  }
  switch (opcode) {
    case SSD_OP_API_VERSIONS: return 0;
    case SSD_OP_AUTH_CHALLENGE: return 11;
    case SSD_OP_AUTHENTICATE: return 12;
    case SSD_OP_DEVICE_INFO: return 1;
    case SSD_OP_STATISTICS:
      return version >= SSD_ENERGY_VERSION ? 14 : version >= SSD_DISK_USE_VERSION ? 13 : 2;
    case SSD_OP_CREATE:
    case SSD_OP_APPEND: return 4;
    case SSD_OP_WRITE:
    case SSD_OP_FLUSH:
    case SSD_OP_SYNC:
    case SSD_OP_CLOSE:
    case SSD_OP_CREATE_OBJECT:
    case SSD_OP_EXECUTE_OBJECT: return 5;
    case SSD_OP_OPEN:
    case SSD_OP_STATUS: return version >= SSD_PERMISSIONS_VERSION ? 15 : 6;
    case SSD_OP_READ: return 7;
    case SSD_OP_LIST: return version >= SSD_PERMISSIONS_VERSION ? 16 : 8;
    case SSD_OP_READ_OBJECT: return version >= SSD_OUTPUT_VERSION ? 17 : 9;
    default: return 3;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ssd_header h;
  ssd_error err;
  if (ssd_header_decode(data, size, &h, &err) == SSD_OK) {
    ENSURE(size >= SSD_HEADER_BYTES);
    ssd_header_check_response(&h, 1u << 20, &err);
    uint8_t again[SSD_HEADER_BYTES];
    ssd_header_encode(&h, again);
    ENSURE(memcmp(again, data, SSD_HEADER_BYTES) == 0);
  }
  const uint8_t *payload;
  if (ssd_frame_parse(data, size, UINT32_MAX, &h, &payload, &err) == SSD_OK) {
    ENSURE(payload == data + SSD_HEADER_BYTES && size == SSD_HEADER_BYTES + (size_t)h.payload_len);
    decode_as(decoder_for(h.version, h.opcode, h.status), payload, h.payload_len);
  }
  /* Every decoder over the bytes after a header's worth, and over all of them. */
  const uint8_t *rest = size >= SSD_HEADER_BYTES ? data + SSD_HEADER_BYTES : data;
  size_t rest_len = size >= SSD_HEADER_BYTES ? size - SSD_HEADER_BYTES : size;
  for (int which = 0; which < N_DECODERS; which++) {
    decode_as(which, rest, rest_len);
    decode_as(which, data, size);
  }
  return 0;
}

#ifdef FUZZ_STANDALONE
/* Runs the input from an exactly sized heap copy, so that over-reads hit the redzone. */
static void run(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size == 0 ? 1 : size);
  if (copy == NULL) {
    abort();
  }
  if (size > 0) {
    memcpy(copy, data, size);
  }
  LLVMFuzzerTestOneInput(copy, size);
  free(copy);
}

int main(int argc, char **argv) {
  static const uint8_t values[] = {0x00, 0x01, 0x02, 0x7F, 0x80, 0xC3, 0xFF};
  long runs = 0;
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (f == NULL) {
      fprintf(stderr, "fuzz_frame: cannot open %s\n", argv[i]);
      return 1;
    }
    uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    run(buf, n);
    runs++;
    for (size_t cut = 0; cut < n; cut++) {
      run(buf, cut);
      runs++;
    }
    for (size_t at = 0; at < n; at++) {
      uint8_t saved = buf[at];
      for (size_t v = 0; v < sizeof values; v++) {
        buf[at] = values[v];
        run(buf, n);
        runs++;
      }
      buf[at] = saved;
    }
  }
  printf("fuzz_frame: %d files replayed (%ld inputs: whole, cut, changed), no crash\n", argc - 1,
         runs);
  return 0;
}
#endif
