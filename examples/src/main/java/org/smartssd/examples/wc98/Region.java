package org.smartssd.examples.wc98;

/**
 * The four sites of the World Cup 1998 web site: bits 7-5 of a record's server byte. The codes are the
 * trace's and can never change.
 */
public enum Region {
  SANTA_CLARA(0),
  PLANO(1),
  HERNDON(2),
  PARIS(3);

  private static final Region[] BY_CODE = values();

  private final int code;

  Region(int code) {
    this.code = code;
  }

  /** The 3-bit code in the server byte. */
  public int code() {
    return code;
  }

  /**
   * The name the trace's tools and this project's outputs use ({@code SANTA_CLARA}, {@code PLANO},
   * {@code HERNDON}, {@code PARIS}).
   */
  public String displayName() {
    return name();
  }

  /** The region of a code; codes 4 to 7 fit in the field but are invalid (the trace's checker rejects them). */
  public static Region fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new IllegalArgumentException("region " + code + " is not one of 0-3");
    }
    return BY_CODE[code];
  }
}
