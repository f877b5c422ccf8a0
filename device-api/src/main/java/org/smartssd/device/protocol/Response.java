package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ObjectStatus;

/**
 * A response message. {@link Opcode#responseType()} says which record answers which opcode with
 * status OK; {@link Error} answers any opcode with any other status. {@link Data} holds a duplicate
 * of its buffer (see {@link Request}) and compares by content.
 */
public sealed interface Response {

  /** API_VERSIONS: the range of versions the device speaks. */
  record Versions(int minVersion, int maxVersion) implements Response {
    public Versions {
      if (minVersion < 0 || maxVersion > ProtocolConstants.MAX_U16 || minVersion > maxVersion) {
        throw new IllegalArgumentException("bad version range " + minVersion + ".." + maxVersion);
      }
    }
  }

  record Info(DeviceInfo info) implements Response {
    public Info { Objects.requireNonNull(info, "info"); }
  }

  record Statistics(DeviceStatistics statistics) implements Response {
    public Statistics { Objects.requireNonNull(statistics, "statistics"); }
  }

  /** SHUTDOWN, MKDIRS, RENAME, DELETE: nothing to say but OK. */
  record Empty() implements Response {}

  /** CREATE and APPEND: the write handle, the object and its current length. */
  record Opened(long handle, long objectId, long length) implements Response {}

  /** WRITE, FLUSH, SYNC, CLOSE: a length of the object (see PROTOCOL.md for which). */
  record Length(long length) implements Response {}

  /** OPEN and STATUS. */
  record Stat(ObjectStatus status) implements Response {
    public Stat { Objects.requireNonNull(status, "status"); }
  }

  /** READ: the bytes read; none at the end of the object. */
  record Data(ByteBuffer data) implements Response {
    public Data { data = Objects.requireNonNull(data, "data").duplicate(); }
  }

  /** LIST: a page of entries sorted by name, and whether more follow. */
  record Listing(List<ObjectStatus> entries, boolean more) implements Response {
    public Listing { entries = List.copyOf(entries); }
  }

  /** Any status but OK, with a message naming what was wrong. */
  record Error(Status status, String message) implements Response {
    public Error {
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(message, "message");
      if (status == Status.OK) {
        throw new IllegalArgumentException("an error response needs a status other than OK");
      }
    }
  }
}
