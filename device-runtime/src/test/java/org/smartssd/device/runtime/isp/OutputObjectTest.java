package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientIdentity;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.isp.testtasklets.RecordCopier;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.FieldFilter;

/**
 * Executions that write an output object on the device's flash (EXECUTE_OBJECT's output path, the
 * tasklet API's {@code ResultSink.flash()}), and that read a whole object of the device as a side input
 * ({@code TaskletContext.readObject}), on a real device over its protocol.
 */
class OutputObjectTest {
  private static final int RECORD = 13;
  private static final ByteBuffer BUILT_IN = ByteBuffer.allocate(0);
  @TempDir Path dir;

  private SimulatedDevice device(String name) throws IOException {
    return TestDevices.start(TestDevices.small(dir.resolve(name)));
  }

  private static void write(DeviceClient c, String path, byte[] data) throws IOException {
    long h = c.create(path, true, true).handle();
    c.write(h, data, 0, data.length);
    c.closeHandle(h);
  }

  record Run(List<TaskletResult> results, Response.ExecutionProgress last) {
    ExecutionStatistics stats() {
      return last.statistics();
    }
  }

  static Run run(DeviceClient c, long tasklet, String input, Map<String, String> options, String output,
      int permission) throws IOException {
    long exec = c.executeObject(tasklet, List.of(InputRange.whole(input)), options, output, permission);
    List<TaskletResult> results = new ArrayList<>();
    Response.ExecutionProgress last = ExecutionPoller.drain(c, exec, results::add,
        ExecutionPoller.PollingPolicy.defaults());
    return new Run(results, last);
  }

  /** The records of {@code bytes}, {@code RECORD} bytes each, sorted by their first four bytes (their id). */
  static List<ByteBuffer> sortedRecords(byte[] bytes) {
    assertEquals(0, bytes.length % RECORD, "a whole number of records");
    List<ByteBuffer> out = new ArrayList<>();
    for (int i = 0; i < bytes.length; i += RECORD) {
      out.add(ByteBuffer.wrap(bytes, i, RECORD).slice());
    }
    out.sort(Comparator.comparingInt(b -> b.getInt(0)));
    return out;
  }

  static List<String> names(DeviceClient c, String directory) throws IOException {
    return c.list(directory, "", 1000).entries().stream().map(s -> s.path().substring(s.path().lastIndexOf('/') + 1))
        .toList();
  }

  @Test
  void aFilterKeepsItsSelectionOnFlashAndSendsTheHostOnlyItsCount() throws Exception {
    int n = 20_000;
    byte[] data = IspEngineTest.records(n);
    try (SimulatedDevice device = device("filter"); SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/in", data);
      long t = c.createObject(BUILT_IN, FieldFilter.class.getName(), Map.of("record-length", "" + RECORD,
          "field-offset", "4", "field-length", "1", "op", "eq", "value", "3"));
      long programmedBefore = programmed(device);
      Run run = run(c, t, "/in", Map.of(), "/selection/key-3", 0640);
      assertEquals(ExecutionState.DONE, run.last().state(), run.last().message());

      List<Integer> expectedIds = java.util.stream.IntStream.range(0, n).filter(i -> i % 7 == 3).boxed().toList();
      assertEquals(expectedIds.size(), FieldFilter.matched(run.results()));
      long resultBytes = run.results().stream().mapToLong(r -> r.data().remaining()).sum();
      assertEquals(8L * run.results().size(), resultBytes, "the host gets a count a lane, no record");

      byte[] kept = TestDevices.readAll(c, "/selection/key-3");
      List<ByteBuffer> records = sortedRecords(kept);
      assertEquals(expectedIds.size(), records.size());
      for (int i = 0; i < records.size(); i++) {
        int id = expectedIds.get(i);
        assertEquals(ByteBuffer.wrap(data, id * RECORD, RECORD), records.get(i), "record " + id);
      }
      assertEquals(List.of("key-3"), names(c, "/selection"), "no temporary file is left beside it");
      ObjectStatus status = c.status("/selection/key-3");
      assertEquals(0640, status.permission());
      assertEquals(System.getProperty("user.name"), status.owner());

      ExecutionStatistics s = run.stats();
      int page = device.info().geometry().pageSizeBytes();
      assertEquals(kept.length, s.outputBytes());
      assertEquals((kept.length + page - 1) / page, s.pagesProgrammed(), "each page of the object programmed once");
      assertEquals(s.pagesProgrammed(), programmed(device) - programmedBefore, "the device counts them too");
      assertTrue(s.modelledWriteNanos() > 0, "the last page's program ends after the processing: " + s);
      assertTrue(s.modelledNanos() >= s.modelledWriteNanos());
    }
  }

  private static long programmed(SimulatedDevice device) {
    return device.statistics().channels().stream().mapToLong(ch -> ch.pagesProgrammed()).sum();
  }

  @Test
  void everyLaneAndTheMergeWriteAndTheObjectSurvivesARestart() throws Exception {
    int n = 9_001;
    byte[] data = IspEngineTest.records(n);
    Path data1 = dir.resolve("restart");
    Map<String, String> config = TestDevices.small(data1);
    byte[] kept;
    try (SimulatedDevice device = TestDevices.start(config); SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/in", data);
      long t = c.createObject(TestJars.of(RecordCopier.class), RecordCopier.class.getName(),
          Map.of("record-length", "" + RECORD));
      Run run = run(c, t, "/in", Map.of("merge", "device"), "/copy", 0644);
      assertEquals(ExecutionState.DONE, run.last().state(), run.last().message());
      assertEquals(n, RecordCopier.copied(run.results()));
      kept = TestDevices.readAll(c, "/copy");
      byte[] merged = ("merged|" + run.results().size()).getBytes(StandardCharsets.UTF_8);
      assertArrayEquals(merged, Arrays.copyOfRange(kept, kept.length - merged.length, kept.length),
          "the merge writes after every lane");
      assertEquals(sortedRecords(data), sortedRecords(Arrays.copyOf(kept, kept.length - merged.length)));
    }
    try (SimulatedDevice device = TestDevices.start(config); SocketDeviceClient c = TestDevices.connect(device)) {
      assertArrayEquals(kept, TestDevices.readAll(c, "/copy"), "durable once the execution was done");
    }
  }

  @Test
  void anExecutionThatFailsOrIsCancelledLeavesNothingUnderTheName() throws Exception {
    byte[] data = IspEngineTest.records(5_000);
    try (SimulatedDevice device = device("fail"); SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/in", data);
      c.mkdirs("/out");
      long failing = c.createObject(TestJars.of(RecordCopier.class), RecordCopier.class.getName(),
          Map.of("record-length", "" + RECORD, "fail-at-end", "true"));
      Run run = run(c, failing, "/in", Map.of(), "/out/failed", 0644);
      assertEquals(ExecutionState.FAILED, run.last().state());
      assertTrue(run.last().message().contains("failing as asked"), run.last().message());
      assertThrows(FileNotFoundException.class, () -> c.status("/out/failed"));

      long lingering = c.createObject(TestJars.of(RecordCopier.class), RecordCopier.class.getName(),
          Map.of("record-length", "" + RECORD, "linger-ms", "60000"));
      long exec = c.executeObject(lingering, List.of(InputRange.whole("/in")), Map.of(), "/out/cancelled", 0644);
      c.cancel(exec);
      Response.ExecutionProgress last = ExecutionPoller.drain(c, exec, r -> { },
          ExecutionPoller.PollingPolicy.defaults());
      assertEquals(ExecutionState.CANCELLED, last.state());
      assertThrows(FileNotFoundException.class, () -> c.status("/out/cancelled"));
      awaitEmpty(c, "/out");
    }
  }

  /** The temporary file goes once the lanes have stopped, which a cancel does not wait for. */
  private static void awaitEmpty(DeviceClient c, String directory) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!names(c, directory).isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "left in " + directory + ": " + names(c, directory));
      Thread.sleep(20);
    }
  }

  @Test
  void anOutputThatExistsOrCannotBeMadeIsRefusedBeforeAnythingRuns() throws Exception {
    byte[] data = IspEngineTest.records(100);
    try (SimulatedDevice device = device("refused"); SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/in", data);
      write(c, "/taken", new byte[] {1, 2, 3});
      long t = c.createObject(BUILT_IN, FieldFilter.class.getName(), Map.of("record-length", "" + RECORD,
          "field-offset", "4", "field-length", "1", "op", "eq", "value", "3"));
      FileAlreadyExistsException exists = assertThrows(FileAlreadyExistsException.class,
          () -> c.executeObject(t, List.of(InputRange.whole("/in")), Map.of(), "/taken", 0644));
      assertTrue(exists.getMessage().contains("/taken"), exists.getMessage());
      assertArrayEquals(new byte[] {1, 2, 3}, TestDevices.readAll(c, "/taken"));
      assertThrows(DeviceException.BadRequest.class,
          () -> c.executeObject(t, List.of(InputRange.whole("/in")), Map.of(), "relative/out", 0644));
      assertThrows(FileNotFoundException.class,
          () -> c.executeObject(t, List.of(InputRange.whole("/missing")), Map.of(), "/never", 0644));
      assertThrows(FileNotFoundException.class, () -> c.status("/never"));

      c.mkdirs("/private", 0755);
      try (SocketDeviceClient alice = SocketDeviceClient.connect(DeviceAddress.parse(device.address()),
          ClientOptions.defaults().withIdentity(new ClientIdentity("alice", List.of("analysts"))))) {
        long mine = alice.createObject(BUILT_IN, FieldFilter.class.getName(), Map.of("record-length", "" + RECORD,
            "field-offset", "4", "field-length", "1", "op", "eq", "value", "3"));
        assertThrows(DeviceException.PermissionDenied.class,
            () -> alice.executeObject(mine, List.of(InputRange.whole("/in")), Map.of(), "/private/out", 0644));
        assertEquals(List.of(), names(c, "/private"));
      }
    }
  }

  @Test
  void theNextExecutionReadsAnEarlierOnesOutputObjectWhereItIs() throws Exception {
    int n = 30_000;
    byte[] data = IspEngineTest.records(n);
    try (SimulatedDevice device = device("side"); SocketDeviceClient c = TestDevices.connect(device)) {
      write(c, "/in", data);
      long filter = c.createObject(BUILT_IN, FieldFilter.class.getName(), Map.of("record-length", "" + RECORD,
          "field-offset", "4", "field-length", "1", "op", "eq", "value", "3"));
      assertEquals(ExecutionState.DONE, run(c, filter, "/in", Map.of(), "/iteration-1", 0644).last().state());
      byte[] first = TestDevices.readAll(c, "/iteration-1");

      long reader = c.createObject(TestJars.of(org.smartssd.device.runtime.isp.testtasklets.SideReader.class),
          org.smartssd.device.runtime.isp.testtasklets.SideReader.class.getName(), Map.of("side", "/iteration-1"));
      long linkBefore = device.statistics().hostBytesOut();
      long exec = c.executeObject(reader, List.of(InputRange.whole("/in")), Map.of());
      List<TaskletResult> results = new ArrayList<>();
      Response.ExecutionProgress last = ExecutionPoller.drain(c, exec, results::add,
          ExecutionPoller.PollingPolicy.defaults());
      assertEquals(ExecutionState.DONE, last.state(), last.message());
      assertEquals(last.statistics().lanes(), results.size(), "a line a lane");
      for (TaskletResult r : results) {
        String line = StandardCharsets.UTF_8.decode(r.data()).toString();
        assertEquals(first.length + "|" + org.smartssd.device.runtime.isp.testtasklets.SideReader.hash(first),
            line.substring(line.indexOf('|') + 1), "every lane read the whole object");
      }
      int page = device.info().geometry().pageSizeBytes();
      long inputPages = (data.length + page - 1) / page;
      long sidePages = (long) results.size() * ((first.length + page - 1) / page);
      assertEquals(inputPages + sidePages, last.statistics().pagesRead(), "the side object's pages are internal reads");
      assertTrue(device.statistics().hostBytesOut() - linkBefore < first.length,
          "the object did not cross the host link");

      long missing = c.createObject(TestJars.of(org.smartssd.device.runtime.isp.testtasklets.SideReader.class),
          org.smartssd.device.runtime.isp.testtasklets.SideReader.class.getName(), Map.of("side", "/nothing"));
      Response.ExecutionProgress failed = ExecutionPoller.drain(c,
          c.executeObject(missing, List.of(InputRange.whole("/in")), Map.of()), r -> { },
          ExecutionPoller.PollingPolicy.defaults());
      assertEquals(ExecutionState.FAILED, failed.state());
      assertTrue(failed.message().contains("/nothing"), failed.message());

      c.mkdirs("/private", 0700);
      write(c, "/private/secret", new byte[] {1, 2, 3});
      c.setPermission("/private/secret", 0600);
      try (SocketDeviceClient alice = SocketDeviceClient.connect(DeviceAddress.parse(device.address()),
          ClientOptions.defaults().withIdentity(new ClientIdentity("alice", List.of("analysts"))))) {
        c.setPermission("/in", 0644);
        long snoop = alice.createObject(TestJars.of(org.smartssd.device.runtime.isp.testtasklets.SideReader.class),
            org.smartssd.device.runtime.isp.testtasklets.SideReader.class.getName(), Map.of("side", "/private/secret"));
        Response.ExecutionProgress denied = ExecutionPoller.drain(alice,
            alice.executeObject(snoop, List.of(InputRange.whole("/in")), Map.of()), r -> { },
            ExecutionPoller.PollingPolicy.defaults());
        assertEquals(ExecutionState.FAILED, denied.state());
        assertTrue(denied.message().contains("ermission denied"), denied.message());
      }
    }
  }
}
