package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.smartssd.device.ChannelStatistics;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.DiskUse;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * The messages behind the files in {@code src/test/resources/frames/}: one per request type, one per
 * response type, and a few errors. Values are picked to catch codec mistakes: u64s with the top bit
 * set, non-ASCII paths, an empty and a two-entry listing. Changing one changes the bytes the C codec
 * is held to; regenerate the files and say so.
 */
final class FrameVectors {
  /** A frame file and the message it holds, in a frame of protocol {@code version}. */
  record Vector(String file, int version, Opcode opcode, long requestId, Object message, long modelledNanos) {
    boolean isRequest() {
      return message instanceof Request;
    }

    ByteBuffer encode() {
      return isRequest()
          ? Messages.requestFrame(version, requestId, (Request) message)
          : Messages.responseFrame(version, requestId, opcode, (Response) message, modelledNanos);
    }
  }

  static final long HANDLE = 0x8000_0000_0000_0001L;
  static final long OBJECT_ID = 0xFEDC_BA98_7654_3210L;
  static final String NON_ASCII_PATH = "/données/wc98/ログ-1.log";

  static final DeviceInfo INFO = new DeviceInfo(
      "node-07.example.org",
      "smart-ssd-2013",
      new DeviceGeometry(8, 4, 1024, 128, 8192, 4),
      0x0000_0100_0000_0000L,
      0x0000_00F0_1234_5678L,
      true,
      Map.of(
          "smartssd.device.host.max-frame-bytes", "67108864",
          "smartssd.device.profile", "smart-ssd-2013",
          "smartssd.device.timing.cell-read-ns", "50000"));

  static final DeviceStatistics STATISTICS = new DeviceStatistics(
      3_600_000_000_000L, 123_456, 0x1_0000_0001L, 987_654_321, 55_000_000, 0x7FFF_FFFF_FFFF_FFFFL, 42, 777_000, 3, 4_500, 88_000_000, 99_000_000,
      List.of(
          new ChannelStatistics(100, 200, 3, 5_000_000),
          new ChannelStatistics(0x7FFF_FFFF_FFFF_FFFFL, 1, 0, 9)));

  /** As a version 2 device answers: with disk use, here of a device that cannot reclaim space. */
  static final DeviceStatistics STATISTICS_V2 = STATISTICS.withDiskUse(new DiskUse(false,
      "the file system of /data/flash does not support punching holes", DiskUse.UNKNOWN, 0x8_0000_0000L,
      0x1_2345_6789L, 0x8000_0000_0000_0005L, 77));

  /** As a version 3 device answers: with disk use and its energy account, each field different. */
  static final DeviceStatistics STATISTICS_V3 = STATISTICS_V2.withEnergy(new DeviceEnergy(
      250_000_000, 75_000_000, 0x1_0000_0002L, 33_000, 0, 0x8000_0000_0000_0007L));

  static final long TASKLET = 0x8000_0000_0000_0002L;
  static final long EXECUTION = 0xC000_0000_0000_0003L;

  /** A jar's first bytes (the local file header's signature), then 00 01 .. 0b. */
  static final byte[] JAR = {0x50, 0x4B, 0x03, 0x04, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};

  /** Given out of key order, to show that maps travel sorted. */
  static final Map<String, String> TASKLET_PARAMETERS = new LinkedHashMap<>();

  static {
    TASKLET_PARAMETERS.put("pattern", "/données/");
    TASKLET_PARAMETERS.put("field", "2");
  }

  /** Each counter different, so that a swapped pair shows; the host's energy needs all 63 bits. */
  static final ExecutionStatistics STATS_DONE = new ExecutionStatistics(
      4, 0x1_0000_0001L, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0x7FFF_FFFF_FFFF_FFFFL, 14, 15, 16, 17, 18, 19, 20, 21, 22,
      23);

  /** As a version 5 device answers for an execution that wrote an output object: each new counter different. */
  static final ExecutionStatistics STATS_WRITTEN = new ExecutionStatistics(
      4, 0x1_0000_0001L, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0x7FFF_FFFF_FFFF_FFFFL, 14, 15, 16, 17, 18, 19, 20, 21, 22,
      23, 0x8000_0000_0000_0018L, 25, 26);

  /** As a version 6 device answers for an execution whose lanes swapped: each new counter different. */
  static final ExecutionStatistics STATS_SWAPPED = new ExecutionStatistics(
      4, 0x1_0000_0001L, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0x7FFF_FFFF_FFFF_FFFFL, 14, 15, 16, 17, 18, 19, 20, 21, 22,
      23, 0x8000_0000_0000_0018L, 25, 26, 0x8000_0000_0000_001BL, 28);

  /** As a version 8 device answers: the library reads, all and after the last read, each different. */
  static final ExecutionStatistics STATS_READS = new ExecutionStatistics(
      4, 0x1_0000_0001L, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0x7FFF_FFFF_FFFF_FFFFL, 14, 15, 16, 17, 18, 19, 20, 21, 22,
      23, 0x8000_0000_0000_0018L, 25, 26, 0x8000_0000_0000_001BL, 28, 0x8000_0000_0000_001DL, 30);

  /** The same two paths with library reads (version 8's fifth count). */
  static final org.smartssd.device.WorkProfile PROFILE_READS = new org.smartssd.device.WorkProfile(
      List.of("a.Map.map", "org.apache.hadoop.io.Text.set"), List.of(
          new org.smartssd.device.WorkProfile.Node(-1, 0, new org.smartssd.device.WorkProfile.Work(100, 20, 3, 0, 42)),
          new org.smartssd.device.WorkProfile.Node(0, 1, new org.smartssd.device.WorkProfile.Work(
              0x8000_0000_0000_0007L, 8, 0, 64, 0x8000_0000_0000_0009L))), true);

  /** Two methods on two paths: a caller's own work and its callee's (a count with its top bit set). */
  static final org.smartssd.device.WorkProfile PROFILE = new org.smartssd.device.WorkProfile(
      List.of("a.Map.map", "org.apache.hadoop.io.Text.set"), List.of(
          new org.smartssd.device.WorkProfile.Node(-1, 0, new org.smartssd.device.WorkProfile.Work(100, 20, 3, 0)),
          new org.smartssd.device.WorkProfile.Node(0, 1, new org.smartssd.device.WorkProfile.Work(
              0x8000_0000_0000_0007L, 8, 0, 64))), true);

  static final ExecutionStatistics STATS_RUNNING = new ExecutionStatistics(
      8, 0x1_0000_0000L, 131_072, 0, 0, 0, 5_000_000, 4_000_000, 7_000_000, 6_000_000, 3_000_000, 0, 0,
      1_234, 56_789, 250_000_000, 60_000_000, 1_000_000, 4_096, 12_345, 0, 0, 0, 0, 0);

  /**
   * The proofs of PROTOCOL.md's test vector: the secret is the 64 ASCII characters of
   * {@link #VECTOR_SECRET}, the device nonce 32 bytes 0xA0, the host nonce 32 bytes 0xB0.
   */
  static final String VECTOR_SECRET = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
  static final String HOST_PROOF = "6859092a68720a3e6e0aea0f32dd76a178d57d654be5d3fd1104f22d2632c90f";
  static final String DEVICE_PROOF = "ce42a4210757a485e8a041e8055899b8c17ea1b3274b27f904298161d2f7f7c1";

  static final List<Vector> ALL = List.of(
      request("request-api-versions.bin", 1, new Request.ApiVersions()),
      request("request-device-info.bin", 2, new Request.Info()),
      request("request-statistics.bin", 3, new Request.Statistics()),
      request("request-shutdown.bin", 4, new Request.Shutdown()),
      request("request-auth-challenge.bin", 5, new Request.AuthChallenge(filled(32, 0xB0))),
      request("request-authenticate.bin", 6, new Request.Authenticate(hex(HOST_PROOF))),
      request("request-mkdirs.bin", 0x10, new Request.Mkdirs("/data/wc98")),
      request("request-create.bin", 0x0102_0304_0506_0708L, new Request.Create(NON_ASCII_PATH, true, false)),
      request("request-append.bin", 0x12, new Request.Append("/data/wc98/day-01.log")),
      request("request-write.bin", 0xFFFF_FFFF_FFFF_FFFEL, new Request.Write(HANDLE, sequence(16))),
      request("request-flush.bin", 0x14, new Request.Flush(HANDLE)),
      request("request-sync.bin", 0x15, new Request.Sync(HANDLE)),
      request("request-close.bin", 0x16, new Request.Close(HANDLE)),
      request("request-open.bin", 0x17, new Request.Open("/data/wc98/day-01.log")),
      request("request-read.bin", 0x18, new Request.Read(OBJECT_ID, 0x1_0000_0005L, 65536)),
      request("request-status.bin", 0x19, new Request.GetStatus("/data")),
      request("request-list.bin", 0x1A, new Request.ListDir("/data/wc98", "day-01.log", 100)),
      request("request-rename.bin", 0x1B, new Request.Rename("/tmp/part-00000", "/out/part-00000")),
      request("request-delete.bin", 0x1C, new Request.Delete("/tmp", true)),
      request("request-create-object.bin", 0x20, new Request.CreateObject(
          ByteBuffer.wrap(JAR), "org.example.wc.GrepTasklet", TASKLET_PARAMETERS)),
      request("request-execute-object.bin", 0x21, new Request.ExecuteObject(TASKLET, List.of(
          new InputRange(NON_ASCII_PATH, 0, 0x1_0000_0000L),
          new InputRange("/data/wc98/day-02.log", 4096, InputRange.TO_END)), Map.of("merge", "host"))),
      request("request-read-object.bin", 0x22, new Request.ReadObject(EXECUTION, 4 << 20)),
      request("request-cancel.bin", 0x23, new Request.Cancel(EXECUTION)),
      request("request-remove-object.bin", 0x24, new Request.RemoveObject(TASKLET)),

      response("response-versions.bin", Opcode.API_VERSIONS, 1, new Response.Versions(1, 1), 0),
      response("response-auth-challenge.bin", Opcode.AUTH_CHALLENGE, 5,
          new Response.AuthChallenge(true, filled(32, 0xA0)), 0),
      response("response-auth-challenge-not-required.bin", Opcode.AUTH_CHALLENGE, 5,
          new Response.AuthChallenge(false, ByteBuffer.allocate(0)), 0),
      response("response-authenticated.bin", Opcode.AUTHENTICATE, 6, new Response.Authenticated(hex(DEVICE_PROOF)), 0),
      response("response-info.bin", Opcode.DEVICE_INFO, 2, new Response.Info(INFO), 1_000),
      response("response-statistics.bin", Opcode.STATISTICS, 3, new Response.Statistics(STATISTICS), 1_000),
      new Vector("response-statistics-v2.bin", 2, Opcode.STATISTICS, 3, new Response.Statistics(STATISTICS_V2), 1_000),
      new Vector("response-statistics-v3.bin", 3, Opcode.STATISTICS, 3, new Response.Statistics(STATISTICS_V3), 1_000),
      response("response-empty.bin", Opcode.MKDIRS, 0x10, new Response.Empty(), 25_000),
      response("response-opened.bin", Opcode.CREATE, 0x0102_0304_0506_0708L,
          new Response.Opened(HANDLE, OBJECT_ID, 0), 30_000),
      response("response-length.bin", Opcode.SYNC, 0x15, new Response.Length(0x1_0000_0011L), 0x1_0000_0000L),
      response("response-stat.bin", Opcode.STATUS, 0x19,
          new Response.Stat(new ObjectStatus("/data", true, 0, 1_700_000_000_000L, 2)), 5_000),
      response("response-data.bin", Opcode.READ, 0x18, new Response.Data(
          ByteBuffer.wrap("Smart SSD\n\u0000\u00ff".getBytes(StandardCharsets.ISO_8859_1))), 123_456_789),
      response("response-listing-empty.bin", Opcode.LIST, 0x1A, new Response.Listing(List.of(), false), 7_000),
      response("response-listing.bin", Opcode.LIST, 0x1A, new Response.Listing(List.of(
          new ObjectStatus(NON_ASCII_PATH, false, 0x1_0000_0000L, 1_700_000_123_456L, OBJECT_ID),
          new ObjectStatus("/données/wc98/sub", true, 0, -1L, 7)), true), 8_000),
      response("response-tasklet-created.bin", Opcode.CREATE_OBJECT, 0x20, new Response.TaskletCreated(TASKLET),
          1_000),
      response("response-execution-started.bin", Opcode.EXECUTE_OBJECT, 0x21,
          new Response.ExecutionStarted(EXECUTION), 2_000),
      response("response-progress-empty.bin", Opcode.READ_OBJECT, 0x22, new Response.ExecutionProgress(
          ExecutionState.RUNNING, "", STATS_RUNNING, List.of(), false), 500),
      response("response-progress.bin", Opcode.READ_OBJECT, 0x22, new Response.ExecutionProgress(
          ExecutionState.DONE, "", STATS_DONE, List.of(
              new TaskletResult(0, ascii("GET /index.html")),
              new TaskletResult(65534, ByteBuffer.wrap(new byte[] {0, (byte) 0xFF})),
              new TaskletResult(-1, ascii("count=3\n"))), true), 0x1_0000_0000L),
      response("response-progress-failed.bin", Opcode.READ_OBJECT, 0x22, new Response.ExecutionProgress(
          ExecutionState.FAILED, "lane 3: java.lang.IllegalStateException: boom", STATS_RUNNING, List.of(), true),
          500),
      response("response-error-not-found.bin", Opcode.OPEN, 0x17,
          new Response.Error(Status.NOT_FOUND, "/data/missing.log: no such file or directory"), 2_000),
      response("response-error-lease-conflict.bin", Opcode.APPEND, 0x12,
          new Response.Error(Status.LEASE_CONFLICT, "/data/wc98/day-01.log is open for writing"), 2_000),
      response("response-error-frame-too-large.bin", Opcode.WRITE, 0xFFFF_FFFF_FFFF_FFFEL,
          new Response.Error(Status.FRAME_TOO_LARGE, "payload of 134217728 bytes exceeds the limit of 67108864"), 0),
      response("response-error-unsupported-version.bin", Opcode.STATUS, 0x19,
          new Response.Error(Status.UNSUPPORTED_VERSION, "version 2 is not spoken here; versions 1..1 are"), 0),
      response("response-error-bad-handle.bin", Opcode.CLOSE, 0x16,
          new Response.Error(Status.BAD_HANDLE, "handle 9223372036854775809 is closed or unknown"), 1_000),
      response("response-error-bad-request-tasklet.bin", Opcode.CREATE_OBJECT, 0x20,
          new Response.Error(Status.BAD_REQUEST, "class org.example.Missing is not in the jar"), 0),
      response("response-error-busy.bin", Opcode.EXECUTE_OBJECT, 0x21,
          new Response.Error(Status.BUSY, "8 executions are running; the limit is 8"), 0),
      response("response-error-auth-required.bin", Opcode.DELETE, 0x1C,
          new Response.Error(Status.AUTH_REQUIRED, "DELETE: device d requires hosts to authenticate first"), 0),
      response("response-error-corrupt.bin", Opcode.READ, 0x18, new Response.Error(Status.CORRUPT,
          "'/data/wc98/day-01.log' is corrupt at offset 8192: bytes 8192..16383 are lost"), 50_000),

      // Version 4: users and permissions.
      v4(new Request.Identify("alice", List.of("analysts", "données")), 7),
      v4file("request-mkdirs-v4.bin", new Request.Mkdirs("/data/wc98", 0750), 0x10),
      v4file("request-create-v4.bin", new Request.Create(NON_ASCII_PATH, false, true, 01640), 0x0102_0304_0506_0708L),
      v4(new Request.SetPermission("/data/wc98", 01777), 0x1D),
      v4(new Request.SetOwner("/données/wc98/ログ-1.log", "bob", ""), 0x1E),
      v4(new Request.SetTimes("/data/wc98/day-01.log", 1_700_000_123_456L, ProtocolConstants.KEEP_TIME), 0x1F),
      new Vector("response-stat-v4.bin", 4, Opcode.STATUS, 0x19, new Response.Stat(
          new ObjectStatus("/data", true, 0, 1_700_000_000_000L, 2, "hdfs", "supergroup", 0755, 1_700_000_000_001L)),
          5_000),
      new Vector("response-listing-v4.bin", 4, Opcode.LIST, 0x1A, new Response.Listing(List.of(
          new ObjectStatus(NON_ASCII_PATH, false, 0x1_0000_0000L, 1_700_000_123_456L, OBJECT_ID, "alice", "données", 0640,
              0x8000_0000_0000_0009L),
          new ObjectStatus("/données/wc98/sub", true, 0, -1L, 7, "", "", 01777, 0)), false), 8_000),
      new Vector("response-error-permission-denied.bin", 4, Opcode.OPEN, 0x17, new Response.Error(
          Status.PERMISSION_DENIED, "Permission denied: user=bob, access=READ, inode=\"/data/wc98/day-01.log\":alice:analysts:-rw-------"),
          2_000),

      // Version 5: output objects.
      new Vector("request-execute-object-v5.bin", ProtocolConstants.OUTPUT_VERSION, Opcode.EXECUTE_OBJECT, 0x21,
          new Request.ExecuteObject(TASKLET, List.of(new InputRange("/data/wc98/day-02.log", 4096, InputRange.TO_END)),
              Map.of("merge", "device"), "/données/out/part-00000", 01640), 0),
      new Vector("response-progress-v5.bin", ProtocolConstants.OUTPUT_VERSION, Opcode.READ_OBJECT, 0x22,
          new Response.ExecutionProgress(ExecutionState.DONE, "", STATS_WRITTEN, List.of(
              new TaskletResult(-1, ascii("records=3\n"))), true), 0x1_0000_0000L),

      // Version 6: the lanes' memory in the statistics.
      new Vector("response-progress-v6.bin", ProtocolConstants.LANE_MEMORY_VERSION, Opcode.READ_OBJECT, 0x22,
          new Response.ExecutionProgress(ExecutionState.DONE, "", STATS_SWAPPED, List.of(
              new TaskletResult(-1, ascii("records=3\n"))), true), 0x1_0000_0000L),

      // Version 7: the execution's counted work by call path, in the answer that finishes it.
      new Vector("response-progress-v7.bin", ProtocolConstants.PROFILE_VERSION, Opcode.READ_OBJECT, 0x22,
          new Response.ExecutionProgress(ExecutionState.DONE, "", STATS_SWAPPED, List.of(
              new TaskletResult(-1, ascii("records=3\n"))), true, PROFILE), 0x1_0000_0000L),
      new Vector("response-progress-v7-no-profile.bin", ProtocolConstants.PROFILE_VERSION, Opcode.READ_OBJECT, 0x23,
          new Response.ExecutionProgress(ExecutionState.RUNNING, "", STATS_SWAPPED, List.of(), false), 0),

      // Version 8: the data reads inside library calls, in the statistics and in every profile node.
      new Vector("response-progress-v8.bin", ProtocolConstants.LIBRARY_READS_VERSION, Opcode.READ_OBJECT, 0x22,
          new Response.ExecutionProgress(ExecutionState.DONE, "", STATS_READS, List.of(
              new TaskletResult(-1, ascii("records=3\n"))), true, PROFILE_READS), 0x1_0000_0000L));


  /** A version 4 request in the file named after its opcode ({@code request-set-owner.bin}). */
  private static Vector v4(Request request, long requestId) {
    return v4file("request-" + request.opcode().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + ".bin",
        request, requestId);
  }

  private static Vector v4file(String file, Request request, long requestId) {
    return new Vector(file, ProtocolConstants.PERMISSIONS_VERSION, request.opcode(), requestId, request, 0);
  }

  private FrameVectors() {}

  static ByteBuffer filled(int n, int value) {
    byte[] b = new byte[n];
    java.util.Arrays.fill(b, (byte) value);
    return ByteBuffer.wrap(b);
  }

  static ByteBuffer hex(String digits) {
    return ByteBuffer.wrap(java.util.HexFormat.of().parseHex(digits));
  }

  private static Vector request(String file, long requestId, Request request) {
    return new Vector(file, ProtocolConstants.CURRENT_VERSION, request.opcode(), requestId, request, 0);
  }

  private static Vector response(String file, Opcode opcode, long requestId, Response response, long nanos) {
    return new Vector(file, ProtocolConstants.CURRENT_VERSION, opcode, requestId, response, nanos);
  }

  static ByteBuffer ascii(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
  }

  /** Bytes 0, 1, 2, ... n-1. */
  static ByteBuffer sequence(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) i;
    }
    return ByteBuffer.wrap(b);
  }
}
