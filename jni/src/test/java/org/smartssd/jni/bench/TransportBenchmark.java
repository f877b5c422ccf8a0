package org.smartssd.jni.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.DeviceProcess;
import org.smartssd.device.runtime.SocketDirectory;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.builtin.RecordCounter;
import org.smartssd.jni.BenchmarkAccess;
import org.smartssd.jni.NativeDeviceClient;
import org.smartssd.jni.NativeLibrary;

/**
 * Round trips of each object command through the Java transport and the native one (libsmartssd
 * over JNI), over loopback TCP and over a Unix domain socket, against one device process of its
 * own, in the same run: rounds alternate transports and sockets so that drift on a shared machine
 * falls on all of them alike. For the native transport, also the part of each call spent in Java
 * and crossing JNI (the round trip less the time inside the C library), and the cost of an empty
 * JNI call. Prints Markdown tables.
 *
 * <p>Arguments: {@code [rounds] [calls-per-round]} (defaults 5 and 400; 1 MiB reads take a tenth).
 */
public final class TransportBenchmark {
  private static final int SMALL_RECORDS = 1000; // 20 KB of 20-byte records, scanned by each execution
  private static final long BIG_BYTES = 64L << 20;
  /** READ_OBJECTs left out of "read_object" because their execution had not finished (single-threaded). */
  private static int unfinishedReads;

  /** One measured command: what it does once. */
  private interface Command {
    void run(Fixture f) throws IOException;
  }

  /** The state a command works on, per client. */
  private static final class Fixture {
    final DeviceClient client;
    final long bigId;
    final ByteBuffer direct4k = ByteBuffer.allocateDirect(4096);
    final ByteBuffer direct1m = ByteBuffer.allocateDirect(1 << 20);
    final ByteBuffer heap1m = ByteBuffer.allocate(1 << 20);
    final Random random = new Random(7);
    long tasklet;
    final List<Long> readObjectNanos = new ArrayList<>();
    final List<Long> executeNanos = new ArrayList<>();

    Fixture(DeviceClient client) throws IOException {
      this.client = client;
      this.bigId = client.open("/bench/big").objectId();
      this.tasklet = client.createObject(ByteBuffer.allocate(0), RecordCounter.class.getName(),
          Map.of("record-length", "20"));
    }

    long offset(int length) {
      return (long) random.nextInt((int) (BIG_BYTES - length) / 4096) * 4096;
    }
  }

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int calls = args.length > 1 ? Integer.parseInt(args[1]) : 400;
    NativeLibrary.unavailable().ifPresent(why -> {
      throw new IllegalStateException("libsmartssd does not load: " + why);
    });
    Path work = Files.createTempDirectory("smartssd-transport-bench");
    Map<String, Command> commands = new LinkedHashMap<>();
    commands.put("status", f -> f.client.status("/bench/big"));
    commands.put("open", f -> f.client.open("/bench/big"));
    commands.put("read 4 KiB (direct buffer)", f -> {
      f.direct4k.clear();
      f.client.read(f.bigId, f.offset(4096), f.direct4k);
    });
    commands.put("read 1 MiB (direct buffer)", f -> {
      f.direct1m.clear();
      readFully(f.client, f.bigId, f.offset(1 << 20), f.direct1m);
    });
    commands.put("read 1 MiB (heap buffer)", f -> {
      f.heap1m.clear();
      readFully(f.client, f.bigId, f.offset(1 << 20), f.heap1m);
    });
    commands.put("create_object", f -> f.client.removeObject(f.client.createObject(ByteBuffer.allocate(0),
        RecordCounter.class.getName(), Map.of("record-length", "20"))));
    commands.put("execute_object", f -> {
      long t = System.nanoTime();
      long exec = f.client.executeObject(f.tasklet, List.of(InputRange.whole("/bench/small")), Map.of());
      f.executeNanos.add(System.nanoTime() - t);
      // "read_object" is the READ_OBJECT that brings a finished execution's result and its end (the same
      // work each time): the execution of 1000 records is given 2 ms to finish first; a sample whose
      // execution was still running is drained untimed and not counted.
      sleepMillis(2);
      long t0 = System.nanoTime();
      Response.ExecutionProgress p = f.client.readObject(exec, 1 << 20);
      long took = System.nanoTime() - t0;
      if (p.finished()) {
        f.readObjectNanos.add(took);
        return;
      }
      unfinishedReads++;
      while (!f.client.readObject(exec, 1 << 20).finished()) {
        sleepMillis(1);
      }
    });

    SocketDirectory sockets = SocketDirectory.in(work);
    Path socket = sockets.socket("bench.sock");
    try (DeviceProcess device = DeviceProcess.start(work.resolve("device"), Map.of(), // msst13-sata, unpaced
        List.of("--unix-socket", socket.toString()))) {
      DeviceAddress tcp = DeviceAddress.parse(device.address());
      DeviceAddress unix = DeviceAddress.parse(device.unixAddress().orElseThrow());
      load(tcp);
      ClientOptions options = ClientOptions.defaults();
      Map<String, DeviceAddress> addresses = new LinkedHashMap<>();
      addresses.put("TCP", tcp);
      addresses.put("Unix socket", unix);
      // key: socket | transport | command
      Map<String, List<Long>> times = new LinkedHashMap<>();
      Map<String, long[]> nativeShare = new LinkedHashMap<>(); // socket|command -> {round-trip ns, in-C ns}
      for (int round = 0; round <= rounds; round++) { // round 0 warms up and is not counted
        for (Map.Entry<String, DeviceAddress> socketKind : addresses.entrySet()) {
          for (String transport : List.of("java", "native")) {
            try (DeviceClient client = transport.equals("java")
                ? SocketDeviceClient.connect(socketKind.getValue(), options)
                : NativeDeviceClient.connect(socketKind.getValue(), options)) {
              Fixture f = new Fixture(client);
              for (Map.Entry<String, Command> c : commands.entrySet()) {
                int n = c.getKey().contains("1 MiB") ? Math.max(1, calls / 10) : calls;
                if (c.getKey().equals("execute_object")) {
                  n = Math.max(1, calls / 4);
                }
                List<Long> list = times.computeIfAbsent(socketKind.getKey() + "|" + transport + "|" + c.getKey(),
                    k -> new ArrayList<>());
                long inC0 = client instanceof NativeDeviceClient nc ? nc.nanosInNativeCode() : 0;
                long total = 0;
                f.readObjectNanos.clear();
                f.executeNanos.clear();
                for (int i = 0; i < n; i++) {
                  long t0 = System.nanoTime();
                  c.getValue().run(f);
                  long t = System.nanoTime() - t0;
                  total += t;
                  if (round > 0 && !c.getKey().equals("execute_object")) {
                    list.add(t);
                  }
                }
                if (round > 0 && c.getKey().equals("execute_object")) {
                  list.addAll(f.executeNanos);
                  times.computeIfAbsent(socketKind.getKey() + "|" + transport + "|read_object", k -> new ArrayList<>())
                      .addAll(f.readObjectNanos);
                }
                if (round > 0 && client instanceof NativeDeviceClient nc && !c.getKey().equals("execute_object")) {
                  long[] share = nativeShare.computeIfAbsent(socketKind.getKey() + "|" + c.getKey(), k -> new long[3]);
                  share[0] += total;
                  share[1] += nc.nanosInNativeCode() - inC0;
                  share[2] += n;
                }
              }
              client.removeObject(f.tasklet);
            }
          }
        }
      }
      print(times, nativeShare, commands.keySet(), rounds, calls);
    } finally {
      sockets.close();
    }
  }

  private static void readFully(DeviceClient client, long id, long offset, ByteBuffer dst) throws IOException {
    long at = offset;
    while (dst.hasRemaining()) {
      int n = client.read(id, at, dst);
      if (n < 0) {
        throw new IOException("short object");
      }
      at += n;
    }
  }

  private static void load(DeviceAddress address) throws IOException {
    try (SocketDeviceClient c = SocketDeviceClient.connect(address, ClientOptions.defaults())) {
      byte[] chunk = new byte[1 << 20];
      new Random(42).nextBytes(chunk);
      long h = c.create("/bench/big", true, true).handle();
      for (long written = 0; written < BIG_BYTES; written += chunk.length) {
        c.write(h, chunk, 0, chunk.length);
      }
      c.closeHandle(h);
      h = c.create("/bench/small", true, true).handle();
      c.write(h, new byte[SMALL_RECORDS * 20], 0, SMALL_RECORDS * 20);
      c.closeHandle(h);
    }
  }

  private static void sleepMillis(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted");
    }
  }

  private static double percentile(List<Long> sorted, double p) {
    int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i))) / 1000.0;
  }

  private static void print(Map<String, List<Long>> times, Map<String, long[]> nativeShare,
      java.util.Set<String> commandNames, int rounds, int calls) {
    List<String> names = new ArrayList<>(commandNames);
    names.add(names.indexOf("execute_object") + 1, "read_object");
    System.out.printf(Locale.ROOT, "%d rounds of %d calls per command (1 MiB reads: %d, executions: %d), after one"
        + " warm-up round; round trips in µs%n%n", rounds, calls, Math.max(1, calls / 10), Math.max(1, calls / 4));
    System.out.println("| socket | command | Java median | Java p99 | native median | native p99 | native ÷ Java (median) |"
        + " native: Java + JNI share (mean) |");
    System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (String socket : List.of("TCP", "Unix socket")) {
      for (String command : names) {
        List<Long> j = sorted(times.get(socket + "|java|" + command));
        List<Long> n = sorted(times.get(socket + "|native|" + command));
        long[] share = nativeShare.get(socket + "|" + command);
        String shareText = share == null || share[2] == 0 ? "-"
            : String.format(Locale.ROOT, "%.1f µs of %.1f", (share[0] - share[1]) / 1000.0 / share[2],
                share[0] / 1000.0 / share[2]);
        System.out.printf(Locale.ROOT, "| %s | %s | %.1f | %.1f | %.1f | %.1f | %.2f | %s |%n", socket, command,
            percentile(j, 50), percentile(j, 99), percentile(n, 50), percentile(n, 99),
            percentile(n, 50) / percentile(j, 50), shareText);
      }
    }
    long[] noop = new long[200_000];
    for (int r = 0; r < 2; r++) {
      for (int i = 0; i < noop.length; i++) {
        long t0 = System.nanoTime();
        BenchmarkAccess.noop();
        noop[i] = System.nanoTime() - t0;
      }
    }
    Arrays.sort(noop);
    System.out.printf(Locale.ROOT, "%nAn empty JNI call (static native, no arguments): median %d ns, p99 %d ns"
        + " (System.nanoTime's own cost included)%n", noop[noop.length / 2], noop[(int) (noop.length * 0.99)]);
    System.out.printf(Locale.ROOT, "read_object: the READ_OBJECT that brings a finished execution's result (1000 records"
        + " counted); %d executions not finished 2 ms after they started were left out%n", unfinishedReads);
  }

  private static List<Long> sorted(List<Long> list) {
    List<Long> copy = new ArrayList<>(list);
    copy.sort(null);
    return copy;
  }
}
