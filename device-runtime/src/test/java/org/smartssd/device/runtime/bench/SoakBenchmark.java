package org.smartssd.device.runtime.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.ExecutionPoller;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.runtime.DeviceProcess;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.RecordCounter;

/**
 * The soak: {@link #CLIENTS} clients, each on its own connection, send a mix of commands to one
 * device process as fast as they are answered, for a set time (default 10 minutes): create and
 * write files of known content, read them back (whole or a random range) and one shared file
 * everyone reads, list, rename, delete, DEVICE_INFO, STATISTICS, and count the shared file's
 * records in the device with the built-in {@code RecordCounter} tasklet. Every read's bytes, every
 * listing and every count is checked. Every {@link #SAMPLE_SECONDS} seconds it records the device
 * process's threads and open files ({@code /proc/PID}), its heap in use after a full collection
 * ({@code jcmd PID GC.run}, then {@code GC.heap_info}) and its resident memory, with the commands
 * and errors so far; also once before the clients connect and once after they have gone.
 *
 * <p>Arguments: {@code [work-dir]} (default: a temporary directory). {@code -Dsoak.minutes=M} sets
 * the duration (default 10), {@code -Dsoak.seed=S} the seed (default a new one, printed). Prints the
 * samples, then Markdown tables; exits with status 1 if any read came back wrong.
 */
public final class SoakBenchmark {
  /** Clients at once: twice the device's 8 worker threads, as in issue 15's load test. */
  private static final int CLIENTS = 16;
  /** Seconds between samples: 20 of them in 10 minutes. */
  private static final int SAMPLE_SECONDS = 30;
  /** The first sample under load: once every client has connected and run a few commands. */
  private static final int FIRST_SAMPLE_SECONDS = 10;
  /** Largest file a client writes: files of up to 4 MiB, written in WRITEs of at most {@link #WRITE_BYTES}. */
  private static final int MAX_FILE_BYTES = 4 << 20;
  private static final int WRITE_BYTES = 1 << 20;
  /** Files a client keeps at most; past this it deletes one before it writes. */
  private static final int MAX_FILES_PER_CLIENT = 24;
  /** The shared file: 20-byte records (the World Cup trace's), 8 MB, read by every client and counted in the device. */
  private static final int RECORD_BYTES = 20;
  private static final long SHARED_BYTES = 400_000L * RECORD_BYTES;
  private static final long SHARED_SEED = 0x5EED;

  /** The commands of the mix and their weights (out of their sum). */
  private enum Op {
    WRITE(20), READ(25), READ_SHARED(10), LIST(10), RENAME(8), DELETE(8), INFO(6), STATISTICS(5), EXECUTE(8);

    final int weight;

    Op(int weight) {
      this.weight = weight;
    }
  }

  /** One sample of the device process and the load. */
  private record Sample(String when, double seconds, int threads, int openFiles, long heapUsedAfterGcBytes,
      long rssBytes, long commands, long errors, long wrongReads) {}

  private static final Map<Op, AtomicLong> DONE = new ConcurrentHashMap<>();
  private static final Map<String, AtomicLong> ERRORS = new ConcurrentHashMap<>();
  private static final AtomicLong WRONG = new AtomicLong();
  private static final AtomicLong BYTES_WRITTEN = new AtomicLong();
  private static final AtomicLong BYTES_READ = new AtomicLong();

  public static void main(String[] args) throws Exception {
    Path work = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("smartssd-soak");
    double minutes = Double.parseDouble(System.getProperty("soak.minutes", "10"));
    long seed = Long.getLong("soak.seed", System.nanoTime());
    Path dataDir = work.resolve("device");
    Files.createDirectories(dataDir);
    Map<String, String> config = new HashMap<>();
    // The default profile with 8 GiB of flash instead of 32 GiB: the backing files grow with bytes
    // written, not live data (issue 15, item 8), and the soak writes tens of GB.
    config.put("smartssd.device.flash.blocks-per-way", "256");
    for (Op op : Op.values()) {
      DONE.put(op, new AtomicLong());
    }
    System.out.printf(Locale.ROOT, "soak: %d clients, %.1f minutes, seed %d, data in %s%n", CLIENTS, minutes, seed,
        dataDir);

    List<Sample> samples = new ArrayList<>();
    try (DeviceProcess device = DeviceProcess.start(dataDir, config)) {
      long pid = device.pid();
      try (SocketDeviceClient c = connect(device)) {
        writeFile(c, "/shared/records", SHARED_SEED, SHARED_BYTES);
      }
      // The first jcmd starts the device's attach listener (a thread and a socket): start it before
      // the first count, so that the measuring's own thread and file are in every sample.
      jcmd(pid, "VM.uptime");
      long start = System.nanoTime();
      samples.add(sample("before the clients (idle)", pid, start));
      print(samples.get(0));
      List<String> threadsBefore = threadNames(pid);
      List<String> filesBefore = openFiles(pid);

      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> clients = new ArrayList<>();
      Random seeds = new Random(seed);
      for (int i = 0; i < CLIENTS; i++) {
        int id = i;
        long clientSeed = seeds.nextLong();
        Thread t = new Thread(() -> client(device, id, clientSeed, stop), "soak-client-" + i);
        clients.add(t);
        t.start();
      }
      long end = start + (long) (minutes * 60e9);
      for (int n = 0; System.nanoTime() < end; n++) {
        long next = start + TimeUnit.SECONDS.toNanos(n == 0 ? FIRST_SAMPLE_SECONDS : (long) SAMPLE_SECONDS * n);
        TimeUnit.NANOSECONDS.sleep(Math.max(0, Math.min(next, end) - System.nanoTime()));
        Sample s = sample(System.nanoTime() >= end ? "end of the load" : "under load", pid, start);
        samples.add(s);
        print(s);
      }
      stop.set(true);
      for (Thread t : clients) {
        t.join(TimeUnit.MINUTES.toMillis(2));
        if (t.isAlive()) {
          throw new IllegalStateException(t.getName() + " did not stop within 2 minutes");
        }
      }
      // The connections' threads end a moment after their sockets close.
      TimeUnit.SECONDS.sleep(2);
      Sample after = sample("after the clients (idle)", pid, start);
      samples.add(after);
      print(after);
      System.out.println("threads after the load, not before: " + difference(threadNames(pid), threadsBefore)
          + "; before, not after: " + difference(threadsBefore, threadNames(pid)));
      System.out.println("open files after the load, not before: " + difference(openFiles(pid), filesBefore)
          + "; before, not after: " + difference(filesBefore, openFiles(pid)));
    }
    report(samples, minutes);
    if (WRONG.get() > 0) {
      System.exit(1);
    }
  }

  /** One client: a random command from the mix, again and again, each checked. */
  private static void client(DeviceProcess device, int id, long seed, AtomicBoolean stop) {
    Random r = new Random(seed);
    String dir = "/soak/c" + id;
    Map<String, long[]> files = new TreeMap<>(); // name -> {content seed, length}
    int totalWeight = Stream.of(Op.values()).mapToInt(o -> o.weight).sum();
    int counter = 0;
    long tasklet = -1;
    while (!stop.get()) {
      try (SocketDeviceClient c = connect(device)) {
        c.mkdirs(dir);
        if (tasklet < 0) {
          tasklet = c.createObject(ByteBuffer.allocate(0), RecordCounter.class.getName(),
              Map.of("record-length", Integer.toString(RECORD_BYTES)));
        }
        while (!stop.get()) {
          Op op = pick(r, totalWeight);
          try {
            run(op, c, r, dir, files, tasklet, counter++);
            DONE.get(op).incrementAndGet();
          } catch (IOException | RuntimeException e) {
            ERRORS.computeIfAbsent(op + ": " + e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
            if (ERRORS.values().stream().mapToLong(AtomicLong::get).sum() <= 20) {
              System.out.println("  client " + id + ", " + op + ": " + e);
            }
            if (e instanceof IOException) {
              break; // none is expected: start again on a new connection, in case this one is gone
            }
          }
        }
        if (stop.get()) {
          c.removeObject(tasklet);
        }
      } catch (IOException e) {
        ERRORS.computeIfAbsent("connect: " + e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
      }
    }
  }

  private static Op pick(Random r, int totalWeight) {
    int x = r.nextInt(totalWeight);
    for (Op op : Op.values()) {
      x -= op.weight;
      if (x < 0) {
        return op;
      }
    }
    throw new AssertionError();
  }

  private static void run(Op op, SocketDeviceClient c, Random r, String dir, Map<String, long[]> files, long tasklet,
      int counter) throws IOException {
    switch (op) {
      case WRITE -> {
        if (files.size() >= MAX_FILES_PER_CLIENT) {
          String victim = files.keySet().iterator().next();
          c.delete(dir + "/" + victim, false);
          files.remove(victim);
        }
        String name = "f" + counter;
        long contentSeed = r.nextLong();
        long length = r.nextInt(MAX_FILE_BYTES + 1);
        writeFile(c, dir + "/" + name, contentSeed, length);
        files.put(name, new long[] {contentSeed, length});
      }
      case READ -> {
        if (files.isEmpty()) {
          return;
        }
        String name = nth(files, r);
        long[] f = files.get(name);
        readAndCheck(c, dir + "/" + name, f[0], f[1], r);
      }
      case READ_SHARED -> readAndCheck(c, "/shared/records", SHARED_SEED, SHARED_BYTES, r);
      case LIST -> {
        TreeSet<String> names = new TreeSet<>();
        for (ObjectStatus s : c.listAll(dir)) {
          names.add(s.name());
        }
        if (!names.equals(files.keySet())) {
          wrong("listing of " + dir + ": " + names + ", expected " + files.keySet());
        }
      }
      case RENAME -> {
        if (files.isEmpty()) {
          return;
        }
        String name = nth(files, r);
        String to = "r" + counter;
        c.rename(dir + "/" + name, dir + "/" + to);
        files.put(to, files.remove(name));
      }
      case DELETE -> {
        if (files.isEmpty()) {
          return;
        }
        String name = nth(files, r);
        c.delete(dir + "/" + name, false);
        files.remove(name);
      }
      case INFO -> {
        DeviceInfo info = c.info();
        if (info.geometry().channels() <= 0 || info.capacityBytes() <= 0) {
          wrong("DEVICE_INFO: " + info);
        }
      }
      case STATISTICS -> c.statistics();
      case EXECUTE -> {
        long execution = c.executeObject(tasklet, List.of(InputRange.whole("/shared/records")), Map.of());
        List<TaskletResult> results = new ArrayList<>();
        Response.ExecutionProgress last = ExecutionPoller.drain(c, execution, results::add);
        if (last.state() != ExecutionState.DONE) {
          throw new IOException("execution " + execution + " ended " + last.state() + ": " + last.message());
        }
        long counted = RecordCounter.total(results);
        if (counted != SHARED_BYTES / RECORD_BYTES) {
          wrong("RecordCounter counted " + counted + " records, expected " + SHARED_BYTES / RECORD_BYTES);
        }
      }
      default -> throw new AssertionError(op);
    }
  }

  private static String nth(Map<String, long[]> files, Random r) {
    int n = r.nextInt(files.size());
    for (String name : files.keySet()) {
      if (n-- == 0) {
        return name;
      }
    }
    throw new AssertionError();
  }

  private static void writeFile(SocketDeviceClient c, String path, long contentSeed, long length) throws IOException {
    byte[] buf = new byte[WRITE_BYTES];
    long h = c.create(path, false, true).handle();
    for (long off = 0; off < length; off += WRITE_BYTES) {
      int n = (int) Math.min(WRITE_BYTES, length - off);
      KnownContent.fill(contentSeed, off, buf, 0, n);
      c.write(h, buf, 0, n);
    }
    long closed = c.closeHandle(h);
    if (closed != length) {
      wrong(path + ": CLOSE answered length " + closed + ", " + length + " were written");
    }
    BYTES_WRITTEN.addAndGet(length);
  }

  /** The whole file or, half the time, a random range of it, checked byte for byte. */
  private static void readAndCheck(SocketDeviceClient c, String path, long contentSeed, long length, Random r)
      throws IOException {
    ObjectStatus st = c.open(path);
    if (st.length() != length) {
      wrong(path + ": length " + st.length() + ", expected " + length);
      return;
    }
    long from = 0;
    long to = length;
    if (length > 0 && r.nextBoolean()) {
      from = (long) (r.nextDouble() * length);
      to = from + (long) (r.nextDouble() * (length - from));
    }
    ByteBuffer got = ByteBuffer.allocate(KnownContent.READ_BYTES);
    byte[] want = new byte[KnownContent.READ_BYTES];
    for (long off = from; off < to; ) {
      got.clear().limit((int) Math.min(got.capacity(), to - off));
      int n = c.read(st.objectId(), off, got);
      if (n <= 0) {
        wrong(path + ": READ at " + off + " of " + length + " returned " + n);
        return;
      }
      KnownContent.fill(contentSeed, off, want, 0, n);
      if (!java.util.Arrays.equals(got.array(), 0, n, want, 0, n)) {
        wrong(path + ": wrong bytes in [" + off + ", " + (off + n) + ")");
        return;
      }
      off += n;
      BYTES_READ.addAndGet(n);
    }
  }

  private static void wrong(String what) {
    if (WRONG.incrementAndGet() <= 20) {
      System.out.println("  WRONG: " + what);
    }
  }

  private static Sample sample(String when, long pid, long start) throws IOException, InterruptedException {
    Path proc = Path.of("/proc", Long.toString(pid));
    int openFiles;
    try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
      openFiles = (int) fds.count();
    }
    String status = Files.readString(proc.resolve("status"));
    int threads = Integer.parseInt(field(status, "Threads:\\s+(\\d+)"));
    long rss = Long.parseLong(field(status, "VmRSS:\\s+(\\d+) kB")) << 10;
    jcmd(pid, "GC.run");
    String heap = jcmd(pid, "GC.heap_info");
    long heapUsed = Long.parseLong(field(heap, "used (\\d+)K")) << 10;
    long commands = DONE.values().stream().mapToLong(AtomicLong::get).sum();
    long errors = ERRORS.values().stream().mapToLong(AtomicLong::get).sum();
    return new Sample(when, (System.nanoTime() - start) / 1e9, threads, openFiles, heapUsed, rss, commands, errors,
        WRONG.get());
  }

  /** The names of the process's threads, numbers in them replaced by N (pool threads come and go). */
  private static List<String> threadNames(long pid) throws IOException, InterruptedException {
    List<String> names = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^\"([^\"]*)\"").matcher(jcmd(pid, "Thread.print"));
    while (m.find()) {
      names.add(m.group(1).replaceAll("\\d+", "N"));
    }
    names.sort(null);
    return names;
  }

  /** What the process's file descriptors point at, numbers in socket and pipe names replaced by N. */
  private static List<String> openFiles(long pid) throws IOException {
    List<String> targets = new ArrayList<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : (Iterable<Path>) fds::iterator) {
        try {
          targets.add(Files.readSymbolicLink(fd).toString().replaceAll("\\[\\d+\\]", "[N]"));
        } catch (IOException e) {
          // closed while listed
        }
      }
    }
    targets.sort(null);
    return targets;
  }

  /** The elements of {@code a} not in {@code b}, counting repeats. */
  private static List<String> difference(List<String> a, List<String> b) {
    List<String> left = new ArrayList<>(a);
    b.forEach(left::remove);
    return left;
  }

  private static String jcmd(long pid, String command) throws IOException, InterruptedException {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("jcmd " + pid + " " + command + " failed: " + out);
    }
    return out;
  }

  private static String field(String text, String regex) throws IOException {
    Matcher m = Pattern.compile(regex).matcher(text);
    if (!m.find()) {
      throw new IOException("no " + regex + " in:\n" + text);
    }
    return m.group(1);
  }

  private static void print(Sample s) {
    System.out.printf(Locale.ROOT, "%7.1f s  %-26s threads %4d  open files %4d  heap after GC %7.1f MB  RSS %7.1f MB"
            + "  commands %,d  errors %d  wrong %d%n", s.seconds(), s.when(), s.threads(), s.openFiles(),
        s.heapUsedAfterGcBytes() / 1e6, s.rssBytes() / 1e6, s.commands(), s.errors(), s.wrongReads());
  }

  private static void report(List<Sample> samples, double minutes) {
    List<Sample> load = samples.subList(1, samples.size() - 1);
    Sample first = load.get(0);
    Sample middle = load.get(load.size() / 2);
    Sample last = load.get(load.size() - 1);
    System.out.println();
    System.out.println("| sample | time s | threads | open files | heap used after GC, MB | RSS, MB | commands so far"
        + " | errors | wrong reads |");
    System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (Sample s : List.of(samples.get(0), first, middle, last, samples.get(samples.size() - 1))) {
      String name = s == first ? "start of the load" : s == middle ? "middle" : s.when();
      System.out.printf(Locale.ROOT, "| %s | %.0f | %d | %d | %.1f | %.1f | %,d | %d | %d |%n", name, s.seconds(),
          s.threads(), s.openFiles(), s.heapUsedAfterGcBytes() / 1e6, s.rssBytes() / 1e6, s.commands(), s.errors(),
          s.wrongReads());
    }
    System.out.printf(Locale.ROOT, "%nUnder load (%d samples, every %d s): threads %d to %d, open files %d to %d, heap"
            + " after GC %.1f to %.1f MB, RSS %.1f to %.1f MB%n", load.size(), SAMPLE_SECONDS,
        load.stream().mapToInt(Sample::threads).min().orElseThrow(),
        load.stream().mapToInt(Sample::threads).max().orElseThrow(),
        load.stream().mapToInt(Sample::openFiles).min().orElseThrow(),
        load.stream().mapToInt(Sample::openFiles).max().orElseThrow(),
        load.stream().mapToLong(Sample::heapUsedAfterGcBytes).min().orElseThrow() / 1e6,
        load.stream().mapToLong(Sample::heapUsedAfterGcBytes).max().orElseThrow() / 1e6,
        load.stream().mapToLong(Sample::rssBytes).min().orElseThrow() / 1e6,
        load.stream().mapToLong(Sample::rssBytes).max().orElseThrow() / 1e6);
    double seconds = minutes * 60;
    System.out.println();
    System.out.println("| command | done | per second | errors |");
    System.out.println("| --- | ---: | ---: | ---: |");
    for (Op op : Op.values()) {
      long errors = ERRORS.entrySet().stream().filter(e -> e.getKey().startsWith(op + ":"))
          .mapToLong(e -> e.getValue().get()).sum();
      System.out.printf(Locale.ROOT, "| %s | %,d | %.1f | %d |%n", op, DONE.get(op).get(), DONE.get(op).get() / seconds,
          errors);
    }
    System.out.printf(Locale.ROOT, "%nBytes written %,d (%.1f MB/s), bytes read and checked %,d (%.1f MB/s); wrong"
            + " reads, listings or counts: %d; errors by kind: %s%n", BYTES_WRITTEN.get(),
        BYTES_WRITTEN.get() / seconds / 1e6, BYTES_READ.get(), BYTES_READ.get() / seconds / 1e6, WRONG.get(), ERRORS);
  }

  private static SocketDeviceClient connect(DeviceProcess device) throws IOException {
    return SocketDeviceClient.connect(DeviceAddress.parse(device.address()), ClientOptions.defaults());
  }
}
