package org.smartssd.device.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.DiskUse;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.TransferCounts;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.Damage;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.TestDevices;
import org.smartssd.device.runtime.isp.TestJars;
import org.smartssd.device.runtime.isp.testtasklets.EventRecorder;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.RecordCounter;

/**
 * What every {@link DeviceClient} transport must do, against a real device over a real socket:
 * each transport's test extends this with its own {@link #connect}. The pure-Java client runs it in
 * {@code JavaTransportSuiteTest}, the native one in module {@code jni}.
 */
public abstract class DeviceClientSuite {
  /** A frame limit small enough that large writes and reads take several frames. */
  protected static final int SMALL_FRAMES = 256 << 10;

  @TempDir protected Path dir;
  protected SimulatedDevice device;
  protected DeviceClient client;

  /** Connects this suite's transport. */
  protected abstract DeviceClient connect(DeviceAddress address, ClientOptions options) throws IOException;

  /** The highest protocol version the transport speaks, which it negotiates with this device. */
  protected int highestVersion() {
    return ProtocolConstants.MAX_VERSION;
  }

  protected static ClientOptions options(int maxFrameBytes) {
    return new ClientOptions(Duration.ofSeconds(5), Duration.ofSeconds(20), maxFrameBytes);
  }

  @BeforeEach
  void startDevice() throws IOException {
    device = TestDevices.start(TestDevices.small(dir.resolve("device")));
    client = connect(DeviceAddress.parse(device.address()), options(SMALL_FRAMES));
  }

  @AfterEach
  void stopDevice() throws IOException {
    if (client != null) {
      client.close();
    }
    if (device != null) {
      device.close();
    }
  }

  private long writeFile(String path, byte[] data) throws IOException {
    long h = client.create(path, true, true).handle();
    client.write(h, data, 0, data.length);
    return client.closeHandle(h);
  }

  @Test
  void writesFlushesSyncsAndReadsBackEveryByte() throws Exception {
    client.mkdirs("/data/wc98");
    byte[] data = TestDevices.bytes(3 * SMALL_FRAMES + 12345, 7);
    Response.Opened opened = client.create("/data/wc98/day-01", false, false);
    assertThat(opened.length()).isZero();
    assertThat(client.write(opened.handle(), data, 0, 1000)).isEqualTo(1000);
    assertThat(client.flush(opened.handle())).isEqualTo(1000);
    assertThat(client.write(opened.handle(), ByteBuffer.wrap(data, 1000, data.length - 1000))).isEqualTo(data.length);
    assertThat(client.sync(opened.handle())).isEqualTo(data.length);
    assertThat(client.closeHandle(opened.handle())).isEqualTo(data.length);

    ObjectStatus status = client.open("/data/wc98/day-01");
    assertThat(status.length()).isEqualTo(data.length);
    assertThat(client.status("/data/wc98/day-01")).isEqualTo(status);
    assertThat(TestDevices.readAll(client, "/data/wc98/day-01")).isEqualTo(data);

    // Positioned reads into heap and direct buffers, at a position, past frames, and at the end.
    for (ByteBuffer dst : List.of(ByteBuffer.allocate(SMALL_FRAMES * 2), ByteBuffer.allocateDirect(SMALL_FRAMES * 2))) {
      dst.position(17);
      int n = client.read(status.objectId(), 5000, dst);
      assertThat(n).isPositive().isLessThanOrEqualTo(SMALL_FRAMES);
      assertThat(dst.position()).isEqualTo(17 + n);
      byte[] got = new byte[n];
      dst.flip().position(17);
      dst.get(got);
      assertThat(got).isEqualTo(Arrays.copyOfRange(data, 5000, 5000 + n));
    }
    ByteBuffer tail = ByteBuffer.allocateDirect(100);
    assertThat(client.read(status.objectId(), data.length - 10, tail)).isEqualTo(10);
    assertThat(client.read(status.objectId(), data.length, ByteBuffer.allocateDirect(10))).isEqualTo(-1);
    assertThat(client.read(status.objectId(), 0, ByteBuffer.allocate(0))).isZero();
    assertThatThrownBy(() -> client.read(status.objectId(), data.length + 1, ByteBuffer.allocate(10)))
        .isInstanceOf(EOFException.class);

    Response.Opened again = client.append("/data/wc98/day-01");
    assertThat(again.length()).isEqualTo(data.length);
    client.write(again.handle(), new byte[] {1, 2, 3}, 0, 3);
    assertThat(client.closeHandle(again.handle())).isEqualTo(data.length + 3);
  }

  @Test
  void listsRenamesAndDeletes() throws Exception {
    client.mkdirs("/dir");
    int files = 1100; // more than one LIST page
    for (int i = 0; i < files; i++) {
      writeFile(String.format("/dir/f%04d", i), new byte[] {(byte) i});
    }
    List<ObjectStatus> all = client.listAll("/dir");
    assertThat(all).hasSize(files);
    assertThat(all.get(0).name()).isEqualTo("f0000");
    assertThat(all.get(files - 1).name()).isEqualTo(String.format("f%04d", files - 1));
    Response.Listing page = client.list("/dir", "f0010", 5);
    assertThat(page.entries()).extracting(ObjectStatus::name).containsExactly("f0011", "f0012", "f0013", "f0014",
        "f0015");
    assertThat(page.more()).isTrue();

    client.rename("/dir", "/moved");
    assertThat(client.status("/moved/f0001").length()).isEqualTo(1);
    assertThatThrownBy(() -> client.status("/dir")).isInstanceOf(FileNotFoundException.class);
    assertThatThrownBy(() -> client.delete("/moved", false)).isInstanceOf(DirectoryNotEmptyException.class);
    client.delete("/moved", true);
    assertThat(client.listAll("/")).isEmpty();
  }

  @Test
  void everyDeviceStatusBecomesItsJavaException() throws Exception {
    writeFile("/file", new byte[] {1});
    String device = client.address().toString();
    assertThatThrownBy(() -> client.open("/missing")).isInstanceOf(FileNotFoundException.class)
        .hasMessageContaining(device).hasMessageContaining("/missing");
    assertThatThrownBy(() -> client.create("/file", false, false)).isInstanceOf(FileAlreadyExistsException.class);
    assertThatThrownBy(() -> client.mkdirs("/file/sub")).isInstanceOf(NotDirectoryException.class);
    assertThatThrownBy(() -> client.create("/no/parent", false, false)).isInstanceOf(FileNotFoundException.class);
    client.mkdirs("/d");
    assertThatThrownBy(() -> client.open("/d")).isInstanceOf(DeviceException.IsDirectory.class);
    long h = client.append("/file").handle();
    assertThatThrownBy(() -> client.append("/file")).isInstanceOf(DeviceException.LeaseConflict.class)
        .hasMessageContaining("/file");
    client.closeHandle(h);
    assertThatThrownBy(() -> client.flush(h)).isInstanceOf(DeviceException.BadHandle.class);
    assertThatThrownBy(() -> client.mkdirs("relative")).isInstanceOf(DeviceException.BadRequest.class);
    // After all that, the connection still works.
    assertThat(client.status("/file").length()).isEqualTo(1);
  }

  /**
   * A connection the device closes (here for being idle, holding nothing) says so before anything is
   * sent on it, so that a pool connects afresh instead of failing its next request.
   */
  @Test
  void aConnectionTheDeviceClosesIsNoLongerOpen() throws Exception {
    client.close();
    device.close();
    Map<String, String> o = TestDevices.small(dir.resolve("device"));
    o.put("smartssd.device.host.idle-timeout-ms", "200");
    device = TestDevices.start(o);
    client = connect(DeviceAddress.parse(device.address()), options(SMALL_FRAMES));
    assertThat(client.info().deviceName()).isEqualTo("test-device");
    assertThat(client.isOpen()).isTrue();
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (client.isOpen() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(client.isOpen()).as("closed by the device after its idle timeout").isFalse();
  }

  @Test
  void aPageThatFailsItsChecksumIsCorruptWithItsOffset() throws Exception {
    int page = 4096; // TestDevices.small's
    byte[] data = TestDevices.bytes(3 * page, 11);
    writeFile("/damaged", data);
    client.close();
    device.close();
    Path dataDir = dir.resolve("device");
    Damage.Page where = Damage.locate(dataDir, data, 1, page);
    Damage.flipByte(where.file(dataDir), where.offset() + 9);
    device = TestDevices.start(TestDevices.small(dataDir));
    client = connect(DeviceAddress.parse(device.address()), options(SMALL_FRAMES));

    long id = client.open("/damaged").objectId();
    assertThatThrownBy(() -> client.read(id, 0, ByteBuffer.allocate(3 * page)))
        .isInstanceOfSatisfying(DeviceException.Corrupt.class, e -> assertThat(e.offset()).isEqualTo(page))
        .hasMessageContaining(client.address().toString())
        .hasMessageContaining("'/damaged' is corrupt at offset 4096: bytes 4096..8191");
    ByteBuffer last = ByteBuffer.allocateDirect(page);
    assertThat(client.read(id, 2 * page, last)).isEqualTo(page);
    byte[] got = new byte[page];
    last.flip().get(got);
    assertThat(got).isEqualTo(Arrays.copyOfRange(data, 2 * page, 3 * page));
  }

  @Test
  void manyRequestsInFlightFromManyThreads() throws Exception {
    byte[] data = TestDevices.bytes(1 << 20, 3);
    writeFile("/big", data);
    long id = client.open("/big").objectId();
    // Pipelined on one thread: many submits before the first reply is waited for.
    List<CompletableFuture<DeviceClient.Reply>> futures = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      futures.add(client.submit(new Request.Read(id, i * 1000L, 1000)));
    }
    for (int i = 0; i < futures.size(); i++) {
      ByteBuffer got = ((Response.Data) futures.get(i).get().response()).data();
      assertThat(got.remaining()).isEqualTo(1000);
      byte[] bytes = new byte[1000];
      got.get(bytes);
      assertThat(bytes).isEqualTo(Arrays.copyOfRange(data, i * 1000, i * 1000 + 1000));
    }
    // Blocking calls from several threads on the one client.
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          ByteBuffer dst = thread % 2 == 0 ? ByteBuffer.allocateDirect(4096) : ByteBuffer.allocate(4096);
          for (int i = 0; i < 100; i++) {
            long offset = (thread * 100L + i) * 997 % (data.length - 4096);
            dst.clear();
            assertThat(client.read(id, offset, dst)).isEqualTo(4096);
            byte[] bytes = new byte[4096];
            dst.flip().get(bytes);
            assertThat(bytes).isEqualTo(Arrays.copyOfRange(data, (int) offset, (int) offset + 4096));
            assertThat(client.status("/big").length()).isEqualTo(data.length);
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void runsTaskletsInsideTheDevice() throws Exception {
    int records = 10_000;
    writeFile("/records", new byte[records * 20]);
    long counter = client.createObject(ByteBuffer.allocate(0), RecordCounter.class.getName(),
        Map.of("record-length", "20"));
    long exec = client.executeObject(counter, List.of(InputRange.whole("/records")), Map.of("merge", "device"));
    List<TaskletResult> results = new ArrayList<>();
    Response.ExecutionProgress last = ExecutionPoller.drain(client, exec, results::add,
        ExecutionPoller.PollingPolicy.defaults());
    assertThat(last.state()).isEqualTo(ExecutionState.DONE);
    assertThat(last.statistics().bytesScanned()).isEqualTo(records * 20L);
    assertThat(RecordCounter.total(results)).isEqualTo(records);
    client.removeObject(counter);
    assertThatThrownBy(() -> client.removeObject(counter)).isInstanceOf(FileNotFoundException.class);
    assertThatThrownBy(() -> client.readObject(123456, 100)).isInstanceOf(FileNotFoundException.class);

    // Uploaded code, sent once and then named by its digest; a cancelled execution.
    ByteBuffer jar = TestJars.of(EventRecorder.class);
    DeviceClient.Installed first = client.installTasklet(jar, EventRecorder.class.getName(), Map.of("tag", "a"));
    DeviceClient.Installed second = client.installTasklet(jar, EventRecorder.class.getName(), Map.of("tag", "b"));
    assertThat(first.codeSent()).isTrue();
    assertThat(second.codeSent()).isFalse();
    long running = client.executeObject(second.taskletId(), List.of(InputRange.whole("/records")), Map.of());
    client.cancel(running);
    Response.ExecutionProgress cancelled = ExecutionPoller.drain(client, running, r -> { },
        ExecutionPoller.PollingPolicy.defaults());
    assertThat(cancelled.state()).isIn(ExecutionState.CANCELLED, ExecutionState.DONE);
    assertThatThrownBy(() -> client.createObject(ByteBuffer.wrap("not a jar".getBytes(StandardCharsets.UTF_8)),
        "x.Y", Map.of())).isInstanceOf(DeviceException.BadRequest.class).hasMessageContaining("jar");
  }

  @Test
  void countsTheBytesOfEveryFrameItSendsAndReceives() throws Exception {
    int header = 32;
    // The handshake: API_VERSIONS (empty; u16 min, u16 max) and AUTH_CHALLENGE (bytes: a 32-byte
    // nonce; bool required, bytes: no nonce, as this device does not authenticate hosts).
    assertThat(client.transferCounts()).isEqualTo(new TransferCounts(header + header + 4 + 32, header + 4 + header + 1 + 4));

    TransferCounts before = client.transferCounts();
    client.mkdirs("/counted"); // string, u16 permission (version 4); empty
    assertThat(client.transferCounts().since(before)).isEqualTo(new TransferCounts(header + 2 + 8 + 2, header));

    before = client.transferCounts();
    Response.Opened opened = client.create("/counted/records", false, false); // string, bool, bool, u16; 3 u64
    assertThat(client.transferCounts().since(before)).isEqualTo(new TransferCounts(header + 2 + 16 + 2 + 2, header + 24));

    before = client.transferCounts();
    client.write(opened.handle(), new byte[200], 0, 200); // u64, bytes; u64
    client.closeHandle(opened.handle()); // u64; u64
    assertThat(client.transferCounts().since(before))
        .isEqualTo(new TransferCounts(header + 8 + 4 + 200 + header + 8, header + 8 + header + 8));

    before = client.transferCounts();
    assertThat(client.read(opened.objectId(), 150, ByteBuffer.allocate(100))).isEqualTo(50); // u64, u64, u32; bytes
    assertThat(client.transferCounts().since(before)).isEqualTo(new TransferCounts(header + 20, header + 4 + 50));

    // A failure: its frame carries the device's message (a string).
    before = client.transferCounts();
    FileNotFoundException missing = catchThrowableOfType(() -> client.status("/counted/missing"),
        FileNotFoundException.class);
    String message = missing.getMessage().substring((client.address() + ": ").length());
    assertThat(client.transferCounts().since(before))
        .isEqualTo(new TransferCounts(header + 2 + 16, header + 2 + message.getBytes(StandardCharsets.UTF_8).length));

    // READ_OBJECT: u64, u32; u8 state, string message, statistics (u32, 24 u64; 27 from version 5 on, 29 from
    // version 6 on, 31 from version 8 on), u32 n, n results (u16 lane, bytes data), bool finished; from version
    // 7 on, bool profile (0: no profile was asked for).
    int counters = client.protocolVersion() >= ProtocolConstants.LIBRARY_READS_VERSION ? 31
        : client.protocolVersion() >= ProtocolConstants.LANE_MEMORY_VERSION ? 29
        : client.protocolVersion() >= ProtocolConstants.OUTPUT_VERSION ? 27 : 24;
    long counter = client.createObject(ByteBuffer.allocate(0), RecordCounter.class.getName(),
        Map.of("record-length", "20"));
    long exec = client.executeObject(counter, List.of(InputRange.whole("/counted/records")), Map.of());
    Response.ExecutionProgress progress;
    do {
      before = client.transferCounts();
      progress = client.readObject(exec, 1000);
      long results = progress.results().stream().mapToLong(r -> 2 + 4 + r.data().remaining()).sum();
      assertThat(client.transferCounts().since(before)).isEqualTo(new TransferCounts(header + 12,
          header + 1 + 2 + progress.message().getBytes(StandardCharsets.UTF_8).length + 4 + counters * 8 + 4 + results
          + 1 + (client.protocolVersion() >= ProtocolConstants.PROFILE_VERSION ? 1 : 0)));
    } while (!progress.finished());
    assertThat(progress.state()).isEqualTo(ExecutionState.DONE);

    // Counted in total both ways, and still there once the client is closed.
    TransferCounts last = client.transferCounts();
    assertThat(last.total()).isEqualTo(last.bytesSent() + last.bytesReceived());
    client.close();
    assertThat(client.transferCounts()).isEqualTo(last);
  }

  @Test
  void describesTheDeviceAndCountsItsWork() throws Exception {
    assertThat(client.protocolVersion()).isEqualTo(highestVersion());
    assertThat(client.info().geometry()).isEqualTo(device.info().geometry());
    long before = client.statistics().commands();
    writeFile("/x", new byte[100]);
    assertThat(client.statistics().commands()).isGreaterThanOrEqualTo(before + 3);
    // Version 2: the statistics carry the device's disk use.
    DiskUse diskUse = client.statistics().diskUse();
    assertThat(diskUse).isNotNull();
    assertThat(diskUse.liveBytes()).isEqualTo(device.info().geometry().pageSizeBytes());
    assertThat(diskUse.reclaiming()).isEqualTo(device.diskUse().reclaiming());
    assertThat(diskUse.reclaimNote()).isEqualTo(device.diskUse().reclaimNote());
    // Version 3: and the device's energy account, here of a page programmed and the frames on the link.
    DeviceEnergy energy = client.statistics().energy();
    assertThat(energy).isNotNull();
    assertThat(energy.flashProgramNanojoules()).isPositive();
    assertThat(energy.linkNanojoules()).isPositive();
    assertThat(energy.coreBusyNanos()).isZero();
    assertThat(client.modelledNanosTotal()).isPositive();
  }

  @Test
  void aClosedClientOrAStoppedDeviceFailsClearly() throws Exception {
    client.close();
    client.close(); // idempotent
    assertThatThrownBy(() -> client.status("/")).isInstanceOf(IOException.class).hasMessageContaining("closed");

    client = connect(DeviceAddress.parse(device.address()), options(SMALL_FRAMES));
    assertThat(client.status("/").directory()).isTrue();
    device.close();
    device = null;
    assertThatThrownBy(() -> client.status("/")).isInstanceOf(IOException.class)
        .hasMessageContaining(client.address().toString());
  }

  @Test
  void connectingToNothingNamesTheAddress() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    DeviceAddress nowhere = new DeviceAddress("127.0.0.1", port);
    assertThatThrownBy(() -> connect(nowhere, options(SMALL_FRAMES))).isInstanceOf(IOException.class)
        .hasMessageContaining("127.0.0.1:" + port);
  }
}
