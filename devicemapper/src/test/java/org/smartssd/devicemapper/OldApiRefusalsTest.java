package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.TextOutputFormat;
import org.apache.hadoop.mapred.lib.HashPartitioner;
import org.apache.hadoop.mapred.lib.IdentityMapper;
import org.apache.hadoop.mapred.lib.MultithreadedMapRunner;
import org.junit.jupiter.api.Test;

/**
 * What {@link DeviceJobClient#configure(JobConf)} refuses of an old-API job, before the job starts,
 * each time saying why (the job then runs on the host as written, if its user wants).
 */
class OldApiRefusalsTest {

  private static JobConf job() {
    JobConf job = new JobConf(false);
    job.setMapperClass(IdentityMapper.class);
    return job;
  }

  @Test
  void aMapRunnableIsRefusedNamingIt() {
    JobConf job = job();
    job.setMapRunnerClass(MultithreadedMapRunner.class);
    assertThatThrownBy(() -> DeviceJobClient.configure(job)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("MapRunnable (" + MultithreadedMapRunner.class.getName() + ")")
        .hasMessageContaining("only a Mapper's map");
  }

  @Test
  void aHadoopStreamingJobIsRefusedSayingItsMapIsAnExternalProgram() {
    JobConf job = job();
    // What hadoop-streaming's StreamJob sets (its jar is not on this class path: the name is enough).
    job.set("mapred.map.runner.class", "org.apache.hadoop.streaming.PipeMapRunner");
    assertThatThrownBy(() -> DeviceJobClient.configure(job)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Hadoop Streaming job")
        .hasMessageContaining("external program");
  }

  @Test
  void anOldApiPartitionerWithReducesIsRefused() {
    JobConf job = job();
    job.setNumReduceTasks(2);
    job.setPartitionerClass(HashPartitioner.class);
    assertThatThrownBy(() -> DeviceJobClient.configure(job)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("partitioner " + HashPartitioner.class.getName());
  }

  @Test
  void aMapOnlyJobWithAnOldApiOutputFormatIsRefused() {
    JobConf job = job();
    job.setNumReduceTasks(0);
    job.setOutputFormat(TextOutputFormat.class);
    assertThatThrownBy(() -> DeviceJobClient.configure(job)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(TextOutputFormat.class.getName());
  }
}
