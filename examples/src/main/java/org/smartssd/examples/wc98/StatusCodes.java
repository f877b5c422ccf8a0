package org.smartssd.examples.wc98;

/**
 * The trace's 6-bit status index, both ways (docs/WC98.md): 100→0, 101→1, 200..206→2..8, 300..305→9..14,
 * 400..415→15..30, 500..505→31..36, anything else→37.
 */
public final class StatusCodes {
  /** The index of every code outside the table; the code itself is not kept. */
  public static final int OTHER_INDEX = 37;
  /** What {@link #code} answers for {@link #OTHER_INDEX}: the trace does not say which code it was. */
  public static final int UNKNOWN_CODE = -1;

  // First code and first index of each run of the table.
  private static final int[] RUN_FIRST_CODE = {100, 200, 300, 400, 500};
  private static final int[] RUN_LAST_CODE = {101, 206, 305, 415, 505};
  private static final int[] RUN_FIRST_INDEX = {0, 2, 9, 15, 31};

  private StatusCodes() {}

  /** The index of an HTTP status code; {@link #OTHER_INDEX} for a code outside the table. */
  public static int index(int httpStatus) {
    for (int run = 0; run < RUN_FIRST_CODE.length; run++) {
      if (httpStatus >= RUN_FIRST_CODE[run] && httpStatus <= RUN_LAST_CODE[run]) {
        return RUN_FIRST_INDEX[run] + httpStatus - RUN_FIRST_CODE[run];
      }
    }
    return OTHER_INDEX;
  }

  /** The HTTP status code of an index 0-36, {@link #UNKNOWN_CODE} for 37; other indexes are invalid. */
  public static int code(int statusIndex) {
    if (statusIndex == OTHER_INDEX) {
      return UNKNOWN_CODE;
    }
    for (int run = RUN_FIRST_CODE.length - 1; run >= 0; run--) {
      if (statusIndex >= RUN_FIRST_INDEX[run]) {
        int code = RUN_FIRST_CODE[run] + statusIndex - RUN_FIRST_INDEX[run];
        if (code > RUN_LAST_CODE[run]) {
          break;
        }
        return code;
      }
    }
    throw new IllegalArgumentException("unknown status index " + statusIndex + " (indexes are 0-37)");
  }

  /** Whether a code has its own index (is not folded into {@link #OTHER_INDEX}). */
  public static boolean isTabulated(int httpStatus) {
    return index(httpStatus) != OTHER_INDEX;
  }
}
