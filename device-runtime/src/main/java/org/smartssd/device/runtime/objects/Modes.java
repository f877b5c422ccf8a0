package org.smartssd.device.runtime.objects;

/** Permission bits, as the checks use them and as {@code ls} shows them. */
final class Modes {
  static final int READ = 4;
  static final int WRITE = 2;
  static final int EXECUTE = 1;
  static final int ALL = READ | WRITE | EXECUTE;
  static final int STICKY = 01000;
  /** What a parent made on the way gets beyond the permission asked for: the owner's write and execute. */
  static final int IMPLICIT_PARENT_BITS = 0300;

  private Modes() {}

  /** {@code drwxr-xr-t}: the kind, then rwx three times, the sticky bit as {@code t} or {@code T} in the last place. */
  static String format(boolean directory, int permission) {
    StringBuilder b = new StringBuilder(10).append(directory ? 'd' : '-');
    for (int shift = 6; shift >= 0; shift -= 3) {
      int bits = permission >> shift;
      b.append((bits & READ) != 0 ? 'r' : '-').append((bits & WRITE) != 0 ? 'w' : '-');
      boolean x = (bits & EXECUTE) != 0;
      if (shift == 0 && (permission & STICKY) != 0) {
        b.append(x ? 't' : 'T');
      } else {
        b.append(x ? 'x' : '-');
      }
    }
    return b.toString();
  }

  /** The access a set of bits names, as HDFS's {@code FsAction} spells it in its messages. */
  static String action(int access) {
    return switch (access) {
      case READ -> "READ";
      case WRITE -> "WRITE";
      case EXECUTE -> "EXECUTE";
      case READ | EXECUTE -> "READ_EXECUTE";
      case READ | WRITE -> "READ_WRITE";
      case WRITE | EXECUTE -> "WRITE_EXECUTE";
      case ALL -> "ALL";
      default -> "NONE";
    };
  }
}
