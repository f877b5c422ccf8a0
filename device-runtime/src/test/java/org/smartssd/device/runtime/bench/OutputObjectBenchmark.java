package org.smartssd.device.runtime.bench;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.FieldFilter;

/**
 * A selection kept in the device against the same selection brought to the host and written back: the
 * built-in {@code FieldFilter} over one object of fixed-length records in an embedded device
 * (unpaced), first with its matches sent to the host, which then writes them to a new object of the
 * device (CREATE, WRITE, CLOSE), then with the matches written by the execution itself to an output
 * object on flash (the XSD's DRAM-to-flash stage). For each selectivity it prints the modelled time
 * (the execution's, plus the host's write commands' in the first way), the bytes that crossed the host
 * link both ways, the pages programmed and the measured wall time. Modelled times are the model's; wall
 * times are this machine's.
 *
 * <p>Arguments: {@code [work-dir] [size-MiB] [record-bytes] [selectivities-percent]} (defaults: a
 * temporary directory, 256, 100, {@code 1,10,50}). System properties named {@code smartssd.device.*} go
 * to the device's configuration (profile {@code msst13-sata} unless given).
 */
public final class OutputObjectBenchmark {
  private static final int CHUNK = 1 << 20;

  public static void main(String[] args) throws Exception {
    Path work = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("smartssd-bench");
    long sizeMiB = args.length > 1 ? Long.parseLong(args[1]) : 256;
    int record = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    String[] selectivities = (args.length > 3 ? args[3] : "1,10,50").split(",");
    long size = (sizeMiB << 20) / record * record;
    Map<String, String> config = new HashMap<>();
    config.put("smartssd.device.data-dir", work.resolve("device").toString());
    config.put("smartssd.device.host.port", "0");
    config.put("smartssd.device.profile", "msst13-sata");
    for (String key : System.getProperties().stringPropertyNames()) {
      if (key.startsWith("smartssd.device.")) {
        config.put(key, System.getProperty(key));
      }
    }
    try (SimulatedDevice device = SimulatedDevice.start(DeviceConfig.load(config));
        SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(device.address()),
            ClientOptions.defaults())) {
      writeRecords(c, size, record);
      System.out.printf(Locale.ROOT, "%n%s profile, %,d MiB of %d-byte records (%,d records); FieldFilter on byte 4 "
          + "(id mod 100) below the selectivity%n%n", device.info().profile(), sizeMiB, record, size / record);
      System.out.println("| selectivity | kept | modelled s | link bytes | pages programmed | wall s |"
          + " modelled, on flash / to the host and back | link bytes, on flash / to the host and back |");
      System.out.println("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
      // A warm-up of both ways, not printed: the device's first executions run while the JIT compiles.
      run(device, c, record, 50, "/bench/warm", false);
      run(device, c, record, 50, "/bench/warm-flash", true);
      for (String s : selectivities) {
        int percent = Integer.parseInt(s.trim());
        Figures back = run(device, c, record, percent, "/bench/host-" + percent, false);
        Figures flash = run(device, c, record, percent, "/bench/flash-" + percent, true);
        for (Figures f : List.of(back, flash)) {
          System.out.printf(Locale.ROOT, "| %d%% | %s | %.3f | %,d | %,d | %.3f | %s | %s |%n", percent,
              f == back ? "to the host, written back" : "on flash (output object)", f.modelledNanos / 1e9,
              f.linkBytes, f.pagesProgrammed, f.wallNanos / 1e9,
              f == flash ? String.format(Locale.ROOT, "%.2f", (double) flash.modelledNanos / back.modelledNanos) : "",
              f == flash ? String.format(Locale.ROOT, "%.3f", (double) flash.linkBytes / back.linkBytes) : "");
        }
      }
    }
  }

  record Figures(long modelledNanos, long linkBytes, long pagesProgrammed, long wallNanos) {}

  private static Figures run(SimulatedDevice device, SocketDeviceClient c, int record, int percent, String path,
      boolean onFlash) throws Exception {
    long tasklet = c.createObject(ByteBuffer.allocate(0), FieldFilter.class.getName(), Map.of("record-length",
        "" + record, "field-offset", "4", "field-length", "1", "op", "lt", "value", "" + percent));
    DeviceStatistics before = device.statistics();
    long started = System.nanoTime();
    List<InputRange> in = List.of(InputRange.whole("/bench/records"));
    long exec = onFlash ? c.executeObject(tasklet, in, Map.of(), path, 0644) : c.executeObject(tasklet, in, Map.of());
    List<ByteBuffer> matches = new ArrayList<>();
    Response.ExecutionProgress last = ExecutionPoller.drain(c, exec, (TaskletResult r) -> {
      if (!onFlash) {
        matches.add(r.data());
      }
    }, ExecutionPoller.PollingPolicy.defaults());
    if (last.state() != org.smartssd.device.tasklet.ExecutionState.DONE) {
      throw new IllegalStateException("the execution ended " + last.state() + ": " + last.message());
    }
    ExecutionStatistics s = last.statistics();
    long modelled = s.modelledNanos();
    long programmed = s.pagesProgrammed();
    if (!onFlash) {
      long modelledBefore = c.modelledNanosTotal();
      long programsBefore = programmed(device.statistics());
      long h = c.create(path, true, true).handle();
      for (ByteBuffer m : matches) {
        c.write(h, m);
      }
      c.closeHandle(h);
      modelled += c.modelledNanosTotal() - modelledBefore;
      programmed = programmed(device.statistics()) - programsBefore;
    }
    long wall = System.nanoTime() - started;
    DeviceStatistics after = device.statistics();
    c.removeObject(tasklet);
    long link = after.hostBytesIn() - before.hostBytesIn() + after.hostBytesOut() - before.hostBytesOut();
    return new Figures(modelled, link, programmed, wall);
  }

  private static long programmed(DeviceStatistics s) {
    return s.channels().stream().mapToLong(ch -> ch.pagesProgrammed()).sum();
  }

  /** Record i: u32 i, u8 i mod 100, then filler bytes. */
  private static void writeRecords(SocketDeviceClient c, long size, int record) throws Exception {
    long h = c.create("/bench/records", true, true).handle();
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK / record * record);
    long written = 0;
    int i = 0;
    while (written < size) {
      chunk.clear();
      while (chunk.remaining() >= record && written + chunk.position() < size) {
        int base = chunk.position();
        chunk.putInt(i).put((byte) (i % 100));
        while (chunk.position() < base + record) {
          chunk.put((byte) (i * 31 + chunk.position()));
        }
        i++;
      }
      chunk.flip();
      written += chunk.remaining();
      c.write(h, chunk);
    }
    c.closeHandle(h);
  }
}
