package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * Reads a payload in the protocol's types. Every read names its field, so that a malformed payload
 * gives a {@link ProtocolException} saying which message and field were wrong. Reads a duplicate:
 * the caller's buffer position is not changed.
 */
public final class PayloadReader {
  /** Bytes of the smallest ObjectStatus: an empty path, kind, length, time, id. */
  static final int MIN_OBJECT_STATUS_BYTES = 2 + 1 + 8 + 8 + 8;
  /** Bytes of the smallest string: its length, 0. */
  static final int MIN_STRING_BYTES = 2;
  /** Bytes of the smallest map entry: two empty strings. */
  static final int MIN_MAP_ENTRY_BYTES = 2 + 2;
  /** Bytes of the smallest InputRange: an empty path, offset, length. */
  static final int MIN_INPUT_RANGE_BYTES = 2 + 8 + 8;
  /** Bytes of the smallest tasklet result: lane and an empty data field. */
  static final int MIN_TASKLET_RESULT_BYTES = 2 + 4;
  /**
   * Entries a {@code map} may hold. Each entry costs about 100 bytes of objects however short its
   * strings (a tree map's entry, two strings), so a frame of the smallest entries would decode into
   * 16 times its size (a 64 MiB frame into 1 GB, the decoding allocating 6 GB): the count is
   * bounded instead, at 64 times a whole Hadoop configuration (about a thousand keys), far above
   * any tasklet's parameters or options or a device's parameters (about seventy).
   */
  public static final int MAX_MAP_ENTRIES = 65_536;

  private final ByteBuffer buffer;
  private final String context;
  private CharsetDecoder decoder;

  /**
   * @param payload the bytes from its position to its limit
   * @param context what is being read, for messages (e.g. "CREATE request")
   */
  public PayloadReader(ByteBuffer payload, String context) {
    this.buffer = payload.duplicate().order(ByteOrder.BIG_ENDIAN);
    this.context = context;
  }

  public int remaining() {
    return buffer.remaining();
  }

  public int u8(String field) throws ProtocolException {
    need(field, 1);
    return Byte.toUnsignedInt(buffer.get());
  }

  public boolean bool(String field) throws ProtocolException {
    int value = u8(field);
    if (value > 1) {
      throw error(field, "bool must be 0 or 1, was " + value);
    }
    return value == 1;
  }

  public int u16(String field) throws ProtocolException {
    need(field, 2);
    return Short.toUnsignedInt(buffer.getShort());
  }

  /** A u32 as Java's int of the same bits (values of 2^31 and more are negative). */
  public int u32(String field) throws ProtocolException {
    need(field, 4);
    return buffer.getInt();
  }

  /** A u32 that is a length or limit: 2^31 and more (negative as an int) is rejected. */
  public int length(String field) throws ProtocolException {
    int value = u32(field);
    if (value < 0) {
      throw error(field, "negative length " + value + " (u32 " + Integer.toUnsignedString(value) + ")");
    }
    return value;
  }

  /**
   * A u32 count of elements that follow, each at least {@code minBytesEach} long: rejected before
   * anything is allocated when the rest of the payload cannot hold that many.
   */
  public int count(String field, int minBytesEach) throws ProtocolException {
    int n = length(field);
    if ((long) n * minBytesEach > buffer.remaining()) {
      throw error(field, "count " + n + " needs at least " + (long) n * minBytesEach + " bytes, "
          + buffer.remaining() + " remain");
    }
    return n;
  }

  /** A u64 as Java's long of the same bits. */
  public long u64(String field) throws ProtocolException {
    need(field, 8);
    return buffer.getLong();
  }

  /** A u16 length and that many bytes of valid UTF-8. */
  public String string(String field) throws ProtocolException {
    int n = u16(field + " length");
    need(field, n);
    ByteBuffer utf8 = buffer.slice(buffer.position(), n);
    buffer.position(buffer.position() + n);
    if (decoder == null) {
      decoder = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
    }
    try {
      return decoder.reset().decode(utf8).toString();
    } catch (CharacterCodingException e) {
      throw error(field, "not valid UTF-8 (" + e.getMessage() + ")");
    }
  }

  /** A u32 length and that many bytes, as a view of the payload (not a copy). */
  public ByteBuffer bytes(String field) throws ProtocolException {
    int n = length(field + " length");
    need(field, n);
    ByteBuffer data = buffer.slice(buffer.position(), n);
    buffer.position(buffer.position() + n);
    return data;
  }

  /** {@link #bytes} that must hold exactly {@code expected} bytes. */
  public ByteBuffer fixedBytes(String field, int expected) throws ProtocolException {
    ByteBuffer data = bytes(field);
    if (data.remaining() != expected) {
      throw error(field, "must be " + expected + " bytes, was " + data.remaining());
    }
    return data;
  }

  /** An {@code ObjectStatus} as protocol {@code version} lays it out (owner to access time from version 4 on). */
  public ObjectStatus objectStatus(int version, String field) throws ProtocolException {
    String path = string(field + ".path");
    int kind = u8(field + ".kind");
    if (kind > 1) {
      throw error(field + ".kind", "must be 0 (file) or 1 (directory), was " + kind);
    }
    long length = u64(field + ".length");
    if (length < 0) {
      throw error(field + ".length", "negative length " + length);
    }
    long modificationTime = u64(field + ".modificationTime");
    long objectId = u64(field + ".objectId");
    if (version < ProtocolConstants.PERMISSIONS_VERSION) {
      return new ObjectStatus(path, kind == 1, length, modificationTime, objectId);
    }
    String owner = string(field + ".owner");
    String group = string(field + ".group");
    int permission = permission(field + ".permission");
    long accessTime = u64(field + ".accessTime");
    return new ObjectStatus(path, kind == 1, length, modificationTime, objectId, owner, group, permission, accessTime);
  }

  /** A {@code u16} permission: the sticky bit and rwx three times ({@code 01777}) at most. */
  public int permission(String field) throws ProtocolException {
    int permission = u16(field);
    if ((permission & ~ObjectStatus.PERMISSION_BITS) != 0) {
      throw error(field, "must be within " + Integer.toOctalString(ObjectStatus.PERMISSION_BITS) + " (octal), was "
          + Integer.toOctalString(permission));
    }
    return permission;
  }

  public DeviceGeometry geometry(String field) throws ProtocolException {
    int channels = u32(field + ".channels");
    int ways = u32(field + ".waysPerChannel");
    int blocks = u32(field + ".blocksPerWay");
    int pages = u32(field + ".pagesPerBlock");
    int pageSize = u32(field + ".pageSizeBytes");
    int stripeUnit = u32(field + ".stripeUnitPages");
    try {
      return new DeviceGeometry(channels, ways, blocks, pages, pageSize, stripeUnit);
    } catch (IllegalArgumentException e) {
      throw error(field, e.getMessage());
    }
  }

  /**
   * A {@code u32} count and that many {@code string} key, {@code string} value entries, as an
   * unmodifiable map sorted by key. Entries may come in any order; a key given twice is rejected,
   * and so are more than {@link #MAX_MAP_ENTRIES} entries, before any is read.
   */
  public Map<String, String> stringMap(String field) throws ProtocolException {
    int n = count(field, MIN_MAP_ENTRY_BYTES);
    if (n > MAX_MAP_ENTRIES) {
      throw error(field, n + " entries; a map holds at most " + MAX_MAP_ENTRIES);
    }
    TreeMap<String, String> map = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      String key = string(field + "[" + i + "].key");
      String value = string(field + "[" + i + "].value");
      if (map.put(key, value) != null) {
        throw error(field + "[" + i + "].key", "duplicate key " + key);
      }
    }
    return Collections.unmodifiableMap(map);
  }

  /** An InputRange: offsets and lengths of 2^63 and more are rejected, but for all ones (to the end). */
  public InputRange inputRange(String field) throws ProtocolException {
    String path = string(field + ".path");
    long offset = u64(field + ".offset");
    if (offset < 0) {
      throw error(field + ".offset", "offset " + Long.toUnsignedString(offset) + " is 2^63 or more");
    }
    long length = u64(field + ".length");
    if (length < 0 && length != InputRange.TO_END) {
      throw error(field + ".length", "length " + Long.toUnsignedString(length)
          + " is 2^63 or more (only all ones, to the end, is)");
    }
    return new InputRange(path, offset, length);
  }

  /** ExecutionStatistics: {@code u32} lanes (2^31 and more rejected), 24 {@code u64} counters. */
  public ExecutionStatistics executionStatistics(String field) throws ProtocolException {
    return executionStatistics(ProtocolConstants.OUTPUT_VERSION - 1, field);
  }

  /**
   * ExecutionStatistics in a frame of protocol {@code version}: from version 5 on, followed by output
   * bytes, pages programmed and modelled write (ns), and from version 6 on by the lane state bytes and
   * the swap pages read; before, those are 0.
   */
  public ExecutionStatistics executionStatistics(int version, String field) throws ProtocolException {
    int lanes = u32(field + ".lanes");
    if (lanes < 0) {
      throw error(field + ".lanes", "lane count " + Integer.toUnsignedString(lanes) + " is 2^31 or more");
    }
    return new ExecutionStatistics(
        lanes,
        u64(field + ".bytesScanned"),
        u64(field + ".pagesRead"),
        u64(field + ".records"),
        u64(field + ".resultRecords"),
        u64(field + ".resultBytes"),
        u64(field + ".wallNanos"),
        u64(field + ".laneCpuNanos"),
        u64(field + ".modelledNanos"),
        u64(field + ".modelledReadNanos"),
        u64(field + ".modelledComputeNanos"),
        u64(field + ".modelledMergeNanos"),
        u64(field + ".modelledTransferNanos"),
        u64(field + ".modelledDeviceMicrojoules"),
        u64(field + ".modelledHostMicrojoules"),
        u64(field + ".countedOps"),
        u64(field + ".countedMemoryAccesses"),
        u64(field + ".countedLibraryCalls"),
        u64(field + ".countedBulkBytes"),
        u64(field + ".modelledHostDelayNanos"),
        u64(field + ".behindModelNanos"),
        u64(field + ".countedTailOps"),
        u64(field + ".countedTailMemoryAccesses"),
        u64(field + ".countedTailLibraryCalls"),
        u64(field + ".countedTailBulkBytes"),
        version >= ProtocolConstants.OUTPUT_VERSION ? u64(field + ".outputBytes") : 0,
        version >= ProtocolConstants.OUTPUT_VERSION ? u64(field + ".pagesProgrammed") : 0,
        version >= ProtocolConstants.OUTPUT_VERSION ? u64(field + ".modelledWriteNanos") : 0,
        version >= ProtocolConstants.LANE_MEMORY_VERSION ? u64(field + ".laneStateBytes") : 0,
        version >= ProtocolConstants.LANE_MEMORY_VERSION ? u64(field + ".swapPagesRead") : 0,
        version >= ProtocolConstants.LIBRARY_READS_VERSION ? u64(field + ".countedLibraryReads") : 0,
        version >= ProtocolConstants.LIBRARY_READS_VERSION ? u64(field + ".countedTailLibraryReads") : 0);
  }

  /** A tasklet result: {@code u16} lane + 1 (0: lane -1, the merge), then {@code bytes} data (a view). */
  public TaskletResult taskletResult(String field) throws ProtocolException {
    int lane = u16(field + ".lane") - 1;
    return new TaskletResult(lane, bytes(field + ".data"));
  }

  /** Bytes of the smallest profile node: parent, method, four counts (five from version 8 on). */
  static final int PROFILE_NODE_BYTES = 4 + 4 + 4 * 8;

  /**
   * A WorkProfile: {@code bool} truncated, {@code u32} methods and each a {@code string}, {@code u32}
   * nodes and each {@code u32} parent + 1 (0 at the top; a caller before its callees), {@code u32}
   * method, {@code u64} ops, memory accesses, library calls, bulk bytes, and from version 8 on library
   * reads.
   */
  public org.smartssd.device.WorkProfile workProfile(int version, String field) throws ProtocolException {
    boolean withReads = version >= ProtocolConstants.LIBRARY_READS_VERSION;
    boolean truncated = bool(field + ".truncated");
    int m = count(field + ".methods", MIN_STRING_BYTES);
    java.util.List<String> methods = new java.util.ArrayList<>(m);
    for (int i = 0; i < m; i++) {
      methods.add(string(field + ".methods[" + i + "]"));
    }
    int n = count(field + ".nodes", PROFILE_NODE_BYTES + (withReads ? 8 : 0));
    java.util.List<org.smartssd.device.WorkProfile.Node> nodes = new java.util.ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String f = field + ".nodes[" + i + "]";
      int parent = u32(f + ".parent") - 1;
      int method = u32(f + ".method");
      nodes.add(new org.smartssd.device.WorkProfile.Node(parent, method, new org.smartssd.device.WorkProfile.Work(
          u64(f + ".ops"), u64(f + ".memoryAccesses"), u64(f + ".libraryCalls"), u64(f + ".bulkBytes"),
          withReads ? u64(f + ".libraryReads") : 0)));
    }
    try {
      return new org.smartssd.device.WorkProfile(methods, nodes, truncated);
    } catch (IllegalArgumentException e) {
      throw error(field, e.getMessage());
    }
  }

  /** Rejects bytes left over after the last field. */
  public void expectEnd() throws ProtocolException {
    if (buffer.hasRemaining()) {
      throw new ProtocolException(context + ": " + buffer.remaining() + " trailing bytes after the last field");
    }
  }

  /** An error about a field, with this reader's context. */
  public ProtocolException error(String field, String problem) {
    return new ProtocolException(context + ": field '" + field + "': " + problem);
  }

  private void need(String field, int n) throws ProtocolException {
    if (buffer.remaining() < n) {
      throw error(field, "truncated: needs " + n + " bytes, " + buffer.remaining() + " remain");
    }
  }
}
