package org.smartssd.device.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.smartssd.device.ChannelStatistics;
import org.smartssd.device.DeviceException;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.protocol.ProtocolException;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;

/** The blocking typed methods: the request each sends, what each returns, and errors. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeviceClientMethodsTest {
  private static final ClientOptions PATIENT = ClientOptions.defaults().withRequestTimeout(Duration.ofMinutes(10));

  private final BlockingQueue<Request> received = new LinkedBlockingQueue<>();
  private FakeDevice device;
  private SocketDeviceClient client;

  /** Starts a device answering with {@code answer} and records every request it gets. */
  private void start(java.util.function.Function<Request, Response> answer, ClientOptions options)
      throws IOException {
    device = new FakeDevice(FakeDevice.answering(r -> {
      received.add(r);
      return answer.apply(r);
    }));
    client = SocketDeviceClient.connect(device.address(), options);
  }

  @AfterEach
  void stop() throws IOException {
    if (client != null) {
      client.close();
    }
    if (device != null) {
      device.close();
    }
  }

  @Test
  void eachMethodSendsItsRequestAndReturnsTheReply() throws Exception {
    ObjectStatus file = new ObjectStatus("/d/f", false, 10, 1, 5);
    DeviceInfo info = new DeviceInfo("h", "p", new DeviceGeometry(1, 1, 1, 1, 4096, 1), 1, 1, false, Map.of("k", "v"));
    DeviceStatistics stats = new DeviceStatistics(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, List.of(new ChannelStatistics(1, 2, 3, 4)));
    start(r -> {
      if (r instanceof Request.Create || r instanceof Request.Append) {
        return new Response.Opened(11, 5, r instanceof Request.Create ? 0 : 10);
      } else if (r instanceof Request.Flush || r instanceof Request.Sync || r instanceof Request.Close) {
        return new Response.Length(10);
      } else if (r instanceof Request.Open || r instanceof Request.GetStatus) {
        return new Response.Stat(file);
      } else if (r instanceof Request.ListDir) {
        return new Response.Listing(List.of(file), false);
      } else if (r instanceof Request.Info) {
        return new Response.Info(info);
      } else if (r instanceof Request.Statistics) {
        return new Response.Statistics(stats);
      }
      return new Response.Empty();
    }, PATIENT);

    client.mkdirs("/d");
    assertEquals(new Request.Mkdirs("/d"), received.take());
    assertEquals(new Response.Opened(11, 5, 0), client.create("/d/f", true, false));
    assertEquals(new Request.Create("/d/f", true, false), received.take());
    assertEquals(new Response.Opened(11, 5, 10), client.append("/d/f"));
    assertEquals(new Request.Append("/d/f"), received.take());
    assertEquals(10, client.flush(11));
    assertEquals(new Request.Flush(11), received.take());
    assertEquals(10, client.sync(11));
    assertEquals(new Request.Sync(11), received.take());
    assertEquals(10, client.closeHandle(11));
    assertEquals(new Request.Close(11), received.take());
    assertEquals(file, client.open("/d/f"));
    assertEquals(new Request.Open("/d/f"), received.take());
    assertEquals(file, client.status("/d/f"));
    assertEquals(new Request.GetStatus("/d/f"), received.take());
    assertEquals(new Response.Listing(List.of(file), false), client.list("/d", "a", 5));
    assertEquals(new Request.ListDir("/d", "a", 5), received.take());
    client.rename("/d/f", "/d/g");
    assertEquals(new Request.Rename("/d/f", "/d/g"), received.take());
    client.delete("/d", true);
    assertEquals(new Request.Delete("/d", true), received.take());
    assertEquals(info, client.info());
    assertEquals(new Request.Info(), received.take());
    assertEquals(stats, client.statistics());
    assertEquals(new Request.Statistics(), received.take());
    client.shutdown();
    assertEquals(new Request.Shutdown(), received.take());
  }

  @ParameterizedTest
  @EnumSource(value = Status.class, names = "OK", mode = EnumSource.Mode.EXCLUDE)
  void everyErrorStatusRaisesItsExceptionNamingTheDevice(Status status) throws Exception {
    start(r -> new Response.Error(status, "/x: " + status.defaultMessage()), PATIENT);
    Class<? extends IOException> expected = status.toException("").getClass();
    IOException e = assertThrows(expected, () -> client.status("/x"));
    assertEquals(client.address() + ": /x: " + status.defaultMessage(), e.getMessage());

    ExecutionException async = assertThrows(ExecutionException.class,
        () -> client.submit(new Request.Open("/x")).get());
    assertInstanceOf(expected, async.getCause());
  }

  @Test
  void writeLargerThanAFrameGoesInOrderedPieces() throws Exception {
    ByteArrayOutputStream stored = new ByteArrayOutputStream();
    List<Integer> pieces = new ArrayList<>();
    start(r -> {
      ByteBuffer data = ((Request.Write) r).data();
      pieces.add(data.remaining());
      byte[] b = new byte[data.remaining()];
      data.get(b);
      stored.writeBytes(b);
      return new Response.Length(stored.size());
    }, PATIENT.withMaxFrameBytes(1024));

    byte[] data = new byte[3000];
    new java.util.Random(1).nextBytes(data);
    assertEquals(3000, client.write(7, data, 0, data.length));
    assertEquals(List.of(1012, 1012, 976), pieces, "payload = 8 handle + 4 length + data <= 1024");
    assertArrayEquals(data, stored.toByteArray());

    ByteBuffer buffer = ByteBuffer.wrap(data, 100, 50);
    assertEquals(3050, client.write(7, buffer));
    assertEquals(100, buffer.position(), "the caller's position must not move");
  }

  @Test
  void readCapsToAFrameAndSignalsTheEnd() throws Exception {
    int objectLength = 5000;
    start(r -> {
      Request.Read read = (Request.Read) r;
      if (read.offset() > objectLength) {
        return new Response.Error(Status.PAST_END, "offset " + read.offset() + " past the end");
      }
      int n = (int) Math.min(read.length(), objectLength - read.offset());
      return new Response.Data(ByteBuffer.allocate(n));
    }, PATIENT.withMaxFrameBytes(1024));

    ByteBuffer dst = ByteBuffer.allocate(4096);
    assertEquals(1020, client.read(1, 0, dst), "payload = 4 length + data <= 1024");
    assertEquals(new Request.Read(1, 0, 1020), received.take());
    assertEquals(1020, dst.position());
    assertEquals(200, client.read(1, 4800, dst));
    assertEquals(-1, client.read(1, objectLength, dst));
    EOFException e = assertThrows(EOFException.class, () -> client.read(1, objectLength + 1, dst));
    assertTrue(e.getMessage().contains("past the end"), e.getMessage());
    received.clear();
    assertEquals(0, client.read(1, 0, ByteBuffer.allocate(0)));
    assertTrue(received.isEmpty(), "an empty buffer needs no request");
  }

  @Test
  void readRejectsMoreDataThanAskedFor() throws Exception {
    start(r -> new Response.Data(ByteBuffer.allocate(((Request.Read) r).length() + 1)), PATIENT);
    ProtocolException e = assertThrows(ProtocolException.class, () -> client.read(1, 0, ByteBuffer.allocate(8)));
    assertTrue(e.getMessage().contains("returned 9 bytes"), e.getMessage());
  }

  @Test
  void listAllFollowsPages() throws Exception {
    List<ObjectStatus> all = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      all.add(new ObjectStatus(String.format("/dir/f%05d", i), false, i, 0, i));
    }
    start(r -> {
      Request.ListDir list = (Request.ListDir) r;
      int from = 0;
      while (from < all.size() && all.get(from).name().compareTo(list.startAfter()) <= 0) {
        from++;
      }
      int to = Math.min(all.size(), from + list.limit());
      return new Response.Listing(all.subList(from, to), to < all.size());
    }, PATIENT);

    assertEquals(all, client.listAll("/dir"));
    assertEquals(new Request.ListDir("/dir", "", AbstractDeviceClient.LIST_PAGE_ENTRIES), received.take());
    assertEquals(new Request.ListDir("/dir", "f00999", AbstractDeviceClient.LIST_PAGE_ENTRIES), received.take());
    assertEquals(new Request.ListDir("/dir", "f01999", AbstractDeviceClient.LIST_PAGE_ENTRIES), received.take());
    assertTrue(received.isEmpty());
  }

  @Test
  void listAllStopsOnAnEmptyPageThatPromisesMore() throws Exception {
    start(r -> new Response.Listing(List.of(), true), PATIENT);
    ProtocolException e = assertThrows(ProtocolException.class, () -> client.listAll("/dir"));
    assertTrue(e.getMessage().contains("said more follow"), e.getMessage());
  }

  @Test
  void requestThatCannotBeEncodedIsABadRequest() throws Exception {
    start(r -> new Response.Empty(), PATIENT);
    DeviceException.BadRequest e =
        assertThrows(DeviceException.BadRequest.class, () -> client.mkdirs("/" + "x".repeat(70_000)));
    assertTrue(e.getMessage().startsWith(client.address() + ": cannot encode MKDIRS"), e.getMessage());
    client.mkdirs("/fine");
    assertEquals(new Request.Mkdirs("/fine"), received.take());
  }

  // In-storage processing.

  private static final ExecutionStatistics STATS = new ExecutionStatistics(2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
      22, 23, 24);

  @Test
  void taskletMethodsSendTheirRequestsAndReturnTheReplies() throws Exception {
    Response.ExecutionProgress progress = new Response.ExecutionProgress(ExecutionState.RUNNING, "", STATS,
        List.of(new TaskletResult(1, ByteBuffer.wrap(new byte[] {4, 2})), new TaskletResult(-1, ByteBuffer.allocate(0))),
        false);
    start(r -> {
      if (r instanceof Request.CreateObject) {
        return new Response.TaskletCreated(0x8000_0000_0000_0007L);
      } else if (r instanceof Request.ExecuteObject) {
        return new Response.ExecutionStarted(0x8000_0000_0000_0009L);
      } else if (r instanceof Request.ReadObject) {
        return progress;
      }
      return new Response.Empty();
    }, PATIENT);

    ByteBuffer jar = ByteBuffer.wrap(new byte[] {0x50, 0x4B, 3, 4, 5});
    jar.position(1);
    assertEquals(0x8000_0000_0000_0007L, client.createObject(jar, "org.example.T", Map.of("b", "2", "a", "1")));
    assertEquals(new Request.CreateObject(ByteBuffer.wrap(new byte[] {0x4B, 3, 4, 5}), "org.example.T",
        Map.of("a", "1", "b", "2")), received.take());
    assertEquals(1, jar.position(), "the caller's position must not move");

    List<InputRange> inputs = List.of(InputRange.whole("/a"), new InputRange("/b", 10, 20));
    assertEquals(0x8000_0000_0000_0009L, client.executeObject(0x8000_0000_0000_0007L, inputs, Map.of("o", "v")));
    assertEquals(new Request.ExecuteObject(0x8000_0000_0000_0007L, inputs, Map.of("o", "v")), received.take());

    assertEquals(progress, client.readObject(0x8000_0000_0000_0009L, 1 << 20));
    assertEquals(new Request.ReadObject(0x8000_0000_0000_0009L, 1 << 20), received.take());

    client.cancel(0x8000_0000_0000_0009L);
    assertEquals(new Request.Cancel(0x8000_0000_0000_0009L), received.take());
    client.removeObject(0x8000_0000_0000_0007L);
    assertEquals(new Request.RemoveObject(0x8000_0000_0000_0007L), received.take());
    assertTrue(received.isEmpty());
  }

  @Test
  void unknownTaskletOrExecutionRaisesFileNotFound() throws Exception {
    start(r -> new Response.Error(Status.NOT_FOUND, "no " + r.opcode()), PATIENT);
    List<org.junit.jupiter.api.function.Executable> calls = List.of(
        () -> client.executeObject(3, List.of(InputRange.whole("/a")), Map.of()),
        () -> client.readObject(4, 100),
        () -> client.cancel(4),
        () -> client.removeObject(3));
    List<String> opcodes = List.of("EXECUTE_OBJECT", "READ_OBJECT", "CANCEL", "REMOVE_OBJECT");
    for (int i = 0; i < calls.size(); i++) {
      FileNotFoundException e = assertThrows(FileNotFoundException.class, calls.get(i));
      assertEquals(client.address() + ": no " + opcodes.get(i), e.getMessage());
    }
  }

  @Test
  void refusedTaskletIsABadRequestAndTooManyExecutionsBusy() throws Exception {
    start(r -> r instanceof Request.CreateObject
        ? new Response.Error(Status.BAD_REQUEST, "class org.example.Missing is not in the jar")
        : new Response.Error(Status.BUSY, "8 executions are running"), PATIENT);
    DeviceException.BadRequest refused = assertThrows(DeviceException.BadRequest.class,
        () -> client.createObject(ByteBuffer.allocate(0), "org.example.Missing", Map.of()));
    assertTrue(refused.getMessage().endsWith("class org.example.Missing is not in the jar"), refused.getMessage());
    assertThrows(DeviceException.Busy.class, () -> client.executeObject(1, List.of(), Map.of()));
  }

  @Test
  void failedExecutionIsAProgressNotAnException() throws Exception {
    Response.ExecutionProgress failed =
        new Response.ExecutionProgress(ExecutionState.FAILED, "lane 0: boom", STATS, List.of(), true);
    start(r -> failed, PATIENT);
    assertEquals(failed, client.readObject(5, 100));
  }

  @Test
  void readObjectAsksForNoMoreThanAFrameHolds() throws Exception {
    start(r -> new Response.ExecutionProgress(ExecutionState.RUNNING, "", STATS, List.of(), false),
        PATIENT.withMaxFrameBytes(1024));
    client.readObject(5, 1 << 20);
    int expected = 1024 - AbstractDeviceClient.READ_OBJECT_OVERHEAD;
    assertEquals(new Request.ReadObject(5, expected), received.take());
    assertEquals(1024 - (1 + 2 + 4 + 27 * 8 + 4 + 1), expected, "state, message, statistics (version 5), count, finished");
    client.readObject(5, 10);
    assertEquals(new Request.ReadObject(5, 10), received.take());
    assertThrows(IllegalArgumentException.class, () -> client.readObject(5, -1));
  }
}
