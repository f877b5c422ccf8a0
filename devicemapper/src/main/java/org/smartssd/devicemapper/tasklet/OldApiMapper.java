package org.smartssd.devicemapper.tasklet;

import java.io.IOException;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * A job's old-API mapper ({@code org.apache.hadoop.mapred.Mapper}, named by {@link OldApi#MAPPER_CLASS})
 * as a new-API one: made and configured ({@code configure(JobConf)}) at setup, {@code map} per record
 * with an {@code OutputCollector} and a {@code Reporter} over the context, {@code close} at cleanup, as
 * Hadoop's {@code MapRunner} drives it. In the device, the class it makes must be the job's own (the
 * configuration is confined: {@code JobClasses}).
 */
public class OldApiMapper extends Mapper<Object, Object, Object, Object> {
  @SuppressWarnings("rawtypes")
  private org.apache.hadoop.mapred.Mapper mapper;
  private OutputCollector<Object, Object> collector;
  private Reporter reporter;

  @Override
  @SuppressWarnings("unchecked")
  protected void setup(Context context) throws IOException {
    JobConf conf = new JobConf(context.getConfiguration());
    Class<?> c = conf.getClass(OldApi.MAPPER_CLASS, null, org.apache.hadoop.mapred.Mapper.class);
    if (c == null) {
      throw new IOException(OldApi.MAPPER_CLASS + " is not set: the job was not configured with "
          + "DeviceJobClient.configure(JobConf)");
    }
    mapper = (org.apache.hadoop.mapred.Mapper) ReflectionUtils.newInstance(c, conf);
    collector = OldApi.collector(context);
    reporter = OldApi.reporter(context);
  }

  @Override
  @SuppressWarnings("unchecked")
  protected void map(Object key, Object value, Context context) throws IOException {
    mapper.map(key, value, collector, reporter);
  }

  @Override
  protected void cleanup(Context context) throws IOException {
    mapper.close();
  }
}
