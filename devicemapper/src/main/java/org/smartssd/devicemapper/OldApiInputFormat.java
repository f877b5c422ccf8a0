package org.smartssd.devicemapper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ReflectionUtils;
import org.smartssd.devicemapper.tasklet.OldApi;

/**
 * A job's old-API input format ({@code org.apache.hadoop.mapred.InputFormat}, named by {@link
 * OldApi#INPUT_FORMAT_CLASS}) as a new-API one, on the host: its splits (file splits, as the new API's
 * {@code FileSplit}s with their locations) and, for a split whose map runs on the host, its record
 * reader, as the old API's {@code MapTask} uses them.
 */
public class OldApiInputFormat extends InputFormat<Object, Object> {

  @SuppressWarnings("rawtypes")
  private static org.apache.hadoop.mapred.InputFormat old(JobConf conf) throws IOException {
    Class<?> c = conf.getClass(OldApi.INPUT_FORMAT_CLASS, null, org.apache.hadoop.mapred.InputFormat.class);
    if (c == null) {
      throw new IOException(OldApi.INPUT_FORMAT_CLASS + " is not set: the job was not configured with "
          + DeviceJobClient.class.getName() + ".configure(JobConf)");
    }
    return (org.apache.hadoop.mapred.InputFormat) ReflectionUtils.newInstance(c, conf);
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    JobConf conf = new JobConf(context.getConfiguration());
    List<InputSplit> splits = new ArrayList<>();
    for (org.apache.hadoop.mapred.InputSplit s : old(conf).getSplits(conf, conf.getNumMapTasks())) {
      if (!(s instanceof org.apache.hadoop.mapred.FileSplit f)) {
        throw new IOException("the old-API input format " + conf.get(OldApi.INPUT_FORMAT_CLASS) + " made a "
            + s.getClass().getName() + ", not a file split");
      }
      splits.add(new FileSplit(f.getPath(), f.getStart(), f.getLength(), f.getLocations()));
    }
    return splits;
  }

  @Override
  public RecordReader<Object, Object> createRecordReader(InputSplit split, TaskAttemptContext context) {
    return new Reader();
  }

  /** The old API's record reader, its key and value made once and reused, as {@code MapRunner} does. */
  private static final class Reader extends RecordReader<Object, Object> {
    private org.apache.hadoop.mapred.RecordReader<Object, Object> reader;
    private Object key;
    private Object value;

    @Override
    @SuppressWarnings("unchecked")
    public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
      JobConf conf = new JobConf(context.getConfiguration());
      FileSplit f = (FileSplit) split;
      reader = old(conf).getRecordReader(new org.apache.hadoop.mapred.FileSplit(f.getPath(), f.getStart(),
          f.getLength(), f.getLocations()), conf, Reporter.NULL);
      key = reader.createKey();
      value = reader.createValue();
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      return reader.next(key, value);
    }

    @Override
    public Object getCurrentKey() {
      return key;
    }

    @Override
    public Object getCurrentValue() {
      return value;
    }

    @Override
    public float getProgress() throws IOException {
      return reader.getProgress();
    }

    @Override
    public void close() throws IOException {
      if (reader != null) {
        reader.close();
      }
    }
  }
}
