package org.smartssd.device.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret a device shares with the hosts allowed to reach it, and the proofs of the handshake
 * (PROTOCOL.md, "Authentication"): each side proves it holds the secret with an HMAC-SHA256 over a
 * label, the device's nonce and the host's nonce. The secret never crosses the wire, and a proof is
 * worth nothing on another connection, whose device nonce differs.
 *
 * <p>The secret is the content of a file readable by its owner only, without trailing white space (a
 * final newline); at least {@link #MIN_BYTES} bytes. {@link #generate} writes a new one.
 */
public final class HostSecret {
  /** The length of each side's nonce. */
  public static final int NONCE_BYTES = 32;
  /** The length of a proof (an HMAC-SHA256). */
  public static final int PROOF_BYTES = 32;
  /** The shortest secret accepted: 128 bits. */
  public static final int MIN_BYTES = 16;
  /** The longest secret file read. */
  public static final int MAX_BYTES = 4096;
  /** What the host's proof is computed over first, before a NUL and the two nonces. */
  static final String HOST_LABEL = "SSDP-AUTH-1 host";
  /** What the device's proof is computed over first. */
  static final String DEVICE_LABEL = "SSDP-AUTH-1 device";
  private static final String MAC = "HmacSHA256";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] key;
  private final String source;

  private HostSecret(byte[] key, String source) {
    this.key = key;
    this.source = source;
  }

  /** A secret given as bytes (tests, and callers that keep the secret elsewhere). */
  public static HostSecret of(byte[] secret, String source) {
    if (secret.length < MIN_BYTES) {
      throw new IllegalArgumentException(source + ": a secret must have at least " + MIN_BYTES + " bytes, this has "
          + secret.length);
    }
    return new HostSecret(secret.clone(), source);
  }

  /**
   * Reads the secret in {@code file}.
   *
   * @throws IOException whose message names the file: it is missing, not a regular file, readable or writable by
   *     anyone but its owner (where the file system has POSIX permissions), empty, shorter than
   *     {@link #MIN_BYTES} or longer than {@link #MAX_BYTES}
   */
  public static HostSecret read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw Files.exists(file)
          ? new IOException("secret file " + file + " is not a regular file")
          : new NoSuchFileException(file.toString(), null, "secret file " + file + " not found (make one with"
              + " `smartssd secret " + file + "`)");
    }
    PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    if (posix != null) {
      Set<PosixFilePermission> p = posix.readAttributes().permissions();
      Set<PosixFilePermission> others = Set.of(PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);
      if (p.stream().anyMatch(others::contains)) {
        throw new IOException("secret file " + file + " is open to others than its owner (" + PosixFilePermissions.toString(p)
            + "): `chmod 600 " + file + "`");
      }
    }
    if (Files.size(file) > MAX_BYTES) {
      throw new IOException("secret file " + file + " holds " + Files.size(file) + " bytes; a secret has at most "
          + MAX_BYTES);
    }
    byte[] content = Files.readAllBytes(file);
    int end = content.length;
    while (end > 0 && (content[end - 1] == '\n' || content[end - 1] == '\r' || content[end - 1] == ' '
        || content[end - 1] == '\t')) {
      end--;
    }
    if (end < MIN_BYTES) {
      throw new IOException("secret file " + file + " holds " + end + " bytes (without trailing white space); a secret"
          + " has at least " + MIN_BYTES + " (make one with `smartssd secret " + file + "`)");
    }
    return new HostSecret(Arrays.copyOf(content, end), file.toString());
  }

  /** The message of a failure of {@link #read} (a missing file's message is its reason alone). */
  public static String reason(Exception e) {
    return e instanceof NoSuchFileException n && n.getReason() != null ? n.getReason() : e.getMessage();
  }

  /**
   * Writes a new secret to {@code file}: 32 random bytes as 64 hexadecimal digits and a newline, in a
   * file created readable and writable by its owner only.
   *
   * @throws FileAlreadyExistsException when the file exists (a secret is never overwritten)
   */
  public static HostSecret generate(Path file) throws IOException {
    byte[] random = new byte[32];
    RANDOM.nextBytes(random);
    String hex = HexFormat.of().formatHex(random);
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    if (Files.getFileStore(parent).supportsFileAttributeView(PosixFileAttributeView.class)) {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } else {
      Files.createFile(file);
    }
    Files.writeString(file, hex + "\n", StandardCharsets.US_ASCII);
    return new HostSecret(hex.getBytes(StandardCharsets.US_ASCII), file.toString());
  }

  /**
   * The secret itself, a copy: for a transport that computes the proofs itself (the C library, through
   * JNI). Never log it.
   */
  public byte[] keyBytes() {
    return key.clone();
  }

  /** Where the secret came from (a file's path), for messages; never the secret. */
  public String source() {
    return source;
  }

  /** A fresh nonce. */
  public static byte[] nonce() {
    byte[] n = new byte[NONCE_BYTES];
    RANDOM.nextBytes(n);
    return n;
  }

  /** The host's proof for the connection with these nonces. */
  public byte[] hostProof(ByteBuffer deviceNonce, ByteBuffer hostNonce) {
    return mac(HOST_LABEL, deviceNonce, hostNonce);
  }

  /** The device's proof for the connection with these nonces. */
  public byte[] deviceProof(ByteBuffer deviceNonce, ByteBuffer hostNonce) {
    return mac(DEVICE_LABEL, deviceNonce, hostNonce);
  }

  /** Whether {@code proof} is {@code expected}, compared in time that does not depend on where they differ. */
  public static boolean matches(byte[] expected, ByteBuffer proof) {
    byte[] given = new byte[proof.remaining()];
    proof.duplicate().get(given);
    return MessageDigest.isEqual(expected, given);
  }

  private byte[] mac(String label, ByteBuffer deviceNonce, ByteBuffer hostNonce) {
    try {
      Mac mac = Mac.getInstance(MAC);
      mac.init(new SecretKeySpec(key, MAC));
      mac.update(label.getBytes(StandardCharsets.US_ASCII));
      mac.update((byte) 0);
      mac.update(deviceNonce.duplicate());
      mac.update(hostNonce.duplicate());
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is part of every Java platform", e);
    }
  }

  @Override
  public String toString() {
    return "secret from " + source;
  }
}
