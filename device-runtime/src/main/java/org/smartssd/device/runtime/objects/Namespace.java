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
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;

/**
 * The namespace: the tree of directories and files, and each object's metadata (id, name, parent,
 * owner, group, permission, modification and access times; for a file its length and its logical
 * pages). It finds objects by path and by id, and makes the changes with HDFS-like semantics: mkdirs,
 * create (one writer a file: an open file is not replaced), atomic rename, recursive delete, and
 * the setting of permissions, owners and times. Every lookup and change checks the caller's
 * permissions on the way, with HDFS's rules (PROTOCOL.md, "Users and permissions"). A removed
 * file's logical pages go back to the flash translation layer, and {@code fileRemoved} hears of it
 * (its writer loses its handle).
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
    /** Directory {@code dir} was just attached (its parent's modification time set to its own). */
    void mkdir(Inode dir);

    /**
     * File {@code file}, not attached yet, is about to take its name in its parent, replacing object
     * {@code replacedId} (0: none).
     */
    void create(Inode file, long replacedId);

    /** {@code node} is about to move to {@code newParent} as {@code newName}. */
    void rename(Inode node, Inode newParent, String newName, long timeMillis);

    /** {@code node} and everything under it is about to be removed, at {@code timeMillis}. */
    void delete(Inode node, long timeMillis);

    /** The owner, group, permission or times of {@code node} changed (they are as they are now). */
    void attributes(Inode node);
  }

  private final int pageSize;
  private final FlashTranslationLayer ftl;
  private final LongSupplier wallClockMillis;
  private final Consumer<Inode> fileRemoved;
  private final AccessPolicy policy;
  private final Inode root;
  private final Map<Long, Inode> byId = new HashMap<>();
  /** Owner and group names, one string each however many objects carry it. */
  private final Map<String, String> names = new HashMap<>();
  private long nextId = ROOT_ID + 1;

  Namespace(int pageSize, FlashTranslationLayer ftl, LongSupplier wallClockMillis, Consumer<Inode> fileRemoved,
      AccessPolicy policy) {
    this.pageSize = pageSize;
    this.ftl = ftl;
    this.wallClockMillis = wallClockMillis;
    this.fileRemoved = fileRemoved;
    this.policy = policy;
    this.root = new Inode(ROOT_ID, true, null, "", wallClockMillis.getAsLong(), legacyAttributes(true));
    byId.put(ROOT_ID, root);
  }

  /**
   * What an object gets that was made before the device kept owners (by a data directory of an
   * earlier version), and the root of a new device: the device's user, the supergroup, 0755 or 0644.
   */
  Inode.Attributes legacyAttributes(boolean directory) {
    return new Inode.Attributes(intern(policy.deviceUser()), intern(policy.superGroup()),
        directory ? ProtocolConstants.DEFAULT_DIRECTORY_PERMISSION : ProtocolConstants.DEFAULT_FILE_PERMISSION);
  }

  /** The one copy of an owner or group name. */
  String intern(String name) {
    return names.computeIfAbsent(name, n -> n);
  }

  AccessPolicy policy() {
    return policy;
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

  /**
   * The object at {@code path}, checking that {@code caller} may search every directory above it
   * (HDFS's traversal check: execute on each, from the root down, before looking inside it).
   */
  Inode resolve(String path, List<String> names, Caller caller) throws StoreException {
    Inode node = root;
    for (int i = 0; i < names.size(); i++) {
      if (!node.directory) {
        throw new StoreException(Status.PARENT_NOT_DIRECTORY, "'" + node.path() + "' in '" + path + "' is a file");
      }
      check(caller, node, Modes.EXECUTE);
      Inode child = node.children.get(names.get(i));
      if (child == null) {
        throw new StoreException(Status.NOT_FOUND, "'" + path + "' does not exist");
      }
      node = child;
    }
    return node;
  }

  /** The directory {@code path} would be in, checking that {@code caller} may search it and those above it. */
  Inode resolveParent(String path, List<String> names, Caller caller) throws StoreException {
    Inode node = root;
    for (int i = 0; i < names.size() - 1; i++) {
      check(caller, node, Modes.EXECUTE);
      Inode child = node.children.get(names.get(i));
      if (child == null) {
        throw new StoreException(Status.NOT_FOUND, "parent of '" + path + "' does not exist");
      }
      if (!child.directory) {
        throw new StoreException(Status.PARENT_NOT_DIRECTORY, "'" + child.path() + "' in '" + path + "' is a file");
      }
      node = child;
    }
    check(caller, node, Modes.EXECUTE);
    return node;
  }

  ObjectStatus status(String path, List<String> names, Caller caller) throws StoreException {
    return statusOf(resolve(path, names, caller), path);
  }

  /**
   * Up to {@code limit} entries of directory {@code path} after {@code startAfter}, which the caller
   * must be able to read and search; a file lists itself.
   */
  Listing list(String path, List<String> names, String startAfter, int limit, Caller caller) throws StoreException {
    Inode node = resolve(path, names, caller);
    if (!node.directory) {
      return new Listing(List.of(statusOf(node, path)), false);
    }
    check(caller, node, Modes.READ | Modes.EXECUTE);
    List<ObjectStatus> entries = new ArrayList<>(Math.min(limit, node.children.size()));
    Iterator<Inode> it = (startAfter.isEmpty() ? node.children : node.children.tailMap(startAfter, false))
        .values().iterator();
    while (it.hasNext() && entries.size() < limit) {
      Inode child = it.next();
      entries.add(statusOf(child, PathNames.join(path, child.name)));
    }
    return new Listing(entries, it.hasNext());
  }

  static ObjectStatus statusOf(Inode node, String path) {
    return new ObjectStatus(path, node.directory, node.directory ? 0 : node.length,
        node.modificationTimeMillis, node.id, node.owner, node.group, node.permission, node.accessTimeMillis);
  }

  // ---- permissions ----

  /**
   * Checks that {@code caller} has {@code access} (bits of {@link Modes}) to {@code node}: by the
   * owner's bits when it owns it, else the group's when it is in its group, else the others'.
   *
   * @throws StoreException PERMISSION_DENIED, in HDFS's words
   */
  void check(Caller caller, Inode node, int access) throws StoreException {
    if (caller.bypass()) {
      return;
    }
    int shift = caller.user().equals(node.owner) ? 6 : caller.isIn(node.group) ? 3 : 0;
    if (((node.permission >> shift) & access) != access) {
      throw denied(caller, Modes.action(access), node);
    }
  }

  /** The caller must own {@code node} (or pass every check). */
  void checkOwner(Caller caller, Inode node) throws StoreException {
    if (!caller.bypass() && !caller.user().equals(node.owner)) {
      throw new StoreException(Status.PERMISSION_DENIED, "Permission denied. user=" + caller.user() + " is not the owner"
          + " of inode=" + node.path());
    }
  }

  /**
   * A sticky directory lets only the owner of an entry, or of the directory, remove or move the
   * entry (HDFS's and Unix's restricted deletion).
   */
  private void checkSticky(Caller caller, Inode parent, Inode node) throws StoreException {
    if (caller.bypass() || (parent.permission & Modes.STICKY) == 0) {
      return;
    }
    if (!caller.user().equals(parent.owner) && !caller.user().equals(node.owner)) {
      throw new StoreException(Status.PERMISSION_DENIED, "Permission denied by sticky bit: user=" + caller.user()
          + ", path=\"" + node.path() + "\":" + node.owner + ":" + node.group + ":" + node.mode()
          + ", parent=\"" + parent.path() + "\":" + parent.owner + ":" + parent.group + ":" + parent.mode());
    }
  }

  /** Every directory in the tree under and including {@code top} that is not empty: the caller needs rwx on it. */
  private void checkSubtree(Caller caller, Inode top) throws StoreException {
    if (caller.bypass() || !top.directory) {
      return;
    }
    Deque<Inode> todo = new ArrayDeque<>();
    todo.push(top);
    while (!todo.isEmpty()) {
      Inode dir = todo.pop();
      if (dir.children.isEmpty()) {
        continue;
      }
      check(caller, dir, Modes.ALL);
      for (Inode child : dir.children.values()) {
        if (child.directory) {
          todo.push(child);
        }
      }
    }
  }

  private static StoreException denied(Caller caller, String access, Inode node) {
    return new StoreException(Status.PERMISSION_DENIED, "Permission denied: user=" + caller.user() + ", access="
        + access + ", inode=\"" + node.path() + "\":" + node.owner + ":" + node.group + ":" + node.mode());
  }

  /** A new object of {@code caller} in {@code parent}: the caller owns it, in the parent's group (as HDFS). */
  private Inode.Attributes attributesFor(Caller caller, Inode parent, int permission) {
    return new Inode.Attributes(intern(caller.user()), parent.group, permission);
  }

  // ---- changes ----

  /**
   * Makes the missing directories of {@code path}: the last with {@code permission}, those above it
   * with the owner's write and execute added. The caller must be able to search the directories
   * that exist and write the deepest of them. Whether any was made.
   */
  boolean mkdirs(String path, List<String> names, int permission, Caller caller, Changes changes)
      throws StoreException {
    Inode dir = root;
    long now = wallClockMillis.getAsLong();
    boolean changed = false;
    for (int i = 0; i < names.size(); i++) {
      if (!changed) {
        check(caller, dir, Modes.EXECUTE);
      }
      Inode child = dir.children.get(names.get(i));
      if (child == null) {
        if (!changed) {
          check(caller, dir, Modes.WRITE);
        }
        int mode = i == names.size() - 1 ? permission : permission | Modes.IMPLICIT_PARENT_BITS;
        Inode made = new Inode(nextId++, true, dir, names.get(i), now, attributesFor(caller, dir, mode));
        attach(made);
        dir.modificationTimeMillis = now;
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
   * Makes an empty file at {@code path} (not the root) with {@code permission}, replacing a file
   * there if {@code overwrite} and nobody writes it; its parent must exist. The caller must be able
   * to write the parent, and a file it replaces.
   */
  Inode create(String path, List<String> names, boolean overwrite, int permission, Caller caller, Changes changes)
      throws StoreException {
    Inode parent = resolveParent(path, names, caller);
    String name = names.get(names.size() - 1);
    Inode existing = parent.children.get(name);
    if (existing != null) {
      if (existing.directory) {
        throw new StoreException(Status.ALREADY_EXISTS, "'" + path + "' is a directory");
      }
      if (!overwrite) {
        throw new StoreException(Status.ALREADY_EXISTS, "'" + path + "' already exists");
      }
      check(caller, existing, Modes.WRITE);
    }
    check(caller, parent, Modes.WRITE);
    if (existing != null && existing.writer != null) {
      throw new StoreException(Status.LEASE_CONFLICT, "'" + path + "' is open for writing");
    }
    long now = wallClockMillis.getAsLong();
    Inode file = new Inode(nextId++, false, parent, name, now, attributesFor(caller, parent, permission));
    changes.create(file, existing == null ? 0 : existing.id);
    if (existing != null) {
      remove(existing);
    }
    attach(file);
    parent.modificationTimeMillis = now;
    return file;
  }

  /** The file at {@code path}, for appending: the caller must be able to write it. */
  Inode resolveForAppend(String path, List<String> names, Caller caller) throws StoreException {
    Inode file = resolve(path, names, caller);
    if (!file.directory) {
      check(caller, file, Modes.WRITE);
    }
    return file;
  }

  /** The file at {@code path}, for reading: the caller must be able to read it. */
  Inode resolveForRead(String path, List<String> names, Caller caller) throws StoreException {
    Inode file = resolve(path, names, caller);
    if (!file.directory) {
      check(caller, file, Modes.READ);
    }
    return file;
  }

  /** Sets the permission of {@code path}: the caller must own it. */
  void setPermission(String path, List<String> names, int permission, Caller caller, Changes changes)
      throws StoreException {
    Inode node = resolve(path, names, caller);
    checkOwner(caller, node);
    node.permission = permission;
    changes.attributes(node);
  }

  /**
   * Sets the owner (null or empty: kept) and the group (likewise) of {@code path}. Only a superuser
   * gives an object to someone else; its owner may move it to a group the owner is in.
   */
  void setOwner(String path, List<String> names, String owner, String group, Caller caller, Changes changes)
      throws StoreException {
    Inode node = resolve(path, names, caller);
    boolean newOwner = owner != null && !owner.isEmpty();
    boolean newGroup = group != null && !group.isEmpty();
    if (newOwner) {
      AccessPolicy.checkName("owner", owner);
    }
    if (newGroup) {
      AccessPolicy.checkName("group", group);
    }
    checkOwner(caller, node);
    if (!caller.bypass()) {
      if (newOwner && !owner.equals(caller.user())) {
        throw new StoreException(Status.PERMISSION_DENIED, "User " + caller.user()
            + " is not a super user (non-super user cannot change owner).");
      }
      if (newGroup && !caller.isIn(group)) {
        throw new StoreException(Status.PERMISSION_DENIED, "User " + caller.user() + " does not belong to " + group);
      }
    }
    if (newOwner) {
      node.owner = intern(owner);
    }
    if (newGroup) {
      node.group = intern(group);
    }
    changes.attributes(node);
  }

  /** Sets the modification and access times of {@code path} (-1: kept): the caller must be able to write it. */
  void setTimes(String path, List<String> names, long modificationTimeMillis, long accessTimeMillis, Caller caller,
      Changes changes) throws StoreException {
    Inode node = resolve(path, names, caller);
    check(caller, node, Modes.WRITE);
    if (modificationTimeMillis != ProtocolConstants.KEEP_TIME) {
      node.modificationTimeMillis = modificationTimeMillis;
    }
    if (accessTimeMillis != ProtocolConstants.KEEP_TIME) {
      node.accessTimeMillis = accessTimeMillis;
    }
    changes.attributes(node);
  }

  /**
   * Whether the access time of {@code node} is to be set at {@code now}: it is older than the access
   * time precision (HDFS's rule; a precision of 0 never sets it).
   */
  boolean accessTimeIsStale(Inode node, long now) {
    long precision = policy.accessTimePrecisionMs();
    return precision > 0 && now - node.accessTimeMillis >= precision;
  }

  long now() {
    return wallClockMillis.getAsLong();
  }

  /** Moves {@code source} to {@code destination}; whether anything moved (not when they are the same). */
  boolean rename(String source, List<String> from, String destination, List<String> to, Caller caller,
      Changes changes) throws StoreException {
    if (from.isEmpty()) {
      throw new StoreException(Status.BAD_REQUEST, "the root directory cannot be renamed");
    }
    Inode node = resolve(source, from, caller);
    check(caller, node.parent, Modes.WRITE);
    checkSticky(caller, node.parent, node);
    if (to.isEmpty()) {
      throw new StoreException(Status.ALREADY_EXISTS, "'/' already exists");
    }
    Inode newParent = resolveParent(destination, to, caller);
    check(caller, newParent, Modes.WRITE);
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
    long now = wallClockMillis.getAsLong();
    changes.rename(node, newParent, newName, now);
    node.parent.modificationTimeMillis = now;
    newParent.modificationTimeMillis = now;
    move(node, newParent, newName);
    return true;
  }

  /**
   * Deletes {@code path}, and all under it if {@code recursive}; deleting the root empties it.
   * Whether anything was deleted.
   */
  boolean delete(String path, List<String> names, boolean recursive, Caller caller, Changes changes)
      throws StoreException {
    Inode node = resolve(path, names, caller);
    if (node.directory && !node.children.isEmpty() && !recursive) {
      throw new StoreException(Status.DIRECTORY_NOT_EMPTY, "directory '" + path + "' is not empty");
    }
    // The root has no parent: emptying it takes write on it (and rwx on the tree, as below).
    Inode parent = node == root ? root : node.parent;
    check(caller, parent, Modes.WRITE);
    if (node != root) {
      checkSticky(caller, parent, node);
    }
    checkSubtree(caller, node);
    List<Inode> targets = node == root ? new ArrayList<>(root.children.values()) : List.of(node);
    long now = wallClockMillis.getAsLong();
    for (Inode target : targets) {
      changes.delete(target, now);
      remove(target);
    }
    if (!targets.isEmpty()) {
      parent.modificationTimeMillis = now;
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
