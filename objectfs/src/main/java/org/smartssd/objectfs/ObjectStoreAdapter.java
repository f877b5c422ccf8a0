package org.smartssd.objectfs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.ObjectStatus;

/**
 * The device's object commands in plain types (device path strings, {@link ObjectStatus}): what
 * {@link ObjectFileSystem} needs and no more, so that a transport (TCP today, JNI later) plugs in
 * behind it and never sees a Hadoop {@code Path}. Paths are absolute device paths. Failures are the
 * device client's exceptions, untranslated: the file system turns them into Hadoop's in one place
 * ({@link ObjfsExceptions#translate}). Thread-safe.
 */
public interface ObjectStoreAdapter extends Closeable {

  /** The device's address, {@code host:port}, as messages name it. */
  String address();

  /** Asks the device for its identity, geometry and space (DEVICE_INFO). */
  DeviceInfo deviceInfo() throws IOException;

  /**
   * Creates the directory with {@code permission} (umask applied) and missing parents (with it and
   * the owner's write and execute); an existing directory is fine.
   */
  void mkdirs(String path, int permission) throws IOException;

  ObjectStatus status(String path) throws IOException;

  /** The status of a file to read (OPEN); a directory is refused. */
  ObjectStatus open(String path) throws IOException;

  /**
   * Reads up to {@code dst.remaining()} bytes of the object from {@code offset} (fewer at its end,
   * or when a read would not fit one frame).
   *
   * @return bytes read, or -1 when {@code offset} is the object's length
   * @throws java.io.EOFException when {@code offset} is past its end
   */
  int read(long objectId, long offset, ByteBuffer dst) throws IOException;

  /** Creates a file with {@code permission} (umask applied). */
  ObjectWriter create(String path, boolean overwrite, boolean createParents, int permission) throws IOException;

  ObjectWriter append(String path) throws IOException;

  /** One page of a directory's entries (a file: its own status), sorted by name. */
  ListPage list(String path, String startAfter, int limit) throws IOException;

  /** Atomic; the destination must not exist and its parent must. */
  void rename(String source, String destination) throws IOException;

  /** Deleting the root deletes its children and keeps it. */
  void delete(String path, boolean recursive) throws IOException;

  /** Sets the mode (SET_PERMISSION). */
  void setPermission(String path, int permission) throws IOException;

  /** Sets the owner and the group; an empty one is left as it is (SET_OWNER). */
  void setOwner(String path, String owner, String group) throws IOException;

  /** Sets the modification and access times; -1 leaves one as it is (SET_TIMES). */
  void setTimes(String path, long modificationTimeMillis, long accessTimeMillis) throws IOException;

  /** A page of a listing; {@code more} when entries after the last one remain. */
  record ListPage(List<ObjectStatus> entries, boolean more) {
    public ListPage {
      entries = List.copyOf(entries);
    }
  }
}
