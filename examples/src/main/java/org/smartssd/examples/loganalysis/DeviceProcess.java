package org.smartssd.examples.loganalysis;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;

/**
 * A simulated device in a child JVM on this JVM's class path ({@code smartssd device start}), so that
 * the host's measured CPU time (this JVM's) does not include the device's own work: serving reads and
 * running tasklets. Its log goes to a file. Stopped with the protocol's SHUTDOWN; killed if it does not stop.
 */
public final class DeviceProcess implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(DeviceProcess.class);
  private static final Pattern LISTENING = Pattern.compile("listening on (\\S+) \\(");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final String address;
  private final boolean paced;

  private final Thread killOnExit;

  /** How to connect to the device (its secret). */
  private final ClientOptions clientOptions;

  private DeviceProcess(Process process, String address, boolean paced, ClientOptions clientOptions) {
    this.clientOptions = clientOptions;
    this.process = process;
    this.address = address;
    this.paced = paced;
    this.killOnExit = new Thread(process::destroy, "device-process-" + process.pid() + "-stop");
    Runtime.getRuntime().addShutdownHook(killOnExit);
  }

  /**
   * Starts a device on a free loopback port.
   *
   * @param properties more {@code smartssd.device.*} keys
   * @param clientOptions how to connect to it (with its secret, if the properties give it one)
   */
  public static DeviceProcess start(Path dataDir, String profile, boolean paced, Map<String, String> properties, Path log,
      ClientOptions clientOptions) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("org.smartssd.examples.cli.SmartSsd");
    command.addAll(List.of("device", "start", "--data-dir", dataDir.toString(), "--port", "0", "--profile", profile));
    if (paced) {
      command.add("--pace");
    }
    properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Process process = pb.start();
    CompletableFuture<String> address = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          Matcher m = LISTENING.matcher(line);
          if (!address.isDone() && m.find()) {
            address.complete(m.group(1));
          }
        }
      } catch (IOException e) {
        address.completeExceptionally(e);
      }
      address.completeExceptionally(new IOException("the device process ended before it listened"));
    }, "device-process-output");
    reader.setDaemon(true);
    reader.start();
    try {
      String a = address.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      LOG.debug("device process {} ({}{}) listening on {}", process.pid(), profile, paced ? ", paced" : "", a);
      return new DeviceProcess(process, a, paced, clientOptions);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the device started", e);
    } catch (ExecutionException | TimeoutException e) {
      process.destroyForcibly();
      throw new IOException("the device process did not start: "
          + (e.getCause() != null ? e.getCause().getMessage() : "no answer in " + START_TIMEOUT.toSeconds() + " s")
          + "; the end of its log:\n" + tail(log), e);
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = java.nio.file.Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  /** {@code host:port}. */
  public String address() {
    return address;
  }

  public boolean paced() {
    return paced;
  }

  /** CPU time the device process has used so far, or -1 if the system does not say. */
  long cpuNanos() {
    return process.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
  }

  @Override
  public void close() throws IOException {
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException e) {
      // the JVM is exiting: the hook stops the process
    }
    if (!process.isAlive()) {
      return;
    }
    try (SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(address), clientOptions)) {
      c.shutdown();
    } catch (IOException e) {
      LOG.debug("SHUTDOWN to {} failed: {}", address, e.toString());
    }
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        LOG.warn("device process {} did not stop; killing it", process.pid());
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
