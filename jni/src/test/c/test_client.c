/*
 * test_client.c: the client against a fake device in the same process: a thread listening on
 * 127.0.0.1 (port 0), on [::1] when the host has it, or on a Unix socket in a temporary
 * directory, answering API_VERSIONS and AUTH_CHALLENGE (and, when it requires authentication,
 * AUTHENTICATE) and then following a script: normal replies (out of order, in batches), replies
 * with errors, frames cut short, garbage, oversized frames, silence.
 *
 * The fake device writes and parses its frames by hand, so that it does not share the library's
 * codec with the client it tests. It checks the client's proof with ssd_auth_host_proof over the
 * nonces it saw on the wire (test_auth checks that function against PROTOCOL.md's vector).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "smartssd.h"

/* ---- frames, by hand ------------------------------------------------------------------------- */

typedef struct frame {
  uint16_t version, opcode, flags, status;
  uint32_t len;
  uint64_t id, nanos;
  uint8_t *payload; /* malloc'd, len bytes (NULL when 0) */
} frame;

static void be16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static void be32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (24 - 8 * i));
}
static void be64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (56 - 8 * i));
}
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint64_t get64(const uint8_t *p) {
  return (uint64_t)get32(p) << 32 | get32(p + 4);
}

static bool write_all(int fd, const void *buf, size_t n) {
  const uint8_t *p = buf;
  while (n > 0) {
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= (size_t)w;
  }
  return true;
}

static bool read_all(int fd, void *buf, size_t n) {
  uint8_t *p = buf;
  while (n > 0) {
    ssize_t r = recv(fd, p, n, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= (size_t)r;
  }
  return true;
}

static void header_bytes(uint8_t h[32], uint16_t opcode, uint16_t flags, uint16_t status,
                         uint32_t len, uint64_t id, uint64_t nanos) {
  be32(h, 0x53534450u);
  be16(h + 4, 1);
  be16(h + 6, opcode);
  be16(h + 8, flags);
  be16(h + 10, status);
  be32(h + 12, len);
  be64(h + 16, id);
  be64(h + 24, nanos);
}

/* Reads a request frame; false at EOF (or on garbage, which the client never sends). */
static bool read_frame(int fd, frame *f) {
  uint8_t h[32];
  memset(f, 0, sizeof *f);
  if (!read_all(fd, h, sizeof h) || get32(h) != 0x53534450u) return false;
  f->version = get16(h + 4);
  f->opcode = get16(h + 6);
  f->flags = get16(h + 8);
  f->status = get16(h + 10);
  f->len = get32(h + 12);
  f->id = get64(h + 16);
  f->nanos = get64(h + 24);
  if (f->len > 0) {
    f->payload = malloc(f->len);
    if (f->payload == NULL || !read_all(fd, f->payload, f->len)) {
      free(f->payload);
      f->payload = NULL;
      return false;
    }
  }
  return true;
}

static void send_reply(int fd, uint16_t opcode, uint16_t status, uint64_t id, uint64_t nanos,
                       const void *payload, uint32_t len) {
  uint8_t h[32];
  header_bytes(h, opcode, 1, status, len, id, nanos);
  write_all(fd, h, sizeof h);
  if (len > 0) write_all(fd, payload, len);
}

static void send_error(int fd, const frame *req, uint16_t status, const char *message) {
  uint8_t p[300];
  size_t n = strlen(message);
  be16(p, (uint16_t)n);
  memcpy(p + 2, message, n);
  send_reply(fd, req->opcode, status, req->id, 7, p, (uint32_t)(n + 2));
}

/* ---- the fake device ------------------------------------------------------------------------- */

#define OBJECT_SIZE 1000u /* object 1: bytes (offset & 0xFF) */
#define NAMES 5

typedef struct server server;
typedef void (*script_fn)(server *s, int fd);

/* What the fake device does with the handshake after API_VERSIONS. */
enum fake_auth {
  AUTH_OFF,          /* answers AUTH_CHALLENGE "not required" */
  AUTH_ON,           /* requires the proof of `secret`, and proves it holds it too */
  AUTH_WRONG_PROOF,  /* as AUTH_ON, but answers with a proof for another secret */
  AUTH_SHORT_PROOF,  /* as AUTH_ON, but answers with a proof of 31 bytes */
  AUTH_SILENT        /* no handshake at all: the script gets the AUTH_CHALLENGE */
};

#define FAKE_SECRET "fake-device-secret-0123456789"

struct server {
  int listen_fd;
  int port;
  char dir[64];
  char unix_path[100];
  pthread_t thread;
  script_fn script;
  uint16_t min_version, max_version;
  bool answer_versions;
  /* the handshake */
  enum fake_auth auth;
  const char *secret;
  uint8_t device_nonce[32];
  uint8_t host_nonce[32];   /* as the client sent it */
  int challenges;           /* AUTH_CHALLENGEs seen */
  int proofs_accepted;
  int proofs_refused;
  bool closed_after_challenge; /* the client left instead of sending AUTHENTICATE */
  /* the test and the script take turns with `step` */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int step;
  /* what the normal script saw */
  int max_batch;
  atomic_int writes;
  uint64_t written;
};

static void set_step(server *s, int step) {
  pthread_mutex_lock(&s->mu);
  s->step = step;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

/* Waits (at most 10 s) for the step; false on timeout. */
static bool await_step(server *s, int step) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_sec += 10;
  pthread_mutex_lock(&s->mu);
  int rc = 0;
  while (s->step < step && rc == 0) {
    rc = pthread_cond_timedwait(&s->cv, &s->mu, &ts);
  }
  bool ok = s->step >= step;
  pthread_mutex_unlock(&s->mu);
  return ok;
}

/* Reads requests until the client goes away. */
static void drain(int fd) {
  frame f;
  while (read_frame(fd, &f)) {
    free(f.payload);
  }
}

static size_t put_status(uint8_t *p, const char *path, bool dir, uint64_t length, uint64_t id) {
  size_t n = strlen(path);
  be16(p, (uint16_t)n);
  memcpy(p + 2, path, n);
  p[2 + n] = dir ? 1 : 0;
  be64(p + 3 + n, length);
  be64(p + 11 + n, 1700000000000ull);
  be64(p + 19 + n, id);
  return 27 + n;
}

/* A string from a request payload, NUL-terminated into buf. */
static const uint8_t *take_string(const uint8_t *p, char *buf, size_t cap) {
  size_t n = get16(p);
  if (n >= cap) n = cap - 1;
  memcpy(buf, p + 2, n);
  buf[n] = '\0';
  return p + 2 + get16(p);
}

/* The normal device's answer to one request. */
static void answer(server *s, int fd, const frame *req) {
  uint8_t out[4096];
  char path[1024];
  switch (req->opcode) {
    case SSD_OP_STATUS:
    case SSD_OP_OPEN: {
      take_string(req->payload, path, sizeof path);
      if (strcmp(path, "/missing") == 0) {
        send_error(fd, req, SSD_NOT_FOUND, "/missing: no such file or directory");
      } else if (strcmp(path, "/malformed") == 0) {
        send_reply(fd, req->opcode, 0, req->id, 7, "\x00\x05/da", 5);
      } else if (strcmp(path, "/badstatus") == 0) {
        send_reply(fd, req->opcode, 99, req->id, 7, "\x00\x00", 2);
      } else if (strcmp(path, "/wrongop") == 0) {
        size_t n = put_status(out, path, false, 0, req->id);
        send_reply(fd, SSD_OP_LIST, 0, req->id, 7, out, (uint32_t)n);
      } else {
        size_t n = put_status(out, path, false, strlen(path), req->id);
        send_reply(fd, req->opcode, 0, req->id, 7, out, (uint32_t)n);
      }
      break;
    }
    case SSD_OP_READ: {
      uint64_t object = get64(req->payload);
      uint64_t offset = get64(req->payload + 8);
      uint32_t asked = get32(req->payload + 16);
      if (offset > OBJECT_SIZE) {
        send_error(fd, req, SSD_PAST_END, "offset past the end");
        break;
      }
      uint32_t n = (uint32_t)(OBJECT_SIZE - offset < asked ? OBJECT_SIZE - offset : asked);
      if (object == 2) {
        n = asked + 10; /* more than asked for */
      }
      uint8_t *p = malloc(4 + (size_t)n);
      be32(p, n);
      for (uint32_t i = 0; i < n; i++) p[4 + i] = (uint8_t)(offset + i);
      send_reply(fd, req->opcode, 0, req->id, 7, p, 4 + n);
      free(p);
      break;
    }
    case SSD_OP_WRITE: {
      s->writes++;
      s->written += get32(req->payload + 8);
      be64(out, s->written);
      send_reply(fd, req->opcode, 0, req->id, 10, out, 8);
      break;
    }
    case SSD_OP_LIST: {
      /* Entries /d/n0 .. /d/n4, pages of `limit` after `start after`. */
      const uint8_t *p = take_string(req->payload, path, sizeof path);
      char after[256];
      p = take_string(p, after, sizeof after);
      uint32_t limit = get32(p);
      int first = 0;
      while (first < NAMES && after[0] != '\0') {
        char name[16];
        snprintf(name, sizeof name, "n%d", first);
        first++;
        if (strcmp(name, after) == 0) break;
      }
      size_t at = 4;
      uint32_t count = 0;
      for (int i = first; i < NAMES && count < limit; i++, count++) {
        char full[32];
        snprintf(full, sizeof full, "/d/n%d", i);
        at += put_status(out + at, full, i == 4, i == 4 ? 0 : (uint64_t)i * 10, (uint64_t)i);
      }
      be32(out, count);
      out[at++] = first + (int)count < NAMES ? 1 : 0;
      send_reply(fd, req->opcode, 0, req->id, 7, out, (uint32_t)at);
      break;
    }
    case SSD_OP_DEVICE_INFO: {
      size_t at = 0;
      const char *strings[] = {"fake-host", "test-profile"};
      for (int i = 0; i < 2; i++) {
        size_t n = strlen(strings[i]);
        be16(out + at, (uint16_t)n);
        memcpy(out + at + 2, strings[i], n);
        at += 2 + n;
      }
      const uint32_t geometry[] = {8, 4, 1024, 128, 8192, 4};
      for (int i = 0; i < 6; i++, at += 4) be32(out + at, geometry[i]);
      be64(out + at, 1ull << 40);
      be64(out + at + 8, 1ull << 39);
      out[at + 16] = 1;
      be32(out + at + 17, 1);
      at += 21;
      memcpy(out + at, "\x00\x01k\x00\x01v", 6);
      at += 6;
      send_reply(fd, req->opcode, 0, req->id, 7, out, (uint32_t)at);
      break;
    }
    case SSD_OP_MKDIRS:
    case SSD_OP_SHUTDOWN:
      send_reply(fd, req->opcode, 0, req->id, 7, NULL, 0);
      break;
    default:
      send_error(fd, req, SSD_UNKNOWN_OPCODE, "opcode not known to the fake device");
      break;
  }
}

/* Answers requests in batches, last first: waits until no request came for 20 ms (or 64 are
 * waiting), then answers those held in reverse order, so that pipelined requests complete out of
 * order. */
static void serve_normal(server *s, int fd) {
  frame held[64];
  int n = 0;
  for (;;) {
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    int r = n == 0 ? 1 : poll(&pfd, 1, 20);
    if (r > 0 && n < 64) {
      if (!read_frame(fd, &held[n])) break;
      n++;
      continue;
    }
    if (n > s->max_batch) s->max_batch = n;
    for (int i = n - 1; i >= 0; i--) {
      answer(s, fd, &held[i]);
      free(held[i].payload);
    }
    n = 0;
  }
  for (int i = 0; i < n; i++) free(held[i].payload);
}

/* A `bytes` payload: u32 n, then the bytes. */
static uint32_t bytes_payload(uint8_t *p, const uint8_t *data, uint32_t n) {
  be32(p, n);
  memcpy(p + 4, data, n);
  return 4 + n;
}

/* The device's side of the handshake (PROTOCOL.md, "Authentication"); false when the connection
 * is to be closed (the client left, or its proof was refused). */
static bool fake_handshake(server *s, int fd) {
  frame f;
  if (!read_frame(fd, &f)) return false;
  uint8_t p[64];
  if (f.opcode != SSD_OP_AUTH_CHALLENGE || f.len != 36 || get32(f.payload) != 32) {
    send_error(fd, &f, SSD_BAD_REQUEST, "the fake device wanted AUTH_CHALLENGE first");
    free(f.payload);
    return false;
  }
  s->challenges++;
  memcpy(s->host_nonce, f.payload + 4, 32);
  if (s->auth == AUTH_OFF) {
    p[0] = 0;
    be32(p + 1, 0);
    send_reply(fd, f.opcode, 0, f.id, 0, p, 5);
    free(f.payload);
    return true;
  }
  for (int i = 0; i < 32; i++) s->device_nonce[i] = (uint8_t)(0x5A ^ (i * 7) ^ s->challenges);
  p[0] = 1;
  send_reply(fd, f.opcode, 0, f.id, 0, p, 1 + bytes_payload(p + 1, s->device_nonce, 32));
  free(f.payload);

  if (!read_frame(fd, &f)) {
    s->closed_after_challenge = true;
    return false;
  }
  uint8_t expected[SSD_PROOF_BYTES];
  ssd_auth_host_proof(s->secret, strlen(s->secret), s->device_nonce, s->host_nonce, expected);
  if (f.opcode != SSD_OP_AUTHENTICATE || f.len != 36 || get32(f.payload) != 32 ||
      memcmp(f.payload + 4, expected, 32) != 0) {
    s->proofs_refused++;
    send_error(fd, &f, SSD_AUTH_REQUIRED,
               "AUTHENTICATE: device fake refused the proof: the proof does not match this "
               "device's secret");
    free(f.payload);
    return false;
  }
  s->proofs_accepted++;
  uint8_t device_proof[SSD_PROOF_BYTES];
  const char *secret = s->auth == AUTH_WRONG_PROOF ? "another-secret-0123456789" : s->secret;
  ssd_auth_device_proof(secret, strlen(secret), s->device_nonce, s->host_nonce, device_proof);
  uint32_t n = s->auth == AUTH_SHORT_PROOF ? 31 : 32;
  send_reply(fd, f.opcode, 0, f.id, 0, p, bytes_payload(p, device_proof, n));
  free(f.payload);
  return true;
}

static void *server_main(void *arg) {
  server *s = arg;
  struct pollfd pfd = {.fd = s->listen_fd, .events = POLLIN};
  if (poll(&pfd, 1, 10000) <= 0) return NULL; /* the test never connected */
  int fd = accept(s->listen_fd, NULL, NULL);
  if (fd < 0) return NULL;
  if (s->answer_versions) {
    frame f;
    if (read_frame(fd, &f)) {
      uint8_t p[4];
      be16(p, s->min_version);
      be16(p + 2, s->max_version);
      send_reply(fd, f.opcode, 0, f.id, 0, p, 4);
      free(f.payload);
      if (s->auth == AUTH_SILENT || fake_handshake(s, fd)) {
        s->script(s, fd);
      }
    }
  } else {
    s->script(s, fd);
  }
  close(fd);
  return NULL;
}

static void server_init(server *s, script_fn script) {
  memset(s, 0, sizeof *s);
  s->script = script;
  s->min_version = 1;
  s->max_version = 1;
  s->answer_versions = true;
  s->auth = AUTH_OFF;
  s->secret = FAKE_SECRET;
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
}

static void server_run(server *s) {
  REQUIRE(listen(s->listen_fd, 8) == 0);
  REQUIRE(pthread_create(&s->thread, NULL, server_main, s) == 0);
}

/* Binds s->listen_fd to 127.0.0.1, port 0 (any free one: s->port). */
static void bind_tcp4(server *s) {
  s->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(s->listen_fd >= 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(s->listen_fd, (struct sockaddr *)&a, sizeof a) == 0);
  socklen_t len = sizeof a;
  REQUIRE(getsockname(s->listen_fd, (struct sockaddr *)&a, &len) == 0);
  s->port = ntohs(a.sin_port);
}

/* A fake device on 127.0.0.1 that answers API_VERSIONS with min..max, or not at all when
 * answer_versions is false. */
static void server_tcp_versions(server *s, script_fn script, uint16_t min, uint16_t max,
                                bool answer_versions) {
  server_init(s, script);
  s->min_version = min;
  s->max_version = max;
  s->answer_versions = answer_versions;
  bind_tcp4(s);
  server_run(s);
}

static void server_tcp(server *s, script_fn script) {
  server_tcp_versions(s, script, 1, 1, true);
}

/* A fake device on 127.0.0.1 with this handshake. */
static void server_tcp_auth(server *s, script_fn script, enum fake_auth auth) {
  server_init(s, script);
  s->auth = auth;
  bind_tcp4(s);
  server_run(s);
}

/* False when the host has no IPv6 loopback. */
static bool server_tcp6(server *s, script_fn script) {
  server_init(s, script);
  s->listen_fd = socket(AF_INET6, SOCK_STREAM, 0);
  if (s->listen_fd < 0) return false;
  struct sockaddr_in6 a;
  memset(&a, 0, sizeof a);
  a.sin6_family = AF_INET6;
  a.sin6_addr = in6addr_loopback;
  if (bind(s->listen_fd, (struct sockaddr *)&a, sizeof a) != 0) {
    close(s->listen_fd);
    return false;
  }
  socklen_t len = sizeof a;
  REQUIRE(getsockname(s->listen_fd, (struct sockaddr *)&a, &len) == 0);
  s->port = ntohs(a.sin6_port);
  server_run(s);
  return true;
}

static void server_unix(server *s, script_fn script) {
  server_init(s, script);
  snprintf(s->dir, sizeof s->dir, "/tmp/smartssd-test-XXXXXX");
  REQUIRE(mkdtemp(s->dir) != NULL);
  snprintf(s->unix_path, sizeof s->unix_path, "%s/device.sock", s->dir);
  s->listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(s->listen_fd >= 0);
  struct sockaddr_un a;
  memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  snprintf(a.sun_path, sizeof a.sun_path, "%s", s->unix_path);
  REQUIRE(bind(s->listen_fd, (struct sockaddr *)&a, sizeof a) == 0);
  server_run(s);
}

static void server_stop(server *s) {
  pthread_join(s->thread, NULL);
  close(s->listen_fd);
  if (s->unix_path[0] != '\0') {
    unlink(s->unix_path);
    rmdir(s->dir);
  }
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->cv);
}

static void address_of(const server *s, char *address, size_t cap) {
  if (s->unix_path[0] != '\0') {
    snprintf(address, cap, "unix:%s", s->unix_path);
  } else {
    snprintf(address, cap, "127.0.0.1:%d", s->port);
  }
}

static ssd_client *connect_to(const server *s, const ssd_options *opt) {
  char address[160];
  address_of(s, address, sizeof address);
  ssd_client *c = NULL;
  ssd_error err;
  int rc = ssd_connect(address, opt, &c, &err);
  if (rc != SSD_OK) fprintf(stderr, "connect %s: %d %s\n", address, rc, err.message);
  REQUIRE(rc == SSD_OK);
  return c;
}

/* A STATUS payload for a path. */
static uint32_t status_payload(uint8_t *p, const char *path) {
  size_t n = strlen(path);
  be16(p, (uint16_t)n);
  memcpy(p + 2, path, n);
  return (uint32_t)(n + 2);
}

/* ---- normal operation ------------------------------------------------------------------------ */

typedef struct worker {
  ssd_client *c;
  int index;
  int failures;
} worker;

static void *status_worker(void *arg) {
  worker *w = arg;
  for (int i = 0; i < 50; i++) {
    char path[64];
    snprintf(path, sizeof path, "/t%d/file-%d", w->index, i);
    ssd_object_status st;
    ssd_error err;
    uint64_t nanos = 0;
    int rc = ssd_status(w->c, path, &st, &nanos, &err);
    if (rc != SSD_OK || strcmp(st.path.s, path) != 0 || st.length != strlen(path) ||
        nanos != 7) {
      w->failures++;
    }
    if (rc == SSD_OK) ssd_object_status_free(&st);
  }
  return NULL;
}

static void test_pipelined_threads(void) {
  server s;
  server_tcp(&s, serve_normal);
  ssd_client *c = connect_to(&s, NULL);
  CHECK_INT(ssd_protocol_version(c), 1);
  worker w[6];
  pthread_t t[6];
  for (int i = 0; i < 6; i++) {
    w[i] = (worker){c, i, 0};
    REQUIRE(pthread_create(&t[i], NULL, status_worker, &w[i]) == 0);
  }
  for (int i = 0; i < 6; i++) {
    pthread_join(t[i], NULL);
    CHECK_INT(w[i].failures, 0);
  }
  CHECK_EQ(ssd_modelled_nanos_total(c), 6 * 50 * 7);
  ssd_close(c);
  server_stop(&s);
  CHECK(s.max_batch > 1); /* requests were pipelined, and so answered out of order */
}

/* The bytes that went onto the socket and came off it: whole frames, headers included. */
static void test_transfer_counts(void) {
  server s;
  server_tcp(&s, serve_normal);
  ssd_client *c = connect_to(&s, NULL);
  /* The handshake: API_VERSIONS (empty; two u16) and AUTH_CHALLENGE (bytes: a 32-byte nonce;
   * bool, bytes: no nonce). */
  CHECK_EQ(ssd_bytes_sent(c), 32 + 32 + 4 + 32);
  CHECK_EQ(ssd_bytes_received(c), 32 + 4 + 32 + 1 + 4);

  ssd_error err;
  ssd_object_status st;
  uint64_t sent = ssd_bytes_sent(c);
  uint64_t received = ssd_bytes_received(c);
  CHECK_INT(ssd_status(c, "/counted", &st, NULL, &err), SSD_OK);
  ssd_object_status_free(&st);
  CHECK_EQ(ssd_bytes_sent(c) - sent, 32 + 2 + 8);
  CHECK_EQ(ssd_bytes_received(c) - received, 32 + 2 + 8 + 1 + 3 * 8);

  /* A READ received straight into the caller's buffer. */
  uint8_t buf[100];
  uint32_t n = 0;
  sent = ssd_bytes_sent(c);
  received = ssd_bytes_received(c);
  CHECK_INT(ssd_read(c, 1, 0, buf, sizeof buf, &n, NULL, &err), SSD_OK);
  CHECK_EQ(n, sizeof buf);
  CHECK_EQ(ssd_bytes_sent(c) - sent, 32 + 8 + 8 + 4);
  CHECK_EQ(ssd_bytes_received(c) - received, 32 + 4 + sizeof buf);

  /* A failure's frame carries the device's message. */
  sent = ssd_bytes_sent(c);
  received = ssd_bytes_received(c);
  CHECK_INT(ssd_status(c, "/missing", &st, NULL, &err), SSD_NOT_FOUND);
  CHECK_EQ(ssd_bytes_sent(c) - sent, 32 + 2 + 8);
  CHECK_EQ(ssd_bytes_received(c) - received, 32 + 2 + strlen(err.message));
  ssd_close(c);
  server_stop(&s);
  CHECK_EQ(ssd_bytes_sent(NULL), 0);
}

static void test_queue(void) {
  server s;
  server_tcp(&s, serve_normal);
  ssd_client *c = connect_to(&s, NULL);
  ssd_error err;
  enum { N = 40 };
  uint64_t ids[N];
  for (int i = 0; i < N; i++) {
    uint8_t p[64];
    char path[32];
    snprintf(path, sizeof path, "/q/%d", i);
    REQUIRE(ssd_submit(c, SSD_OP_STATUS, p, status_payload(p, path), NULL, 0, SSD_SUBMIT_QUEUE,
                       &ids[i], &err) == SSD_OK);
  }
  /* A queued request is not waited for with ssd_wait. */
  CHECK_INT(ssd_wait(c, ids[0], NULL, &err), SSD_E_ARG);
  bool seen[N] = {false};
  bool in_order = true;
  for (int k = 0; k < N; k++) {
    ssd_reply r;
    int rc = ssd_next_completion(c, 5000, &r, &err);
    REQUIRE(rc == SSD_OK);
    int i = (int)(r.request_id - ids[0]);
    REQUIRE(i >= 0 && i < N && !seen[i]);
    seen[i] = true;
    in_order = in_order && i == k;
    CHECK_EQ(r.opcode, SSD_OP_STATUS);
    CHECK_EQ(r.modelled_nanos, 7);
    ssd_object_status st;
    REQUIRE(ssd_decode_object_status(r.payload, r.payload_len, ssd_protocol_version(c), &st, &err) ==
            SSD_OK);
    char path[32];
    snprintf(path, sizeof path, "/q/%d", i);
    CHECK_STR(st.path.s, path);
    ssd_object_status_free(&st);
    ssd_reply_free(&r);
  }
  CHECK(!in_order);
  ssd_reply r;
  CHECK_INT(ssd_next_completion(c, 0, &r, &err), SSD_E_TIMEOUT);
  CHECK_INT(ssd_next_completion(c, 50, &r, &err), SSD_E_TIMEOUT);
  /* After a disconnect the queue reports SSD_E_CLOSED. */
  ssd_disconnect(c);
  CHECK_INT(ssd_next_completion(c, 1000, &r, &err), SSD_E_CLOSED);
  uint8_t p[16];
  uint64_t id;
  CHECK_INT(ssd_submit(c, SSD_OP_STATUS, p, status_payload(p, "/x"), NULL, 0, 0, &id, &err),
            SSD_E_CLOSED);
  ssd_close(c);
  server_stop(&s);
}

static void test_typed_calls(void) {
  server s;
  server_tcp(&s, serve_normal);
  ssd_options opt = ssd_options_default();
  opt.max_frame_bytes = 1024;
  ssd_client *c = connect_to(&s, &opt);
  ssd_error err;
  uint64_t nanos = 0;

  /* READ straight into the caller's buffer */
  uint8_t buf[200];
  uint32_t n = 0;
  CHECK_INT(ssd_read(c, 1, 0, buf, 100, &n, &nanos, &err), SSD_OK);
  CHECK_EQ(n, 100);
  CHECK_EQ(nanos, 7);
  bool pattern = true;
  for (uint32_t i = 0; i < n; i++) pattern = pattern && buf[i] == (uint8_t)i;
  CHECK(pattern);
  CHECK_INT(ssd_read(c, 1, 950, buf, sizeof buf, &n, NULL, &err), SSD_OK);
  CHECK_EQ(n, 50);
  CHECK_EQ(buf[0], (uint8_t)950);
  CHECK_INT(ssd_read(c, 1, OBJECT_SIZE, buf, sizeof buf, &n, NULL, &err), SSD_OK);
  CHECK_EQ(n, 0);
  CHECK_INT(ssd_read(c, 1, 5000, buf, sizeof buf, &n, NULL, &err), SSD_PAST_END);
  CHECK_STR(err.message, "offset past the end");
  CHECK_INT(err.code, SSD_PAST_END);
  /* More than asked for: this request fails, the connection goes on. */
  CHECK_INT(ssd_read(c, 2, 0, buf, 20, &n, NULL, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "returned 30 bytes; 20 were asked for");
  CHECK_CONTAINS(err.message, "127.0.0.1:");
  /* A read larger than the frame limit asks for what fits. */
  uint8_t big[2000];
  CHECK_INT(ssd_read(c, 1, 0, big, sizeof big, &n, NULL, &err), SSD_OK);
  CHECK_EQ(n, 1000); /* the object's end, under the 1020 asked */
  /* A queued dst read. */
  uint8_t p[20];
  be64(p, 1);
  be64(p + 8, 10);
  be32(p + 16, 5);
  uint64_t id;
  memset(buf, 0, sizeof buf);
  REQUIRE(ssd_submit(c, SSD_OP_READ, p, 20, buf, 5, SSD_SUBMIT_QUEUE, &id, &err) == SSD_OK);
  ssd_reply r;
  CHECK_INT(ssd_next_completion(c, 5000, &r, &err), SSD_OK);
  CHECK_EQ(r.request_id, id);
  CHECK_EQ(r.data_len, 5);
  CHECK(r.payload == NULL);
  CHECK_MEM(buf, "\x0a\x0b\x0c\x0d\x0e", 5);
  ssd_reply_free(&r);
  /* dst is only for READ */
  CHECK_INT(ssd_submit(c, SSD_OP_STATUS, p, 4, buf, 5, 0, &id, &err), SSD_E_ARG);
  CHECK_INT(ssd_submit(c, SSD_OP_STATUS, p, 2000, NULL, 0, 0, &id, &err), SSD_E_ARG);
  CHECK_INT(ssd_submit(c, SSD_OP_STATUS, p, 4, NULL, 0, 4, &id, &err), SSD_E_ARG);

  /* a device status and its message */
  ssd_object_status st;
  CHECK_INT(ssd_status(c, "/missing", &st, &nanos, &err), SSD_NOT_FOUND);
  CHECK_STR(err.message, "/missing: no such file or directory");
  CHECK_EQ(nanos, 7);
  /* malformed payload, unknown status, wrong opcode: that request fails, the connection lives */
  CHECK_INT(ssd_status(c, "/malformed", &st, NULL, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "truncated");
  CHECK_INT(ssd_open(c, "/badstatus", &st, NULL, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "unknown status 99");
  CHECK_INT(ssd_status(c, "/wrongop", &st, NULL, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "has opcode 0x001a");
  CHECK_INT(ssd_open(c, "/ok", &st, NULL, &err), SSD_OK);
  CHECK_STR(st.path.s, "/ok");
  ssd_object_status_free(&st);
  CHECK_INT(ssd_status(c, "/bad\xFF", &st, &nanos, &err), SSD_E_ARG);
  CHECK_EQ(nanos, 0);

  /* WRITE split to fit the frame limit: 1024 - 12 bytes a frame, one after the other */
  static uint8_t data[3000];
  uint64_t length = 0;
  CHECK_INT(ssd_write(c, 5, data, sizeof data, &length, &nanos, &err), SSD_OK);
  CHECK_EQ(length, 3000);
  CHECK_EQ(nanos, 30);
  CHECK_INT(s.writes, 3);
  CHECK_INT(ssd_write(c, 5, data, 0, &length, &nanos, &err), SSD_OK); /* one empty WRITE */
  CHECK_EQ(length, 3000);
  CHECK_INT(s.writes, 4);

  /* LIST, page by page */
  ssd_listing l;
  CHECK_INT(ssd_list(c, "/d", NULL, 2, &l, NULL, &err), SSD_OK);
  REQUIRE(l.n_entries == 2);
  CHECK_STR(l.entries[0].path.s, "/d/n0");
  CHECK_STR(l.entries[1].path.s, "/d/n1");
  CHECK(l.more);
  ssd_listing_free(&l);
  CHECK_INT(ssd_list(c, "/d", "n3", 10, &l, NULL, &err), SSD_OK);
  REQUIRE(l.n_entries == 1);
  CHECK_STR(l.entries[0].path.s, "/d/n4");
  CHECK(l.entries[0].directory);
  CHECK(!l.more);
  ssd_listing_free(&l);

  struct ssd_device_info info;
  CHECK_INT(ssd_device_info(c, &info, NULL, &err), SSD_OK);
  CHECK_STR(info.name.s, "fake-host");
  CHECK_EQ(info.geometry.page_size_bytes, 8192);
  REQUIRE(info.n_params == 1);
  CHECK_STR(info.params[0].key.s, "k");
  ssd_device_info_free(&info);
  CHECK_INT(ssd_mkdirs(c, "/a/b", NULL, &err), SSD_OK);
  CHECK_INT(ssd_rename(c, "/a", "/b", NULL, &err), SSD_UNKNOWN_OPCODE);
  CHECK_STR(err.message, "opcode not known to the fake device");
  uint64_t tasklet;
  const char *const keys[] = {"k", "k"};
  const char *const values[] = {"1", "2"};
  CHECK_INT(ssd_create_object(c, NULL, 0, "C", keys, values, 2, &tasklet, NULL, &err), SSD_E_ARG);
  CHECK_INT(ssd_shutdown(c, NULL, &err), SSD_OK);
  ssd_close(c);
  server_stop(&s);
}

static void test_unix_socket(void) {
  server s;
  server_unix(&s, serve_normal);
  ssd_client *c = connect_to(&s, NULL);
  char expected[160];
  snprintf(expected, sizeof expected, "unix:%s", s.unix_path);
  CHECK_STR(ssd_address(c), expected);
  ssd_object_status st;
  ssd_error err;
  CHECK_INT(ssd_status(c, "/over/unix", &st, NULL, &err), SSD_OK);
  CHECK_STR(st.path.s, "/over/unix");
  ssd_object_status_free(&st);
  uint8_t buf[64];
  uint32_t n;
  CHECK_INT(ssd_read(c, 1, 0, buf, sizeof buf, &n, NULL, &err), SSD_OK);
  CHECK_EQ(n, 64);
  ssd_close(c);
  server_stop(&s);
}

static void test_ipv6(void) {
  server s;
  if (!server_tcp6(&s, serve_normal)) {
    printf("test_client: no IPv6 loopback; [::1] not tested\n");
    return;
  }
  char address[64];
  snprintf(address, sizeof address, "[::1]:%d", s.port);
  ssd_client *c = NULL;
  ssd_error err;
  REQUIRE(ssd_connect(address, NULL, &c, &err) == SSD_OK);
  CHECK_STR(ssd_address(c), address);
  ssd_object_status st;
  CHECK_INT(ssd_status(c, "/v6", &st, NULL, &err), SSD_OK);
  ssd_object_status_free(&st);
  ssd_close(c);
  server_stop(&s);
}

/* ---- broken servers -------------------------------------------------------------------------- */

/* Reads two requests, then sends 12 bytes of a header and closes. */
static void script_close_mid_header(server *s, int fd) {
  (void)s;
  frame a, b;
  if (!read_frame(fd, &a) || !read_frame(fd, &b)) return;
  uint8_t h[32];
  header_bytes(h, a.opcode, 1, 0, 27, a.id, 0);
  write_all(fd, h, 12);
  free(a.payload);
  free(b.payload);
}

/* Reads two requests, then sends a header promising 100 bytes, 10 of them, and closes. */
static void script_close_mid_payload(server *s, int fd) {
  (void)s;
  frame a, b;
  if (!read_frame(fd, &a) || !read_frame(fd, &b)) return;
  uint8_t h[42] = {0};
  header_bytes(h, a.opcode, 1, 0, 100, a.id, 0);
  write_all(fd, h, sizeof h);
  free(a.payload);
  free(b.payload);
}

static void script_garbage(server *s, int fd) {
  (void)s;
  frame a;
  if (!read_frame(fd, &a)) return;
  const char *junk = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
  write_all(fd, junk, strlen(junk));
  free(a.payload);
  drain(fd);
}

static void script_oversized(server *s, int fd) {
  (void)s;
  frame a;
  if (!read_frame(fd, &a)) return;
  uint8_t h[32];
  header_bytes(h, a.opcode, 1, 0, 1u << 30, a.id, 0);
  write_all(fd, h, sizeof h);
  free(a.payload);
  drain(fd);
}

static void script_bad_flags(server *s, int fd) {
  (void)s;
  frame a;
  if (!read_frame(fd, &a)) return;
  uint8_t h[32];
  header_bytes(h, a.opcode, 0, 0, 0, a.id, 0);
  write_all(fd, h, sizeof h);
  free(a.payload);
  drain(fd);
}

/* What IDENTIFY carried, as the fake device saw it (the frame's version, then its payload). */
static uint16_t identify_version;
static uint8_t identify_payload[64];
static uint32_t identify_len;

/* Expects IDENTIFY first (version 4): keeps it, answers it, and refuses a second one. */
static void script_identify(server *s, int fd) {
  (void)s;
  frame a;
  if (!read_frame(fd, &a)) return;
  if (a.opcode == SSD_OP_IDENTIFY && a.len <= sizeof identify_payload) {
    identify_version = a.version;
    identify_len = a.len;
    memcpy(identify_payload, a.payload, a.len);
    send_reply(fd, a.opcode, 0, a.id, 0, NULL, 0);
  } else {
    send_error(fd, &a, SSD_BAD_REQUEST, "IDENTIFY expected first");
  }
  free(a.payload);
  drain(fd);
}

/* What EXECUTE_OBJECT and READ_OBJECT carried, as the fake device saw them. */
static int executions;             /* EXECUTE_OBJECTs received */
static uint16_t execute_version;   /* the last one's frame version */
static uint8_t execute_payload[256];
static uint32_t execute_len;
static uint32_t read_object_asked; /* the last READ_OBJECT's max result bytes */

/* A device of s->max_version (the version the client negotiates with it, up to 6) that starts
 * executions (ids 0xE0, 0xE1, ...) and answers READ_OBJECT with a done execution: lanes 2,
 * counter i the value i + 1, from version 5 on output bytes 1000, pages programmed 3 and modelled
 * write 4444, from version 6 on lane state bytes 7777 and swap pages read 55; one result "ok" of
 * lane 0. */
static void script_execution(server *s, int fd) {
  frame a;
  while (read_frame(fd, &a)) {
    uint8_t out[512];
    size_t at = 0;
    if (a.opcode == SSD_OP_EXECUTE_OBJECT && a.len <= sizeof execute_payload) {
      execute_version = a.version;
      execute_len = a.len;
      memcpy(execute_payload, a.payload, a.len);
      be64(out, 0xE0 + (uint64_t)executions++);
      send_reply(fd, a.opcode, 0, a.id, 11, out, 8);
    } else if (a.opcode == SSD_OP_READ_OBJECT && a.len == 12) {
      read_object_asked = get32(a.payload + 8);
      out[at++] = SSD_EXEC_DONE;
      be16(out + at, 0); /* message */
      at += 2;
      be32(out + at, 2); /* lanes */
      at += 4;
      for (int i = 0; i < 24; i++, at += 8) be64(out + at, (uint64_t)i + 1);
      if (s->max_version >= 5) {
        be64(out + at, 1000);
        be64(out + at + 8, 3);
        be64(out + at + 16, 4444);
        at += 24;
      }
      if (s->max_version >= 6) {
        be64(out + at, 7777);
        be64(out + at + 8, 55);
        at += 16;
      }
      be32(out + at, 1); /* one result */
      be16(out + at + 4, 1); /* lane 0, sent as lane + 1 */
      be32(out + at + 6, 2);
      memcpy(out + at + 10, "ok", 2);
      at += 12;
      out[at++] = 1; /* finished */
      send_reply(fd, a.opcode, 0, a.id, 12, out, (uint32_t)at);
    } else {
      send_error(fd, &a, SSD_UNKNOWN_OPCODE, "opcode not known to the fake device");
    }
    free(a.payload);
  }
}

static void script_unknown_id(server *s, int fd) {
  (void)s;
  frame a;
  if (!read_frame(fd, &a)) return;
  send_reply(fd, a.opcode, 0, 999999, 0, NULL, 0);
  free(a.payload);
  drain(fd);
}

/* Expects a READ (into the caller's buffer) and a queued STATUS and answers neither until the
 * test says the client timed out (step 1); then sends the late replies and serves normally. */
static void script_late(server *s, int fd) {
  frame read, status;
  if (!read_frame(fd, &read) || !read_frame(fd, &status)) return;
  if (await_step(s, 1)) {
    uint32_t n = get32(read.payload + 16);
    uint8_t *p = malloc(4 + (size_t)n);
    be32(p, n);
    memset(p + 4, 0xAA, n);
    send_reply(fd, read.opcode, 0, read.id, 0, p, 4 + n);
    free(p);
    answer(s, fd, &status);
  }
  free(read.payload);
  free(status.payload);
  serve_normal(s, fd);
}

/* What script_late waits for: a READ into buf (waited for) and a queued STATUS of "/late". */
static void submit_late_pair(ssd_client *c, uint8_t *buf, uint32_t len, uint64_t *read_id,
                             uint64_t *status_id) {
  ssd_error err;
  uint8_t p[20];
  be64(p, 1);
  be64(p + 8, 0);
  be32(p + 16, len);
  REQUIRE(ssd_submit(c, SSD_OP_READ, p, 20, buf, len, 0, read_id, &err) == SSD_OK);
  uint8_t q[16];
  REQUIRE(ssd_submit(c, SSD_OP_STATUS, q, status_payload(q, "/late"), NULL, 0, SSD_SUBMIT_QUEUE,
                     status_id, &err) == SSD_OK);
}

/* Answers a READ with its header and half its data, then stalls until the client closes. */
static void script_stall_mid_data(server *s, int fd) {
  (void)s;
  frame read;
  if (!read_frame(fd, &read)) return;
  uint8_t p[32 + 4 + 50];
  memset(p, 0xAA, sizeof p);
  header_bytes(p, read.opcode, 1, 0, 4 + 100, read.id, 0);
  be32(p + 32, 100);
  write_all(fd, p, sizeof p);
  free(read.payload);
  drain(fd);
}

/* Reads nothing until the test says so (step 1): the client's sends fill the socket buffers. */
static void script_no_read(server *s, int fd) {
  await_step(s, 1);
  drain(fd);
}

static void script_silent(server *s, int fd) {
  (void)s;
  drain(fd);
}

/* Submits two STATUS requests and waits for both; returns the first's status and error. */
static int two_requests(ssd_client *c, ssd_error *first) {
  uint8_t p[16];
  uint32_t n = status_payload(p, "/x");
  uint64_t a, b;
  ssd_error err;
  REQUIRE(ssd_submit(c, SSD_OP_STATUS, p, n, NULL, 0, 0, &a, &err) == SSD_OK);
  REQUIRE(ssd_submit(c, SSD_OP_STATUS, p, n, NULL, 0, 0, &b, &err) == SSD_OK);
  int rc = ssd_wait(c, a, NULL, first);
  CHECK_INT(ssd_wait(c, b, NULL, &err), rc);
  CHECK_STR(err.message, first->message);
  return rc;
}

/* After a failure, submits fail at once with it. */
static void check_failed_for_good(ssd_client *c, int code) {
  uint8_t p[16];
  uint64_t id;
  ssd_error err;
  CHECK_INT(ssd_submit(c, SSD_OP_STATUS, p, status_payload(p, "/y"), NULL, 0, 0, &id, &err),
            code);
  ssd_reply r;
  CHECK_INT(ssd_next_completion(c, 1000, &r, &err), SSD_E_CLOSED);
}

static void test_broken_servers(void) {
  server s;
  ssd_error err;
  char address[64];

  server_tcp(&s, script_close_mid_header);
  ssd_client *c = connect_to(&s, NULL);
  snprintf(address, sizeof address, "device 127.0.0.1:%d", s.port);
  CHECK_INT(two_requests(c, &err), SSD_E_CLOSED);
  CHECK_CONTAINS(err.message, "connection closed after 12 of 32 header bytes");
  CHECK_CONTAINS(err.message, address);
  check_failed_for_good(c, SSD_E_CLOSED);
  ssd_close(c);
  server_stop(&s);

  server_tcp(&s, script_close_mid_payload);
  c = connect_to(&s, NULL);
  CHECK_INT(two_requests(c, &err), SSD_E_CLOSED);
  CHECK_CONTAINS(err.message, "connection closed after 42 of 132 frame bytes");
  check_failed_for_good(c, SSD_E_CLOSED);
  ssd_close(c);
  server_stop(&s);

  server_tcp(&s, script_garbage);
  c = connect_to(&s, NULL);
  ssd_object_status st;
  CHECK_INT(ssd_status(c, "/x", &st, NULL, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "bad magic 0x48545450");
  check_failed_for_good(c, SSD_E_PROTOCOL);
  ssd_close(c);
  server_stop(&s);

  server_tcp(&s, script_oversized);
  c = connect_to(&s, NULL);
  CHECK_INT(ssd_status(c, "/x", &st, NULL, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "frame of 1073741824 payload bytes exceeds the limit of 67112960");
  check_failed_for_good(c, SSD_E_PROTOCOL);
  ssd_close(c);
  server_stop(&s);

  server_tcp(&s, script_bad_flags);
  c = connect_to(&s, NULL);
  CHECK_INT(ssd_status(c, "/x", &st, NULL, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "flags 0x0000");
  ssd_close(c);
  server_stop(&s);

  server_tcp(&s, script_unknown_id);
  c = connect_to(&s, NULL);
  CHECK_INT(ssd_status(c, "/x", &st, NULL, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "request 999999, which was never sent");
  ssd_close(c);
  server_stop(&s);
}

static void test_timeouts(void) {
  server s;
  ssd_error err;
  ssd_options opt = ssd_options_default();
  opt.request_timeout_ms = 300;

  /* No reply in time: SSD_E_TIMEOUT; the late reply is dropped, never written to dst. */
  server_tcp(&s, script_late);
  ssd_client *c = connect_to(&s, &opt);
  uint8_t buf[64];
  memset(buf, 0x55, sizeof buf);
  uint64_t read_id, status_id;
  submit_late_pair(c, buf, sizeof buf, &read_id, &status_id);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  ssd_reply r;
  CHECK_INT(ssd_wait(c, read_id, &r, &err), SSD_E_TIMEOUT);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
  CHECK(ms >= 250 && ms < 3000);
  CHECK_INT(r.status, SSD_E_TIMEOUT);
  CHECK_CONTAINS(err.message, "no reply to READ");
  CHECK_INT(ssd_wait(c, read_id, &r, &err), SSD_E_ARG); /* forgotten */
  CHECK_INT(ssd_next_completion(c, 2000, &r, &err), SSD_E_TIMEOUT);
  CHECK_EQ(r.request_id, status_id);
  CHECK_CONTAINS(err.message, "no reply to STATUS");
  set_step(&s, 1); /* the late replies go out now */
  ssd_object_status st;
  CHECK_INT(ssd_status(c, "/after", &st, NULL, &err), SSD_OK); /* the stream is intact */
  CHECK_STR(st.path.s, "/after");
  ssd_object_status_free(&st);
  bool untouched = true;
  for (size_t i = 0; i < sizeof buf; i++) untouched = untouched && buf[i] == 0x55;
  CHECK(untouched);
  CHECK_INT(ssd_next_completion(c, 0, &r, &err), SSD_E_TIMEOUT); /* nothing more was queued */
  ssd_close(c);
  server_stop(&s);

  /* Half a READ's data arrives, then nothing: the timeout closes the connection, as the caller's
   * buffer is being written. */
  server_tcp(&s, script_stall_mid_data);
  c = connect_to(&s, &opt);
  uint32_t n;
  uint8_t big[100];
  CHECK_INT(ssd_read(c, 1, 0, big, sizeof big, &n, NULL, &err), SSD_E_TIMEOUT);
  CHECK_CONTAINS(err.message, "connection is closed");
  check_failed_for_good(c, SSD_E_TIMEOUT);
  ssd_close(c);
  server_stop(&s);

  /* A device that stops reading: a frame that cannot be sent whole in time closes the
   * connection (half a frame cannot be taken back). */
  server_tcp(&s, script_no_read);
  ssd_options big_frames = opt;
  big_frames.max_frame_bytes = 64u << 20;
  c = connect_to(&s, &big_frames);
  size_t size = 32u << 20;
  uint8_t *data = calloc(1, size);
  REQUIRE(data != NULL);
  uint64_t length;
  CHECK_INT(ssd_write(c, 1, data, size, &length, NULL, &err), SSD_E_TIMEOUT);
  CHECK_CONTAINS(err.message, "could not finish sending WRITE");
  check_failed_for_good(c, SSD_E_TIMEOUT);
  free(data);
  set_step(&s, 1);
  ssd_close(c);
  server_stop(&s);

  /* The handshake is bounded by the connect timeout. */
  server_tcp_versions(&s, script_silent, 1, 1, false);
  opt.connect_timeout_ms = 300;
  char address[64];
  snprintf(address, sizeof address, "127.0.0.1:%d", s.port);
  c = (ssd_client *)1;
  CHECK_INT(ssd_connect(address, &opt, &c, &err), SSD_E_TIMEOUT);
  CHECK(c == NULL);
  CHECK_CONTAINS(err.message, "API_VERSIONS");
  server_stop(&s);
}

/* ssd_close with requests outstanding, and with a thread blocked in ssd_wait. */
typedef struct blocked {
  ssd_client *c;
  uint64_t id;
  int rc;
  atomic_bool started;
} blocked;

static void *blocked_wait(void *arg) {
  blocked *b = arg;
  ssd_error err;
  atomic_store(&b->started, true);
  b->rc = ssd_wait(b->c, b->id, NULL, &err);
  return NULL;
}

static void *blocked_next(void *arg) {
  blocked *b = arg;
  ssd_reply r;
  ssd_error err;
  atomic_store(&b->started, true);
  for (;;) {
    b->rc = ssd_next_completion(b->c, -1, &r, &err);
    ssd_reply_free(&r);
    if (b->rc == SSD_E_CLOSED) return NULL;
  }
}

/* Waiting in slices, and giving a request up (what the JNI binding does for Thread.interrupt). */
static void test_abandon(void) {
  server s;
  ssd_error err;
  ssd_options opt = ssd_options_default();
  opt.request_timeout_ms = 10000;

  /* A reply that has not come: SSD_E_AGAIN, still pending; given up, then forgotten, and its late
   * reply is dropped, never written to dst, while the connection goes on. */
  server_tcp(&s, script_late);
  ssd_client *c = connect_to(&s, &opt);
  uint8_t buf[64];
  memset(buf, 0x55, sizeof buf);
  uint64_t read_id, status_id;
  submit_late_pair(c, buf, sizeof buf, &read_id, &status_id);
  uint8_t q[16];
  ssd_reply r;
  CHECK_INT(ssd_wait_for(c, read_id, 0, &r, &err), SSD_E_AGAIN);
  CHECK_INT(ssd_wait_for(c, read_id, 50, &r, &err), SSD_E_AGAIN);
  CHECK_CONTAINS(err.message, "no reply to READ");
  CHECK_CONTAINS(err.message, "yet");
  CHECK_INT(ssd_abandon(c, read_id, &err), SSD_OK);
  CHECK_INT(ssd_wait(c, read_id, &r, &err), SSD_E_ARG); /* forgotten */
  CHECK_INT(ssd_abandon(c, read_id, &err), SSD_E_ARG);
  set_step(&s, 1); /* the late replies go out now */
  CHECK_INT(ssd_next_completion(c, 5000, &r, &err), SSD_OK); /* the queued STATUS, untouched */
  CHECK_EQ(r.request_id, status_id);
  ssd_reply_free(&r);
  ssd_object_status st;
  CHECK_INT(ssd_status(c, "/after", &st, NULL, &err), SSD_OK); /* the stream is intact */
  CHECK_STR(st.path.s, "/after");
  ssd_object_status_free(&st);
  bool untouched = true;
  for (size_t i = 0; i < sizeof buf; i++) untouched = untouched && buf[i] == 0x55;
  CHECK(untouched);

  /* A reply that has come: ssd_wait_for hands it over at once; one given up is dropped. */
  uint64_t id;
  REQUIRE(ssd_submit(c, SSD_OP_STATUS, q, status_payload(q, "/now"), NULL, 0, 0, &id, &err) ==
          SSD_OK);
  CHECK_INT(ssd_wait_for(c, id, 5000, &r, &err), SSD_OK);
  ssd_reply_free(&r);
  REQUIRE(ssd_submit(c, SSD_OP_STATUS, q, status_payload(q, "/dropped"), NULL, 0, 0, &id, &err) ==
          SSD_OK);
  CHECK_INT(ssd_status(c, "/later", &st, NULL, &err), SSD_OK); /* so the first has come too */
  ssd_object_status_free(&st);
  CHECK_INT(ssd_abandon(c, id, &err), SSD_OK);
  CHECK_INT(ssd_wait(c, id, &r, &err), SSD_E_ARG);
  ssd_close(c);
  server_stop(&s);

  /* Given up while its data is being received into dst: the connection is closed (dst cannot be
   * taken back from the receiver otherwise), and every later call says why. */
  server_tcp(&s, script_stall_mid_data);
  c = connect_to(&s, &opt);
  uint8_t big[100];
  uint8_t rp[20];
  be64(rp, 1);
  be64(rp + 8, 0);
  be32(rp + 16, sizeof big);
  REQUIRE(ssd_submit(c, SSD_OP_READ, rp, 20, big, sizeof big, 0, &id, &err) == SSD_OK);
  CHECK_INT(ssd_wait_for(c, id, 300, &r, &err), SSD_E_AGAIN);
  CHECK_INT(ssd_abandon(c, id, &err), SSD_OK);
  CHECK_INT(ssd_wait(c, id, &r, &err), SSD_E_ARG);
  check_failed_for_good(c, SSD_E_INTERRUPTED);
  ssd_close(c);
  server_stop(&s);
  CHECK_STR(ssd_status_name(SSD_E_INTERRUPTED), "INTERRUPTED");
  CHECK_STR(ssd_status_name(SSD_E_AGAIN), "AGAIN");
}

static void test_close_with_outstanding(void) {
  server s;
  server_unix(&s, script_silent);
  ssd_client *c = connect_to(&s, NULL);
  ssd_error err;
  uint8_t p[16];
  uint32_t n = status_payload(p, "/x");
  for (int i = 0; i < 10; i++) {
    uint64_t id;
    REQUIRE(ssd_submit(c, SSD_OP_STATUS, p, n, NULL, 0, SSD_SUBMIT_QUEUE, &id, &err) == SSD_OK);
  }
  blocked w = {c, 0, 0, false}, q = {c, 0, 0, false};
  REQUIRE(ssd_submit(c, SSD_OP_STATUS, p, n, NULL, 0, 0, &w.id, &err) == SSD_OK);
  pthread_t tw, tq;
  REQUIRE(pthread_create(&tw, NULL, blocked_wait, &w) == 0);
  REQUIRE(pthread_create(&tq, NULL, blocked_next, &q) == 0);
  while (!atomic_load(&w.started) || !atomic_load(&q.started)) usleep(1000);
  usleep(100 * 1000); /* and into their calls */
  ssd_close(c); /* fails everything, waits for both threads to leave, frees */
  pthread_join(tw, NULL);
  pthread_join(tq, NULL);
  CHECK_INT(w.rc, SSD_E_CLOSED);
  CHECK_INT(q.rc, SSD_E_CLOSED);
  server_stop(&s);
  ssd_close(NULL);
}

/* ---- authentication -------------------------------------------------------------------------- */

/* A connect expected to fail with `code`: the client is not given out. */
static int failed_connect(const server *s, const ssd_options *opt, ssd_error *err) {
  char address[160];
  address_of(s, address, sizeof address);
  ssd_client *c = (ssd_client *)1;
  int rc = ssd_connect(address, opt, &c, err);
  CHECK(c == NULL);
  if (rc == SSD_OK) ssd_close(c);
  return rc;
}

static void test_authentication(void) {
  server s;
  ssd_error err;
  ssd_object_status st;
  char address[64];
  ssd_options opt = ssd_options_default();
  opt.secret = FAKE_SECRET;
  opt.secret_len = strlen(FAKE_SECRET);
  static const uint8_t zeros[32] = {0};

  /* The device requires the proof; the client has the secret: it proves it holds it, checks the
   * device's proof, and the connection serves. */
  server_tcp_auth(&s, serve_normal, AUTH_ON);
  ssd_client *c = connect_to(&s, &opt);
  CHECK_INT(ssd_status(c, "/after/auth", &st, NULL, &err), SSD_OK);
  CHECK_STR(st.path.s, "/after/auth");
  ssd_object_status_free(&st);
  ssd_close(c);
  server_stop(&s);
  CHECK_INT(s.challenges, 1);
  CHECK_INT(s.proofs_accepted, 1);
  CHECK_INT(s.proofs_refused, 0);
  CHECK(memcmp(s.host_nonce, zeros, 32) != 0);
  uint8_t first_nonce[32];
  memcpy(first_nonce, s.host_nonce, 32);

  /* A fresh host nonce for each connection. */
  server_tcp_auth(&s, script_silent, AUTH_ON);
  ssd_close(connect_to(&s, &opt));
  server_stop(&s);
  CHECK_INT(s.proofs_accepted, 1);
  CHECK(memcmp(s.host_nonce, first_nonce, 32) != 0);

  /* A device without a secret: the client's secret is not used, and all is well. */
  server_tcp_auth(&s, serve_normal, AUTH_OFF);
  c = connect_to(&s, &opt);
  CHECK_INT(ssd_mkdirs(c, "/open", NULL, &err), SSD_OK);
  ssd_close(c);
  server_stop(&s);
  CHECK_INT(s.challenges, 1);

  /* No secret: AUTH_REQUIRED, saying how to give one; the client leaves without a proof. */
  unsetenv("SMARTSSD_SECRET_FILE");
  server_tcp_auth(&s, script_silent, AUTH_ON);
  CHECK_INT(failed_connect(&s, NULL, &err), SSD_AUTH_REQUIRED);
  CHECK_INT(err.code, SSD_AUTH_REQUIRED);
  snprintf(address, sizeof address, "device 127.0.0.1:%d", s.port);
  CHECK_CONTAINS(err.message, address);
  CHECK_CONTAINS(err.message, "requires hosts to authenticate");
  CHECK_CONTAINS(err.message, "set SMARTSSD_SECRET_FILE");
  server_stop(&s);
  CHECK(s.closed_after_challenge);
  CHECK_INT(s.proofs_refused, 0);

  /* The wrong secret: the device refuses the proof (AUTH_REQUIRED, and it closes). */
  server_tcp_auth(&s, script_silent, AUTH_ON);
  ssd_options wrong = opt;
  wrong.secret = "not-the-device-secret-0123456789";
  wrong.secret_len = strlen(wrong.secret);
  CHECK_INT(failed_connect(&s, &wrong, &err), SSD_AUTH_REQUIRED);
  CHECK_CONTAINS(err.message, "AUTHENTICATE: device fake refused the proof");
  CHECK_CONTAINS(err.message, "the client's secret is not this device's");
  server_stop(&s);
  CHECK_INT(s.proofs_refused, 1);

  /* A device whose own proof is wrong does not hold the secret: the client will not use it. */
  server_tcp_auth(&s, script_silent, AUTH_WRONG_PROOF);
  CHECK_INT(failed_connect(&s, &opt, &err), SSD_AUTH_REQUIRED);
  CHECK_CONTAINS(err.message, "the device did not prove it holds the client's secret");
  server_stop(&s);
  CHECK_INT(s.proofs_accepted, 1);

  server_tcp_auth(&s, script_silent, AUTH_SHORT_PROOF);
  CHECK_INT(failed_connect(&s, &opt, &err), SSD_E_PROTOCOL);
  CHECK_CONTAINS(err.message, "AUTHENTICATE response: field 'proof': must be 32 bytes, was 31");
  server_stop(&s);

  /* The secret from a file: named by SMARTSSD_SECRET_FILE, or by the options. */
  char dir[64] = "/tmp/smartssd-client-XXXXXX";
  REQUIRE(mkdtemp(dir) != NULL);
  char file[128];
  snprintf(file, sizeof file, "%s/secret", dir);
  FILE *f = fopen(file, "w");
  REQUIRE(f != NULL);
  fprintf(f, "%s\n", FAKE_SECRET);
  fclose(f);
  REQUIRE(chmod(file, 0600) == 0);
  setenv("SMARTSSD_SECRET_FILE", file, 1);
  server_tcp_auth(&s, script_silent, AUTH_ON);
  ssd_close(connect_to(&s, NULL));
  server_stop(&s);
  CHECK_INT(s.proofs_accepted, 1);
  unsetenv("SMARTSSD_SECRET_FILE");
  ssd_options from_file = ssd_options_default();
  from_file.secret_file = file;
  server_tcp_auth(&s, script_silent, AUTH_ON);
  ssd_close(connect_to(&s, &from_file));
  server_stop(&s);
  CHECK_INT(s.proofs_accepted, 1);
  /* ... and with the wrong one, the refusal names the file. */
  f = fopen(file, "w");
  REQUIRE(f != NULL);
  fprintf(f, "another-secret-0123456789\n");
  fclose(f);
  server_tcp_auth(&s, script_silent, AUTH_ON);
  CHECK_INT(failed_connect(&s, &from_file, &err), SSD_AUTH_REQUIRED);
  CHECK_CONTAINS(err.message, file);
  server_stop(&s);
  unlink(file);
  rmdir(dir);

  /* A device that never answers AUTH_CHALLENGE: the connect timeout bounds the handshake. */
  server_tcp_auth(&s, script_silent, AUTH_SILENT);
  ssd_options quick = opt;
  quick.connect_timeout_ms = 300;
  CHECK_INT(failed_connect(&s, &quick, &err), SSD_E_TIMEOUT);
  CHECK_CONTAINS(err.message, "AUTH_CHALLENGE");
  server_stop(&s);

  /* A device that does not know AUTH_CHALLENGE (older than the handshake): the connect fails with
   * its answer, as the Java client's does. */
  server_tcp_auth(&s, serve_normal, AUTH_SILENT);
  CHECK_INT(failed_connect(&s, NULL, &err), SSD_UNKNOWN_OPCODE);
  CHECK_STR(err.message, "opcode not known to the fake device");
  server_stop(&s);
}

/* ---- connecting ------------------------------------------------------------------------------ */

static void test_connect_errors(void) {
  ssd_error err;
  ssd_client *c = NULL;

  /* A port nobody listens on. */
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, (struct sockaddr *)&a, sizeof a) == 0);
  socklen_t len = sizeof a;
  REQUIRE(getsockname(fd, (struct sockaddr *)&a, &len) == 0);
  close(fd);
  char address[64];
  snprintf(address, sizeof address, "127.0.0.1:%d", ntohs(a.sin_port));
  CHECK_INT(ssd_connect(address, NULL, &c, &err), SSD_E_IO);
  CHECK(c == NULL);
  CHECK_CONTAINS(err.message, address);
  CHECK_CONTAINS(err.message, "refused");
  CHECK_INT(err.code, SSD_E_IO);

  CHECK_INT(ssd_connect("unix:/nonexistent/smartssd.sock", NULL, &c, &err), SSD_E_IO);
  CHECK_CONTAINS(err.message, "unix:/nonexistent/smartssd.sock");

  static const char *const bad[] = {
      "", "localhost", "localhost:", ":7070", "host:0", "host:65536", "host:12a", "host:-1",
      "host:123456", "::1:7070", "[::1]7070", "[::1", "[::1]:", "[]:7070", "unix:", "unix:relative.sock", "a b]:1",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    c = (ssd_client *)1;
    int rc = ssd_connect(bad[i], NULL, &c, &err);
    if (rc != SSD_E_ARG) fprintf(stderr, "address '%s': %d %s\n", bad[i], rc, err.message);
    CHECK_INT(rc, SSD_E_ARG);
    CHECK(c == NULL);
    CHECK_CONTAINS(err.message, "bad device address");
  }
  char long_unix[300] = "unix:/";
  memset(long_unix + 6, 'x', 200);
  long_unix[206] = '\0';
  CHECK_INT(ssd_connect(long_unix, NULL, &c, &err), SSD_E_ARG);
  CHECK_INT(ssd_connect(NULL, NULL, &c, &err), SSD_E_ARG);

  ssd_options opt = ssd_options_default();
  opt.max_frame_bytes = 100;
  CHECK_INT(ssd_connect("127.0.0.1:1", &opt, &c, &err), SSD_E_ARG);
  opt = ssd_options_default();
  opt.request_timeout_ms = 0;
  CHECK_INT(ssd_connect("127.0.0.1:1", &opt, &c, &err), SSD_E_ARG);

  /* No common version. */
  server s;
  server_tcp_versions(&s, script_silent, 7, 8, true);
  snprintf(address, sizeof address, "127.0.0.1:%d", s.port);
  CHECK_INT(ssd_connect(address, NULL, &c, &err), SSD_E_VERSION);
  CHECK_CONTAINS(err.message, "no common protocol version: this client speaks 1..6, the device 7..8");
  server_stop(&s);

  /* The highest common one: 6 with a device of 1..9, 4 with a device of 1..4, 2 with a device of
   * 1..2, 1 with a device of version 1 only. */
  CHECK_INT(SSD_MAX_VERSION, 6);
  server_tcp_versions(&s, script_silent, 1, 9, true);
  snprintf(address, sizeof address, "127.0.0.1:%d", s.port);
  REQUIRE(ssd_connect(address, NULL, &c, &err) == SSD_OK);
  CHECK_INT(ssd_protocol_version(c), 6);
  ssd_close(c);
  server_stop(&s);
  server_tcp_versions(&s, script_silent, 1, 4, true);
  snprintf(address, sizeof address, "127.0.0.1:%d", s.port);
  REQUIRE(ssd_connect(address, NULL, &c, &err) == SSD_OK);
  CHECK_INT(ssd_protocol_version(c), 4);
  ssd_close(c);
  server_stop(&s);
  server_tcp_versions(&s, script_silent, 1, 2, true);
  snprintf(address, sizeof address, "127.0.0.1:%d", s.port);
  REQUIRE(ssd_connect(address, NULL, &c, &err) == SSD_OK);
  CHECK_INT(ssd_protocol_version(c), 2);
  ssd_close(c);
  server_stop(&s);
  server_tcp_versions(&s, script_silent, 1, 1, true);
  snprintf(address, sizeof address, "127.0.0.1:%d", s.port);
  REQUIRE(ssd_connect(address, NULL, &c, &err) == SSD_OK);
  CHECK_INT(ssd_protocol_version(c), 1);
  ssd_close(c);
  server_stop(&s);

  /* A user in the options: IDENTIFY, in a version 4 frame, before any command. */
  server_tcp_versions(&s, script_identify, 1, 4, true);
  snprintf(address, sizeof address, "127.0.0.1:%d", s.port);
  const char *const groups[] = {"analysts", "staff"};
  opt = ssd_options_default();
  opt.user = "alice";
  opt.groups = groups;
  opt.n_groups = 2;
  REQUIRE(ssd_connect(address, &opt, &c, &err) == SSD_OK);
  CHECK_INT(identify_version, 4);
  const uint8_t expected[] = {0, 5, 'a', 'l', 'i', 'c', 'e', 0, 0, 0, 2, 0, 8, 'a', 'n', 'a', 'l',
                              'y', 's', 't', 's', 0, 5, 's', 't', 'a', 'f', 'f'};
  CHECK_EQ(identify_len, sizeof expected);
  CHECK_MEM(identify_payload, expected, sizeof expected);
  /* SET_* need version 4: refused without sending to a version 3 device. */
  ssd_close(c);
  server_stop(&s);
  server_tcp_versions(&s, script_silent, 1, 3, true);
  snprintf(address, sizeof address, "127.0.0.1:%d", s.port);
  REQUIRE(ssd_connect(address, &opt, &c, &err) == SSD_OK); /* no IDENTIFY to a version 3 device */
  CHECK_INT(ssd_set_permission(c, "/a", 0700, NULL, &err), SSD_E_VERSION);
  CHECK_CONTAINS(err.message, "SET_PERMISSION needs protocol version 4");
  CHECK_INT(ssd_set_times(c, "/a", 1, SSD_KEEP_TIME, NULL, &err), SSD_E_VERSION);
  ssd_close(c);
  server_stop(&s);
}

/* The READ_OBJECT the client sent, and its answer decoded for the negotiated version. */
static void check_progress(ssd_client *c, int version) {
  ssd_execution_progress pr;
  ssd_error err;
  uint64_t nanos = 0;
  REQUIRE(ssd_read_object(c, 0xE0, 100000, &pr, &nanos, &err) == SSD_OK);
  CHECK_EQ(nanos, 12);
  /* The frame limit (1024) less the other fields of this version's answer: 204, 228 from 5 on,
   * 244 from 6 on. */
  CHECK_EQ(read_object_asked, version >= 6 ? 1024 - 244 : version >= 5 ? 1024 - 228 : 1024 - 204);
  CHECK_INT(pr.state, SSD_EXEC_DONE);
  CHECK_EQ(pr.stats.lanes, 2);
  CHECK_EQ(pr.stats.bytes_scanned, 1);
  CHECK_EQ(pr.stats.modelled_nanos, 8);
  CHECK_EQ(pr.stats.counted_tail_bulk_bytes, 24);
  CHECK_EQ(pr.stats.output_bytes, version >= 5 ? 1000 : 0);
  CHECK_EQ(pr.stats.pages_programmed, version >= 5 ? 3 : 0);
  CHECK_EQ(pr.stats.modelled_write_nanos, version >= 5 ? 4444 : 0);
  CHECK_EQ(pr.stats.lane_state_bytes, version >= 6 ? 7777 : 0);
  CHECK_EQ(pr.stats.swap_pages_read, version >= 6 ? 55 : 0);
  REQUIRE(pr.n_results == 1);
  CHECK_INT(pr.results[0].lane, 0);
  CHECK_EQ(pr.results[0].len, 2);
  CHECK_MEM(pr.results[0].data, "ok", 2);
  CHECK(pr.finished);
  ssd_execution_progress_free(&pr);
}

/* Output objects: EXECUTE_OBJECT with an output path to a version 5 device, refused unsent to a
 * version 4 one; plain EXECUTE_OBJECT at both, and READ_OBJECT's statistics as each lays them out. */
static void test_output_objects(void) {
  const ssd_input_range in = {"/in", 5, SSD_TO_END};
  const char *const keys[] = {"merge"};
  const char *const values[] = {"device"};
  /* u64 tasklet 7; u32 1 input ("/in", offset 5, length all ones); u32 1 option merge=device */
  const uint8_t v4_payload[] = {0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 1, 0, 3, '/', 'i', 'n',
                                0, 0, 0, 0, 0, 0, 0, 5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                0xFF, 0xFF, 0, 0, 0, 1, 0, 5, 'm', 'e', 'r', 'g', 'e', 0, 6,
                                'd', 'e', 'v', 'i', 'c', 'e'};
  ssd_options opt = ssd_options_default();
  opt.max_frame_bytes = 1024;
  ssd_error err;
  uint64_t id = 0;
  uint64_t nanos = 99;

  server s;
  server_tcp_versions(&s, script_execution, 1, 5, true);
  ssd_client *c = connect_to(&s, &opt);
  CHECK_INT(ssd_protocol_version(c), SSD_OUTPUT_VERSION);
  executions = 0;
  CHECK_INT(ssd_execute_object_output(c, 7, &in, 1, keys, values, 1, "/out/part-0", 0640, &id,
                                      &nanos, &err),
            SSD_OK);
  CHECK_EQ(id, 0xE0);
  CHECK_EQ(nanos, 11);
  CHECK_INT(executions, 1);
  CHECK_EQ(execute_version, 5);
  /* then string "/out/part-0" and u16 0640 */
  REQUIRE(execute_len == sizeof v4_payload + 2 + 11 + 2);
  CHECK_MEM(execute_payload, v4_payload, sizeof v4_payload);
  CHECK_MEM(execute_payload + sizeof v4_payload, "\x00\x0b/out/part-0\x01\xa0", 15);
  /* Without an output object: an empty path and the default file permission. */
  CHECK_INT(ssd_execute_object(c, 7, &in, 1, keys, values, 1, &id, NULL, &err), SSD_OK);
  CHECK_EQ(id, 0xE1);
  CHECK_EQ(execute_version, 5);
  REQUIRE(execute_len == sizeof v4_payload + 2 + 2);
  CHECK_MEM(execute_payload, v4_payload, sizeof v4_payload);
  CHECK_MEM(execute_payload + sizeof v4_payload, "\x00\x00\x01\xa4", 4);
  /* Arguments checked before anything is sent. */
  CHECK_INT(ssd_execute_object_output(c, 7, &in, 1, keys, values, 1, NULL, 0640, &id, &nanos,
                                      &err),
            SSD_E_ARG);
  CHECK_CONTAINS(err.message, "an output path must name an object");
  CHECK_EQ(nanos, 0);
  CHECK_INT(ssd_execute_object_output(c, 7, &in, 1, keys, values, 1, "", 0640, &id, NULL, &err),
            SSD_E_ARG);
  CHECK_INT(ssd_execute_object_output(c, 7, &in, 1, keys, values, 1, "/out", 010000, &id, NULL,
                                      &err),
            SSD_E_ARG);
  CHECK_CONTAINS(err.message, "output permission");
  CHECK_INT(ssd_execute_object_output(NULL, 7, &in, 1, keys, values, 1, "/out", 0640, &id, NULL,
                                      &err),
            SSD_E_ARG);
  CHECK_INT(executions, 2);
  check_progress(c, 5);
  ssd_close(c);
  server_stop(&s);

  /* A version 4 device: no output objects, and EXECUTE_OBJECT and READ_OBJECT as version 4 has them. */
  server_tcp_versions(&s, script_execution, 1, 4, true);
  c = connect_to(&s, &opt);
  CHECK_INT(ssd_protocol_version(c), 4);
  executions = 0;
  nanos = 99;
  CHECK_INT(ssd_execute_object_output(c, 7, &in, 1, keys, values, 1, "/out/part-0", 0640, &id,
                                      &nanos, &err),
            SSD_E_VERSION);
  CHECK_INT(err.code, SSD_E_VERSION);
  CHECK_CONTAINS(err.message, "EXECUTE_OBJECT with an output object needs protocol version 5");
  CHECK_CONTAINS(err.message, "the device speaks 4");
  CHECK_CONTAINS(err.message, "127.0.0.1:");
  CHECK_EQ(nanos, 0);
  CHECK_INT(ssd_execute_object(c, 7, &in, 1, keys, values, 1, &id, NULL, &err), SSD_OK);
  CHECK_INT(executions, 1); /* the refused one was not sent */
  CHECK_EQ(id, 0xE0);
  CHECK_EQ(execute_version, 4);
  CHECK_EQ(execute_len, sizeof v4_payload);
  CHECK_MEM(execute_payload, v4_payload, sizeof v4_payload);
  check_progress(c, 4);
  ssd_close(c);
  server_stop(&s);

  /* A version 6 device: the lanes' memory after the output's statistics. */
  server_tcp_versions(&s, script_execution, 1, 6, true);
  c = connect_to(&s, &opt);
  CHECK_INT(ssd_protocol_version(c), SSD_LANE_MEMORY_VERSION);
  executions = 0;
  CHECK_INT(ssd_execute_object(c, 7, &in, 1, keys, values, 1, &id, NULL, &err), SSD_OK);
  CHECK_EQ(execute_version, 6);
  check_progress(c, 6);
  ssd_close(c);
  server_stop(&s);
}

int main(void) {
  alarm(120); /* a hang is a failure */
  unsetenv("SMARTSSD_SECRET_FILE"); /* the tests give the client its secret themselves */
  signal(SIGPIPE, SIG_IGN); /* the fake device writes to clients that left */
  test_pipelined_threads();
  test_queue();
  test_transfer_counts();
  test_typed_calls();
  test_unix_socket();
  test_ipv6();
  test_broken_servers();
  test_timeouts();
  test_abandon();
  test_close_with_outstanding();
  test_authentication();
  test_connect_errors();
  test_output_objects();
  return check_exit("test_client");
}
