package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.devicemapper.tasklet.MapReduceTasklet;

/**
 * A host that sends the device's MapReduce runtime a SequenceFile split's parameters of its own making
 * (the host is not trusted): a class the job does not own, a sync mark that is not hexadecimal, a
 * codec the runtime does not know, input past what it says; or a bzip2 split's: a level that is not
 * one, a file length that the split or the bytes read do not fit. Each execution fails with a
 * message naming what was wrong, and the untampered tasklet then runs as before.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TamperedParametersTest {
  @TempDir static java.nio.file.Path work;
  private Jobs jobs;
  private TaskletJarBuilder.Tasklet tasklet;
  private long length;

  @BeforeAll
  void start() throws Exception {
    jobs = Jobs.start(work, true);
    Configuration conf = jobs.conf();
    try (SequenceFile.Writer w = SequenceFile.createWriter(conf, SequenceFile.Writer.file(jobs.path("/seq/part.seq")),
        SequenceFile.Writer.keyClass(Text.class), SequenceFile.Writer.valueClass(IntWritable.class))) {
      for (int i = 0; i < 5000; i++) {
        w.append(new Text("k" + (i % 13)), new IntWritable(i));
      }
    }
    length = jobs.path("/seq/part.seq").getFileSystem(conf).getFileStatus(jobs.path("/seq/part.seq")).getLen();
    Job job = TestJobs.sequenceSum(conf, jobs.path("/seq"), jobs.output());
    DeviceJobClient.configure(job);
    tasklet = TaskletJarBuilder.build(job.getConfiguration(), DeviceMapperSettings.from(job.getConfiguration()),
        new FileSplit(jobs.path("/seq/part.seq"), 0, length, new String[0]),
        new TaskAttemptID("tampered", 1, TaskType.MAP, 0, 0));
  }

  @AfterAll
  void stop() throws Exception {
    jobs.close();
  }

  private Response.ExecutionProgress run(Map<String, String> changes) throws Exception {
    Map<String, String> parameters = new HashMap<>(tasklet.parameters());
    parameters.putAll(changes);
    try (SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(jobs.device.address()),
        ClientOptions.defaults())) {
      long id = c.createObject(ByteBuffer.wrap(tasklet.jar()), tasklet.className(), parameters);
      long execution = c.executeObject(id, List.of(new InputRange("/seq/part.seq", 0, length)), Map.of());
      return ExecutionPoller.drain(c, execution, r -> { });
    }
  }

  @Test
  void eachTamperedParameterFailsItsExecutionNamingItAndTheDeviceGoesOn() throws Exception {
    Map<Map<String, String>, String> attacks = Map.of(
        Map.of(MapReduceTasklet.SEQUENCE_KEY_CLASS, "org.apache.hadoop.util.Shell"),
        "which is not one of the job's classes",
        Map.of(MapReduceTasklet.SEQUENCE_VALUE_CLASS, "java.lang.ProcessBuilder"),
        "which is not one of the job's classes",
        Map.of(MapReduceTasklet.SEQUENCE_SYNC, "not-hex"), "is not hexadecimal",
        Map.of(MapReduceTasklet.SEQUENCE_SYNC, "00112233"), "a sync mark has 16 bytes",
        Map.of(MapReduceTasklet.SEQUENCE_VALUE_CODEC, "lz4"), "unknown codec 'lz4'",
        Map.of(MapReduceTasklet.FILE_LENGTH, Long.toString(length * 10)), "the file ends inside the record",
        Map.of(MapReduceTasklet.INPUT, "gzip+sequence"), "not through a codec");
    for (Map.Entry<Map<String, String>, String> attack : attacks.entrySet()) {
      Response.ExecutionProgress end = run(attack.getKey());
      assertThat(end.state()).as("%s: %s", attack.getKey(), end.message()).isEqualTo(ExecutionState.FAILED);
      assertThat(end.message()).as("%s", attack.getKey()).contains(attack.getValue());
    }
    Response.ExecutionProgress good = run(Map.of());
    assertThat(good.state()).as(good.message()).isEqualTo(ExecutionState.DONE);
    assertThat(good.statistics().bytesScanned()).isEqualTo(length);
  }

  /**
   * A bzip2 split's parameters (the level in the file's header, the file's length) of the host's
   * making: each tampered one fails the execution, naming what was wrong (a file longer than it is
   * only where the reader reads to its end).
   */
  @Test
  void aBzip2SplitsTamperedParametersFailItsExecution() throws Exception {
    Configuration conf = jobs.conf();
    StringBuilder text = new StringBuilder();
    java.util.Random random = new java.util.Random(5);
    for (int i = 0; i < 40_000; i++) {
      text.append("line ").append(random.nextInt(1_000_000)).append(i % 9 == 0 ? "\r\n" : "\n");
    }
    java.io.ByteArrayOutputStream bz = new java.io.ByteArrayOutputStream();
    bz.write('B');
    bz.write('Z');
    try (java.io.OutputStream out = new org.apache.hadoop.io.compress.bzip2.CBZip2OutputStream(bz, 1)) {
      out.write(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    jobs.write("/bz2/part.txt.bz2", bz.toByteArray());
    long fileLength = bz.size();
    long start = fileLength / 3;
    long splitLength = fileLength / 3;
    Job job = TestJobs.lineEcho(conf, jobs.path("/bz2"), jobs.output());
    DeviceJobClient.configure(job);
    TaskletJarBuilder.Tasklet bzip2 = TaskletJarBuilder.build(job.getConfiguration(),
        DeviceMapperSettings.from(job.getConfiguration()),
        new FileSplit(jobs.path("/bz2/part.txt.bz2"), start, splitLength, new String[0]),
        new TaskAttemptID("tampered", 1, TaskType.MAP, 1, 0));
    assertThat(bzip2.parameters()).containsEntry(MapReduceTasklet.BZIP2_LEVEL, "1")
        .containsEntry(MapReduceTasklet.FILE_LENGTH, Long.toString(fileLength));
    Map<Map<String, String>, String> attacks = Map.of(
        Map.of(MapReduceTasklet.BZIP2_LEVEL, "0"), "parameter bzip2-level: 0 is not a bzip2 block size level",
        Map.of(MapReduceTasklet.BZIP2_LEVEL, "nine"), "parameter bzip2-level: 'nine' is not a number",
        Map.of(MapReduceTasklet.FILE_LENGTH, Long.toString(fileLength / 2)), "is not a part of a file",
        Map.of(MapReduceTasklet.FILE_LENGTH, Long.toString(start + splitLength + 10)), "past");
    for (Map.Entry<Map<String, String>, String> attack : attacks.entrySet()) {
      Response.ExecutionProgress end = run(bzip2, "/bz2/part.txt.bz2", start, splitLength, attack.getKey());
      assertThat(end.state()).as("%s: %s", attack.getKey(), end.message()).isEqualTo(ExecutionState.FAILED);
      assertThat(end.message()).as("%s", attack.getKey()).contains(attack.getValue());
    }
    Response.ExecutionProgress good = run(bzip2, "/bz2/part.txt.bz2", start, splitLength, Map.of());
    assertThat(good.state()).as(good.message()).isEqualTo(ExecutionState.DONE);

    // The last split, read to the file's end: a longer file than there is.
    TaskletJarBuilder.Tasklet last = TaskletJarBuilder.build(job.getConfiguration(),
        DeviceMapperSettings.from(job.getConfiguration()),
        new FileSplit(jobs.path("/bz2/part.txt.bz2"), 2 * start, fileLength - 2 * start, new String[0]),
        new TaskAttemptID("tampered", 1, TaskType.MAP, 2, 0));
    Response.ExecutionProgress longer = run(last, "/bz2/part.txt.bz2", 2 * start, fileLength - 2 * start,
        Map.of(MapReduceTasklet.FILE_LENGTH, Long.toString(fileLength * 2)));
    assertThat(longer.state()).isEqualTo(ExecutionState.FAILED);
    assertThat(longer.message()).contains("up to " + fileLength + ", not " + fileLength * 2);
    assertThat(run(last, "/bz2/part.txt.bz2", 2 * start, fileLength - 2 * start, Map.of()).state())
        .isEqualTo(ExecutionState.DONE);
  }

  private Response.ExecutionProgress run(TaskletJarBuilder.Tasklet t, String path, long start, long length,
      Map<String, String> changes) throws Exception {
    Map<String, String> parameters = new HashMap<>(t.parameters());
    parameters.putAll(changes);
    try (SocketDeviceClient c = SocketDeviceClient.connect(DeviceAddress.parse(jobs.device.address()),
        ClientOptions.defaults())) {
      long id = c.createObject(ByteBuffer.wrap(t.jar()), t.className(), parameters);
      long execution = c.executeObject(id, List.of(new InputRange(path, start, length)), Map.of());
      return ExecutionPoller.drain(c, execution, r -> { });
    }
  }
}
