package org.smartssd.opcount;

/**
 * The counted work of one thread (or of several, {@link #add added} up), by call path: a calling
 * context tree whose nodes hold each method's own work on each path it was called through. A thread
 * fills it while its {@link OpMeter} profiles into it ({@link OpMeter#startProfile}): every counted
 * method, as it is entered, returns or resumes at an exception handler, hands the work counted since the
 * last of these to the node it ran in, so that the tree's work adds up to exactly the meter's over the
 * same time, and profiling changes no count.
 *
 * <p>Bounded: paths deeper than {@link #maxDepth} methods, and every path made once the tree has {@link
 * #maxNodes} nodes, keep their work per method only, under one node, {@link #DEEPER}: {@link #flat}.
 *
 * <p>A call from counted code into uncounted code that calls counted code back (a {@code HashMap}
 * asking a key for its hash) shows as a call from the first to the last: the uncounted code in between
 * is not seen, and its work is the caller's library calls.
 */
public final class ProfileTree {
  /** The name under which work past the tree's bounds is kept per method. */
  public static final String DEEPER = "(deeper paths, per method)";

  /** Paths kept, in methods from the root. */
  public static final int DEFAULT_MAX_DEPTH = 96;
  /** Nodes kept before new paths are kept per method only. */
  public static final int DEFAULT_MAX_NODES = 20_000;
  /**
   * Nodes kept by a thread profiling into its own tree, and by their sum ({@link
   * OpMeter#profileEveryThread}): a host runs Hadoop's whole job machinery, whose paths are many.
   */
  public static final int EVERY_THREAD_MAX_NODES = 200_000;

  final int maxDepth;
  private final int maxNodes;
  private int nodes;
  private final ProfileNode root;
  /** The node under which {@link #flat} nodes hang, made at the first. */
  private ProfileNode deeper;

  public ProfileTree() {
    this(DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES);
  }

  public ProfileTree(int maxDepth, int maxNodes) {
    if (maxDepth < 1 || maxNodes < 1) {
      throw new IllegalArgumentException("a profile keeps at least one method deep and one node, not depth "
          + maxDepth + " and " + maxNodes + " nodes");
    }
    this.maxDepth = maxDepth;
    this.maxNodes = maxNodes;
    this.root = new ProfileNode(this, null, ProfileNode.ROOT, false);
  }

  /** The root: its own work is what was counted outside any counted method (none, on a device's lanes). */
  public ProfileNode root() {
    return root;
  }

  /** Whether some work was kept per method only ({@link #DEEPER}). */
  public boolean truncated() {
    return deeper != null;
  }

  /** The node past the bounds, or null if none was needed; its children are {@link #flat} nodes. */
  public ProfileNode deeper() {
    return deeper;
  }

  /** One more node, if the tree may have it. */
  boolean takeNode() {
    if (nodes >= maxNodes) {
      return false;
    }
    nodes++;
    return true;
  }

  /** The node that holds {@code method}'s work past the bounds, whatever its path. */
  ProfileNode flat(int method) {
    if (deeper == null) {
      deeper = new ProfileNode(this, null, ProfileNode.ROOT, true);
    }
    ProfileNode n = deeper.existing(method);
    if (n == null) {
      n = new ProfileNode(this, deeper, method, true);
      deeper.append(n);
    }
    return n;
  }

  /** The sum of every node's work. */
  public OpCounts total() {
    OpCounts[] sum = {OpCounts.ZERO};
    walk(new Visitor() {
      @Override
      public void node(int[] path, int depth, OpCounts own, boolean flat) {
        sum[0] = sum[0].plus(own);
      }
    });
    return sum[0];
  }

  /** What {@link #walk} tells of each node. */
  public interface Visitor {
    /**
     * @param path the methods from the root, {@code path[0..depth)}; valid only during the call
     * @param own the node's own work
     * @param flat whether {@code path} is only the method, its work past the tree's bounds ({@link #DEEPER})
     */
    void node(int[] path, int depth, OpCounts own, boolean flat);
  }

  /** Visits every node with work, the root (depth 0) first, then depth first; then the flat ones. */
  public void walk(Visitor v) {
    int[] path = new int[maxDepth + 2];
    walk(root, path, 0, v);
    ProfileNode d = deeper;
    if (d != null) {
      for (ProfileNode n : d.children()) {
        OpCounts own = n.counts();
        if (!own.isZero()) {
          path[0] = n.method;
          v.node(path, 1, own, true);
        }
      }
    }
  }

  private static void walk(ProfileNode n, int[] path, int depth, Visitor v) {
    OpCounts own = n.counts();
    if (!own.isZero()) {
      v.node(path, depth, own, false);
    }
    for (ProfileNode c : n.children()) {
      path[depth] = c.method;
      walk(c, path, depth + 1, v);
    }
  }

  /** Adds another tree's work into this one, path by path (for a thread's tree once it has ended). */
  public void add(ProfileTree other) {
    other.walk((path, depth, own, isFlat) -> {
      ProfileNode n;
      if (isFlat) {
        n = flat(path[0]);
      } else {
        n = root;
        for (int i = 0; i < depth; i++) {
          n = n.child(path[i]);
        }
      }
      n.add(own.ops(), own.memoryAccesses(), own.libraryCalls(), own.bulkBytes(), own.libraryReads());
    });
  }

  /** Adds work at the path of another tree's node. */
  void addAt(ProfileNode elsewhere, OpCounts work) {
    ProfileNode n;
    if (elsewhere.flat) {
      n = elsewhere.method == ProfileNode.ROOT ? root : flat(elsewhere.method);
    } else {
      int[] path = new int[elsewhere.depth];
      for (ProfileNode p = elsewhere; p.parent != null; p = p.parent) {
        path[p.depth - 1] = p.method;
      }
      n = root;
      for (int m : path) {
        n = n.child(m);
      }
    }
    n.add(work.ops(), work.memoryAccesses(), work.libraryCalls(), work.bulkBytes(), work.libraryReads());
  }

  /** A copy of this tree as it stands (racy, and so possibly a little behind, when another thread fills it). */
  public ProfileTree copy() {
    ProfileTree t = new ProfileTree(maxDepth, maxNodes);
    t.add(this);
    return t;
  }
}
