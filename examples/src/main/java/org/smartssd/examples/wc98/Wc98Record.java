package org.smartssd.examples.wc98;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDate;

/**
 * One request of the World Cup 1998 trace, as its 20-byte big-endian binary record (docs/WC98.md):
 *
 * <pre>
 * offset 0  timestamp  uint32  seconds since the epoch, GMT
 *        4  clientId   uint32
 *        8  objectId   uint32
 *       12  size       uint32  0xFFFFFFFF = none
 *       16  method     uint8
 *       17  status     uint8   bits 7-6 HTTP version, bits 5-0 status index
 *       18  type       uint8
 *       19  server     uint8   bits 7-5 region, bits 4-0 server number
 * </pre>
 *
 * <p>The components are the fields as stored (unsigned 32-bit fields in a {@code long}, the status and
 * server bytes as {@code int}s 0-255); the accessors below decode the packed bytes. A record is always
 * valid: region 0-3, status index 0-37, every field in range.
 *
 * @param timestamp seconds since the Unix epoch, GMT (the site's local time was GMT+2)
 * @param size bytes in the response, or {@link #SIZE_NONE}
 * @param status the status byte: HTTP version in bits 7-6, status index in bits 5-0
 * @param server the server byte: region in bits 7-5, server number at that site in bits 4-0
 */
public record Wc98Record(
    long timestamp, long clientId, long objectId, long size, Method method, int status, FileType type, int server) {

  /** Bytes in a binary record. */
  public static final int BYTES = 20;
  /**
   * What fills a stored record past its {@value #BYTES} bytes, when records are stored wider (a log
   * whose records carry fields the analyses skip; {@code wc98 load --record-bytes}). Read as a record,
   * padding is invalid (server byte 0xff: region 7), so that records read at the wrong width fail.
   */
  public static final byte PADDING = (byte) 0xFF;
  /** The widest a stored record may be. */
  public static final int MAX_STORED_BYTES = 1 << 20;

  /**
   * Checks a stored record width.
   *
   * @throws IllegalArgumentException naming {@code what} when it is below {@value #BYTES} or above
   *     {@link #MAX_STORED_BYTES}
   */
  public static int checkStoredBytes(String what, long bytes) {
    if (bytes < BYTES || bytes > MAX_STORED_BYTES) {
      throw new IllegalArgumentException(what + " must be between " + BYTES + " and " + MAX_STORED_BYTES
          + " bytes, not " + bytes);
    }
    return (int) bytes;
  }
  /** The size field of a response without one (printed {@code -}), e.g. 304 Not Modified. */
  public static final long SIZE_NONE = 0xFFFF_FFFFL;
  /** The largest value of a uint32 field. */
  public static final long UINT32_MAX = 0xFFFF_FFFFL;
  /** Servers per region the 5-bit server number can address. */
  public static final int MAX_SERVERS_PER_REGION = 32;

  private static final String[] MONTHS = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
  };

  public Wc98Record {
    checkUint32("timestamp", timestamp);
    checkUint32("clientId", clientId);
    checkUint32("objectId", objectId);
    checkUint32("size", size);
    if (method == null || type == null) {
      throw new IllegalArgumentException("method and type are required");
    }
    if (status < 0 || status > 0xFF || server < 0 || server > 0xFF) {
      throw new IllegalArgumentException("status and server are bytes, not " + status + " and " + server);
    }
    int statusIndex = status & 0x3F;
    if (statusIndex > StatusCodes.OTHER_INDEX) {
      throw new IllegalArgumentException("unknown status index " + statusIndex + " (indexes are 0-37)");
    }
    int region = server >>> 5;
    if (region > Region.PARIS.code()) {
      throw new IllegalArgumentException(
          "region " + region + " is not one of 0-3 (server byte 0x" + Integer.toHexString(server) + ")");
    }
  }

  /**
   * A record from decoded fields.
   *
   * @param httpStatus an HTTP status code; a code outside docs/WC98.md's table is stored as index 37 and
   *     reads back as {@link StatusCodes#UNKNOWN_CODE}
   * @param serverNumber the server at its site, 0-31
   */
  public static Wc98Record of(long timestamp, long clientId, long objectId, long size, Method method,
      HttpVersion version, int httpStatus, FileType type, Region region, int serverNumber) {
    if (serverNumber < 0 || serverNumber >= MAX_SERVERS_PER_REGION) {
      throw new IllegalArgumentException("server number " + serverNumber + " is not one of 0-31");
    }
    int status = version.code() << 6 | StatusCodes.index(httpStatus);
    return new Wc98Record(timestamp, clientId, objectId, size, method, status, type, region.code() << 5 | serverNumber);
  }

  /**
   * Reads one record at the buffer's position and advances it by {@link #BYTES}.
   *
   * @throws IllegalArgumentException if the record is invalid: region 4 or more, unknown method (over
   *     8), type (over 12) or status index (over 37)
   * @throws java.nio.BufferUnderflowException if fewer than {@link #BYTES} remain
   * @throws IllegalArgumentException also if the buffer is not big-endian (the default order)
   */
  public static Wc98Record read(ByteBuffer in) {
    requireBigEndian(in);
    long timestamp = Integer.toUnsignedLong(in.getInt());
    long clientId = Integer.toUnsignedLong(in.getInt());
    long objectId = Integer.toUnsignedLong(in.getInt());
    long size = Integer.toUnsignedLong(in.getInt());
    int method = in.get() & 0xFF;
    int status = in.get() & 0xFF;
    int type = in.get() & 0xFF;
    int server = in.get() & 0xFF;
    return new Wc98Record(timestamp, clientId, objectId, size, Method.fromCode(method), status,
        FileType.fromCode(type), server);
  }

  /** Writes the record at the buffer's position (which must be big-endian, as buffers are by default) and advances it. */
  public void write(ByteBuffer out) {
    requireBigEndian(out);
    out.putInt((int) timestamp);
    out.putInt((int) clientId);
    out.putInt((int) objectId);
    out.putInt((int) size);
    out.put((byte) method.code());
    out.put((byte) status);
    out.put((byte) type.code());
    out.put((byte) server);
  }

  /** The site that served the request (bits 7-5 of the server byte). */
  public Region region() {
    return Region.fromCode(server >>> 5);
  }

  /** The server at its site (bits 4-0 of the server byte). */
  public int serverNumber() {
    return server & 0x1F;
  }

  /** The HTTP version of the request (bits 7-6 of the status byte). */
  public HttpVersion httpVersion() {
    return HttpVersion.fromCode(status >>> 6);
  }

  /** The status index (bits 5-0 of the status byte), 0-37. */
  public int statusIndex() {
    return status & 0x3F;
  }

  /** The HTTP status code, or {@link StatusCodes#UNKNOWN_CODE} for index 37 (a code outside the table). */
  public int httpStatus() {
    return StatusCodes.code(statusIndex());
  }

  public boolean hasSize() {
    return size != SIZE_NONE;
  }

  /** The text form with the {@link UrlNaming#synthetic() synthetic URLs}. */
  public String toCommonLogFormat() {
    return toCommonLogFormat(UrlNaming.synthetic());
  }

  /**
   * The text form the trace's tools print, Common Log Format with the client as its integer:
   * {@code 34600 - - [30/Apr/1998:21:30:17 +0000] "GET /images/hm_bg.jpg HTTP/1.0" 200 24736}. The size
   * prints {@code -} when there is none and for a 304; a status outside docs/WC98.md's table prints
   * {@code -}, since the trace does not keep it.
   */
  public String toCommonLogFormat(UrlNaming urls) {
    StringBuilder sb = new StringBuilder(96);
    appendCommonLogFormat(sb, urls);
    return sb.toString();
  }

  /** {@link #toCommonLogFormat(UrlNaming)} appended to a builder, without a line end. */
  public void appendCommonLogFormat(StringBuilder sb, UrlNaming urls) {
    sb.append(clientId).append(" - - [");
    appendTimestamp(sb, timestamp);
    sb.append(" +0000] \"").append(method.name()).append(' ');
    if (urls == SyntheticUrls.INSTANCE) {
      SyntheticUrls.append(sb, objectId, type);
    } else {
      sb.append(urls.url(objectId, type));
    }
    sb.append(' ').append(httpVersion().text()).append("\" ");
    int code = httpStatus();
    if (code == StatusCodes.UNKNOWN_CODE) {
      sb.append('-');
    } else {
      sb.append(code);
    }
    sb.append(' ');
    if (size == SIZE_NONE || code == 304) {
      sb.append('-');
    } else {
      sb.append(size);
    }
  }

  /** {@code dd/Mon/yyyy:HH:mm:ss} in GMT. */
  private static void appendTimestamp(StringBuilder sb, long epochSecond) {
    long day = Math.floorDiv(epochSecond, 86_400L);
    int secondOfDay = (int) Math.floorMod(epochSecond, 86_400L);
    LocalDate date = LocalDate.ofEpochDay(day);
    twoDigits(sb, date.getDayOfMonth());
    sb.append('/').append(MONTHS[date.getMonthValue() - 1]).append('/').append(date.getYear()).append(':');
    twoDigits(sb, secondOfDay / 3600);
    sb.append(':');
    twoDigits(sb, secondOfDay / 60 % 60);
    sb.append(':');
    twoDigits(sb, secondOfDay % 60);
  }

  private static void twoDigits(StringBuilder sb, int value) {
    sb.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
  }

  private static void requireBigEndian(ByteBuffer buffer) {
    if (buffer.order() != ByteOrder.BIG_ENDIAN) {
      throw new IllegalArgumentException("the trace is big-endian; the buffer is " + buffer.order());
    }
  }

  private static void checkUint32(String field, long value) {
    if (value < 0 || value > UINT32_MAX) {
      throw new IllegalArgumentException(field + " " + value + " is not a uint32");
    }
  }
}
