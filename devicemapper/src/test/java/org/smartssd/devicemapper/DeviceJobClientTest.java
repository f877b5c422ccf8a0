package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.objectfs.ObjfsConfigKeys;

/** DeviceJobClient as a command: {@code [-D key=value ...] FACTORY_CLASS [arguments ...]}. */
class DeviceJobClientTest {
  @TempDir static java.nio.file.Path work;
  private static Jobs jobs;

  @BeforeAll
  static void start() throws IOException {
    // A device that requires a secret: the client, the job's file system and the proxy map task all pass it.
    java.nio.file.Path secret = work.resolve("secret");
    org.smartssd.device.protocol.HostSecret.generate(secret);
    jobs = Jobs.start(work, true, Map.of("smartssd.device.host.secret-file", secret.toString()));
    jobs.write("/words.txt", "to be or not to be\nthat is the question\r\n".getBytes(StandardCharsets.UTF_8));
  }

  @AfterAll
  static void stop() throws IOException {
    jobs.close();
  }

  @Test
  void runsAJobFromItsFactoryWithTheMapPhaseInTheDevice() throws Exception {
    Path out = jobs.output();
    List<String> args = new ArrayList<>();
    for (Map.Entry<String, String> e : jobs.conf()) {
      if (e.getKey().startsWith("mapreduce.framework") || e.getKey().startsWith("mapreduce.client")
          || e.getKey().equals("hadoop.tmp.dir") || e.getKey().startsWith("fs.objfs.")) {
        args.add("-D");
        args.add(e.getKey() + "=" + e.getValue());
      }
    }
    args.add("-D");
    args.add(DeviceMapperConfigKeys.FALLBACK + "=never");
    args.add(TestJobs.WordCountFactory.class.getName());
    args.add(jobs.path("/words.txt").toString());
    args.add(out.toString());
    assertThat(args).contains(ObjfsConfigKeys.SECRET_FILE + "=" + work.resolve("secret"));

    int exit = ToolRunner.run(new Configuration(), new DeviceJobClient(), args.toArray(new String[0]));

    assertThat(exit).isZero();
    assertThat(Jobs.counts(out)).containsExactly(Map.entry("be", 2L), Map.entry("is", 1L), Map.entry("not", 1L),
        Map.entry("or", 1L), Map.entry("question", 1L), Map.entry("that", 1L), Map.entry("the", 1L),
        Map.entry("to", 2L));
  }

  @Test
  void badArgumentsExitWithTwo() throws Exception {
    assertThat(ToolRunner.run(new Configuration(), new DeviceJobClient(), new String[0])).isEqualTo(2);
    assertThat(ToolRunner.run(new Configuration(), new DeviceJobClient(), new String[] {"no.such.Factory"}))
        .isEqualTo(2);
    assertThat(ToolRunner.run(new Configuration(), new DeviceJobClient(), new String[] {String.class.getName()}))
        .isEqualTo(2);
  }
}
