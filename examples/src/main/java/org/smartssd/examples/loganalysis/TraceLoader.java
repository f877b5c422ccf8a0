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
import org.smartssd.examples.wc98.TraceFormat;
import org.smartssd.examples.wc98.TraceWriter;
import org.smartssd.examples.wc98.Wc98Reader;

/**
 * Loads trace files into a Hadoop file system (a device through objfs), checking every record on the
 * way with {@link Wc98Reader}; gzip files are stored decompressed, as the binary records the analyses
 * read. All or nothing: each file is copied to a hidden temporary name beside its destination, and
 * only when every file was read in full are they renamed into place; after a bad record or an I/O
 * error, the temporaries are deleted and nothing is loaded.
 *
 * <p>The target is a directory (files keep their names, {@code .gz} dropped) when it exists as one,
 * ends with {@code /}, or when several files are loaded; otherwise it is the one file's new name.
 */
public final class TraceLoader {
  private static final Logger LOG = LoggerFactory.getLogger(TraceLoader.class);

  private TraceLoader() {}

  /** One loaded file. */
  public record Loaded(java.nio.file.Path source, Path destination, long records, long bytes) {}

  public static List<Loaded> load(Configuration conf, List<java.nio.file.Path> files, String target, boolean overwrite)
      throws IOException {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no file to load");
    }
    for (java.nio.file.Path f : files) {
      if (!Files.isRegularFile(f)) {
        throw new IOException("no such file: " + f);
      }
    }
    Path targetPath = new Path(target);
    FileSystem fs = targetPath.getFileSystem(conf);
    targetPath = fs.makeQualified(targetPath);
    boolean targetIsDirectory = target.endsWith("/") || files.size() > 1 || isDirectory(fs, targetPath);

    List<Path> destinations = new ArrayList<>();
    Set<Path> seen = new HashSet<>();
    for (java.nio.file.Path f : files) {
      Path d = targetIsDirectory ? new Path(targetPath, storedName(f)) : targetPath;
      if (!seen.add(d)) {
        throw new IllegalArgumentException("two files would load into " + d);
      }
      if (fs.exists(d)) {
        FileStatus st = fs.getFileStatus(d);
        if (st.isDirectory() || !overwrite) {
          throw new FileAlreadyExistsException(d + " already exists" + (st.isDirectory() ? " as a directory" : "")
              + (overwrite || st.isDirectory() ? "" : " (--force replaces it)"));
        }
      }
      destinations.add(d);
    }

    Path directory = targetIsDirectory ? targetPath : targetPath.getParent();
    boolean createdDirectory = directory != null && !fs.exists(directory);
    List<Path> temporaries = new ArrayList<>();
    List<Path> placed = new ArrayList<>();
    List<Loaded> loaded = new ArrayList<>();
    boolean done = false;
    try {
      if (createdDirectory) {
        fs.mkdirs(directory);
      }
      for (int i = 0; i < files.size(); i++) {
        Path d = destinations.get(i);
        Path temporary = new Path(d.getParent(), "." + d.getName() + "._COPYING_");
        temporaries.add(temporary);
        long records = copy(fs, files.get(i), temporary);
        loaded.add(new Loaded(files.get(i), d, records, fs.getFileStatus(temporary).getLen()));
      }
      for (int i = 0; i < destinations.size(); i++) {
        Path d = destinations.get(i);
        if (overwrite && fs.exists(d)) {
          fs.delete(d, false);
        }
        if (!fs.rename(temporaries.get(i), d)) {
          throw new IOException("could not rename " + temporaries.get(i) + " to " + d);
        }
        placed.add(d);
      }
      done = true;
      return loaded;
    } finally {
      if (!done) {
        for (Path p : temporaries) {
          deleteQuietly(fs, p);
        }
        for (Path p : placed) {
          deleteQuietly(fs, p);
        }
        if (createdDirectory) {
          deleteQuietly(fs, directory);
        }
      }
    }
  }

  /** The name a file is stored under: its own, without {@code .gz}. */
  static String storedName(java.nio.file.Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".gz") && name.length() > 3 ? name.substring(0, name.length() - 3) : name;
  }

  private static long copy(FileSystem fs, java.nio.file.Path source, Path temporary) throws IOException {
    try (Wc98Reader reader = Wc98Reader.open(source);
        TraceWriter writer = TraceWriter.open(fs.create(temporary, true), TraceFormat.BINARY)) {
      return reader.forEach(writer);
    }
  }

  private static boolean isDirectory(FileSystem fs, Path p) throws IOException {
    try {
      return fs.getFileStatus(p).isDirectory();
    } catch (java.io.FileNotFoundException e) {
      return false;
    }
  }

  private static void deleteQuietly(FileSystem fs, Path p) {
    try {
      fs.delete(p, true);
    } catch (IOException e) {
      LOG.warn("could not delete {}: {}", p, e.toString());
    }
  }
}
