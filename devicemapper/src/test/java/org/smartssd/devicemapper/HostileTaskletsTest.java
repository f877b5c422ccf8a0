package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.smartssd.device.DeviceException;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.devicemapper.hostile.Hostile;
import org.smartssd.devicemapper.tasklet.CountersReporter;

/**
 * The hostile tasklet suite: every attack of {@link Hostile}, as a raw tasklet installed with
 * CREATE_OBJECT and as a plain Hadoop mapper through DeviceJobClient (fallback never), against a
 * device that shares Hadoop with tasklets, as every device does by default. Each is refused when it
 * is installed, or stopped when it runs, with a message naming the tasklet and what it tried; while
 * it is, a good job runs beside it on the same device and gets the right answer, and the device
 * answers after it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileTaskletsTest {
  @TempDir static java.nio.file.Path work;
  private Jobs jobs;
  private Map<String, Long> goodCounts;

  /** Each attack and what the device's answer must say (besides the tasklet's name). */
  private static final Map<String, String> EXPECTED = new LinkedHashMap<>();

  static {
    EXPECTED.put("Shell", "calls org.apache.hadoop.util.Shell.execCommand: tasklets cannot start processes");
    EXPECTED.put("ReflectionUtilsProcess", "calls org.apache.hadoop.util.ReflectionUtils.newInstance: tasklets cannot"
        + " use reflection");
    EXPECTED.put("LocalFileSystem", "calls org.apache.hadoop.fs.FileSystem.getLocal: tasklets cannot use files");
    EXPECTED.put("AddResource", "calls org.apache.hadoop.conf.Configuration.addResource: tasklets cannot load classes"
        + " or files through the job's configuration");
    EXPECTED.put("WriteFile", "tasklets cannot use files");
    EXPECTED.put("NetUtilsSocket", "calls org.apache.hadoop.net.NetUtils.getDefaultSocketFactory: tasklets cannot use"
        + " the network");
    EXPECTED.put("ExitUtilTerminate", "calls org.apache.hadoop.util.ExitUtil.terminate: tasklets cannot stop the"
        + " device");
    EXPECTED.put("RuntimeHalt", "uses java.lang.Runtime: tasklets cannot start processes or control the device's JVM");
    EXPECTED.put("HadoopExecutors", "calls org.apache.hadoop.util.concurrent.HadoopExecutors.newSingleThreadExecutor:"
        + " tasklets cannot start or control threads");
    EXPECTED.put("BeansExpression", "java.beans.Expression.<init> (a constructor): tasklets cannot use reflection");
    EXPECTED.put("BeansStatement", "java.beans.Statement.<init> (a constructor): tasklets cannot use reflection");
    EXPECTED.put("Script", "javax.script.ScriptEngineManager.<init> (a constructor): tasklets cannot run scripts");
    EXPECTED.put("ServiceLoaderProviders", "calls java.util.ServiceLoader.load: tasklets cannot load classes");
    EXPECTED.put("DefineClass", "calls java.lang.invoke.MethodHandles.lookup: tasklets cannot use reflection");
    EXPECTED.put("NativeCode", "calls java.lang.System.loadLibrary: tasklets cannot load native code");
    EXPECTED.put("OthersStatistics", "calls org.apache.hadoop.fs.FileSystem.getAllStatistics: tasklets cannot use"
        + " files");
    EXPECTED.put("DeviceCredentials", "calls org.apache.hadoop.security.UserGroupInformation.getCurrentUser: not among"
        + " what tasklets may use");
    EXPECTED.put("TenGigabytes", "more than its memory budget of");
    EXPECTED.put("EndlessLoop", "ran past its time limit of 2000 ms");
    EXPECTED.put("UnboundedRecursion", "java.lang.StackOverflowError");
    EXPECTED.put("OutputFlood", "more than its output budget of");
    EXPECTED.put("ConfigurationRewrite", "calls org.apache.hadoop.io.Writable.readFields: not among what tasklets may"
        + " use");
    // FileSystem.get and Path.getFileSystem are rewritten to the device's own file system, of its own objects.
    EXPECTED.put("FileSystemGetLocalUri", "'file:///etc/passwd' is not on this device");
    EXPECTED.put("SubclassFileSystemGet", "calls org.apache.hadoop.fs.LocalFileSystem.get (declared by"
        + " org.apache.hadoop.fs.FileSystem): tasklets cannot use files");
    EXPECTED.put("DeviceFileSystemCreate", "calls org.apache.hadoop.fs.FileSystem.create: tasklets cannot use files");
    EXPECTED.put("FileSystemGetHandle", "calls org.apache.hadoop.fs.FileSystem.get: tasklets cannot use files");
  }

  @BeforeAll
  void start() throws IOException {
    jobs = Jobs.start(work, true, Map.of(
        "smartssd.device.isp.time-limit-ms", "2000",
        "smartssd.device.isp.output-budget-bytes", Integer.toString(4 << 20)));
    StringBuilder text = new StringBuilder();
    Map<String, Long> counts = new java.util.TreeMap<>();
    for (int i = 0; i < 2_000; i++) {
      String line = "line " + i % 17 + " of the good job";
      text.append(line).append('\n');
      for (String w : line.split(" ")) {
        counts.merge(w, 1L, Long::sum);
      }
    }
    goodCounts = counts;
    jobs.write("/good.txt", text.toString().getBytes(StandardCharsets.UTF_8));
    jobs.write("/attacked.txt", "one line for the attacker\nand another\n".getBytes(StandardCharsets.UTF_8));
  }

  @AfterAll
  void stop() throws IOException {
    jobs.close();
  }

  static Stream<Arguments> attacks() {
    assertThat(List.of(Hostile.ATTACKS)).as("every attack has its expectation").isEqualTo(List.copyOf(EXPECTED.keySet()));
    return EXPECTED.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
  }

  /** The word count over /good.txt, in the device, on a thread of its own: to run beside an attack. */
  private CompletableFuture<Map<String, Long>> goodJobBeside() {
    return CompletableFuture.supplyAsync(() -> {
      try {
        Path out = jobs.output();
        org.apache.hadoop.conf.Configuration conf = jobs.conf();
        conf.set(DeviceMapperConfigKeys.FALLBACK, "never");
        Job job = TestJobs.wordCount(conf, jobs.path("/good.txt"), out);
        DeviceJobClient.configure(job);
        Jobs.run(job);
        return Jobs.counts(out);
      } catch (Exception e) {
        throw new IllegalStateException("the good job failed beside an attack: " + e, e);
      }
    });
  }

  private void assertTheDeviceServesOn(CompletableFuture<Map<String, Long>> good) throws Exception {
    assertThat(good.get(2, TimeUnit.MINUTES)).as("the good job beside the attack").isEqualTo(goodCounts);
    // The attack's CPU is given back: no thread runs its code a few seconds on.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    List<String> running = attackThreads();
    while (!running.isEmpty() && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(100);
      running = attackThreads();
    }
    assertThat(running).as("threads still in the attack's code").isEmpty();
    try (SocketDeviceClient c = client()) {
      assertThat(c.info().deviceName()).isEqualTo("test-device");
      assertThat(c.status("/good.txt").length()).isPositive();
    }
  }

  /** The threads whose stack holds a frame of the attacks' code. */
  private static List<String> attackThreads() {
    List<String> names = new ArrayList<>();
    for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
      for (StackTraceElement f : e.getValue()) {
        if (f.getClassName().startsWith(Hostile.class.getName())) {
          names.add(e.getKey().getName() + " at " + f);
          break;
        }
      }
    }
    return names;
  }

  private SocketDeviceClient client() throws IOException {
    return SocketDeviceClient.connect(DeviceAddress.parse(jobs.device.address()), ClientOptions.defaults());
  }

  @ParameterizedTest(name = "{0}, as a raw tasklet")
  @MethodSource("attacks")
  @Timeout(180)
  void asARawTasklet(String attack, String expected) throws Exception {
    String className = Hostile.class.getName() + "$" + attack + "Tasklet";
    byte[] jar = jar(className);
    CompletableFuture<Map<String, Long>> good = goodJobBeside();
    String answer = null;
    try (SocketDeviceClient c = client()) {
      long tasklet;
      try {
        tasklet = c.createObject(ByteBuffer.wrap(jar), className, Map.of());
      } catch (DeviceException.BadRequest refused) {
        answer = refused.getMessage();
        assertThat(answer).contains("tasklet " + className + " refused: ");
        tasklet = -1;
      }
      if (tasklet >= 0) {
        long execution = c.executeObject(tasklet, List.of(new InputRange("/attacked.txt", 0, InputRange.TO_END)),
            Map.of());
        Response.ExecutionProgress end = ExecutionPoller.drain(c, execution, r -> { });
        assertThat(end.state()).as(attack + ": " + end.message()).isEqualTo(ExecutionState.FAILED);
        answer = end.message();
        assertThat(answer).contains("tasklet " + className);
      }
    }
    assertThat(answer).contains(expected);
    assertTheDeviceServesOn(good);
  }

  @ParameterizedTest(name = "{0}, as a Hadoop mapper")
  @MethodSource("attacks")
  @Timeout(180)
  void asAHadoopMapper(String attack, String expected) throws Exception {
    Class<?> mapper = Class.forName(Hostile.class.getName() + "$" + attack + "Mapper");
    CompletableFuture<Map<String, Long>> good = goodJobBeside();
    org.apache.hadoop.conf.Configuration conf = jobs.conf();
    conf.set(DeviceMapperConfigKeys.FALLBACK, "never");
    Job job = Job.getInstance(conf, "hostile " + attack);
    job.setMapperClass(mapper.asSubclass(org.apache.hadoop.mapreduce.Mapper.class));
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(0);
    FileInputFormat.addInputPath(job, jobs.path("/attacked.txt"));
    FileOutputFormat.setOutputPath(job, jobs.output());
    DeviceJobClient.configure(job);
    InputSplit split = new DeviceInputFormat().getSplits(job).get(0);
    TaskAttemptContextImpl context = new TaskAttemptContextImpl(job.getConfiguration(),
        new TaskAttemptID("hostile", 1, TaskType.MAP, 0, 0), new CountersReporter(new org.apache.hadoop.mapreduce.Counters()));
    assertThatThrownBy(() -> {
      try (DeviceRecordReader reader = new DeviceRecordReader()) {
        reader.initialize(split, context);
        while (reader.nextKeyValue()) {
          reader.getCurrentKey();
        }
      }
    }).isInstanceOf(IOException.class)
        .hasMessageContaining("device " + jobs.device.address())
        .hasMessageContaining(mapper.getName())
        .hasMessageContaining(expected)
        .hasMessageContaining("smartssd.mapper.fallback is never");
    assertTheDeviceServesOn(good);
  }

  /** The jar of one class of {@link Hostile}, as DeviceJobClient packs a job's: its enclosing class a stub. */
  private static byte[] jar(String className) throws IOException {
    List<ClassLoader> loaders = new ArrayList<>(List.of(HostileTaskletsTest.class.getClassLoader()));
    ClassLoader platform = ClassLoader.getPlatformClassLoader();
    Map<String, byte[]> classes = ClassClosure.of(List.of(className), loaders,
        name -> name.startsWith("org.smartssd.device.tasklet.") || name.startsWith("org.apache.hadoop.")
            || platform.getResource(name.replace('.', '/') + ".class") != null);
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(bytes)) {
      for (Map.Entry<String, byte[]> e : classes.entrySet()) {
        out.putNextEntry(new java.util.jar.JarEntry(e.getKey().replace('.', '/') + ".class"));
        out.write(e.getValue());
        out.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  @Test
  void aGoodJobAloneRunsInTheDevice() throws Exception {
    assertTheDeviceServesOn(goodJobBeside());
  }
}
