package org.smartssd.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.config.DeviceConfigKeys;

class AnalyticModelTest {

  private static DeviceConfig device(String profile, String... keyValues) {
    Map<String, String> keys = new HashMap<>();
    keys.put(DeviceConfigKeys.PROFILE, profile);
    for (int i = 0; i < keyValues.length; i += 2) {
      keys.put(keyValues[i], keyValues[i + 1]);
    }
    return DeviceConfig.load(keys);
  }

  /** A job of 20-byte records whose device lane does {@code laneOps} ops a record and the host {@code hostOps}. */
  private static Workload workload(double laneOps, double hostOps, double resultBytes) {
    Map<Mode, Work> host = Map.of(
        Mode.HOST_NORMAL, new Work(new Counts(hostOps, 0, 0, 0), Counts.ZERO),
        Mode.HOST_OPTIMIZED, new Work(new Counts(hostOps / 4, 0, 0, 0), Counts.ZERO),
        Mode.DEVICE, new Work(Counts.ZERO, new Counts(1_000, 0, 0, 0)));
    return new Workload("test", 20, new Work(new Counts(laneOps, 0, 0, 0), new Counts(500, 0, 0, 0)),
        new Work(new Counts(laneOps / 2, 0, 0, 0), new Counts(500, 0, 0, 0)), new Work(new Counts(2_000 / resultBytes, 0, 0, 0), Counts.ZERO),
        ResultCurve.constant(resultBytes), host, Map.of(Mode.HOST_NORMAL, new Counts(1_000_000, 0, 0, 0)), Counts.ZERO,
        0);
  }

  /**
   * An independent schedule of one channel's page reads, page by page as the device's timing model books
   * them: pages go round the ways; a die reads its cell once it is free, then waits for the bus; it holds
   * the page until the bus has carried it.
   */
  private static double scheduled(long pages, int ways, double read, double bus) {
    double[] dieFree = new double[ways];
    double busFree = 0;
    double end = 0;
    for (long p = 0; p < pages; p++) {
      int die = (int) (p % ways);
      double cellEnd = dieFree[die] + read;
      double busEnd = Math.max(cellEnd, busFree) + bus;
      dieFree[die] = busEnd;
      busFree = busEnd;
      end = busEnd;
    }
    return end;
  }

  @Test
  void channelReadsAreTheInterleavedScheduleInClosedForm() {
    Random random = new Random(13);
    for (int i = 0; i < 500; i++) {
      int ways = 1 + random.nextInt(16);
      long pages = 1 + random.nextInt(2_000);
      long cellRead = 1_000 + random.nextInt(200_000);
      int channelMb = 10 + random.nextInt(1_000);
      DeviceConfig d = device("msst13-sata", DeviceConfigKeys.FLASH_WAYS_PER_CHANNEL, Integer.toString(ways),
          DeviceConfigKeys.FLASH_CELL_READ_NS, Long.toString(cellRead),
          DeviceConfigKeys.FLASH_CHANNEL_MB_PER_S, Integer.toString(channelMb));
      double bus = AnalyticModel.busNanos(d);
      double closed = AnalyticModel.cellToChannelNanos(d, pages);
      assertThat(closed).as("ways %d, pages %d, read %d, bus %.0f", ways, pages, cellRead, bus)
          .isCloseTo(scheduled(pages, ways, cellRead, bus), within(1e-6 * closed));
      // Eq. 1 as published overlaps nothing: never less, and the same with one way.
      double published = AnalyticModel.issdCellToChannelNanos(d, pages);
      assertThat(published).isGreaterThanOrEqualTo(closed - 1e-6);
      if (ways == 1) {
        assertThat(published).isCloseTo(closed, within(1e-6 * closed));
      }
    }
  }

  /**
   * A lane's work comes in bursts: it maps each record, and combines its buffer each time it fills.
   * Against an independent schedule of one lane, record by record (data arriving evenly over the reads,
   * which run ahead of the core; the core taking each record when it is free and the record has
   * arrived; a combine after every buffer's last record; the last buffer's after the reads), the
   * model's execution is within 1% whichever of mapping, combining and reading dominates.
   */
  @Test
  void aLanesCombinesComeInBurstsAndTheCoreWaitsForDataBetweenThem() {
    Random random = new Random(7);
    for (int i = 0; i < 200; i++) {
      double laneOps = 20 + random.nextInt(1_000);
      double combineOps = laneOps * random.nextDouble();
      long buffer = new long[] {1_000, 10_000, 50_000}[random.nextInt(3)];
      long records = 1_600_000 + random.nextInt(400_000);
      String mhz = Integer.toString(100 + random.nextInt(1_500));
      Workload w = new Workload("bursts", 20, new Work(new Counts(laneOps, 0, 0, 0), Counts.ZERO),
          new Work(new Counts(combineOps, 0, 0, 0), Counts.ZERO), Work.NONE, ResultCurve.NONE,
          workload(0, 1, 1).host(), Map.of(), Counts.ZERO, 0);
      DeviceConfig d = device("msst13-sata", DeviceConfigKeys.FLASH_CHANNELS, "1", DeviceConfigKeys.ISP_CORES, "1",
          DeviceConfigKeys.ISP_CORE_MHZ, mhz);
      Job job = new Job(records, 1, Job.READAHEAD_BYTES, Job.SPLIT_BYTES, false, Long.MAX_VALUE, buffer);
      Prediction p = AnalyticModel.predict(w, d, job, Mode.DEVICE);
      double streaming = p.executionNanos() - p.linkNanos();

      double nsPerOp = 1e3 / Double.parseDouble(mhz);
      double combines = Math.floor((double) records / buffer);
      double combine = combineOps * buffer * nsPerOp;
      double tail = combineOps * (records - combines * buffer) * nsPerOp;
      double mapping = (laneOps * records * nsPerOp - combines * combine - tail) / records;
      double perRecordRead = p.dataAccessNanos() / records;
      double free = 0;
      for (long k = 1; k <= records; k++) {
        free = Math.max(free, k * perRecordRead) + mapping + (k % buffer == 0 ? combine : 0);
      }
      double scheduled = Math.max(free, p.dataAccessNanos()) + tail;
      assertThat(streaming).as("lane ops %.0f, combine ops %.0f, buffer %d, %s MHz", laneOps, combineOps, buffer, mhz)
          .isCloseTo(scheduled, within(0.01 * scheduled));
    }
  }

  /** A lane's bytes: its channels' stripes, the last page and stripe partial, wherever the object starts. */
  @Test
  void theBusiestLaneHoldsItsChannelsPagesWithTheLastPartial() {
    // Eight channels of ten full pages each, four lanes of two channels: twenty pages a lane.
    assertThat(AnalyticModel.busiestLaneBytes(8 * 10 * 4096.0, 4096, 1, 8, 4)).isEqualTo(20 * 4096.0);
    // 4,000,000 bytes in 245 pages of 16 KiB, the last holding 2,304 bytes: five channels hold 31 pages,
    // and the lane whose two channels both do holds the last: 61 full pages and 2,304 bytes, not 62.
    assertThat(AnalyticModel.busiestLaneBytes(4_000_000, 16_384, 1, 8, 4)).isEqualTo(61 * 16_384.0 + 2_304);
    // One channel a lane: the busiest channel's bytes.
    assertThat(AnalyticModel.busiestLaneBytes(3 * 4096.0 + 100, 4096, 1, 4, 8)).isEqualTo(4096.0);
    // Stripes of 4 pages over 2 channels, 10 pages: 4 + 2 on one channel, 4 on the other.
    assertThat(AnalyticModel.busiestChannelPages(10, 4, 2)).isEqualTo(6);
    assertThat(AnalyticModel.busiestChannelPages(12, 4, 2)).isEqualTo(8);
    assertThat(AnalyticModel.busiestChannelPages(245, 1, 8)).isEqualTo(31);
    assertThat(AnalyticModel.busiestChannelPages(7, 1, 1)).isEqualTo(7);
    assertThat(AnalyticModel.busiestChannelPages(6, 4, 1)).isEqualTo(6);
  }

  @Test
  void deviceModeSpeedsUpWithChannelsUntilItsCoresBoundIt() {
    // A light job on fast cores: the flash bounds it, and time falls as channels are added.
    Workload light = workload(20, 3_000, 100);
    double previous = Double.MAX_VALUE;
    for (int channels : new int[] {1, 2, 4, 8}) {
      DeviceConfig d = device("msst13-sata", DeviceConfigKeys.FLASH_CHANNELS, Integer.toString(channels),
          DeviceConfigKeys.ISP_CORES, "8", DeviceConfigKeys.ISP_CORE_MHZ, "4000");
      Prediction p = AnalyticModel.predict(light, d, Job.of(10_000_000, false), Mode.DEVICE);
      if (previous != Double.MAX_VALUE) {
        assertThat(p.totalNanos()).as("%d channels", channels).isLessThan(0.6 * previous);
      }
      previous = p.totalNanos();
    }
    // A heavy job on slow cores: more channels than cores add nothing.
    Workload heavy = workload(5_000, 3_000, 100);
    double four = AnalyticModel.predict(heavy, device("msst13-sata", DeviceConfigKeys.FLASH_CHANNELS, "4",
        DeviceConfigKeys.ISP_CORES, "4"), Job.of(1_000_000, false), Mode.DEVICE).totalNanos();
    double sixteen = AnalyticModel.predict(heavy, device("msst13-sata", DeviceConfigKeys.FLASH_CHANNELS, "16",
        DeviceConfigKeys.ISP_CORES, "4"), Job.of(1_000_000, false), Mode.DEVICE).totalNanos();
    assertThat(sixteen).isCloseTo(four, within(0.01 * four));
  }

  @Test
  void computeBoundDeviceTimeFollowsTheCoreClock() {
    Workload heavy = workload(5_000, 3_000, 100);
    double at400 = AnalyticModel.predict(heavy, device("msst13-sata", DeviceConfigKeys.ISP_CORE_MHZ, "400"),
        Job.of(1_000_000, false), Mode.DEVICE).processingNanos();
    double at800 = AnalyticModel.predict(heavy, device("msst13-sata", DeviceConfigKeys.ISP_CORE_MHZ, "800"),
        Job.of(1_000_000, false), Mode.DEVICE).processingNanos();
    assertThat(at800).isCloseTo(at400 / 2, within(1e-6 * at400));
  }

  @Test
  void twoDevicesHalveTheTime() {
    Workload w = workload(500, 3_000, 100);
    DeviceConfig d = device("msst13-sata");
    Job one = Job.of(10_000_000, false);
    Job two = one.withDevices(2);
    for (Mode m : new Mode[] {Mode.DEVICE}) {
      double t1 = AnalyticModel.predict(w, d, one, m).executionNanos();
      double t2 = AnalyticModel.predict(w, d, two, m).executionNanos();
      assertThat(t2 / t1).as(m.optionName()).isCloseTo(0.5, within(0.02));
    }
    double h1 = AnalyticModel.predict(w, d, one, Mode.HOST_NORMAL).dataAccessNanos();
    double h2 = AnalyticModel.predict(w, d, two, Mode.HOST_NORMAL).dataAccessNanos();
    assertThat(h2 / h1).isCloseTo(0.5, within(0.02));
  }

  @Test
  void mergeOnTheDeviceCostsTheControllerAndSendsOneLanesResults() {
    Workload w = workload(500, 3_000, 1_000_000);
    DeviceConfig d = device("msst13-sata", DeviceConfigKeys.ISP_CORES, "4", DeviceConfigKeys.ISP_CONTROLLER_MHZ, "400");
    Prediction host = AnalyticModel.predict(w, d, Job.of(1_000_000, false), Mode.DEVICE);
    Prediction device = AnalyticModel.predict(w, d, Job.of(1_000_000, true), Mode.DEVICE);
    assertThat(host.mergeNanos()).isZero();
    // Four lanes' merge ops on the 400 MHz controller.
    assertThat(device.mergeNanos()).isCloseTo(4 * 2_000 * 1_000.0 / 400, within(1.0));
    // The link carries one lane's worth instead of four.
    double perLane = 1_000_000 * 1e9 / d.timing().linkBytesPerSecond();
    assertThat(host.linkNanos() - device.linkNanos()).isCloseTo(3 * perLane, within(1.0));
  }

  @Test
  void swapReadsTheDataAgainOnlyWhenTheFunctionOutgrowsItsMemory() {
    assertThat(AnalyticModel.swapNanos(100, 100, 7.0)).isZero();
    assertThat(AnalyticModel.swapNanos(101, 100, 7.0)).isEqualTo(7.0);
    assertThat(AnalyticModel.swapNanos(1_000, 100, 7.0)).isEqualTo(63.0);
    Workload big = new Workload("big", 20, new Work(new Counts(100, 0, 0, 0), Counts.ZERO), Work.NONE, Work.NONE,
        ResultCurve.constant(100), workload(0, 1, 1).host(), Map.of(), Counts.ZERO, 3 << 20);
    Job small = new Job(1_000_000, 1, Job.READAHEAD_BYTES, Job.SPLIT_BYTES, false, 1 << 20, Job.BUFFER_RECORDS);
    Prediction p = AnalyticModel.predict(big, device("msst13-sata"), small, Mode.DEVICE);
    assertThat(p.swapNanos()).isCloseTo(2 * p.dataAccessNanos(), within(1.0));
  }

  /**
   * A job on a device takes a lane's memory from the device: the iSSD profiles' 8 KB channel memory
   * makes a function of 20 KB read its data twice more; unbounded, as the other profiles leave it, never.
   */
  @Test
  void aJobOnADeviceHasTheDevicesLaneMemory() {
    DeviceConfig issd = device("issd-current");
    Job onIssd = Job.onDevice(issd, 1_000_000, 1, Job.READAHEAD_BYTES, Job.SPLIT_BYTES, false, Job.BUFFER_RECORDS);
    assertThat(onIssd.laneMemoryBytes()).isEqualTo(8192);
    Job onMsst = Job.onDevice(device("msst13-sata"), 1_000_000, 1, Job.READAHEAD_BYTES, Job.SPLIT_BYTES, false,
        Job.BUFFER_RECORDS);
    assertThat(onMsst.laneMemoryBytes()).isEqualTo(Long.MAX_VALUE);
    assertThat(Job.onDevice(device("issd-current", DeviceConfigKeys.ISP_LANE_MEMORY_BYTES, "0"), 1, 1, 1, 1, false, 1)
        .laneMemoryBytes()).isEqualTo(Long.MAX_VALUE);

    Workload needs20k = new Workload("20 KB", 20, new Work(new Counts(100, 0, 0, 0), Counts.ZERO), Work.NONE,
        Work.NONE, ResultCurve.constant(100), workload(0, 1, 1).host(), Map.of(), Counts.ZERO, 20 << 10);
    Prediction swapping = AnalyticModel.predict(needs20k, issd, onIssd, Mode.DEVICE);
    assertThat(swapping.swapNanos()).isCloseTo(2 * swapping.dataAccessNanos(), within(1.0));
    assertThat(AnalyticModel.predict(needs20k, device("msst13-sata"), onMsst, Mode.DEVICE).swapNanos()).isZero();
    // A function that holds nothing never swaps.
    assertThat(AnalyticModel.predict(workload(100, 100, 10), issd, onIssd, Mode.DEVICE).swapNanos()).isZero();
    // A lane that holds more the more it reads (a combiner's keys): the busiest lane's records decide. A
    // million records on the iSSD's 32 lanes: some 31,250 on the busiest, 5 bytes held for each (the curve
    // goes on past its last point), about 156 KB: twenty passes over 8 KB, nineteen more reads.
    Workload growing = new Workload("keys", 20, new Work(new Counts(100, 0, 0, 0), Counts.ZERO), Work.NONE,
        Work.NONE, ResultCurve.constant(100), workload(0, 1, 1).host(), Map.of(), Counts.ZERO,
        new ResultCurve(new double[] {1_024, 16_384}, new double[] {5_120, 81_920}));
    Prediction grows = AnalyticModel.predict(growing, issd, onIssd, Mode.DEVICE);
    assertThat(grows.swapNanos() / grows.dataAccessNanos()).isBetween(18.0, 20.0);
  }

  @Test
  void hostReadsAreBoundByTheSlowerOfFlashAndLink() {
    Workload w = workload(500, 0, 100);
    long records = 50_000_000; // 1 GB
    double bytes = records * 20.0;
    // msst13: 8 x 50 MB/s of flash, 250 MB/s of link: the link bounds.
    Prediction link = AnalyticModel.predict(w, device("msst13-sata"), Job.of(records, false), Mode.HOST_NORMAL);
    assertThat(link.dataAccessNanos()).isCloseTo(bytes / 250e6 * 1e9, within(0.05 * link.dataAccessNanos()));
    // A link of 4 GB/s: the flash (400 MB/s) bounds.
    Prediction flash = AnalyticModel.predict(w, device("msst13-sata", DeviceConfigKeys.LINK_MB_PER_S, "4000"),
        Job.of(records, false), Mode.HOST_NORMAL);
    assertThat(flash.dataAccessNanos()).isCloseTo(bytes / 400e6 * 1e9, within(0.05 * flash.dataAccessNanos()));
  }

  @Test
  void theBreakdownAddsUpToTheTotal() {
    Workload w = workload(500, 3_000, 100);
    for (Prediction p : AnalyticModel.predict(w, device("issd-current"), Job.of(2_000_000, true)).values()) {
      if (p.mode() == Mode.DEVICE) {
        assertThat(p.totalNanos()).isCloseTo(p.executionNanos() + p.hostNanos(), within(1e-6 * p.totalNanos()));
        assertThat(p.executionNanos()).isGreaterThanOrEqualTo(Math.max(p.dataAccessNanos(), p.processingNanos()));
        assertThat(p.issdExecutionNanos()).isGreaterThanOrEqualTo(p.executionNanos() - 1e-6);
      } else {
        assertThat(p.totalNanos()).isCloseTo(p.dataAccessNanos() + p.processingNanos(), within(1e-6));
        assertThat(p.dataAccessNanos()).isGreaterThanOrEqualTo(p.linkNanos());
      }
      assertThat(p.breakdown()).containsKeys("data_access_s", "processing_s", "swap_s", "merge_s", "link_s");
    }
  }

  @Test
  void whatIsLeftInTheBufferIsComputedAfterTheLastRead() {
    // An I/O-bound job on fast cores: the lanes keep up with the reads, then combine what they hold.
    Workload w = workload(2_000, 3_000, 100);
    DeviceConfig d = device("msst13-sata", DeviceConfigKeys.ISP_CORE_MHZ, "4000", DeviceConfigKeys.ISP_CORES, "4");
    Job job = Job.of(400_000, false); // 100,000 records a lane: the last buffer is full, then combined
    Prediction p = AnalyticModel.predict(w, d, job, Mode.DEVICE);
    assertThat(job.lastBufferRecords(100_000)).isZero();
    assertThat(job.lastBufferRecords(25_000)).isEqualTo(5_000);
    Job odd = Job.of(420_000, false); // 105,000 a lane: 5,000 left
    Prediction q = AnalyticModel.predict(w, d, odd, Mode.DEVICE);
    double tail = w.laneTail().of(5_000).nanos(d.isp().core());
    double readMore = q.dataAccessNanos() - p.dataAccessNanos();
    assertThat(q.executionNanos() - p.executionNanos()).isGreaterThan(tail).isLessThan(tail + readMore * 1.01 + 1e6);
  }

  @Test
  void eachSplitCostsTheHostItsOwnWork() {
    Workload w = workload(500, 3_000, 100);
    DeviceConfig d = device("msst13-sata");
    double one = AnalyticModel.predict(w, d, Job.of(1_000_000, false), Mode.HOST_NORMAL).processingNanos();
    double four = AnalyticModel.predict(w, d, Job.of(1_000_000, false).withDevices(4), Mode.HOST_NORMAL)
        .processingNanos();
    assertThat(four - one).isCloseTo(3 * d.isp().host().nanos(1_000_000, 0, 0, 0, 0), within(1.0));
  }

  @Test
  void workIsTheLineThroughTwoSamples() {
    Work w = Work.fit(1_000, new Counts(5_500, 100, 10, 0), 3_000, new Counts(15_500, 300, 30, 0));
    assertThat(w.perRecord()).isEqualTo(new Counts(5, 0.1, 0.01, 0));
    assertThat(w.fixed().ops()).isCloseTo(500, within(1e-9));
    assertThat(w.of(2_000).ops()).isCloseTo(10_500, within(1e-9));
    assertThatThrownBy(() -> Work.fit(10, Counts.ZERO, 10, Counts.ZERO)).hasMessageContaining("different sizes");
  }

  @Test
  void aLanesResultsFollowTheMeasuredKeysAndTheMergeTheirBytes() {
    // Bytes proportional to the records: the power law between and past the points is a straight line.
    ResultCurve linear = ResultCurve.through(new double[] {10_000, 1_000}, new double[] {80_000, 8_000});
    assertThat(linear.bytes(3_000)).isCloseTo(24_000, within(1e-6));
    assertThat(linear.bytes(100_000)).isCloseTo(800_000, within(1e-3));
    assertThat(linear.bytes(100)).isCloseTo(800, within(1e-6));
    // Keys that saturate: 1 - (1 - 1/k)^n of k equally likely keys, 16 bytes each, measured at three sizes.
    java.util.function.DoubleUnaryOperator keys = n -> 16 * 500 * (1 - Math.pow(1 - 1.0 / 500, n));
    double[] measured = {625, 10_000, 30_000};
    ResultCurve saturating = ResultCurve.through(measured,
        java.util.Arrays.stream(measured).map(keys).toArray());
    for (double n : new double[] {1_000, 3_906, 7_000, 100_000}) {
      assertThat(saturating.bytes(n)).as("%s records", n).isCloseTo(keys.applyAsDouble(n),
          within(0.15 * keys.applyAsDouble(n)));
    }
    assertThat(ResultCurve.constant(42).bytes(1e9)).isEqualTo(42);
    assertThat(ResultCurve.NONE.bytes(1e6)).isZero();
    assertThatThrownBy(() -> ResultCurve.through(new double[] {0}, new double[] {5})).hasMessageContaining("records");

    // A million records merged on the device: the merge's set-up, then its work a byte of the lanes' results.
    Workload w = new Workload("keys", 20, new Work(new Counts(100, 0, 0, 0), Counts.ZERO), Work.NONE,
        new Work(new Counts(3, 0, 0, 0), new Counts(70_000, 0, 0, 0)), saturating, workload(0, 1, 1).host(), Map.of(),
        Counts.ZERO, 0);
    DeviceConfig d = device("msst13-sata");
    Prediction merged = AnalyticModel.predict(w, d, Job.of(1_000_000, true), Mode.DEVICE);
    double lanes = Math.min(d.isp().cores(), d.geometry().channels());
    double lanesBytes = lanes * saturating.bytes(1_000_000 / lanes);
    assertThat(merged.mergeNanos()).isCloseTo((70_000 + 3 * lanesBytes) * 1_000.0 / d.isp().controllerMhz(),
        within(1.0));
  }

  /** The data-mining workloads run host-normal and in the devices only: no host-optimized time is made up. */
  @Test
  void aModeTheWorkloadLacksIsNotPredicted() {
    Workload all = workload(1_000, 500, 100);
    Map<Mode, Work> host = new java.util.EnumMap<>(all.host());
    host.remove(Mode.HOST_OPTIMIZED);
    Workload two = new Workload("two modes", 20, all.deviceLane(), all.laneTail(), all.merge(), all.laneResults(), host,
        all.hostPerSplit(), all.hostPerResultByte(), 0);
    DeviceConfig d = device("msst13-sata");
    Job job = Job.of(1_000_000, false);
    Map<Mode, Prediction> p = AnalyticModel.predict(two, d, job);
    assertThat(p.keySet()).containsExactly(Mode.HOST_NORMAL, Mode.DEVICE);
    assertThat(p.get(Mode.DEVICE).totalNanos()).isEqualTo(AnalyticModel.predict(all, d, job, Mode.DEVICE).totalNanos());
    assertThatThrownBy(() -> AnalyticModel.predict(two, d, job, Mode.HOST_OPTIMIZED))
        .hasMessageContaining("host-optimized");
    assertThatThrownBy(() -> new Workload("device only", 20, all.deviceLane(), all.laneTail(), all.merge(),
        all.laneResults(), Map.of(Mode.DEVICE, Work.NONE), Map.of(), Counts.ZERO, 0))
        .hasMessageContaining("a host mode");
  }

  @Test
  void badInputsAreNamed() {
    assertThatThrownBy(() -> Mode.parse("hybrid")).hasMessageContaining("'hybrid'");
    assertThatThrownBy(() -> new Job(10, 0, 1, 1, false, 1, 1)).hasMessageContaining("devices");
    assertThatThrownBy(() -> new Workload("w", 0, Work.NONE, Work.NONE, Work.NONE, ResultCurve.NONE, Map.of(), Map.of(),
        Counts.ZERO, 0))
        .hasMessageContaining("at least one byte");
  }
}
