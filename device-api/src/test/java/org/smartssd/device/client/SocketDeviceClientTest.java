package org.smartssd.device.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.smartssd.device.ChannelStatistics;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.DeviceException;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.DiskUse;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.protocol.Frame;
import org.smartssd.device.protocol.FrameHeader;
import org.smartssd.device.protocol.Messages;
import org.smartssd.device.protocol.Opcode;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.ProtocolException;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;

/**
 * The transport against a fake device, over TCP and over a Unix domain socket: pipelining,
 * timeouts, a lost connection, version negotiation. The {@code @Timeout}s only stop a hang from stalling the build; nothing asserts on time.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketDeviceClientTest {
  /** Long enough never to fire in these tests unless a test wants it to. */
  private static final ClientOptions PATIENT = ClientOptions.defaults().withRequestTimeout(Duration.ofMinutes(10));

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void repliesInReversedBatchesReachTheirCallers(FakeDevice.Listener listener) throws Exception {
    int threads = 8;
    int perThread = 200;
    AtomicInteger batches = new AtomicInteger();
    List<Frame> batch = new ArrayList<>();
    // Each blocking caller has one request in flight, so a batch of 8 holds one from every thread.
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) -> {
      batch.add(frame);
      if (batch.size() == threads) {
        Collections.reverse(batch);
        for (Frame f : batch) {
          connection.reply(f, echo(FakeDevice.request(f)), 3);
        }
        batch.clear();
        batches.incrementAndGet();
      }
    });
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<?>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          results.add(pool.submit(() -> {
            for (int i = 0; i < perThread; i++) {
              if (i % 2 == 0) {
                String path = "/t" + thread + "/" + i;
                assertEquals(path, client.status(path).path());
              } else {
                ByteBuffer dst = ByteBuffer.allocate(16);
                assertEquals(16, client.read(thread, i, dst));
                assertEquals(thread, dst.getLong(0));
                assertEquals(i, dst.getLong(8));
              }
            }
            return null;
          }));
        }
        for (Future<?> f : results) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
      }
      assertEquals(perThread, batches.get());
      assertEquals(3L * threads * perThread, client.modelledNanosTotal());
    }
  }

  /** STATUS answers with the path; READ with the object id and offset as two u64s. */
  private static Response echo(Request request) {
    if (request instanceof Request.GetStatus s) {
      return new Response.Stat(new ObjectStatus(s.path(), false, 0, 0, 1));
    }
    Request.Read r = (Request.Read) request;
    return new Response.Data(ByteBuffer.allocate(16).putLong(r.objectId()).putLong(r.offset()).flip());
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void timedOutRequestFailsAndTheConnectionGoesOn(FakeDevice.Listener listener) throws Exception {
    AtomicReference<Frame> held = new AtomicReference<>();
    AtomicBoolean lateReplySent = new AtomicBoolean();
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) -> {
      Request.GetStatus request = (Request.GetStatus) FakeDevice.request(frame);
      if (request.path().equals("/black-hole")) {
        held.set(frame);
        return;
      }
      Frame late = held.getAndSet(null);
      if (late != null) { // the reply the client gave up on arrives first, and must be ignored
        connection.reply(late, new Response.Stat(new ObjectStatus("/black-hole", false, 0, 0, 1)), 0);
        lateReplySent.set(true);
      }
      connection.reply(frame, new Response.Stat(new ObjectStatus(request.path(), false, 0, 0, 2)), 0);
    });
        SocketDeviceClient client = SocketDeviceClient.connect(
            device.address(), ClientOptions.defaults().withRequestTimeout(Duration.ofMillis(500)))) {
      SocketTimeoutException e = assertThrows(SocketTimeoutException.class, () -> client.status("/black-hole"));
      assertTrue(e.getMessage().startsWith(device.address() + ": no reply to STATUS"), e.getMessage());
      assertTrue(e.getMessage().contains(" ms"), e.getMessage());

      assertEquals("/after", client.status("/after").path());
      assertTrue(lateReplySent.get());
      assertEquals("/again", client.status("/again").path());
    }
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void writeStuckInTheSocketTimesOutAndBreaksTheConnection(FakeDevice.Listener listener) throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) -> {
      try {
        release.await(); // stop reading: the client's socket buffers fill up
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
        SocketDeviceClient client = SocketDeviceClient.connect(
            device.address(), ClientOptions.defaults().withRequestTimeout(Duration.ofMillis(500)))) {
      client.submit(new Request.Mkdirs("/stall"));
      // 256 MiB in flight is far more than socket buffers hold, so one of these blocks mid-frame
      // until its timeout gives up on the connection. (One buffer, sent 32 times: little heap.)
      ByteBuffer chunk = ByteBuffer.allocate(8 << 20);
      List<CompletableFuture<DeviceClient.Reply>> writes = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        writes.add(client.submit(new Request.Write(1, chunk)));
      }
      for (CompletableFuture<DeviceClient.Reply> w : writes) {
        assertInstanceOf(IOException.class, assertThrows(ExecutionException.class, w::get).getCause());
      }
      IOException later = assertThrows(IOException.class, () -> client.status("/x"));
      assertTrue(later.getMessage().startsWith("connection to " + device.address() + " lost: could not send WRITE"),
          later.getMessage());
    } finally {
      release.countDown();
    }
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void connectionLostMidFrameFailsEveryPendingAndLaterRequest(FakeDevice.Listener listener) throws Exception {
    int pending = 5;
    AtomicInteger received = new AtomicInteger();
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) -> {
      if (received.incrementAndGet() == pending) {
        // A header announcing 100 bytes of payload, 10 of them, and the end.
        ByteBuffer partial = ByteBuffer.allocate(ProtocolConstants.HEADER_BYTES + 10);
        FrameHeader.response(1, Opcode.STATUS, org.smartssd.device.protocol.Status.OK, 100,
            frame.header().requestId(), 0).writeTo(partial);
        connection.writeRaw(partial.array());
        connection.close();
      }
    });
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      List<CompletableFuture<DeviceClient.Reply>> futures = new ArrayList<>();
      for (int i = 0; i < pending; i++) {
        futures.add(client.submit(new Request.GetStatus("/p" + i)));
      }
      String lost = "connection to " + device.address() + " lost: ";
      for (CompletableFuture<DeviceClient.Reply> f : futures) {
        ExecutionException e = assertThrows(ExecutionException.class, f::get);
        assertInstanceOf(IOException.class, e.getCause());
        assertFalse(e.getCause() instanceof SocketTimeoutException);
        assertTrue(e.getCause().getMessage().startsWith(lost), e.getCause().getMessage());
        assertTrue(e.getCause().getMessage().contains("truncated frame"), e.getCause().getMessage());
      }
      IOException later = assertThrows(IOException.class, () -> client.status("/later"));
      assertTrue(later.getMessage().startsWith(lost), later.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void deviceClosingBetweenFramesFailsPendingRequests(FakeDevice.Listener listener) throws Exception {
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) -> connection.close());
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      IOException e = assertThrows(IOException.class, () -> client.mkdirs("/a"));
      assertTrue(e.getMessage().contains(device.address() + " lost"), e.getMessage());
      assertTrue(e.getMessage().contains("closed the connection"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void frameWithoutTheResponseFlagBreaksTheConnection(FakeDevice.Listener listener) throws Exception {
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) ->
            connection.writeRaw(Messages.requestFrame(1, frame.header().requestId(), new Request.Info()).array()));
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      IOException e = assertThrows(IOException.class, () -> client.mkdirs("/a"));
      assertTrue(e.getMessage().contains("without the response flag"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void malformedReplyFailsOnlyItsRequest(FakeDevice.Listener listener) throws Exception {
    AtomicBoolean first = new AtomicBoolean(true);
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) -> {
      if (first.getAndSet(false)) { // an OK STATUS reply whose payload is 3 stray bytes
        ByteBuffer bad = ByteBuffer.allocate(ProtocolConstants.HEADER_BYTES + 3);
        FrameHeader.response(1, Opcode.STATUS, org.smartssd.device.protocol.Status.OK, 3,
            frame.header().requestId(), 0).writeTo(bad);
        connection.writeRaw(bad.array());
      } else {
        connection.reply(frame, new Response.Stat(new ObjectStatus("/b", false, 0, 0, 1)), 0);
      }
    });
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.status("/a"));
      assertTrue(e.getMessage().startsWith(device.address() + ": STATUS response: field 'status"), e.getMessage());
      assertEquals("/b", client.status("/b").path());
    }
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void replyWithTheWrongOpcodeFailsItsRequest(FakeDevice.Listener listener) throws Exception {
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) -> connection.writeRaw(Messages.responseFrame(
            1, frame.header().requestId(), Opcode.SYNC, new Response.Length(1), 0).array()));
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> client.flush(1));
      assertTrue(e.getMessage().contains("opcode 0x15") && e.getMessage().contains("FLUSH"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void noCommonVersionFailsConnectAndClosesTheConnection(FakeDevice.Listener listener) throws Exception {
    int above = ProtocolConstants.MAX_VERSION + 1;
    try (FakeDevice device = new FakeDevice(listener, new Response.Versions(above, above + 1), (connection, frame) -> { })) {
      DeviceException.UnsupportedVersion e = assertThrows(DeviceException.UnsupportedVersion.class,
          () -> SocketDeviceClient.connect(device.address(), PATIENT));
      assertTrue(e.getMessage().startsWith(device.address() + ": no common protocol version"), e.getMessage());
      assertTrue(e.getMessage().contains("1.." + ProtocolConstants.MAX_VERSION)
          && e.getMessage().contains(above + ".." + (above + 1)), e.getMessage());
      assertTrue(device.connections.take().ended.await(30, TimeUnit.SECONDS), "the client must close");
    }
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void highestCommonVersionIsUsedForLaterRequests(FakeDevice.Listener listener) throws Exception {
    try (FakeDevice device = new FakeDevice(listener, new Response.Versions(1, 9), FakeDevice.answering(r -> new Response.Empty()));
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      assertEquals(ProtocolConstants.MAX_VERSION, client.protocolVersion());
      client.mkdirs("/a");
      FakeDevice.Connection connection = device.connections.take();
      assertEquals(ProtocolConstants.MAX_VERSION, connection.versionsSeen.take(), "API_VERSIONS");
      assertEquals(ProtocolConstants.MAX_VERSION, connection.versionsSeen.take(), "MKDIRS");
    }
  }

  /** A device of protocol version 1 is still served; its statistics come without disk use. */
  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void aVersion1DeviceAnswersStatisticsWithoutDiskUse(FakeDevice.Listener listener) throws Exception {
    DeviceStatistics v1 = new DeviceStatistics(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
        List.of(new ChannelStatistics(1, 2, 3, 4)));
    try (FakeDevice device = new FakeDevice(listener, new Response.Versions(1, 1),
            FakeDevice.answering(r -> new Response.Statistics(v1)));
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      assertEquals(1, client.protocolVersion());
      DeviceStatistics got = client.statistics();
      assertEquals(v1, got);
      assertEquals(null, got.diskUse());
      FakeDevice.Connection connection = device.connections.take();
      connection.versionsSeen.take();
      assertEquals(1, connection.versionsSeen.take(), "STATISTICS");
    }
  }

  /** A device of protocol version 2 is still served; its statistics come with disk use, without energy. */
  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void aVersion2DeviceAnswersStatisticsWithoutEnergy(FakeDevice.Listener listener) throws Exception {
    DeviceStatistics v2 = new DeviceStatistics(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
        List.of(new ChannelStatistics(1, 2, 3, 4))).withDiskUse(new DiskUse(true, "", 1, 2, 3, 4, 5));
    try (FakeDevice device = new FakeDevice(listener, new Response.Versions(1, 2),
            FakeDevice.answering(r -> new Response.Statistics(v2.withEnergy(new DeviceEnergy(1, 2, 3, 4, 5, 6)))));
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      assertEquals(2, client.protocolVersion());
      DeviceStatistics got = client.statistics();
      assertEquals(v2, got, "the version 2 layout leaves the energy out");
      assertEquals(null, got.energy());
      FakeDevice.Connection connection = device.connections.take();
      connection.versionsSeen.take();
      assertEquals(2, connection.versionsSeen.take(), "STATISTICS");
    }
  }

  @Test
  void connectFailureNamesTheDevice() throws IOException {
    int port;
    try (ServerSocket unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = unused.getLocalPort();
    }
    DeviceAddress address = new DeviceAddress("127.0.0.1", port);
    IOException e = assertThrows(IOException.class, () -> SocketDeviceClient.connect(address, PATIENT));
    assertTrue(e.getMessage().startsWith("cannot connect to device 127.0.0.1:" + port + ": "), e.getMessage());
    assertInstanceOf(IOException.class, e.getCause());
  }

  @Test
  void connectToAMissingUnixSocketNamesIt(@TempDir Path dir) {
    DeviceAddress address = DeviceAddress.unix(dir.resolve("none.sock"));
    IOException e = assertThrows(IOException.class, () -> SocketDeviceClient.connect(address, PATIENT));
    assertTrue(e.getMessage().startsWith("cannot connect to device unix:" + dir.resolve("none.sock") + ": "),
        e.getMessage());
  }

  @Test
  void connectToAUnixSocketNobodyListensOnIsRefused(@TempDir Path dir) throws IOException {
    Path socket = dir.resolve("stale.sock");
    // Bound and closed: the file stays, as a device killed with SIGKILL leaves it.
    try (ServerSocketChannel gone = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      gone.bind(UnixDomainSocketAddress.of(socket));
    }
    IOException e = assertThrows(IOException.class,
        () -> SocketDeviceClient.connect(DeviceAddress.unix(socket), PATIENT));
    assertTrue(e.getMessage().startsWith("cannot connect to device unix:" + socket + ": "), e.getMessage());
    assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("refused"), e.getMessage());
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void interruptBeforeSendingThrowsInterruptedIoAndKeepsTheFlag(FakeDevice.Listener listener) throws Exception {
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) -> {
      if (!((Request.GetStatus) FakeDevice.request(frame)).path().equals("/never")) {
        connection.reply(frame, new Response.Stat(new ObjectStatus("/ok", false, 0, 0, 1)), 0);
      }
    });
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      Thread.currentThread().interrupt();
      try {
        assertThrows(InterruptedIOException.class, () -> client.status("/never"));
      } finally {
        assertTrue(Thread.interrupted(), "the interrupt flag must be restored");
      }
      assertEquals("/ok", client.status("/ok").path());
    }
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void interruptWhileWaitingForTheReplyThrowsInterruptedIo(FakeDevice.Listener listener) throws Exception {
    Thread caller = Thread.currentThread();
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) -> {
      String path = ((Request.GetStatus) FakeDevice.request(frame)).path();
      if (path.equals("/never")) {
        caller.interrupt(); // the request has arrived: the caller is waiting, or about to
      } else {
        connection.reply(frame, new Response.Stat(new ObjectStatus(path, false, 0, 0, 1)), 0);
      }
    });
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      try {
        InterruptedIOException e = assertThrows(InterruptedIOException.class, () -> client.status("/never"));
        assertTrue(e.getMessage().startsWith(device.address().toString()), e.getMessage());
      } finally {
        assertTrue(Thread.interrupted(), "the interrupt flag must be restored");
      }
      assertEquals("/ok", client.status("/ok").path());
    }
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void closeFailsPendingAndLaterRequests(FakeDevice.Listener listener) throws Exception {
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) -> { })) {
      SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT);
      CompletableFuture<DeviceClient.Reply> pending = client.submit(new Request.Info());
      client.close();
      ExecutionException e = assertThrows(ExecutionException.class, pending::get);
      assertTrue(e.getCause().getMessage().contains(device.address() + " closed"), e.getCause().getMessage());
      assertThrows(IOException.class, client::info);
      client.close(); // twice is harmless
      assertTrue(device.connections.take().ended.await(30, TimeUnit.SECONDS));
    }
  }

  @ParameterizedTest
  @EnumSource(FakeDevice.Listener.class)
  void largeWriteIsSentWhole(FakeDevice.Listener listener) throws Exception {
    byte[] data = new byte[3 << 20];
    new java.util.Random(7).nextBytes(data);
    AtomicReference<byte[]> received = new AtomicReference<>();
    try (FakeDevice device = new FakeDevice(listener, (connection, frame) -> {
      Request.Write w = (Request.Write) FakeDevice.request(frame);
      byte[] got = new byte[w.data().remaining()];
      w.data().get(got);
      received.set(got);
      connection.reply(frame, new Response.Length(got.length), 0);
    });
        SocketDeviceClient client = SocketDeviceClient.connect(device.address(), PATIENT)) {
      ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
      assertEquals(data.length, client.write(1, direct));
      assertArrayEquals(data, received.get());
      assertEquals(0, direct.position());
    }
  }
}
