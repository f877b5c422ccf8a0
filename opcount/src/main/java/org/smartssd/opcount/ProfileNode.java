package org.smartssd.opcount;

/**
 * One call path of a {@link ProfileTree}: the work counted in a method while it was called through the
 * path from the tree's root to here, its own work only (the work of the methods it called is in its
 * children). Only the thread that owns the tree writes it; others read it racily ({@link
 * ProfileTree#copy()}), seeing every node made (their identity fields are final) and counts that may lag.
 */
public final class ProfileNode {
  /** The method ({@link MethodNames}), or {@link #ROOT}. */
  final int method;
  final ProfileNode parent;
  final int depth;
  final ProfileTree tree;
  /** Whether it stands for work deeper than the tree keeps paths for, per method ({@link ProfileTree#flat}). */
  final boolean flat;
  long ops;
  long memory;
  long calls;
  long bulk;
  long reads;
  private int[] childMethods = EMPTY_IDS;
  private ProfileNode[] children = EMPTY_NODES;
  private int size;

  /** The method of a tree's root: no method (work done before any counted method was entered). */
  public static final int ROOT = -1;
  private static final int[] EMPTY_IDS = new int[0];
  private static final ProfileNode[] EMPTY_NODES = new ProfileNode[0];

  ProfileNode(ProfileTree tree, ProfileNode parent, int method, boolean flat) {
    this.tree = tree;
    this.parent = parent;
    this.method = method;
    this.depth = parent == null ? 0 : parent.depth + 1;
    this.flat = flat;
  }

  /** The node of {@code callee} called from here, made the first time (past the tree's bounds, a flat one). */
  ProfileNode child(int callee) {
    if (flat) {
      return tree.flat(callee);
    }
    int at = find(callee);
    if (at >= 0) {
      return children[at];
    }
    if (depth >= tree.maxDepth || !tree.takeNode()) {
      return tree.flat(callee);
    }
    ProfileNode c = new ProfileNode(tree, this, callee, false);
    append(c);
    return c;
  }

  /** The child of that method, or null. */
  ProfileNode existing(int callee) {
    int at = find(callee);
    return at >= 0 ? children[at] : null;
  }

  /** Adds a child (of a method it has none of yet). */
  void append(ProfileNode c) {
    if (size == childMethods.length) {
      int n = Math.max(4, size * 2);
      ProfileNode[] grownChildren = java.util.Arrays.copyOf(children, n);
      int[] grownIds = java.util.Arrays.copyOf(childMethods, n);
      grownIds[size] = c.method;
      grownChildren[size] = c;
      children = grownChildren; // a reader sees the old arrays or the new ones
      childMethods = grownIds;
    } else {
      childMethods[size] = c.method;
      children[size] = c;
    }
    size++;
    if (size > LINEAR) {
      index(size - 1);
    }
  }

  /** Children looked for one by one up to this many; past it, through {@link #slots}. */
  private static final int LINEAR = 8;
  /** Past {@link #LINEAR} children: an open-addressing table of their positions + 1 (0: empty). */
  private int[] slots;

  private int find(int callee) {
    if (size <= LINEAR) {
      int[] ids = childMethods;
      for (int i = 0, n = size; i < n; i++) {
        if (ids[i] == callee) {
          return i;
        }
      }
      return -1;
    }
    int mask = slots.length - 1;
    for (int s = mix(callee) & mask; ; s = (s + 1) & mask) {
      int p = slots[s];
      if (p == 0) {
        return -1;
      }
      if (childMethods[p - 1] == callee) {
        return p - 1;
      }
    }
  }

  /** Puts child {@code i} in the table, growing it to keep it at most half full. */
  private void index(int i) {
    if (slots == null || size * 2 > slots.length) {
      slots = new int[Integer.highestOneBit(size * 4)];
      for (int j = 0; j < size; j++) {
        place(j);
      }
    } else {
      place(i);
    }
  }

  private void place(int i) {
    int mask = slots.length - 1;
    int s = mix(childMethods[i]) & mask;
    while (slots[s] != 0) {
      s = (s + 1) & mask;
    }
    slots[s] = i + 1;
  }

  private static int mix(int id) {
    int h = id * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  /** Adds counts to this node's own work. */
  void add(long ops, long memory, long calls, long bulk, long reads) {
    this.ops += ops;
    this.memory += memory;
    this.calls += calls;
    this.bulk += bulk;
    this.reads += reads;
  }

  /** The method, or {@link #ROOT}. */
  public int method() {
    return method;
  }

  /** Whether this node holds a method's work below the tree's bounds, whatever its path there. */
  public boolean flat() {
    return flat;
  }

  /** This node's own work. */
  public OpCounts counts() {
    return new OpCounts(ops, memory, calls, bulk, reads);
  }

  /** The callees seen so far (a snapshot; racy when another thread owns the tree). */
  public java.util.List<ProfileNode> children() {
    ProfileNode[] c = children;
    java.util.List<ProfileNode> list = new java.util.ArrayList<>(c.length);
    for (ProfileNode n : c) {
      if (n != null) {
        list.add(n);
      }
    }
    return list;
  }
}
