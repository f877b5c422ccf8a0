package org.smartssd.it.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.smartssd.examples.loganalysis.AnalysisResult;
import org.smartssd.examples.loganalysis.Scenario;
import org.smartssd.examples.wc98.GeneratorParameters;
import org.smartssd.examples.wc98.TraceFormat;
import org.smartssd.examples.wc98.TraceWriter;
import org.smartssd.examples.wc98.Wc98Generator;
import org.smartssd.examples.wc98.Wc98Record;
import org.testcontainers.containers.ComposeContainer;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.ContainerState;
import org.testcontainers.containers.output.Slf4jLogConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.MountableFile;

/**
 * The log analysis in device mode on the cluster of the repository's docker-compose.yml (a
 * ResourceManager, two NodeManagers, a device beside each), submitted with {@code hadoop jar} inside
 * a container, over a generated trace spread over both devices; its result must be the direct count's.
 * The images are built from {@code integration-tests/target/docker/lib}, which {@code package} fills.
 * Skipped where no Docker engine runs; where one does, it also needs {@code docker compose} (v2) on the
 * PATH.
 */
@Testcontainers(disabledWithoutDocker = true)
class ComposeClusterIT {
  private static final String EXAMPLES_JAR = "/opt/smartssd/lib/smartssd-examples.jar";
  private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
  private static final Set<String> NODES = Set.of("nm1", "nm2");
  private static final int NODE_LIST_TRIES = 30;
  private static final Pattern RUNNING_NODE = Pattern.compile("(?m)^\\s*([^\\s:]+):\\d+\\s+RUNNING\\s");

  @Container
  static final ComposeContainer CLUSTER = cluster();

  @TempDir Path dir;

  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void theRegionsOfATraceSpreadOverTwoNodesAreCountedInTheirDevices() throws Exception {
    ContainerState client = CLUSTER.getContainerByServiceName("rm").orElseThrow();

    // Each node registered under the name of the device beside it, so device splits name real nodes. A node's
    // log says it registered a moment before the ResourceManager lists it as running: ask a few times.
    String nodes = exec(client, "yarn", "node", "-list").getStdout();
    for (int i = 0; i < NODE_LIST_TRIES && !runningNodes(nodes).equals(NODES); i++) {
      Thread.sleep(1000);
      nodes = exec(client, "yarn", "node", "-list").getStdout();
    }
    assertEquals(NODES, runningNodes(nodes), nodes);

    List<Wc98Record> all = new ArrayList<>();
    load(client, "nm1", generate(1, 20_000, all));
    load(client, "nm2", generate(2, 15_000, all));

    // fallback=never: a split whose map could not run in its device fails the job instead of running on the host.
    ExecResult run = exec(client, "hadoop", "jar", EXAMPLES_JAR, "org.smartssd.examples.cli.SmartSsd",
        "loganalysis", "--scenario", "regions", "--mode", "device",
        "--input", "objfs://nm1:7070/wc98", "--input", "objfs://nm2:7070/wc98",
        "--output", "objfs://nm1:7070/results/regions-device",
        "-D", "smartssd.mapper.fallback=never"); // YARN: the image's mapred-site.xml says so
    String expected = AnalysisResult.compute(Scenario.REGIONS, all).text();
    assertEquals(expected, run.getStdout(), run.getStderr());

    String kept = exec(client, "hadoop", "fs", "-cat", "objfs://nm1:7070/results/regions-device/_result.tsv").getStdout();
    assertEquals(expected, kept);
  }

  private static ComposeContainer cluster() {
    Path compose = composeFile();
    ComposeContainer cluster = new ComposeContainer(compose.toFile()).withBuild(true);
    cluster.waitingFor("rm", started(".*Transitioned to active state.*"));
    for (String node : NODES) {
      cluster.waitingFor(node, started(".*Registered with ResourceManager as .*"));
      cluster.waitingFor(node + "-ssd", started(".*smartssd device " + node + " listening on .*"));
    }
    for (String service : List.of("rm", "nm1", "nm2", "nm1-ssd", "nm2-ssd")) {
      cluster.withLogConsumer(service, new Slf4jLogConsumer(LoggerFactory.getLogger("compose." + service)));
    }
    return cluster;
  }

  private static WaitStrategy started(String logLine) {
    return Wait.forLogMessage(logLine, 1).withStartupTimeout(START_TIMEOUT);
  }

  /** The repository's docker-compose.yml, from the module's directory (where Failsafe runs) or the root. */
  private static Path composeFile() {
    Path here = Path.of("").toAbsolutePath();
    for (Path root : List.of(here.getParent(), here)) {
      Path compose = root.resolve("docker-compose.yml");
      if (Files.isRegularFile(compose)) {
        Path lib = root.resolve("integration-tests/target/docker/lib");
        if (!Files.isDirectory(lib)) {
          throw new IllegalStateException("no " + lib + ": the images are built from it; run mvn -B -DskipTests package");
        }
        return compose;
      }
    }
    throw new IllegalStateException("no docker-compose.yml in " + here + " or its parent");
  }

  /** Generates a trace with a seed into a file, adding its records to {@code all}. */
  private Path generate(long seed, long records, List<Wc98Record> all) throws IOException {
    Path file = dir.resolve("wc98-" + seed + ".bin");
    try (TraceWriter writer = TraceWriter.create(file, TraceFormat.BINARY)) {
      new Wc98Generator(GeneratorParameters.defaults().withSeed(seed)).generate(records, r -> {
        all.add(r);
        writer.accept(r);
      });
    }
    return file;
  }

  /** Copies a trace file into the client's container and loads it into the device of a node. */
  private static void load(ContainerState client, String node, Path trace) throws Exception {
    String copy = "/tmp/" + trace.getFileName();
    client.copyFileToContainer(MountableFile.forHostPath(trace, 0644), copy);
    exec(client, "smartssd", "wc98", "load", copy, "objfs://" + node + ":7070/wc98/");
  }

  /** Runs a command in a container, at most 10 minutes, and checks that it succeeded. */
  private static ExecResult exec(ContainerState container, String... command) throws Exception {
    List<String> bounded = new ArrayList<>(List.of("timeout", "600"));
    bounded.addAll(List.of(command));
    ExecResult result = container.execInContainer(bounded.toArray(String[]::new));
    assertTrue(result.getExitCode() == 0, () -> String.join(" ", command) + " exited " + result.getExitCode()
        + "\nstdout:\n" + result.getStdout() + "\nstderr:\n" + result.getStderr());
    return result;
  }

  /** The hosts of the RUNNING nodes in {@code yarn node -list}'s output. */
  private static Set<String> runningNodes(String nodeList) {
    Set<String> hosts = new TreeSet<>();
    Matcher m = RUNNING_NODE.matcher(nodeList);
    while (m.find()) {
      hosts.add(m.group(1));
    }
    return hosts;
  }
}
