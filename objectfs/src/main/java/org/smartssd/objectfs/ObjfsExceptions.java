package org.smartssd.objectfs;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.NotDirectoryException;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.smartssd.device.DeviceException;

/**
 * The one place device failures become Hadoop's exceptions (S3A's {@code translateException}).
 * Every message names the operation and the path as an {@code objfs://host:port/path} URI, so the
 * device and the path are both in it; the device's own exception is kept as the cause.
 */
final class ObjfsExceptions {
  private ObjfsExceptions() {}

  /** What was being done; {@code lookup} operations only look a path up, never create under it. */
  enum Op {
    CONNECT("connect", false),
    STATUS("getFileStatus", true),
    LIST("listStatus", true),
    OPEN("open", true),
    READ("read", true),
    DELETE("delete", true),
    MKDIRS("mkdirs", false),
    CREATE("create", false),
    APPEND("append", false),
    WRITE("write", false),
    FLUSH("hflush", false),
    SYNC("hsync", false),
    CLOSE("close", false),
    RENAME_LOOKUP("rename", true),
    RENAME("rename", false),
    SET_PERMISSION("setPermission", true),
    SET_OWNER("setOwner", true),
    SET_TIMES("setTimes", true),
    DEVICE_INFO("getStatus", false);

    final String verb;
    final boolean lookup;

    Op(String verb, boolean lookup) {
      this.verb = verb;
      this.lookup = lookup;
    }
  }

  /**
   * Translates a failure of the device client.
   *
   * @param op what was being done
   * @param target the path (or "src to dst"), as an objfs URI
   * @param device the device's {@code host:port}, stripped from the start of the device's message
   */
  static IOException translate(Op op, String target, String device, IOException e) {
    String message = op.verb + " " + target + ": " + detail(device, e);
    IOException translated;
    if (e instanceof FileNotFoundException || e instanceof DeviceException.IsDirectory) {
      // A directory opened as a file is "not a file", as in HDFS: the contract wants FileNotFoundException.
      translated = new FileNotFoundException(message);
    } else if (e instanceof java.nio.file.FileAlreadyExistsException) {
      translated = new FileAlreadyExistsException(message);
    } else if (e instanceof NotDirectoryException) {
      // A lookup through a file finds nothing (exists() must say false); a create under a file is refused.
      translated = op.lookup ? new FileNotFoundException(message) : new ParentNotDirectoryException(message);
    } else if (e instanceof DirectoryNotEmptyException) {
      PathIsNotEmptyDirectoryException notEmpty = new PathIsNotEmptyDirectoryException(target);
      notEmpty.setOperation(op.verb);
      translated = notEmpty;
    } else if (e instanceof EOFException) {
      translated = new EOFException(message);
    } else if (e instanceof DeviceException.LeaseConflict) {
      // HDFS's AlreadyBeingCreatedException lives in hdfs; no common type says "being written".
      translated = new IOException(op.verb + " " + target + ": the file is being written by another writer"
          + " (the device allows one writer per file): " + detail(device, e));
    } else if (e instanceof DeviceException.Corrupt corrupt) {
      // What HDFS raises for a block that fails its checksum: the position is the damaged page's offset.
      translated = new ChecksumException(message, corrupt.offset());
    } else if (e instanceof DeviceException.PermissionDenied) {
      // What HDFS raises when its permission checker refuses (the device's message is in HDFS's words).
      translated = new org.apache.hadoop.security.AccessControlException(message);
    } else if (e instanceof DeviceException.AuthRequired) {
      // What HDFS raises when a connection's SASL authentication fails.
      translated = new org.apache.hadoop.security.AccessControlException(message + " (" + ObjfsConfigKeys.SECRET_FILE
          + ")");
    } else if (e instanceof SocketTimeoutException) {
      String key = op == Op.CONNECT ? ObjfsConfigKeys.CONNECT_TIMEOUT : ObjfsConfigKeys.REQUEST_TIMEOUT;
      translated = new DeviceTimeoutException(op.verb + " " + target + ": timed out: " + detail(device, e) + " (" + key
          + ")", e);
    } else if (e instanceof InterruptedIOException) {
      translated = new InterruptedIOException(message);
    } else {
      translated = new IOException(message);
    }
    if (translated.getCause() == null) {
      translated.initCause(e);
    }
    return translated;
  }

  /** The device client's message without its leading "host:port: ", which the target already names. */
  private static String detail(String device, IOException e) {
    String m = String.valueOf(e.getMessage());
    String prefix = device + ": ";
    return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
  }
}
