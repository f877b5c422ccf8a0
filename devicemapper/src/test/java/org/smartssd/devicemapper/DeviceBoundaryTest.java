package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The device boundary, read from the compiled classes' constant pools: what runs inside the device
 * ({@code devicemapper.tasklet}) and what both sides speak ({@code devicemapper.wire}) refer to
 * nothing of the host's side (the rest of {@code devicemapper}, objfs, the device client), and the
 * wire to nothing of the tasklet's.
 */
class DeviceBoundaryTest {

  @Test
  void theTaskletSideNeedsOnlyItselfTheWireTheTaskletApiHadoopAndJava() throws Exception {
    TreeMap<String, List<String>> bad = new TreeMap<>();
    for (Path file : classFiles("org/smartssd/devicemapper/tasklet")) {
      for (String used : ClassClosure.references(Files.readAllBytes(file)).used()) {
        boolean allowed = used.startsWith("org/smartssd/devicemapper/tasklet/")
            || used.startsWith("org/smartssd/devicemapper/wire/")
            || used.startsWith("org/smartssd/device/tasklet/")
            || used.startsWith("org/apache/hadoop/")
            || used.startsWith("java/")
            || used.startsWith("[");
        if (!allowed) {
          bad.computeIfAbsent(file.getFileName().toString(), k -> new ArrayList<>()).add(used);
        }
      }
    }
    assertThat(bad).as("classes the device-side adapter refers to outside its side").isEmpty();
  }

  @Test
  void theWireNeedsNeitherSide() throws Exception {
    TreeMap<String, List<String>> bad = new TreeMap<>();
    for (Path file : classFiles("org/smartssd/devicemapper/wire")) {
      for (String used : ClassClosure.references(Files.readAllBytes(file)).used()) {
        if (used.startsWith("org/smartssd/") && !used.startsWith("org/smartssd/devicemapper/wire/")
            && !used.startsWith("org/smartssd/device/tasklet/")) {
          bad.computeIfAbsent(file.getFileName().toString(), k -> new ArrayList<>()).add(used);
        }
      }
    }
    assertThat(bad).as("classes the wire formats refer to on either side").isEmpty();
  }

  private static List<Path> classFiles(String packagePath) throws IOException, URISyntaxException {
    // The main classes' directory (the test classes' has packages of the same names).
    Path dir = Path.of(org.smartssd.devicemapper.tasklet.MapReduceTasklet.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI()).resolve(packagePath);
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> classes = files.filter(f -> f.toString().endsWith(".class")).sorted().toList();
      assertThat(classes).as("compiled classes in " + packagePath).isNotEmpty();
      return classes;
    }
  }
}
