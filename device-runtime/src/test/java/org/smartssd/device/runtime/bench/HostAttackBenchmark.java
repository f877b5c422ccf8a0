package org.smartssd.device.runtime.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.FrameHeader;
import org.smartssd.device.protocol.Messages;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.SimulatedDevice;
import org.smartssd.device.runtime.config.DeviceConfig;

/**
 * The host-side attacks of issue 15 against a device in this JVM, each measured by what a
 * well-behaved client and the device's JVM see. It uses only what every version of the device has
 * (a device, raw sockets, the client), so that the same program measures the device before and
 * after a change: put this class's directory first on the class path, then the device's classes.
 *
 * <ol>
 *   <li>Stall: as many connections as the device has workers each pipeline 64 READs of 16 MiB and
 *       read none of the answers; then another client asks DEVICE_INFO.
 *   <li>Announced sizes: 15 connections each send one header announcing a 64 MiB WRITE and nothing
 *       else; the heap the device's JVM then uses.
 *   <li>Idle connections: 2,000 connections that send one API_VERSIONS and stay; the JVM's threads.
 * </ol>
 *
 * <p>Arguments: {@code work-dir}. Prints a Markdown table.
 */
public final class HostAttackBenchmark {
  private static final int FILE_BYTES = 16 << 20;
  private static final int WORKERS = 8;
  private static final int PIPELINED = 64;
  private static final int ANNOUNCING = 15;
  private static final int IDLE = 2000;
  private static final Duration PATIENCE = Duration.ofSeconds(10);

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    Files.createDirectories(work);
    List<String[]> rows = new ArrayList<>();
    Map<String, String> o = new HashMap<>();
    o.put("smartssd.device.data-dir", work.resolve("data").toString());
    o.put("smartssd.device.host.port", "0");
    o.put("smartssd.device.name", "attacked");
    o.put("smartssd.device.flash.blocks-per-way", "64");
    o.put("smartssd.device.flash.pages-per-block", "32");
    o.put("smartssd.device.flash.page-size-bytes", "4096");
    o.put("smartssd.device.host.worker-threads", Integer.toString(WORKERS));
    o.put("smartssd.device.host.max-connections", "100000"); // refused as unknown by a device without it
    SimulatedDevice device;
    try {
      device = SimulatedDevice.start(DeviceConfig.load(o));
    } catch (RuntimeException unknownKey) {
      o.remove("smartssd.device.host.max-connections");
      device = SimulatedDevice.start(DeviceConfig.load(o));
    }
    try (SimulatedDevice d = device) {
      DeviceAddress address = DeviceAddress.parse(d.address());
      ClientOptions patient = new ClientOptions(Duration.ofSeconds(5), PATIENCE, 64 << 20);
      long objectId;
      try (SocketDeviceClient c = SocketDeviceClient.connect(address, patient)) {
        Response.Opened f = c.create("/big", true, true);
        c.write(f.handle(), ByteBuffer.allocate(FILE_BYTES));
        c.closeHandle(f.handle());
        objectId = c.open("/big").objectId();
      }

      List<Socket> stalled = new ArrayList<>();
      for (int i = 0; i < WORKERS; i++) {
        Socket s = new Socket("127.0.0.1", d.port());
        ByteBuffer frames = ByteBuffer.allocate(PIPELINED * 64);
        for (int r = 0; r < PIPELINED; r++) {
          frames.put(Messages.requestFrame(ProtocolConstants.CURRENT_VERSION, r + 1,
              new Request.Read(objectId, 0, FILE_BYTES)));
        }
        s.getOutputStream().write(frames.array(), 0, frames.position());
        s.getOutputStream().flush();
        stalled.add(s);
      }
      Thread.sleep(1000);
      rows.add(new String[] {"stall: DEVICE_INFO from another client while " + WORKERS + " connections read none of "
          + PIPELINED + " pipelined 16 MiB READs", infoLatency(address, patient)});
      rows.add(new String[] {"stall: heap used by the device's JVM (after a GC)", heapMiB()});
      for (Socket s : stalled) {
        s.close();
      }
      Thread.sleep(2000);

      String before = heapMiB();
      List<Socket> announcing = new ArrayList<>();
      for (int i = 0; i < ANNOUNCING; i++) {
        Socket s = new Socket("127.0.0.1", d.port());
        ByteBuffer head = ByteBuffer.allocate(ProtocolConstants.HEADER_BYTES);
        new FrameHeader(ProtocolConstants.CURRENT_VERSION, org.smartssd.device.protocol.Opcode.WRITE.code(), 0, 0,
            64 << 20, i + 1, 0).writeTo(head);
        s.getOutputStream().write(head.array());
        s.getOutputStream().flush();
        announcing.add(s);
      }
      Thread.sleep(1000);
      rows.add(new String[] {"announced sizes: heap before, and with " + ANNOUNCING + " headers announcing 64 MiB each",
          before + " → " + heapMiB()});
      rows.add(new String[] {"announced sizes: DEVICE_INFO from another client meanwhile", infoLatency(address,
          patient)});
      for (Socket s : announcing) {
        s.close();
      }

      int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
      List<Socket> idle = new ArrayList<>();
      int refused = 0;
      for (int i = 0; i < IDLE; i++) {
        try {
          Socket s = new Socket("127.0.0.1", d.port());
          s.getOutputStream().write(versions());
          idle.add(s);
        } catch (IOException e) {
          refused++;
        }
      }
      Thread.sleep(2000);
      rows.add(new String[] {"idle: JVM threads before, and with " + IDLE + " idle connections open"
          + (refused > 0 ? " (" + refused + " refused)" : ""),
          threadsBefore + " → " + ManagementFactory.getThreadMXBean().getThreadCount()});
      rows.add(new String[] {"idle: DEVICE_INFO from another client meanwhile", infoLatency(address, patient)});
      for (Socket s : idle) {
        s.close();
      }
    }
    System.out.println("| attack | measured |");
    System.out.println("| --- | --- |");
    for (String[] r : rows) {
      System.out.println("| " + r[0] + " | " + r[1] + " |");
    }
  }

  private static String infoLatency(DeviceAddress address, ClientOptions options) {
    long start = System.nanoTime();
    try (SocketDeviceClient c = SocketDeviceClient.connect(address, options)) {
      c.info();
      return String.format("answered in %.1f ms", (System.nanoTime() - start) / 1e6);
    } catch (IOException e) {
      return "no answer within " + PATIENCE.toSeconds() + " s (" + e.getClass().getSimpleName() + ")";
    }
  }

  private static String heapMiB() {
    System.gc();
    Runtime r = Runtime.getRuntime();
    return String.format("%.0f MiB", (r.totalMemory() - r.freeMemory()) / 1048576.0);
  }

  private static byte[] versions() {
    ByteBuffer f = Messages.requestFrame(ProtocolConstants.CURRENT_VERSION, 1, new Request.ApiVersions());
    byte[] b = new byte[f.remaining()];
    f.get(b);
    return b;
  }
}
