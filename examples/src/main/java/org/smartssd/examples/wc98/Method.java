package org.smartssd.examples.wc98;

/** The request method: a record's method byte. Codes are the trace's; {@code OTHER} covers any other method. */
public enum Method {
  GET(0),
  HEAD(1),
  POST(2),
  PUT(3),
  DELETE(4),
  TRACE(5),
  OPTIONS(6),
  CONNECT(7),
  OTHER(8);

  private static final Method[] BY_CODE = values();

  private final int code;

  Method(int code) {
    this.code = code;
  }

  /** The method byte. */
  public int code() {
    return code;
  }

  public static Method fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new IllegalArgumentException("unknown method " + code + " (methods are 0-8)");
    }
    return BY_CODE[code];
  }
}
