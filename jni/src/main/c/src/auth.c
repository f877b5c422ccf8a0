/*
 * auth.c: the host's side of the authentication handshake (PROTOCOL.md, "Authentication"), as
 * the Java client does it (SocketDeviceClient.authenticate, HostSecret): the secret from the
 * options or a secret file, a fresh nonce, AUTH_CHALLENGE, then (when the device requires it)
 * AUTHENTICATE and the check of the device's proof.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "auth.h"
#include "client_internal.h"
#include "codec.h"
#include "sha256.h"

#define HOST_LABEL "SSDP-AUTH-1 host"
#define DEVICE_LABEL "SSDP-AUTH-1 device"

/* ---- proofs ---------------------------------------------------------------------------------- */

/* HMAC-SHA256(secret, label || 0x00 || device nonce || host nonce). */
static void proof(const char *label, const void *secret, size_t secret_len,
                  const uint8_t device_nonce[SSD_NONCE_BYTES],
                  const uint8_t host_nonce[SSD_NONCE_BYTES], uint8_t out[SSD_PROOF_BYTES]) {
  static const uint8_t nul = 0;
  ssd_hmac_sha256_ctx m;
  ssd_hmac_sha256_init(&m, secret, secret_len);
  ssd_hmac_sha256_update(&m, label, strlen(label));
  ssd_hmac_sha256_update(&m, &nul, 1);
  ssd_hmac_sha256_update(&m, device_nonce, SSD_NONCE_BYTES);
  ssd_hmac_sha256_update(&m, host_nonce, SSD_NONCE_BYTES);
  ssd_hmac_sha256_final(&m, out);
}

SSD_API void ssd_auth_host_proof(const void *secret, size_t secret_len,
                                 const uint8_t device_nonce[SSD_NONCE_BYTES],
                                 const uint8_t host_nonce[SSD_NONCE_BYTES],
                                 uint8_t out[SSD_PROOF_BYTES]) {
  proof(HOST_LABEL, secret, secret_len, device_nonce, host_nonce, out);
}

SSD_API void ssd_auth_device_proof(const void *secret, size_t secret_len,
                                   const uint8_t device_nonce[SSD_NONCE_BYTES],
                                   const uint8_t host_nonce[SSD_NONCE_BYTES],
                                   uint8_t out[SSD_PROOF_BYTES]) {
  proof(DEVICE_LABEL, secret, secret_len, device_nonce, host_nonce, out);
}

/* ---- the secret ------------------------------------------------------------------------------ */

void ssd_secret_release(ssd_secret *s) {
  if (s->bytes != NULL) {
    ssd_wipe(s->bytes, s->len);
    free(s->bytes);
  }
  s->bytes = NULL;
  s->len = 0;
}

/* "rw-r-----", as PosixFilePermissions.toString writes it (what HostSecret.read's message shows). */
static void permissions_text(mode_t mode, char out[10]) {
  static const char letters[] = "rwxrwxrwx";
  for (int i = 0; i < 9; i++) {
    out[i] = (mode & (mode_t)(0400 >> i)) != 0 ? letters[i] : '-';
  }
  out[9] = '\0';
}

static bool trailing_space(uint8_t c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Reads the whole of fd into buf (cap bytes); *n the bytes read; the errno of a failure, or 0. */
static int read_fully(int fd, uint8_t *buf, size_t cap, size_t *n) {
  *n = 0;
  while (*n < cap) {
    ssize_t r = read(fd, buf + *n, cap - *n);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r < 0) {
      return errno;
    }
    if (r == 0) {
      break;
    }
    *n += (size_t)r;
  }
  return 0;
}

int ssd_secret_read_file(const char *path, ssd_secret *out, ssd_error *err) {
  memset(out, 0, sizeof *out);
  /* Opened first and checked through the descriptor, so that what is checked is what is read.
   * O_NOFOLLOW: a link's own permissions say nothing of the file's (the Java device refuses a
   * link too); O_NONBLOCK: a FIFO in its place must not hang the connect. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    int e = errno;
    if (e == ENOENT) {
      ssd_set_error(err, SSD_E_SECRET,
                    "secret file %s not found (make one with `smartssd secret %s`)", path, path);
    } else if (e == ELOOP) {
      ssd_set_error(err, SSD_E_SECRET,
                    "secret file %s is a symbolic link: name the file itself (its own "
                    "permissions are what keep the secret)", path);
    } else {
      ssd_set_error(err, SSD_E_SECRET, "cannot read secret file %s: %s", path, strerror(e));
    }
    return SSD_E_SECRET;
  }
  struct stat st;
  int rc = SSD_E_SECRET;
  uint8_t *buf = NULL;
  if (fstat(fd, &st) != 0) {
    ssd_set_error(err, SSD_E_SECRET, "cannot read secret file %s: %s", path, strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    ssd_set_error(err, SSD_E_SECRET, "secret file %s is not a regular file", path);
  } else if ((st.st_mode & 077) != 0) {
    char perms[10];
    permissions_text(st.st_mode, perms);
    ssd_set_error(err, SSD_E_SECRET,
                  "secret file %s is open to others than its owner (%s): `chmod 600 %s`", path,
                  perms, path);
  } else if (st.st_size > SSD_SECRET_MAX_BYTES) {
    ssd_set_error(err, SSD_E_SECRET, "secret file %s holds %lld bytes; a secret has at most %d",
                  path, (long long)st.st_size, SSD_SECRET_MAX_BYTES);
  } else if ((buf = malloc(SSD_SECRET_MAX_BYTES + 1)) == NULL) {
    rc = SSD_E_NOMEM;
    ssd_set_error(err, rc, "out of memory reading secret file %s", path);
  } else {
    size_t n;
    int e = read_fully(fd, buf, SSD_SECRET_MAX_BYTES + 1, &n);
    size_t end = n;
    while (end > 0 && trailing_space(buf[end - 1])) {
      end--;
    }
    if (e != 0) {
      ssd_set_error(err, SSD_E_SECRET, "cannot read secret file %s: %s", path, strerror(e));
    } else if (n > SSD_SECRET_MAX_BYTES) { /* it grew since fstat */
      ssd_set_error(err, SSD_E_SECRET, "secret file %s holds more than %d bytes, the most a "
                    "secret has", path, SSD_SECRET_MAX_BYTES);
    } else if (end < SSD_SECRET_MIN_BYTES) {
      ssd_set_error(err, SSD_E_SECRET,
                    "secret file %s holds %zu bytes (without trailing white space); a secret has "
                    "at least %d (make one with `smartssd secret %s`)",
                    path, end, SSD_SECRET_MIN_BYTES, path);
    } else {
      rc = SSD_OK;
      out->bytes = buf;
      out->len = end;
      snprintf(out->source, sizeof out->source, "the secret from %s", path);
      ssd_wipe(buf + end, n - end);
      buf = NULL;
      ssd_clear_error(err);
    }
    if (buf != NULL) {
      ssd_wipe(buf, n);
    }
  }
  free(buf);
  close(fd);
  return rc;
}

int ssd_secret_from_options(const ssd_options *opt, ssd_secret *out, ssd_error *err) {
  memset(out, 0, sizeof *out);
  bool has_file = opt->secret_file != NULL && opt->secret_file[0] != '\0';
  if (opt->secret != NULL && has_file) {
    ssd_set_error(err, SSD_E_ARG, "the options give both a secret and a secret file (%s); give "
                  "one", opt->secret_file);
    return SSD_E_ARG;
  }
  if (opt->secret == NULL && opt->secret_len != 0) {
    ssd_set_error(err, SSD_E_ARG, "the options give a secret of %zu bytes but no bytes",
                  opt->secret_len);
    return SSD_E_ARG;
  }
  if (opt->secret != NULL) {
    if (opt->secret_len < SSD_SECRET_MIN_BYTES) {
      ssd_set_error(err, SSD_E_SECRET,
                    "the secret given to the client has %zu bytes; a secret has at least %d",
                    opt->secret_len, SSD_SECRET_MIN_BYTES);
      return SSD_E_SECRET;
    }
    out->bytes = malloc(opt->secret_len);
    if (out->bytes == NULL) {
      ssd_set_error(err, SSD_E_NOMEM, "out of memory copying the secret");
      return SSD_E_NOMEM;
    }
    memcpy(out->bytes, opt->secret, opt->secret_len);
    out->len = opt->secret_len;
    snprintf(out->source, sizeof out->source, "the client's secret");
    ssd_clear_error(err);
    return SSD_OK;
  }
  if (has_file) {
    return ssd_secret_read_file(opt->secret_file, out, err);
  }
  const char *from_env = getenv(SSD_SECRET_FILE_ENV);
  if (from_env == NULL || from_env[0] == '\0') {
    ssd_clear_error(err);
    return SSD_OK; /* no secret */
  }
  int rc = ssd_secret_read_file(from_env, out, err);
  if (rc == SSD_OK) {
    snprintf(out->source, sizeof out->source, "the secret from %s (%s)", from_env,
             SSD_SECRET_FILE_ENV);
  } else {
    char why[sizeof err->message];
    memcpy(why, err->message, sizeof why);
    ssd_set_error(err, rc, "%s (named by %s)", why, SSD_SECRET_FILE_ENV);
  }
  return rc;
}

/* ---- nonces ---------------------------------------------------------------------------------- */

static int urandom_bytes(uint8_t *buf, size_t n, ssd_error *err) {
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    ssd_set_error(err, SSD_E_IO, "cannot open /dev/urandom for a nonce: %s", strerror(errno));
    return SSD_E_IO;
  }
  size_t got;
  int e = read_fully(fd, buf, n, &got);
  close(fd);
  if (e != 0 || got != n) {
    ssd_set_error(err, SSD_E_IO, "cannot read a nonce from /dev/urandom: %s",
                  e != 0 ? strerror(e) : "end of file");
    return SSD_E_IO;
  }
  return SSD_OK;
}

int ssd_random_bytes(void *buf, size_t n, ssd_error *err) {
  uint8_t *p = buf;
  size_t got = 0;
  while (got < n) {
    ssize_t r = getrandom(p + got, n - got, 0);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r < 0 && errno == ENOSYS) {
      return urandom_bytes(p + got, n - got, err);
    }
    if (r < 0) {
      ssd_set_error(err, SSD_E_IO, "cannot get random bytes for a nonce: %s", strerror(errno));
      return SSD_E_IO;
    }
    got += (size_t)r;
  }
  return SSD_OK;
}

/* ---- the handshake --------------------------------------------------------------------------- */

/* How much longer than the connect timeout AUTHENTICATE's answer is waited for (PROTOCOL.md). */
#define SSD_AUTHENTICATE_GRACE_MS INT64_C(5000)

/* Sends a request whose payload is one `bytes` of n (at most 32) bytes and waits for its reply
 * until the deadline. */
static int exchange(ssd_client *c, uint16_t opcode, const uint8_t *data, uint32_t n,
                    int64_t deadline_ns, ssd_reply *reply, ssd_error *err) {
  memset(reply, 0, sizeof *reply);
  uint8_t payload[4 + SSD_NONCE_BYTES];
  ssd_buffer b;
  ssd_writer w;
  ssd_buffer_fixed(&b, payload, sizeof payload);
  ssd_writer_init(&w, &b);
  ssd_payload_fixed_bytes(&w, data, n);
  ssd_iovec piece = {payload, w.pos};
  int64_t left_ms = (deadline_ns - ssd_now_ns() + SSD_NS_PER_MS - 1) / SSD_NS_PER_MS;
  uint64_t id;
  int rc = ssd_submit_timeout(c, opcode, &piece, 1, NULL, 0, left_ms > 0 ? (int)left_ms : 1, &id,
                              err);
  if (rc == SSD_OK) {
    rc = ssd_wait(c, id, reply, err);
  }
  ssd_wipe(payload, sizeof payload);
  return rc;
}

int ssd_authenticate(ssd_client *c, const ssd_secret *secret, int64_t deadline_ns, ssd_error *err) {
  const char *address = ssd_address(c);
  uint8_t host_nonce[SSD_NONCE_BYTES];
  int rc = ssd_random_bytes(host_nonce, sizeof host_nonce, err);
  if (rc != SSD_OK) {
    ssd_prefix_error(err, address);
    return rc;
  }
  ssd_reply reply;
  rc = exchange(c, SSD_OP_AUTH_CHALLENGE, host_nonce, SSD_NONCE_BYTES, deadline_ns, &reply, err);
  if (rc != SSD_OK) {
    ssd_reply_free(&reply);
    return rc;
  }
  bool required;
  uint8_t device_nonce[SSD_NONCE_BYTES];
  rc = ssd_decode_auth_challenge(reply.payload, reply.payload_len, &required, device_nonce, err);
  ssd_reply_free(&reply);
  if (rc != SSD_OK) {
    ssd_prefix_error(err, address);
    return rc;
  }
  if (!required) {
    /* The device was started without a secret: nothing to prove, either way (the Java client
     * logs a warning when it has a secret; this library does not log). */
    ssd_clear_error(err);
    return SSD_OK;
  }
  if (secret->bytes == NULL) {
    ssd_set_error(err, SSD_AUTH_REQUIRED,
                  "device %s: the device requires hosts to authenticate, and this client has no "
                  "secret: set " SSD_SECRET_FILE_ENV " to the device's secret file (or give the "
                  "secret in the client's options)",
                  address);
    return SSD_AUTH_REQUIRED;
  }

  uint8_t proof_bytes[SSD_PROOF_BYTES];
  ssd_auth_host_proof(secret->bytes, secret->len, device_nonce, host_nonce, proof_bytes);
  /* A device answers a refused proof late (a second, one refusal at a time): wait a little past
   * the connect deadline, so that a refusal arrives as one, not as a timeout (as the Java client). */
  rc = exchange(c, SSD_OP_AUTHENTICATE, proof_bytes, SSD_PROOF_BYTES,
                deadline_ns + SSD_AUTHENTICATE_GRACE_MS * SSD_NS_PER_MS, &reply, err);
  ssd_wipe(proof_bytes, sizeof proof_bytes);
  if (rc == SSD_AUTH_REQUIRED) {
    /* The device refused the proof (and closes the connection): its message, and which secret. */
    char device_message[sizeof err->message];
    memcpy(device_message, err->message, sizeof device_message);
    ssd_set_error(err, rc, "device %s: %s (%s is not this device's)", address, device_message,
                  secret->source);
  }
  if (rc != SSD_OK) {
    ssd_reply_free(&reply);
    return rc;
  }
  uint8_t given[SSD_PROOF_BYTES];
  rc = ssd_decode_authenticated(reply.payload, reply.payload_len, given, err);
  ssd_reply_free(&reply);
  if (rc != SSD_OK) {
    ssd_prefix_error(err, address);
    return rc;
  }
  uint8_t expected[SSD_PROOF_BYTES];
  ssd_auth_device_proof(secret->bytes, secret->len, device_nonce, host_nonce, expected);
  bool proved = ssd_equal_ct(expected, given, SSD_PROOF_BYTES);
  ssd_wipe(expected, sizeof expected);
  if (!proved) {
    ssd_set_error(err, SSD_AUTH_REQUIRED,
                  "device %s: the device did not prove it holds %s: it is not the device this "
                  "secret was made for",
                  address, secret->source);
    return SSD_AUTH_REQUIRED;
  }
  ssd_clear_error(err);
  return SSD_OK;
}
