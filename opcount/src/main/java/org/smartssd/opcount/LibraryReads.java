package org.smartssd.opcount;

/**
 * The data reads a call into uncounted code makes inside it, by callee: what the counting cannot see of
 * a library call's memory work. Each figure is the calibration's ({@code bench/memory-calibration OUT 2
 * library}, {@code LibraryKernels}: loops around one kind of call each, run under callgrind at two sizes;
 * the data reads of the extra calls less those of the loops' counted heap accesses at their own calibrated
 * rate, per call; docs/benchmarks/memory-calibration/library-calibration.md, 2026-12-07), rounded to whole
 * reads. A callee of no kind below is priced as the calibration's general calls.
 *
 * <p>Kinds, by what the JIT makes of them:
 * <ul>
 *   <li>{@code Object.getClass}: an intrinsic, the object's class word;
 *   <li>a {@code VarHandle} access ({@code get}, {@code set} and the others): an intrinsic, the element;
 *   <li>arithmetic of {@code Math}, {@code StrictMath}, and the static bit methods of {@code Integer} and
 *       {@code Long} ({@code bitCount}, {@code numberOfLeadingZeros}, ...): registers only;
 *   <li>bulk calls ({@code System.arraycopy}, {@code Arrays}' ranges): the per-call part (their bytes are
 *       priced as bulk bytes);
 *   <li>{@code String.length}, {@code charAt}, {@code isEmpty}: a few fields of the string;
 *   <li>every other call: a general call (a map's lookup, a builder's append, a boxing).
 * </ul>
 */
public final class LibraryReads {
  /** {@code Object.getClass()}: 1.31 reads a call (its class word). */
  static final int GET_CLASS = 1;
  /**
   * A {@code VarHandle} access: 0.23 to 0.30 reads a call beyond the access the counting charges the handle's
   * {@code getstatic} with (the JIT folds the handle away and reads the element in its place).
   */
  static final int VAR_HANDLE = 0;
  /** Arithmetic in registers: 0.05 to 0.08. */
  static final int ARITHMETIC = 0;
  /**
   * A bulk call's per-call part, 15.71: the mean of the intercepts through the 16- and 256-byte calls of
   * {@code System.arraycopy} (12.4) and {@code Arrays.equals} (19.0); their bytes are bulk bytes.
   */
  static final int BULK = 16;
  /** A string's length or character: 2.12 to 2.16. */
  static final int STRING_ACCESSOR = 2;
  /**
   * Any other call, 5.50: the mean of {@code HashMap.get} (5.86), {@code StringBuilder}'s {@code setLength},
   * {@code append(int)} and {@code length} (9.33) and {@code Integer.valueOf} past its cache (1.31).
   */
  static final int GENERAL = 5;

  private LibraryReads() {}

  /** The reads a call of {@code owner.name desc} (internal names) makes inside it. */
  public static int perCall(String owner, String name, String desc) {
    if (name.equals("getClass") && desc.equals("()Ljava/lang/Class;")) {
      return GET_CLASS; // final in Object: whatever class the call names
    }
    switch (owner) {
      case "java/lang/invoke/VarHandle":
        return VAR_HANDLE;
      case "java/lang/Math", "java/lang/StrictMath":
        return ARITHMETIC;
      case "java/lang/Integer", "java/lang/Long":
        return isBitMethod(name) && !desc.contains("L") ? ARITHMETIC : GENERAL;
      case "java/lang/System":
        return name.equals("arraycopy") ? BULK : GENERAL;
      case "java/util/Arrays":
        return BULK;
      case "java/lang/String":
        return name.equals("length") || name.equals("charAt") || name.equals("isEmpty") ? STRING_ACCESSOR : GENERAL;
      default:
        return GENERAL;
    }
  }

  /** An {@code invokedynamic} (a lambda's or a string concatenation's bootstrap and call). */
  public static int invokeDynamic() {
    return GENERAL;
  }

  private static boolean isBitMethod(String name) {
    return switch (name) {
      case "bitCount", "numberOfLeadingZeros", "numberOfTrailingZeros", "rotateLeft", "rotateRight", "reverse",
          "reverseBytes", "highestOneBit", "lowestOneBit", "signum", "compare", "compareUnsigned", "min", "max",
          "sum", "hashCode", "toUnsignedLong", "divideUnsigned", "remainderUnsigned" -> true;
      default -> false;
    };
  }
}
