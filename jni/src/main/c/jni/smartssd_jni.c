/*
 * The JNI binding of libsmartssd for org.smartssd.jni.NativeConnection: thin on purpose. Java
 * encodes and decodes payloads; this file moves bytes and handles across JNI:
 *   - request payloads arrive as pieces, direct buffers passed by address (not copied) and heap
 *     arrays copied once into C memory for the duration of the send;
 *   - a READ's data goes from the socket straight into the caller's direct buffer (ssd_submitv
 *     with a destination);
 *   - replies come back as byte[] (the payload, or the UTF-8 message of a failure) and a long[]
 *     header (status, opcode, request id, modelled nanos, data length, nanos spent in C);
 *   - failures of the calls themselves are thrown as org.smartssd.jni.NativeException(code, bytes).
 */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "org_smartssd_jni_NativeConnection.h"
#include "smartssd.h"

#define MAX_PIECES 16

/* Slots of the header array; mirrored in NativeConnection. */
enum { H_STATUS = 0, H_OPCODE = 1, H_REQUEST_ID = 2, H_MODELLED = 3, H_DATA_LENGTH = 4, H_NATIVE_NANOS = 5, H_SLOTS = 6 };
/* What nextCompletion0 returns; mirrored in NativeConnection. */
enum { COMPLETED = 1, NONE_YET = 0, CLOSED = -1 };

static jclass native_exception_class;  /* global reference */
static jmethodID native_exception_init; /* (I[B)V */

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
  (void)reserved;
  JNIEnv *env;
  if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) {
    return JNI_ERR;
  }
  jclass local = (*env)->FindClass(env, "org/smartssd/jni/NativeException");
  if (local == NULL) {
    return JNI_ERR;
  }
  native_exception_class = (*env)->NewGlobalRef(env, local);
  (*env)->DeleteLocalRef(env, local);
  native_exception_init = (*env)->GetMethodID(env, native_exception_class, "<init>", "(I[B)V");
  if (native_exception_class == NULL || native_exception_init == NULL) {
    return JNI_ERR;
  }
  return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, void *reserved) {
  (void)reserved;
  JNIEnv *env;
  if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) == JNI_OK && native_exception_class != NULL) {
    (*env)->DeleteGlobalRef(env, native_exception_class);
    native_exception_class = NULL;
  }
}

/* A new byte[] holding len bytes (NULL with an OutOfMemoryError pending when it cannot be made). */
static jbyteArray bytes_of(JNIEnv *env, const void *data, size_t len) {
  jbyteArray array = (*env)->NewByteArray(env, (jsize)len);
  if (array != NULL && len > 0) {
    (*env)->SetByteArrayRegion(env, array, 0, (jsize)len, (const jbyte *)data);
  }
  return array;
}

static void throw_native(JNIEnv *env, int code, const char *message) {
  jbyteArray text = bytes_of(env, message, strlen(message));
  if (text == NULL) {
    return; /* OutOfMemoryError pending */
  }
  jobject e = (*env)->NewObject(env, native_exception_class, native_exception_init, (jint)code, text);
  if (e != NULL) {
    (*env)->Throw(env, (jthrowable)e);
  }
}

static ssd_client *client_of(jlong handle) {
  return (ssd_client *)(intptr_t)handle;
}

/* Fills the header from a reply and returns its payload, or its failure's message, as a byte[]. */
static jobject reply_to_java(JNIEnv *env, int status, ssd_reply *reply, const ssd_error *err,
                             jlongArray header, int64_t native_nanos) {
  jlong h[H_SLOTS];
  h[H_STATUS] = status;
  h[H_OPCODE] = reply->opcode;
  h[H_REQUEST_ID] = (jlong)reply->request_id;
  h[H_MODELLED] = (jlong)reply->modelled_nanos;
  h[H_DATA_LENGTH] = reply->data_len;
  h[H_NATIVE_NANOS] = native_nanos;
  (*env)->SetLongArrayRegion(env, header, 0, H_SLOTS, h);
  jobject result = NULL;
  if (status == SSD_OK) {
    if (reply->payload_len > 0) {
      result = bytes_of(env, reply->payload, reply->payload_len);
    }
  } else {
    result = bytes_of(env, err->message, strlen(err->message));
  }
  ssd_reply_free(reply);
  return result;
}

JNIEXPORT void JNICALL Java_org_smartssd_jni_NativeConnection_noop0(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
}

/* Zeroes memory that held the secret (a plain memset before free may be dropped as a dead store). */
static void wipe(void *p, size_t n) {
  volatile uint8_t *v = p;
  for (size_t i = 0; i < n; i++) {
    v[i] = 0;
  }
}

JNIEXPORT jlong JNICALL Java_org_smartssd_jni_NativeConnection_connect0(JNIEnv *env, jclass cls,
                                                                        jstring address,
                                                                        jint connect_timeout_ms,
                                                                        jint request_timeout_ms,
                                                                        jint max_frame_bytes,
                                                                        jbyteArray secret) {
  (void)cls;
  ssd_options options = ssd_options_default();
  options.connect_timeout_ms = connect_timeout_ms;
  options.request_timeout_ms = request_timeout_ms;
  options.max_frame_bytes = (uint32_t)max_frame_bytes;
  /* A copy in C memory, wiped after the handshake (the JVM may move the array's own bytes). */
  uint8_t *key = NULL;
  size_t key_len = 0;
  if (secret != NULL) {
    key_len = (size_t)(*env)->GetArrayLength(env, secret);
    key = malloc(key_len > 0 ? key_len : 1);
    if (key == NULL) {
      throw_native(env, SSD_E_NOMEM, "out of memory copying the secret");
      return 0;
    }
    (*env)->GetByteArrayRegion(env, secret, 0, (jsize)key_len, (jbyte *)key);
    options.secret = key;
    options.secret_len = key_len;
  }
  const char *text = (*env)->GetStringUTFChars(env, address, NULL);
  if (text == NULL) {
    wipe(key, key_len);
    free(key);
    return 0; /* OutOfMemoryError pending */
  }
  ssd_client *client = NULL;
  ssd_error err;
  int rc = ssd_connect(text, &options, &client, &err);
  (*env)->ReleaseStringUTFChars(env, address, text);
  if (key != NULL) {
    wipe(key, key_len);
    free(key);
  }
  if (rc != SSD_OK) {
    throw_native(env, rc, err.message);
    return 0;
  }
  return (jlong)(intptr_t)client;
}

JNIEXPORT jint JNICALL Java_org_smartssd_jni_NativeConnection_protocolVersion0(JNIEnv *env,
                                                                               jclass cls,
                                                                               jlong handle) {
  (void)env;
  (void)cls;
  return ssd_protocol_version(client_of(handle));
}

JNIEXPORT void JNICALL Java_org_smartssd_jni_NativeConnection_transferCounts0(JNIEnv *env,
                                                                              jclass cls,
                                                                              jlong handle,
                                                                              jlongArray out) {
  (void)cls;
  ssd_client *c = client_of(handle);
  jlong counts[2] = {(jlong)ssd_bytes_sent(c), (jlong)ssd_bytes_received(c)};
  (*env)->SetLongArrayRegion(env, out, 0, 2, counts);
}

JNIEXPORT void JNICALL Java_org_smartssd_jni_NativeConnection_disconnect0(JNIEnv *env, jclass cls,
                                                                          jlong handle) {
  (void)env;
  (void)cls;
  ssd_disconnect(client_of(handle));
}

JNIEXPORT void JNICALL Java_org_smartssd_jni_NativeConnection_close0(JNIEnv *env, jclass cls,
                                                                     jlong handle) {
  (void)env;
  (void)cls;
  ssd_close(client_of(handle));
}

JNIEXPORT jlong JNICALL Java_org_smartssd_jni_NativeConnection_submit0(
    JNIEnv *env, jclass cls, jlong handle, jint opcode, jobjectArray pieces, jintArray offsets,
    jintArray lengths, jint count, jobject dst, jint dst_offset, jint dst_length, jboolean queued,
    jlongArray header) {
  (void)cls;
  int64_t start = now_ns();
  if (count < 0 || count > MAX_PIECES) {
    throw_native(env, SSD_E_ARG, "a payload in more than 16 pieces");
    return 0;
  }
  jint offs[MAX_PIECES];
  jint lens[MAX_PIECES];
  (*env)->GetIntArrayRegion(env, offsets, 0, count, offs);
  (*env)->GetIntArrayRegion(env, lengths, 0, count, lens);
  if ((*env)->ExceptionCheck(env)) {
    return 0;
  }
  ssd_iovec iov[MAX_PIECES];
  void *copies[MAX_PIECES] = {0};
  jlong id = 0;
  int n = 0;
  for (; n < count; n++) {
    jobject piece = (*env)->GetObjectArrayElement(env, pieces, n);
    uint8_t *direct = piece == NULL ? NULL : (*env)->GetDirectBufferAddress(env, piece);
    if (direct != NULL) {
      iov[n] = (ssd_iovec){.base = direct + offs[n], .len = (size_t)lens[n]};
    } else if (piece != NULL) {
      copies[n] = malloc(lens[n] > 0 ? (size_t)lens[n] : 1);
      if (copies[n] == NULL) {
        (*env)->DeleteLocalRef(env, piece);
        throw_native(env, SSD_E_NOMEM, "out of memory copying a request's payload");
        goto done;
      }
      (*env)->GetByteArrayRegion(env, (jbyteArray)piece, offs[n], lens[n], copies[n]);
      iov[n] = (ssd_iovec){.base = copies[n], .len = (size_t)lens[n]};
    } else {
      throw_native(env, SSD_E_ARG, "a null payload piece");
      goto done;
    }
    (*env)->DeleteLocalRef(env, piece);
    if ((*env)->ExceptionCheck(env)) {
      goto done;
    }
  }
  uint8_t *target = NULL;
  if (dst != NULL) {
    target = (*env)->GetDirectBufferAddress(env, dst);
    if (target == NULL) {
      throw_native(env, SSD_E_ARG, "the destination of a READ is not a direct buffer");
      goto done;
    }
    target += dst_offset;
  }
  uint64_t request_id = 0;
  ssd_error err;
  int rc = ssd_submitv(client_of(handle), (uint16_t)opcode, iov, count, target,
                       (uint32_t)dst_length, queued ? SSD_SUBMIT_QUEUE : 0, &request_id, &err);
  if (rc != SSD_OK) {
    throw_native(env, rc, err.message);
    goto done;
  }
  id = (jlong)request_id;
  jlong spent = now_ns() - start;
  (*env)->SetLongArrayRegion(env, header, H_NATIVE_NANOS, 1, &spent);
done:
  for (int i = 0; i < MAX_PIECES; i++) {
    free(copies[i]);
  }
  return id;
}

JNIEXPORT jobject JNICALL Java_org_smartssd_jni_NativeConnection_await0(JNIEnv *env, jclass cls,
                                                                        jlong handle,
                                                                        jlong request_id,
                                                                        jint timeout_ms,
                                                                        jlongArray header) {
  (void)cls;
  int64_t start = now_ns();
  ssd_reply reply;
  memset(&reply, 0, sizeof reply);
  ssd_error err;
  int status = ssd_wait_for(client_of(handle), (uint64_t)request_id, timeout_ms, &reply, &err);
  if (status == SSD_E_AGAIN) { /* still pending: only the status and the time spent go back */
    jlong slots[2] = {SSD_E_AGAIN, now_ns() - start};
    (*env)->SetLongArrayRegion(env, header, H_STATUS, 1, &slots[0]);
    (*env)->SetLongArrayRegion(env, header, H_NATIVE_NANOS, 1, &slots[1]);
    return NULL;
  }
  reply.request_id = (uint64_t)request_id;
  return reply_to_java(env, status, &reply, &err, header, now_ns() - start);
}

JNIEXPORT jint JNICALL Java_org_smartssd_jni_NativeConnection_abandon0(JNIEnv *env, jclass cls,
                                                                      jlong handle,
                                                                      jlong request_id) {
  (void)env;
  (void)cls;
  ssd_error err;
  return ssd_abandon(client_of(handle), (uint64_t)request_id, &err);
}

JNIEXPORT jint JNICALL Java_org_smartssd_jni_NativeConnection_nextCompletion0(
    JNIEnv *env, jclass cls, jlong handle, jint timeout_ms, jlongArray header, jobjectArray out) {
  (void)cls;
  int64_t start = now_ns();
  ssd_reply reply;
  memset(&reply, 0, sizeof reply);
  ssd_error err;
  int status = ssd_next_completion(client_of(handle), timeout_ms, &reply, &err);
  if (reply.request_id == 0) { /* nothing completed: no request has id 0 */
    ssd_reply_free(&reply);
    return status == SSD_E_CLOSED ? CLOSED : NONE_YET;
  }
  jobject result = reply_to_java(env, status, &reply, &err, header, now_ns() - start);
  (*env)->SetObjectArrayElement(env, out, 0, result);
  return COMPLETED;
}

JNIEXPORT jstring JNICALL Java_org_smartssd_jni_NativeConnection_statusName0(JNIEnv *env,
                                                                             jclass cls,
                                                                             jint code) {
  (void)cls;
  return (*env)->NewStringUTF(env, ssd_status_name(code));
}
