package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.smartssd.device.tasklet.InputRange;

/**
 * A request message: one record per opcode (PROTOCOL.md, "Opcodes"). Records that hold a
 * {@link ByteBuffer} keep a duplicate of the caller's buffer, so the window (position to limit) is
 * fixed at construction while the content is shared, and compare by content. Records that hold a
 * map keep an unmodifiable copy sorted by key, the order it is sent in.
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

  /** The host's nonce ({@link HostSecret#NONCE_BYTES} fresh random bytes): PROTOCOL.md, "Authentication". */
  record AuthChallenge(ByteBuffer hostNonce) implements Request {
    public AuthChallenge { hostNonce = Objects.requireNonNull(hostNonce, "hostNonce").duplicate(); }
    @Override public Opcode opcode() { return Opcode.AUTH_CHALLENGE; }
  }

  /** The host's proof that it holds the device's secret ({@link HostSecret#hostProof}). */
  record Authenticate(ByteBuffer proof) implements Request {
    public Authenticate { proof = Objects.requireNonNull(proof, "proof").duplicate(); }
    @Override public Opcode opcode() { return Opcode.AUTHENTICATE; }
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

  /**
   * Installs a tasklet: {@code code} holds a jar's bytes (its remaining bytes; none for a tasklet
   * built into the device), {@code className} the class implementing
   * {@link org.smartssd.device.tasklet.Tasklet}, {@code parameters} what its {@code onCreate} sees.
   */
  record CreateObject(ByteBuffer code, String className, Map<String, String> parameters) implements Request {
    public CreateObject {
      code = Objects.requireNonNull(code, "code").duplicate();
      Objects.requireNonNull(className, "className");
      parameters = StringMaps.sortedCopy(parameters, "parameters");
    }
    @Override public Opcode opcode() { return Opcode.CREATE_OBJECT; }
  }

  /** Starts an execution of an installed tasklet over byte ranges of objects, with options. */
  record ExecuteObject(long taskletId, List<InputRange> inputs, Map<String, String> options) implements Request {
    public ExecuteObject {
      inputs = List.copyOf(inputs);
      options = StringMaps.sortedCopy(options, "options");
    }
    @Override public Opcode opcode() { return Opcode.EXECUTE_OBJECT; }
  }

  /**
   * The execution's state and the results ready so far: whole result records, about
   * {@code maxBytes} of them (PROTOCOL.md, "In-storage processing"), at least one when any is ready.
   */
  record ReadObject(long executionId, int maxBytes) implements Request {
    public ReadObject {
      if (maxBytes < 0) {
        throw new IllegalArgumentException("negative maxBytes " + maxBytes);
      }
    }
    @Override public Opcode opcode() { return Opcode.READ_OBJECT; }
  }

  /** Stops an execution. */
  record Cancel(long executionId) implements Request {
    @Override public Opcode opcode() { return Opcode.CANCEL; }
  }

  /** Uninstalls a tasklet; its executions already running go on. */
  record RemoveObject(long taskletId) implements Request {
    @Override public Opcode opcode() { return Opcode.REMOVE_OBJECT; }
  }
}
