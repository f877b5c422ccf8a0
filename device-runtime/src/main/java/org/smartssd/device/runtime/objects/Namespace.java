package org.smartssd.device.runtime.objects;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;

/**
 * The namespace: the tree of directories and files, and each object's metadata (id, name, parent,
 * modification time; for a file its length and its logical pages). It finds objects by path and by
 * id, and makes the changes with HDFS-like semantics: mkdirs, create (one writer a file: an open file
 * is not replaced), atomic rename, recursive delete. A removed file's logical pages go back to the
 * flash translation layer, and {@code fileRemoved} hears of it (its writer loses its handle).
 *
 * <p>Every change is reported to the {@link Changes} it is given (the namespace journal, in a running
 * store) at the point the journal's order needs it. The journal's replay and checkpoint loading change
 * the tree through {@link #attach}, {@link #move} and {@link #remove}, which report nothing.
 *
 * <p>Not thread-safe: the object store's lock guards it, lookups under its read lock and changes
 * under its write lock.
 */
final class Namespace {
  static final long ROOT_ID = 1;

  /** Where the namespace reports its changes as it makes them (the namespace journal records them). */
  interface Changes {
    /** Directory {@code dir} was just attached. */
    void mkdir(Inode dir);

    /**
     * File {@code file}, not attached yet, is about to take its name in its parent, replacing object
     * {@code replacedId} (0: none).
     */
    void create(Inode file, long replacedId);

    /** {@code node} is about to move to {@code newParent} as {@code newName}. */
    void rename(Inode node, Inode newParent, String newName, long timeMillis);

    /** {@code node} and everything under it is about to be removed. */
    void delete(Inode node);
  }

  private final int pageSize;
  private final FlashTranslationLayer ftl;
  private final LongSupplier wallClockMillis;
  private final Consumer<Inode> fileRemoved;
  private final Inode root;
  private final Map<Long, Inode> byId = new HashMap<>();
  private long nextId = ROOT_ID + 1;

  Namespace(int pageSize, FlashTranslationLayer ftl, LongSupplier wallClockMillis, Consumer<Inode> fileRemoved) {
    this.pageSize = pageSize;
    this.ftl = ftl;
    this.wallClockMillis = wallClockMillis;
    this.fileRemoved = fileRemoved;
    this.root = new Inode(ROOT_ID, true, null, "", wallClockMillis.getAsLong());
    byId.put(ROOT_ID, root);
  }

  Inode root() {
    return root;
  }

  /** Objects in the namespace, the root included. */
  int size() {
    return byId.size();
  }

  /** The object with id {@code id}, or null. */
  Inode byId(long id) {
    Found last = lastFound;
    if (last != null && last.id == id) {
      return last.node;
    }
    Inode node = byId.get(id);
    if (node != null) {
      lastFound = new Found(id, node);
    }
    return node;
  }

  /** An id and its inode, as {@link #byId} last found them. */
  private record Found(long id, Inode node) {}

  /**
   * The last inode {@link #byId} found: an execution's lanes ask for the same file at every page they
   * read, and the map's lookup missed the cache each time (a tenth of a record count's lane time).
   * Lookups run under the store's read lock, changes under its write lock, which forgets it.
   */
  private volatile Found lastFound;

  long nextId() {
    return nextId;
  }

  /** The next id, as a checkpoint stored it. */
  void restoreNextId(long id) {
    nextId = id;
  }

  /** Object {@code id} exists (replayed from the journal): ids are never given out twice. */
  void noteIdUsed(long id) {
    nextId = Math.max(nextId, id + 1);
  }

  // ---- lookups ----

  Inode resolve(String path, List<String> names) throws StoreException {
    Inode node = root;
    for (int i = 0; i < names.size(); i++) {
      if (!node.directory) {
        throw new StoreException(Status.PARENT_NOT_DIRECTORY, "'" + node.path() + "' in '" + path + "' is a file");
      }
      Inode child = node.children.get(names.get(i));
      if (child == null) {
        throw new StoreException(Status.NOT_FOUND, "'" + path + "' does not exist");
      }
      node = child;
    }
    return node;
  }

  Inode resolveParent(String path, List<String> names) throws StoreException {
    Inode node = root;
    for (int i = 0; i < names.size() - 1; i++) {
      Inode child = node.children.get(names.get(i));
      if (child == null) {
        throw new StoreException(Status.NOT_FOUND, "parent of '" + path + "' does not exist");
      }
      if (!child.directory) {
        throw new StoreException(Status.PARENT_NOT_DIRECTORY, "'" + child.path() + "' in '" + path + "' is a file");
      }
      node = child;
    }
    return node;
  }

  ObjectStatus status(String path, List<String> names) throws StoreException {
    return statusOf(resolve(path, names), path);
  }

  /** Up to {@code limit} entries of directory {@code path} after {@code startAfter}; a file lists itself. */
  Listing list(String path, List<String> names, String startAfter, int limit) throws StoreException {
    Inode node = resolve(path, names);
    if (!node.directory) {
      return new Listing(List.of(statusOf(node, path)), false);
    }
    List<ObjectStatus> entries = new ArrayList<>(Math.min(limit, node.children.size()));
    Iterator<Inode> it = (startAfter.isEmpty() ? node.children : node.children.tailMap(startAfter, false))
        .values().iterator();
    while (it.hasNext() && entries.size() < limit) {
      Inode child = it.next();
      entries.add(statusOf(child, PathNames.join(path, child.name)));
    }
    return new Listing(entries, it.hasNext());
  }

  private static ObjectStatus statusOf(Inode node, String path) {
    return new ObjectStatus(path, node.directory, node.directory ? 0 : node.length,
        node.modificationTimeMillis, node.id);
  }

  // ---- changes ----

  /** Makes the missing directories of {@code path}; whether there were any. */
  boolean mkdirs(String path, List<String> names, Changes changes) throws StoreException {
    Inode dir = root;
    long now = wallClockMillis.getAsLong();
    boolean changed = false;
    for (int i = 0; i < names.size(); i++) {
      Inode child = dir.children.get(names.get(i));
      if (child == null) {
        Inode made = new Inode(nextId++, true, dir, names.get(i), now);
        attach(made);
        changes.mkdir(made);
        child = made;
        changed = true;
      } else if (!child.directory) {
        Status status = i == names.size() - 1 ? Status.ALREADY_EXISTS : Status.PARENT_NOT_DIRECTORY;
        throw new StoreException(status, "'" + child.path() + "' is a file");
      }
      dir = child;
    }
    return changed;
  }

  /**
   * Makes an empty file at {@code path} (not the root), replacing a file there if {@code overwrite}
   * and nobody writes it; its parent must exist.
   */
  Inode create(String path, List<String> names, boolean overwrite, Changes changes) throws StoreException {
    Inode parent = resolveParent(path, names);
    String name = names.get(names.size() - 1);
    Inode existing = parent.children.get(name);
    if (existing != null) {
      if (existing.directory) {
        throw new StoreException(Status.ALREADY_EXISTS, "'" + path + "' is a directory");
      }
      if (!overwrite) {
        throw new StoreException(Status.ALREADY_EXISTS, "'" + path + "' already exists");
      }
      if (existing.writer != null) {
        throw new StoreException(Status.LEASE_CONFLICT, "'" + path + "' is open for writing");
      }
    }
    Inode file = new Inode(nextId++, false, parent, name, wallClockMillis.getAsLong());
    changes.create(file, existing == null ? 0 : existing.id);
    if (existing != null) {
      remove(existing);
    }
    attach(file);
    return file;
  }

  /** Moves {@code source} to {@code destination}; whether anything moved (not when they are the same). */
  boolean rename(String source, List<String> from, String destination, List<String> to, Changes changes)
      throws StoreException {
    if (from.isEmpty()) {
      throw new StoreException(Status.BAD_REQUEST, "the root directory cannot be renamed");
    }
    Inode node = resolve(source, from);
    if (to.isEmpty()) {
      throw new StoreException(Status.ALREADY_EXISTS, "'/' already exists");
    }
    Inode newParent = resolveParent(destination, to);
    String newName = to.get(to.size() - 1);
    if (newParent == node.parent && newName.equals(node.name)) {
      return false;
    }
    if (newParent.children.containsKey(newName)) {
      throw new StoreException(Status.ALREADY_EXISTS, "'" + destination + "' already exists");
    }
    if (newParent == node || node.isAncestorOf(newParent)) {
      throw new StoreException(Status.BAD_REQUEST,
          "cannot move '" + source + "' into its own subtree '" + destination + "'");
    }
    changes.rename(node, newParent, newName, wallClockMillis.getAsLong());
    move(node, newParent, newName);
    return true;
  }

  /**
   * Deletes {@code path}, and all under it if {@code recursive}; deleting the root empties it.
   * Whether anything was deleted.
   */
  boolean delete(String path, List<String> names, boolean recursive, Changes changes)
      throws StoreException {
    Inode node = resolve(path, names);
    if (node.directory && !node.children.isEmpty() && !recursive) {
      throw new StoreException(Status.DIRECTORY_NOT_EMPTY, "directory '" + path + "' is not empty");
    }
    List<Inode> targets = node == root ? new ArrayList<>(root.children.values()) : List.of(node);
    for (Inode target : targets) {
      changes.delete(target);
      remove(target);
    }
    return !targets.isEmpty();
  }

  // ---- the tree itself (also what replay uses) ----

  void attach(Inode node) {
    node.parent.children.put(node.name, node);
    byId.put(node.id, node);
    lastFound = null;
  }

  void move(Inode node, Inode newParent, String newName) {
    node.parent.children.remove(node.name);
    node.parent = newParent;
    node.name = newName;
    newParent.children.put(newName, node);
  }

  /** Detaches a subtree and frees its files' pages; {@code fileRemoved} hears of each file first. */
  void remove(Inode top) {
    top.parent.children.remove(top.name);
    Deque<Inode> todo = new ArrayDeque<>();
    todo.push(top);
    while (!todo.isEmpty()) {
      Inode node = todo.pop();
      byId.remove(node.id);
      lastFound = null;
      if (node.directory) {
        node.children.values().forEach(todo::push);
      } else {
        fileRemoved.accept(node);
        for (int i = 0; i < node.lbns.size(); i++) {
          ftl.releaseLbn(node.lbns.get(i));
        }
      }
    }
  }

  // ---- the files as a whole ----

  /** Every file, in path order. */
  List<Inode> filesByPath() {
    List<Inode> files = new ArrayList<>();
    for (Inode node : byId.values()) {
      if (!node.directory) {
        files.add(node);
      }
    }
    files.sort(Comparator.comparing(Inode::path));
    return files;
  }

  long fileCount() {
    return byId.values().stream().filter(n -> !n.directory).count();
  }

  /** Committed pages of all files (what a check of every page reads). */
  long committedPages() {
    long n = 0;
    for (Inode node : byId.values()) {
      if (!node.directory) {
        n += node.committedPages;
      }
    }
    return n;
  }

  /** Logical pages owned by files after recovery; checks each file has exactly its pages. */
  BitSet ownedLbns() throws IOException {
    BitSet owned = new BitSet(ftl.logicalPages());
    for (Inode node : byId.values()) {
      if (node.directory) {
        continue;
      }
      long expected = (node.length + pageSize - 1) / pageSize;
      if (node.lbns.size() != expected) {
        throw new IOException("metadata corrupt: '" + node.path() + "' has " + node.length + " bytes but "
            + node.lbns.size() + " pages");
      }
      for (int i = 0; i < node.lbns.size(); i++) {
        int lbn = node.lbns.get(i);
        if (owned.get(lbn)) {
          throw new IOException("metadata corrupt: logical page " + lbn + " belongs to two files");
        }
        owned.set(lbn);
      }
    }
    return owned;
  }

  /** The files with a committed page on {@code channel}, for messages: their count and the first few paths. */
  String filesOnChannel(int channel) {
    List<String> paths = new ArrayList<>();
    int count = 0;
    for (Inode node : byId.values()) {
      if (node.directory) {
        continue;
      }
      for (int i = 0; i < node.committedPages; i++) {
        int ppa = ftl.ppaOf(node.lbns.get(i));
        if (ppa >= 0 && ftl.flash().addressing().channel(ppa) == channel) {
          count++;
          if (paths.size() < 5) {
            paths.add("'" + node.path() + "'");
          }
          break;
        }
      }
    }
    return count + " file" + (count == 1 ? "" : "s") + (paths.isEmpty() ? "" : ": " + String.join(", ", paths)
        + (count > paths.size() ? ", ..." : ""));
  }
}
