/*
 * auth.h: the host's side of the authentication handshake (PROTOCOL.md, "Authentication"): where
 * the secret comes from, the nonces, and the exchange itself, which ssd_connect runs right after
 * API_VERSIONS. Nothing here is exported from libsmartssd.so.
 */
#ifndef SMARTSSD_AUTH_H
#define SMARTSSD_AUTH_H

#include "internal.h"

/* The client's secret for one ssd_connect: heap memory, wiped when released. */
typedef struct ssd_secret {
  uint8_t *bytes; /* NULL: no secret */
  size_t len;
  char source[300]; /* for messages: "secret file /path", "secret given in the options" */
} ssd_secret;

/*
 * Reads a secret file with the device's rules (HostSecret.read): a regular file, not a symbolic
 * link, with no permission for group or others, of at most SSD_SECRET_MAX_BYTES bytes; the secret
 * is its content without trailing spaces, tabs, CRs and LFs, at least SSD_SECRET_MIN_BYTES of it.
 * SSD_E_SECRET with a message naming the file and what is wrong, SSD_E_NOMEM.
 */
int ssd_secret_read_file(const char *path, ssd_secret *out, ssd_error *err);

/*
 * The secret the options give (ssd_options: secret bytes, else secret_file, else the file named
 * by SMARTSSD_SECRET_FILE when set and not empty), copied; out->bytes NULL when there is none.
 * SSD_E_ARG when both secret and secret_file are given, or secret_len without secret;
 * SSD_E_SECRET when the bytes are fewer than SSD_SECRET_MIN_BYTES; else as ssd_secret_read_file.
 */
int ssd_secret_from_options(const ssd_options *opt, ssd_secret *out, ssd_error *err);

/* Wipes and frees the secret's bytes. Safe on a secret without any. */
void ssd_secret_release(ssd_secret *s);

/* n bytes from the kernel's random source (getrandom, else /dev/urandom). SSD_E_IO on failure. */
int ssd_random_bytes(void *buf, size_t n, ssd_error *err);

/*
 * Sends AUTH_CHALLENGE on a connected client (its version negotiated) and, if the device requires
 * it, AUTHENTICATE with the proof of `secret`, then checks the device's proof. Each reply is
 * waited for until deadline_ns (ssd_now_ns's clock). The statuses of ssd_connect's handshake.
 */
int ssd_authenticate(ssd_client *c, const ssd_secret *secret, int64_t deadline_ns, ssd_error *err);

#endif /* SMARTSSD_AUTH_H */
