package org.smartssd.examples.wc98;

/** The HTTP version of the request: bits 7-6 of a record's status byte. */
public enum HttpVersion {
  HTTP_0_9(0, "HTTP/0.9"),
  HTTP_1_0(1, "HTTP/1.0"),
  HTTP_1_1(2, "HTTP/1.1"),
  /** Any other version; the trace does not keep which, so the text form prints {@code HTTP/?}. */
  OTHER(3, "HTTP/?");

  private static final HttpVersion[] BY_CODE = values();

  private final int code;
  private final String text;

  HttpVersion(int code, String text) {
    this.code = code;
    this.text = text;
  }

  /** The 2-bit code. */
  public int code() {
    return code;
  }

  /** As in a request line, e.g. {@code HTTP/1.0}. */
  public String text() {
    return text;
  }

  public static HttpVersion fromCode(int code) {
    if (code < 0 || code >= BY_CODE.length) {
      throw new IllegalArgumentException("HTTP version code " + code + " is not one of 0-3");
    }
    return BY_CODE[code];
  }
}
