/*
 * smartssd-cli: a small command-line client of a Smart SSD device, on libsmartssd.
 *
 *   smartssd-cli [--device ADDR] [--secret-file FILE] info | ls PATH | cat PATH | stat PATH
 *
 * The device is ADDR, else $SMARTSSD_DEVICE, else 127.0.0.1:7070. The device's secret, for a
 * device that requires hosts to authenticate, is in FILE, else in the file $SMARTSSD_SECRET_FILE
 * names (the library's default). Errors go to stderr as "smartssd-cli: <message>" with exit
 * status 1; usage errors exit with 2.
 */
#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "smartssd.h"

#define PROGRAM "smartssd-cli"
#define DEFAULT_DEVICE "127.0.0.1:7070"
#define LIST_PAGE 1000
#define CAT_CHUNK (1u << 20)

static void usage(FILE *out) {
  fprintf(out,
          "usage: " PROGRAM " [--device ADDR] [--secret-file FILE] COMMAND\n"
          "\n"
          "commands:\n"
          "  info        the device's name, profile, geometry, capacity and free space\n"
          "  ls PATH     the entries of a directory (or a file's own), one a line:\n"
          "              kind, length, modification time (UTC), path\n"
          "  cat PATH    a file's bytes, to standard output\n"
          "  stat PATH   a file's or directory's status\n"
          "\n"
          "ADDR is host:port, [ipv6]:port or unix:/path; the default is $SMARTSSD_DEVICE,\n"
          "else " DEFAULT_DEVICE ".\n"
          "\n"
          "FILE holds the device's secret, for a device that requires hosts to authenticate\n"
          "(readable by its owner only); the default is the file $SMARTSSD_SECRET_FILE names.\n");
}

static int fail(const ssd_error *err) {
  fprintf(stderr, PROGRAM ": %s\n", err->message);
  return 1;
}

/* "2023-11-14T22:13:20.000Z", or the raw number when it is out of range. */
static void format_time(uint64_t ms, char *buf, size_t cap) {
  int64_t signed_ms = (int64_t)ms;
  time_t secs = (time_t)(signed_ms / 1000);
  long frac = (long)(signed_ms % 1000);
  if (frac < 0) {
    frac += 1000;
    secs -= 1;
  }
  struct tm tm;
  if (gmtime_r(&secs, &tm) == NULL || tm.tm_year + 1900 > 9999 || tm.tm_year + 1900 < 0) {
    snprintf(buf, cap, "%" PRId64, signed_ms);
    return;
  }
  char date[32];
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf(buf, cap, "%s.%03ldZ", date, frac);
}

/* The mode as ls shows it ("drwxr-xr-t"), or "-" when the device keeps none (version 3 or older). */
static void format_mode(const ssd_object_status *s, char out[11]) {
  if (s->permission == SSD_PERMISSION_UNKNOWN) {
    snprintf(out, 11, "%s", "-");
    return;
  }
  out[0] = s->directory ? 'd' : '-';
  for (int who = 0; who < 3; who++) {
    int bits = (s->permission >> (6 - 3 * who)) & 7;
    out[1 + 3 * who] = (bits & 4) ? 'r' : '-';
    out[2 + 3 * who] = (bits & 2) ? 'w' : '-';
    out[3 + 3 * who] = (bits & 1) ? 'x' : '-';
  }
  if (s->permission & 01000) {
    out[9] = (s->permission & 1) ? 't' : 'T';
  }
  out[10] = '\0';
}

static void print_entry(const ssd_object_status *s) {
  char when[48];
  char mode[11];
  format_time(s->mtime_ms, when, sizeof when);
  format_mode(s, mode);
  printf("%-10s %-8s %-8s %-4s %12" PRIu64 "  %s  %s\n", mode, s->owner.len > 0 ? s->owner.s : "-",
         s->group.len > 0 ? s->group.s : "-", s->directory ? "dir" : "file", s->length, when,
         s->path.s);
}

static int cmd_info(ssd_client *c) {
  struct ssd_device_info info;
  ssd_error err;
  if (ssd_device_info(c, &info, NULL, &err) != SSD_OK) {
    return fail(&err);
  }
  const ssd_geometry *g = &info.geometry;
  printf("device:   %s\n", ssd_address(c));
  printf("name:     %s\n", info.name.s);
  printf("profile:  %s\n", info.profile.s);
  printf("geometry: %" PRIu32 " channels x %" PRIu32 " ways x %" PRIu32 " blocks x %" PRIu32
         " pages of %" PRIu32 " bytes, stripe unit %" PRIu32 " pages\n",
         g->channels, g->ways_per_channel, g->blocks_per_way, g->pages_per_block,
         g->page_size_bytes, g->stripe_unit_pages);
  printf("capacity: %" PRIu64 " bytes\n", info.capacity_bytes);
  printf("free:     %" PRIu64 " bytes\n", info.free_bytes);
  printf("paced:    %s\n", info.paced ? "yes" : "no");
  ssd_device_info_free(&info);
  return 0;
}

static int cmd_stat(ssd_client *c, const char *path) {
  ssd_object_status s;
  ssd_error err;
  if (ssd_status(c, path, &s, NULL, &err) != SSD_OK) {
    return fail(&err);
  }
  char when[48];
  format_time(s.mtime_ms, when, sizeof when);
  printf("path:     %s\n", s.path.s);
  printf("kind:     %s\n", s.directory ? "directory" : "file");
  printf("length:   %" PRIu64 "\n", s.length);
  printf("modified: %s\n", when);
  if (s.permission != SSD_PERMISSION_UNKNOWN) {
    char mode[11];
    format_mode(&s, mode);
    format_time(s.atime_ms, when, sizeof when);
    printf("accessed: %s\n", when);
    printf("owner:    %s\n", s.owner.s);
    printf("group:    %s\n", s.group.s);
    printf("mode:     %s (%04o)\n", mode, (unsigned)s.permission);
  }
  printf("id:       %" PRIu64 "\n", s.object_id);
  ssd_object_status_free(&s);
  return 0;
}

/* The last component of a path: what LIST's start-after names. */
static const char *name_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash == NULL ? path : slash + 1;
}

static int cmd_ls(ssd_client *c, const char *path) {
  char after[65536] = "";
  for (;;) {
    ssd_listing page;
    ssd_error err;
    if (ssd_list(c, path, after, LIST_PAGE, &page, NULL, &err) != SSD_OK) {
      return fail(&err);
    }
    for (uint32_t i = 0; i < page.n_entries; i++) {
      print_entry(&page.entries[i]);
    }
    bool more = page.more;
    if (more && page.n_entries == 0) {
      ssd_listing_free(&page);
      fprintf(stderr, PROGRAM ": device %s: LIST of %s after '%s' returned no entries but said "
              "more follow\n", ssd_address(c), path, after);
      return 1;
    }
    if (more) {
      snprintf(after, sizeof after, "%s", name_of(page.entries[page.n_entries - 1].path.s));
    }
    ssd_listing_free(&page);
    if (!more) {
      return 0;
    }
  }
}

static int write_out(const uint8_t *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(STDOUT_FILENO, p, n);
    if (w < 0 && errno == EINTR) {
      continue;
    }
    if (w < 0) {
      fprintf(stderr, PROGRAM ": writing to standard output: %s\n", strerror(errno));
      return 1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static int cmd_cat(ssd_client *c, const char *path) {
  ssd_object_status s;
  ssd_error err;
  if (ssd_open(c, path, &s, NULL, &err) != SSD_OK) {
    return fail(&err);
  }
  uint64_t id = s.object_id;
  ssd_object_status_free(&s);
  uint8_t *buf = malloc(CAT_CHUNK);
  if (buf == NULL) {
    fprintf(stderr, PROGRAM ": out of memory\n");
    return 1;
  }
  uint64_t offset = 0;
  int rc = 0;
  for (;;) {
    uint32_t n = 0;
    if (ssd_read(c, id, offset, buf, CAT_CHUNK, &n, NULL, &err) != SSD_OK) {
      rc = fail(&err);
      break;
    }
    if (n == 0) {
      break;
    }
    if (write_out(buf, n) != 0) {
      rc = 1;
      break;
    }
    offset += n;
  }
  free(buf);
  return rc;
}

/* The process's user and its groups (PROTOCOL.md, "Users and permissions"): what the device checks
 * this tool's commands against. Names that cannot be found are left out; no user, no IDENTIFY. */
#define MAX_GROUPS 64
static char user_name[256];
static char group_names[MAX_GROUPS][256];
static const char *group_list[MAX_GROUPS];

static void identify_as_process_user(ssd_options *options) {
  struct passwd pw, *found = NULL;
  char buf[4096];
  if (getpwuid_r(geteuid(), &pw, buf, sizeof buf, &found) != 0 || found == NULL) {
    return;
  }
  snprintf(user_name, sizeof user_name, "%s", pw.pw_name);
  gid_t gids[MAX_GROUPS];
  int n = MAX_GROUPS;
  if (getgrouplist(user_name, pw.pw_gid, gids, &n) < 0) {
    n = 0;
  }
  size_t kept = 0;
  for (int i = 0; i < n; i++) {
    struct group gr, *g = NULL;
    char gbuf[4096];
    if (getgrgid_r(gids[i], &gr, gbuf, sizeof gbuf, &g) == 0 && g != NULL) {
      snprintf(group_names[kept], sizeof group_names[kept], "%s", gr.gr_name);
      group_list[kept] = group_names[kept];
      kept++;
    }
  }
  options->user = user_name;
  options->groups = group_list;
  options->n_groups = kept;
}

int main(int argc, char **argv) {
  const char *device = getenv("SMARTSSD_DEVICE");
  if (device == NULL || device[0] == '\0') {
    device = DEFAULT_DEVICE;
  }
  ssd_options options = ssd_options_default();
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (strcmp(argv[i], "--device") == 0 && i + 1 < argc) {
      device = argv[++i];
    } else if (strncmp(argv[i], "--device=", 9) == 0) {
      device = argv[i] + 9;
    } else if (strcmp(argv[i], "--secret-file") == 0 && i + 1 < argc) {
      options.secret_file = argv[++i];
    } else if (strncmp(argv[i], "--secret-file=", 14) == 0) {
      options.secret_file = argv[i] + 14;
    } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    } else {
      fprintf(stderr, PROGRAM ": unknown option %s\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  if (i >= argc) {
    usage(stderr);
    return 2;
  }
  const char *command = argv[i];
  int args = argc - i - 1;
  bool takes_path = strcmp(command, "ls") == 0 || strcmp(command, "cat") == 0 ||
                    strcmp(command, "stat") == 0;
  if (!(strcmp(command, "info") == 0 && args == 0) && !(takes_path && args == 1)) {
    fprintf(stderr, PROGRAM ": bad command line\n");
    usage(stderr);
    return 2;
  }
  signal(SIGPIPE, SIG_IGN); /* a closed stdout is an error to report, not a signal */

  ssd_client *c;
  ssd_error err;
  identify_as_process_user(&options);
  if (ssd_connect(device, &options, &c, &err) != SSD_OK) {
    return fail(&err);
  }
  const char *path = args == 1 ? argv[i + 1] : NULL;
  int rc;
  if (strcmp(command, "info") == 0) {
    rc = cmd_info(c);
  } else if (strcmp(command, "ls") == 0) {
    rc = cmd_ls(c, path);
  } else if (strcmp(command, "cat") == 0) {
    rc = cmd_cat(c, path);
  } else {
    rc = cmd_stat(c, path);
  }
  ssd_close(c);
  return rc;
}
