/*
 * codec.h: request payload encoders (the part of each ssd_encode_* after the header), for the
 * typed calls, which hand payloads to ssd_submit.
 *
 * Each validates its arguments first (SSD_E_ARG with a message), then appends the payload to the
 * writer; the caller checks w->error afterwards.
 */
#ifndef SMARTSSD_CODEC_H
#define SMARTSSD_CODEC_H

#include "frame.h"

int ssd_payload_path(ssd_writer *w, const char *what, const char *path, ssd_error *err);
int ssd_payload_create(ssd_writer *w, const char *path, bool overwrite, bool create_parents,
                       ssd_error *err);
/* MKDIRS and CREATE as protocol `version` lays them out: with the permission from version 4 on. */
int ssd_payload_mkdirs(ssd_writer *w, const char *path, int permission, int version,
                       ssd_error *err);
int ssd_payload_create_permission(ssd_writer *w, const char *path, bool overwrite,
                                  bool create_parents, int permission, int version,
                                  ssd_error *err);
/* Version 4: IDENTIFY, SET_PERMISSION, SET_OWNER (NULL: ""), SET_TIMES. */
int ssd_payload_identify(ssd_writer *w, const char *user, const char *const *groups,
                         size_t n_groups, ssd_error *err);
int ssd_payload_set_permission(ssd_writer *w, const char *path, int permission, ssd_error *err);
int ssd_payload_set_owner(ssd_writer *w, const char *path, const char *owner, const char *group,
                          ssd_error *err);
int ssd_payload_set_times(ssd_writer *w, const char *path, uint64_t mtime_ms, uint64_t atime_ms,
                          ssd_error *err);
/* WRITE without its data: handle and the data's u32 length (the data follows). */
int ssd_payload_write_prefix(ssd_writer *w, uint64_t handle, uint32_t len, ssd_error *err);
void ssd_payload_u64(ssd_writer *w, uint64_t v);
int ssd_payload_read(ssd_writer *w, uint64_t object_id, uint64_t offset, uint32_t len,
                     ssd_error *err);
int ssd_payload_list(ssd_writer *w, const char *path, const char *start_after, uint32_t limit,
                     ssd_error *err);
int ssd_payload_rename(ssd_writer *w, const char *source, const char *destination,
                       ssd_error *err);
int ssd_payload_delete(ssd_writer *w, const char *path, bool recursive, ssd_error *err);
int ssd_payload_create_object(ssd_writer *w, const void *code, uint32_t code_len,
                              const char *class_name, const char *const *keys,
                              const char *const *values, size_t n_params, ssd_error *err);
int ssd_payload_execute_object(ssd_writer *w, uint64_t tasklet_id, const ssd_input_range *inputs,
                               size_t n_inputs, const char *const *keys,
                               const char *const *values, size_t n_options, ssd_error *err);
/* EXECUTE_OBJECT as protocol `version` lays it out: from version 5 on, the output object's path
 * (NULL or "": none) and permission after the options; before, an output path is SSD_E_ARG. */
int ssd_payload_execute_object_output(ssd_writer *w, uint64_t tasklet_id,
                                      const ssd_input_range *inputs, size_t n_inputs,
                                      const char *const *keys, const char *const *values,
                                      size_t n_options, const char *output_path,
                                      int output_permission, int version, ssd_error *err);
/* A `bytes` field: u32 n, then the n bytes (AUTH_CHALLENGE's nonce, AUTHENTICATE's proof). */
void ssd_payload_fixed_bytes(ssd_writer *w, const uint8_t *data, uint32_t n);
int ssd_payload_read_object(ssd_writer *w, uint64_t execution_id, uint32_t max_bytes,
                            ssd_error *err);

/* Turns a writer's sticky error into a message; SSD_OK when there is none. */
int ssd_writer_result(const ssd_writer *w, ssd_error *err);

#endif /* SMARTSSD_CODEC_H */
