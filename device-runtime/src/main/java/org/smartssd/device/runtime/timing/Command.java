package org.smartssd.device.runtime.timing;

/**
 * The modelled time of one host command, from its arrival to its completion. Used by one thread at a
 * time; every operation accounts into its {@link TimingModel} under the model's lock, so commands on
 * several threads share the device's resources.
 */
public final class Command implements FlashTimeline {

  private final TimingModel model;
  private final long arrivalNanos;
  private final long readyNanos;
  private long dataReadyNanos;
  private long flashDoneNanos;
  private long transfersEndNanos;
  private long programsAwaitedNanos;
  private long notBeforeNanos;
  private final boolean internal;
  private long completionNanos = -1;
  /** Per channel, how much internal reads delayed this command's operations there. */
  private final long[] internalDelay;
  private final long[] delay = new long[1];

  Command(TimingModel model, long arrivalNanos, long readyNanos, int channels, boolean internal) {
    this.model = model;
    this.internal = internal;
    this.arrivalNanos = arrivalNanos;
    this.readyNanos = readyNanos;
    this.dataReadyNanos = readyNanos;
    this.internalDelay = new long[channels];
  }

  /** The model this command accounts into. */
  @Override
  public TimingModel model() {
    return model;
  }

  /** Host to device data over the link; programs of this command start after it. */
  public void transferIn(long bytes) {
    checkOpen();
    long end = model.transferIn(readyNanos, bytes);
    dataReadyNanos = Math.max(dataReadyNanos, end);
    transfersEndNanos = Math.max(transfersEndNanos, end);
  }

  /** Reads a page on this die: cell read, then the channel bus; the command waits for it. */
  @Override
  public void readPage(int channel, int way) {
    checkOpen();
    flashDoneNanos = Math.max(flashDoneNanos, model.readPage(readyNanos, channel, way, delay));
    internalDelay[channel] += delay[0];
  }

  /** Programs a page on this die; the command does not wait for the cells (write-back buffer). */
  @Override
  public void programPage(int channel, int way) {
    checkOpen();
    model.programPage(dataReadyNanos, channel, way, delay);
    internalDelay[channel] += delay[0];
  }

  /** Erases a block on this die; the command waits for it (garbage collection delays its write). */
  @Override
  public void eraseBlock(int channel, int way) {
    checkOpen();
    flashDoneNanos = Math.max(flashDoneNanos, model.eraseBlock(readyNanos, channel, way));
  }

  /** Device to host data over the link, streamed behind this command's page reads. */
  public void transferOut(long bytes) {
    checkOpen();
    transfersEndNanos = Math.max(transfersEndNanos, model.transferOut(readyNanos, flashDoneNanos, bytes));
  }

  /**
   * When the command's data is in the device's buffer (after its transfer over the link); before any
   * transfer, when the command is ready.
   */
  public long dataReadyNanos() {
    return dataReadyNanos;
  }

  /** The command completes no earlier than {@code nanos} (a writer waiting for room in a buffer). */
  public void notBefore(long nanos) {
    checkOpen();
    notBeforeNanos = Math.max(notBeforeNanos, nanos);
  }

  /** Whether the device issued this command itself (not a host's): it does not end the device's idleness. */
  public boolean internal() {
    return internal;
  }

  /** The command completes no earlier than every outstanding program on every die (a sync). */
  public void awaitPrograms() {
    checkOpen();
    programsAwaitedNanos = Math.max(programsAwaitedNanos, model.allWaysIdleAt());
  }

  /** Records the command as answered and returns its completion on the modelled clock. */
  public long complete() {
    checkOpen();
    completionNanos = Math.max(Math.max(readyNanos, flashDoneNanos),
        Math.max(Math.max(transfersEndNanos, programsAwaitedNanos), notBeforeNanos));
    model.complete(arrivalNanos, completionNanos, internalDelayNanos(), internal);
    return completionNanos;
  }

  /**
   * How much internal reads delayed this command: its channels work in parallel, so the most any of
   * them was delayed.
   */
  public long internalDelayNanos() {
    long most = 0;
    for (long d : internalDelay) {
      most = Math.max(most, d);
    }
    return most;
  }

  /** Arrival on the modelled clock. */
  public long arrival() {
    return arrivalNanos;
  }

  public boolean isComplete() {
    return completionNanos >= 0;
  }

  /** Completion on the modelled clock; only after {@link #complete()}. */
  public long completionNanos() {
    checkComplete();
    return completionNanos;
  }

  /** Completion minus arrival; only after {@link #complete()}. */
  public long durationNanos() {
    checkComplete();
    return completionNanos - arrivalNanos;
  }

  private void checkOpen() {
    if (isComplete()) {
      throw new IllegalStateException("command already completed");
    }
  }

  private void checkComplete() {
    if (!isComplete()) {
      throw new IllegalStateException("command not completed yet");
    }
  }
}
