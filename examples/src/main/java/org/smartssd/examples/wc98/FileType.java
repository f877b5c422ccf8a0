package org.smartssd.examples.wc98;

/**
 * The type of the requested file, from its extension (a {@code ?} makes it {@code DYNAMIC}, a trailing
 * {@code /} a {@code DIRECTORY}): a record's type byte. Codes and names are the trace's.
 */
public enum FileType {
  HTML(0),
  IMAGE(1),
  AUDIO(2),
  VIDEO(3),
  JAVA(4),
  FORMATTED(5),
  DYNAMIC(6),
  TEXT(7),
  COMPRESSED(8),
  PROGRAMS(9),
  DIRECTORY(10),
  ICL(11),
  OTHER(12);

  private static final FileType[] BY_CODE = values();

  private final int code;

  FileType(int code) {
    this.code = code;
  }

  /** The type byte. */
  public int code() {
    return code;
  }

  /** The trace's name of the type ({@code HTML}, {@code IMAGE}, ...). */
  public String displayName() {
    return name();
  }

  public static FileType fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new IllegalArgumentException("unknown file type " + code + " (types are 0-12)");
    }
    return BY_CODE[code];
  }
}
