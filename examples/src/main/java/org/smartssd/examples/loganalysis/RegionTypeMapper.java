package org.smartssd.examples.loganalysis;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Requests per (region, file type), the ordinary way (host-normal and device modes): reads the server
 * and type bytes of each record and emits ("REGION\tTYPE", 1); {@link CountSumReducer} is the combiner
 * and the reducer, and the driver ranks the small result (top 5 per region).
 */
public class RegionTypeMapper extends Mapper<LongWritable, BytesWritable, Text, LongWritable> {
  private static final LongWritable ONE = new LongWritable(1);
  private final Text[] keys = RecordFields.regionTypeKeys();

  @Override
  protected void map(LongWritable offset, BytesWritable record, Context context)
      throws IOException, InterruptedException {
    int region = RecordFields.region(offset, record, context);
    int type = RecordFields.type(offset, record, context);
    context.write(keys[region * RecordFields.TYPES + type], ONE);
  }
}
