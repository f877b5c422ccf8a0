package org.smartssd.examples.loganalysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.examples.wc98.Wc98FormatException;
import org.smartssd.examples.wc98.Wc98Record;

/**
 * {@link TraceLoader#spread} over two real (in-process) devices: where it cuts (whole records, equal
 * parts, every record in exactly one object and in order), several and compressed sources, and all or
 * nothing on bad input.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TraceLoaderSpreadTest {
  @TempDir static Path dir;
  SimulatedDevice a;
  SimulatedDevice b;
  Configuration conf;
  FileSystem fsA;
  FileSystem fsB;

  @BeforeAll
  void start() throws IOException {
    a = TestDevices.start(TestDevices.small(dir.resolve("a")));
    b = TestDevices.start(TestDevices.small(dir.resolve("b")));
    conf = new Configuration();
    fsA = Traces.objfs(a.address(), conf);
    fsB = Traces.objfs(b.address(), conf);
  }

  @AfterAll
  void stop() throws IOException {
    fsA.close();
    fsB.close();
    a.close();
    b.close();
  }

  @Test
  void partSizesAreEqualWholeRecordsTheFirstOnesTakingTheRest() {
    assertArrayEquals(new long[] {4, 3, 3}, TraceLoader.partSizes(10, 3));
    assertArrayEquals(new long[] {1, 1, 0, 0}, TraceLoader.partSizes(2, 4));
    assertArrayEquals(new long[] {7}, TraceLoader.partSizes(7, 1));
    assertArrayEquals(new long[] {0, 0}, TraceLoader.partSizes(0, 2));
    for (long n : new long[] {0, 1, 5, 999, 7_000_000, 7_000_001}) {
      for (int k = 1; k <= 9; k++) {
        long[] sizes = TraceLoader.partSizes(n, k);
        assertEquals(n, Arrays.stream(sizes).sum(), n + " over " + k);
        long max = Arrays.stream(sizes).max().orElseThrow();
        long min = Arrays.stream(sizes).min().orElseThrow();
        assertTrue(max - min <= 1, n + " over " + k + ": " + Arrays.toString(sizes));
      }
    }
    assertThrows(IllegalArgumentException.class, () -> TraceLoader.partSizes(10, 0));
  }

  @Test
  void everyRecordLandsInExactlyOneObjectWholeAndInOrder() throws IOException {
    // 10,007 records over three targets (two on device b): 3,336 + 3,336 + 3,335.
    byte[] trace = Traces.bytes(Traces.generated(10_007));
    Path file = Files.write(dir.resolve("whole.bin"), trace);
    List<String> targets = List.of(uri(a, "/cut/one"), uri(b, "/cut/two"), uri(b, "/cut/three"));
    List<TraceLoader.Part> parts = TraceLoader.spread(conf, List.of(file), targets, false);

    assertEquals(3, parts.size());
    assertEquals(List.of(3336L, 3336L, 3335L), parts.stream().map(TraceLoader.Part::records).toList());
    assertEquals(List.of(0L, 3336L, 6672L), parts.stream().map(TraceLoader.Part::firstRecord).toList());
    byte[] one = read(fsA, "/cut/one");
    byte[] two = read(fsB, "/cut/two");
    byte[] three = read(fsB, "/cut/three");
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    for (byte[] part : List.of(one, two, three)) {
      assertEquals(0, part.length % Wc98Record.BYTES, "a whole number of records");
      joined.write(part);
    }
    // The objects, one after another, are the trace byte for byte: no record lost, doubled, split or moved.
    assertArrayEquals(trace, joined.toByteArray());
    for (int i = 0; i < 3; i++) {
      assertEquals(parts.get(i).records() * Wc98Record.BYTES, parts.get(i).bytes());
    }
    assertNoTemporaries(fsA, "/cut");
    assertNoTemporaries(fsB, "/cut");
  }

  @Test
  void severalFilesPlainAndGzipAreCutAsOneTraceIntoDirectories() throws IOException {
    byte[] first = Traces.bytes(Traces.generated(301));
    byte[] second = Traces.bytes(Traces.handMade());
    Path plain = Files.write(dir.resolve("first.bin"), first);
    Path gz = dir.resolve("second.bin.gz");
    try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(second);
    }
    fsB.mkdirs(new org.apache.hadoop.fs.Path("/dirs/b"));
    // A target ending in '/' and one that is a directory: each gets its part as part-NNNNN.
    List<TraceLoader.Part> parts = TraceLoader.spread(conf, List.of(plain, gz),
        List.of(uri(a, "/dirs/a/"), uri(b, "/dirs/b")), false);
    assertEquals(uri(a, "/dirs/a/part-00000"), parts.get(0).destination().toString());
    assertEquals(uri(b, "/dirs/b/part-00001"), parts.get(1).destination().toString());
    long total = (first.length + second.length) / Wc98Record.BYTES;
    assertEquals(total, parts.get(0).records() + parts.get(1).records());
    assertTrue(Math.abs(parts.get(0).records() - parts.get(1).records()) <= 1);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.write(first);
    expected.write(second);
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    joined.write(read(fsA, "/dirs/a/part-00000"));
    joined.write(read(fsB, "/dirs/b/part-00001"));
    assertArrayEquals(expected.toByteArray(), joined.toByteArray());
  }

  @Test
  void fewerRecordsThanTargetsLeaveTheLastPartsEmpty() throws IOException {
    byte[] trace = Traces.bytes(Traces.generated(2));
    Path file = Files.write(dir.resolve("two.bin"), trace);
    List<TraceLoader.Part> parts = TraceLoader.spread(conf, List.of(file),
        List.of(uri(a, "/few/0"), uri(b, "/few/1"), uri(a, "/few/2")), false);
    assertEquals(List.of(1L, 1L, 0L), parts.stream().map(TraceLoader.Part::records).toList());
    assertArrayEquals(Arrays.copyOfRange(trace, 0, 20), read(fsA, "/few/0"));
    assertArrayEquals(Arrays.copyOfRange(trace, 20, 40), read(fsB, "/few/1"));
    assertEquals(0, read(fsA, "/few/2").length);
  }

  @Test
  void aBadRecordInALaterFileLoadsNothingOnAnyDevice() throws IOException {
    Path good = Files.write(dir.resolve("good.bin"), Traces.bytes(Traces.generated(500)));
    byte[] records = Traces.bytes(Traces.handMade());
    records[5 * Wc98Record.BYTES + 19] = (byte) 0xC0; // region 6
    Path bad = Files.write(dir.resolve("bad.bin"), records);
    List<String> targets = List.of(uri(a, "/bad/x"), uri(b, "/bad/y"));
    Wc98FormatException e = assertThrows(Wc98FormatException.class,
        () -> TraceLoader.spread(conf, List.of(good, bad), targets, false));
    assertEquals(5 * Wc98Record.BYTES, e.offset());
    assertTrue(e.getMessage().contains(bad.toString()), e.getMessage());
    assertFalse(fsA.exists(new org.apache.hadoop.fs.Path("/bad")), "nothing left on a");
    assertFalse(fsB.exists(new org.apache.hadoop.fs.Path("/bad")), "nothing left on b");

    byte[] t = Traces.bytes(Traces.generated(50));
    Path truncated = Files.write(dir.resolve("truncated.bin"), Arrays.copyOf(t, t.length - 3));
    Wc98FormatException cut = assertThrows(Wc98FormatException.class,
        () -> TraceLoader.spread(conf, List.of(truncated), targets, false));
    assertTrue(cut.getMessage().contains("truncated record"), cut.getMessage());
    assertFalse(fsA.exists(new org.apache.hadoop.fs.Path("/bad")));
    assertFalse(fsB.exists(new org.apache.hadoop.fs.Path("/bad")));
  }

  @Test
  void existingTargetsAreKeptUnlessForcedAndATargetTwiceIsRefused() throws IOException {
    Path file = Files.write(dir.resolve("small.bin"), Traces.bytes(Traces.generated(40)));
    Traces.write(fsB, "/exists/y", new byte[] {1, 2, 3});
    List<String> targets = List.of(uri(a, "/exists/x"), uri(b, "/exists/y"));
    FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
        () -> TraceLoader.spread(conf, List.of(file), targets, false));
    assertTrue(e.getMessage().contains("/exists/y") && e.getMessage().contains("--force"), e.getMessage());
    assertFalse(fsA.exists(new org.apache.hadoop.fs.Path("/exists/x")), "nothing written before the check");
    assertEquals(3, read(fsB, "/exists/y").length);

    TraceLoader.spread(conf, List.of(file), targets, true);
    assertEquals(20 * Wc98Record.BYTES, read(fsA, "/exists/x").length);
    assertEquals(20 * Wc98Record.BYTES, read(fsB, "/exists/y").length);

    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> TraceLoader.spread(conf, List.of(file), List.of(uri(a, "/twice"), uri(a, "/twice")), true));
    assertTrue(twice.getMessage().contains("/twice"), twice.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TraceLoader.spread(conf, List.of(file), List.of(), true));
    IOException missing = assertThrows(IOException.class,
        () -> TraceLoader.spread(conf, List.of(dir.resolve("nowhere")), List.of(uri(a, "/m")), true));
    assertTrue(missing.getMessage().contains("no such file"), missing.getMessage());
  }

  private static String uri(SimulatedDevice device, String path) {
    return "objfs://" + device.address() + path;
  }

  private static byte[] read(FileSystem fs, String path) throws IOException {
    try (InputStream in = fs.open(new org.apache.hadoop.fs.Path(path))) {
      return in.readAllBytes();
    }
  }

  private static void assertNoTemporaries(FileSystem fs, String directory) throws IOException {
    List<String> names = new ArrayList<>();
    for (FileStatus st : fs.listStatus(new org.apache.hadoop.fs.Path(directory))) {
      names.add(st.getPath().getName());
    }
    assertTrue(names.stream().noneMatch(n -> n.startsWith(".")), names.toString());
  }
}
