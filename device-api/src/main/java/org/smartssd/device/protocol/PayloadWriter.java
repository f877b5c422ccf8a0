package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * Builds a payload in the protocol's types, big-endian, in a growable array.
 *
 * <p>A {@code bytes} field of at least {@link #ATTACH_THRESHOLD} bytes is not copied: the writer
 * keeps a view of the caller's buffer as a segment of its own, and {@link #segments()} hands the
 * payload out as a list of buffers for a gathering write. The caller must then leave that buffer's
 * content alone until the payload is sent. Values out of a type's range are programming errors and
 * raise {@link IllegalArgumentException}.
 */
public final class PayloadWriter {
  /** Smaller {@code bytes} fields are copied: a segment of their own would cost more than the copy. */
  public static final int ATTACH_THRESHOLD = 4096;

  private final List<ByteBuffer> done = new ArrayList<>();
  private byte[] array;
  private int position;
  /** Start of the part of {@link #array} not yet in {@link #done}. */
  private int segmentStart;
  private int size;
  private CharsetEncoder encoder;

  public PayloadWriter() {
    this(256);
  }

  public PayloadWriter(int initialCapacity) {
    array = new byte[Math.max(16, initialCapacity)];
  }

  /** Bytes written so far. */
  public int size() {
    return size;
  }

  public PayloadWriter u8(int value) {
    if (value < 0 || value > 0xFF) {
      throw new IllegalArgumentException("u8 " + value + " out of range");
    }
    ensure(1);
    array[position++] = (byte) value;
    size += 1;
    return this;
  }

  public PayloadWriter bool(boolean value) {
    return u8(value ? 1 : 0);
  }

  public PayloadWriter u16(int value) {
    if (value < 0 || value > ProtocolConstants.MAX_U16) {
      throw new IllegalArgumentException("u16 " + value + " out of range");
    }
    ensure(2);
    array[position++] = (byte) (value >>> 8);
    array[position++] = (byte) value;
    size += 2;
    return this;
  }

  /** A u32, given as Java's int of the same bits. */
  public PayloadWriter u32(int value) {
    ensure(4);
    for (int shift = 24; shift >= 0; shift -= 8) {
      array[position++] = (byte) (value >>> shift);
    }
    size += 4;
    return this;
  }

  /** A u64, given as Java's long of the same bits. */
  public PayloadWriter u64(long value) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      array[position++] = (byte) (value >>> shift);
    }
    size += 8;
    return this;
  }

  /**
   * A u16 byte length and the UTF-8 bytes.
   *
   * @throws IllegalArgumentException when the string is over 65535 bytes of UTF-8, or holds an
   *     unpaired surrogate (which has no UTF-8 form)
   */
  public PayloadWriter string(String value) {
    ByteBuffer utf8 = encode(value);
    if (utf8.remaining() > ProtocolConstants.MAX_U16) {
      throw new IllegalArgumentException("string of " + utf8.remaining() + " bytes of UTF-8 is longer than the "
          + ProtocolConstants.MAX_U16 + " a string field holds: \"" + abbreviate(value) + "\"");
    }
    u16(utf8.remaining());
    put(utf8);
    return this;
  }

  /**
   * A u32 byte length and the buffer's remaining bytes. The buffer's position is not changed;
   * large buffers are kept by reference (see the class comment).
   */
  public PayloadWriter bytes(ByteBuffer data) {
    ByteBuffer view = data.duplicate();
    u32(view.remaining());
    if (view.remaining() < ATTACH_THRESHOLD) {
      put(view);
      return this;
    }
    closeSegment();
    done.add(view);
    size += view.remaining();
    return this;
  }

  public PayloadWriter bytes(byte[] data, int offset, int length) {
    return bytes(ByteBuffer.wrap(data, offset, length));
  }

  /**
   * An {@code ObjectStatus} as protocol {@code version} lays it out: from version 4 on with owner,
   * group, permission and access time, which it must then have.
   */
  public PayloadWriter objectStatus(int version, ObjectStatus status) {
    string(status.path())
        .u8(status.directory() ? 1 : 0)
        .u64(status.length())
        .u64(status.modificationTimeMillis())
        .u64(status.objectId());
    if (version >= ProtocolConstants.PERMISSIONS_VERSION) {
      if (!status.hasPermission()) {
        throw new IllegalArgumentException("the status of " + status.path() + " in protocol version " + version
            + " must carry a permission");
      }
      string(status.owner()).string(status.group()).u16(status.permission()).u64(status.accessTimeMillis());
    }
    return this;
  }

  public PayloadWriter geometry(DeviceGeometry geometry) {
    return u32(geometry.channels())
        .u32(geometry.waysPerChannel())
        .u32(geometry.blocksPerWay())
        .u32(geometry.pagesPerBlock())
        .u32(geometry.pageSizeBytes())
        .u32(geometry.stripeUnitPages());
  }

  /**
   * A {@code u32} count, then each entry as {@code string} key, {@code string} value, in key order
   * ({@link String#compareTo}) whatever the map's own order.
   */
  public PayloadWriter stringMap(Map<String, String> map) {
    Map<String, String> sorted = StringMaps.sortedCopy(map, "map");
    u32(sorted.size());
    sorted.forEach((key, value) -> string(key).string(value));
    return this;
  }

  /** {@code string} path, {@code u64} offset, {@code u64} length ({@link InputRange#TO_END}: all ones). */
  public PayloadWriter inputRange(InputRange range) {
    return string(range.path()).u64(range.offset()).u64(range.length());
  }

  /**
   * {@code u32} lanes, then the 14 counters as {@code u64} in the record's order.
   *
   * @throws IllegalArgumentException for a negative lane count
   */
  public PayloadWriter executionStatistics(ExecutionStatistics s) {
    if (s.lanes() < 0) {
      throw new IllegalArgumentException("negative lane count " + s.lanes());
    }
    return u32(s.lanes())
        .u64(s.bytesScanned())
        .u64(s.pagesRead())
        .u64(s.records())
        .u64(s.resultRecords())
        .u64(s.resultBytes())
        .u64(s.wallNanos())
        .u64(s.laneCpuNanos())
        .u64(s.modelledNanos())
        .u64(s.modelledReadNanos())
        .u64(s.modelledComputeNanos())
        .u64(s.modelledMergeNanos())
        .u64(s.modelledTransferNanos())
        .u64(s.modelledDeviceMicrojoules())
        .u64(s.modelledHostMicrojoules())
        .u64(s.countedOps())
        .u64(s.countedMemoryAccesses())
        .u64(s.countedLibraryCalls())
        .u64(s.countedBulkBytes())
        .u64(s.modelledHostDelayNanos())
        .u64(s.behindModelNanos())
        .u64(s.countedTailOps())
        .u64(s.countedTailMemoryAccesses())
        .u64(s.countedTailLibraryCalls())
        .u64(s.countedTailBulkBytes());
  }

  /**
   * ExecutionStatistics in a frame of protocol {@code version}: from version 5 on, the base counters
   * then output bytes, pages programmed and modelled write (ns) as {@code u64}; before, the base
   * counters only (a client of an earlier version does not know output objects); from version 6 on,
   * then the lane state bytes and the swap pages read.
   */
  public PayloadWriter executionStatistics(int version, ExecutionStatistics s) {
    executionStatistics(s);
    if (version >= ProtocolConstants.OUTPUT_VERSION) {
      u64(s.outputBytes()).u64(s.pagesProgrammed()).u64(s.modelledWriteNanos());
    }
    if (version >= ProtocolConstants.LANE_MEMORY_VERSION) {
      u64(s.laneStateBytes()).u64(s.swapPagesRead());
    }
    if (version >= ProtocolConstants.LIBRARY_READS_VERSION) {
      u64(s.countedLibraryReads()).u64(s.countedTailLibraryReads());
    }
    return this;
  }

  /** A WorkProfile in a frame of protocol {@code version} ({@link PayloadReader#workProfile}). */
  public PayloadWriter workProfile(int version, org.smartssd.device.WorkProfile p) {
    bool(p.truncated()).u32(p.methods().size());
    p.methods().forEach(this::string);
    u32(p.nodes().size());
    boolean reads = version >= ProtocolConstants.LIBRARY_READS_VERSION;
    for (org.smartssd.device.WorkProfile.Node n : p.nodes()) {
      u32(n.parent() + 1).u32(n.method()).u64(n.own().ops()).u64(n.own().memoryAccesses()).u64(n.own().libraryCalls())
          .u64(n.own().bulkBytes());
      if (reads) {
        u64(n.own().libraryReads());
      }
    }
    return this;
  }

  /**
   * {@code u16} lane + 1 (0 for the controller core's merge, lane -1), then {@code bytes} data.
   *
   * @throws IllegalArgumentException for a lane below -1 or above {@link ProtocolConstants#MAX_LANE}
   */
  public PayloadWriter taskletResult(TaskletResult result) {
    int lane = result.lane();
    if (lane < ProtocolConstants.MERGE_LANE || lane > ProtocolConstants.MAX_LANE) {
      throw new IllegalArgumentException("lane " + lane + " out of range " + ProtocolConstants.MERGE_LANE
          + ".." + ProtocolConstants.MAX_LANE);
    }
    return u16(lane + 1).bytes(result.data());
  }

  /**
   * The payload as buffers to be written in order, without copying attached data. The writer
   * can still be appended to afterwards; the returned buffers do not see that.
   */
  public List<ByteBuffer> segments() {
    List<ByteBuffer> all = new ArrayList<>(done.size() + 1);
    for (ByteBuffer b : done) {
      all.add(b.duplicate());
    }
    if (position > segmentStart) {
      all.add(ByteBuffer.wrap(array, segmentStart, position - segmentStart).slice());
    }
    return all;
  }

  /** The payload as one buffer (a copy when data was attached), position 0, limit {@link #size()}. */
  public ByteBuffer toByteBuffer() {
    if (done.isEmpty()) {
      return ByteBuffer.wrap(Arrays.copyOfRange(array, segmentStart, position));
    }
    ByteBuffer all = ByteBuffer.allocate(size);
    for (ByteBuffer b : segments()) {
      all.put(b);
    }
    return all.flip();
  }

  private void closeSegment() {
    if (position > segmentStart) {
      // The array region stays valid: later writes go after it, and growth copies to a new array.
      done.add(ByteBuffer.wrap(array, segmentStart, position - segmentStart).slice());
      segmentStart = position;
    }
  }

  private void put(ByteBuffer data) {
    int n = data.remaining();
    ensure(n);
    data.get(array, position, n);
    position += n;
    size += n;
  }

  private void ensure(int more) {
    if (array.length - position >= more) {
      return;
    }
    long needed = (long) position + more;
    if (needed > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("payload would exceed 2 GiB");
    }
    int capacity = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * array.length));
    array = Arrays.copyOf(array, capacity);
  }

  private ByteBuffer encode(String value) {
    if (encoder == null) {
      encoder = StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
    }
    try {
      return encoder.reset().encode(CharBuffer.wrap(value));
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("string has no UTF-8 form (unpaired surrogate?): \""
          + abbreviate(value) + "\"", e);
    }
  }

  private static String abbreviate(String value) {
    return value.length() <= 40 ? value : value.substring(0, 40) + "...";
  }
}
