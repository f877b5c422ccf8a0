package org.smartssd.device.runtime.objects;

/** The one writer of a file: its handle number and the connection that owns it. */
final class WriteHandle {
  final long id;
  final Inode inode;
  final Object owner;

  WriteHandle(long id, Inode inode, Object owner) {
    this.id = id;
    this.inode = inode;
    this.owner = owner;
  }
}
