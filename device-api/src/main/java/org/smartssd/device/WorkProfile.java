package org.smartssd.device;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * Counted work by call path: where a tasklet's (or the host's) counted ops, heap accesses, library calls
 * and bulk bytes were spent, each node a method on one path of calls from the code's entry, holding that
 * method's own work there (its callees' is in its children). Its nodes add up to exactly the counted
 * work of what was profiled.
 *
 * <p>A profile is bounded: past a depth or a number of nodes the device keeps a method's work per method
 * only, under the top-level name {@link #DEEPER} ({@link #truncated()} says so).
 *
 * @param methods the methods' names, {@code org.apache.hadoop.io.Text.set}
 * @param nodes every node after its parent
 * @param truncated whether some work is kept per method only, under {@link #DEEPER}
 */
public record WorkProfile(List<String> methods, List<Node> nodes, boolean truncated) {
  /** The name under which work past the profile's bounds is kept per method. */
  public static final String DEEPER = "(deeper paths, per method)";
  /** The name of work counted outside every counted method (on the host: methods running before the profile began). */
  public static final String OUTSIDE = "(outside counted methods)";

  public static final WorkProfile EMPTY = new WorkProfile(List.of(), List.of(), false);

  /** The suffix of the class the device mapper generates beside a job's mapper to call it record by record. */
  static final String MAPPER_DRIVER = "$$SmartSsdMapperDriver";

  /** The owners {@link #owner} groups methods into, in the order reports list them. */
  public static final List<String> OWNERS = List.of("job", "hadoop", "device mapper runtime", "built-in tasklets",
      "outside counted methods");

  /**
   * Whose code a method is, by its class's package: Hadoop's ({@code org.apache.hadoop.}, the library
   * jobs such as {@code TokenCounterMapper} included), the device mapper's runtime ({@code
   * org.smartssd.devicemapper.}, the adapter that runs a Hadoop job as a tasklet, and its host side,
   * with the driver class it generates in each mapper's package, {@code Mapper$$SmartSsdMapperDriver}),
   * the device's built-in tasklets ({@code org.smartssd.device.tasklet.builtin.}), work counted outside
   * every counted method ({@link #OUTSIDE}), and everything else: the job's own code (on the host, the
   * command's too).
   */
  public static String owner(String method) {
    if (method.startsWith("org.apache.hadoop.")) {
      return "hadoop";
    }
    if (method.startsWith("org.smartssd.devicemapper.") || method.contains(MAPPER_DRIVER)) {
      return "device mapper runtime";
    }
    if (method.startsWith("org.smartssd.device.tasklet.builtin.")) {
      return "built-in tasklets";
    }
    if (method.equals(OUTSIDE)) {
      return "outside counted methods";
    }
    return "job";
  }

  /**
   * One method on one path.
   *
   * @param parent the index of the caller's node, smaller than this one's; -1 at the top
   * @param method the index of the method's name in {@link #methods}
   */
  public record Node(int parent, int method, Work own) {
    public Node {
      Objects.requireNonNull(own, "own");
    }
  }

  /** Counted work, as {@link ExecutionStatistics} counts it. */
  public record Work(long ops, long memoryAccesses, long libraryCalls, long bulkBytes, long libraryReads) {
    public static final Work ZERO = new Work(0, 0, 0, 0, 0);

    /** Work without library reads. */
    public Work(long ops, long memoryAccesses, long libraryCalls, long bulkBytes) {
      this(ops, memoryAccesses, libraryCalls, bulkBytes, 0);
    }

    public Work plus(Work o) {
      return new Work(ops + o.ops, memoryAccesses + o.memoryAccesses, libraryCalls + o.libraryCalls,
          bulkBytes + o.bulkBytes, libraryReads + o.libraryReads);
    }

    public Work minus(Work o) {
      return new Work(ops - o.ops, memoryAccesses - o.memoryAccesses, libraryCalls - o.libraryCalls,
          bulkBytes - o.bulkBytes, libraryReads - o.libraryReads);
    }

    public boolean isZero() {
      return ops == 0 && memoryAccesses == 0 && libraryCalls == 0 && bulkBytes == 0 && libraryReads == 0;
    }
  }

  public WorkProfile {
    methods = List.copyOf(methods);
    nodes = List.copyOf(nodes);
    for (int i = 0; i < nodes.size(); i++) {
      Node n = nodes.get(i);
      if (n.parent() < -1 || n.parent() >= i) {
        throw new IllegalArgumentException("node " + i + " names node " + n.parent() + " as its caller: a caller must"
            + " come before its callees");
      }
      if (n.method() < 0 || n.method() >= methods.size()) {
        throw new IllegalArgumentException("node " + i + " names method " + n.method() + " of " + methods.size());
      }
    }
  }

  /** The bytes it takes in a frame (PROTOCOL.md, "Version 7"). */
  public long encodedBytes() {
    return encodedBytes(org.smartssd.device.protocol.ProtocolConstants.MAX_VERSION);
  }

  /** The bytes this profile takes in a frame of protocol {@code version}. */
  public long encodedBytes(int version) {
    int counts = version >= org.smartssd.device.protocol.ProtocolConstants.LIBRARY_READS_VERSION ? 5 : 4;
    long n = 1 + 4 + 4 + (long) nodes.size() * (4 + 4 + counts * 8);
    for (String m : methods) {
      n += 2 + m.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }
    return n;
  }

  /** The profile as bytes, as the protocol's newest version carries it (PROTOCOL.md, "Profiles"), for a file. */
  public byte[] toBytes() {
    java.nio.ByteBuffer b = new org.smartssd.device.protocol.PayloadWriter()
        .workProfile(org.smartssd.device.protocol.ProtocolConstants.MAX_VERSION, this).toByteBuffer();
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    return bytes;
  }

  /**
   * A profile from {@link #toBytes}.
   *
   * @throws IllegalArgumentException naming what is wrong, if the bytes are not one
   */
  public static WorkProfile fromBytes(byte[] bytes) {
    org.smartssd.device.protocol.PayloadReader r = new org.smartssd.device.protocol.PayloadReader(
        java.nio.ByteBuffer.wrap(bytes), "work profile");
    try {
      WorkProfile p = r.workProfile(org.smartssd.device.protocol.ProtocolConstants.MAX_VERSION, "profile");
      r.expectEnd();
      return p;
    } catch (org.smartssd.device.protocol.ProtocolException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** The sum of every node's work. */
  public Work total() {
    Work sum = Work.ZERO;
    for (Node n : nodes) {
      sum = sum.plus(n.own());
    }
    return sum;
  }

  /** The path of methods from the top to node {@code i}. */
  public List<String> path(int i) {
    List<String> path = new ArrayList<>();
    for (int at = i; at >= 0; at = nodes.get(at).parent()) {
      path.add(methods.get(nodes.get(at).method()));
    }
    Collections.reverse(path);
    return path;
  }

  /** Each method's own work, over every path it was called on, the most first (by the given weight). */
  public Map<String, Work> byMethod(ToLongFunction<Work> weight) {
    Map<String, Work> sums = new HashMap<>();
    for (Node n : nodes) {
      sums.merge(methods.get(n.method()), n.own(), Work::plus);
    }
    return sorted(sums, weight);
  }

  /** The work of each group of methods ({@code owner} names a method's group), the most first. */
  public Map<String, Work> byOwner(java.util.function.Function<String, String> owner, ToLongFunction<Work> weight) {
    Map<String, Work> sums = new HashMap<>();
    for (Node n : nodes) {
      sums.merge(owner.apply(methods.get(n.method())), n.own(), Work::plus);
    }
    return sorted(sums, weight);
  }

  private static Map<String, Work> sorted(Map<String, Work> sums, ToLongFunction<Work> weight) {
    List<Map.Entry<String, Work>> entries = new ArrayList<>(sums.entrySet());
    entries.sort((a, b) -> {
      int c = Long.compare(weight.applyAsLong(b.getValue()), weight.applyAsLong(a.getValue()));
      return c != 0 ? c : a.getKey().compareTo(b.getKey());
    });
    Map<String, Work> out = new LinkedHashMap<>();
    for (Map.Entry<String, Work> e : entries) {
      out.put(e.getKey(), e.getValue());
    }
    return out;
  }

  /**
   * Folded stacks, as flamegraph.pl and speedscope read them: a line a path, its methods from the top
   * joined by ';', a space, and the path's own weight (a whole number; paths weighing nothing left out).
   */
  public String folded(ToLongFunction<Work> weight) {
    StringBuilder b = new StringBuilder();
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      long w = weight.applyAsLong(nodes.get(i).own());
      if (w <= 0) {
        continue;
      }
      b.setLength(0);
      for (String frame : path(i)) {
        b.append(b.length() > 0 ? ";" : "").append(frame.replace(';', ',').replace(' ', '_'));
      }
      lines.add(b.append(' ').append(w).toString());
    }
    Collections.sort(lines);
    StringBuilder out = new StringBuilder();
    for (String l : lines) {
      out.append(l).append('\n');
    }
    return out.toString();
  }

  /** This profile's work and another's, path by path. */
  public WorkProfile plus(WorkProfile other) {
    Builder b = new Builder();
    b.add(this, 1);
    b.add(other, 1);
    return b.build(truncated || other.truncated);
  }

  /** This profile's work less another's, path by path (a profile taken later less one taken before). */
  public WorkProfile minus(WorkProfile earlier) {
    Builder b = new Builder();
    b.add(this, 1);
    b.add(earlier, -1);
    return b.build(truncated);
  }

  /** Builds a profile path by path. */
  public static final class Builder {
    private final List<String> methods = new ArrayList<>();
    private final Map<String, Integer> methodIds = new HashMap<>();
    private final List<int[]> nodes = new ArrayList<>(); // parent, method
    private final List<Work> work = new ArrayList<>();
    private final Map<Long, Integer> children = new HashMap<>(); // (parent + 1) << 32 | method -> node

    /** Adds work at a path of method names from the top (at least one). */
    public Builder add(List<String> path, Work own) {
      if (path.isEmpty()) {
        throw new IllegalArgumentException("a path has at least one method");
      }
      int at = -1;
      for (String method : path) {
        at = child(at, method);
      }
      work.set(at, work.get(at).plus(own));
      return this;
    }

    private int child(int parent, String method) {
      int m = methodIds.computeIfAbsent(method, k -> {
        methods.add(k);
        return methods.size() - 1;
      });
      long key = ((long) (parent + 1) << 32) | m;
      Integer node = children.get(key);
      if (node == null) {
        node = nodes.size();
        nodes.add(new int[] {parent, m});
        work.add(Work.ZERO);
        children.put(key, node);
      }
      return node;
    }

    void add(WorkProfile p, int sign) {
      int[] mine = new int[p.nodes.size()];
      for (int i = 0; i < p.nodes.size(); i++) {
        Node n = p.nodes.get(i);
        mine[i] = child(n.parent() < 0 ? -1 : mine[n.parent()], p.methods.get(n.method()));
        Work w = sign > 0 ? n.own() : Work.ZERO.minus(n.own());
        work.set(mine[i], work.get(mine[i]).plus(w));
      }
    }

    /** The profile, leaving out the paths whose work and whose callees' work is all zero. */
    public WorkProfile build(boolean truncated) {
      boolean[] keep = new boolean[nodes.size()];
      for (int i = nodes.size() - 1; i >= 0; i--) {
        if (!work.get(i).isZero()) {
          keep[i] = true;
        }
        if (keep[i] && nodes.get(i)[0] >= 0) {
          keep[nodes.get(i)[0]] = true;
        }
      }
      int[] index = new int[nodes.size()];
      List<Node> out = new ArrayList<>();
      List<String> usedMethods = new ArrayList<>();
      Map<Integer, Integer> methodIndex = new HashMap<>();
      for (int i = 0; i < nodes.size(); i++) {
        if (!keep[i]) {
          continue;
        }
        int[] n = nodes.get(i);
        int m = methodIndex.computeIfAbsent(n[1], k -> {
          usedMethods.add(methods.get(k));
          return usedMethods.size() - 1;
        });
        index[i] = out.size();
        out.add(new Node(n[0] < 0 ? -1 : index[n[0]], m, work.get(i)));
      }
      return new WorkProfile(usedMethods, out, truncated);
    }
  }
}
