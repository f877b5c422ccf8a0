package org.smartssd.devicemapper.hostile;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;

/**
 * Hostile code, each attack twice: as a raw tasklet ({@code <Attack>Tasklet}, installed with
 * CREATE_OBJECT) and as a plain Hadoop mapper ({@code <Attack>Mapper}, through DeviceJobClient).
 * Each attack is a class of its own, so that the device's refusal of one names that attack alone.
 * The device must refuse each when it installs it, or stop it when it runs, and go on serving; the
 * tests never let the host run them (fallback never).
 */
@SuppressWarnings({"unused", "InfiniteRecursion"})
public final class Hostile {
  private Hostile() {}

  /** The attacks, in the order of the issue that asked for them. */
  public static final String[] ATTACKS = {"Shell", "ReflectionUtilsProcess", "LocalFileSystem", "AddResource", "WriteFile", "NetUtilsSocket", "ExitUtilTerminate", "RuntimeHalt", "HadoopExecutors", "BeansExpression", "BeansStatement", "Script", "ServiceLoaderProviders", "DefineClass", "NativeCode", "OthersStatistics", "DeviceCredentials", "TenGigabytes", "EndlessLoop", "UnboundedRecursion", "OutputFlood", "ConfigurationRewrite", "FileSystemGetLocalUri", "SubclassFileSystemGet", "DeviceFileSystemCreate", "FileSystemGetHandle"};

  /** A tasklet that does nothing but what an attack overrides. */
  public abstract static class Base implements Tasklet {
    @Override
    public void onCreate(TaskletContext context) throws Exception {}

    @Override
    public RecordFormat recordFormat() {
      return RecordFormat.raw();
    }

    @Override
    public void onExecute(ExecutionInfo execution) throws Exception {}

    @Override
    public void onDataAvailable(DataChunk chunk, ResultSink results) throws Exception {}

    @Override
    public void onRead(ResultSink results, boolean last) throws Exception {}
  }

  /** A mapper of text lines that does nothing but what an attack overrides. */
  public static class BaseMapper extends Mapper<LongWritable, Text, Text, IntWritable> {}

  public static final class ShellTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      org.apache.hadoop.util.Shell.execCommand("sh", "-c", "id > /tmp/smartssd-hostile-shell");
    }
  }

  public static class ShellMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        org.apache.hadoop.util.Shell.execCommand("sh", "-c", "id > /tmp/smartssd-hostile-shell");
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class ReflectionUtilsProcessTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      org.apache.hadoop.util.ReflectionUtils.newInstance(ProcessBuilder.class, null);
    }
  }

  public static class ReflectionUtilsProcessMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        org.apache.hadoop.util.ReflectionUtils.newInstance(ProcessBuilder.class, null);
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class LocalFileSystemTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      try (java.io.InputStream in = org.apache.hadoop.fs.FileSystem.getLocal(new org.apache.hadoop.conf.Configuration(false)).open(new org.apache.hadoop.fs.Path("/etc/passwd"))) { in.read(); }
    }
  }

  public static class LocalFileSystemMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        try (java.io.InputStream in = org.apache.hadoop.fs.FileSystem.getLocal(new org.apache.hadoop.conf.Configuration(false)).open(new org.apache.hadoop.fs.Path("/etc/passwd"))) { in.read(); }
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class AddResourceTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false); conf.addResource(new org.apache.hadoop.fs.Path("/etc/passwd")); conf.get("x");
    }
  }

  public static class AddResourceMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        org.apache.hadoop.conf.Configuration conf = context.getConfiguration(); conf.addResource(new org.apache.hadoop.fs.Path("/etc/passwd")); conf.get("x");
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class WriteFileTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/smartssd-hostile-write"), "pwned");
    }
  }

  public static class WriteFileMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        java.nio.file.Files.writeString(java.nio.file.Path.of("/tmp/smartssd-hostile-write"), "pwned");
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class NetUtilsSocketTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      org.apache.hadoop.net.NetUtils.getDefaultSocketFactory(new org.apache.hadoop.conf.Configuration(false)).createSocket("127.0.0.1", 22).close();
    }
  }

  public static class NetUtilsSocketMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        org.apache.hadoop.net.NetUtils.getDefaultSocketFactory(context.getConfiguration()).createSocket("127.0.0.1", 22).close();
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class ExitUtilTerminateTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      org.apache.hadoop.util.ExitUtil.terminate(3, "hostile");
    }
  }

  public static class ExitUtilTerminateMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        org.apache.hadoop.util.ExitUtil.terminate(3, "hostile");
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class RuntimeHaltTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      Runtime.getRuntime().halt(3);
    }
  }

  public static class RuntimeHaltMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        Runtime.getRuntime().halt(3);
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class HadoopExecutorsTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      org.apache.hadoop.util.concurrent.HadoopExecutors.newSingleThreadExecutor().submit(() -> { while (true) { Thread.onSpinWait(); } });
    }
  }

  public static class HadoopExecutorsMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        org.apache.hadoop.util.concurrent.HadoopExecutors.newSingleThreadExecutor().submit(() -> { while (true) { Thread.onSpinWait(); } });
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class BeansExpressionTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      System.err.println(new java.beans.Expression(System.class, "getenv", new Object[0]).getValue());
    }
  }

  public static class BeansExpressionMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        System.err.println(new java.beans.Expression(System.class, "getenv", new Object[0]).getValue());
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class BeansStatementTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      new java.beans.Statement(System.class, "exit", new Object[] {3}).execute();
    }
  }

  public static class BeansStatementMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        new java.beans.Statement(System.class, "exit", new Object[] {3}).execute();
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class ScriptTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      new javax.script.ScriptEngineManager().getEngineByName("js").eval("1");
    }
  }

  public static class ScriptMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        new javax.script.ScriptEngineManager().getEngineByName("js").eval("1");
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class ServiceLoaderProvidersTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      java.util.ServiceLoader.load(java.sql.Driver.class).iterator().hasNext();
    }
  }

  public static class ServiceLoaderProvidersMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        java.util.ServiceLoader.load(java.sql.Driver.class).iterator().hasNext();
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class DefineClassTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      java.lang.invoke.MethodHandles.lookup().defineClass(new byte[] {(byte) 0xCA, (byte) 0xFE});
    }
  }

  public static class DefineClassMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        java.lang.invoke.MethodHandles.lookup().defineClass(new byte[] {(byte) 0xCA, (byte) 0xFE});
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class NativeCodeTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      System.loadLibrary("smartssd");
    }
  }

  public static class NativeCodeMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        System.loadLibrary("smartssd");
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class OthersStatisticsTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      java.util.List<?> all = org.apache.hadoop.fs.FileSystem.getAllStatistics(); if (all.isEmpty()) { throw new IllegalStateException(); }
    }
  }

  public static class OthersStatisticsMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        java.util.List<?> all = org.apache.hadoop.fs.FileSystem.getAllStatistics(); if (all.isEmpty()) { throw new IllegalStateException(); }
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class DeviceCredentialsTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      if (org.apache.hadoop.security.UserGroupInformation.getCurrentUser().getCredentials().numberOfTokens() < 0) { throw new IllegalStateException(); }
    }
  }

  public static class DeviceCredentialsMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try {
        if (org.apache.hadoop.security.UserGroupInformation.getCurrentUser().getCredentials().numberOfTokens() < 0) { throw new IllegalStateException(); }
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  public static final class TenGigabytesTasklet extends Base {
    @Override
    public void onDataAvailable(DataChunk chunk, ResultSink results) throws Exception {
      java.util.List<byte[]> kept = new java.util.ArrayList<>(); for (int i = 0; i < 10_240; i++) { kept.add(new byte[1 << 20]); }
    }
  }

  public static class TenGigabytesMapper extends BaseMapper {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      java.util.List<byte[]> kept = new java.util.ArrayList<>(); for (int i = 0; i < 10_240; i++) { kept.add(new byte[1 << 20]); }
    }
  }

  public static final class EndlessLoopTasklet extends Base {
    @Override
    public void onDataAvailable(DataChunk chunk, ResultSink results) throws Exception {
      long n = 0; while (n >= 0) { try { n = (n + 1) & 0xFFFF; } catch (Throwable t) { n--; } }
    }
  }

  public static class EndlessLoopMapper extends BaseMapper {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      long n = 0; while (n >= 0) { try { n = (n + 1) & 0xFFFF; } catch (Throwable t) { n--; } }
    }
  }

  public static final class UnboundedRecursionTasklet extends Base {
    @Override
    public void onDataAvailable(DataChunk chunk, ResultSink results) throws Exception {
      deeper(0);
    }

    private static int deeper(int depth) {
      return deeper(depth + 1) + 1;
    }
  }

  public static class UnboundedRecursionMapper extends BaseMapper {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      deeper(0);
    }

    private static int deeper(int depth) {
      return deeper(depth + 1) + 1;
    }
  }

  public static final class OutputFloodTasklet extends Base {
    @Override
    public void onDataAvailable(DataChunk chunk, ResultSink results) throws Exception {
      byte[] junk = new byte[60_000]; for (long n = 0; n >= 0; n = (n + 1) & 0xFFFF) { junk[0] = (byte) n; results.emit(junk); }
    }
  }

  public static class OutputFloodMapper extends BaseMapper {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      IntWritable one = new IntWritable(1); StringBuilder b = new StringBuilder(); for (int i = 0; i < 60_000; i++) { b.append('x'); } Text junk = new Text(); for (long n = 0; n >= 0; n = (n + 1) & 0xFFFFFF) { b.setCharAt(0, (char) ('a' + n % 26)); b.setCharAt(1, (char) ('a' + n / 26 % 26)); b.setCharAt(2, (char) ('a' + n / 676 % 26)); junk.set(b.toString()); context.write(junk, one); }
    }
  }

  /** The job's configuration rewritten after the runtime confined it: a Configuration is a Writable. */
  public static final class ConfigurationRewriteTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      org.apache.hadoop.io.Writable w = new org.apache.hadoop.io.Text();
      w.readFields(new java.io.DataInputStream(new java.io.ByteArrayInputStream(new byte[] {0})));
    }
  }

  public static class ConfigurationRewriteMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      org.apache.hadoop.conf.Configuration conf = context.getConfiguration();
      java.util.Map<String, String> all = new java.util.TreeMap<>();
      Iterable<java.util.Map.Entry<String, String>> entries = conf;
      for (java.util.Map.Entry<String, String> e : entries) {
        all.put(e.getKey(), e.getValue());
      }
      all.put("io.serializations", "java.util.Timer,org.apache.hadoop.io.serializer.WritableSerialization");
      org.apache.hadoop.io.DataOutputBuffer out = new org.apache.hadoop.io.DataOutputBuffer();
      org.apache.hadoop.io.WritableUtils.writeVInt(out, all.size());
      for (java.util.Map.Entry<String, String> e : all.entrySet()) {
        Text.writeString(out, e.getKey());
        Text.writeString(out, e.getValue());
        out.writeInt(-1);
      }
      org.apache.hadoop.io.DataInputBuffer in = new org.apache.hadoop.io.DataInputBuffer();
      in.reset(out.getData(), out.getLength());
      org.apache.hadoop.io.Writable w = conf;
      w.readFields(in);
    }
  }

  // ---- Hadoop's FileSystem in the device: FileSystem.get and Path.getFileSystem are the device's own, read-only ----

  public static final class FileSystemGetLocalUriTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      try (java.io.InputStream in = org.apache.hadoop.fs.FileSystem.get(java.net.URI.create("file:///etc/passwd"), null).open(new org.apache.hadoop.fs.Path("/etc/passwd"))) { in.read(); }
    }
  }

  public static class FileSystemGetLocalUriMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      try (java.io.InputStream in = org.apache.hadoop.fs.FileSystem.get(java.net.URI.create("file:///etc/passwd"), context.getConfiguration()).open(new org.apache.hadoop.fs.Path("/etc/passwd"))) { in.read(); }
    }
  }

  public static final class SubclassFileSystemGetTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      org.apache.hadoop.fs.LocalFileSystem.get(java.net.URI.create("file:///"), null).open(new org.apache.hadoop.fs.Path("/etc/passwd")).read();
    }
  }

  public static class SubclassFileSystemGetMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      org.apache.hadoop.fs.LocalFileSystem.get(java.net.URI.create("file:///"), context.getConfiguration()).open(new org.apache.hadoop.fs.Path("/etc/passwd")).read();
    }
  }

  public static final class DeviceFileSystemCreateTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      new org.apache.hadoop.fs.Path("/written-by-a-tasklet").getFileSystem(null).create(new org.apache.hadoop.fs.Path("/written-by-a-tasklet")).close();
    }
  }

  public static class DeviceFileSystemCreateMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      new org.apache.hadoop.fs.Path("/written-by-a-tasklet").getFileSystem(context.getConfiguration()).create(new org.apache.hadoop.fs.Path("/written-by-a-tasklet")).close();
    }
  }

  /** A file system got through a method handle, which the device does not rewrite. */
  public interface FileSystemGetter {
    org.apache.hadoop.fs.FileSystem get(java.net.URI uri, org.apache.hadoop.conf.Configuration conf) throws IOException;
  }

  public static final class FileSystemGetHandleTasklet extends Base {
    @Override
    public void onCreate(TaskletContext context) throws Exception {
      FileSystemGetter getter = org.apache.hadoop.fs.FileSystem::get;
      getter.get(java.net.URI.create("file:///"), null).open(new org.apache.hadoop.fs.Path("/etc/passwd")).read();
    }
  }

  public static class FileSystemGetHandleMapper extends BaseMapper {
    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      FileSystemGetter getter = org.apache.hadoop.fs.FileSystem::get;
      getter.get(java.net.URI.create("file:///"), context.getConfiguration()).open(new org.apache.hadoop.fs.Path("/etc/passwd")).read();
    }
  }
}
