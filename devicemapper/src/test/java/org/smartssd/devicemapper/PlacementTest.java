package org.smartssd.devicemapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.smartssd.devicemapper.Jobs.counter;

import java.io.IOException;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code smartssd.mapper.placement}: the map phase placed in the devices, on the host, or where the
 * analytic model predicts it runs faster. The same job over wide records (4 KiB, a cheap map each)
 * goes in the device on the source's SATA profile, whose link is slower than its flash, and on the host
 * where the link outruns the flash and the device has one slow core; a job over 20-byte records, whose
 * per-record work swamps the device's cores, goes on the host. Either way the answer is the job's.
 */
class PlacementTest {
  private static final int WIDE = 4096;
  private static final int WIDE_RECORDS = 4_000;

  @TempDir java.nio.file.Path work;

  /** Records per value of a wide record's first byte, modulo 8. */
  public static class FirstByteMapper extends Mapper<LongWritable, BytesWritable, IntWritable, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final IntWritable key = new IntWritable();

    @Override
    protected void map(LongWritable offset, BytesWritable record, Context context)
        throws IOException, InterruptedException {
      key.set((record.getBytes()[0] & 0xFF) % 8);
      context.write(key, ONE);
    }
  }

  private static Job firstByteCount(Configuration conf, Path input, Path output) throws IOException {
    return TestJobs.countPerKey(conf, "records per first byte", WIDE, FirstByteMapper.class, input, output);
  }

  private static byte[] wideRecords(Map<String, Long> expected) {
    byte[] bytes = new byte[WIDE_RECORDS * WIDE];
    new Random(7).nextBytes(bytes);
    for (int r = 0; r < WIDE_RECORDS; r++) {
      expected.merge(Integer.toString((bytes[r * WIDE] & 0xFF) % 8), 1L, Long::sum);
    }
    return bytes;
  }

  /** Runs the wide-record job with placement auto on a device with these settings; returns its counters. */
  private Counters autoOnWideRecords(Map<String, String> device, String expectedPlacement) throws Exception {
    try (Jobs jobs = Jobs.start(work.resolve(expectedPlacement), true, device)) {
      Map<String, Long> expected = new TreeMap<>();
      jobs.write("/wide/records.bin", wideRecords(expected));
      Configuration conf = jobs.conf();
      conf.set(DeviceMapperConfigKeys.PLACEMENT, "auto");
      Path output = jobs.output();
      Job job = firstByteCount(conf, jobs.path("/wide/records.bin"), output);
      DeviceJobClient.configure(job);
      Configuration configured = job.getConfiguration();
      assertThat(configured.get(DeviceMapperConfigKeys.PLACEMENT_CHOSEN)).isEqualTo(expectedPlacement);
      double predictedDevice = Double.parseDouble(configured.get(DeviceMapperConfigKeys.PLACEMENT_PREDICTED_DEVICE_S));
      double predictedHost = Double.parseDouble(configured.get(DeviceMapperConfigKeys.PLACEMENT_PREDICTED_HOST_S));
      assertThat(predictedDevice).isPositive();
      assertThat(predictedHost).isPositive();
      assertThat(predictedDevice <= predictedHost).isEqualTo(expectedPlacement.equals("device"));
      assertThat(configured.get(DeviceMapperConfigKeys.PLACEMENT_REASON)).contains("modelled");
      Counters counters = Jobs.run(job);
      assertThat(Jobs.counts(output)).isEqualTo(expected);
      assertThat(counter(counters, DeviceCounters.PREDICTED_DEVICE_NANOS))
          .isEqualTo(Math.round(predictedDevice * 1e9));
      assertThat(counter(counters, DeviceCounters.PREDICTED_HOST_NANOS)).isEqualTo(Math.round(predictedHost * 1e9));
      return counters;
    }
  }

  @Test
  void autoPutsWideRecordsInTheDeviceWhenItsFlashOutrunsItsLink() throws Exception {
    Counters counters = autoOnWideRecords(Map.of("smartssd.device.profile", "msst13-sata"), "device");
    assertThat(counter(counters, DeviceCounters.PLACEMENT_DEVICE)).isEqualTo(1);
    assertThat(counter(counters, DeviceCounters.PLACEMENT_HOST)).isZero();
    assertThat(counter(counters, DeviceCounters.DEVICE_EXECUTIONS)).isPositive();
    assertThat(counter(counters, DeviceCounters.HOST_PLACED_SPLITS)).isZero();
  }

  @Test
  void autoPutsThemOnTheHostWhereTheLinkOutrunsTheFlashAndOneSlowCoreCannotKeepUp() throws Exception {
    Counters counters = autoOnWideRecords(Map.of("smartssd.device.profile", "msst13-sata",
        "smartssd.device.link.mb-per-s", "4000", "smartssd.device.isp.cores", "1",
        "smartssd.device.isp.core-mhz", "100"), "host");
    assertThat(counter(counters, DeviceCounters.PLACEMENT_HOST)).isEqualTo(1);
    assertThat(counter(counters, DeviceCounters.PLACEMENT_DEVICE)).isZero();
    assertThat(counter(counters, DeviceCounters.DEVICE_EXECUTIONS)).isZero();
    assertThat(counter(counters, DeviceCounters.HOST_PLACED_SPLITS)).isPositive();
    assertThat(counter(counters, DeviceCounters.FALLBACK_SPLITS)).isZero();
  }

  /**
   * 100,000 random 20-byte records on the device and a region count over them, configured with placement
   * auto; {@code expected} gets the counts the job must find.
   */
  private static Job autoRegionCount(Jobs jobs, long seed, Map<String, Long> expected, Path output)
      throws IOException {
    byte[] records = new byte[100_000 * 20];
    new Random(seed).nextBytes(records);
    for (int r = 0; r < 100_000; r++) {
      expected.merge(Integer.toString((records[r * 20 + 19] & 0xFF) >>> 5), 1L, Long::sum);
    }
    jobs.write("/small/trace.bin", records);
    Configuration conf = jobs.conf();
    conf.set(DeviceMapperConfigKeys.PLACEMENT, "auto");
    Job job = TestJobs.regionCount(conf, jobs.path("/small/trace.bin"), output);
    DeviceJobClient.configure(job);
    return job;
  }

  @Test
  void autoPutsAJobOfSmallRecordsOnTheHostWhereThePerRecordWorkSwampsTheDevicesCores() throws Exception {
    try (Jobs jobs = Jobs.start(work, true)) {
      Map<String, Long> expected = new TreeMap<>();
      Path output = jobs.output();
      Job job = autoRegionCount(jobs, 3, expected, output);
      assertThat(job.getConfiguration().get(DeviceMapperConfigKeys.PLACEMENT_CHOSEN)).isEqualTo("host");
      Counters counters = Jobs.run(job);
      assertThat(Jobs.counts(output)).isEqualTo(expected);
      assertThat(counter(counters, DeviceCounters.PLACEMENT_HOST)).isEqualTo(1);
      assertThat(counter(counters, DeviceCounters.PREDICTED_HOST_NANOS))
          .isLessThan(counter(counters, DeviceCounters.PREDICTED_DEVICE_NANOS));
    }
  }

  /**
   * A device that merges its lanes' results itself (its default, smartssd.device.isp.merge=device): the
   * planner measures the merge in its samples and predicts the device's time with it, near what the
   * device then models for the job.
   */
  @Test
  void autoPricesTheMergeOfADeviceThatMergesOnItsController() throws Exception {
    try (Jobs jobs = Jobs.start(work, true, Map.of("smartssd.device.isp.merge", "device",
        "smartssd.device.flash.channels", "128", "smartssd.device.isp.cores", "128"))) {
      Map<String, Long> expected = new TreeMap<>();
      Path output = jobs.output();
      Job job = autoRegionCount(jobs, 5, expected, output);
      double predicted = Double.parseDouble(job.getConfiguration().get(DeviceMapperConfigKeys.PLACEMENT_PREDICTED_DEVICE_S));
      // Run it in the devices, whatever auto chose, to compare.
      job.getConfiguration().set(DeviceMapperConfigKeys.PLACEMENT_CHOSEN, "device");
      Counters counters = Jobs.run(job);
      assertThat(Jobs.counts(output)).isEqualTo(expected);
      double modelled = counter(counters, DeviceCounters.MODELLED_DEVICE_NANOS) / 1e9;
      assertThat(predicted).as("predicted against modelled").isCloseTo(modelled, within(0.15 * modelled));
    }
  }

  @Test
  void placementHostRunsEverySplitOnTheHostAndDeviceIsTheDefault() throws Exception {
    try (Jobs jobs = Jobs.start(work, true)) {
      Map<String, Long> expected = new TreeMap<>();
      jobs.write("/wide/records.bin", wideRecords(expected));
      Configuration conf = jobs.conf();
      conf.set(DeviceMapperConfigKeys.PLACEMENT, "host");
      Path hostOut = jobs.output();
      Job host = firstByteCount(conf, jobs.path("/wide/records.bin"), hostOut);
      DeviceJobClient.configure(host);
      Counters h = Jobs.run(host);
      assertThat(Jobs.counts(hostOut)).isEqualTo(expected);
      assertThat(counter(h, DeviceCounters.PLACEMENT_HOST)).isEqualTo(1);
      assertThat(counter(h, DeviceCounters.DEVICE_EXECUTIONS)).isZero();
      assertThat(counter(h, DeviceCounters.PREDICTED_DEVICE_NANOS)).isZero(); // nothing was predicted

      Path deviceOut = jobs.output();
      Job device = firstByteCount(jobs.conf(), jobs.path("/wide/records.bin"), deviceOut);
      DeviceJobClient.configure(device);
      assertThat(device.getConfiguration().get(DeviceMapperConfigKeys.PLACEMENT_CHOSEN)).isEqualTo("device");
      Counters d = Jobs.run(device);
      assertThat(Jobs.counts(deviceOut)).isEqualTo(expected);
      assertThat(counter(d, DeviceCounters.PLACEMENT_DEVICE)).isEqualTo(1);
      assertThat(counter(d, DeviceCounters.DEVICE_EXECUTIONS)).isPositive();
    }
  }

  @Test
  void aBadPlacementIsRefusedByName() throws Exception {
    Configuration conf = new Configuration();
    conf.set(DeviceMapperConfigKeys.PLACEMENT, "anywhere");
    Job job = firstByteCount(conf, new Path(work.resolve("in").toUri()), new Path(work.resolve("out").toUri()));
    assertThatThrownBy(() -> DeviceJobClient.configure(job))
        .hasMessageContaining(DeviceMapperConfigKeys.PLACEMENT).hasMessageContaining("anywhere");
  }
}
