package org.smartssd.device.runtime.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.smartssd.device.runtime.flash.FlashArray;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;
import org.smartssd.device.runtime.timing.TimingModel;

/**
 * The object store's parts wired as {@link ObjectStore} wires them, but without its lock, over real
 * flash files in a temporary directory: for the tests of one part. Its wall clock is set by hand.
 */
final class StoreParts implements AutoCloseable {
  static final int PAGE = StoreFixture.GEOMETRY.pageSizeBytes();

  final AtomicLong clockMillis = new AtomicLong(1_000);
  final FlashArray flash;
  final FlashTranslationLayer ftl;
  final Namespace namespace;
  final FileReads reads;
  final OpenFiles openFiles;
  final NamespaceJournal journal;

  private StoreParts(Path dir, long checkpointLogBytes) throws IOException {
    TimingModel timing = new TimingModel(StoreFixture.GEOMETRY, StoreFixture.TIMING, System::nanoTime);
    flash = FlashArray.open(dir, StoreFixture.GEOMETRY, timing);
    ftl = new FlashTranslationLayer(StoreFixture.GEOMETRY, 20, 2, flash);
    namespace = new Namespace(PAGE, ftl, clockMillis::get, this::fileRemoved, TestCallers.POLICY);
    reads = new FileReads(namespace, ftl, StoreFixture.GEOMETRY);
    openFiles = new OpenFiles(StoreFixture.GEOMETRY, ftl, reads, clockMillis::get);
    journal = NamespaceJournal.open(dir, namespace, ftl, checkpointLogBytes);
  }

  private void fileRemoved(Inode file) {
    openFiles.forget(file);
  }

  static StoreParts open(Path dir) throws IOException {
    return new StoreParts(dir, 1 << 20);
  }

  static StoreParts open(Path dir, long checkpointLogBytes) throws IOException {
    return new StoreParts(dir, checkpointLogBytes);
  }

  static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new java.util.Random(seed).nextBytes(b);
    return b;
  }

  /** What {@link ObjectStore} does at sync and close. */
  void commit(Inode file) throws IOException {
    openFiles.programPartialTail(file, null);
    journal.commit(file, null);
  }

  /** A new file at {@code path} (its parent exists) holding {@code data}, committed and closed. */
  Inode writeFile(String path, byte[] data) throws Exception {
    Inode file = namespace.create(path, PathNames.split(path), false, 0644, TestCallers.DEVICE, journal);
    journal.commitMetadata();
    Object owner = new Object();
    long h = openFiles.openNew(file, owner);
    openFiles.write(h, ByteBuffer.wrap(data), owner, null);
    commit(file);
    openFiles.release(openFiles.handle(h, owner));
    return file;
  }

  /** Every byte of {@code file}. */
  byte[] readAll(Inode file) throws Exception {
    ByteBuffer all = reads.read(file.id, 0, (int) file.length, null);
    byte[] out = new byte[all.remaining()];
    all.get(out);
    return out;
  }

  /** Closes cleanly. */
  @Override
  public void close() throws IOException {
    journal.close();
    flash.close();
  }
}
