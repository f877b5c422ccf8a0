/* client_internal.h: what the typed calls (calls.c) need of the client beyond the public API. */
#ifndef SMARTSSD_CLIENT_INTERNAL_H
#define SMARTSSD_CLIENT_INTERNAL_H

#include "internal.h"

/* ssd_submitv without flags and with its own timeout (the version handshake's). */
int ssd_submit_timeout(ssd_client *c, uint16_t opcode, const ssd_iovec *pieces, int n_pieces,
                       void *dst, uint32_t dst_cap, int timeout_ms, uint64_t *request_id,
                       ssd_error *err);

/* The client's max_frame_bytes option. */
uint32_t ssd_client_max_frame(const ssd_client *c);

#endif /* SMARTSSD_CLIENT_INTERNAL_H */
