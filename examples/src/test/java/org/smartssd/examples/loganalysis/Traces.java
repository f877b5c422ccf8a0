package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.smartssd.examples.wc98.FileType;
import org.smartssd.examples.wc98.GeneratorParameters;
import org.smartssd.examples.wc98.HttpVersion;
import org.smartssd.examples.wc98.Method;
import org.smartssd.examples.wc98.Region;
import org.smartssd.examples.wc98.Wc98Generator;
import org.smartssd.examples.wc98.Wc98Record;

/** Traces for the tests: generated, hand-made, and written to a device through objfs. */
public final class Traces {
  public static final long TIME = 893_971_817L;

  private Traces() {}

  public static List<Wc98Record> generated(long records) throws IOException {
    List<Wc98Record> out = new ArrayList<>();
    new Wc98Generator(GeneratorParameters.defaults()).generate(records, out::add);
    return out;
  }

  public static Wc98Record record(Region region, FileType type, int i) {
    return Wc98Record.of(TIME + i, 1000 + i % 17, i % 101, 200 + i, Method.GET, HttpVersion.HTTP_1_0, 200, type,
        region, i % 32);
  }

  /**
   * Hand-made: every region and every type; in each region, counts that tie (so ranks 5 and 6 are
   * decided by type code), and one region with fewer than five types.
   */
  public static List<Wc98Record> handMade() {
    List<Wc98Record> out = new ArrayList<>();
    int i = 0;
    // Every (region, type) at least once.
    for (Region r : Region.values()) {
      for (FileType t : FileType.values()) {
        out.add(record(r, t, i++));
      }
    }
    // SANTA_CLARA: IMAGE 6, then HTML, AUDIO, VIDEO, JAVA, FORMATTED all at 3: ties decide ranks 2 to 5
    // by type code, and FORMATTED (code 5) is left out.
    addMore(out, Region.SANTA_CLARA, FileType.IMAGE, 5, i);
    i += 5;
    for (FileType t : List.of(FileType.HTML, FileType.AUDIO, FileType.VIDEO, FileType.JAVA, FileType.FORMATTED)) {
      addMore(out, Region.SANTA_CLARA, t, 2, i);
      i += 2;
    }
    // PARIS: OTHER (code 12) and DIRECTORY (10) tie at the top: DIRECTORY ranks first.
    addMore(out, Region.PARIS, FileType.OTHER, 7, i);
    i += 7;
    addMore(out, Region.PARIS, FileType.DIRECTORY, 7, i);
    i += 7;
    // PLANO: many images, so that records interleave.
    addMore(out, Region.PLANO, FileType.IMAGE, 40, i);
    return out;
  }

  private static void addMore(List<Wc98Record> out, Region r, FileType t, int n, int from) {
    for (int k = 0; k < n; k++) {
      out.add(record(r, t, from + k));
    }
  }

  public static byte[] bytes(List<Wc98Record> records) {
    ByteBuffer b = ByteBuffer.allocate(records.size() * Wc98Record.BYTES);
    records.forEach(r -> r.write(b));
    return b.array();
  }

  public static Path write(FileSystem fs, String path, byte[] content) throws IOException {
    Path p = new Path(path);
    try (OutputStream out = fs.create(p, true)) {
      out.write(content);
    }
    return fs.makeQualified(p);
  }

  public static FileSystem objfs(String address, Configuration conf) throws IOException {
    return FileSystem.newInstance(URI.create("objfs://" + address + "/"), conf);
  }
}
