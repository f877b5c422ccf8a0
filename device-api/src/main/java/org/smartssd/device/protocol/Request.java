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

  /**
   * Who the connection's user is, and the groups the user is in (PROTOCOL.md, "Users and
   * permissions"); version 4 on, once a connection.
   */
  record Identify(String user, List<String> groups) implements Request {
    public Identify {
      Objects.requireNonNull(user, "user");
      groups = List.copyOf(groups);
    }
    @Override public Opcode opcode() { return Opcode.IDENTIFY; }
  }

  /**
   * Makes the directory and its missing parents. The directory gets {@code permission} (sent from
   * version 4 on), a parent made on the way the same with the owner's write and execute added.
   */
  record Mkdirs(String path, int permission) implements Request {
    public Mkdirs {
      Objects.requireNonNull(path, "path");
      checkPermission(permission);
    }
    /** With the permission versions 1 to 3 give ({@link ProtocolConstants#DEFAULT_DIRECTORY_PERMISSION}). */
    public Mkdirs(String path) { this(path, ProtocolConstants.DEFAULT_DIRECTORY_PERMISSION); }
    @Override public Opcode opcode() { return Opcode.MKDIRS; }
  }

  /** Creates a file with {@code permission} (sent from version 4 on; parents made get it with u+wx). */
  record Create(String path, boolean overwrite, boolean createParents, int permission) implements Request {
    public Create {
      Objects.requireNonNull(path, "path");
      checkPermission(permission);
    }
    /** With the permission versions 1 to 3 give ({@link ProtocolConstants#DEFAULT_FILE_PERMISSION}). */
    public Create(String path, boolean overwrite, boolean createParents) {
      this(path, overwrite, createParents, ProtocolConstants.DEFAULT_FILE_PERMISSION);
    }
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

  /** Sets the mode of a file or directory: {@code ObjectStatus.PERMISSION_BITS} at most. */
  record SetPermission(String path, int permission) implements Request {
    public SetPermission {
      Objects.requireNonNull(path, "path");
      checkPermission(permission);
    }
    @Override public Opcode opcode() { return Opcode.SET_PERMISSION; }
  }

  /** Sets the owner, the group, or both; an empty one is left as it is. */
  record SetOwner(String path, String owner, String group) implements Request {
    public SetOwner {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(group, "group");
    }
    @Override public Opcode opcode() { return Opcode.SET_OWNER; }
  }

  /**
   * Sets the modification time, the access time, or both (milliseconds since the epoch);
   * {@link ProtocolConstants#KEEP_TIME} leaves one as it is.
   */
  record SetTimes(String path, long modificationTimeMillis, long accessTimeMillis) implements Request {
    public SetTimes { Objects.requireNonNull(path, "path"); }
    @Override public Opcode opcode() { return Opcode.SET_TIMES; }
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

  /**
   * Starts an execution of an installed tasklet over byte ranges of objects, with options; from
   * version 5, with an object for it to write on flash ({@code outputPath}, empty for none, made with
   * {@code outputPermission}).
   */
  record ExecuteObject(long taskletId, List<InputRange> inputs, Map<String, String> options, String outputPath,
      int outputPermission) implements Request {
    public ExecuteObject {
      inputs = List.copyOf(inputs);
      options = StringMaps.sortedCopy(options, "options");
      Objects.requireNonNull(outputPath, "outputPath");
      checkPermission(outputPermission);
    }

    /** An execution whose results all go to the host (no output object). */
    public ExecuteObject(long taskletId, List<InputRange> inputs, Map<String, String> options) {
      this(taskletId, inputs, options, "", ProtocolConstants.DEFAULT_FILE_PERMISSION);
    }

    /** Whether the execution writes an output object. */
    public boolean hasOutput() {
      return !outputPath.isEmpty();
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

  /** A permission must fit {@code ObjectStatus.PERMISSION_BITS} (the sticky bit and rwx three times). */
  private static void checkPermission(int permission) {
    if ((permission & ~org.smartssd.device.ObjectStatus.PERMISSION_BITS) != 0) {
      throw new IllegalArgumentException("permission " + Integer.toOctalString(permission)
          + " has bits beyond " + Integer.toOctalString(org.smartssd.device.ObjectStatus.PERMISSION_BITS));
    }
  }
}
