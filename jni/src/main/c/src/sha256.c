/*
 * sha256.c: SHA-256 as FIPS 180-4 section 6.2 describes it, and HMAC over it (RFC 2104). Written
 * for clarity over speed: the handshake hashes a few hundred bytes per connection.
 */
#include <string.h>

#include "sha256.h"

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* The first 32 bits of the fractional parts of the square roots of the first 8 primes. */
static const uint32_t H0[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static uint32_t rotr(uint32_t x, unsigned n) {
  return (x >> n) | (x << (32 - n));
}

static uint32_t load_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* Folds one 64-byte block into the state. */
static void compress(uint32_t state[8], const uint8_t block[SSD_SHA256_BLOCK_BYTES]) {
  uint32_t w[64];
  for (int t = 0; t < 16; t++) {
    w[t] = load_be32(block + 4 * t);
  }
  for (int t = 16; t < 64; t++) {
    uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
  for (int t = 0; t < 64; t++) {
    uint32_t big_s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    uint32_t ch = (e & f) ^ (~e & g);
    uint32_t t1 = h + big_s1 + ch + K[t] + w[t];
    uint32_t big_s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = big_s0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
  ssd_wipe(w, sizeof w); /* the schedule is the message (a key block, in HMAC) */
}

void ssd_sha256_init(ssd_sha256_ctx *s) {
  memcpy(s->state, H0, sizeof s->state);
  s->total = 0;
  s->used = 0;
}

void ssd_sha256_update(ssd_sha256_ctx *s, const void *data, size_t n) {
  if (n == 0) {
    return; /* data may be NULL */
  }
  const uint8_t *p = data;
  s->total += n;
  if (s->used > 0) {
    size_t k = SSD_SHA256_BLOCK_BYTES - s->used;
    if (k > n) {
      k = n;
    }
    memcpy(s->block + s->used, p, k);
    s->used += k;
    p += k;
    n -= k;
    if (s->used < SSD_SHA256_BLOCK_BYTES) {
      return;
    }
    compress(s->state, s->block);
    s->used = 0;
  }
  for (; n >= SSD_SHA256_BLOCK_BYTES; p += SSD_SHA256_BLOCK_BYTES, n -= SSD_SHA256_BLOCK_BYTES) {
    compress(s->state, p);
  }
  if (n > 0) {
    memcpy(s->block, p, n);
    s->used = n;
  }
}

void ssd_sha256_final(ssd_sha256_ctx *s, uint8_t out[SSD_SHA256_BYTES]) {
  /* Padding: 0x80, zeros up to 56 bytes into a block, then the length in bits (64-bit). */
  uint64_t bits = s->total * 8;
  s->block[s->used++] = 0x80;
  if (s->used > SSD_SHA256_BLOCK_BYTES - 8) {
    memset(s->block + s->used, 0, SSD_SHA256_BLOCK_BYTES - s->used);
    compress(s->state, s->block);
    s->used = 0;
  }
  memset(s->block + s->used, 0, SSD_SHA256_BLOCK_BYTES - 8 - s->used);
  store_be32(s->block + 56, (uint32_t)(bits >> 32));
  store_be32(s->block + 60, (uint32_t)bits);
  compress(s->state, s->block);
  for (int i = 0; i < 8; i++) {
    store_be32(out + 4 * i, s->state[i]);
  }
  ssd_wipe(s, sizeof *s);
}

void ssd_sha256(const void *data, size_t n, uint8_t out[SSD_SHA256_BYTES]) {
  ssd_sha256_ctx s;
  ssd_sha256_init(&s);
  ssd_sha256_update(&s, data, n);
  ssd_sha256_final(&s, out);
}

/* ---- HMAC ------------------------------------------------------------------------------------ */

void ssd_hmac_sha256_init(ssd_hmac_sha256_ctx *m, const void *key, size_t key_len) {
  uint8_t k[SSD_SHA256_BLOCK_BYTES] = {0};
  if (key_len > SSD_SHA256_BLOCK_BYTES) {
    ssd_sha256(key, key_len, k);
  } else if (key_len > 0) {
    memcpy(k, key, key_len);
  }
  uint8_t inner_key[SSD_SHA256_BLOCK_BYTES];
  for (size_t i = 0; i < SSD_SHA256_BLOCK_BYTES; i++) {
    inner_key[i] = k[i] ^ 0x36;
    m->outer_key[i] = k[i] ^ 0x5c;
  }
  ssd_sha256_init(&m->inner);
  ssd_sha256_update(&m->inner, inner_key, sizeof inner_key);
  ssd_wipe(k, sizeof k);
  ssd_wipe(inner_key, sizeof inner_key);
}

void ssd_hmac_sha256_update(ssd_hmac_sha256_ctx *m, const void *data, size_t n) {
  ssd_sha256_update(&m->inner, data, n);
}

void ssd_hmac_sha256_final(ssd_hmac_sha256_ctx *m, uint8_t out[SSD_SHA256_BYTES]) {
  uint8_t inner[SSD_SHA256_BYTES];
  ssd_sha256_final(&m->inner, inner);
  ssd_sha256_ctx outer;
  ssd_sha256_init(&outer);
  ssd_sha256_update(&outer, m->outer_key, sizeof m->outer_key);
  ssd_sha256_update(&outer, inner, sizeof inner);
  ssd_sha256_final(&outer, out);
  ssd_wipe(inner, sizeof inner);
  ssd_wipe(m, sizeof *m);
}

void ssd_hmac_sha256(const void *key, size_t key_len, const void *data, size_t n,
                     uint8_t out[SSD_SHA256_BYTES]) {
  ssd_hmac_sha256_ctx m;
  ssd_hmac_sha256_init(&m, key, key_len);
  ssd_hmac_sha256_update(&m, data, n);
  ssd_hmac_sha256_final(&m, out);
}

/* ---- comparing and wiping -------------------------------------------------------------------- */

bool ssd_equal_ct(const void *a, const void *b, size_t n) {
  const volatile uint8_t *x = a;
  const volatile uint8_t *y = b;
  uint8_t diff = 0;
  for (size_t i = 0; i < n; i++) {
    diff |= (uint8_t)(x[i] ^ y[i]);
  }
  return diff == 0;
}

void ssd_wipe(void *p, size_t n) {
  if (n > 0) {
    explicit_bzero(p, n);
  }
}
