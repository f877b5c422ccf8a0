/*
 * client.c: the connection to a device.
 *
 * Threads: callers submit requests (each writes its whole frame under send_mu) and wait for
 * them; one receiver thread per client reads frames and completes the pending request with the
 * frame's id. So requests from many threads are pipelined, and answered in any order.
 *
 * Pending requests live in an open-addressed hash table keyed by request id, guarded by `mu`.
 * A request stays in the table from submission until it is reported: by ssd_wait (which then
 * removes and frees it) or, for queued requests, by ssd_next_completion (likewise). States:
 *
 *   OUTSTANDING  sent (or being sent), no reply yet: a reply, a timeout or a failure completes it;
 *   RECEIVING    the receiver is writing its READ data straight into the caller's dst: only the
 *                receiver completes it (a timeout then closes the connection instead);
 *   DONE         completed; its reply and error wait to be reported.
 *
 * Queued requests not yet DONE are also linked in submission order, which is deadline order,
 * so that ssd_next_completion expires them from the front without scanning the table.
 *
 * A connection failure (peer closed, read or write error, bad frame, ssd_close) is recorded once
 * in `failure`; it shuts the socket down (waking the receiver), completes every OUTSTANDING
 * request with that error and makes later submits fail at once.
 *
 * Lock order: send_mu, then mu. Nothing blocks on I/O while holding mu.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "client_internal.h"
#include "codec.h"
#include "frame.h"

enum pending_state { P_OUTSTANDING, P_RECEIVING, P_DONE };

struct pending {
  uint64_t id;
  uint16_t opcode;
  bool queued;
  enum pending_state state;
  uint8_t *dst;
  uint32_t dst_cap;
  int64_t submitted_ns;
  int64_t deadline_ns;
  pthread_cond_t cv; /* signalled when DONE (requests waited for with ssd_wait) */
  ssd_reply reply;
  ssd_error err;
  struct pending *next; /* completion queue */
  /* Queued requests not yet DONE, in submission order, which is deadline order (they share
   * the request timeout): ssd_next_completion expires them from the front. */
  struct pending *waiting_prev, *waiting_next;
};

struct ssd_client {
  char *address; /* normalized, for messages and ssd_address */
  int fd;
  ssd_options opt;
  int version;

  pthread_t receiver;
  bool receiver_started;

  pthread_mutex_t send_mu; /* one frame at a time on the socket */

  pthread_mutex_t mu; /* everything below */
  pthread_cond_t queue_cv; /* the queue grew, or the connection failed */
  pthread_cond_t idle_cv;  /* `active` dropped to 0 while closing */
  struct pending **slots;  /* hash table: NULL or a pending */
  size_t n_slots;          /* a power of two */
  size_t n_pending;
  struct pending *queue_head, *queue_tail;   /* DONE queued requests, to report */
  struct pending *waiting_head, *waiting_tail; /* queued requests not yet DONE */
  int failed;                /* 0, or the error code of the connection failure */
  ssd_error failure;
  bool closing;
  unsigned active; /* threads inside calls that may block (close waits for them) */

  atomic_uint_fast64_t next_id;
  atomic_uint_fast64_t modelled_total;
  /* Bytes that went onto the socket and came off it (ssd_bytes_sent, ssd_bytes_received). */
  atomic_uint_fast64_t bytes_sent;
  atomic_uint_fast64_t bytes_received;
  uint8_t *scratch; /* the receiver's buffer for payloads nobody waits for */
};

#define SCRATCH_BYTES 65536
#define INITIAL_SLOTS 64
#define MAX_IOV 18 /* header + 16 pieces, and one spare */

/* ---- small helpers --------------------------------------------------------------------------- */

static struct timespec abs_time(int64_t ns) {
  struct timespec ts;
  ts.tv_sec = (time_t)(ns / 1000000000);
  ts.tv_nsec = (long)(ns % 1000000000);
  return ts;
}

static long long elapsed_ms(int64_t since_ns) {
  return (long long)((ssd_now_ns() - since_ns) / SSD_NS_PER_MS);
}

static int64_t deadline_after_ms(int ms) {
  return ssd_now_ns() + (int64_t)ms * SSD_NS_PER_MS;
}

/* Milliseconds until a deadline, for poll(): at least 0, -1 for none. */
static int poll_ms(int64_t deadline_ns) {
  if (deadline_ns == INT64_MAX) {
    return -1;
  }
  int64_t left = deadline_ns - ssd_now_ns();
  if (left <= 0) {
    return 0;
  }
  int64_t ms = (left + SSD_NS_PER_MS - 1) / SSD_NS_PER_MS;
  return ms > 1000000000 ? 1000000000 : (int)ms;
}

static void reply_init(ssd_reply *r, const struct pending *p) {
  memset(r, 0, sizeof *r);
  r->opcode = p->opcode;
  r->request_id = p->id;
}

/* ---- the table ------------------------------------------------------------------------------- */

static size_t slot_of(const ssd_client *c, uint64_t id) {
  /* Fibonacci hashing: ids are sequential, the multiply spreads them. */
  return (size_t)((id * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (c->n_slots - 1);
}

static struct pending *table_get(const ssd_client *c, uint64_t id) {
  for (size_t i = slot_of(c, id);; i = (i + 1) & (c->n_slots - 1)) {
    struct pending *p = c->slots[i];
    if (p == NULL || p->id == id) {
      return p;
    }
  }
}

/* Puts p in the first free slot from its home (the table has one). */
static void table_insert_slot(ssd_client *c, struct pending *p) {
  size_t i = slot_of(c, p->id);
  while (c->slots[i] != NULL) {
    i = (i + 1) & (c->n_slots - 1);
  }
  c->slots[i] = p;
}

/* Inserts p, growing the table to keep it at most half full. False when out of memory. */
static bool table_put(ssd_client *c, struct pending *p) {
  if ((c->n_pending + 1) * 2 > c->n_slots) {
    size_t old_n = c->n_slots;
    struct pending **old = c->slots;
    struct pending **slots = calloc(old_n * 2, sizeof *slots);
    if (slots == NULL) {
      return false;
    }
    c->slots = slots;
    c->n_slots = old_n * 2;
    for (size_t i = 0; i < old_n; i++) {
      if (old[i] != NULL) {
        table_insert_slot(c, old[i]);
      }
    }
    free(old);
  }
  table_insert_slot(c, p);
  c->n_pending++;
  return true;
}

/* Removes the entry with this id (backward-shift deletion: no tombstones). */
static void table_remove(ssd_client *c, uint64_t id) {
  size_t mask = c->n_slots - 1;
  size_t i = slot_of(c, id);
  while (c->slots[i] != NULL && c->slots[i]->id != id) {
    i = (i + 1) & mask;
  }
  if (c->slots[i] == NULL) {
    return;
  }
  c->slots[i] = NULL;
  c->n_pending--;
  /* Move later entries of the run back into the hole when their home allows it. */
  for (size_t j = (i + 1) & mask; c->slots[j] != NULL; j = (j + 1) & mask) {
    size_t home = slot_of(c, c->slots[j]->id);
    /* j's entry may fill the hole at i unless its home lies cyclically in (i, j]. */
    bool home_in_between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (!home_in_between) {
      c->slots[i] = c->slots[j];
      c->slots[j] = NULL;
      i = j;
    }
  }
}

static void pending_free(struct pending *p) {
  ssd_reply_free(&p->reply);
  pthread_cond_destroy(&p->cv);
  free(p);
}

/* ---- completion and failure (all with mu held) ----------------------------------------------- */

static void waiting_append(ssd_client *c, struct pending *p) {
  p->waiting_next = NULL;
  p->waiting_prev = c->waiting_tail;
  if (c->waiting_tail != NULL) {
    c->waiting_tail->waiting_next = p;
  } else {
    c->waiting_head = p;
  }
  c->waiting_tail = p;
}

static void waiting_unlink(ssd_client *c, struct pending *p) {
  if (p->waiting_prev != NULL) {
    p->waiting_prev->waiting_next = p->waiting_next;
  } else {
    c->waiting_head = p->waiting_next;
  }
  if (p->waiting_next != NULL) {
    p->waiting_next->waiting_prev = p->waiting_prev;
  } else {
    c->waiting_tail = p->waiting_prev;
  }
  p->waiting_prev = p->waiting_next = NULL;
}

/* Marks p DONE (its reply and err filled) and hands it to whoever reports it. */
static void complete_locked(ssd_client *c, struct pending *p) {
  p->state = P_DONE;
  if (p->queued) {
    waiting_unlink(c, p);
    p->next = NULL;
    if (c->queue_tail != NULL) {
      c->queue_tail->next = p;
    } else {
      c->queue_head = p;
    }
    c->queue_tail = p;
    pthread_cond_broadcast(&c->queue_cv);
  } else {
    pthread_cond_signal(&p->cv);
  }
}

/* Completes p with a local error. */
static void complete_error_locked(ssd_client *c, struct pending *p, const ssd_error *e) {
  ssd_reply_free(&p->reply);
  reply_init(&p->reply, p);
  p->reply.status = e->code;
  ssd_copy_error(&p->err, e);
  complete_locked(c, p);
}

/* Records the connection's failure (the first one wins), shuts the socket down (which wakes the
 * receiver), and completes every OUTSTANDING request with it. */
static void fail_locked(ssd_client *c, int code, const char *fmt, ...) SSD_PRINTF(3, 4);
static void fail_locked(ssd_client *c, int code, const char *fmt, ...) {
  if (c->failed != 0) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  ssd_set_errorv(&c->failure, code, fmt, ap);
  va_end(ap);
  c->failed = code;
  if (c->fd >= 0) {
    shutdown(c->fd, SHUT_RDWR);
  }
  for (size_t i = 0; i < c->n_slots; i++) {
    struct pending *p = c->slots[i];
    if (p != NULL && p->state == P_OUTSTANDING) {
      complete_error_locked(c, p, &c->failure);
    }
  }
  pthread_cond_broadcast(&c->queue_cv);
}

/* ---- entering and leaving calls -------------------------------------------------------------- */

/* Locks mu and registers the calling thread, unless the client is closing (SSD_E_CLOSED). */
static int enter(ssd_client *c, ssd_error *err) {
  pthread_mutex_lock(&c->mu);
  if (c->closing) {
    pthread_mutex_unlock(&c->mu);
    ssd_set_error(err, SSD_E_CLOSED, "device %s: the client is closed", c->address);
    return SSD_E_CLOSED;
  }
  c->active++;
  return SSD_OK;
}

/* Unregisters the calling thread; mu must be held, and is released. */
static void leave_locked(ssd_client *c) {
  if (--c->active == 0 && c->closing) {
    pthread_cond_broadcast(&c->idle_cv);
  }
  pthread_mutex_unlock(&c->mu);
}

/* ---- sending --------------------------------------------------------------------------------- */

enum send_result { SENT, SEND_TIMEOUT_UNSENT, SEND_TIMEOUT_PARTIAL, SEND_ERROR };

/* Writes the whole of iov, waiting for room with poll() until the deadline; counts what went out. */
static enum send_result send_all(ssd_client *c, struct iovec *iov, int iovcnt, int64_t deadline_ns,
                                 int *error) {
  int fd = c->fd;
  bool started = false;
  while (iovcnt > 0) {
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = iov;
    msg.msg_iovlen = (size_t)iovcnt;
    ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        *error = errno;
        return SEND_ERROR;
      }
      struct pollfd pfd = {.fd = fd, .events = POLLOUT};
      int ms = poll_ms(deadline_ns);
      int r = ms == 0 ? 0 : poll(&pfd, 1, ms);
      if (r < 0 && errno != EINTR) {
        *error = errno;
        return SEND_ERROR;
      }
      if (r == 0 && ssd_now_ns() >= deadline_ns) {
        return started ? SEND_TIMEOUT_PARTIAL : SEND_TIMEOUT_UNSENT;
      }
      continue;
    }
    started = started || n > 0;
    atomic_fetch_add(&c->bytes_sent, (uint_fast64_t)n);
    size_t left = (size_t)n;
    while (iovcnt > 0 && left >= iov->iov_len) {
      left -= iov->iov_len;
      iov++;
      iovcnt--;
    }
    if (iovcnt > 0) {
      iov->iov_base = (char *)iov->iov_base + left;
      iov->iov_len -= left;
    }
  }
  return SENT;
}

/*
 * Registers a request and sends its frame. Once registered, every outcome (a send failure
 * included) is reported through the request's completion; the return value is non-zero only
 * when nothing was registered.
 */
static int submit(ssd_client *c, uint16_t opcode, const ssd_iovec *pieces, int n_pieces,
                  void *dst, uint32_t dst_cap, int flags, int timeout_ms, uint64_t *request_id,
                  ssd_error *err) {
  if (n_pieces < 0 || n_pieces > MAX_IOV - 2 || (n_pieces > 0 && pieces == NULL)) {
    ssd_set_error(err, SSD_E_ARG, "device %s: %d payload pieces (at most %d)", c->address,
                  n_pieces, MAX_IOV - 2);
    return SSD_E_ARG;
  }
  if ((flags & ~SSD_SUBMIT_QUEUE) != 0) {
    ssd_set_error(err, SSD_E_ARG, "device %s: unknown submit flags 0x%x", c->address,
                  (unsigned)flags);
    return SSD_E_ARG;
  }
  if (dst != NULL && opcode != SSD_OP_READ) {
    ssd_set_error(err, SSD_E_ARG, "device %s: a destination buffer was given for %s; only READ "
                  "takes one", c->address, ssd_opcode_name(opcode));
    return SSD_E_ARG;
  }
  uint64_t len = 0;
  for (int i = 0; i < n_pieces; i++) {
    if (pieces[i].base == NULL && pieces[i].len > 0) {
      ssd_set_error(err, SSD_E_ARG, "device %s: payload piece %d is NULL", c->address, i);
      return SSD_E_ARG;
    }
    len += pieces[i].len;
  }
  if (len > c->opt.max_frame_bytes) {
    ssd_set_error(err, SSD_E_ARG,
                  "device %s: %s payload of %llu bytes exceeds the frame limit of %lu bytes",
                  c->address, ssd_opcode_name(opcode), (unsigned long long)len,
                  (unsigned long)c->opt.max_frame_bytes);
    return SSD_E_ARG;
  }

  struct pending *p = calloc(1, sizeof *p);
  if (p == NULL) {
    ssd_set_error(err, SSD_E_NOMEM, "device %s: out of memory submitting %s", c->address,
                  ssd_opcode_name(opcode));
    return SSD_E_NOMEM;
  }
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&p->cv, &ca);
  pthread_condattr_destroy(&ca);
  p->opcode = opcode;
  p->queued = (flags & SSD_SUBMIT_QUEUE) != 0;
  p->state = P_OUTSTANDING;
  p->dst = dst;
  p->dst_cap = dst == NULL ? 0 : dst_cap;
  p->submitted_ns = ssd_now_ns();
  p->deadline_ns = p->submitted_ns + (int64_t)timeout_ms * SSD_NS_PER_MS;

  int rc = enter(c, err);
  if (rc != SSD_OK) {
    pending_free(p);
    return rc;
  }
  if (c->failed != 0) {
    ssd_copy_error(err, &c->failure);
    rc = c->failed;
    leave_locked(c);
    pending_free(p);
    return rc;
  }
  uint64_t id = atomic_fetch_add(&c->next_id, 1);
  p->id = id;
  reply_init(&p->reply, p);
  if (!table_put(c, p)) {
    ssd_set_error(err, SSD_E_NOMEM, "device %s: out of memory submitting %s", c->address,
                  ssd_opcode_name(opcode));
    leave_locked(c);
    pending_free(p);
    return SSD_E_NOMEM;
  }
  if (p->queued) {
    waiting_append(c, p);
  }
  int64_t deadline = p->deadline_ns;
  int64_t submitted = p->submitted_ns;
  pthread_mutex_unlock(&c->mu);
  /* From here on p may be completed, reported and freed by other threads: use the id. */

  uint8_t header[SSD_HEADER_BYTES];
  ssd_header h = {.version = (uint16_t)c->version, .opcode = opcode, .payload_len = (uint32_t)len,
                  .request_id = id};
  ssd_header_encode(&h, header);
  struct iovec iov[MAX_IOV];
  int iovcnt = 0;
  iov[iovcnt++] = (struct iovec){.iov_base = header, .iov_len = sizeof header};
  for (int i = 0; i < n_pieces; i++) {
    if (pieces[i].len > 0) {
      iov[iovcnt++] = (struct iovec){.iov_base = (void *)pieces[i].base, .iov_len = pieces[i].len};
    }
  }

  pthread_mutex_lock(&c->send_mu);
  pthread_mutex_lock(&c->mu);
  /* Timed out or failed while waiting for the lock: never sent (a WRITE the caller gave up on
   * must not land later). */
  struct pending *current = table_get(c, id);
  bool skip = c->failed != 0 || current == NULL || current->state != P_OUTSTANDING;
  pthread_mutex_unlock(&c->mu);
  int error = 0;
  enum send_result sent = skip ? SENT : send_all(c, iov, iovcnt, deadline, &error);
  pthread_mutex_unlock(&c->send_mu);

  pthread_mutex_lock(&c->mu);
  switch (sent) {
    case SENT:
      break;
    case SEND_TIMEOUT_UNSENT: {
      /* Nothing of the frame went out: only this request is lost. */
      struct pending *q = table_get(c, id);
      if (q != NULL && q->state == P_OUTSTANDING) {
        ssd_error e;
        ssd_set_error(&e, SSD_E_TIMEOUT,
                      "device %s: could not send %s (request %llu) within %lld ms", c->address,
                      ssd_opcode_name(opcode), (unsigned long long)id, elapsed_ms(submitted));
        complete_error_locked(c, q, &e);
      }
      break;
    }
    case SEND_TIMEOUT_PARTIAL:
      /* Half a frame cannot be taken back: the stream is unusable. */
      fail_locked(c, SSD_E_TIMEOUT,
                  "device %s: could not finish sending %s (request %llu) within %lld ms; "
                  "the connection is closed",
                  c->address, ssd_opcode_name(opcode), (unsigned long long)id,
                  elapsed_ms(submitted));
      break;
    case SEND_ERROR:
      fail_locked(c, SSD_E_IO, "device %s: sending %s (request %llu) failed: %s", c->address,
                  ssd_opcode_name(opcode), (unsigned long long)id, strerror(error));
      break;
  }
  if (request_id != NULL) {
    *request_id = id;
  }
  ssd_clear_error(err);
  leave_locked(c);
  return SSD_OK;
}

SSD_API int ssd_submitv(ssd_client *c, uint16_t opcode, const ssd_iovec *pieces, int n_pieces,
                        void *dst, uint32_t dst_cap, int flags, uint64_t *request_id,
                        ssd_error *err) {
  if (c == NULL) {
    ssd_set_error(err, SSD_E_ARG, "no client");
    return SSD_E_ARG;
  }
  return submit(c, opcode, pieces, n_pieces, dst, dst_cap, flags, c->opt.request_timeout_ms,
                request_id, err);
}

SSD_API int ssd_submit(ssd_client *c, uint16_t opcode, const void *payload, uint32_t len,
                       void *dst, uint32_t dst_cap, int flags, uint64_t *request_id,
                       ssd_error *err) {
  ssd_iovec piece = {payload, len};
  return ssd_submitv(c, opcode, &piece, len > 0 ? 1 : 0, dst, dst_cap, flags, request_id, err);
}

int ssd_submit_timeout(ssd_client *c, uint16_t opcode, const ssd_iovec *pieces, int n_pieces,
                       void *dst, uint32_t dst_cap, int timeout_ms, uint64_t *request_id,
                       ssd_error *err) {
  return submit(c, opcode, pieces, n_pieces, dst, dst_cap, 0, timeout_ms, request_id, err);
}

/* ---- waiting --------------------------------------------------------------------------------- */

/* Hands a DONE request's outcome to the caller and frees it (mu held). */
static int report_locked(ssd_client *c, struct pending *p, ssd_reply *out, ssd_error *err) {
  table_remove(c, p->id);
  int status = p->reply.status;
  ssd_copy_error(err, &p->err);
  if (out != NULL) {
    *out = p->reply;
    memset(&p->reply, 0, sizeof p->reply); /* ownership of the payload moves to out */
  }
  pending_free(p);
  return status;
}

/* A request's timeout has come, or its caller gave it up (code SSD_E_TIMEOUT or
 * SSD_E_INTERRUPTED): forget it, unless its data is being received into its dst (then the
 * connection is closed, and the receiver completes it). True when it was forgotten. */
static bool expire_locked(ssd_client *c, struct pending *p, int code) {
  const char *why = code == SSD_E_INTERRUPTED ? "the caller gave it up" : "no reply in time";
  if (p->state == P_RECEIVING) {
    fail_locked(c, code,
                "device %s: %s while the reply to %s (request %llu) was being received into the "
                "caller's buffer (after %lld ms); the connection is closed",
                c->address, why, ssd_opcode_name(p->opcode), (unsigned long long)p->id,
                elapsed_ms(p->submitted_ns));
    p->deadline_ns = INT64_MAX;
    return false;
  }
  ssd_error e;
  if (code == SSD_E_INTERRUPTED) {
    ssd_set_error(&e, code, "device %s: %s (request %llu) given up by the caller after %lld ms",
                  c->address, ssd_opcode_name(p->opcode), (unsigned long long)p->id,
                  elapsed_ms(p->submitted_ns));
  } else {
    ssd_set_error(&e, code, "device %s: no reply to %s (request %llu) after %lld ms", c->address,
                  ssd_opcode_name(p->opcode), (unsigned long long)p->id,
                  elapsed_ms(p->submitted_ns));
  }
  complete_error_locked(c, p, &e);
  return true;
}

/* The request a caller may wait for, with mu held; NULL (and SSD_E_ARG in err) when there is none. */
static struct pending *waitable_locked(ssd_client *c, uint64_t request_id, ssd_error *err) {
  struct pending *p = table_get(c, request_id);
  if (p == NULL || p->queued) {
    ssd_set_error(err, SSD_E_ARG, "device %s: no request %llu to wait for", c->address,
                  (unsigned long long)request_id);
    return NULL;
  }
  return p;
}

/*
 * Waits (mu held) until p is DONE, expiring it at its deadline, and reports it; or, with
 * until_ns before that, returns SSD_E_AGAIN at until_ns with p still pending. With give_up, p is
 * expired at once with SSD_E_INTERRUPTED (if it is not done yet).
 */
static int wait_locked(ssd_client *c, struct pending *p, int64_t until_ns, bool give_up,
                       ssd_reply *out, ssd_error *err) {
  bool given_up = false;
  for (;;) {
    if (p->state == P_DONE) {
      return report_locked(c, p, out, err);
    }
    if (give_up && !given_up) {
      given_up = true;
      if (expire_locked(c, p, SSD_E_INTERRUPTED)) {
        continue; /* now DONE with SSD_E_INTERRUPTED */
      }
    }
    int64_t now = ssd_now_ns();
    if (now >= p->deadline_ns && expire_locked(c, p, SSD_E_TIMEOUT)) {
      continue; /* now DONE with SSD_E_TIMEOUT */
    }
    if (!given_up && now >= until_ns) {
      ssd_set_error(err, SSD_E_AGAIN, "device %s: no reply to %s (request %llu) yet", c->address,
                    ssd_opcode_name(p->opcode), (unsigned long long)p->id);
      return SSD_E_AGAIN;
    }
    int64_t wake = given_up ? p->deadline_ns : (until_ns < p->deadline_ns ? until_ns : p->deadline_ns);
    if (wake == INT64_MAX) {
      pthread_cond_wait(&p->cv, &c->mu);
    } else {
      struct timespec ts = abs_time(wake);
      pthread_cond_timedwait(&p->cv, &c->mu, &ts);
    }
  }
}

SSD_API int ssd_wait(ssd_client *c, uint64_t request_id, ssd_reply *out, ssd_error *err) {
  return ssd_wait_for(c, request_id, -1, out, err);
}

SSD_API int ssd_wait_for(ssd_client *c, uint64_t request_id, int timeout_ms, ssd_reply *out,
                         ssd_error *err) {
  if (out != NULL) {
    memset(out, 0, sizeof *out);
  }
  if (c == NULL) {
    ssd_set_error(err, SSD_E_ARG, "no client");
    return SSD_E_ARG;
  }
  int64_t until = timeout_ms < 0 ? INT64_MAX : deadline_after_ms(timeout_ms);
  int rc = enter(c, err);
  if (rc != SSD_OK) {
    return rc;
  }
  struct pending *p = waitable_locked(c, request_id, err);
  rc = p == NULL ? SSD_E_ARG : wait_locked(c, p, until, false, out, err);
  leave_locked(c);
  return rc;
}

SSD_API int ssd_abandon(ssd_client *c, uint64_t request_id, ssd_error *err) {
  if (c == NULL) {
    ssd_set_error(err, SSD_E_ARG, "no client");
    return SSD_E_ARG;
  }
  int rc = enter(c, err);
  if (rc != SSD_OK) {
    return rc;
  }
  struct pending *p = waitable_locked(c, request_id, err);
  if (p == NULL) {
    rc = SSD_E_ARG;
  } else {
    ssd_reply dropped;
    ssd_error ignored;
    wait_locked(c, p, INT64_MAX, true, &dropped, &ignored);
    ssd_reply_free(&dropped);
    ssd_clear_error(err);
    rc = SSD_OK;
  }
  leave_locked(c);
  return rc;
}

SSD_API int ssd_next_completion(ssd_client *c, int timeout_ms, ssd_reply *out, ssd_error *err) {
  if (out != NULL) {
    memset(out, 0, sizeof *out);
  }
  if (c == NULL) {
    ssd_set_error(err, SSD_E_ARG, "no client");
    return SSD_E_ARG;
  }
  int64_t end = timeout_ms < 0 ? INT64_MAX : deadline_after_ms(timeout_ms);
  int rc = enter(c, err);
  if (rc != SSD_OK) {
    return rc;
  }
  for (;;) {
    if (c->closing) {
      ssd_set_error(err, SSD_E_CLOSED, "device %s: the client is closed", c->address);
      rc = SSD_E_CLOSED;
      break;
    }
    struct pending *p = c->queue_head;
    if (p != NULL) {
      c->queue_head = p->next;
      if (c->queue_head == NULL) {
        c->queue_tail = NULL;
      }
      rc = report_locked(c, p, out, err);
      break;
    }
    if (c->failed != 0 && c->waiting_head == NULL) {
      ssd_set_error(err, SSD_E_CLOSED, "%s", c->failure.message);
      rc = SSD_E_CLOSED;
      break;
    }
    /* Expire queued requests past their deadline, oldest first. One being received into its
     * dst is not expired but closes the connection (its deadline then becomes "never"). */
    int64_t now = ssd_now_ns();
    bool expired = false;
    while (c->waiting_head != NULL && now >= c->waiting_head->deadline_ns) {
      if (!expire_locked(c, c->waiting_head, SSD_E_TIMEOUT)) {
        break;
      }
      expired = true;
    }
    if (expired) {
      continue;
    }
    int64_t wake = end;
    if (c->waiting_head != NULL && c->waiting_head->deadline_ns < wake) {
      wake = c->waiting_head->deadline_ns;
    }
    if (now >= end) {
      ssd_set_error(err, SSD_E_TIMEOUT, "device %s: no completion within %d ms", c->address,
                    timeout_ms);
      rc = SSD_E_TIMEOUT;
      break;
    }
    if (wake == INT64_MAX) {
      pthread_cond_wait(&c->queue_cv, &c->mu);
    } else {
      struct timespec ts = abs_time(wake);
      pthread_cond_timedwait(&c->queue_cv, &c->mu, &ts);
    }
  }
  leave_locked(c);
  return rc;
}

SSD_API void ssd_reply_free(ssd_reply *reply) {
  if (reply != NULL) {
    free(reply->payload);
    reply->payload = NULL;
    reply->payload_len = 0;
  }
}

/* ---- receiving ------------------------------------------------------------------------------- */

enum recv_result { RECV_OK, RECV_EOF, RECV_ERROR };

/* Reads exactly n bytes (the socket is non-blocking: poll() waits for data). *got counts the
 * bytes read, also on EOF or error; so does the client's bytes_received, before the request they
 * answer is completed. */
static enum recv_result recv_all(ssd_client *c, void *buf, size_t n, size_t *got, int *error) {
  int fd = c->fd;
  *got = 0;
  while (*got < n) {
    ssize_t r = recv(fd, (char *)buf + *got, n - *got, 0);
    if (r > 0) {
      *got += (size_t)r;
      atomic_fetch_add(&c->bytes_received, (uint_fast64_t)r);
      continue;
    }
    if (r == 0) {
      return RECV_EOF;
    }
    if (errno == EINTR) {
      continue;
    }
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      *error = errno;
      return RECV_ERROR;
    }
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    if (poll(&pfd, 1, -1) < 0 && errno != EINTR) {
      *error = errno;
      return RECV_ERROR;
    }
  }
  return RECV_OK;
}

/* Reads the next `n` bytes of a frame's payload, `done` of its `total` bytes (header included)
 * being in already; on a short read fails the connection (mu not held) and returns false. */
static bool recv_payload(ssd_client *c, void *buf, size_t n, uint64_t done, uint64_t total) {
  size_t got;
  int error = 0;
  enum recv_result r = recv_all(c, buf, n, &got, &error);
  if (r == RECV_OK) {
    return true;
  }
  pthread_mutex_lock(&c->mu);
  if (r == RECV_EOF) {
    fail_locked(c, SSD_E_CLOSED, "device %s: connection closed after %llu of %llu frame bytes",
                c->address, (unsigned long long)(done + got), (unsigned long long)total);
  } else {
    fail_locked(c, SSD_E_IO, "device %s: receive failed after %llu of %llu frame bytes: %s",
                c->address, (unsigned long long)(done + got), (unsigned long long)total,
                strerror(error));
  }
  pthread_mutex_unlock(&c->mu);
  return false;
}

/* Reads and drops n payload bytes. */
static bool skip_payload(ssd_client *c, uint64_t n, uint64_t done, uint64_t total) {
  while (n > 0) {
    size_t k = n < SCRATCH_BYTES ? (size_t)n : SCRATCH_BYTES;
    if (!recv_payload(c, c->scratch, k, done, total)) {
      return false;
    }
    n -= k;
    done += k;
  }
  return true;
}

/* Fills p's reply from a whole frame: header h and its payload (ownership taken). mu held. */
static void finish_reply_locked(ssd_client *c, struct pending *p, const ssd_header *h,
                                uint8_t *payload) {
  ssd_reply_free(&p->reply);
  reply_init(&p->reply, p);
  p->reply.modelled_nanos = h->modelled_nanos;
  ssd_error *e = &p->err;
  int status;
  if (h->opcode != p->opcode) {
    status = SSD_E_PROTOCOL;
    ssd_set_error(e, status, "device %s: the reply to request %llu has opcode 0x%04x; it was %s",
                  c->address, (unsigned long long)p->id, (unsigned)h->opcode,
                  ssd_opcode_name(p->opcode));
  } else if (h->status > SSD_LAST_DEVICE_STATUS) {
    status = SSD_E_PROTOCOL;
    ssd_set_error(e, status, "device %s: the reply to %s (request %llu) has unknown status %u",
                  c->address, ssd_opcode_name(p->opcode), (unsigned long long)p->id,
                  (unsigned)h->status);
  } else if (h->status != SSD_OK) {
    status = h->status;
    if (ssd_decode_error_message(payload, h->payload_len, e->message, sizeof e->message, e) ==
        SSD_OK) {
      e->code = status; /* the message is the device's own */
    } else {
      status = SSD_E_PROTOCOL;
      ssd_prefix_error(e, c->address);
    }
  } else if (p->dst != NULL) {
    /* A READ into dst whose payload could not hold the length (the dst path needs 4 bytes). */
    status = SSD_E_PROTOCOL;
    ssd_set_error(e, status, "device %s: READ (request %llu) answered with a payload of %lu bytes",
                  c->address, (unsigned long long)p->id, (unsigned long)h->payload_len);
  } else {
    status = SSD_OK;
    ssd_clear_error(e);
    if (h->payload_len > 0) {
      p->reply.payload = payload;
      p->reply.payload_len = h->payload_len;
      payload = NULL;
    }
  }
  free(payload);
  p->reply.status = status;
  complete_locked(c, p);
}

/* Receives a READ's data straight into p->dst (p is RECEIVING; mu not held). False when the
 * connection failed. */
static bool receive_into_dst(ssd_client *c, struct pending *p, const ssd_header *h) {
  uint64_t total = SSD_HEADER_BYTES + (uint64_t)h->payload_len;
  uint8_t prefix[4] = {0};
  bool ok = recv_payload(c, prefix, sizeof prefix, SSD_HEADER_BYTES, total);
  uint32_t n = (uint32_t)prefix[0] << 24 | (uint32_t)prefix[1] << 16 |
               (uint32_t)prefix[2] << 8 | prefix[3];
  uint32_t rest = h->payload_len - 4;
  bool fits = ok && n == rest && n <= p->dst_cap;
  if (ok) {
    ok = fits ? recv_payload(c, p->dst, n, SSD_HEADER_BYTES + 4, total)
              : skip_payload(c, rest, SSD_HEADER_BYTES + 4, total);
  }
  pthread_mutex_lock(&c->mu);
  ssd_reply_free(&p->reply);
  reply_init(&p->reply, p);
  p->reply.modelled_nanos = h->modelled_nanos;
  if (!ok) {
    p->reply.status = c->failure.code;
    ssd_copy_error(&p->err, &c->failure);
  } else if (!fits) {
    p->reply.status = SSD_E_PROTOCOL;
    if (n != rest) {
      ssd_set_error(&p->err, SSD_E_PROTOCOL,
                    "device %s: READ response (request %llu): field 'data': length %lu in a "
                    "payload of %lu bytes",
                    c->address, (unsigned long long)p->id, (unsigned long)n,
                    (unsigned long)h->payload_len);
    } else {
      ssd_set_error(&p->err, SSD_E_PROTOCOL,
                    "device %s: READ (request %llu) returned %lu bytes; %lu were asked for",
                    c->address, (unsigned long long)p->id, (unsigned long)n,
                    (unsigned long)p->dst_cap);
    }
  } else {
    p->reply.status = SSD_OK;
    p->reply.data_len = n;
    ssd_clear_error(&p->err);
  }
  complete_locked(c, p);
  pthread_mutex_unlock(&c->mu);
  return ok;
}

/* Reads one frame and completes its request. False when the connection is done. */
static bool receive_frame(ssd_client *c) {
  uint8_t hb[SSD_HEADER_BYTES];
  size_t got;
  int error = 0;
  enum recv_result r = recv_all(c, hb, sizeof hb, &got, &error);
  if (r != RECV_OK) {
    pthread_mutex_lock(&c->mu);
    if (r == RECV_EOF && got == 0) {
      fail_locked(c, SSD_E_CLOSED, "device %s: the device closed the connection", c->address);
    } else if (r == RECV_EOF) {
      fail_locked(c, SSD_E_CLOSED, "device %s: connection closed after %zu of %d header bytes",
                  c->address, got, SSD_HEADER_BYTES);
    } else {
      fail_locked(c, SSD_E_IO, "device %s: receive failed: %s", c->address, strerror(error));
    }
    pthread_mutex_unlock(&c->mu);
    return false;
  }
  ssd_header h;
  ssd_error e;
  if (ssd_header_decode(hb, sizeof hb, &h, &e) != SSD_OK ||
      ssd_header_check_response(&h, c->opt.max_frame_bytes, &e) != SSD_OK) {
    pthread_mutex_lock(&c->mu);
    fail_locked(c, SSD_E_PROTOCOL, "device %s: %s", c->address, e.message);
    pthread_mutex_unlock(&c->mu);
    return false;
  }
  if (h.request_id == 0 || h.request_id >= atomic_load(&c->next_id)) {
    pthread_mutex_lock(&c->mu);
    fail_locked(c, SSD_E_PROTOCOL, "device %s: a reply to request %llu, which was never sent",
                c->address, (unsigned long long)h.request_id);
    pthread_mutex_unlock(&c->mu);
    return false;
  }
  atomic_fetch_add(&c->modelled_total, h.modelled_nanos);
  uint64_t total = SSD_HEADER_BYTES + (uint64_t)h.payload_len;

  pthread_mutex_lock(&c->mu);
  struct pending *p = table_get(c, h.request_id);
  bool wanted = p != NULL && p->state == P_OUTSTANDING;
  if (wanted && p->dst != NULL && h.opcode == p->opcode && h.status == SSD_OK &&
      h.payload_len >= 4) {
    p->state = P_RECEIVING; /* now only this thread completes it, and the caller's dst is ours */
    pthread_mutex_unlock(&c->mu);
    return receive_into_dst(c, p, &h);
  }
  pthread_mutex_unlock(&c->mu);

  if (!wanted) {
    /* Timed out (or answered twice): read and drop. */
    return skip_payload(c, h.payload_len, SSD_HEADER_BYTES, total);
  }
  uint8_t *payload = NULL;
  if (h.payload_len > 0) {
    payload = malloc(h.payload_len);
    if (payload == NULL) {
      if (!skip_payload(c, h.payload_len, SSD_HEADER_BYTES, total)) {
        return false;
      }
      pthread_mutex_lock(&c->mu);
      p = table_get(c, h.request_id);
      if (p != NULL && p->state == P_OUTSTANDING) {
        ssd_set_error(&e, SSD_E_NOMEM, "device %s: out of memory receiving %lu bytes",
                      c->address, (unsigned long)h.payload_len);
        complete_error_locked(c, p, &e);
      }
      pthread_mutex_unlock(&c->mu);
      return true;
    }
    if (!recv_payload(c, payload, h.payload_len, SSD_HEADER_BYTES, total)) {
      free(payload);
      return false;
    }
  }
  pthread_mutex_lock(&c->mu);
  /* Looked up again: it may have timed out (and been freed) while its payload came in. */
  p = table_get(c, h.request_id);
  if (p != NULL && p->state == P_OUTSTANDING) {
    finish_reply_locked(c, p, &h, payload);
  } else {
    free(payload);
  }
  pthread_mutex_unlock(&c->mu);
  return true;
}

static void *receiver_main(void *arg) {
  ssd_client *c = arg;
  while (receive_frame(c)) {
  }
  return NULL;
}

/* ---- connecting ------------------------------------------------------------------------------ */

typedef struct parsed_address {
  bool is_unix;
  char host[256];
  char port[6];
  char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
  char display[300];
} parsed_address;

static int bad_address(const char *text, const char *problem, ssd_error *err) {
  ssd_set_error(err, SSD_E_ARG, "bad device address '%s': %s", text, problem);
  return SSD_E_ARG;
}

/* "host:port", "[v6]:port" or "unix:/absolute/path" (PROTOCOL.md; Java's DeviceAddress.parse). */
static int parse_address(const char *text, parsed_address *a, ssd_error *err) {
  memset(a, 0, sizeof *a);
  if (text == NULL) {
    ssd_set_error(err, SSD_E_ARG, "no device address");
    return SSD_E_ARG;
  }
  if (strncmp(text, "unix:", 5) == 0) {
    const char *path = text + 5;
    size_t n = strlen(path);
    if (n == 0) {
      return bad_address(text, "no socket path; expected unix:/absolute/path", err);
    }
    if (path[0] != '/') {
      return bad_address(text, "the socket path is not absolute; expected unix:/absolute/path",
                         err);
    }
    if (n >= sizeof a->path) {
      return bad_address(text, "the socket path is too long", err);
    }
    a->is_unix = true;
    memcpy(a->path, path, n + 1);
    snprintf(a->display, sizeof a->display, "unix:%s", a->path);
    return SSD_OK;
  }
  const char *host;
  size_t host_len;
  const char *port;
  bool bracketed = false;
  if (text[0] == '[') {
    const char *close = strchr(text, ']');
    if (close == NULL || close[1] != ':') {
      return bad_address(text, "expected [ipv6]:port", err);
    }
    host = text + 1;
    host_len = (size_t)(close - host);
    port = close + 2;
    bracketed = true;
  } else {
    const char *colon = strrchr(text, ':');
    if (colon == NULL) {
      return bad_address(text, "no port", err);
    }
    host = text;
    host_len = (size_t)(colon - text);
    port = colon + 1;
    if (memchr(host, ':', host_len) != NULL) {
      return bad_address(text, "an IPv6 address must be in brackets, as in [::1]:7070", err);
    }
  }
  if (host_len == 0) {
    return bad_address(text, "no host", err);
  }
  if (host_len >= sizeof a->host) {
    return bad_address(text, "the host name is too long", err);
  }
  if (*port == '\0') {
    return bad_address(text, "no port", err);
  }
  unsigned long number = 0;
  for (const char *d = port; *d != '\0'; d++) {
    if (*d < '0' || *d > '9' || d - port >= 5) {
      return bad_address(text, "the port is not a number in 1..65535", err);
    }
    number = number * 10 + (unsigned long)(*d - '0');
  }
  if (number < 1 || number > 65535) {
    return bad_address(text, "the port is not a number in 1..65535", err);
  }
  memcpy(a->host, host, host_len);
  a->host[host_len] = '\0';
  if (memchr(a->host, '[', host_len) != NULL || memchr(a->host, ']', host_len) != NULL ||
      memchr(a->host, '/', host_len) != NULL) {
    return bad_address(text, "the host holds a bracket or slash", err);
  }
  snprintf(a->port, sizeof a->port, "%lu", number);
  snprintf(a->display, sizeof a->display, bracketed ? "[%s]:%s" : "%s:%s", a->host, a->port);
  return SSD_OK;
}

/* Waits for a non-blocking connect to finish; 0 or an errno. */
static int finish_connect(int fd, int64_t deadline_ns) {
  for (;;) {
    struct pollfd pfd = {.fd = fd, .events = POLLOUT};
    int r = poll(&pfd, 1, poll_ms(deadline_ns));
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r < 0) {
      return errno;
    }
    if (r == 0) {
      return ETIMEDOUT;
    }
    int so_error = 0;
    socklen_t len = sizeof so_error;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len) < 0) {
      return errno;
    }
    return so_error;
  }
}

/* Connects a non-blocking socket; *fd on success, else an errno. */
static int connect_to(const struct sockaddr *sa, socklen_t sa_len, int64_t deadline_ns, int *fd) {
  int s = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (s < 0) {
    return errno;
  }
  int rc = 0;
  for (;;) {
    if (connect(s, sa, sa_len) == 0) {
      break;
    }
    if (errno == EINTR) {
      continue;
    }
    if (errno == EINPROGRESS) {
      rc = finish_connect(s, deadline_ns);
    } else if (errno == EAGAIN && sa->sa_family == AF_UNIX) {
      /* A Unix socket's backlog is full: try again shortly, until the deadline. */
      if (ssd_now_ns() >= deadline_ns) {
        rc = ETIMEDOUT;
      } else {
        poll(NULL, 0, 10);
        continue;
      }
    } else {
      rc = errno;
    }
    break;
  }
  if (rc != 0) {
    close(s);
    return rc;
  }
  *fd = s;
  return 0;
}

static int open_socket(const parsed_address *a, const ssd_options *opt, int64_t deadline_ns,
                       int *fd, ssd_error *err) {
  int error;
  if (a->is_unix) {
    struct sockaddr_un sun;
    memset(&sun, 0, sizeof sun);
    sun.sun_family = AF_UNIX;
    memcpy(sun.sun_path, a->path, strlen(a->path) + 1);
    error = connect_to((const struct sockaddr *)&sun, sizeof sun, deadline_ns, fd);
  } else {
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    struct addrinfo *list = NULL;
    int gai = getaddrinfo(a->host, a->port, &hints, &list);
    if (gai != 0) {
      ssd_set_error(err, SSD_E_IO, "cannot connect to device %s: cannot resolve '%s': %s",
                    a->display, a->host, gai == EAI_SYSTEM ? strerror(errno) : gai_strerror(gai));
      return SSD_E_IO;
    }
    error = ENOENT;
    for (struct addrinfo *ai = list; ai != NULL; ai = ai->ai_next) {
      error = connect_to(ai->ai_addr, ai->ai_addrlen, deadline_ns, fd);
      if (error == 0 || error == ETIMEDOUT) {
        break;
      }
    }
    freeaddrinfo(list);
  }
  if (error == ETIMEDOUT) {
    ssd_set_error(err, SSD_E_TIMEOUT, "cannot connect to device %s: timed out after %d ms",
                  a->display, opt->connect_timeout_ms);
    return SSD_E_TIMEOUT;
  }
  if (error != 0) {
    ssd_set_error(err, SSD_E_IO, "cannot connect to device %s: %s", a->display, strerror(error));
    return SSD_E_IO;
  }
  if (!a->is_unix) {
    int one = 1;
    setsockopt(*fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(*fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
  }
  return SSD_OK;
}

SSD_API ssd_options ssd_options_default(void) {
  ssd_options o = {.connect_timeout_ms = 5000,
                   .request_timeout_ms = 30000,
                   .max_frame_bytes = (64u << 20) + 4096,
                   .secret = NULL,
                   .secret_len = 0,
                   .secret_file = NULL,
                   .user = NULL,
                   .groups = NULL,
                   .n_groups = 0};
  return o;
}

static int check_options(const ssd_options *o, ssd_error *err) {
  if (o->connect_timeout_ms <= 0) {
    ssd_set_error(err, SSD_E_ARG, "connect_timeout_ms must be positive, was %d",
                  o->connect_timeout_ms);
    return SSD_E_ARG;
  }
  if (o->request_timeout_ms <= 0) {
    ssd_set_error(err, SSD_E_ARG, "request_timeout_ms must be positive, was %d",
                  o->request_timeout_ms);
    return SSD_E_ARG;
  }
  if (o->max_frame_bytes < 1024 || o->max_frame_bytes > SSD_MAX_LENGTH) {
    ssd_set_error(err, SSD_E_ARG, "max_frame_bytes must be in 1024..2^31-1, was %lu",
                  (unsigned long)o->max_frame_bytes);
    return SSD_E_ARG;
  }
  return SSD_OK;
}

/* Creates the client around a connected socket and starts its receiver. */
static int client_create(int fd, const char *display, const ssd_options *opt, ssd_client **out,
                         ssd_error *err) {
  ssd_client *c = calloc(1, sizeof *c);
  char *address = strdup(display);
  uint8_t *scratch = malloc(SCRATCH_BYTES);
  struct pending **slots = calloc(INITIAL_SLOTS, sizeof *slots);
  if (c == NULL || address == NULL || scratch == NULL || slots == NULL) {
    free(c);
    free(address);
    free(scratch);
    free(slots);
    close(fd);
    ssd_set_error(err, SSD_E_NOMEM, "device %s: out of memory", display);
    return SSD_E_NOMEM;
  }
  c->address = address;
  c->scratch = scratch;
  c->slots = slots;
  c->n_slots = INITIAL_SLOTS;
  c->fd = fd;
  c->opt = *opt;
  /* The secret is the handshake's alone: the client keeps no pointer to the caller's. */
  c->opt.secret = NULL;
  c->opt.secret_len = 0;
  c->opt.secret_file = NULL;
  c->version = SSD_MAX_VERSION; /* until negotiated */
  atomic_init(&c->next_id, 1);
  atomic_init(&c->modelled_total, 0);
  atomic_init(&c->bytes_sent, 0);
  atomic_init(&c->bytes_received, 0);
  pthread_mutex_init(&c->mu, NULL);
  pthread_mutex_init(&c->send_mu, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&c->queue_cv, &ca);
  pthread_cond_init(&c->idle_cv, &ca);
  pthread_condattr_destroy(&ca);
  int rc = pthread_create(&c->receiver, NULL, receiver_main, c);
  if (rc != 0) {
    ssd_set_error(err, SSD_E_NOMEM, "device %s: cannot start the receiver thread: %s", display,
                  strerror(rc));
    ssd_close(c); /* closes fd */
    return SSD_E_NOMEM;
  }
  c->receiver_started = true;
  *out = c;
  return SSD_OK;
}

/* API_VERSIONS, then the highest version both sides speak. */
static int negotiate(ssd_client *c, int64_t deadline_ns, ssd_error *err) {
  int left_ms = poll_ms(deadline_ns);
  uint64_t id;
  int rc = ssd_submit_timeout(c, SSD_OP_API_VERSIONS, NULL, 0, NULL, 0, left_ms > 0 ? left_ms : 1,
                              &id, err);
  ssd_reply reply;
  if (rc == SSD_OK) {
    rc = ssd_wait(c, id, &reply, err);
  }
  if (rc != SSD_OK) {
    return rc;
  }
  uint16_t lo, hi;
  rc = ssd_decode_versions(reply.payload, reply.payload_len, &lo, &hi, err);
  ssd_reply_free(&reply);
  if (rc != SSD_OK) {
    ssd_prefix_error(err, c->address);
    return rc;
  }
  int low = lo > SSD_MIN_VERSION ? lo : SSD_MIN_VERSION;
  int high = hi < SSD_MAX_VERSION ? hi : SSD_MAX_VERSION;
  if (low > high) {
    ssd_set_error(err, SSD_E_VERSION,
                  "device %s: no common protocol version: this client speaks %d..%d, the device "
                  "%u..%u",
                  c->address, SSD_MIN_VERSION, SSD_MAX_VERSION, (unsigned)lo, (unsigned)hi);
    return SSD_E_VERSION;
  }
  c->version = high;
  return SSD_OK;
}

/*
 * IDENTIFY (PROTOCOL.md, "Users and permissions"), when the options name a user and the device
 * speaks version 4 or later: who the client's user is, before any command.
 */
static int identify(ssd_client *c, const ssd_options *o, int64_t deadline_ns, ssd_error *err) {
  if (o->user == NULL || o->user[0] == '\0' || c->version < SSD_PERMISSIONS_VERSION) {
    return SSD_OK;
  }
  uint8_t stack[256];
  ssd_buffer b;
  ssd_buffer_stack(&b, stack, sizeof stack);
  ssd_writer w;
  ssd_writer_init(&w, &b);
  int rc = ssd_payload_identify(&w, o->user, o->groups, o->n_groups, err);
  if (rc == SSD_OK) {
    rc = ssd_writer_result(&w, err);
  }
  uint64_t id;
  if (rc == SSD_OK) {
    int left_ms = poll_ms(deadline_ns);
    ssd_iovec piece = {b.data, w.pos};
    rc = ssd_submit_timeout(c, SSD_OP_IDENTIFY, &piece, 1, NULL, 0, left_ms > 0 ? left_ms : 1, &id,
                            err);
  }
  ssd_buffer_free(&b);
  if (rc != SSD_OK) {
    return rc;
  }
  ssd_reply reply;
  rc = ssd_wait(c, id, &reply, err);
  if (rc == SSD_OK) {
    rc = ssd_decode_empty(reply.payload, reply.payload_len, err);
    if (rc != SSD_OK) {
      ssd_prefix_error(err, c->address);
    }
  }
  ssd_reply_free(&reply);
  return rc;
}

SSD_API int ssd_connect(const char *address, const ssd_options *opt, ssd_client **out,
                        ssd_error *err) {
  if (out == NULL) {
    ssd_set_error(err, SSD_E_ARG, "no place for the client");
    return SSD_E_ARG;
  }
  *out = NULL;
  ssd_options o = opt != NULL ? *opt : ssd_options_default();
  int rc = check_options(&o, err);
  if (rc != SSD_OK) {
    return rc;
  }
  parsed_address a;
  rc = parse_address(address, &a, err);
  if (rc != SSD_OK) {
    return rc;
  }
  /* Read before connecting: a bad secret file is the caller's to fix whatever the device. */
  ssd_secret secret;
  rc = ssd_secret_from_options(&o, &secret, err);
  if (rc != SSD_OK) {
    return rc;
  }
  int64_t deadline = deadline_after_ms(o.connect_timeout_ms);
  int fd = -1;
  ssd_client *c = NULL;
  rc = open_socket(&a, &o, deadline, &fd, err);
  if (rc == SSD_OK) {
    rc = client_create(fd, a.display, &o, &c, err);
  }
  if (rc == SSD_OK) {
    rc = negotiate(c, deadline, err);
  }
  if (rc == SSD_OK) {
    rc = ssd_authenticate(c, &secret, deadline, err);
  }
  ssd_secret_release(&secret);
  if (rc == SSD_OK) {
    rc = identify(c, &o, deadline, err);
  }
  if (rc != SSD_OK) {
    ssd_close(c);
    return rc;
  }
  *out = c;
  ssd_clear_error(err);
  return SSD_OK;
}

SSD_API void ssd_disconnect(ssd_client *c) {
  if (c == NULL) {
    return;
  }
  pthread_mutex_lock(&c->mu);
  fail_locked(c, SSD_E_CLOSED, "device %s: connection closed by the client", c->address);
  pthread_mutex_unlock(&c->mu);
}

SSD_API void ssd_close(ssd_client *c) {
  if (c == NULL) {
    return;
  }
  pthread_mutex_lock(&c->mu);
  c->closing = true;
  fail_locked(c, SSD_E_CLOSED, "device %s: connection closed by the client", c->address);
  pthread_cond_broadcast(&c->queue_cv);
  pthread_mutex_unlock(&c->mu);
  if (c->receiver_started) {
    pthread_join(c->receiver, NULL); /* the socket is shut down: it returns promptly */
  }
  pthread_mutex_lock(&c->mu);
  while (c->active > 0) {
    pthread_cond_wait(&c->idle_cv, &c->mu);
  }
  pthread_mutex_unlock(&c->mu);
  /* Every request is DONE now (the receiver completed the one it was receiving, if any). */
  for (size_t i = 0; i < c->n_slots; i++) {
    if (c->slots[i] != NULL) {
      pending_free(c->slots[i]);
    }
  }
  free(c->slots);
  if (c->fd >= 0) {
    close(c->fd);
  }
  pthread_cond_destroy(&c->queue_cv);
  pthread_cond_destroy(&c->idle_cv);
  pthread_mutex_destroy(&c->mu);
  pthread_mutex_destroy(&c->send_mu);
  free(c->scratch);
  free(c->address);
  free(c);
}

SSD_API const char *ssd_address(const ssd_client *c) {
  return c == NULL ? "" : c->address;
}

SSD_API int ssd_protocol_version(const ssd_client *c) {
  return c == NULL ? 0 : c->version;
}

SSD_API uint64_t ssd_modelled_nanos_total(const ssd_client *c) {
  return c == NULL ? 0 : atomic_load(&((ssd_client *)c)->modelled_total);
}

SSD_API uint64_t ssd_bytes_sent(const ssd_client *c) {
  return c == NULL ? 0 : atomic_load(&((ssd_client *)c)->bytes_sent);
}

SSD_API uint64_t ssd_bytes_received(const ssd_client *c) {
  return c == NULL ? 0 : atomic_load(&((ssd_client *)c)->bytes_received);
}

uint32_t ssd_client_max_frame(const ssd_client *c) {
  return c->opt.max_frame_bytes;
}
