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

  Inode(long id, boolean directory, Inode parent, String name, long modificationTimeMillis) {
    this.id = id;
    this.directory = directory;
    this.parent = parent;
    this.name = name;
    this.modificationTimeMillis = modificationTimeMillis;
    this.children = directory ? new TreeMap<>() : null;
    this.lbns = directory ? null : new LbnList();
  }

  String path() {
    if (parent == null) {
      return "/";
    }
    return PathNames.join(parent.path(), name);
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
