package org.smartssd.it.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.examples.cli.SmartSsd;

/**
 * One simulated device in a process of its own ({@code smartssd device start}), attached to a named
 * host: its data directory and its port stay the same for its whole life, so that it can be killed
 * with SIGKILL and come back where jobs and objfs paths expect it, with what it had acknowledged.
 * It can also be frozen (SIGSTOP) to play a device that stops answering, and thawed (SIGCONT).
 */
public final class DeviceNode implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final String host;
  private final Path dataDir;
  private final Path log;
  private final int port;
  private final Map<String, String> properties;
  private Process process;

  private DeviceNode(String host, Path dataDir, int port, Map<String, String> properties) {
    this.host = host;
    this.dataDir = dataDir;
    this.log = dataDir.resolveSibling(dataDir.getFileName() + ".log");
    this.port = port;
    this.properties = properties;
  }

  /**
   * Starts a device named {@code host} (its {@code smartssd.device.name}, which objfs block
   * locations and so split locations name) on a free loopback port.
   *
   * @param properties more {@code smartssd.device.*} keys ({@code --profile}, {@code --pace} go as keys too)
   */
  public static DeviceNode start(String host, Path dataDir, Map<String, String> properties) throws IOException {
    Files.createDirectories(dataDir);
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Map<String, String> all = new LinkedHashMap<>(properties);
    all.put("smartssd.device.name", host);
    DeviceNode node = new DeviceNode(host, dataDir, port, Map.copyOf(all));
    node.launch(Map.of());
    return node;
  }

  private void launch(Map<String, String> overrides) throws IOException {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-cp", classPath, SmartSsd.class.getName(), "device", "start",
        "--data-dir", dataDir.toString(), "--port", Integer.toString(port)));
    Map<String, String> all = new LinkedHashMap<>(properties);
    all.putAll(overrides);
    all.forEach((k, v) -> command.add("-D" + k + "=" + v));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    CompletableFuture<Void> listening = new CompletableFuture<>();
    Thread pump = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
          var out = Files.newBufferedWriter(log, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
              java.nio.file.StandardOpenOption.APPEND)) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          out.write(line);
          out.newLine();
          out.flush();
          if (line.startsWith("smartssd device ") && line.contains(" listening on ")) {
            listening.complete(null);
          }
        }
      } catch (IOException e) {
        listening.completeExceptionally(e);
      }
      listening.completeExceptionally(new IOException("device " + host + " ended before it listened; see " + log));
    }, "device-" + host + "-output");
    pump.setDaemon(true);
    pump.start();
    try {
      listening.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      p.destroyForcibly();
      throw new IOException("device " + host + " did not start on port " + port + ": " + e + "; see " + log, e);
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting device " + host, e);
    }
    process = p;
  }

  /** The host this device is attached to (its name). */
  public String host() {
    return host;
  }

  public DeviceAddress address() {
    return new DeviceAddress("127.0.0.1", port);
  }

  /** {@code objfs://127.0.0.1:PORT} followed by {@code path}. */
  public String uri(String path) {
    return "objfs://127.0.0.1:" + port + path;
  }

  /** The device's own counters, read over a fresh connection. */
  public DeviceStatistics statistics() throws IOException {
    try (SocketDeviceClient client = connect()) {
      return client.statistics();
    }
  }

  /** A connection to the device, with its secret when it has one. */
  public SocketDeviceClient connect() throws IOException {
    ClientOptions options = ClientOptions.defaults();
    String secret = properties.get("smartssd.device.host.secret-file");
    if (secret != null) {
      options = options.withSecret(org.smartssd.device.protocol.HostSecret.read(Path.of(secret)));
    }
    return SocketDeviceClient.connect(address(), options);
  }

  /** SIGKILL: the process dies at once, in the middle of whatever it was doing. */
  public void kill() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      process.waitFor();
      process = null;
    }
  }

  /** Starts the device again on the same port and data directory, with these keys changed from the first start. */
  public void restart(Map<String, String> overrides) throws IOException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("device " + host + " is running");
    }
    launch(overrides);
  }

  /** SIGSTOP: the device stops answering, its connections stay open. */
  public void freeze() throws IOException, InterruptedException {
    signal("STOP");
  }

  /** SIGCONT after {@link #freeze()}. */
  public void thaw() throws IOException, InterruptedException {
    signal("CONT");
  }

  private void signal(String name) throws IOException, InterruptedException {
    if (process == null) {
      throw new IllegalStateException("device " + host + " is not running");
    }
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill -" + name + " " + process.pid() + " failed");
    }
  }

  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null) {
      try {
        thaw();
      } catch (IOException e) {
        // it may have ended already; it is killed below either way
      }
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor();
      }
      process = null;
    }
  }

  @Override
  public String toString() {
    return "device " + host + " at 127.0.0.1:" + port;
  }
}
