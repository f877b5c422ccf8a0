package org.smartssd.examples.loganalysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jobs' configuration: the local runner by default, a cluster's mapred-site.xml obeyed, -D last. */
class LogAnalysisConfigurationTest {
  @TempDir Path dir;

  @Test
  void theLocalRunnerUnlessTheSiteOrAnOverrideSaysOtherwise() throws Exception {
    assertEquals("local", LogAnalysis.configuration(Map.of()).get("mapreduce.framework.name"));
    assertEquals("yarn", LogAnalysis.configuration(Map.of("mapreduce.framework.name", "yarn"))
        .get("mapreduce.framework.name"));
  }

  @Test
  void aClustersMapredSiteOnTheClassPathIsObeyed() throws Exception {
    Files.writeString(dir.resolve("mapred-site.xml"), """
        <?xml version="1.0"?>
        <configuration>
          <property><name>mapreduce.framework.name</name><value>yarn</value></property>
          <property><name>mapreduce.job.queuename</name><value>smartssd</value></property>
        </configuration>
        """, StandardCharsets.UTF_8);
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    try (URLClassLoader site = new URLClassLoader(new URL[] {dir.toUri().toURL()}, before)) {
      thread.setContextClassLoader(site); // a Configuration reads its resources through this loader
      Configuration conf = LogAnalysis.configuration(Map.of());
      assertEquals("yarn", conf.get("mapreduce.framework.name"));
      assertEquals("smartssd", conf.get("mapreduce.job.queuename"));
      assertEquals("local", LogAnalysis.configuration(Map.of("mapreduce.framework.name", "local"))
          .get("mapreduce.framework.name"), "-D wins over the site file");
    } finally {
      thread.setContextClassLoader(before);
    }
  }
}
