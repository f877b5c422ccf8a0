package org.smartssd.device.tasklet.builtin;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Results that say which file they are of, for a tasklet whose results from several files meet in one
 * execution's (an analysis attached to a directory takes every file written there). One result is, in
 * little-endian: the path's length (u16) and its UTF-8 bytes, whether it is the file's last (u8), the
 * file's units analysed so far (u64: samples, bytes, as the tasklet counts), the payload's length (u32)
 * and the payload.
 */
public final class FileResults {
  private FileResults() {}

  /** A part of one file's results. */
  public record Part(String path, boolean last, long analysed, ByteBuffer payload) {}

  public static byte[] encode(String path, boolean last, long analysed, byte[] payload) {
    byte[] name = path.getBytes(StandardCharsets.UTF_8);
    if (name.length > 0xFFFF) {
      throw new IllegalArgumentException("a path of " + name.length + " bytes is too long for a result");
    }
    ByteBuffer b = ByteBuffer.allocate(2 + name.length + 1 + 8 + 4 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
    b.putShort((short) name.length).put(name).put((byte) (last ? 1 : 0)).putLong(analysed).putInt(payload.length)
        .put(payload);
    return b.array();
  }

  /** Decodes one result. */
  public static Part decode(ByteBuffer result) {
    ByteBuffer b = result.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    try {
      byte[] name = new byte[Short.toUnsignedInt(b.getShort())];
      b.get(name);
      boolean last = b.get() == 1;
      long analysed = b.getLong();
      int length = b.getInt();
      if (length < 0 || length != b.remaining()) {
        throw new IllegalArgumentException("a file result says " + length + " payload bytes and has " + b.remaining());
      }
      return new Part(new String(name, StandardCharsets.UTF_8), last, analysed, b.slice().asReadOnlyBuffer());
    } catch (java.nio.BufferUnderflowException e) {
      throw new IllegalArgumentException("a file result of " + result.remaining() + " bytes is cut short", e);
    }
  }

  /** Decodes results. */
  public static List<Part> decodeAll(List<ByteBuffer> results) {
    List<Part> parts = new ArrayList<>(results.size());
    for (ByteBuffer r : results) {
      parts.add(decode(r));
    }
    return parts;
  }
}
