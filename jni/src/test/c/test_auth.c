/*
 * test_auth.c: the library's own SHA-256 and HMAC-SHA256 against published vectors (FIPS 180-2
 * appendix B, RFC 4231), the handshake's proofs against PROTOCOL.md's test vector, the
 * constant-time comparison, and where the client's secret comes from: the secret file rules of
 * the Java HostSecret.read, the options, and SMARTSSD_SECRET_FILE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "auth.h"
#include "check.h"
#include "sha256.h"
#include "smartssd.h"

/* Hex to bytes; n is the bytes expected. */
static void unhex(const char *hex, uint8_t *out, size_t n) {
  REQUIRE(strlen(hex) == 2 * n);
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    REQUIRE(sscanf(hex + 2 * i, "%2x", &v) == 1);
    out[i] = (uint8_t)v;
  }
}

#define CHECK_DIGEST(actual, hex)                                     \
  do {                                                                \
    uint8_t want_[SSD_SHA256_BYTES];                                  \
    unhex((hex), want_, sizeof want_);                                \
    CHECK_MEM((actual), want_, sizeof want_);                         \
  } while (0)

/* ---- SHA-256 --------------------------------------------------------------------------------- */

static const char MSG_448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char MSG_896[] =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnop"
    "qrsmnopqrstnopqrstu";

static void test_sha256(void) {
  uint8_t d[SSD_SHA256_BYTES];
  /* FIPS 180-2, appendix B.1 and B.2; B.3 below. */
  ssd_sha256("abc", 3, d);
  CHECK_DIGEST(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  ssd_sha256(MSG_448, strlen(MSG_448), d);
  CHECK_DIGEST(d, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  ssd_sha256(NULL, 0, d);
  CHECK_DIGEST(d, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  ssd_sha256(MSG_896, strlen(MSG_896), d);
  CHECK_DIGEST(d, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");

  /* One million 'a' (B.3), fed in pieces that do not divide the block. */
  static uint8_t a[997];
  memset(a, 'a', sizeof a);
  ssd_sha256_ctx s;
  ssd_sha256_init(&s);
  size_t left = 1000000;
  while (left > 0) {
    size_t k = left < sizeof a ? left : sizeof a;
    ssd_sha256_update(&s, a, k);
    left -= k;
  }
  ssd_sha256_final(&s, d);
  CHECK_DIGEST(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");

  /* Lengths around the padding's edges (55 bytes: the length fits the block; 56..63: it does
   * not; 64: a whole block), as Python's hashlib computes them. */
  static const struct {
    size_t n;
    const char *hex;
  } EDGES[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
  };
  for (size_t i = 0; i < sizeof EDGES / sizeof *EDGES; i++) {
    ssd_sha256(a, EDGES[i].n, d);
    CHECK_DIGEST(d, EDGES[i].hex);
  }

  /* Any split of a message hashes as the whole. */
  uint8_t whole[SSD_SHA256_BYTES];
  ssd_sha256(MSG_896, strlen(MSG_896), whole);
  for (size_t cut = 0; cut <= strlen(MSG_896); cut++) {
    ssd_sha256_init(&s);
    ssd_sha256_update(&s, MSG_896, cut);
    ssd_sha256_update(&s, NULL, 0);
    ssd_sha256_update(&s, MSG_896 + cut, strlen(MSG_896) - cut);
    ssd_sha256_final(&s, d);
    CHECK_MEM(d, whole, sizeof whole);
  }
  ssd_sha256_init(&s);
  for (size_t i = 0; i < strlen(MSG_896); i++) {
    ssd_sha256_update(&s, MSG_896 + i, 1);
  }
  ssd_sha256_final(&s, d);
  CHECK_MEM(d, whole, sizeof whole);
}

/* ---- HMAC-SHA256 ----------------------------------------------------------------------------- */

static void test_hmac(void) {
  uint8_t mac[SSD_SHA256_BYTES];
  uint8_t key[131];
  uint8_t data[50];

  /* RFC 4231, test case 1 */
  memset(key, 0x0b, 20);
  ssd_hmac_sha256(key, 20, "Hi There", 8, mac);
  CHECK_DIGEST(mac, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  /* 2: a key shorter than the output */
  const char *what = "what do ya want for nothing?";
  ssd_hmac_sha256("Jefe", 4, what, strlen(what), mac);
  CHECK_DIGEST(mac, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  /* 3 */
  memset(key, 0xaa, 20);
  memset(data, 0xdd, 50);
  ssd_hmac_sha256(key, 20, data, 50, mac);
  CHECK_DIGEST(mac, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
  /* 4 */
  for (int i = 0; i < 25; i++) key[i] = (uint8_t)(i + 1);
  memset(data, 0xcd, 50);
  ssd_hmac_sha256(key, 25, data, 50, mac);
  CHECK_DIGEST(mac, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
  /* 6: a key longer than the block (hashed first) */
  memset(key, 0xaa, 131);
  const char *six = "Test Using Larger Than Block-Size Key - Hash Key First";
  ssd_hmac_sha256(key, 131, six, strlen(six), mac);
  CHECK_DIGEST(mac, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  /* 7: a long key and long data, here also fed in pieces */
  const char *seven =
      "This is a test using a larger than block-size key and a larger than block-size data. The "
      "key needs to be hashed before being used by the HMAC algorithm.";
  ssd_hmac_sha256(key, 131, seven, strlen(seven), mac);
  CHECK_DIGEST(mac, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
  ssd_hmac_sha256_ctx m;
  ssd_hmac_sha256_init(&m, key, 131);
  for (size_t at = 0; at < strlen(seven); at += 10) {
    size_t k = strlen(seven) - at < 10 ? strlen(seven) - at : 10;
    ssd_hmac_sha256_update(&m, seven + at, k);
  }
  ssd_hmac_sha256_final(&m, mac);
  CHECK_DIGEST(mac, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
  /* A key of exactly one block is used as it is, not hashed: it differs from its hash as key. */
  uint8_t block_key[64], hashed[SSD_SHA256_BYTES], other[SSD_SHA256_BYTES];
  memset(block_key, 0x11, sizeof block_key);
  ssd_hmac_sha256(block_key, 64, "x", 1, mac);
  ssd_sha256(block_key, 64, hashed);
  ssd_hmac_sha256(hashed, sizeof hashed, "x", 1, other);
  CHECK(memcmp(mac, other, sizeof mac) != 0);
}

/* ---- the handshake's proofs ------------------------------------------------------------------ */

static void test_protocol_vector(void) {
  /* PROTOCOL.md, "Authentication": the key is the 64 ASCII characters, not the bytes they spell. */
  const char *secret = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
  uint8_t device_nonce[SSD_NONCE_BYTES], host_nonce[SSD_NONCE_BYTES];
  memset(device_nonce, 0xA0, sizeof device_nonce);
  memset(host_nonce, 0xB0, sizeof host_nonce);
  uint8_t proof[SSD_PROOF_BYTES];
  ssd_auth_host_proof(secret, strlen(secret), device_nonce, host_nonce, proof);
  CHECK_DIGEST(proof, "6859092a68720a3e6e0aea0f32dd76a178d57d654be5d3fd1104f22d2632c90f");
  ssd_auth_device_proof(secret, strlen(secret), device_nonce, host_nonce, proof);
  CHECK_DIGEST(proof, "ce42a4210757a485e8a041e8055899b8c17ea1b3274b27f904298161d2f7f7c1");
  /* The nonces' order matters: swapped, the proof is another. */
  ssd_auth_host_proof(secret, strlen(secret), host_nonce, device_nonce, proof);
  uint8_t want[SSD_PROOF_BYTES];
  unhex("6859092a68720a3e6e0aea0f32dd76a178d57d654be5d3fd1104f22d2632c90f", want, sizeof want);
  CHECK(memcmp(proof, want, sizeof want) != 0);
}

static void test_equal_ct(void) {
  uint8_t a[32], b[32];
  memset(a, 7, sizeof a);
  memset(b, 7, sizeof b);
  CHECK(ssd_equal_ct(a, b, sizeof a));
  CHECK(ssd_equal_ct(a, b, 0));
  b[0] ^= 1;
  CHECK(!ssd_equal_ct(a, b, sizeof a));
  b[0] ^= 1;
  b[31] ^= 0x80;
  CHECK(!ssd_equal_ct(a, b, sizeof a));
  CHECK(ssd_equal_ct(a, b, 31));
  uint8_t w[5] = {1, 2, 3, 4, 5};
  ssd_wipe(w, sizeof w);
  static const uint8_t zeros[5] = {0};
  CHECK_MEM(w, zeros, sizeof w);
}

static void test_random(void) {
  uint8_t a[SSD_NONCE_BYTES], b[SSD_NONCE_BYTES];
  static const uint8_t zeros[SSD_NONCE_BYTES] = {0};
  ssd_error err;
  CHECK_INT(ssd_random_bytes(a, sizeof a, &err), SSD_OK);
  CHECK_INT(ssd_random_bytes(b, sizeof b, &err), SSD_OK);
  CHECK(memcmp(a, b, sizeof a) != 0);
  CHECK(memcmp(a, zeros, sizeof a) != 0);
}

/* ---- secret files ---------------------------------------------------------------------------- */

static char dir[64];

/* dir/name, holding n bytes of content, with the mode. */
static const char *make_file(const char *name, const void *content, size_t n, mode_t mode) {
  static char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  REQUIRE(f != NULL);
  REQUIRE(fwrite(content, 1, n, f) == n);
  REQUIRE(fclose(f) == 0);
  REQUIRE(chmod(path, mode) == 0);
  return path;
}

static const char *make_text(const char *name, const char *content, mode_t mode) {
  return make_file(name, content, strlen(content), mode);
}

/* Reading `path` fails with SSD_E_SECRET, naming the file and saying `why`. */
static void expect_bad_file(const char *path, const char *why) {
  ssd_secret s;
  ssd_error err;
  int rc = ssd_secret_read_file(path, &s, &err);
  if (rc != SSD_E_SECRET) {
    check_failf(__FILE__, __LINE__, "%s: read with %d (%s); expected SSD_E_SECRET", path, rc,
                err.message);
    ssd_secret_release(&s);
    return;
  }
  check_count++;
  CHECK(s.bytes == NULL);
  CHECK_INT(err.code, SSD_E_SECRET);
  CHECK_CONTAINS(err.message, path);
  CHECK_CONTAINS(err.message, why);
}

/* Reading `path` gives the secret `expected`. */
static void expect_secret(const char *path, const void *expected, size_t n) {
  ssd_secret s;
  ssd_error err;
  int rc = ssd_secret_read_file(path, &s, &err);
  if (rc != SSD_OK) {
    check_failf(__FILE__, __LINE__, "%s: %d %s", path, rc, err.message);
    return;
  }
  CHECK_EQ(s.len, n);
  if (s.len == n) {
    CHECK_MEM(s.bytes, expected, n);
  }
  CHECK_CONTAINS(s.source, path);
  ssd_secret_release(&s);
  CHECK(s.bytes == NULL && s.len == 0);
}

static void test_secret_files(void) {
  const char *hex = "6a5f0c3e9b2d41f7a8c0e5d3b1f94a6e2c7d8b0f1e3a5c9d7b2e4f6a8c0d1e3f";
  char line[80];
  snprintf(line, sizeof line, "%s\n", hex); /* as `smartssd secret` writes it */
  expect_secret(make_text("generated", line, 0600), hex, 64);
  /* trailing spaces, tabs, CRs and LFs go; leading and inner white space stays */
  expect_secret(make_text("crlf", "0123456789abcdef\r\n \t\n", 0600), "0123456789abcdef", 16);
  expect_secret(make_text("inner", " a b\tc  0123456789\n", 0600), " a b\tc  0123456789", 18);
  /* the mode's owner bits are free (read-only is fine) */
  expect_secret(make_text("readonly", line, 0400), hex, 64);
  /* binary content, used as it is */
  uint8_t binary[20];
  for (int i = 0; i < 20; i++) binary[i] = (uint8_t)(0xF0 + i);
  expect_secret(make_file("binary", binary, sizeof binary, 0600), binary, sizeof binary);
  /* 4096 bytes is the most */
  static uint8_t big[4097];
  memset(big, 'k', sizeof big);
  expect_secret(make_file("max", big, 4096, 0600), big, 4096);

  char path[128];
  snprintf(path, sizeof path, "%s/missing", dir);
  expect_bad_file(path, "not found (make one with `smartssd secret ");
  expect_bad_file(dir, "is not a regular file");
  snprintf(path, sizeof path, "%s/fifo", dir);
  REQUIRE(mkfifo(path, 0600) == 0);
  expect_bad_file(path, "is not a regular file"); /* and does not wait for a writer */
  expect_bad_file(make_text("group", line, 0640), "is open to others than its owner (rw-r-----)");
  expect_bad_file(make_text("group", line, 0640), "chmod 600");
  expect_bad_file(make_text("others", line, 0604), "(rw----r--)");
  expect_bad_file(make_text("writable", line, 0620), "(rw--w----)");
  expect_bad_file(make_text("short", "0123456789abcde\n", 0600),
                  "holds 15 bytes (without trailing white space); a secret has at least 16");
  expect_bad_file(make_text("blank", " \r\n\t\n", 0600), "holds 0 bytes");
  expect_bad_file(make_text("empty", "", 0600), "holds 0 bytes");
  expect_bad_file(make_file("toolong", big, 4097, 0600), "holds 4097 bytes; a secret has at most 4096");
  /* a symbolic link, even to a good file: its own permissions say nothing */
  const char *target = make_text("target", line, 0600);
  char target_copy[128];
  snprintf(target_copy, sizeof target_copy, "%s", target);
  snprintf(path, sizeof path, "%s/link", dir);
  REQUIRE(symlink(target_copy, path) == 0);
  expect_bad_file(path, "is a symbolic link");
}

/* ---- the secret from the options and the environment ----------------------------------------- */

static void test_secret_from_options(void) {
  ssd_secret s;
  ssd_error err;
  ssd_options o = ssd_options_default();
  unsetenv(SSD_SECRET_FILE_ENV);
  CHECK_INT(ssd_secret_from_options(&o, &s, &err), SSD_OK);
  CHECK(s.bytes == NULL);

  /* bytes */
  o.secret = "0123456789abcde";
  o.secret_len = 15;
  CHECK_INT(ssd_secret_from_options(&o, &s, &err), SSD_E_SECRET);
  CHECK_CONTAINS(err.message, "has 15 bytes; a secret has at least 16");
  o.secret_len = 16;
  REQUIRE(ssd_secret_from_options(&o, &s, &err) == SSD_OK);
  CHECK_EQ(s.len, 16);
  CHECK_MEM(s.bytes, "0123456789abcdef", 15);
  CHECK(s.bytes != (const uint8_t *)o.secret); /* a copy */
  CHECK_STR(s.source, "the client's secret");
  ssd_secret_release(&s);

  /* a file */
  const char *good = make_text("options", "fedcba9876543210fedcba\n", 0600);
  char good_path[128];
  snprintf(good_path, sizeof good_path, "%s", good);
  o.secret_file = good_path;
  CHECK_INT(ssd_secret_from_options(&o, &s, &err), SSD_E_ARG); /* both */
  CHECK_CONTAINS(err.message, "both");
  o.secret = NULL;
  CHECK_INT(ssd_secret_from_options(&o, &s, &err), SSD_E_ARG); /* a length without bytes */
  o.secret_len = 0;
  REQUIRE(ssd_secret_from_options(&o, &s, &err) == SSD_OK);
  CHECK_EQ(s.len, 22);
  CHECK_MEM(s.bytes, "fedcba9876543210fedcba", 22);
  CHECK_CONTAINS(s.source, good_path);
  ssd_secret_release(&s);

  /* the environment, when the options name nothing; the options win over it */
  const char *bad = make_text("env-bad", "fedcba9876543210fedcba\n", 0644);
  char bad_path[128];
  snprintf(bad_path, sizeof bad_path, "%s", bad);
  setenv(SSD_SECRET_FILE_ENV, bad_path, 1);
  REQUIRE(ssd_secret_from_options(&o, &s, &err) == SSD_OK); /* the options' file */
  ssd_secret_release(&s);
  o.secret_file = "";                                        /* empty: not given */
  CHECK_INT(ssd_secret_from_options(&o, &s, &err), SSD_E_SECRET);
  CHECK_CONTAINS(err.message, bad_path);
  CHECK_CONTAINS(err.message, "open to others");
  CHECK_CONTAINS(err.message, "(named by SMARTSSD_SECRET_FILE)");
  /* read before connecting: a bad secret is reported whatever the device (none listens here) */
  ssd_client *c = (ssd_client *)1;
  CHECK_INT(ssd_connect("127.0.0.1:1", NULL, &c, &err), SSD_E_SECRET);
  CHECK(c == NULL);
  CHECK_CONTAINS(err.message, bad_path);
  setenv(SSD_SECRET_FILE_ENV, good_path, 1);
  REQUIRE(ssd_secret_from_options(&o, &s, &err) == SSD_OK);
  CHECK_MEM(s.bytes, "fedcba9876543210fedcba", 22);
  CHECK_CONTAINS(s.source, good_path);
  CHECK_CONTAINS(s.source, "SMARTSSD_SECRET_FILE");
  ssd_secret_release(&s);
  setenv(SSD_SECRET_FILE_ENV, "", 1); /* empty: not set */
  CHECK_INT(ssd_secret_from_options(&o, &s, &err), SSD_OK);
  CHECK(s.bytes == NULL);
  unsetenv(SSD_SECRET_FILE_ENV);
  CHECK_INT(ssd_connect("127.0.0.1:1", NULL, &c, &err), SSD_E_IO); /* now it gets to connect */
}

static void remove_dir(void) {
  static const char *const names[] = {
      "generated", "crlf",  "inner",   "readonly", "binary", "max",     "fifo",
      "group",     "others", "writable", "short",  "blank",  "empty",   "toolong",
      "target",    "link",  "options", "env-bad",
  };
  char path[128];
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (unlink(path) != 0 && errno != ENOENT) {
      fprintf(stderr, "test_auth: cannot remove %s: %s\n", path, strerror(errno));
    }
  }
  rmdir(dir);
}

int main(void) {
  test_sha256();
  test_hmac();
  test_protocol_vector();
  test_equal_ct();
  test_random();
  snprintf(dir, sizeof dir, "/tmp/smartssd-auth-XXXXXX");
  REQUIRE(mkdtemp(dir) != NULL);
  test_secret_files();
  test_secret_from_options();
  remove_dir();
  return check_exit("test_auth");
}
