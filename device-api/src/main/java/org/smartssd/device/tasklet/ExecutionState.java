package org.smartssd.device.tasklet;

import java.util.Optional;

/** Where an execution stands. Codes are stable. */
public enum ExecutionState {
  RUNNING(0),
  DONE(1),
  FAILED(2),
  CANCELLED(3);

  private final int code;

  ExecutionState(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public boolean isTerminal() {
    return this != RUNNING;
  }

  public static Optional<ExecutionState> fromCode(int code) {
    for (ExecutionState s : values()) {
      if (s.code == code) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}
