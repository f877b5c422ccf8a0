package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A request message: one record per opcode (PROTOCOL.md, "Opcodes"). Records that hold a
 * {@link ByteBuffer} keep a duplicate of the caller's buffer, so the window (position to limit) is
 * fixed at construction while the content is shared, and compare by content.
 */
public sealed interface Request {
  Opcode opcode();

  record ApiVersions() implements Request {
    @Override public Opcode opcode() { return Opcode.API_VERSIONS; }
  }

  record Info() implements Request {
    @Override public Opcode opcode() { return Opcode.DEVICE_INFO; }
  }

  record Statistics() implements Request {
    @Override public Opcode opcode() { return Opcode.STATISTICS; }
  }

  record Shutdown() implements Request {
    @Override public Opcode opcode() { return Opcode.SHUTDOWN; }
  }

  record Mkdirs(String path) implements Request {
    public Mkdirs { Objects.requireNonNull(path, "path"); }
    @Override public Opcode opcode() { return Opcode.MKDIRS; }
  }

  record Create(String path, boolean overwrite, boolean createParents) implements Request {
    public Create { Objects.requireNonNull(path, "path"); }
    @Override public Opcode opcode() { return Opcode.CREATE; }
  }

  record Append(String path) implements Request {
    public Append { Objects.requireNonNull(path, "path"); }
    @Override public Opcode opcode() { return Opcode.APPEND; }
  }

  /** Appends the data's remaining bytes to the object open under the handle. */
  record Write(long handle, ByteBuffer data) implements Request {
    public Write { data = Objects.requireNonNull(data, "data").duplicate(); }
    @Override public Opcode opcode() { return Opcode.WRITE; }
  }

  record Flush(long handle) implements Request {
    @Override public Opcode opcode() { return Opcode.FLUSH; }
  }

  record Sync(long handle) implements Request {
    @Override public Opcode opcode() { return Opcode.SYNC; }
  }

  record Close(long handle) implements Request {
    @Override public Opcode opcode() { return Opcode.CLOSE; }
  }

  record Open(String path) implements Request {
    public Open { Objects.requireNonNull(path, "path"); }
    @Override public Opcode opcode() { return Opcode.OPEN; }
  }

  /** At most {@code length} bytes of the object from {@code offset} (offsets are u64). */
  record Read(long objectId, long offset, int length) implements Request {
    public Read {
      if (length < 0) {
        throw new IllegalArgumentException("negative read length " + length);
      }
    }
    @Override public Opcode opcode() { return Opcode.READ; }
  }

  record GetStatus(String path) implements Request {
    public GetStatus { Objects.requireNonNull(path, "path"); }
    @Override public Opcode opcode() { return Opcode.STATUS; }
  }

  /** A page of a directory: names after {@code startAfter} ("" from the start), at most {@code limit}. */
  record ListDir(String path, String startAfter, int limit) implements Request {
    public ListDir {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(startAfter, "startAfter");
      if (limit < 0) {
        throw new IllegalArgumentException("negative list limit " + limit);
      }
    }
    @Override public Opcode opcode() { return Opcode.LIST; }
  }

  record Rename(String source, String destination) implements Request {
    public Rename {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(destination, "destination");
    }
    @Override public Opcode opcode() { return Opcode.RENAME; }
  }

  record Delete(String path, boolean recursive) implements Request {
    public Delete { Objects.requireNonNull(path, "path"); }
    @Override public Opcode opcode() { return Opcode.DELETE; }
  }
}
