package org.smartssd.device.runtime;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive lock on {@code <dataDir>/device.lock} that a running device holds, and that
 * {@code fsck} takes too, so that neither runs while the other does (in this process or another).
 */
final class DataDirectoryLock implements Closeable {
  private final FileChannel file;
  private final FileLock lock;

  private DataDirectoryLock(FileChannel file, FileLock lock) {
    this.file = file;
    this.lock = lock;
  }

  /** Takes the lock of an existing data directory, or says who holds it. */
  static DataDirectoryLock acquire(Path dataDir) throws IOException {
    FileChannel file = FileChannel.open(dataDir.resolve("device.lock"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    FileLock acquired;
    try {
      acquired = file.tryLock();
    } catch (OverlappingFileLockException e) {
      acquired = null;
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
    if (acquired == null) {
      file.close();
      throw new IOException("data directory " + dataDir + " is in use by another device (or by fsck)");
    }
    return new DataDirectoryLock(file, acquired);
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      file.close();
    }
  }
}
