package org.smartssd.examples.mining;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Reads real graphs: graph-tool's binary {@code .gt} format (plain or gzip, {@code .gt.gz}: the format
 * of the networks Debian's {@code python3-graph-tool} package ships in
 * {@code /usr/lib/python3/dist-packages/graph_tool/collection/}, such as {@code polblogs.gt.gz}, a web
 * graph of hyperlinks between political blogs), and SNAP-style edge lists (any other name, plain or
 * {@code .gz}: a line {@code SOURCE TARGET} an edge, whitespace between, {@code #} comments).
 *
 * <p>Of a {@code .gt} file only the adjacency is read (its property maps follow it and are skipped). An
 * undirected graph's edges are taken both ways (one arc each way, a self-loop once). When the file's
 * comment states its size, as graph-tool writes it ("stats: N vertices, E edges"), the graph read is
 * checked against it. An edge list's node ids are renumbered 0 to N - 1 in increasing order.
 */
public final class GraphFiles {
  /** graph-tool's magic: "⛾ gt" in UTF-8. */
  private static final byte[] MAGIC = {(byte) 0xe2, (byte) 0x9b, (byte) 0xbe, 0x20, 0x67, 0x74};
  private static final Pattern STATS = Pattern.compile("stats: (\\d+) vertices, (\\d+) edges");
  /** The most arcs a graph read here may have (they are held in arrays). */
  static final long MAX_ARCS = 200_000_000L;

  private GraphFiles() {}

  /** Reads a graph file, by its name: graph-tool's {@code .gt} or {@code .gt.gz}, else an edge list. */
  public static Graph read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("no such graph file: " + file);
    }
    String name = file.getFileName().toString();
    try (InputStream in = open(file)) {
      if (name.endsWith(".gt") || name.endsWith(".gt.gz")) {
        return readGraphTool(in, file.toString());
      }
      return readEdgeList(in, file.toString());
    }
  }

  private static InputStream open(Path file) throws IOException {
    InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
    return file.getFileName().toString().endsWith(".gz") ? new BufferedInputStream(new GZIPInputStream(raw, 1 << 16),
        1 << 16) : raw;
  }

  /** graph-tool's binary format (https://graph-tool.skewed.de/doc/gt_format.html): header and adjacency. */
  static Graph readGraphTool(InputStream stream, String name) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    byte[] magic = in.readNBytes(MAGIC.length);
    try {
      if (!Arrays.equals(magic, MAGIC)) {
        throw new IOException(name + " is not a graph-tool binary file (it does not start with '⛾ gt')");
      }
      int version = in.readUnsignedByte();
      if (version != 1) {
        throw new IOException(name + ": graph-tool format version " + version + ", not 1");
      }
      boolean bigEndian = in.readBoolean();
      long commentLength = unsigned(in, 8, bigEndian, name, "the comment's length");
      if (commentLength > 1 << 20) {
        throw new IOException(name + ": a comment of " + commentLength + " bytes");
      }
      byte[] comment = new byte[(int) commentLength];
      in.readFully(comment);
      boolean directed = in.readBoolean();
      long n = unsigned(in, 8, bigEndian, name, "the number of vertices");
      if (n > Integer.MAX_VALUE) {
        throw new IOException(name + ": " + n + " vertices, more than this reader holds");
      }
      int width = n < 1L << 8 ? 1 : n < 1L << 16 ? 2 : n < 1L << 32 ? 4 : 8;
      int[] sources = new int[1024];
      int[] targets = new int[1024];
      int arcs = 0;
      long edges = 0;
      for (int v = 0; v < n; v++) {
        long degree = unsigned(in, 8, bigEndian, name, "vertex " + v + "'s out-degree");
        if (edges + degree > MAX_ARCS) {
          throw new IOException(name + ": more than " + MAX_ARCS + " edges");
        }
        for (long i = 0; i < degree; i++) {
          long u = unsigned(in, width, bigEndian, name, "vertex " + v + "'s neighbour " + i);
          if (u >= n) {
            throw new IOException(name + ": vertex " + v + " has neighbour " + u + ", but there are " + n + " vertices");
          }
          edges++;
          int copies = directed || u == v ? 1 : 2;
          if (arcs + copies > sources.length) {
            int size = (int) Math.min(Integer.MAX_VALUE - 8, 2L * sources.length);
            sources = Arrays.copyOf(sources, size);
            targets = Arrays.copyOf(targets, size);
          }
          sources[arcs] = v;
          targets[arcs++] = (int) u;
          if (copies == 2) {
            sources[arcs] = (int) u;
            targets[arcs++] = v;
          }
        }
      }
      Matcher stats = STATS.matcher(new String(comment, StandardCharsets.UTF_8));
      if (stats.find() && (Long.parseLong(stats.group(1)) != n || Long.parseLong(stats.group(2)) != edges)) {
        throw new IOException(name + ": its comment says " + stats.group(1) + " vertices and " + stats.group(2)
            + " edges, but its adjacency holds " + n + " and " + edges);
      }
      return new Graph((int) n, Arrays.copyOf(sources, arcs), Arrays.copyOf(targets, arcs), String.format(
          java.util.Locale.ROOT, "%s (graph-tool format, %s, %,d vertices, %,d edges%s)", name,
          directed ? "directed" : "undirected", n, edges, directed ? "" : ", each taken both ways"));
    } catch (EOFException e) {
      throw new IOException(name + " ends before its graph does (a truncated graph-tool file)", e);
    }
  }

  private static long unsigned(DataInputStream in, int width, boolean bigEndian, String name, String what)
      throws IOException {
    long v = 0;
    for (int i = 0; i < width; i++) {
      long b = in.readUnsignedByte();
      v = bigEndian ? v << 8 | b : v | b << (8 * i);
    }
    if (v < 0) {
      throw new IOException(name + ": " + what + " is " + Long.toUnsignedString(v) + ", too large");
    }
    return v;
  }

  /** A SNAP-style edge list: {@code SOURCE TARGET} a line, {@code #} comments, ids renumbered in order. */
  static Graph readEdgeList(InputStream stream, String name) throws IOException {
    BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
    long[] ends = new long[2048];
    int count = 0;
    long lineNumber = 0;
    for (String line = r.readLine(); line != null; line = r.readLine()) {
      lineNumber++;
      String t = line.trim();
      if (t.isEmpty() || t.startsWith("#") || t.startsWith("%")) {
        continue;
      }
      String[] f = t.split("\\s+");
      if (f.length < 2) {
        throw new IOException(name + " line " + lineNumber + ": '" + line + "' is not SOURCE TARGET");
      }
      if (count + 2 > ends.length) {
        if (ends.length >= 2 * MAX_ARCS) {
          throw new IOException(name + ": more than " + MAX_ARCS + " edges");
        }
        ends = Arrays.copyOf(ends, 2 * ends.length);
      }
      try {
        ends[count] = Long.parseLong(f[0]);
        ends[count + 1] = Long.parseLong(f[1]);
      } catch (NumberFormatException e) {
        throw new IOException(name + " line " + lineNumber + ": '" + line + "': node ids must be whole numbers");
      }
      count += 2;
    }
    long[] ids = Arrays.stream(ends, 0, count).sorted().distinct().toArray();
    if (ids.length == 0) {
      throw new IOException(name + " holds no edge");
    }
    Map<Long, Integer> number = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      number.put(ids[i], i);
    }
    int[] sources = new int[count / 2];
    int[] targets = new int[count / 2];
    for (int i = 0; i < count / 2; i++) {
      sources[i] = number.get(ends[2 * i]);
      targets[i] = number.get(ends[2 * i + 1]);
    }
    return new Graph(ids.length, sources, targets, String.format(java.util.Locale.ROOT,
        "%s (edge list, %,d nodes, %,d edges)", name, ids.length, sources.length));
  }
}
