package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.TaskletResult;

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

  /** SHUTDOWN, MKDIRS, RENAME, DELETE, CANCEL, REMOVE_OBJECT: nothing to say but OK. */
  record Empty() implements Response {}

  /**
   * AUTH_CHALLENGE: whether this device requires hosts to authenticate, and if so its nonce for this
   * connection ({@link HostSecret#NONCE_BYTES} bytes; empty when not required).
   */
  record AuthChallenge(boolean required, ByteBuffer deviceNonce) implements Response {
    public AuthChallenge { deviceNonce = Objects.requireNonNull(deviceNonce, "deviceNonce").duplicate(); }
  }

  /** AUTHENTICATE: the device's proof that it holds the same secret ({@link HostSecret#deviceProof}). */
  record Authenticated(ByteBuffer proof) implements Response {
    public Authenticated { proof = Objects.requireNonNull(proof, "proof").duplicate(); }
  }

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

  /** CREATE_OBJECT: the id of the installed tasklet. */
  record TaskletCreated(long taskletId) implements Response {}

  /** EXECUTE_OBJECT: the id of the started execution. */
  record ExecutionStarted(long executionId) implements Response {}

  /**
   * READ_OBJECT: where the execution stands and the result records delivered by this poll, in the
   * order the device produced them. A failing execution is reported here (state
   * {@link ExecutionState#FAILED} and its message), not by an error status.
   *
   * <p>Each result's buffer is kept as a duplicate (its window is fixed at construction; see
   * {@link Request}); decoded results are views of the frame's payload, not copies.
   *
   * @param state where the execution stands
   * @param message why it failed or was cancelled; empty otherwise
   * @param statistics the execution's counters so far
   * @param results the result records of this poll; lane -1 is the controller core's merge
   * @param finished the state is terminal and every result has been delivered: nothing more will
   *     come, and the device may forget the execution
   * @param profile the execution's counted work by call path, when it was asked for (execution option
   *     {@code profile}, protocol version 7) and the execution is done: in the poll that finishes it;
   *     null otherwise
   * @throws IllegalArgumentException when {@code finished} is set with a state that is not terminal
   */
  record ExecutionProgress(
      ExecutionState state, String message, ExecutionStatistics statistics, List<TaskletResult> results,
      boolean finished, org.smartssd.device.WorkProfile profile) implements Response {
    /** Progress without a profile. */
    public ExecutionProgress(ExecutionState state, String message, ExecutionStatistics statistics,
        List<TaskletResult> results, boolean finished) {
      this(state, message, statistics, results, finished, null);
    }

    public ExecutionProgress {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(statistics, "statistics");
      List<TaskletResult> fixed = new ArrayList<>(results.size());
      for (TaskletResult r : results) {
        Objects.requireNonNull(r, "result");
        fixed.add(new TaskletResult(r.lane(), Objects.requireNonNull(r.data(), "result data").duplicate()));
      }
      results = Collections.unmodifiableList(fixed);
      if (finished && !state.isTerminal()) {
        throw new IllegalArgumentException("an execution in state " + state + " cannot be finished");
      }
    }
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
