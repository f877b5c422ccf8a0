package org.smartssd.examples.loganalysis;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/** Adds up the counts of a key: the combiner (partial reduce) and the reducer (global merge) of both scenarios. */
public class CountSumReducer extends Reducer<Text, LongWritable, Text, LongWritable> {
  private final LongWritable sum = new LongWritable();

  @Override
  protected void reduce(Text key, Iterable<LongWritable> counts, Context context)
      throws IOException, InterruptedException {
    long total = 0;
    for (LongWritable c : counts) {
      total += c.get();
    }
    sum.set(total);
    context.write(key, sum);
  }
}
