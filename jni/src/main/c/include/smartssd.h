/*
 * smartssd.h: C client of the simulated Smart SSD's object command protocol (docs/PROTOCOL.md).
 *
 * Three layers, each usable on its own:
 *   - the client: a connection to one device, thread-safe, with pipelined requests
 *     (ssd_connect, ssd_submit, ssd_wait, ssd_next_completion, ssd_close);
 *   - typed synchronous calls, one per command (ssd_mkdirs, ssd_read, ssd_list, ...);
 *   - the codec: request frame encoders (ssd_encode_*) and response payload decoders
 *     (ssd_decode_*), which touch no socket.
 *
 * Conventions:
 *   - Functions return an int status: SSD_OK (0), a device status (1..17, as sent by the device),
 *     or a local error (negative SSD_E_*).
 *   - Every function taking an `ssd_error *err` fills it (when not NULL): code 0 and an empty
 *     message on success, else the code and a message. For a device status the message is the
 *     device's own; local errors name the device address (when there is one) and what happened.
 *   - Decoded structures own their memory; release each with its ssd_*_free function. Decoded
 *     strings are UTF-8 and NUL-terminated, with their byte length beside them (a protocol string
 *     may hold U+0000).
 *   - Strings passed in are NUL-terminated UTF-8; invalid UTF-8 or more than 65535 bytes is
 *     SSD_E_ARG.
 */
#ifndef SMARTSSD_H
#define SMARTSSD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SSD_API __attribute__((visibility("default")))
#else
#define SSD_API
#endif

/* ---------------------------------------------------------------------------------------------
 * Protocol constants
 * ------------------------------------------------------------------------------------------- */

#define SSD_MAGIC 0x53534450u /* "SSDP" */
#define SSD_HEADER_BYTES 32
#define SSD_FLAG_RESPONSE 0x0001u
#define SSD_MIN_VERSION 1 /* protocol versions this library speaks */
#define SSD_MAX_VERSION 6
#define SSD_CURRENT_VERSION 1 /* written when no version was negotiated: the request frame encoders */
#define SSD_DISK_USE_VERSION 2 /* the first version whose STATISTICS answer carries DiskUse */
#define SSD_ENERGY_VERSION 3   /* the first version whose STATISTICS answer carries DeviceEnergy */
/* The first version with users and permissions: ObjectStatus carries owner, group, permission and
 * access time, MKDIRS and CREATE a permission, and IDENTIFY and SET_* exist. */
#define SSD_PERMISSIONS_VERSION 4
#define SSD_PERMISSION_BITS 01777     /* the sticky bit and rwx for owner, group and others */
#define SSD_PERMISSION_UNKNOWN (-1)   /* an ObjectStatus from a device of version 3 or older */
#define SSD_DEFAULT_DIR_PERMISSION 0755  /* what MKDIRS gives in versions 1 to 3, and ssd_mkdirs */
#define SSD_DEFAULT_FILE_PERMISSION 0644 /* what CREATE gives in versions 1 to 3, and ssd_create */
#define SSD_KEEP_TIME UINT64_MAX      /* SET_TIMES: leave this time as it is */
/* The first version with output objects: EXECUTE_OBJECT names an object for the execution to write
 * on flash (and its permission), and ExecutionStatistics ends with what it wrote. */
#define SSD_OUTPUT_VERSION 5
/* The first version whose ExecutionStatistics end with the lanes' memory: the most a lane's function
 * held, and the pages lanes read again to swap. */
#define SSD_LANE_MEMORY_VERSION 6
/* The first version whose READ_OBJECT answers end with a bool and, when it is 1, the execution's
 * WorkProfile (PROTOCOL.md, "Profiles"). The codec reads it (ssd_decode_execution_progress with
 * version 7); the client negotiates at most SSD_MAX_VERSION and never asks for a profile. */
#define SSD_PROFILE_VERSION 7
/* The first version whose ExecutionStatistics end with the counted library reads (the data reads
 * inside the counted library calls) and whose profile nodes carry them as a fifth count. The codec
 * reads it (ssd_decode_execution_progress with version 8); the client negotiates at most
 * SSD_MAX_VERSION. */
#define SSD_LIBRARY_READS_VERSION 8
#define SSD_UNKNOWN_BYTES UINT64_MAX /* ssd_disk_use.allocated_bytes of a device that cannot tell */
#define SSD_TO_END UINT64_MAX /* ssd_input_range.length: to the end of the object */
#define SSD_MERGE_LANE (-1)   /* ssd_tasklet_result.lane of the controller core's merge */

/* Authentication (PROTOCOL.md, "Authentication"). */
#define SSD_NONCE_BYTES 32        /* each side's nonce */
#define SSD_PROOF_BYTES 32        /* a proof: an HMAC-SHA256 */
#define SSD_SECRET_MIN_BYTES 16   /* the shortest secret accepted */
#define SSD_SECRET_MAX_BYTES 4096 /* the longest secret file read (without trailing white space) */
#define SSD_SECRET_FILE_ENV "SMARTSSD_SECRET_FILE" /* names the secret file when the options do not */

/* Device statuses (0..17, as on the wire) and local errors (negative). */
enum ssd_status {
  SSD_OK = 0,
  SSD_NOT_FOUND = 1,
  SSD_ALREADY_EXISTS = 2,
  SSD_PARENT_NOT_DIRECTORY = 3,
  SSD_DIRECTORY_NOT_EMPTY = 4,
  SSD_IS_DIRECTORY = 5,
  SSD_PAST_END = 6,
  SSD_BAD_REQUEST = 7,
  SSD_OUT_OF_SPACE = 8,
  SSD_BUSY = 9,
  SSD_INTERNAL = 10,
  SSD_UNSUPPORTED_VERSION = 11,
  SSD_UNKNOWN_OPCODE = 12,
  SSD_FRAME_TOO_LARGE = 13,
  SSD_LEASE_CONFLICT = 14,
  SSD_BAD_HANDLE = 15,
  /* The device requires hosts to authenticate and this connection has not (no secret, or the
   * wrong one); also ssd_connect's status when the device's own proof is wrong. */
  SSD_AUTH_REQUIRED = 16,
  /* The device read a page whose checksum failed; the message names the object and the byte offset
   * ("'PATH' is corrupt at offset N: ..."). The bytes are lost and never returned. */
  SSD_CORRUPT = 17,
  SSD_PERMISSION_DENIED = 18, /* the connection's user may not do this (PROTOCOL.md, "Users and permissions") */

  SSD_E_IO = -1,       /* socket error (including failing to connect) */
  SSD_E_CLOSED = -2,   /* the peer closed the connection (also mid-frame), or the client was closed */
  SSD_E_TIMEOUT = -3,  /* no reply (or connection) in time */
  SSD_E_PROTOCOL = -4, /* bad magic or flags, malformed payload, oversized frame, unknown request id */
  SSD_E_NOMEM = -5,    /* out of memory */
  SSD_E_ARG = -6,      /* bad argument (address syntax, string not UTF-8, value out of range, ...) */
  SSD_E_VERSION = -7,  /* the device speaks no protocol version this library does */
  SSD_E_INTERRUPTED = -8, /* the caller gave the request up (ssd_abandon) */
  SSD_E_AGAIN = -9,    /* ssd_wait_for: no reply yet; the request is still pending */
  SSD_E_SECRET = -10   /* the client's secret cannot be used: its file is missing, not a regular
                          file, open to others than its owner, or too short or long */
};

/* Command codes (PROTOCOL.md, "Opcodes"). */
enum ssd_opcode {
  SSD_OP_API_VERSIONS = 0x0001,
  SSD_OP_DEVICE_INFO = 0x0002,
  SSD_OP_STATISTICS = 0x0003,
  SSD_OP_SHUTDOWN = 0x0004,
  SSD_OP_AUTH_CHALLENGE = 0x0005,
  SSD_OP_AUTHENTICATE = 0x0006,
  SSD_OP_IDENTIFY = 0x0007, /* version 4 on */
  SSD_OP_MKDIRS = 0x0010,
  SSD_OP_CREATE = 0x0011,
  SSD_OP_APPEND = 0x0012,
  SSD_OP_WRITE = 0x0013,
  SSD_OP_FLUSH = 0x0014,
  SSD_OP_SYNC = 0x0015,
  SSD_OP_CLOSE = 0x0016,
  SSD_OP_OPEN = 0x0017,
  SSD_OP_READ = 0x0018,
  SSD_OP_STATUS = 0x0019,
  SSD_OP_LIST = 0x001A,
  SSD_OP_RENAME = 0x001B,
  SSD_OP_DELETE = 0x001C,
  SSD_OP_SET_PERMISSION = 0x001D, /* version 4 on */
  SSD_OP_SET_OWNER = 0x001E,      /* version 4 on */
  SSD_OP_SET_TIMES = 0x001F,      /* version 4 on */
  SSD_OP_CREATE_OBJECT = 0x0020,
  SSD_OP_EXECUTE_OBJECT = 0x0021,
  SSD_OP_READ_OBJECT = 0x0022,
  SSD_OP_CANCEL = 0x0023,
  SSD_OP_REMOVE_OBJECT = 0x0024
};

/* Where an execution stands (READ_OBJECT). */
enum ssd_execution_state {
  SSD_EXEC_RUNNING = 0,
  SSD_EXEC_DONE = 1,
  SSD_EXEC_FAILED = 2,
  SSD_EXEC_CANCELLED = 3
};

/* What went wrong. */
typedef struct ssd_error {
  int code;
  char message[512]; /* UTF-8, NUL-terminated, cut at a character boundary when too long */
} ssd_error;

/* "NOT_FOUND", "BAD_HANDLE", ... for device statuses, "IO_ERROR", "TIMEOUT", ... for local
 * errors, "UNKNOWN" otherwise. Never NULL. */
SSD_API const char *ssd_status_name(int code);
/* "READ", "CREATE_OBJECT", ...; "UNKNOWN" for a code the protocol does not define. */
SSD_API const char *ssd_opcode_name(unsigned opcode);

/* ---------------------------------------------------------------------------------------------
 * Decoded values
 * ------------------------------------------------------------------------------------------- */

/* A protocol string: `s` is NUL-terminated, `len` its length in bytes. */
typedef struct ssd_str {
  char *s;
  uint16_t len;
} ssd_str;

typedef struct ssd_kv {
  ssd_str key;
  ssd_str value;
} ssd_kv;

typedef struct ssd_object_status {
  ssd_str path;
  bool directory;
  uint64_t length; /* below 2^63 */
  uint64_t mtime_ms; /* ms since the epoch, as sent (Java's long: may be "negative") */
  uint64_t object_id;
  /* From a device of protocol version 4 on; from an older one owner and group are empty,
   * permission is SSD_PERMISSION_UNKNOWN and atime_ms is mtime_ms. */
  ssd_str owner;
  ssd_str group;
  int permission; /* 0..SSD_PERMISSION_BITS, or SSD_PERMISSION_UNKNOWN */
  uint64_t atime_ms; /* last access, ms since the epoch */
  void *mem_; /* owned memory (NULL inside a listing); release with ssd_object_status_free */
} ssd_object_status;

typedef struct ssd_geometry {
  uint32_t channels, ways_per_channel, blocks_per_way, pages_per_block, page_size_bytes,
      stripe_unit_pages;
} ssd_geometry;

/* DEVICE_INFO. A struct tag without a typedef: ssd_device_info is also the function's name. */
struct ssd_device_info {
  ssd_str name;
  ssd_str profile;
  ssd_geometry geometry;
  uint64_t capacity_bytes;
  uint64_t free_bytes;
  bool paced;
  uint32_t n_params;
  ssd_kv *params; /* sorted by key (UTF-16 code unit order, as Java's String.compareTo) */
  void *mem_;
};

typedef struct ssd_channel_statistics {
  uint64_t pages_read, pages_programmed, blocks_erased, busy_nanos;
} ssd_channel_statistics;

/* DiskUse, in STATISTICS from protocol version 2 on: what the device's flash files take on its
 * host's disk, against the live data they hold. */
typedef struct ssd_disk_use {
  bool reclaiming;          /* erased and dead flash pages give their disk space back */
  ssd_str reclaim_note;     /* why not, when not (empty while reclaiming) */
  uint64_t allocated_bytes; /* what the flash files take on disk; SSD_UNKNOWN_BYTES: cannot tell */
  uint64_t file_bytes;      /* the files' (sparse) size: the raw flash capacity */
  uint64_t live_bytes;      /* flash pages holding live data, in bytes */
  uint64_t punched_bytes;   /* bytes handed back since the device started */
  uint64_t holes_punched;   /* holes punched since the device started */
} ssd_disk_use;

/* DeviceEnergy, in STATISTICS from protocol version 3 on: the device's modelled energy since it
 * started, above its idle power, by component (idle power is drawn over a run's time, which the
 * device does not know). */
typedef struct ssd_device_energy {
  uint64_t core_busy_nanos;          /* modelled time its cores computed, summed over the cores */
  uint64_t core_nanojoules;          /* what they added to the idle power */
  uint64_t flash_read_nanojoules;    /* pages read, for the host and for executions */
  uint64_t flash_program_nanojoules; /* pages programmed */
  uint64_t flash_erase_nanojoules;   /* blocks erased */
  uint64_t link_nanojoules;          /* bytes across the host link, both ways */
} ssd_device_energy;

typedef struct ssd_device_statistics {
  uint64_t uptime_nanos;
  uint64_t commands;
  uint64_t host_bytes_in;
  uint64_t host_bytes_out;
  uint64_t link_busy_nanos;
  uint64_t modelled_horizon_nanos;
  uint64_t gc_pages_moved;
  uint64_t modelled_internal_delay_nanos;
  uint64_t commands_delayed_by_internal;
  uint64_t answers_behind_model_nanos;
  uint64_t modelled_command_nanos;
  uint64_t modelled_execution_nanos;
  uint32_t n_channels;
  ssd_channel_statistics *channels;
  bool has_disk_use; /* a version 2 answer or later: disk_use is set */
  ssd_disk_use disk_use;
  bool has_energy; /* a version 3 answer or later: energy is set */
  ssd_device_energy energy;
  void *mem_;
} ssd_device_statistics;

typedef struct ssd_listing {
  uint32_t n_entries;
  ssd_object_status *entries; /* sorted by name */
  bool more;                  /* more entries follow: list again after the last name */
  void *mem_;
} ssd_listing;

/* CREATE and APPEND. */
typedef struct ssd_opened {
  uint64_t handle;
  uint64_t object_id;
  uint64_t length;
} ssd_opened;

/* ExecutionStatistics: the lane count and the 24 counters in PROTOCOL.md order, then the 3 of
 * protocol version 5. */
typedef struct ssd_execution_stats {
  uint32_t lanes; /* below 2^31 */
  uint64_t bytes_scanned;
  uint64_t pages_read;
  uint64_t records;
  uint64_t result_records;
  uint64_t result_bytes;
  uint64_t wall_nanos;
  uint64_t lane_cpu_nanos;
  uint64_t modelled_nanos;
  uint64_t modelled_read_nanos;
  uint64_t modelled_compute_nanos;
  uint64_t modelled_merge_nanos;
  uint64_t modelled_transfer_nanos;
  uint64_t modelled_device_microjoules;
  uint64_t modelled_host_microjoules;
  uint64_t counted_ops;
  uint64_t counted_memory_accesses;
  uint64_t counted_library_calls;
  uint64_t counted_bulk_bytes;
  uint64_t modelled_host_delay_nanos;
  uint64_t behind_model_nanos;
  uint64_t counted_tail_ops;
  uint64_t counted_tail_memory_accesses;
  uint64_t counted_tail_library_calls;
  uint64_t counted_tail_bulk_bytes;
  /* From a device of protocol version 5 (SSD_OUTPUT_VERSION) on; 0 from an older one, and for an
   * execution without an output object. */
  uint64_t output_bytes;         /* bytes written to the output object on flash */
  uint64_t pages_programmed;     /* flash pages programmed for it (its last, partial page and
                                    garbage collection's moves on the way included) */
  uint64_t modelled_write_nanos; /* modelled time it added after the processing ended: its last
                                    programs and its commit */
  /* From a device of protocol version 6 (SSD_LANE_MEMORY_VERSION) on; 0 from an older one. */
  uint64_t lane_state_bytes; /* the most any lane's function said it held (the iSSD's M(f)) */
  uint64_t swap_pages_read;  /* of pages_read, those lanes read again because their function held
                                more than a lane's memory (the iSSD's swap, Eq. 9) */
  /* From a device of protocol version 8 (SSD_LIBRARY_READS_VERSION) on; 0 from an older one. */
  uint64_t counted_library_reads;      /* data reads inside the counted library calls */
  uint64_t counted_tail_library_reads; /* of those, the ones after the lanes' last read */
} ssd_execution_stats;

typedef struct ssd_tasklet_result {
  int lane; /* 0..65534, or SSD_MERGE_LANE (-1) for the controller core's merge */
  const uint8_t *data;
  uint32_t len;
} ssd_tasklet_result;

/* READ_OBJECT. */
typedef struct ssd_execution_progress {
  int state; /* enum ssd_execution_state */
  ssd_str message;
  ssd_execution_stats stats;
  uint32_t n_results;
  ssd_tasklet_result *results;
  bool finished; /* terminal and every result delivered: do not poll again */
  /* Version 7: the execution's counted work by call path, as its bytes (a WorkProfile, checked:
   * methods valid UTF-8, each node after its parent, methods in range); NULL and 0 when the
   * answer carries none. */
  const uint8_t *profile;
  uint32_t profile_len;
  void *mem_;
} ssd_execution_progress;

/* An input of EXECUTE_OBJECT: offset below 2^63, length below 2^63 or SSD_TO_END. */
typedef struct ssd_input_range {
  const char *path;
  uint64_t offset;
  uint64_t length;
} ssd_input_range;

SSD_API void ssd_object_status_free(ssd_object_status *status);
SSD_API void ssd_device_info_free(struct ssd_device_info *info);
SSD_API void ssd_device_statistics_free(ssd_device_statistics *stats);
SSD_API void ssd_listing_free(ssd_listing *listing);
SSD_API void ssd_execution_progress_free(ssd_execution_progress *progress);

/* ---------------------------------------------------------------------------------------------
 * Client
 * ------------------------------------------------------------------------------------------- */

typedef struct ssd_client ssd_client;

typedef struct ssd_options {
  int connect_timeout_ms; /* connection and version handshake; > 0 */
  int request_timeout_ms; /* each reply, counted from its submission; > 0 */
  /* The largest payload (header not counted) accepted in a reply and sent in a request:
   * 1024..2^31-1. ssd_read asks for no more than fits; ssd_write splits writes to fit it and
   * the device's default limit (64 MiB). Requests given to ssd_submit must also fit the
   * device's own limit, or it answers FRAME_TOO_LARGE and closes the connection. */
  uint32_t max_frame_bytes;
  /*
   * The device's secret, for a device that requires hosts to authenticate (PROTOCOL.md,
   * "Authentication"); give at most one of the two:
   *   - `secret`, `secret_len` bytes (at least SSD_SECRET_MIN_BYTES), used as they are: the
   *     content of the device's secret file without its trailing white space;
   *   - `secret_file`, the path of the device's secret file, read as the device reads it: a
   *     regular file (not a symbolic link) with no permission for group or others, of at most
   *     SSD_SECRET_MAX_BYTES bytes; the secret is its content without trailing spaces, tabs, CRs
   *     and LFs, at least SSD_SECRET_MIN_BYTES of it.
   * With neither (NULL or an empty secret_file; ssd_options_default leaves them NULL), the file
   * named by the environment variable SMARTSSD_SECRET_FILE is read, when it is set and not empty;
   * else the client has no secret. A secret file is read by ssd_connect before it connects: a bad one is SSD_E_SECRET,
   * whether the device requires authentication or not. The client keeps no reference to these
   * and no copy of the secret once ssd_connect returns.
   */
  const void *secret;
  size_t secret_len;
  const char *secret_file;
  /*
   * Who the client's user is (PROTOCOL.md, "Users and permissions"): with `user` non-NULL and not
   * empty, ssd_connect sends IDENTIFY (the user, then the n_groups names of `groups`) once the
   * version is negotiated and the client authenticated, to a device of version 4 or later. The
   * device checks every command against it; without it the device serves the connection as its
   * own user. ssd_options_default leaves them NULL; the client keeps no reference to them.
   */
  const char *user;
  const char *const *groups;
  size_t n_groups;
} ssd_options;

/* 5000 ms, 30000 ms, 64 MiB + 4096, no secret (SMARTSSD_SECRET_FILE, if set, names it). */
SSD_API ssd_options ssd_options_default(void);

/*
 * Connects to `address`: "host:port", "[ipv6]:port" or "unix:/absolute/path"; `opt` may be NULL
 * for the defaults. Before returning it negotiates the protocol version (API_VERSIONS), then asks
 * the device whether it requires hosts to authenticate (AUTH_CHALLENGE, with a fresh random
 * nonce) and, when it does, proves the client holds the secret (AUTHENTICATE) and checks the
 * device's proof in turn, in constant time. Both exchanges count against connect_timeout_ms.
 * A device that does not require authentication is used as it is, even when the client has a
 * secret (it then has not proved who it is).
 * Errors: SSD_E_ARG (address or options), SSD_E_SECRET (the secret file: the message names it
 * and what is wrong), SSD_E_IO, SSD_E_TIMEOUT, SSD_E_VERSION, SSD_E_NOMEM; SSD_AUTH_REQUIRED
 * when the device requires authentication and the client has no secret (the message says to set
 * SMARTSSD_SECRET_FILE), when the device refused the proof (its message, and which secret was
 * used), or when the device's own proof is wrong (it does not hold the secret); or whatever else
 * the handshake met. On failure the connection is closed.
 */
SSD_API int ssd_connect(const char *address, const ssd_options *opt, ssd_client **out,
                        ssd_error *err);

/*
 * Closes the connection, fails outstanding requests with SSD_E_CLOSED, joins the receiver thread
 * and frees the client. Safe on NULL. Threads blocked in ssd_wait or ssd_next_completion when it
 * starts return SSD_E_CLOSED, and ssd_close waits for them to leave; no call on the client may
 * start once ssd_close has started.
 */
SSD_API void ssd_close(ssd_client *client);

/*
 * Closes the connection but keeps the client valid: outstanding requests complete with
 * SSD_E_CLOSED, later submits fail with it, and ssd_next_completion drains the queue and then
 * answers SSD_E_CLOSED. Idempotent. ssd_close still has to be called.
 */
SSD_API void ssd_disconnect(ssd_client *client);

/* The device's address as given to ssd_connect (normalized: "host:port", "[v6]:port", "unix:/p"). */
SSD_API const char *ssd_address(const ssd_client *client);
/* The negotiated protocol version. */
SSD_API int ssd_protocol_version(const ssd_client *client);
/* Sum of the modelled nanos of every reply received so far. */
SSD_API uint64_t ssd_modelled_nanos_total(const ssd_client *client);
/*
 * Bytes this client has written to its socket and read from it since it connected: whole frames,
 * 32-byte headers included, the handshake's too. A request's bytes are counted by the time the
 * submit that sent it returns, a reply's before its request completes. Safe from any thread.
 */
SSD_API uint64_t ssd_bytes_sent(const ssd_client *client);
SSD_API uint64_t ssd_bytes_received(const ssd_client *client);

/* ---------------------------------------------------------------------------------------------
 * Generic requests (pipelined)
 * ------------------------------------------------------------------------------------------- */

/* ssd_submit flag: the completion goes to the client's completion queue (ssd_next_completion)
 * instead of being waited for with ssd_wait. */
#define SSD_SUBMIT_QUEUE 1

typedef struct ssd_reply {
  int status; /* SSD_OK, a device status, or a local error */
  uint16_t opcode;
  uint64_t request_id;
  uint64_t modelled_nanos;
  uint8_t *payload;     /* the OK reply's payload (malloc'd, owned; NULL when empty or not OK) */
  uint32_t payload_len;
  uint32_t data_len;    /* bytes placed in dst by a READ submitted with one */
} ssd_reply;

/*
 * Sends a request with the payload `payload` (`len` bytes, already encoded; see the codec's
 * payload layout in PROTOCOL.md) and returns its id in *request_id at once.
 *
 * With `dst` non-NULL the request must be a READ: the data of its OK reply is received straight
 * from the socket into dst, which must stay valid until the request is reported; more than
 * dst_cap bytes is SSD_E_PROTOCOL for that request (the connection goes on).
 *
 * When it returns SSD_OK the request's outcome, whatever it is (reply, timeout, lost connection),
 * is reported exactly once: by ssd_wait, or with SSD_SUBMIT_QUEUE in `flags` by
 * ssd_next_completion. Every request submitted without the flag must be waited for. A non-zero
 * return means nothing was submitted (and nothing will be reported).
 */
SSD_API int ssd_submit(ssd_client *client, uint16_t opcode, const void *payload, uint32_t len,
                       void *dst, uint32_t dst_cap, int flags, uint64_t *request_id,
                       ssd_error *err);

/* A piece of a payload, for ssd_submitv (sent in order without being copied). */
typedef struct ssd_iovec {
  const void *base;
  size_t len;
} ssd_iovec;

/* As ssd_submit, with the payload in up to 16 pieces (e.g. a WRITE's fields, then its data). */
SSD_API int ssd_submitv(ssd_client *client, uint16_t opcode, const ssd_iovec *pieces, int n_pieces,
                        void *dst, uint32_t dst_cap, int flags, uint64_t *request_id,
                        ssd_error *err);

/*
 * Waits for the reply to a request submitted without SSD_SUBMIT_QUEUE, until its request timeout
 * (counted from submission). Returns its status and fills `out` (which may be NULL: the reply is
 * then dropped). For a device status err->message is the device's message. A request that times
 * out is forgotten: a late reply is read and dropped, never written to its dst. (When the reply
 * was already being received into dst, the connection is closed instead, so that dst is not
 * written after the timeout.) SSD_E_ARG for an id with nothing to wait for.
 */
SSD_API int ssd_wait(ssd_client *client, uint64_t request_id, ssd_reply *out, ssd_error *err);

/*
 * As ssd_wait, but returns SSD_E_AGAIN when no outcome comes within timeout_ms (0: do not wait),
 * and the request stays pending: wait for it again, or give it up with ssd_abandon. Lets a caller
 * wait in slices and act between them (a JVM thread checking whether it was interrupted).
 */
SSD_API int ssd_wait_for(ssd_client *client, uint64_t request_id, int timeout_ms, ssd_reply *out,
                         ssd_error *err);

/*
 * Gives up a request submitted without SSD_SUBMIT_QUEUE, as if its timeout had come now, with
 * SSD_E_INTERRUPTED: its reply, if it has come, is dropped; a late one is read and dropped, never
 * written to its dst; when the reply is being received into dst, the connection is closed (as for a
 * timeout) and this returns once the receiver has let go of dst. Returns SSD_OK once the request is
 * forgotten (whatever its outcome would have been), SSD_E_ARG for an id with nothing to wait for.
 */
SSD_API int ssd_abandon(ssd_client *client, uint64_t request_id, ssd_error *err);

/*
 * The next completed SSD_SUBMIT_QUEUE request, in any order: returns its status and fills `out`
 * (out->request_id says which). Queued requests past their timeout complete with SSD_E_TIMEOUT.
 * SSD_E_TIMEOUT when none completes within timeout_ms (negative: no limit; 0: do not wait);
 * SSD_E_CLOSED once the connection is closed or lost and every queued request was reported.
 */
SSD_API int ssd_next_completion(ssd_client *client, int timeout_ms, ssd_reply *out,
                                ssd_error *err);

/* Frees the reply's payload. Safe on NULL and on a zeroed reply. */
SSD_API void ssd_reply_free(ssd_reply *reply);

/* ---------------------------------------------------------------------------------------------
 * Typed synchronous calls: one request, waited for. Each returns the status (SSD_OK, a device
 * status or a local error), fills `err`, and stores the reply's modelled nanos in *nanos when
 * `nanos` is not NULL (0 when there was no reply). Outputs are filled only on SSD_OK.
 * ------------------------------------------------------------------------------------------- */

SSD_API int ssd_device_info(ssd_client *c, struct ssd_device_info *out, uint64_t *nanos,
                            ssd_error *err);
SSD_API int ssd_statistics(ssd_client *c, ssd_device_statistics *out, uint64_t *nanos,
                           ssd_error *err);
/* The device stops serving and exits after answering. */
SSD_API int ssd_shutdown(ssd_client *c, uint64_t *nanos, ssd_error *err);

/* MKDIRS with SSD_DEFAULT_DIR_PERMISSION. */
SSD_API int ssd_mkdirs(ssd_client *c, const char *path, uint64_t *nanos, ssd_error *err);
/* MKDIRS with `permission` (at most SSD_PERMISSION_BITS; the caller applies its umask); parents
 * made on the way get it with the owner's write and execute. A device of version 3 or older gives
 * SSD_DEFAULT_DIR_PERMISSION whatever is asked. */
SSD_API int ssd_mkdirs_permission(ssd_client *c, const char *path, int permission, uint64_t *nanos,
                                  ssd_error *err);
/* CREATE with SSD_DEFAULT_FILE_PERMISSION. */
SSD_API int ssd_create(ssd_client *c, const char *path, bool overwrite, bool create_parents,
                       ssd_opened *out, uint64_t *nanos, ssd_error *err);
/* CREATE with `permission`, as ssd_mkdirs_permission. */
SSD_API int ssd_create_permission(ssd_client *c, const char *path, bool overwrite,
                                  bool create_parents, int permission, ssd_opened *out,
                                  uint64_t *nanos, ssd_error *err);
/* SET_PERMISSION, SET_OWNER (an empty or NULL owner or group is left as it is) and SET_TIMES
 * (SSD_KEEP_TIME leaves one as it is): a device of version 3 or older cannot, and the call is
 * SSD_E_VERSION without sending anything. */
SSD_API int ssd_set_permission(ssd_client *c, const char *path, int permission, uint64_t *nanos,
                               ssd_error *err);
SSD_API int ssd_set_owner(ssd_client *c, const char *path, const char *owner, const char *group,
                          uint64_t *nanos, ssd_error *err);
SSD_API int ssd_set_times(ssd_client *c, const char *path, uint64_t mtime_ms, uint64_t atime_ms,
                          uint64_t *nanos, ssd_error *err);
SSD_API int ssd_append(ssd_client *c, const char *path, ssd_opened *out, uint64_t *nanos,
                       ssd_error *err);
/* Appends `len` bytes, in several WRITEs one after the other when they do not fit one frame;
 * *length (may be NULL) is the object's length after the last one, *nanos their sum. */
SSD_API int ssd_write(ssd_client *c, uint64_t handle, const void *data, size_t len,
                      uint64_t *length, uint64_t *nanos, ssd_error *err);
SSD_API int ssd_flush(ssd_client *c, uint64_t handle, uint64_t *length, uint64_t *nanos,
                      ssd_error *err);
SSD_API int ssd_sync(ssd_client *c, uint64_t handle, uint64_t *length, uint64_t *nanos,
                     ssd_error *err);
SSD_API int ssd_close_handle(ssd_client *c, uint64_t handle, uint64_t *length, uint64_t *nanos,
                             ssd_error *err);
SSD_API int ssd_open(ssd_client *c, const char *path, ssd_object_status *out, uint64_t *nanos,
                     ssd_error *err);
/* Reads up to `cap` bytes (fewer when the frame limit is lower) at `offset` straight into dst;
 * *n_read is 0 at the end of the object. */
SSD_API int ssd_read(ssd_client *c, uint64_t object_id, uint64_t offset, void *dst, uint32_t cap,
                     uint32_t *n_read, uint64_t *nanos, ssd_error *err);
SSD_API int ssd_status(ssd_client *c, const char *path, ssd_object_status *out, uint64_t *nanos,
                       ssd_error *err);
/* One page of at most `limit` entries after the name `start_after` ("" or NULL: from the start). */
SSD_API int ssd_list(ssd_client *c, const char *path, const char *start_after, uint32_t limit,
                     ssd_listing *out, uint64_t *nanos, ssd_error *err);
SSD_API int ssd_rename(ssd_client *c, const char *source, const char *destination,
                       uint64_t *nanos, ssd_error *err);
SSD_API int ssd_delete(ssd_client *c, const char *path, bool recursive, uint64_t *nanos,
                       ssd_error *err);
/* Installs a tasklet: `code` is a jar (code_len 0: a tasklet built into the device); the
 * parameters are keys[i] = values[i], sent sorted by key (a key given twice is SSD_E_ARG). */
SSD_API int ssd_create_object(ssd_client *c, const void *code, uint32_t code_len,
                              const char *class_name, const char *const *keys,
                              const char *const *values, size_t n_params, uint64_t *tasklet_id,
                              uint64_t *nanos, ssd_error *err);
/* Starts an execution whose results all go to the host (no output object), at every version. */
SSD_API int ssd_execute_object(ssd_client *c, uint64_t tasklet_id, const ssd_input_range *inputs,
                               size_t n_inputs, const char *const *keys,
                               const char *const *values, size_t n_options,
                               uint64_t *execution_id, uint64_t *nanos, ssd_error *err);
/*
 * Starts an execution that writes an output object on the device's flash (EXECUTE_OBJECT of
 * protocol version 5): the tasklet writes it, and it appears at `output_path`, complete and durable,
 * when the execution is done (one that fails or is cancelled leaves nothing there). It is made as
 * CREATE makes a file, by the connection's user, with `output_permission` (at most
 * SSD_PERMISSION_BITS; parents made as needed); it must not exist (SSD_ALREADY_EXISTS).
 * `output_path` must name an object (NULL or "" is SSD_E_ARG). A device of version 4 or older
 * cannot, and the call is SSD_E_VERSION without sending anything.
 */
SSD_API int ssd_execute_object_output(ssd_client *c, uint64_t tasklet_id,
                                      const ssd_input_range *inputs, size_t n_inputs,
                                      const char *const *keys, const char *const *values,
                                      size_t n_options, const char *output_path,
                                      int output_permission, uint64_t *execution_id,
                                      uint64_t *nanos, ssd_error *err);
/* Polls an execution; max_bytes is lowered to what fits the frame limit. */
SSD_API int ssd_read_object(ssd_client *c, uint64_t execution_id, uint32_t max_bytes,
                            ssd_execution_progress *out, uint64_t *nanos, ssd_error *err);
SSD_API int ssd_cancel(ssd_client *c, uint64_t execution_id, uint64_t *nanos, ssd_error *err);
SSD_API int ssd_remove_object(ssd_client *c, uint64_t tasklet_id, uint64_t *nanos,
                              ssd_error *err);

/* ---------------------------------------------------------------------------------------------
 * Codec: frames and payloads, no I/O
 * ------------------------------------------------------------------------------------------- */

typedef struct ssd_header {
  uint16_t version;
  uint16_t opcode;
  uint16_t flags;
  uint16_t status;
  uint32_t payload_len;
  uint64_t request_id;
  uint64_t modelled_nanos;
} ssd_header;

/* Writes the 32 header bytes (magic first, big-endian). */
SSD_API void ssd_header_encode(const ssd_header *h, uint8_t out[SSD_HEADER_BYTES]);
/* Reads a header from `len` bytes: SSD_E_PROTOCOL when fewer than 32 or the magic is wrong. */
SSD_API int ssd_header_decode(const void *buf, size_t len, ssd_header *out, ssd_error *err);
/* Checks a received response header: the flags are exactly the response flag and the payload
 * is at most max_payload bytes; SSD_E_PROTOCOL otherwise, as the stream cannot go on. (The
 * status is not checked here: an unknown status fails its request only, the frame being whole.) */
SSD_API int ssd_header_check_response(const ssd_header *h, uint32_t max_payload, ssd_error *err);
/* Splits a whole response frame held in memory: the header (decoded and checked as above) and
 * exactly payload_len bytes after it (fewer or more is SSD_E_PROTOCOL). *payload points into buf. */
SSD_API int ssd_frame_parse(const void *buf, size_t len, uint32_t max_payload, ssd_header *h,
                            const uint8_t **payload, ssd_error *err);

/*
 * A buffer frames are encoded into: caller memory of fixed size (ssd_buffer_fixed), or memory
 * the library allocates and grows (ssd_buffer_alloc; release with ssd_buffer_free). Encoders
 * append a whole frame after `len` bytes; on failure `len` is left as it was. When a fixed buffer
 * is too small the encoder answers SSD_E_ARG and sets `needed` to the bytes the frame required.
 */
typedef struct ssd_buffer {
  uint8_t *data;
  size_t len;
  size_t cap;
  size_t needed;
  bool growable; /* may be reallocated */
  bool heap;     /* data was allocated by the library */
} ssd_buffer;

SSD_API void ssd_buffer_fixed(ssd_buffer *b, void *mem, size_t cap);
SSD_API void ssd_buffer_alloc(ssd_buffer *b);
SSD_API void ssd_buffer_free(ssd_buffer *b);

/* Request frame encoders: version SSD_CURRENT_VERSION (requests are the same in every version),
 * flags 0, status 0, modelled nanos 0. */
SSD_API int ssd_encode_api_versions(ssd_buffer *out, uint64_t request_id, ssd_error *err);
SSD_API int ssd_encode_device_info(ssd_buffer *out, uint64_t request_id, ssd_error *err);
SSD_API int ssd_encode_statistics(ssd_buffer *out, uint64_t request_id, ssd_error *err);
SSD_API int ssd_encode_shutdown(ssd_buffer *out, uint64_t request_id, ssd_error *err);
/* The host's nonce: SSD_NONCE_BYTES fresh random bytes. */
SSD_API int ssd_encode_auth_challenge(ssd_buffer *out, uint64_t request_id,
                                      const uint8_t host_nonce[SSD_NONCE_BYTES], ssd_error *err);
/* The host's proof (ssd_auth_host_proof). */
SSD_API int ssd_encode_authenticate(ssd_buffer *out, uint64_t request_id,
                                    const uint8_t proof[SSD_PROOF_BYTES], ssd_error *err);
SSD_API int ssd_encode_mkdirs(ssd_buffer *out, uint64_t request_id, const char *path,
                              ssd_error *err);
SSD_API int ssd_encode_create(ssd_buffer *out, uint64_t request_id, const char *path,
                              bool overwrite, bool create_parents, ssd_error *err);
SSD_API int ssd_encode_append(ssd_buffer *out, uint64_t request_id, const char *path,
                              ssd_error *err);
SSD_API int ssd_encode_write(ssd_buffer *out, uint64_t request_id, uint64_t handle,
                             const void *data, uint32_t len, ssd_error *err);
SSD_API int ssd_encode_flush(ssd_buffer *out, uint64_t request_id, uint64_t handle,
                             ssd_error *err);
SSD_API int ssd_encode_sync(ssd_buffer *out, uint64_t request_id, uint64_t handle,
                            ssd_error *err);
SSD_API int ssd_encode_close(ssd_buffer *out, uint64_t request_id, uint64_t handle,
                             ssd_error *err);
SSD_API int ssd_encode_open(ssd_buffer *out, uint64_t request_id, const char *path,
                            ssd_error *err);
SSD_API int ssd_encode_read(ssd_buffer *out, uint64_t request_id, uint64_t object_id,
                            uint64_t offset, uint32_t len, ssd_error *err);
SSD_API int ssd_encode_status(ssd_buffer *out, uint64_t request_id, const char *path,
                              ssd_error *err);
SSD_API int ssd_encode_list(ssd_buffer *out, uint64_t request_id, const char *path,
                            const char *start_after, uint32_t limit, ssd_error *err);
SSD_API int ssd_encode_rename(ssd_buffer *out, uint64_t request_id, const char *source,
                              const char *destination, ssd_error *err);
SSD_API int ssd_encode_delete(ssd_buffer *out, uint64_t request_id, const char *path,
                              bool recursive, ssd_error *err);
SSD_API int ssd_encode_create_object(ssd_buffer *out, uint64_t request_id, const void *code,
                                     uint32_t code_len, const char *class_name,
                                     const char *const *keys, const char *const *values,
                                     size_t n_params, ssd_error *err);
SSD_API int ssd_encode_execute_object(ssd_buffer *out, uint64_t request_id, uint64_t tasklet_id,
                                      const ssd_input_range *inputs, size_t n_inputs,
                                      const char *const *keys, const char *const *values,
                                      size_t n_options, ssd_error *err);
SSD_API int ssd_encode_read_object(ssd_buffer *out, uint64_t request_id, uint64_t execution_id,
                                   uint32_t max_bytes, ssd_error *err);
SSD_API int ssd_encode_cancel(ssd_buffer *out, uint64_t request_id, uint64_t execution_id,
                              ssd_error *err);
SSD_API int ssd_encode_remove_object(ssd_buffer *out, uint64_t request_id, uint64_t tasklet_id,
                                     ssd_error *err);
/* Version 4 request frames (header version SSD_PERMISSIONS_VERSION): MKDIRS and CREATE with their
 * permission, IDENTIFY, SET_PERMISSION, SET_OWNER (NULL or "" keeps one), SET_TIMES. */
SSD_API int ssd_encode_mkdirs_v4(ssd_buffer *out, uint64_t request_id, const char *path,
                                 int permission, ssd_error *err);
SSD_API int ssd_encode_create_v4(ssd_buffer *out, uint64_t request_id, const char *path,
                                 bool overwrite, bool create_parents, int permission,
                                 ssd_error *err);
SSD_API int ssd_encode_identify(ssd_buffer *out, uint64_t request_id, const char *user,
                                const char *const *groups, size_t n_groups, ssd_error *err);
SSD_API int ssd_encode_set_permission(ssd_buffer *out, uint64_t request_id, const char *path,
                                      int permission, ssd_error *err);
SSD_API int ssd_encode_set_owner(ssd_buffer *out, uint64_t request_id, const char *path,
                                 const char *owner, const char *group, ssd_error *err);
SSD_API int ssd_encode_set_times(ssd_buffer *out, uint64_t request_id, const char *path,
                                 uint64_t mtime_ms, uint64_t atime_ms, ssd_error *err);
/* A version 5 request frame (header version SSD_OUTPUT_VERSION): EXECUTE_OBJECT with its output
 * object's path (NULL or "": none, the results all go to the host) and permission (at most
 * SSD_PERMISSION_BITS, sent even without an output object). */
SSD_API int ssd_encode_execute_object_v5(ssd_buffer *out, uint64_t request_id, uint64_t tasklet_id,
                                         const ssd_input_range *inputs, size_t n_inputs,
                                         const char *const *keys, const char *const *values,
                                         size_t n_options, const char *output_path,
                                         int output_permission, ssd_error *err);

/*
 * Response payload decoders (status OK unless said). Each checks the payload exactly: lengths,
 * counts, bools of 0 or 1, UTF-8, value ranges, and no trailing bytes; anything else is
 * SSD_E_PROTOCOL naming the field. SSD_E_NOMEM when memory runs out.
 */
SSD_API int ssd_decode_versions(const void *payload, size_t len, uint16_t *min_version,
                                uint16_t *max_version, ssd_error *err);
SSD_API int ssd_decode_device_info(const void *payload, size_t len, struct ssd_device_info *out,
                                   ssd_error *err);
/* AUTH_CHALLENGE: whether the device requires authentication and, when it does, its nonce
 * (exactly SSD_NONCE_BYTES; when it does not, the nonce is empty and device_nonce is zeroed). */
SSD_API int ssd_decode_auth_challenge(const void *payload, size_t len, bool *required,
                                      uint8_t device_nonce[SSD_NONCE_BYTES], ssd_error *err);
/* AUTHENTICATE: the device's proof (exactly SSD_PROOF_BYTES). */
SSD_API int ssd_decode_authenticated(const void *payload, size_t len,
                                     uint8_t proof[SSD_PROOF_BYTES], ssd_error *err);
/* STATISTICS, as protocol `version` lays it out (the version of the reply's frame): with DiskUse
 * from SSD_DISK_USE_VERSION on, then DeviceEnergy from SSD_ENERGY_VERSION on. */
SSD_API int ssd_decode_statistics(const void *payload, size_t len, int version,
                                  ssd_device_statistics *out, ssd_error *err);
/* SHUTDOWN, IDENTIFY, MKDIRS, RENAME, DELETE, SET_PERMISSION, SET_OWNER, SET_TIMES, CANCEL,
 * REMOVE_OBJECT. */
SSD_API int ssd_decode_empty(const void *payload, size_t len, ssd_error *err);
/* CREATE, APPEND. */
SSD_API int ssd_decode_opened(const void *payload, size_t len, ssd_opened *out, ssd_error *err);
/* One u64: WRITE, FLUSH, SYNC, CLOSE (a length), CREATE_OBJECT (tasklet id), EXECUTE_OBJECT
 * (execution id). */
SSD_API int ssd_decode_u64(const void *payload, size_t len, uint64_t *out, ssd_error *err);
/* OPEN, STATUS, as protocol `version` lays it out (owner to access time from
 * SSD_PERMISSIONS_VERSION on). */
SSD_API int ssd_decode_object_status(const void *payload, size_t len, int version,
                                     ssd_object_status *out, ssd_error *err);
/* READ: *data points into payload. */
SSD_API int ssd_decode_data(const void *payload, size_t len, const uint8_t **data,
                            uint32_t *data_len, ssd_error *err);
/* LIST, as protocol `version` lays its entries out. */
SSD_API int ssd_decode_listing(const void *payload, size_t len, int version, ssd_listing *out,
                               ssd_error *err);
/* READ_OBJECT, as protocol `version` lays its statistics out (output bytes, pages programmed and
 * modelled write from SSD_OUTPUT_VERSION on, lane state bytes and swap pages read from
 * SSD_LANE_MEMORY_VERSION on; 0 before). */
SSD_API int ssd_decode_execution_progress(const void *payload, size_t len, int version,
                                          ssd_execution_progress *out, ssd_error *err);
/* The payload of a reply with a status other than OK: one string. The message (NUL-terminated,
 * cut to fit) goes to message[0..cap). */
SSD_API int ssd_decode_error_message(const void *payload, size_t len, char *message, size_t cap,
                                     ssd_error *err);

/*
 * The proofs of the handshake (PROTOCOL.md, "Authentication"): HMAC-SHA256 keyed with the secret
 * (secret_len bytes, as they are) over the label "SSDP-AUTH-1 host" (or "SSDP-AUTH-1 device"), a
 * NUL byte, the device's nonce and the host's nonce. For a host driving the handshake itself over
 * ssd_submit; ssd_connect does all of it. Compare a received proof with the expected one in
 * constant time (as ssd_connect does).
 */
SSD_API void ssd_auth_host_proof(const void *secret, size_t secret_len,
                                 const uint8_t device_nonce[SSD_NONCE_BYTES],
                                 const uint8_t host_nonce[SSD_NONCE_BYTES],
                                 uint8_t proof[SSD_PROOF_BYTES]);
SSD_API void ssd_auth_device_proof(const void *secret, size_t secret_len,
                                   const uint8_t device_nonce[SSD_NONCE_BYTES],
                                   const uint8_t host_nonce[SSD_NONCE_BYTES],
                                   uint8_t proof[SSD_PROOF_BYTES]);

#ifdef __cplusplus
}
#endif

#endif /* SMARTSSD_H */
