package org.smartssd.device.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The handshake's proofs against PROTOCOL.md's test vector, and the secret file's rules. */
class HostSecretTest {
  @TempDir Path dir;

  @Test
  void theProofsAreThoseOfTheProtocolsTestVector() {
    HostSecret s = HostSecret.of(FrameVectors.VECTOR_SECRET.getBytes(StandardCharsets.US_ASCII), "vector");
    ByteBuffer device = FrameVectors.filled(32, 0xA0);
    ByteBuffer host = FrameVectors.filled(32, 0xB0);
    assertEquals(FrameVectors.HOST_PROOF, HexFormat.of().formatHex(s.hostProof(device, host)));
    assertEquals(FrameVectors.DEVICE_PROOF, HexFormat.of().formatHex(s.deviceProof(device, host)));
    assertTrue(HostSecret.matches(s.hostProof(device, host), FrameVectors.hex(FrameVectors.HOST_PROOF)));
    assertFalse(HostSecret.matches(s.hostProof(device, host), FrameVectors.hex(FrameVectors.DEVICE_PROOF)));
  }

  @Test
  void aGeneratedSecretIsOwnerOnlyAndReadsBackWithoutItsNewline() throws IOException {
    Path file = dir.resolve("sub/secret");
    HostSecret written = HostSecret.generate(file);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    String content = Files.readString(file);
    assertTrue(content.matches("[0-9a-f]{64}\n"), content);
    HostSecret read = HostSecret.read(file);
    ByteBuffer n = ByteBuffer.wrap(HostSecret.nonce());
    assertArrayEquals(written.hostProof(n, n), read.hostProof(n, n));
    assertFalse(HostSecret.generate(dir.resolve("another")).toString().isEmpty());
    assertFalse(java.util.Arrays.equals(read.hostProof(n, n), HostSecret.read(dir.resolve("another")).hostProof(n, n)),
        "two generated secrets differ");
    assertTrue(read.toString().contains(file.toString()) && !read.toString().contains(content.trim()),
        "names its file, never the secret: " + read);
  }

  @Test
  void aSecretFileOthersCanReachIsRefused() throws IOException {
    Path file = dir.resolve("s");
    Files.writeString(file, "0123456789abcdef0123\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw----r--"));
    IOException e = assertThrows(IOException.class, () -> HostSecret.read(file));
    assertTrue(e.getMessage().contains("chmod 600 " + file), e.getMessage());
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
    HostSecret.read(file);
    assertThrows(IllegalArgumentException.class, () -> HostSecret.of(new byte[15], "short"));
  }
}
