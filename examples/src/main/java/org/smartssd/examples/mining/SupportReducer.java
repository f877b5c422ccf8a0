package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * Apriori's reduce: an itemset's support, the transactions that contain it, summed over every partial
 * count; written ({@code ITEMSET<TAB>SUPPORT}) only when it reaches the minimum support.
 */
public class SupportReducer extends Reducer<Text, IntWritable, Text, LongWritable> {
  private long minSupport;
  private final LongWritable support = new LongWritable();

  @Override
  protected void setup(Context context) {
    minSupport = Candidates.minSupport(context.getConfiguration());
  }

  @Override
  protected void reduce(Text itemset, Iterable<IntWritable> counts, Context context)
      throws IOException, InterruptedException {
    long sum = 0;
    for (IntWritable c : counts) {
      sum += c.get();
    }
    if (sum >= minSupport) {
      support.set(sum);
      context.write(itemset, support);
    }
  }
}
