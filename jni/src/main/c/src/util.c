/* util.c: status and opcode names, error messages, UTF-8, the arena, the clock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

/* ---- names ----------------------------------------------------------------------------------- */

static const char *const DEVICE_STATUS_NAMES[] = {
    "OK",          "NOT_FOUND",     "ALREADY_EXISTS",      "PARENT_NOT_DIRECTORY",
    "DIRECTORY_NOT_EMPTY", "IS_DIRECTORY", "PAST_END",     "BAD_REQUEST",
    "OUT_OF_SPACE", "BUSY",         "INTERNAL",            "UNSUPPORTED_VERSION",
    "UNKNOWN_OPCODE", "FRAME_TOO_LARGE", "LEASE_CONFLICT", "BAD_HANDLE",
    "AUTH_REQUIRED", "CORRUPT",    "PERMISSION_DENIED",
};

/* Indexed by -code. */
static const char *const LOCAL_ERROR_NAMES[] = {
    NULL, "IO_ERROR", "CLOSED", "TIMEOUT", "PROTOCOL_ERROR", "OUT_OF_MEMORY", "BAD_ARGUMENT",
    "NO_COMMON_VERSION", "INTERRUPTED", "AGAIN", "BAD_SECRET",
};

SSD_API const char *ssd_status_name(int code) {
  if (code >= 0 && code < (int)(sizeof DEVICE_STATUS_NAMES / sizeof *DEVICE_STATUS_NAMES)) {
    return DEVICE_STATUS_NAMES[code];
  }
  if (code < 0 && -code < (int)(sizeof LOCAL_ERROR_NAMES / sizeof *LOCAL_ERROR_NAMES)) {
    return LOCAL_ERROR_NAMES[-code];
  }
  return "UNKNOWN";
}

SSD_API const char *ssd_opcode_name(unsigned opcode) {
  switch (opcode) {
    case SSD_OP_API_VERSIONS: return "API_VERSIONS";
    case SSD_OP_DEVICE_INFO: return "DEVICE_INFO";
    case SSD_OP_STATISTICS: return "STATISTICS";
    case SSD_OP_SHUTDOWN: return "SHUTDOWN";
    case SSD_OP_AUTH_CHALLENGE: return "AUTH_CHALLENGE";
    case SSD_OP_AUTHENTICATE: return "AUTHENTICATE";
    case SSD_OP_IDENTIFY: return "IDENTIFY";
    case SSD_OP_MKDIRS: return "MKDIRS";
    case SSD_OP_CREATE: return "CREATE";
    case SSD_OP_APPEND: return "APPEND";
    case SSD_OP_WRITE: return "WRITE";
    case SSD_OP_FLUSH: return "FLUSH";
    case SSD_OP_SYNC: return "SYNC";
    case SSD_OP_CLOSE: return "CLOSE";
    case SSD_OP_OPEN: return "OPEN";
    case SSD_OP_READ: return "READ";
    case SSD_OP_STATUS: return "STATUS";
    case SSD_OP_LIST: return "LIST";
    case SSD_OP_RENAME: return "RENAME";
    case SSD_OP_DELETE: return "DELETE";
    case SSD_OP_SET_PERMISSION: return "SET_PERMISSION";
    case SSD_OP_SET_OWNER: return "SET_OWNER";
    case SSD_OP_SET_TIMES: return "SET_TIMES";
    case SSD_OP_CREATE_OBJECT: return "CREATE_OBJECT";
    case SSD_OP_EXECUTE_OBJECT: return "EXECUTE_OBJECT";
    case SSD_OP_READ_OBJECT: return "READ_OBJECT";
    case SSD_OP_CANCEL: return "CANCEL";
    case SSD_OP_REMOVE_OBJECT: return "REMOVE_OBJECT";
    default: return "UNKNOWN";
  }
}

/* ---- errors ---------------------------------------------------------------------------------- */

void ssd_utf8_trim_tail(char *s) {
  size_t n = strlen(s);
  /* Find the start of the last sequence (at most 3 continuation bytes back). */
  size_t i = n;
  int back = 0;
  while (i > 0 && back < 4 && ((unsigned char)s[i - 1] & 0xC0) == 0x80) {
    i--;
    back++;
  }
  if (i == 0) {
    if (back > 0) {
      s[0] = '\0'; /* only continuation bytes: nothing sensible to keep */
    }
    return;
  }
  unsigned char lead = (unsigned char)s[i - 1];
  int want;
  if (lead < 0x80) {
    want = 0;
  } else if ((lead & 0xE0) == 0xC0) {
    want = 1;
  } else if ((lead & 0xF0) == 0xE0) {
    want = 2;
  } else if ((lead & 0xF8) == 0xF0) {
    want = 3;
  } else {
    want = -1;
  }
  if (want != back) {
    /* An incomplete (or invalid) sequence: drop it, keeping an ASCII byte before stray
     * continuation bytes. */
    s[lead < 0x80 ? i : i - 1] = '\0';
  }
}

void ssd_set_errorv(ssd_error *err, int code, const char *fmt, va_list ap) {
  if (err == NULL) {
    return;
  }
  err->code = code;
  int n = vsnprintf(err->message, sizeof err->message, fmt, ap);
  if (n < 0) {
    err->message[0] = '\0';
  } else if ((size_t)n >= sizeof err->message) {
    ssd_utf8_trim_tail(err->message);
  }
}

void ssd_set_error(ssd_error *err, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ssd_set_errorv(err, code, fmt, ap);
  va_end(ap);
}

void ssd_clear_error(ssd_error *err) {
  if (err != NULL) {
    err->code = SSD_OK;
    err->message[0] = '\0';
  }
}

void ssd_copy_error(ssd_error *err, const ssd_error *src) {
  if (err != NULL && src != NULL && err != src) {
    memcpy(err, src, sizeof *err);
  }
}

void ssd_prefix_error(ssd_error *err, const char *address) {
  if (err == NULL) {
    return;
  }
  char old[sizeof err->message];
  memcpy(old, err->message, sizeof old);
  ssd_set_error(err, err->code, "device %s: %s", address, old);
}

/* ---- UTF-8 ----------------------------------------------------------------------------------- */

bool ssd_utf8_valid(const uint8_t *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint8_t c = s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t extra;
    uint8_t lo = 0x80, hi = 0xBF; /* allowed range of the first continuation byte */
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      if (c == 0xE0) {
        lo = 0xA0; /* overlong */
      } else if (c == 0xED) {
        hi = 0x9F; /* surrogates */
      }
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      if (c == 0xF0) {
        lo = 0x90; /* overlong */
      } else if (c == 0xF4) {
        hi = 0x8F; /* above U+10FFFF */
      }
    } else {
      return false; /* continuation byte, C0/C1, F5..FF */
    }
    if (n - i <= extra) {
      return false;
    }
    if (s[i + 1] < lo || s[i + 1] > hi) {
      return false;
    }
    for (size_t k = 2; k <= extra; k++) {
      if ((s[i + k] & 0xC0) != 0x80) {
        return false;
      }
    }
    i += extra + 1;
  }
  return true;
}

/* Yields the UTF-16 code units of a valid UTF-8 string one at a time. */
typedef struct utf16_iter {
  const uint8_t *s;
  size_t n, i;
  int pending_low; /* the low surrogate still to yield, or -1 */
} utf16_iter;

static int utf16_next(utf16_iter *it) {
  if (it->pending_low >= 0) {
    int unit = it->pending_low;
    it->pending_low = -1;
    return unit;
  }
  if (it->i >= it->n) {
    return -1;
  }
  uint8_t c = it->s[it->i];
  uint32_t cp;
  size_t extra;
  if (c < 0x80) {
    cp = c;
    extra = 0;
  } else if (c < 0xE0) {
    cp = c & 0x1Fu;
    extra = 1;
  } else if (c < 0xF0) {
    cp = c & 0x0Fu;
    extra = 2;
  } else {
    cp = c & 0x07u;
    extra = 3;
  }
  for (size_t k = 1; k <= extra && it->i + k < it->n; k++) {
    cp = (cp << 6) | (it->s[it->i + k] & 0x3Fu);
  }
  it->i += extra + 1;
  if (cp < 0x10000) {
    return (int)cp;
  }
  cp -= 0x10000;
  it->pending_low = (int)(0xDC00 + (cp & 0x3FF));
  return (int)(0xD800 + (cp >> 10));
}

int ssd_utf16_compare(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  utf16_iter x = {a, an, 0, -1};
  utf16_iter y = {b, bn, 0, -1};
  for (;;) {
    int ux = utf16_next(&x);
    int uy = utf16_next(&y);
    if (ux != uy) {
      return ux < uy ? -1 : 1; /* -1 (end) sorts first, as a prefix does */
    }
    if (ux < 0) {
      return 0;
    }
  }
}

/* ---- arena ----------------------------------------------------------------------------------- */

struct ssd_arena_block {
  struct ssd_arena_block *next;
  size_t used;
  size_t cap;
  max_align_t data[]; /* aligned for any type */
};

#define ARENA_ALIGN (sizeof(max_align_t))
#define ARENA_MIN_BLOCK 256u
#define ARENA_MAX_FIRST (1u << 20)

void ssd_arena_init(ssd_arena *a, size_t first_size) {
  a->head = NULL;
  a->failed = false;
  if (first_size < ARENA_MIN_BLOCK) {
    first_size = ARENA_MIN_BLOCK;
  }
  a->first_size = first_size > ARENA_MAX_FIRST ? ARENA_MAX_FIRST : first_size;
}

void *ssd_arena_alloc(ssd_arena *a, size_t n) {
  if (a->failed) {
    return NULL;
  }
  size_t rounded = (n + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
  if (rounded < n) {
    a->failed = true; /* overflow */
    return NULL;
  }
  struct ssd_arena_block *b = a->head;
  if (b == NULL || b->cap - b->used < rounded) {
    size_t cap = b == NULL ? a->first_size : b->cap * 2;
    if (cap < rounded) {
      cap = rounded;
    }
    if (cap > SIZE_MAX - sizeof *b) {
      a->failed = true;
      return NULL;
    }
    struct ssd_arena_block *nb = malloc(sizeof *nb + cap);
    if (nb == NULL) {
      a->failed = true;
      return NULL;
    }
    nb->next = b;
    nb->used = 0;
    nb->cap = cap;
    a->head = nb;
    b = nb;
  }
  void *p = (char *)b->data + b->used;
  b->used += rounded;
  memset(p, 0, rounded);
  return p;
}

void *ssd_arena_release(ssd_arena *a) {
  void *owner = a->head;
  a->head = NULL;
  return owner;
}

void ssd_arena_free_owner(void *owner) {
  struct ssd_arena_block *b = owner;
  while (b != NULL) {
    struct ssd_arena_block *next = b->next;
    free(b);
    b = next;
  }
}

/* ---- clock ----------------------------------------------------------------------------------- */

int64_t ssd_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * INT64_C(1000000000) + ts.tv_nsec;
}
