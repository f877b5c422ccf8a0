package org.smartssd.examples.loganalysis;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Accesses per region with in-mapper combining (host-optimized): counts in an array, emitted once per
 * region in {@link #cleanup}, so no intermediate record is written per input record.
 */
public class InMapperRegionMapper extends Mapper<LongWritable, BytesWritable, Text, LongWritable> {
  private final Text[] keys = RecordFields.regionKeys();
  private final long[] counts = new long[RecordFields.REGIONS];

  @Override
  protected void map(LongWritable offset, BytesWritable record, Context context) throws IOException {
    counts[RecordFields.region(offset, record, context)]++;
  }

  @Override
  protected void cleanup(Context context) throws IOException, InterruptedException {
    LongWritable count = new LongWritable();
    for (int r = 0; r < counts.length; r++) {
      if (counts[r] > 0) {
        count.set(counts[r]);
        context.write(keys[r], count);
      }
    }
  }
}
