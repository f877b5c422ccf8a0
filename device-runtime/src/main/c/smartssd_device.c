/*
 * libsmartssd-device: the two things the simulated device needs from the operating system that
 * Java 17 does not give it, for its flash backing files (org.smartssd.device.runtime.flash.NativeFiles):
 *
 *   - fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE): hand the bytes of erased or dead flash
 *     pages back to the file system, keeping the file's size (the range then reads as zeros);
 *   - fstat's st_blocks: how many bytes a backing file really takes on disk, and lseek's SEEK_DATA and
 *     SEEK_HOLE: where its data lies (so that a start punches only what is allocated).
 *
 * Every function answers a negative errno when the call fails and never throws: the Java side decides
 * what a failure means (a device whose file system cannot punch holes goes on without it).
 */
#include <errno.h>
#include <fcntl.h>
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __linux__
#include <linux/falloc.h>
#endif

#define EXPORT __attribute__((visibility("default")))

/* open(path, O_RDWR | O_CLOEXEC): the descriptor, or -errno. The path is the bytes of the file name. */
EXPORT JNIEXPORT jint JNICALL Java_org_smartssd_device_runtime_flash_NativeFiles_open0(JNIEnv *env, jclass cls,
                                                                                   jbyteArray path) {
  (void)cls;
  jsize n = (*env)->GetArrayLength(env, path);
  char *name = malloc((size_t)n + 1);
  if (name == NULL) {
    return -ENOMEM;
  }
  (*env)->GetByteArrayRegion(env, path, 0, n, (jbyte *)name);
  name[n] = '\0';
  if (memchr(name, '\0', (size_t)n) != NULL) {
    free(name);
    return -EINVAL;
  }
  int fd;
  do {
    fd = open(name, O_RDWR | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  int error = errno;
  free(name);
  return fd < 0 ? -error : fd;
}

/* Deallocates [offset, offset + length) of the file, keeping its size: 0, or -errno (-EOPNOTSUPP where
 * the file system cannot, -ENOSYS where the system has no such call). */
EXPORT JNIEXPORT jint JNICALL Java_org_smartssd_device_runtime_flash_NativeFiles_punchHole0(JNIEnv *env, jclass cls,
                                                                                        jint fd, jlong offset,
                                                                                        jlong length) {
  (void)env;
  (void)cls;
#if defined(__linux__) && defined(FALLOC_FL_PUNCH_HOLE)
  int rc;
  do {
    rc = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length);
  } while (rc < 0 && errno == EINTR);
  return rc < 0 ? -errno : 0;
#else
  (void)fd;
  (void)offset;
  (void)length;
  return -ENOSYS;
#endif
}

/* Bytes the file takes on disk: st_blocks x 512 (Linux counts st_blocks in 512-byte units), or -errno. */
EXPORT JNIEXPORT jlong JNICALL Java_org_smartssd_device_runtime_flash_NativeFiles_allocatedBytes0(JNIEnv *env,
                                                                                              jclass cls, jint fd) {
  (void)env;
  (void)cls;
  struct stat st;
  if (fstat(fd, &st) != 0) {
    return -(jlong)errno;
  }
  return (jlong)st.st_blocks * 512;
}

/* lseek(fd, offset, SEEK_DATA) when `data`, else SEEK_HOLE: the offset of the next byte of data (of the
 * next hole) at or after `offset`; INT64_MIN when there is no data after it (ENXIO); or -errno (-EINVAL
 * where the system has no such whence). A file system without real support answers as if the whole
 * file were data. */
EXPORT JNIEXPORT jlong JNICALL Java_org_smartssd_device_runtime_flash_NativeFiles_seek0(JNIEnv *env, jclass cls,
                                                                                  jint fd, jlong offset,
                                                                                  jboolean data) {
  (void)env;
  (void)cls;
#if defined(SEEK_DATA) && defined(SEEK_HOLE)
  off_t at = lseek(fd, (off_t)offset, data ? SEEK_DATA : SEEK_HOLE);
  if (at < 0) {
    return errno == ENXIO ? INT64_MIN : -(jlong)errno;
  }
  return (jlong)at;
#else
  (void)fd;
  (void)offset;
  (void)data;
  return -EINVAL;
#endif
}

/* close(fd): 0, or -errno. Not retried on EINTR: on Linux the descriptor is released either way. */
EXPORT JNIEXPORT jint JNICALL Java_org_smartssd_device_runtime_flash_NativeFiles_close0(JNIEnv *env, jclass cls,
                                                                                    jint fd) {
  (void)env;
  (void)cls;
  return close(fd) == 0 ? 0 : -errno;
}

/* Whether -error says the file system or the system cannot punch holes at all (not a passing failure). */
EXPORT JNIEXPORT jboolean JNICALL Java_org_smartssd_device_runtime_flash_NativeFiles_unsupported0(JNIEnv *env,
                                                                                              jclass cls,
                                                                                              jint error) {
  (void)env;
  (void)cls;
  return error == EOPNOTSUPP || error == ENOTSUP || error == ENOSYS ? JNI_TRUE : JNI_FALSE;
}

/* The system's text for an errno value, with its value: "Operation not supported (errno 95)". */
EXPORT JNIEXPORT jstring JNICALL Java_org_smartssd_device_runtime_flash_NativeFiles_describe0(JNIEnv *env, jclass cls,
                                                                                          jint error) {
  (void)cls;
  char text[256];
  char message[300];
  const char *s = text;
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
  s = strerror_r(error, text, sizeof text); /* the GNU variant: returns the text */
#else
  if (strerror_r(error, text, sizeof text) != 0) {
    text[0] = '\0';
  }
#endif
  if (s == NULL || s[0] == '\0') {
    s = "unknown error";
  }
  snprintf(message, sizeof message, "%s (errno %d)", s, (int)error); /* truncation is fine: it is for people */
  return (*env)->NewStringUTF(env, message);
}
