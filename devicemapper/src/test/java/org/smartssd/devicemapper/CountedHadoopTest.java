package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Mapper;
import org.junit.jupiter.api.Test;
import org.smartssd.opcount.CountingClassLoader;
import org.smartssd.opcount.Scopes;

/**
 * The device counts the work of Hadoop's code that tasklets go through by loading Hadoop's classes
 * instrumented. Every class of hadoop-common and of the MapReduce client must still load and verify
 * that way: a class that does not would fail the tasklets that reach it, on the device only.
 */
class CountedHadoopTest {

  @Test
  void everyHadoopClassLoadsAndVerifiesCounted() throws Exception {
    ClassLoader counted = new CountingClassLoader("test", getClass().getClassLoader(),
        Scopes.packages(List.of("org/apache/hadoop/")));
    List<String> broken = new ArrayList<>();
    int verified = 0;
    for (Class<?> inJar : new Class<?>[] {Configuration.class, Mapper.class}) {
      try (JarFile jar = new JarFile(inJar.getProtectionDomain().getCodeSource().getLocation().getPath())) {
        for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
          String entry = e.nextElement().getName();
          if (!entry.endsWith(".class") || entry.contains("-info")) {
            continue;
          }
          String name = entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
          try {
            Class<?> c = Class.forName(name, false, counted);
            c.getDeclaredMethods(); // links the class: the verifier checks its code and frames
            assertThat(c.getClassLoader()).isSameAs(counted);
            verified++;
          } catch (VerifyError | ClassFormatError ours) {
            broken.add(name + ": " + ours);
          } catch (LinkageError | TypeNotPresentException | SecurityException optionalDependencyMissing) {
            // A dependency Hadoop declares optional is not on the class path: nothing of ours.
          }
        }
      }
    }
    assertThat(broken).isEmpty();
    assertThat(verified).isGreaterThan(2000);
  }
}
