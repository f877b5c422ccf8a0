package org.smartssd.device.runtime.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.smartssd.device.runtime.TestDevices.bytes;
import static org.smartssd.device.runtime.TestDevices.readAll;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.SocketDirectory;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.config.ConfigException;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.RecordCounter;

/**
 * The host interface over a Unix domain socket, beside TCP: the same commands, pipelining, in-storage
 * processing and per-connection handles, through the Java client; and the socket file's life.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class UnixSocketTest {
  @TempDir Path dir;
  private SocketDirectory sockets;
  private Path socket;

  @BeforeEach
  void socketPath() throws IOException {
    sockets = SocketDirectory.in(dir);
    socket = sockets.socket("device.sock");
  }

  @AfterEach
  void removeSocketDirectory() throws IOException {
    sockets.close();
  }

  /** A small device in {@code dir/name} that also listens on {@code unixSocket}. */
  private Map<String, String> config(String name, Path unixSocket) {
    Map<String, String> o = TestDevices.small(dir.resolve(name));
    o.put(DeviceConfigKeys.HOST_UNIX_SOCKET, unixSocket.toString());
    return o;
  }

  private SimulatedDevice start() throws IOException {
    return TestDevices.start(config("data", socket));
  }

  @Test
  void everyDataPlaneCommandWorksOverTheUnixSocket() throws Exception {
    try (SimulatedDevice device = start(); SocketDeviceClient c = TestDevices.connectUnix(device)) {
      assertEquals(DeviceAddress.unix(socket), device.unixAddress().orElseThrow());
      assertEquals("unix:" + socket, c.address().toString());
      assertEquals("test-device", c.info().deviceName());

      c.mkdirs("/logs/1998");
      Response.Opened f = c.create("/logs/1998/day1", false, false);
      byte[] data = bytes(300_000, 1);
      c.write(f.handle(), data, 0, 100_000);
      assertEquals(100_000, c.flush(f.handle()));
      assertEquals(100_000, c.sync(f.handle()));
      c.write(f.handle(), ByteBuffer.wrap(data, 100_000, 200_000));
      assertEquals(300_000, c.closeHandle(f.handle()));
      assertArrayEquals(data, readAll(c, "/logs/1998/day1"));

      c.rename("/logs/1998", "/logs/wc98");
      assertEquals(List.of("day1"), c.listAll("/logs/wc98").stream().map(ObjectStatus::name).toList());
      assertThrows(FileNotFoundException.class, () -> c.status("/logs/1998/day1"));
      DeviceException.BadHandle closed = assertThrows(DeviceException.BadHandle.class,
          () -> c.write(f.handle(), new byte[1], 0, 1));
      assertTrue(closed.getMessage().startsWith("unix:" + socket + ": "), "names the device: " + closed.getMessage());
      c.delete("/logs", true);
      assertTrue(c.listAll("/").isEmpty());
      assertTrue(c.statistics().commands() > 0);
    }
  }

  @Test
  void requestsFromManyThreadsArePipelinedOnOneConnection() throws Exception {
    try (SimulatedDevice device = start(); SocketDeviceClient c = TestDevices.connectUnix(device)) {
      byte[] data = bytes(500_000, 3);
      long h = c.create("/f", false, false).handle();
      c.write(h, data, 0, data.length);
      c.closeHandle(h);
      long id = c.open("/f").objectId();

      // Many requests in flight at once from one thread...
      List<CompletableFuture<DeviceClient.Reply>> inFlight = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        inFlight.add(c.submit(new Request.GetStatus("/f")));
      }
      for (CompletableFuture<DeviceClient.Reply> r : inFlight) {
        assertEquals(data.length, ((Response.Stat) r.get(60, TimeUnit.SECONDS).response()).status().length());
      }
      // ...and from several threads, each checking its bytes.
      ExecutorService pool = Executors.newFixedThreadPool(6);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
          long seed = t;
          done.add(pool.submit(() -> {
            Random r = new Random(seed);
            for (int i = 0; i < 100; i++) {
              int off = r.nextInt(data.length);
              ByteBuffer buf = ByteBuffer.allocate(r.nextInt(20_000) + 1);
              int n = c.read(id, off, buf);
              assertEquals(Math.min(buf.capacity(), data.length - off), n);
              assertArrayEquals(Arrays.copyOfRange(data, off, off + n), Arrays.copyOf(buf.array(), n));
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void aBuiltInTaskletRunsOverTheUnixSocket() throws Exception {
    int records = 10_000;
    int recordLength = 13;
    try (SimulatedDevice device = start(); SocketDeviceClient c = TestDevices.connectUnix(device)) {
      long h = c.create("/in", false, false).handle();
      c.write(h, bytes(records * recordLength, 5), 0, records * recordLength);
      c.closeHandle(h);
      long tasklet = c.createObject(ByteBuffer.allocate(0), RecordCounter.class.getName(),
          Map.of("record-length", "" + recordLength));
      long exec = c.executeObject(tasklet, List.of(InputRange.whole("/in")), Map.of());
      List<TaskletResult> results = new ArrayList<>();
      Response.ExecutionProgress last = ExecutionPoller.drain(c, exec, results::add);
      assertEquals(ExecutionState.DONE, last.state(), last.message());
      assertEquals(records, RecordCounter.total(results));
      assertEquals(records, last.statistics().records());
    }
  }

  @Test
  void closingTheConnectionClosesItsWriteHandles() throws Exception {
    byte[] data = bytes(50_000, 6);
    try (SimulatedDevice device = start(); SocketDeviceClient other = TestDevices.connect(device)) {
      SocketDeviceClient writer = TestDevices.connectUnix(device);
      long h = writer.create("/f", false, false).handle();
      writer.write(h, data, 0, data.length);
      assertThrows(DeviceException.LeaseConflict.class, () -> other.append("/f"), "the writer holds it");
      writer.close(); // without closing the handle

      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      Response.Opened appended = null;
      while (appended == null) {
        try {
          appended = other.append("/f");
        } catch (DeviceException.LeaseConflict e) {
          assertTrue(System.nanoTime() < deadline, "the handle is still open 30 s after its connection closed");
          Thread.sleep(10);
        }
      }
      assertEquals(data.length, appended.length(), "what the closed connection wrote is kept");
      other.closeHandle(appended.handle());
      assertArrayEquals(data, readAll(other, "/f"));
    }
  }

  @Test
  void bothListenersServeOneDevice() throws Exception {
    byte[] data = bytes(70_000, 7);
    try (SimulatedDevice device = start();
        SocketDeviceClient tcp = TestDevices.connect(device);
        SocketDeviceClient unix = TestDevices.connectUnix(device)) {
      long h = tcp.create("/by-tcp", false, false).handle();
      tcp.write(h, data, 0, data.length);
      tcp.closeHandle(h);
      assertArrayEquals(data, readAll(unix, "/by-tcp"));

      h = unix.create("/by-unix", false, false).handle();
      unix.write(h, data, 0, data.length);
      unix.closeHandle(h);
      assertArrayEquals(data, readAll(tcp, "/by-unix"));
      assertEquals(List.of("by-tcp", "by-unix"), tcp.listAll("/").stream().map(ObjectStatus::name).sorted().toList());
    }
  }

  @Test
  void theSocketFileIsRemovedWhenTheDeviceStops() throws Exception {
    try (SimulatedDevice device = start(); SocketDeviceClient c = TestDevices.connectUnix(device)) {
      assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
      assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
          Files.getPosixFilePermissions(socket, LinkOption.NOFOLLOW_LINKS)), "only the device's user may connect");
      try (var listing = Files.list(socket.getParent())) {
        assertEquals(List.of(socket), listing.filter(p -> p.getFileName().toString().startsWith(".smartssd-")
            || p.equals(socket)).toList(), "the socket, and no directory it was made in");
      }
      c.mkdirs("/a");
    }
    assertFalse(Files.exists(socket, LinkOption.NOFOLLOW_LINKS), "close removes it");

    SimulatedDevice device = start();
    try (SocketDeviceClient c = TestDevices.connectUnix(device)) {
      assertTrue(c.status("/a").directory(), "the same data, through the socket made again");
      c.shutdown();
    }
    assertTrue(device.awaitStop(30, TimeUnit.SECONDS));
    assertFalse(Files.exists(socket, LinkOption.NOFOLLOW_LINKS), "SHUTDOWN removes it");
    IOException e = assertThrows(IOException.class,
        () -> SocketDeviceClient.connect(DeviceAddress.unix(socket), ClientOptions.defaults()));
    assertTrue(e.getMessage().startsWith("cannot connect to device unix:" + socket + ": "), e.getMessage());
  }

  @Test
  void aSocketFileLeftByAKilledDeviceIsReplaced() throws Exception {
    // Bound and closed without removing the file: what SIGKILL leaves behind.
    try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      dead.bind(UnixDomainSocketAddress.of(socket));
    }
    assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
    try (SimulatedDevice device = start(); SocketDeviceClient c = TestDevices.connectUnix(device)) {
      c.mkdirs("/ok");
    }
    assertFalse(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));
  }

  @Test
  void aSocketAnotherDeviceListensOnIsNotTaken() throws Exception {
    try (SimulatedDevice first = start()) {
      IOException e = assertThrows(IOException.class, () -> TestDevices.start(config("second", socket)));
      assertEquals("cannot listen on unix:" + socket + ": another device is listening on it", e.getMessage());
      try (SocketDeviceClient c = TestDevices.connectUnix(first)) {
        assertEquals("test-device", c.info().deviceName(), "the first device still has its socket");
      }
      // The second device released its data directory and port: it starts with another socket.
      try (SimulatedDevice second = TestDevices.start(config("second", sockets.socket("second.sock")))) {
        assertTrue(second.unixAddress().isPresent());
      }
    }
  }

  @Test
  void aRelativePathIsRefusedNamingTheKey() {
    ConfigException e = assertThrows(ConfigException.class, () -> TestDevices.start(config("data", Path.of("d.sock"))));
    assertEquals(DeviceConfigKeys.HOST_UNIX_SOCKET + ": 'd.sock' is not an absolute path", e.getMessage());
  }

  @Test
  void aMissingDirectoryIsRefusedNamingIt() throws Exception {
    Path missing = sockets.socket("no-such-dir/device.sock");
    IOException e = assertThrows(IOException.class, () -> TestDevices.start(config("data", missing)));
    assertEquals("cannot listen on unix:" + missing + ": directory " + missing.getParent() + " does not exist",
        e.getMessage());
    startsAfterwards();
  }

  @Test
  void anExistingFileIsRefusedAndKept() throws Exception {
    Files.writeString(socket, "not a socket");
    IOException e = assertThrows(IOException.class, () -> start());
    assertEquals("cannot listen on unix:" + socket + ": " + socket
        + " exists and is not a socket; remove it or choose another path", e.getMessage());
    assertEquals("not a socket", Files.readString(socket), "left as it was");

    Path directory = Files.createDirectory(sockets.socket("a-directory"));
    IOException d = assertThrows(IOException.class, () -> TestDevices.start(config("data", directory)));
    assertTrue(d.getMessage().contains(directory + " exists and is not a socket"), d.getMessage());
    Files.delete(socket);
    startsAfterwards();
  }

  @Test
  void aPathTooLongForASocketIsRefusedNamingTheLimit() throws Exception {
    Path deep = Files.createDirectories(dir.resolve("d".repeat(60)).resolve("e".repeat(60)));
    Path tooLong = deep.resolve("device.sock");
    IOException e = assertThrows(IOException.class, () -> TestDevices.start(config("data", tooLong)));
    assertTrue(e.getMessage().startsWith("cannot listen on unix:" + tooLong + ": the path is "
        + tooLong.toString().length() + " bytes long; a Unix domain socket path may have at most 107 bytes"),
        e.getMessage());
    startsAfterwards();
  }

  /** A failed start released the data directory and the TCP port: the device starts with a good path. */
  private void startsAfterwards() throws IOException {
    try (SimulatedDevice device = start(); SocketDeviceClient c = TestDevices.connectUnix(device)) {
      c.mkdirs("/fine");
    }
  }
}
