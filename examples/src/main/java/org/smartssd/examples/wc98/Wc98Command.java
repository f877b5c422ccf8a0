package org.smartssd.examples.wc98;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.smartssd.examples.loganalysis.TraceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code smartssd wc98 generate|validate}: the World Cup 1998 web-log trace. */
@Command(
    name = "wc98",
    mixinStandardHelpOptions = true,
    description = "The World Cup 1998 web-site access trace: generate a faithful one, validate a trace file, "
        + "or load trace files into a device.",
    subcommands = {Wc98Command.Generate.class, Wc98Command.Validate.class, Wc98Command.Load.class})
public final class Wc98Command implements Runnable {
  private static final DateTimeFormatter GMT_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "name a subcommand: generate, validate or load");
  }

  @Command(name = "generate", mixinStandardHelpOptions = true,
      description = {
        "Generate a trace faithful to the published statistics of the real one (arrivals from its per-minute "
            + "counts, type mix, 304s, Zipf-like popularity, four regions), deterministic by seed.",
        "The output is written to a temporary file beside FILE and renamed when complete; "
            + "a name ending in .gz is gzip-compressed. Object URLs in the text form are synthetic."})
  static final class Generate implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--records", required = true, paramLabel = "N",
        description = "Records to generate (the source's run: 7000000).")
    long records;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "" + GeneratorParameters.DEFAULT_SEED,
        description = "Seed of every random choice (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The trace file to write.")
    Path out;

    @Option(names = "--format", paramLabel = "binary|clf", defaultValue = "binary", converter = FormatConverter.class,
        description = "binary: the trace's 20-byte records; clf: Common Log Format text (default: ${DEFAULT-VALUE}).")
    TraceFormat format;

    @Option(names = "--start", paramLabel = "YYYY-MM-DD",
        description = "First day of the arrivals, in the site's local time (GMT+2) as the trace's files "
            + "(default: the trace's first, 1998-04-30).")
    LocalDate start;

    @Option(names = "--end", paramLabel = "YYYY-MM-DD",
        description = "Last day of the arrivals, included (default: the trace's last, 1998-07-26).")
    LocalDate end;

    @Option(names = "--zipf", paramLabel = "X",
        description = "Zipf exponent of object popularity (default: " + GeneratorParameters.DEFAULT_ZIPF_EXPONENT + ").")
    Double zipf;

    @Option(names = "--progress", negatable = true,
        description = "Show a progress bar on standard error (default: when standard error is a terminal).")
    Boolean progress;

    @Override
    public Integer call() throws IOException {
      long started = System.nanoTime();
      CommandLine cl = spec.commandLine();
      if (records < 0) {
        throw new CommandLine.ParameterException(cl, "--records must be 0 or more, not " + records);
      }
      if (start != null && end != null && end.isBefore(start)) {
        throw new CommandLine.ParameterException(cl, "--end " + end + " is before --start " + start);
      }
      GeneratorParameters parameters = GeneratorParameters.defaults().withSeed(seed);
      if (zipf != null) {
        try {
          parameters = parameters.withZipfExponent(zipf);
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(cl, "--zipf: " + e.getMessage());
        }
      }
      Wc98Generator generator;
      try {
        generator = new Wc98Generator(parameters.withLocalDays(start, end));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cl, "--start/--end: " + e.getMessage());
      }

      Path target = out.toAbsolutePath();
      Path directory = target.getParent();
      if (directory == null || !Files.isDirectory(directory)) {
        throw new IOException("cannot write " + out + ": no such directory " + directory);
      }
      if (Files.isDirectory(target)) {
        throw new IOException("cannot write " + out + ": it is a directory");
      }
      Path partial = directory.resolve("." + target.getFileName() + "." + ProcessHandle.current().pid() + ".part");
      boolean gzip = TraceWriter.isGzipName(target);
      PrintWriter err = cl.getErr();
      ProgressBar bar = new ProgressBar(err, records, "records");
      boolean showProgress = progress != null ? progress : ProgressBar.standardErrorIsTerminal();
      boolean complete = false;
      try {
        try (TraceWriter writer = TraceWriter.create(partial, format, gzip)) {
          generator.generate(records, writer, showProgress ? bar : done -> {});
        } finally {
          bar.finish();
        }
        moveIntoPlace(partial, target);
        complete = true;
      } finally {
        if (!complete) {
          Files.deleteIfExists(partial);
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      PrintWriter stdout = cl.getOut();
      stdout.printf(Locale.ROOT, "generated %,d records (%,d bytes, %s%s) in %.2f s, %,.0f records/s: %s%n",
          records, Files.size(target), format.optionName(), gzip ? ", gzip" : "", seconds,
          seconds > 0 ? records / seconds : 0.0, out);
      stdout.flush();
      return 0;
    }

    private static void moveIntoPlace(Path partial, Path target) throws IOException {
      try {
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  @Command(name = "validate", mixinStandardHelpOptions = true,
      description = {
        "Read trace files (plain or gzip), check every record, and report records, per-region and per-type "
            + "counts, 304s, objects, clients and the time span.",
        "A bad record (region 4 or more, unknown method, type or status) or a truncated file fails with its "
            + "byte offset."})
  static final class Validate implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Trace files, read in order.")
    List<Path> files = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
      for (Path file : files) {
        if (!Files.isRegularFile(file)) {
          throw new IOException("no such file: " + file);
        }
      }
      TraceStatistics s = TraceStatistics.of(files.toArray(Path[]::new));
      PrintWriter out = spec.commandLine().getOut();
      out.printf(Locale.ROOT, "files        %d%n", files.size());
      out.printf(Locale.ROOT, "records      %,d%n", s.records());
      out.printf(Locale.ROOT, "bytes        %,d in responses%n", s.bytes());
      if (s.records() > 0) {
        out.printf(Locale.ROOT, "time span    %s to %s GMT, %s%n", GMT_TIME.format(s.firstTime()),
            GMT_TIME.format(s.lastTime()), s.inTimeOrder() ? "in time order" : "NOT in time order");
      }
      String label = "regions";
      for (Region r : Region.values()) {
        out.printf(Locale.ROOT, "%-12s %-12s %,14d  %5.1f%%%n", label, r.displayName(), s.count(r), 100 * s.share(r));
        label = "";
      }
      label = "types";
      List<FileType> types = new ArrayList<>(List.of(FileType.values()));
      types.sort(Comparator.comparingLong((FileType t) -> s.count(t)).reversed());
      for (FileType t : types) {
        if (s.count(t) > 0) {
          out.printf(Locale.ROOT, "%-12s %-12s %,14d  %5.1f%%%n", label, t.displayName(), s.count(t), 100 * s.share(t));
          label = "";
        }
      }
      out.printf(Locale.ROOT, "304          %,d (%.1f%%)%n", s.notModified(), 100 * s.notModifiedShare());
      if (s.records() > 0) {
        out.printf(Locale.ROOT, "objects      %,d distinct; the top 1%% take %.1f%% of requests%n",
            s.distinctObjects(), 100 * s.topObjectShare(0.01));
      }
      out.printf(Locale.ROOT, "clients      %,d distinct%n", s.distinctClients());
      out.flush();
      return 0;
    }
  }

  @Command(name = "load", mixinStandardHelpOptions = true,
      description = {
        "Copy trace files (plain or gzip) into a device, checking every record on the way: "
            + "smartssd wc98 load wc_day46_1.gz objfs://127.0.0.1:7070/wc98/",
        "gzip files are stored decompressed, as the 20-byte records the analyses read, unless --gzip stores them "
            + "compressed (the analyses then decompress them, in the device too). The target is a directory "
            + "(names kept, .gz dropped unless --gzip) when it exists as one, ends with /, or several files are loaded; otherwise "
            + "the file's new name. All or nothing: a bad record or truncated file loads no file at all.",
        "With --spread-over (repeated, one target a device), the records of all FILEs, in order, are cut into "
            + "equal whole-record parts instead, one a target: smartssd wc98 load day1.bin --spread-over "
            + "objfs://127.0.0.1:7070/wc98 --spread-over objfs://127.0.0.1:7071/wc98. A target that ends with / or "
            + "is a directory gets its part as part-NNNNN (the target's index, from 0)."})
  static final class Load implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "FILE... TARGET", arity = "1..*", hideParamSyntax = true,
        description = "Trace files, then where to load them: objfs://HOST:PORT/PATH (any Hadoop file system URI "
            + "works); only trace files with --spread-over.")
    List<String> arguments = new ArrayList<>();

    @Option(names = "--spread-over", paramLabel = "TARGET",
        description = "Cut the records of all FILEs into equal whole-record parts, one for each --spread-over "
            + "target, in the order given (repeatable: one target a device).")
    List<String> spreadOver = new ArrayList<>();

    @Option(names = {"-f", "--force"}, description = "Replace files that already exist at the target.")
    boolean force;

    @Option(names = "--record-bytes", paramLabel = "N", defaultValue = "20",
        description = "Store each record in N bytes: its 20, then padding (0xff), as a log whose records carry "
            + "fields the analyses skip; analyse it with -D smartssd.loganalysis.record-bytes=N (default: "
            + "${DEFAULT-VALUE}, the trace's own records).")
    long recordBytes;

    @Option(names = "--gzip",
        description = "Store the records gzip-compressed, in files whose names end in .gz (a .gz file's own name is "
            + "kept): jobs then read them as Hadoop reads gzip, one split a file, and device mode decompresses "
            + "them inside the device.")
    boolean gzip;

    @Override
    public Integer call() throws IOException {
      CommandLine cl = spec.commandLine();
      PrintWriter out = cl.getOut();
      long started = System.nanoTime();
      int stored;
      try {
        stored = Wc98Record.checkStoredBytes("--record-bytes", recordBytes);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cl, e.getMessage());
      }
      if (!spreadOver.isEmpty()) {
        List<Path> files = arguments.stream().map(Path::of).toList();
        List<TraceLoader.Part> parts;
        try {
          parts = TraceLoader.spread(new org.apache.hadoop.conf.Configuration(), files, spreadOver, force, stored, gzip);
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(cl, "--spread-over: " + e.getMessage());
        }
        long records = 0;
        for (TraceLoader.Part p : parts) {
          out.printf(Locale.ROOT, "loaded %,d records (%,d bytes, from record %,d of the files, counting from 0) "
              + "into %s%n", p.records(), p.bytes(), p.firstRecord(), p.destination());
          records += p.records();
        }
        out.printf(Locale.ROOT, "spread %d file(s), %,d records over %d target(s) in %.2f s%n", files.size(), records,
            parts.size(), (System.nanoTime() - started) / 1e9);
        out.flush();
        return 0;
      }
      if (arguments.size() < 2) {
        throw new CommandLine.ParameterException(cl, "name the trace files, then the target (or use --spread-over)");
      }
      List<Path> files = arguments.subList(0, arguments.size() - 1).stream().map(Path::of).toList();
      String target = arguments.get(arguments.size() - 1);
      List<TraceLoader.Loaded> loaded = TraceLoader.load(new org.apache.hadoop.conf.Configuration(), files, target, force,
          stored, gzip);
      double seconds = (System.nanoTime() - started) / 1e9;
      long records = 0;
      for (TraceLoader.Loaded l : loaded) {
        out.printf(Locale.ROOT, "loaded %s: %,d records (%,d bytes) into %s%n", l.source(), l.records(), l.bytes(),
            l.destination());
        records += l.records();
      }
      out.printf(Locale.ROOT, "loaded %d file(s), %,d records in %.2f s%n", loaded.size(), records, seconds);
      out.flush();
      return 0;
    }
  }

  /** {@code --format binary|clf}, in any case. */
  static final class FormatConverter implements CommandLine.ITypeConverter<TraceFormat> {
    @Override
    public TraceFormat convert(String value) {
      try {
        return TraceFormat.parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }
}
