package org.smartssd.device.runtime.objects;

import java.nio.ByteBuffer;
import java.util.TreeMap;

/** One file or directory of the namespace. Guarded by the object store's lock. */
final class Inode {
  final long id;
  final boolean directory;
  Inode parent;
  String name;
  long modificationTimeMillis;
  /** Last access (open or an execution's read), at the store's access time precision. */
  long accessTimeMillis;
  /** Owner and group: interned by the namespace, as few distinct names are shared by many objects. */
  String owner;
  String group;
  /** The sticky bit and rwx for owner, group and others ({@code ObjectStatus.PERMISSION_BITS}). */
  int permission;

  /** Children by name, sorted (directories only). */
  final TreeMap<String, Inode> children;

  // Files only.
  /** Logical page of each page of the file, in order. */
  final LbnList lbns;
  /** Bytes written (and visible to readers). */
  long length;
  /** Bytes acknowledged durable, and the pages whose numbers the journal already holds. */
  long durableLength;
  int committedPages;
  /** The open write handle, or null. */
  WriteHandle writer;
  /** While open for writing: the bytes of the last, partial page (position = length % pageSize). */
  ByteBuffer tail;
  /** The tail holds bytes that are not programmed to flash yet. */
  boolean tailDirty;

  Inode(long id, boolean directory, Inode parent, String name, long modificationTimeMillis, Attributes attributes) {
    this.id = id;
    this.directory = directory;
    this.parent = parent;
    this.name = name;
    this.modificationTimeMillis = modificationTimeMillis;
    this.accessTimeMillis = modificationTimeMillis;
    this.owner = attributes.owner();
    this.group = attributes.group();
    this.permission = attributes.permission();
    this.children = directory ? new TreeMap<>() : null;
    this.lbns = directory ? null : new LbnList();
  }

  String path() {
    if (parent == null) {
      return "/";
    }
    return PathNames.join(parent.path(), name);
  }

  /** Owner, group and permission, as a new object gets them. */
  record Attributes(String owner, String group, int permission) {}

  /** The mode as {@code ls} shows it: {@code drwxr-xr-t}, {@code -rw-r--r--}. */
  String mode() {
    return Modes.format(directory, permission);
  }

  boolean isAncestorOf(Inode other) {
    for (Inode p = other.parent; p != null; p = p.parent) {
      if (p == this) {
        return true;
      }
    }
    return false;
  }
}
