package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Installing tasklet code by its digest ({@code docs/PROTOCOL.md}, "Code by digest"): a
 * {@code CREATE_OBJECT} whose parameters hold {@value #PARAMETER} (64 lower-case hex digits of the
 * jar's SHA-256) may leave the code field empty when the device still has that jar, and the device
 * answers {@code NOT_FOUND} when it does not, so that the host sends it then. The device takes the
 * parameter out before the tasklet sees its parameters.
 */
public final class CodeDigest {
  /** The reserved parameter naming the code's SHA-256. */
  public static final String PARAMETER = "smartssd.code.sha256";

  private CodeDigest() {}

  /** The SHA-256 of the buffer's remaining bytes, as 64 lower-case hex digits; the buffer is unchanged. */
  public static String of(ByteBuffer code) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    sha.update(code.duplicate());
    return HexFormat.of().formatHex(sha.digest());
  }

  /** Whether the text is 64 lower-case hex digits. */
  public static boolean isWellFormed(String digest) {
    if (digest == null || digest.length() != 64) {
      return false;
    }
    for (int i = 0; i < 64; i++) {
      char c = digest.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }
}
