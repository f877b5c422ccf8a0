package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * A job's old-API combiner ({@code org.apache.hadoop.mapred.Reducer}, named by {@link
 * OldApi#COMBINER_CLASS}) as a new-API reducer: made and configured for each combine, {@code reduce}
 * per key with the values' iterator, {@code close} at the end, as Hadoop's {@code OldCombinerRunner}
 * drives it. In the device, the class it makes must be the job's own.
 */
public class OldApiCombiner extends Reducer<Object, Object, Object, Object> {
  @SuppressWarnings("rawtypes")
  private org.apache.hadoop.mapred.Reducer combiner;

  @Override
  @SuppressWarnings("rawtypes")
  protected void setup(Context context) throws IOException {
    JobConf conf = new JobConf(context.getConfiguration());
    Class<?> c = conf.getClass(OldApi.COMBINER_CLASS, null, org.apache.hadoop.mapred.Reducer.class);
    if (c == null) {
      throw new IOException(OldApi.COMBINER_CLASS + " is not set: the job was not configured with "
          + "DeviceJobClient.configure(JobConf)");
    }
    combiner = (org.apache.hadoop.mapred.Reducer) ReflectionUtils.newInstance(c, conf);
  }

  @Override
  @SuppressWarnings("unchecked")
  protected void reduce(Object key, Iterable<Object> values, Context context) throws IOException {
    combiner.reduce(key, values.iterator(), OldApi.collector(context), OldApi.reporter(context));
  }

  @Override
  protected void cleanup(Context context) throws IOException {
    combiner.close();
  }
}
