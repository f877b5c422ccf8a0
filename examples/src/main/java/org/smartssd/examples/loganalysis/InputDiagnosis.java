package org.smartssd.examples.loganalysis;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.smartssd.examples.wc98.Wc98Record;

/**
 * Finds why a job failed when the runner does not say (Hadoop's local runner only logs a task's
 * exception): scans the input for the first record the scenario's mapper refuses, with the checks the
 * mappers make. Used only after a failure.
 */
final class InputDiagnosis {
  private InputDiagnosis() {}

  /** The first problem in the input, or null if every record is one the mappers accept. */
  static String firstProblem(Configuration conf, Scenario scenario, List<Path> inputs) throws IOException {
    int recordBytes = LogAnalysis.recordBytes(conf);
    byte[] record = new byte[recordBytes];
    CompressionCodecFactory codecs = new CompressionCodecFactory(conf);
    for (Path input : inputs) {
      FileSystem fs = input.getFileSystem(conf);
      for (FileStatus file : files(fs, input)) {
        CompressionCodec codec = codecs.getCodec(file.getPath());
        InputStream raw = fs.open(file.getPath());
        // A compressed file's records are read decompressed, to its end; offsets are the decompressed ones.
        long end = codec == null ? file.getLen() : Long.MAX_VALUE;
        try (InputStream in = new BufferedInputStream(codec == null ? raw : codec.createInputStream(raw), 1 << 20)) {
          for (long offset = 0; offset < end; offset += recordBytes) {
            int read;
            try {
              read = readFully(in, record);
            } catch (IOException e) {
              return "cannot read " + file.getPath() + " past byte " + offset + (codec == null ? "" : " decompressed")
                  + ": " + e.getMessage();
            }
            if (read == 0 && codec != null) {
              break; // the compressed file's end
            }
            if (read < recordBytes) {
              return "truncated record at byte offset " + offset + (codec == null ? "" : " (decompressed)") + " of "
                  + file.getPath();
            }
            int server = record[RecordFields.SERVER_OFFSET] & 0xFF;
            if (server >>> 5 >= RecordFields.REGIONS) {
              return new InvalidRecordException(file.getPath().toString(), offset,
                  RecordFields.badRegion(server >>> 5, server)).getMessage();
            }
            if (recordBytes > Wc98Record.BYTES && record[Wc98Record.BYTES] != Wc98Record.PADDING) {
              return new InvalidRecordException(file.getPath().toString(), offset, String.format(
                  "byte 20 of a %d-byte record is 0x%02x, not padding (0xff): the records are stored narrower",
                  recordBytes, record[Wc98Record.BYTES] & 0xFF)).getMessage();
            }
            int type = record[RecordFields.TYPE_OFFSET] & 0xFF;
            if (scenario == Scenario.TOP_TYPES && type >= RecordFields.TYPES) {
              return new InvalidRecordException(file.getPath().toString(), offset,
                  "unknown file type " + type + " (types are 0-12)").getMessage();
            }
          }
        }
      }
    }
    return null;
  }

  private static List<FileStatus> files(FileSystem fs, Path input) throws IOException {
    FileStatus status = fs.getFileStatus(input);
    List<FileStatus> files = new ArrayList<>();
    if (!status.isDirectory()) {
      files.add(status);
      return files;
    }
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(input, true);
    while (it.hasNext()) {
      LocatedFileStatus f = it.next();
      String name = f.getPath().getName();
      if (!name.startsWith("_") && !name.startsWith(".")) {
        files.add(f);
      }
    }
    return files;
  }

  /** Reads {@code b} whole if the stream has that much; the bytes read (fewer only at its end). */
  private static int readFully(InputStream in, byte[] b) throws IOException {
    int n = 0;
    while (n < b.length) {
      int r = in.read(b, n, b.length - n);
      if (r < 0) {
        break;
      }
      n += r;
    }
    return n;
  }
}
