package org.smartssd.examples.loganalysis;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Requests per (region, file type) with in-mapper combining (host-optimized): counts in an array,
 * emitted in {@link #cleanup}, so no intermediate record is written per input record.
 */
public class InMapperRegionTypeMapper extends Mapper<LongWritable, BytesWritable, Text, LongWritable> {
  private final Text[] keys = RecordFields.regionTypeKeys();
  private final long[] counts = new long[RecordFields.REGIONS * RecordFields.TYPES];

  @Override
  protected void map(LongWritable offset, BytesWritable record, Context context) throws IOException {
    int region = RecordFields.region(offset, record, context);
    int type = RecordFields.type(offset, record, context);
    counts[region * RecordFields.TYPES + type]++;
  }

  @Override
  protected void cleanup(Context context) throws IOException, InterruptedException {
    LongWritable count = new LongWritable();
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] > 0) {
        count.set(counts[i]);
        context.write(keys[i], count);
      }
    }
  }
}
