package org.smartssd.devicemapper;

import java.io.IOException;
import java.util.HexFormat;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;

/**
 * The header of a SequenceFile, read on the host as {@code SequenceFile.Reader} reads it, for the
 * device: the classes of its keys and values, whether its records are compressed, the sync mark
 * that separates them, and where the first record starts.
 *
 * @param headerEnd the file offset of the first record (just past the sync mark)
 */
record SequenceHeader(int version, String keyClass, String valueClass, boolean compressed, boolean blockCompressed,
    String codec, byte[] sync, long headerEnd) {

  private static final byte[] MAGIC = {'S', 'E', 'Q'};
  /** The first version whose class names are {@code Text} strings and that says whether blocks are compressed. */
  private static final int BLOCK_COMPRESS_VERSION = 4;
  private static final int CUSTOM_COMPRESS_VERSION = 5;
  private static final int VERSION_WITH_METADATA = 6;
  private static final int SYNC_HASH_SIZE = 16;

  /**
   * Reads the header of the file at {@code path}.
   *
   * @throws IOException naming the file when it is not a SequenceFile, or one older than version 4
   *     (class names in the old UTF8 form), or newer than this Hadoop reads
   */
  static SequenceHeader read(FileSystem fs, Path path) throws IOException {
    try (FSDataInputStream in = fs.open(path)) {
      byte[] magic = new byte[MAGIC.length];
      in.readFully(magic);
      if (magic[0] != MAGIC[0] || magic[1] != MAGIC[1] || magic[2] != MAGIC[2]) {
        throw new IOException(path + " is not a SequenceFile (it does not start with SEQ)");
      }
      int version = in.readByte();
      if (version < BLOCK_COMPRESS_VERSION || version > VERSION_WITH_METADATA) {
        throw new IOException(path + " is a SequenceFile of version " + version + "; the device reads versions "
            + BLOCK_COMPRESS_VERSION + " to " + VERSION_WITH_METADATA);
      }
      String keyClass = Text.readString(in);
      String valueClass = Text.readString(in);
      boolean compressed = in.readBoolean();
      boolean blockCompressed = in.readBoolean();
      String codec = null;
      if (compressed) {
        codec = version >= CUSTOM_COMPRESS_VERSION ? Text.readString(in)
            : "org.apache.hadoop.io.compress.DefaultCodec";
      }
      if (version >= VERSION_WITH_METADATA) {
        new SequenceFile.Metadata().readFields(in);
      }
      byte[] sync = new byte[SYNC_HASH_SIZE];
      in.readFully(sync);
      return new SequenceHeader(version, keyClass, valueClass, compressed, blockCompressed, codec, sync, in.getPos());
    }
  }

  /** The sync mark in hexadecimal, as the device gets it. */
  String syncHex() {
    return HexFormat.of().formatHex(sync);
  }
}
