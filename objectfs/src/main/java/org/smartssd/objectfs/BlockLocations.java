package org.smartssd.objectfs;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;

/**
 * Where a file's bytes are, as MapReduce asks for locality: one location per block, every one on
 * the host the device is attached to (a device is one node's).
 */
final class BlockLocations {
  private BlockLocations() {}

  /**
   * The blocks of {@code blockSize} bytes, counted from the file's start, that hold any byte of
   * {@code [start, start + len)} (the block at {@code start} for {@code len} 0); none for a
   * directory or a start at or past the end.
   *
   * @param port the device's port, for the locations' {@code host:port} names
   */
  static BlockLocation[] of(FileStatus file, long start, long len, long blockSize, String host, int port) {
    long fileLength = file.getLen();
    if (file.isDirectory() || start >= fileLength) {
      return new BlockLocation[0];
    }
    long end = len >= fileLength - start ? fileLength : start + Math.max(len, 1);
    String[] hosts = {host};
    String[] names = {host + ":" + port};
    List<BlockLocation> blocks = new ArrayList<>();
    for (long block = start / blockSize; block * blockSize < end; block++) {
      long offset = block * blockSize;
      blocks.add(new BlockLocation(names, hosts, offset, Math.min(blockSize, fileLength - offset)));
    }
    return blocks.toArray(new BlockLocation[0]);
  }
}
