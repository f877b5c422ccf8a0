/*
 * sha256.h: SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for the authentication handshake
 * (PROTOCOL.md, "Authentication"), so that the library needs no crypto library. Both work in
 * pieces (init, update any number of times, final) or at once. Nothing here is exported from
 * libsmartssd.so.
 */
#ifndef SMARTSSD_SHA256_H
#define SMARTSSD_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SSD_SHA256_BYTES 32
#define SSD_SHA256_BLOCK_BYTES 64

typedef struct ssd_sha256_ctx {
  uint32_t state[8];
  uint64_t total;                        /* bytes hashed so far */
  uint8_t block[SSD_SHA256_BLOCK_BYTES]; /* the partial block */
  size_t used;                           /* bytes of it filled */
} ssd_sha256_ctx;

void ssd_sha256_init(ssd_sha256_ctx *s);
void ssd_sha256_update(ssd_sha256_ctx *s, const void *data, size_t n);
/* Writes the digest and wipes the state. */
void ssd_sha256_final(ssd_sha256_ctx *s, uint8_t out[SSD_SHA256_BYTES]);
void ssd_sha256(const void *data, size_t n, uint8_t out[SSD_SHA256_BYTES]);

/* HMAC-SHA256: the inner hash, already fed the key xor ipad, and the key xor opad for the outer. */
typedef struct ssd_hmac_sha256_ctx {
  ssd_sha256_ctx inner;
  uint8_t outer_key[SSD_SHA256_BLOCK_BYTES];
} ssd_hmac_sha256_ctx;

/* A key of any length (longer than a block: its hash is the key, as RFC 2104 says). */
void ssd_hmac_sha256_init(ssd_hmac_sha256_ctx *m, const void *key, size_t key_len);
void ssd_hmac_sha256_update(ssd_hmac_sha256_ctx *m, const void *data, size_t n);
/* Writes the MAC and wipes the state (which holds what the key was mixed into). */
void ssd_hmac_sha256_final(ssd_hmac_sha256_ctx *m, uint8_t out[SSD_SHA256_BYTES]);
void ssd_hmac_sha256(const void *key, size_t key_len, const void *data, size_t n,
                     uint8_t out[SSD_SHA256_BYTES]);

/* Whether a and b hold the same n bytes, in time that depends on n only (not on where they
 * differ): for comparing proofs. */
bool ssd_equal_ct(const void *a, const void *b, size_t n);

/* Zeroes n bytes in a way the compiler may not drop as a dead store (secrets and what was
 * derived from them). */
void ssd_wipe(void *p, size_t n);

#endif /* SMARTSSD_SHA256_H */
