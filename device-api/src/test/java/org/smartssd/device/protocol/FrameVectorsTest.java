package org.smartssd.device.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.smartssd.device.protocol.FrameVectors.Vector;

/**
 * Holds the codec to the bytes in {@code src/test/resources/frames/}, both ways. To rewrite the
 * files after a deliberate change of a vector or of the format:
 * {@code mvn -B -o -pl device-api test -Dsmartssd.frames.regenerate=true}, then review the diff.
 */
class FrameVectorsTest {
  private static final boolean REGENERATE = Boolean.getBoolean("smartssd.frames.regenerate");
  private static final Path SOURCE_DIR =
      Path.of(System.getProperty("basedir", "."), "src", "test", "resources", "frames");

  @BeforeAll
  static void regenerateWhenAsked() throws IOException {
    if (!REGENERATE) {
      return;
    }
    Files.createDirectories(SOURCE_DIR);
    for (Vector v : FrameVectors.ALL) {
      ByteBuffer frame = v.encode();
      byte[] bytes = new byte[frame.remaining()];
      frame.get(bytes);
      Files.write(SOURCE_DIR.resolve(v.file()), bytes);
    }
  }

  @TestFactory
  Stream<DynamicTest> encodingGivesTheFileBytes() {
    return FrameVectors.ALL.stream().map(v -> DynamicTest.dynamicTest(v.file(), () -> {
      ByteBuffer encoded = v.encode();
      byte[] actual = new byte[encoded.remaining()];
      encoded.get(actual);
      assertArrayEquals(fileBytes(v.file()), actual, "encoding of " + v.message());
    }));
  }

  @TestFactory
  Stream<DynamicTest> decodingGivesTheMessage() {
    return FrameVectors.ALL.stream().map(v -> DynamicTest.dynamicTest(v.file(), () -> {
      ByteBuffer frame = ByteBuffer.wrap(fileBytes(v.file()));
      FrameHeader header = FrameHeader.readFrom(frame);
      assertEquals(v.version(), header.version());
      assertEquals(v.opcode().code(), header.opcode());
      assertEquals(v.requestId(), header.requestId());
      assertEquals(v.modelledNanos(), header.modelledNanos());
      assertEquals(frame.remaining(), header.payloadLength(), "payload length");
      if (v.isRequest()) {
        assertEquals(0, header.flags());
        assertEquals(0, header.status());
        assertEquals(v.message(), Messages.decodeRequest(header.version(), v.opcode(), frame));
      } else {
        assertTrue(header.isResponse());
        Response expected = (Response) v.message();
        Status status = expected instanceof Response.Error e ? e.status() : Status.OK;
        assertEquals(status.code(), header.status());
        assertEquals(expected,
            Messages.decodeResponse(header.version(), v.opcode(), Status.fromCode(header.status()), frame));
      }
    }));
  }

  @Test
  void everyMessageTypeHasAVector() {
    Set<Class<?>> covered = FrameVectors.ALL.stream().map(v -> v.message().getClass()).collect(Collectors.toSet());
    Set<Class<?>> all = new HashSet<>();
    all.addAll(Arrays.asList(Request.class.getPermittedSubclasses()));
    all.addAll(Arrays.asList(Response.class.getPermittedSubclasses()));
    all.removeAll(covered);
    assertEquals(Set.of(), all, "message types without a frame vector");
  }

  @Test
  void everyFileIsAVectorAndDescribedInTheReadme() throws IOException {
    Set<String> files = FrameVectors.ALL.stream().map(Vector::file).collect(Collectors.toSet());
    assertEquals(FrameVectors.ALL.size(), files.size(), "duplicate file names");
    String readme = new String(resource("README.md"), StandardCharsets.UTF_8);
    for (String file : files) {
      assertTrue(readme.contains("`" + file + "`"), "frames/README.md does not describe " + file);
    }
    if (Files.isDirectory(SOURCE_DIR)) {
      try (Stream<Path> present = Files.list(SOURCE_DIR)) {
        Set<String> stray = present.map(p -> p.getFileName().toString())
            .filter(name -> name.endsWith(".bin") && !files.contains(name))
            .collect(Collectors.toSet());
        assertEquals(Set.of(), stray, "frame files that no vector describes");
      }
    }
  }

  /** The file as committed; in a regenerating run, as just written. A missing file fails the test. */
  private static byte[] fileBytes(String file) throws IOException {
    if (REGENERATE) {
      return Files.readAllBytes(SOURCE_DIR.resolve(file));
    }
    return resource(file);
  }

  private static byte[] resource(String file) throws IOException {
    try (InputStream in = FrameVectorsTest.class.getResourceAsStream("/frames/" + file)) {
      if (in == null) {
        fail("frame vector frames/" + file + " is missing; write it with"
            + " mvn -B -o -pl device-api test -Dsmartssd.frames.regenerate=true");
      }
      return in.readAllBytes();
    }
  }
}
