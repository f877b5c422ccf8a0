package org.smartssd.device.tasklet;

/**
 * Where the records of a {@link DataChunk} end, as the engine found them while cutting: a tasklet
 * walks its records without scanning the bytes for their ends again. Ends are offsets from the
 * chunk data's position, ascending; the last is the data's length. Read-only.
 */
public final class RecordBoundaries {
  private final int[] ends;
  private final int from;
  private final int count;
  private final int shift;
  private final int recordLength;

  private RecordBoundaries(int[] ends, int from, int count, int shift, int recordLength) {
    this.ends = ends;
    this.from = from;
    this.count = count;
    this.shift = shift;
    this.recordLength = recordLength;
  }

  /**
   * Records ending at {@code ends[from] - shift}, ..., {@code ends[from + count - 1] - shift} (the
   * array is the engine's, not copied: the boundaries are valid as long as their chunk).
   */
  public static RecordBoundaries of(int[] ends, int from, int count, int shift) {
    if (from < 0 || count < 0 || from + count > ends.length) {
      throw new IllegalArgumentException("records [" + from + ", " + (from + count) + ") of " + ends.length + " ends");
    }
    return new RecordBoundaries(ends, from, count, shift, 0);
  }

  /** {@code count} records of {@code recordLength} bytes each. */
  public static RecordBoundaries fixed(int recordLength, int count) {
    if (recordLength <= 0 || count < 0) {
      throw new IllegalArgumentException(count + " records of " + recordLength + " bytes");
    }
    return new RecordBoundaries(null, 0, count, 0, recordLength);
  }

  /** One record: the whole chunk of {@code length} bytes. */
  public static RecordBoundaries single(int length) {
    return new RecordBoundaries(new int[] {length}, 0, 1, 0, 0);
  }

  public int count() {
    return count;
  }

  /** The end of record {@code i} (0 to count - 1): the offset just past its last byte. */
  public int end(int i) {
    if (i < 0 || i >= count) {
      throw new IndexOutOfBoundsException("record " + i + " of " + count);
    }
    return ends == null ? (i + 1) * recordLength : ends[from + i] - shift;
  }

  /** A copy that does not share the engine's array (for a chunk that must outlive its event). */
  public RecordBoundaries copy() {
    if (ends == null) {
      return this;
    }
    int[] own = new int[count];
    for (int i = 0; i < count; i++) {
      own[i] = ends[from + i] - shift;
    }
    return new RecordBoundaries(own, 0, count, 0, 0);
  }

  @Override
  public String toString() {
    return count + " records";
  }
}
