package org.smartssd.devicemapper;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The mapper of a job configured by {@link DeviceJobClient}: an identity over the partial (key,
 * value) pairs the device returns, which go on to the ordinary shuffle, where the job's reducers do
 * the global merge. When the split's map runs on the host instead (the device refused or failed the
 * tasklet, or fallback is {@code always}), its record reader returns the raw records, and this
 * mapper runs the job's real mapper over them with the task's own context: its output, counters and
 * split are the task's, exactly as in the unchanged job.
 */
public class DeviceMapper extends Mapper<Object, Object, Object, Object> {

  @Override
  @SuppressWarnings({"rawtypes", "unchecked"})
  public void run(Context context) throws IOException, InterruptedException {
    if (context.getInputSplit() instanceof DeviceSplit split && split.ranOnHost()) {
      Mapper real = ReflectionUtils.newInstance(DeviceMapperSettings.realMapper(context.getConfiguration()),
          context.getConfiguration());
      real.run(context);
      return;
    }
    setup(context);
    try {
      while (context.nextKeyValue()) {
        context.write(context.getCurrentKey(), context.getCurrentValue());
      }
    } finally {
      cleanup(context);
    }
  }
}
