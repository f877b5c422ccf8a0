package org.smartssd.device.runtime;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.smartssd.device.runtime.cli.SmartSsdCommand;

/** A device in a process of its own, started through the command line, so that it can be killed. */
public final class DeviceProcess implements AutoCloseable {
  /** The line {@code device start} prints (not the log line, which says the same with other punctuation). */
  private static final Pattern LISTENING =
      Pattern.compile("^smartssd device .* listening on (\\S+):(\\d+)(?: and (unix:\\S+))? \\(");

  private final Process process;
  private final int port;
  private final String unixAddress;
  private final StringBuilder output = new StringBuilder();

  private DeviceProcess(Process process, int port, String unixAddress) {
    this.process = process;
    this.port = port;
    this.unixAddress = unixAddress;
  }

  /**
   * Runs {@code smartssd device start} with {@code overrides} as {@code -D} options, and waits until it
   * listens: on {@code smartssd.device.host.port} if the overrides give one, else on a free port.
   */
  public static DeviceProcess start(Path dataDir, Map<String, String> overrides) throws IOException {
    return start(dataDir, overrides, List.of());
  }

  /** As {@link #start(Path, Map)}, with more options of {@code device start} (such as {@code --unix-socket}). */
  public static DeviceProcess start(Path dataDir, Map<String, String> overrides, List<String> options)
      throws IOException {
    return start(dataDir, overrides, options, 0);
  }

  /**
   * As {@link #start(Path, Map, List)}, with the process's file descriptors limited to {@code openFiles}
   * ({@code ulimit -n}; 0 for the inherited limit).
   */
  public static DeviceProcess start(Path dataDir, Map<String, String> overrides, List<String> options, int openFiles)
      throws IOException {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-cp", classPath, SmartSsdCommand.class.getName(), "device", "start",
        "--data-dir", dataDir.toString(), "--port",
        overrides.getOrDefault("smartssd.device.host.port", "0")));
    overrides.forEach((k, v) -> {
      if (!k.equals("smartssd.device.data-dir") && !k.equals("smartssd.device.host.port")) {
        command.add("-D");
        command.add(k + "=" + v);
      }
    });
    command.addAll(options);
    List<String> run = command;
    if (openFiles > 0) {
      // The JVM raises its soft limit to the hard one at start: limit both.
      run = new ArrayList<>(List.of("sh", "-c", "ulimit -n " + openFiles + " && exec \"$0\" \"$@\""));
      run.addAll(command);
    }
    Process p = new ProcessBuilder(run).redirectErrorStream(true).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    String line;
    while ((line = out.readLine()) != null) {
      seen.append(line).append('\n');
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        DeviceProcess dp = new DeviceProcess(p, Integer.parseInt(m.group(2)), m.group(3));
        dp.output.append(seen);
        Thread drain = new Thread(() -> dp.drain(out), "device-process-output");
        drain.setDaemon(true);
        drain.start();
        return dp;
      }
    }
    p.destroyForcibly();
    throw new IOException("the device process ended before it listened; it printed:\n" + seen);
  }

  private void drain(BufferedReader out) {
    try {
      String line;
      while ((line = out.readLine()) != null) {
        synchronized (output) {
          output.append(line).append('\n');
        }
      }
    } catch (IOException e) {
      // The process is gone.
    }
  }

  public String address() {
    return "127.0.0.1:" + port;
  }

  /** {@code unix:/path} when the device also listens on a Unix domain socket. */
  public Optional<String> unixAddress() {
    return Optional.ofNullable(unixAddress);
  }

  public String output() {
    synchronized (output) {
      return output.toString();
    }
  }

  /** The process id, for signals (SIGSTOP freezes the device, SIGCONT thaws it). */
  public long pid() {
    return process.pid();
  }

  /** SIGKILL: no shutdown hook, no flush, no close. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
