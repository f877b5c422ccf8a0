package org.smartssd.examples.loganalysis;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Accesses per region, the ordinary way (host-normal and device modes): reads the server byte of each
 * 20-byte record and emits (region name, 1); {@link CountSumReducer} is the combiner and the reducer.
 */
public class RegionMapper extends Mapper<LongWritable, BytesWritable, Text, LongWritable> {
  private static final LongWritable ONE = new LongWritable(1);
  private final Text[] keys = RecordFields.regionKeys();

  @Override
  protected void map(LongWritable offset, BytesWritable record, Context context)
      throws IOException, InterruptedException {
    context.write(keys[RecordFields.region(offset, record, context)], ONE);
  }
}
