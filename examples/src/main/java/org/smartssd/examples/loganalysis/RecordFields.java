package org.smartssd.examples.loganalysis;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.smartssd.examples.wc98.FileType;
import org.smartssd.examples.wc98.Region;
import org.smartssd.examples.wc98.Wc98Record;

/**
 * The two fields the analyses read from a 20-byte record (docs/WC98.md), checked as the trace's own
 * checker does, and the job's keys: a region's name, or a region's and a type's names separated by a
 * tab (so that the reducer's text output reads {@code REGION<TAB>TYPE<TAB>COUNT}).
 */
final class RecordFields {
  static final int TYPE_OFFSET = 18;
  static final int SERVER_OFFSET = 19;
  static final int REGIONS = Region.values().length;
  static final int TYPES = FileType.values().length;

  private RecordFields() {}

  /** The key of each region, by code. */
  static Text[] regionKeys() {
    Text[] keys = new Text[REGIONS];
    for (Region r : Region.values()) {
      keys[r.code()] = new Text(r.displayName());
    }
    return keys;
  }

  /** The key of each (region, type), at {@code region * TYPES + type}. */
  static Text[] regionTypeKeys() {
    Text[] keys = new Text[REGIONS * TYPES];
    for (Region r : Region.values()) {
      for (FileType t : FileType.values()) {
        keys[r.code() * TYPES + t.code()] = new Text(regionTypeKey(r, t));
      }
    }
    return keys;
  }

  static String regionTypeKey(Region region, FileType type) {
    return region.displayName() + '\t' + type.displayName();
  }

  /** The region code (0-3) of a record, from its server byte. */
  static int region(LongWritable offset, BytesWritable record, Mapper<?, ?, ?, ?>.Context context)
      throws IOException {
    checkLength(offset, record, context);
    int server = record.getBytes()[SERVER_OFFSET] & 0xFF;
    int region = server >>> 5;
    if (region >= REGIONS) {
      throw invalid(offset, context, badRegion(region, server));
    }
    return region;
  }

  /** The type code (0-12) of a record. */
  static int type(LongWritable offset, BytesWritable record, Mapper<?, ?, ?, ?>.Context context)
      throws IOException {
    int type = record.getBytes()[TYPE_OFFSET] & 0xFF;
    if (type >= TYPES) {
      throw invalid(offset, context, "unknown file type " + type + " (types are 0-12)");
    }
    return type;
  }

  /**
   * A record is the trace's 20 bytes, or more when stored padded: then its byte 20 is padding. Records
   * read at another width than they were stored at fail here or in the region check (padding read as a
   * record has server byte 0xff).
   */
  private static void checkLength(LongWritable offset, BytesWritable record, Mapper<?, ?, ?, ?>.Context context)
      throws IOException {
    int length = record.getLength();
    if (length < Wc98Record.BYTES) {
      throw invalid(offset, context, "a record is at least " + Wc98Record.BYTES + " bytes, not " + length
          + " (read the trace with FixedLengthInputFormat, record length " + AnalysisKeys.RECORD_BYTES + ")");
    }
    if (length > Wc98Record.BYTES && record.getBytes()[Wc98Record.BYTES] != Wc98Record.PADDING) {
      throw invalid(offset, context, String.format("byte 20 of a %d-byte record is 0x%02x, not padding (0xff): the "
          + "records are stored narrower than %s=%d says (the trace's own are 20 bytes)", length,
          record.getBytes()[Wc98Record.BYTES] & 0xFF, AnalysisKeys.RECORD_BYTES, length));
    }
  }

  /** Why a record's region is out of range: padding read as a record says so. */
  static String badRegion(int region, int server) {
    return String.format("region %d is not one of 0-3 (server byte 0x%02x)%s", region, server,
        server == (Wc98Record.PADDING & 0xFF) ? ": padding read as a record? the records may be stored wider than "
            + AnalysisKeys.RECORD_BYTES + " says (wc98 load --record-bytes)" : "");
  }

  private static InvalidRecordException invalid(LongWritable offset, Mapper<?, ?, ?, ?>.Context context,
      String problem) {
    return new InvalidRecordException(source(context), offset == null ? -1 : offset.get(), problem);
  }

  /** The input file, when the task knows it (a device lane may not). */
  private static String source(Mapper<?, ?, ?, ?>.Context context) {
    try {
      InputSplit split = context == null ? null : context.getInputSplit();
      if (split instanceof FileSplit) {
        return ((FileSplit) split).getPath().toString();
      }
    } catch (RuntimeException e) {
      // a context without a split: name no file
    }
    return null;
  }
}
