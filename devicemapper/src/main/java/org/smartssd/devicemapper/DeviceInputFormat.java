package org.smartssd.devicemapper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The input format of a job configured by {@link DeviceJobClient}: the splits of the job's own input
 * format (one per object, or per block-sized range of a larger one, with its record or line
 * alignment left to the device, which processes the records starting in a range exactly once), as
 * {@link DeviceSplit}s located on the devices' hosts; and a record reader that has the device run the
 * map over its split and returns the partial (key, value) pairs, or the raw records when the split's
 * map runs on the host.
 */
public class DeviceInputFormat extends InputFormat<Object, Object> {

  @Override
  @SuppressWarnings({"rawtypes", "unchecked"})
  public List<InputSplit> getSplits(JobContext context) throws IOException, InterruptedException {
    InputFormat real = ReflectionUtils.newInstance(DeviceMapperSettings.realInputFormat(context.getConfiguration()),
        context.getConfiguration());
    List<InputSplit> splits = new ArrayList<>();
    for (InputSplit s : (List<InputSplit>) real.getSplits(context)) {
      if (!(s instanceof FileSplit)) {
        throw new IOException("input format " + real.getClass().getName() + " made split " + s + ", not a file split");
      }
      FileSplit f = (FileSplit) s;
      splits.add(new DeviceSplit(f.getPath(), f.getStart(), f.getLength(), f.getLocations()));
    }
    return splits;
  }

  @Override
  public RecordReader<Object, Object> createRecordReader(InputSplit split, TaskAttemptContext context) {
    return new DeviceRecordReader();
  }
}
