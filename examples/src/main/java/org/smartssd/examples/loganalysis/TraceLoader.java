package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.examples.wc98.RecordSink;
import org.smartssd.examples.wc98.TraceWriter;
import org.smartssd.examples.wc98.Wc98Record;
import org.smartssd.examples.wc98.Wc98Reader;

/**
 * Loads trace files into Hadoop file systems (devices through objfs), checking every record on the
 * way with {@link Wc98Reader}; gzip files are stored decompressed, as the binary records the analyses
 * read. All or nothing: each object is written to a hidden temporary name beside its destination, and
 * only when every one was written in full are they renamed into place; after a bad record or an I/O
 * error, the temporaries are deleted and nothing is loaded.
 *
 * <p>{@link #load}: each file becomes one object. The target is a directory (files keep their names,
 * {@code .gz} dropped) when it exists as one, ends with {@code /}, or when several files are loaded;
 * otherwise it is the one file's new name.
 *
 * <p>{@link #spread}: the records of all the files, in order, are cut into as many parts as there
 * are targets (one a device, typically), each a whole number of 20-byte records, the sizes differing
 * by one record at most (the first parts take the extra records); part {@code i} goes to target
 * {@code i}.
 *
 * <p>Records are stored as the trace's 20-byte records, or, given a wider record size, each padded to
 * it with {@link Wc98Record#PADDING} (a log whose records carry fields the analyses skip; the
 * analyses read it with {@code smartssd.loganalysis.record-bytes} set to the same size).
 */
public final class TraceLoader {
  private static final Logger LOG = LoggerFactory.getLogger(TraceLoader.class);
  /** What a part is called inside a target that is a directory. */
  static final String PART_NAME = "part-%05d";

  private TraceLoader() {}

  /** One loaded file. */
  public record Loaded(java.nio.file.Path source, Path destination, long records, long bytes) {}

  /**
   * One part of a spread trace: records {@code firstRecord} to {@code firstRecord + records - 1} of the
   * files taken together, in order.
   */
  public record Part(Path destination, long firstRecord, long records, long bytes) {}

  public static List<Loaded> load(Configuration conf, List<java.nio.file.Path> files, String target, boolean overwrite)
      throws IOException {
    return load(conf, files, target, overwrite, Wc98Record.BYTES);
  }

  /** As {@link #load(Configuration, List, String, boolean)}, each record stored in {@code recordBytes} bytes. */
  public static List<Loaded> load(Configuration conf, List<java.nio.file.Path> files, String target, boolean overwrite,
      int recordBytes) throws IOException {
    return load(conf, files, target, overwrite, recordBytes, false);
  }

  /**
   * As {@link #load(Configuration, List, String, boolean, int)}; with {@code gzip}, each file is stored
   * gzip-compressed, its name ending in {@code .gz} (a file's own name keeps it), for jobs that read
   * it compressed as Hadoop reads a {@code .gz} file (in the device too).
   */
  public static List<Loaded> load(Configuration conf, List<java.nio.file.Path> files, String target, boolean overwrite,
      int recordBytes, boolean gzip) throws IOException {
    checkSources(files);
    Path targetPath = new Path(target);
    FileSystem fs = targetPath.getFileSystem(conf);
    targetPath = fs.makeQualified(targetPath);
    boolean targetIsDirectory = target.endsWith("/") || files.size() > 1 || isDirectory(fs, targetPath);

    Staging staging = new Staging(conf, overwrite, recordBytes, gzip);
    for (java.nio.file.Path f : files) {
      staging.add(targetIsDirectory ? new Path(targetPath, storedName(f)) : targetPath);
    }
    boolean done = false;
    try {
      List<Loaded> loaded = new ArrayList<>();
      for (int i = 0; i < files.size(); i++) {
        Path temporary = staging.temporary(i);
        long records;
        try (Wc98Reader reader = Wc98Reader.open(files.get(i));
            TraceWriter writer = staging.writer(i)) {
          records = reader.forEach(writer);
        }
        loaded.add(new Loaded(files.get(i), staging.destination(i), records, staging.length(temporary)));
      }
      staging.commit();
      done = true;
      return loaded;
    } finally {
      if (!done) {
        staging.abort();
      }
    }
  }

  /**
   * Spreads the records of the files over the targets, in equal whole-record parts (see the class
   * comment). A target that ends with {@code /} or exists as a directory gets its part as {@code
   * part-NNNNN} (its index); any other target is the part's own name. A target may have fewer records
   * than another by one; with fewer records than targets, the last parts are empty objects.
   *
   * @throws IllegalArgumentException when there is no file or no target, or two targets name the same object
   */
  public static List<Part> spread(Configuration conf, List<java.nio.file.Path> files, List<String> targets,
      boolean overwrite) throws IOException {
    return spread(conf, files, targets, overwrite, Wc98Record.BYTES);
  }

  /** As {@link #spread(Configuration, List, List, boolean)}, each record stored in {@code recordBytes} bytes. */
  public static List<Part> spread(Configuration conf, List<java.nio.file.Path> files, List<String> targets,
      boolean overwrite, int recordBytes) throws IOException {
    return spread(conf, files, targets, overwrite, recordBytes, false);
  }

  /**
   * As {@link #spread(Configuration, List, List, boolean, int)}; with {@code gzip}, each part is stored
   * gzip-compressed, its name ending in {@code .gz}.
   */
  public static List<Part> spread(Configuration conf, List<java.nio.file.Path> files, List<String> targets,
      boolean overwrite, int recordBytes, boolean gzip) throws IOException {
    checkSources(files);
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("no target to spread the records over");
    }
    Staging staging = new Staging(conf, overwrite, recordBytes, gzip);
    for (int i = 0; i < targets.size(); i++) {
      String target = targets.get(i);
      Path p = new Path(target);
      FileSystem fs = p.getFileSystem(conf);
      p = fs.makeQualified(p);
      boolean directory = target.endsWith("/") || isDirectory(fs, p);
      staging.add(directory ? new Path(p, String.format(java.util.Locale.ROOT, PART_NAME, i)) : p);
    }
    long total = 0;
    for (java.nio.file.Path f : files) {
      total += countRecords(f);
    }
    long[] sizes = partSizes(total, targets.size());
    boolean done = false;
    try (Cutter cutter = new Cutter(staging, sizes)) {
      long read = 0;
      for (java.nio.file.Path f : files) {
        try (Wc98Reader reader = Wc98Reader.open(f)) {
          read += reader.forEach(cutter);
        }
      }
      if (read != total) {
        throw new IOException("the files changed while they were loaded: " + total + " records counted, then "
            + read + " read");
      }
      cutter.finish();
      List<Part> parts = new ArrayList<>();
      long first = 0;
      for (int i = 0; i < sizes.length; i++) {
        long bytes = staging.length(staging.temporary(i));
        if (!gzip && bytes != sizes[i] * recordBytes) {
          throw new IOException(staging.destination(i) + ": wrote " + sizes[i] + " records, but the device holds "
              + bytes + " bytes");
        }
        parts.add(new Part(staging.destination(i), first, sizes[i], bytes));
        first += sizes[i];
      }
      staging.commit();
      done = true;
      return parts;
    } finally {
      if (!done) {
        staging.abort();
      }
    }
  }

  /**
   * How many records each of {@code parts} parts of {@code records} records holds: equal, the first
   * {@code records % parts} one more.
   */
  static long[] partSizes(long records, int parts) {
    if (parts < 1) {
      throw new IllegalArgumentException("parts must be 1 or more, not " + parts);
    }
    long[] sizes = new long[parts];
    for (int i = 0; i < parts; i++) {
      sizes[i] = records / parts + (i < records % parts ? 1 : 0);
    }
    return sizes;
  }

  /** Records in a trace file: its length over 20 for a plain one, counted (and checked) for a compressed one. */
  private static long countRecords(java.nio.file.Path file) throws IOException {
    try (Wc98Reader reader = Wc98Reader.open(file)) {
      if (!reader.compressed()) {
        // A truncated tail is reported, with its offset, when the records are copied.
        return Files.size(file) / Wc98Record.BYTES;
      }
      return reader.forEach(r -> {});
    }
  }

  /** The name a file is stored under: its own, without {@code .gz}. */
  static String storedName(java.nio.file.Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".gz") && name.length() > 3 ? name.substring(0, name.length() - 3) : name;
  }

  private static void checkSources(List<java.nio.file.Path> files) throws IOException {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no file to load");
    }
    for (java.nio.file.Path f : files) {
      if (!Files.isRegularFile(f)) {
        throw new IOException("no such file: " + f);
      }
    }
  }

  private static boolean isDirectory(FileSystem fs, Path p) throws IOException {
    try {
      return fs.getFileStatus(p).isDirectory();
    } catch (java.io.FileNotFoundException e) {
      return false;
    }
  }

  /** Hands records to the parts' writers in turn, opening each part's writer when its first record comes. */
  private static final class Cutter implements RecordSink, AutoCloseable {
    private final Staging staging;
    private final long[] sizes;
    private int part = -1;
    private long left;
    private TraceWriter writer;

    Cutter(Staging staging, long[] sizes) {
      this.staging = staging;
      this.sizes = sizes;
    }

    @Override
    public void accept(Wc98Record record) throws IOException {
      while (left == 0) {
        next();
      }
      writer.accept(record);
      left--;
    }

    /** Closes the last part and creates any empty ones after it. */
    void finish() throws IOException {
      while (part < sizes.length - 1) {
        next();
      }
      if (left != 0) {
        throw new IllegalStateException("part " + part + " is " + left + " records short");
      }
      closeWriter();
    }

    private void next() throws IOException {
      if (left != 0) {
        throw new IllegalStateException("part " + part + " is " + left + " records short");
      }
      if (part + 1 >= sizes.length) {
        throw new IOException("more records than counted: the files changed while they were loaded");
      }
      closeWriter();
      part++;
      left = sizes[part];
      writer = staging.writer(part);
    }

    private void closeWriter() throws IOException {
      if (writer != null) {
        TraceWriter w = writer;
        writer = null;
        w.close();
      }
    }

    @Override
    public void close() throws IOException {
      closeWriter();
    }
  }

  /**
   * The objects being loaded: their destinations (checked free, unless replacing), the hidden
   * temporaries they are written to, and the directories created for them; then all renamed into
   * place, or all deleted.
   */
  private static final class Staging {
    private final Configuration conf;
    private final boolean overwrite;
    private final int recordBytes;
    private final boolean gzip;
    private final List<Path> destinations = new ArrayList<>();
    private final Set<Path> seen = new HashSet<>();
    private final List<Path> temporaries = new ArrayList<>();
    private final List<Path> createdDirectories = new ArrayList<>();
    private final List<Path> placed = new ArrayList<>();

    Staging(Configuration conf, boolean overwrite, int recordBytes, boolean gzip) {
      this.conf = conf;
      this.gzip = gzip;
      this.overwrite = overwrite;
      this.recordBytes = Wc98Record.checkStoredBytes("the stored record size", recordBytes);
    }

    /** Adds a destination (qualified), refusing one named twice or an existing one not to be replaced. */
    void add(Path destination) throws IOException {
      if (gzip && !destination.getName().endsWith(".gz")) {
        destination = destination.suffix(".gz");
      }
      if (!seen.add(destination)) {
        throw new IllegalArgumentException("two files or parts would load into " + destination);
      }
      FileSystem fs = fs(destination);
      if (fs.exists(destination)) {
        FileStatus st = fs.getFileStatus(destination);
        if (st.isDirectory() || !overwrite) {
          throw new FileAlreadyExistsException(destination + " already exists"
              + (st.isDirectory() ? " as a directory" : "") + (overwrite || st.isDirectory() ? "" : " (--force replaces it)"));
        }
      }
      destinations.add(destination);
      temporaries.add(new Path(destination.getParent(), "." + destination.getName() + "._COPYING_"));
    }

    Path destination(int i) {
      return destinations.get(i);
    }

    Path temporary(int i) {
      return temporaries.get(i);
    }

    /** A writer of binary records to part {@code i}'s temporary, creating its directory if needed. */
    TraceWriter writer(int i) throws IOException {
      Path temporary = temporaries.get(i);
      FileSystem fs = fs(temporary);
      Path directory = temporary.getParent();
      if (directory != null && !fs.exists(directory)) {
        Path top = directory;
        while (top.getParent() != null && !fs.exists(top.getParent())) {
          top = top.getParent();
        }
        fs.mkdirs(directory);
        createdDirectories.add(top);
      }
      java.io.OutputStream out = fs.create(temporary, true);
      if (gzip) {
        out = new java.util.zip.GZIPOutputStream(out, 1 << 16);
      }
      return TraceWriter.openPadded(out, recordBytes);
    }

    long length(Path p) throws IOException {
      return fs(p).getFileStatus(p).getLen();
    }

    void commit() throws IOException {
      for (int i = 0; i < destinations.size(); i++) {
        Path d = destinations.get(i);
        FileSystem fs = fs(d);
        if (overwrite && fs.exists(d)) {
          fs.delete(d, false);
        }
        if (!fs.rename(temporaries.get(i), d)) {
          throw new IOException("could not rename " + temporaries.get(i) + " to " + d);
        }
        placed.add(d);
      }
    }

    void abort() {
      for (Path p : temporaries) {
        deleteQuietly(p);
      }
      for (Path p : placed) {
        deleteQuietly(p);
      }
      for (Path p : createdDirectories) {
        deleteQuietly(p);
      }
    }

    private FileSystem fs(Path p) throws IOException {
      return p.getFileSystem(conf);
    }

    private void deleteQuietly(Path p) {
      try {
        fs(p).delete(p, true);
      } catch (IOException e) {
        LOG.warn("could not delete {}: {}", p, e.toString());
      }
    }
  }
}
