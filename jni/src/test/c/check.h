/*
 * check.h: a tiny assertion helper for the C tests. CHECK_* record a failure (file, line, what)
 * and go on; REQUIRE stops the program at once. check_exit() prints the tally and gives the exit
 * status (non-zero when anything failed).
 */
#ifndef SMARTSSD_TEST_CHECK_H
#define SMARTSSD_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_count;
static int check_failures;

__attribute__((format(printf, 3, 4))) static inline void check_failf(const char *file, int line,
                                                                      const char *fmt, ...) {
  va_list ap;
  check_failures++;
  fprintf(stderr, "FAILED %s:%d: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

static inline void check_fail(const char *file, int line, const char *what) {
  check_failf(file, line, "%s", what);
}

#define CHECK(cond)                                     \
  do {                                                  \
    check_count++;                                      \
    if (!(cond)) check_fail(__FILE__, __LINE__, #cond); \
  } while (0)

/* Unsigned (up to 64-bit) equality, printing both values. */
#define CHECK_EQ(actual, expected)                                                          \
  do {                                                                                      \
    unsigned long long a_ = (unsigned long long)(actual);                                   \
    unsigned long long e_ = (unsigned long long)(expected);                                 \
    check_count++;                                                                          \
    if (a_ != e_)                                                                           \
      check_failf(__FILE__, __LINE__, "%s == %s: got %llu (0x%llx), expected %llu (0x%llx)", \
                  #actual, #expected, a_, a_, e_, e_);                                      \
  } while (0)

/* Signed equality (statuses, lanes). */
#define CHECK_INT(actual, expected)                                                         \
  do {                                                                                      \
    long long a_ = (long long)(actual);                                                     \
    long long e_ = (long long)(expected);                                                   \
    check_count++;                                                                          \
    if (a_ != e_)                                                                           \
      check_failf(__FILE__, __LINE__, "%s == %s: got %lld, expected %lld", #actual, #expected, \
                  a_, e_);                                                                  \
  } while (0)

#define CHECK_STR(actual, expected)                                                           \
  do {                                                                                        \
    const char *a_ = (actual);                                                                \
    const char *e_ = (expected);                                                              \
    check_count++;                                                                            \
    if (a_ == NULL || strcmp(a_, e_) != 0)                                                    \
      check_failf(__FILE__, __LINE__, "%s: got \"%s\", expected \"%s\"", #actual,              \
                  a_ == NULL ? "(null)" : a_, e_);                                            \
  } while (0)

/* The string holds the part. */
#define CHECK_CONTAINS(actual, part)                                                      \
  do {                                                                                    \
    const char *a_ = (actual);                                                            \
    const char *p_ = (part);                                                              \
    check_count++;                                                                        \
    if (a_ == NULL || strstr(a_, p_) == NULL)                                             \
      check_failf(__FILE__, __LINE__, "%s: \"%s\" does not contain \"%s\"", #actual,         \
                  a_ == NULL ? "(null)" : a_, p_);                                        \
  } while (0)

#define CHECK_MEM(actual, expected, n)                                 \
  do {                                                                 \
    check_count++;                                                     \
    if (memcmp((actual), (expected), (n)) != 0)                        \
      check_fail(__FILE__, __LINE__, #actual " bytes == " #expected);  \
  } while (0)

#define REQUIRE(cond)                                         \
  do {                                                        \
    check_count++;                                            \
    if (!(cond)) {                                            \
      check_fail(__FILE__, __LINE__, "required: " #cond);     \
      exit(1);                                                \
    }                                                         \
  } while (0)

static inline int check_exit(const char *program) {
  if (check_failures > 0) {
    fprintf(stderr, "%s: %d of %d checks FAILED\n", program, check_failures, check_count);
    return 1;
  }
  printf("%s: all %d checks passed\n", program, check_count);
  return 0;
}

#endif /* SMARTSSD_TEST_CHECK_H */
