package org.smartssd.device.runtime.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.smartssd.device.ChannelStatistics;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.runtime.config.TimingParameters;

class TimingModelTest {

  // Round figures: a 1000-byte page, 10 us on a 100 MB/s channel or link.
  private static final int PAGE = 1000;
  private static final long COMMAND = 20_000;
  private static final long READ = 50_000;
  private static final long PROGRAM = 1_200_000;
  private static final long ERASE = 3_000_000;
  private static final double MB_100 = 100e6;
  private static final long BUS = 10_000;
  private static final double FAST_LINK = 1e12; // one page crosses in 1 ns

  private final FakeClock clock = new FakeClock(5_000_000);

  private TimingModel model(int channels, int ways, long cellRead, double linkBytesPerSecond) {
    return new TimingModel(new DeviceGeometry(channels, ways, 8, 8, PAGE, 1),
        new TimingParameters(cellRead, PROGRAM, ERASE, MB_100, linkBytesPerSecond, COMMAND, true), clock);
  }

  @Test
  void singlePageReadIsCommandPlusCellPlusBusPlusTransfer() {
    TimingModel model = model(2, 2, READ, MB_100);
    Command cmd = model.begin();
    cmd.readPage(1, 1);
    cmd.transferOut(PAGE);
    assertEquals(COMMAND + READ + BUS + 10_000, cmd.complete());
    assertEquals(0, cmd.arrival());
    assertEquals(COMMAND + READ + BUS + 10_000, cmd.durationNanos());
  }

  @Test
  void channelsReadInParallel() {
    int pages = 16;
    long oneChannel = readPages(model(1, 1, 1_000, FAST_LINK), pages);
    long fourChannels = readPages(model(4, 1, 1_000, FAST_LINK), pages);
    // One die a channel: each page holds its die for cell read and bus transfer.
    assertEquals(COMMAND + pages * (1_000 + BUS) + 1, oneChannel);
    assertEquals(COMMAND + pages / 4 * (1_000 + BUS) + 1, fourChannels);
  }

  @Test
  void waysOverlapCellReadsOnOneChannel() {
    long cellRead = 100_000; // much longer than the 10 us bus transfer
    long oneWay = readPages(model(1, 1, cellRead, FAST_LINK), 4);
    long fourWays = readPages(model(1, 4, cellRead, FAST_LINK), 4);
    assertEquals(COMMAND + 4 * (cellRead + BUS) + 1, oneWay);
    // The four cell reads run at once; only the bus transfers queue.
    assertEquals(COMMAND + cellRead + 4 * BUS + 1, fourWays);
  }

  /** Reads pages striped over channels, then ways, in one command; returns its duration. */
  private static long readPages(TimingModel model, int pages) {
    DeviceGeometry geometry = model.geometry();
    Command cmd = model.begin();
    for (int i = 0; i < pages; i++) {
      int channel = i % geometry.channels();
      cmd.readPage(channel, i / geometry.channels() % geometry.waysPerChannel());
    }
    cmd.transferOut((long) pages * geometry.pageSizeBytes());
    cmd.complete();
    return cmd.durationNanos();
  }

  @Test
  void fullScanTimeFallsAsChannelsAreAddedWhenTheLinkIsFast() {
    long previous = Long.MAX_VALUE;
    long oneChannel = 0;
    for (int channels : new int[] {1, 2, 4, 8}) {
      long scan = scanInCommands(model(channels, 4, READ, FAST_LINK), 512);
      assertTrue(scan < previous, channels + " channels: " + scan + " ns, not below " + previous);
      oneChannel = channels == 1 ? scan : oneChannel;
      previous = scan;
    }
    assertTrue(oneChannel / (double) previous > 6, "8 channels should be nearly 8 times faster");
  }

  @Test
  void fullScanIsLinkBoundWhenTheLinkIsSlow() {
    int pages = 512;
    double slowLink = 10e6;
    double linkBound = pages * (double) PAGE / slowLink * 1e9;
    for (int channels : new int[] {1, 2, 4, 8}) {
      long scan = scanInCommands(model(channels, 4, READ, slowLink), pages);
      assertEquals(linkBound, scan, linkBound * 0.02, channels + " channels");
    }
  }

  @Test
  void fullScanRisesWhenTheLinkBecomesTheBottleneck() {
    long fast = scanInCommands(model(8, 4, READ, FAST_LINK), 512);
    long sata = scanInCommands(model(8, 4, READ, 50e6), 512);
    long slow = scanInCommands(model(8, 4, READ, 10e6), 512);
    assertTrue(fast < sata && sata < slow, fast + " < " + sata + " < " + slow);
  }

  /** A scan as a host does it: one command a stripe, all queued at once; returns the last completion. */
  private static long scanInCommands(TimingModel model, int pages) {
    DeviceGeometry geometry = model.geometry();
    int stripe = geometry.channels() * geometry.waysPerChannel();
    for (int first = 0; first < pages; first += stripe) {
      Command cmd = model.begin();
      int count = Math.min(stripe, pages - first);
      for (int i = first; i < first + count; i++) {
        cmd.readPage(i % geometry.channels(), i / geometry.channels() % geometry.waysPerChannel());
      }
      cmd.transferOut((long) count * geometry.pageSizeBytes());
      cmd.complete();
    }
    return model.horizonNanos();
  }

  @Test
  void programsAreBufferedUntilASyncAwaitsThem() {
    TimingModel model = model(2, 2, READ, MB_100);
    Command write = model.begin();
    write.transferIn(PAGE);
    write.programPage(1, 0);
    long dataIn = COMMAND + 10_000;
    assertEquals(dataIn, write.complete(), "the write-back buffer acknowledges after the transfer");

    Command sync = model.begin();
    sync.awaitPrograms();
    assertEquals(dataIn + BUS + PROGRAM, sync.complete());
  }

  @Test
  void programsOnOneDieQueueAndDelayAReadOfThatDie() {
    TimingModel model = model(1, 1, READ, MB_100);
    Command write = model.begin();
    write.transferIn(2 * PAGE);
    write.programPage(0, 0);
    write.programPage(0, 0);
    write.awaitPrograms();
    long dataIn = COMMAND + 20_000;
    // The second page crosses the bus during the first program, then waits for the die.
    assertEquals(dataIn + BUS + 2 * PROGRAM, write.complete());

    Command read = model.begin();
    read.readPage(0, 0);
    assertEquals(dataIn + BUS + 2 * PROGRAM + READ + BUS, read.complete());
  }

  @Test
  void eraseDelaysItsCommandAndLaterWorkOnTheDie() {
    TimingModel model = model(2, 2, READ, MB_100);
    Command gc = model.begin();
    gc.eraseBlock(0, 1);
    assertEquals(COMMAND + ERASE, gc.complete());

    Command other = model.begin();
    other.readPage(0, 0);
    assertEquals(COMMAND + READ + BUS, other.complete(), "another die is not delayed");

    Command same = model.begin();
    same.readPage(0, 1);
    assertEquals(COMMAND + ERASE + READ + BUS, same.complete());
  }

  @Test
  void statisticsCountEverything() {
    TimingModel model = model(2, 2, READ, MB_100);
    Command write = model.begin();
    write.transferIn(3 * PAGE);
    write.programPage(0, 0);
    write.programPage(1, 0);
    write.programPage(1, 1);
    write.complete();
    Command read = model.begin();
    read.readPage(1, 1);
    read.readPage(1, 0);
    read.transferOut(2 * PAGE);
    read.complete();
    Command gc = model.begin();
    gc.eraseBlock(0, 1);
    long lastCompletion = gc.complete();
    clock.advance(123);

    DeviceStatistics stats = model.statistics(42);
    assertEquals(123, stats.uptimeNanos());
    assertEquals(3, stats.commands());
    assertEquals(3 * PAGE, stats.hostBytesIn());
    assertEquals(2 * PAGE, stats.hostBytesOut());
    assertEquals(50_000, stats.linkBusyNanos());
    assertEquals(Math.max(lastCompletion, read.completionNanos()), stats.modelledHorizonNanos());
    assertEquals(42, stats.gcPagesMoved());
    assertEquals(List.of(new ChannelStatistics(0, 1, 1, BUS), new ChannelStatistics(2, 2, 0, 4 * BUS)),
        stats.channels());
    assertEquals(2, stats.totalPagesRead());
    assertEquals(3, stats.totalPagesProgrammed());
  }

  @Test
  void commandTimeCountsOverlappingCommandsOnce() {
    TimingModel model = model(1, 1, READ, MB_100);
    // Two reads sent at once (an unpaced device answers the first before its modelled end): the second
    // queues behind the first, and the host's I/O lasts until the second's end, not the two durations.
    Command first = model.begin();
    first.readPage(0, 0);
    first.transferOut(PAGE);
    first.complete();
    Command second = model.begin();
    second.readPage(0, 0);
    second.transferOut(PAGE);
    second.complete();
    assertTrue(second.durationNanos() > first.durationNanos(), "the second queued");
    assertEquals(second.completionNanos(), model.statistics(0).modelledCommandNanos());

    // A read after a pause: the pause is not I/O time.
    clock.advance(second.completionNanos() + 1_000_000);
    Command third = model.begin();
    third.readPage(0, 0);
    third.complete();
    assertEquals(second.completionNanos() + third.durationNanos(), model.statistics(0).modelledCommandNanos());
  }

  @Test
  void executionTimeCountsOverlappingExecutionsOnce() {
    TimingModel model = model(1, 1, READ, MB_100);
    model.executionDone(1_000, 5_000, 0);
    model.executionDone(3_000, 9_000, 0); // started before the first ended: 4,000 more
    model.executionDone(20_000, 21_000, 0); // after a pause: the pause is not execution time
    DeviceStatistics s = model.statistics(0);
    assertEquals(4_000 + 4_000 + 1_000, s.modelledExecutionNanos());
    assertEquals(21_000, s.modelledHorizonNanos());
  }

  @Test
  void aCommandDuringAnExecutionAddsOnlyWhatItRunsPastIt() {
    TimingModel model = model(1, 1, READ, MB_100);
    clock.advance(1_000);
    model.executionStarted(1_000);
    Command poll = model.begin(); // while the execution runs: the host interface serves it beside the cores
    poll.transferOut(PAGE);
    poll.complete();
    assertEquals(0, model.statistics(0).modelledCommandNanos());
    model.executionDone(1_000, 5_000_000, 0);
    // Done on the modelled clock at 5 ms: a last poll arriving before that adds what it runs past it.
    clock.advance(4_990_000 - model.now());
    Command last = model.begin();
    last.transferOut(100 * PAGE);
    long end = last.complete();
    assertTrue(end > 5_000_000, "the last poll runs past the execution: " + end);
    assertEquals(end - 5_000_000, model.statistics(0).modelledCommandNanos());
    // After it, a command with no execution counts whole.
    clock.advance(end + 1_000_000 - model.now());
    Command read = model.begin();
    read.readPage(0, 0);
    read.complete();
    assertEquals(end - 5_000_000 + read.durationNanos(), model.statistics(0).modelledCommandNanos());
    assertEquals(5_000_000 - 1_000, model.statistics(0).modelledExecutionNanos());
  }

  @Test
  void horizonNeverFallsAndCoversEveryCompletion() {
    TimingModel model = model(4, 2, READ, MB_100);
    Random random = new Random(7);
    long horizon = 0;
    for (int i = 0; i < 500; i++) {
      Command cmd = randomCommand(model, random);
      long completion = cmd.complete();
      assertTrue(model.horizonNanos() >= horizon);
      assertTrue(model.horizonNanos() >= completion);
      horizon = model.horizonNanos();
      clock.advance(random.nextInt(50_000));
    }
  }

  @Test
  void sameSequenceSameTimes() {
    List<Long> first = run(new Random(11));
    List<Long> second = run(new Random(11));
    assertEquals(first, second);
  }

  private List<Long> run(Random random) {
    FakeClock own = new FakeClock(0);
    TimingModel model = new TimingModel(new DeviceGeometry(4, 2, 8, 8, 4096, 1),
        new TimingParameters(READ, PROGRAM, ERASE, 33.3e6, 250e6, COMMAND, true), own);
    List<Long> completions = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      completions.add(randomCommand(model, random).complete());
      own.advance(random.nextInt(100_000));
    }
    completions.add(model.statistics(0).linkBusyNanos());
    return completions;
  }

  private static Command randomCommand(TimingModel model, Random random) {
    DeviceGeometry geometry = model.geometry();
    Command cmd = model.begin();
    int pages = 1 + random.nextInt(6);
    switch (random.nextInt(4)) {
      case 0 -> {
        for (int i = 0; i < pages; i++) {
          cmd.readPage(random.nextInt(geometry.channels()), random.nextInt(geometry.waysPerChannel()));
        }
        cmd.transferOut((long) pages * geometry.pageSizeBytes());
      }
      case 1 -> {
        cmd.transferIn((long) pages * geometry.pageSizeBytes());
        for (int i = 0; i < pages; i++) {
          cmd.programPage(random.nextInt(geometry.channels()), random.nextInt(geometry.waysPerChannel()));
        }
      }
      case 2 -> cmd.eraseBlock(random.nextInt(geometry.channels()), random.nextInt(geometry.waysPerChannel()));
      default -> cmd.awaitPrograms();
    }
    return cmd;
  }

  @Test
  void fractionalNanosecondsRoundUp() {
    TimingModel model = new TimingModel(new DeviceGeometry(1, 1, 1, 1, PAGE, 1),
        new TimingParameters(1, 1, 1, 3e6, 3e6, 0, true), clock);
    assertEquals(333_334, model.pageBusNanos());
    assertEquals(333_334, model.linkNanos(PAGE));
    assertEquals(0, model.linkNanos(0));
  }

  @Test
  void clockMapping() {
    TimingModel model = model(1, 1, READ, MB_100);
    assertEquals(0, model.now());
    assertEquals(5_000_250, model.wallNanosAt(250));
    clock.advance(1_000);
    Command cmd = model.begin();
    assertEquals(1_000, cmd.arrival());
    assertEquals(1_000 + COMMAND, cmd.complete());
    assertEquals(COMMAND, cmd.durationNanos());
  }

  @Test
  void misuseIsRefused() {
    TimingModel model = model(2, 2, READ, MB_100);
    Command cmd = model.begin();
    assertThrows(IllegalStateException.class, cmd::durationNanos);
    assertThrows(IllegalArgumentException.class, () -> cmd.readPage(2, 0));
    assertThrows(IllegalArgumentException.class, () -> cmd.programPage(0, -1));
    assertThrows(IllegalArgumentException.class, () -> cmd.transferOut(-1));
    cmd.complete();
    assertThrows(IllegalStateException.class, cmd::complete);
    assertThrows(IllegalStateException.class, () -> cmd.readPage(0, 0));
    assertEquals(1, model.statistics(0).commands());
  }

  @Test
  void concurrentCommandsAreAllCounted() throws Exception {
    TimingModel model = model(4, 2, READ, MB_100);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          for (int i = 0; i < 1000; i++) {
            Command cmd = model.begin();
            cmd.readPage((thread + i) % 4, i % 2);
            cmd.transferOut(PAGE);
            cmd.complete();
          }
        }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
    DeviceStatistics stats = model.statistics(0);
    assertEquals(8000, stats.commands());
    assertEquals(8000, stats.totalPagesRead());
    assertEquals(8000L * PAGE, stats.hostBytesOut());
    // Each channel's bus carried 2000 pages back to back at best.
    assertTrue(stats.modelledHorizonNanos() >= 2000 * BUS);
  }

  private TimingModel model(int channels, int ways, boolean internalReadsYield) {
    return new TimingModel(new DeviceGeometry(channels, ways, 8, 8, PAGE, 1),
        new TimingParameters(READ, PROGRAM, ERASE, MB_100, FAST_LINK, COMMAND, internalReadsYield), clock);
  }

  /** A host read on die (0, 0) of a device on which an execution has booked 100 internal reads from now. */
  private static Command hostReadBehindInternalReads(TimingModel model) {
    InternalTimeline internal = model.internalReads(model.now());
    for (int i = 0; i < 100; i++) {
      internal.readPage(0, i % 2);
    }
    Command host = model.begin();
    host.readPage(0, 0);
    host.complete();
    return host;
  }

  @Test
  void atLowPriorityAHostReadWaitsOnlyForTheInternalReadInProgress() {
    TimingModel idle = model(1, 2, true);
    Command alone = idle.begin();
    alone.readPage(0, 0);
    long hostAlone = alone.complete() - alone.arrival();

    TimingModel busy = model(1, 2, true);
    Command host = hostReadBehindInternalReads(busy);
    long hostBusy = host.durationNanos();
    // The internal read on its die (cell read, then the bus) is in progress when the host read
    // arrives: it waits for that one, and for the bus transfer in progress, no more.
    assertTrue(hostBusy > hostAlone, "host read " + hostBusy + " ns, alone " + hostAlone + " ns");
    assertTrue(hostBusy <= hostAlone + READ + 2 * BUS, "host read " + hostBusy + " ns, alone " + hostAlone + " ns");
    assertEquals(hostBusy - hostAlone, host.internalDelayNanos());
    DeviceStatistics stats = busy.statistics(0);
    assertEquals(1, stats.commandsDelayedByInternal());
    assertEquals(host.internalDelayNanos(), stats.modelledInternalDelayNanos());

    // The internal reads booked ahead of it keep their times: a reported execution is never re-timed.
    InternalTimeline next = busy.internalReads(busy.now());
    next.readPage(0, 1);
    assertEquals(0, next.hostDelayNanos());
  }

  @Test
  void atEqualPriorityAHostReadWaitsBehindEveryInternalReadBookedBeforeIt() {
    Command host = hostReadBehindInternalReads(model(1, 2, false));
    // 100 internal pages hold the bus for 100 x BUS before the host's page can cross it.
    assertTrue(host.durationNanos() >= 100 * BUS, "host read " + host.durationNanos() + " ns");
    assertTrue(host.internalDelayNanos() >= 99 * BUS);
  }

  @Test
  void internalReadsWaitForHostWorkBookedBeforeThem() {
    TimingModel fresh = model(1, 2, READ, FAST_LINK);
    Command first = fresh.begin();
    first.readPage(0, 0);
    long hostEnd = first.complete();
    assertEquals(0, first.internalDelayNanos());
    InternalTimeline after = fresh.internalReads(first.arrival());
    after.readPage(0, 0);
    assertTrue(after.doneNanos() >= hostEnd - 1 + READ + BUS,
        "internal read ends at " + after.doneNanos() + ", the host read at " + hostEnd);
    assertTrue(after.hostDelayNanos() > 0);
    assertTrue(fresh.hostBusy(0, first.arrival()), "host work is booked on channel 0 past the command's arrival");
    assertTrue(!fresh.hostBusy(0, hostEnd), "and not past its end");
  }

  /**
   * A host read of two pages on every channel, issued while each channel has one internal request of
   * eight pages in flight, as a paced execution's lanes keep them (HostIoUnderLoadBenchmark relies on
   * this): the model's duration of the host read, and the same read's on an idle device.
   */
  private long[] hostReadAcrossSaturatedChannels(boolean internalReadsYield) {
    int channels = 4;
    int ways = 2;
    TimingModel idle = model(channels, ways, internalReadsYield);
    Command alone = idle.begin();
    for (int c = 0; c < channels; c++) {
      alone.readPage(c, 0);
      alone.readPage(c, 1);
    }
    alone.complete();

    TimingModel busy = model(channels, ways, internalReadsYield);
    for (int c = 0; c < channels; c++) {
      InternalTimeline request = busy.internalReads(busy.now());
      for (int p = 0; p < 8; p++) {
        request.readPage(c, p % ways);
      }
    }
    clock.advance(READ + BUS / 2); // the first internal page of each channel is crossing its bus
    Command host = busy.begin();
    for (int c = 0; c < channels; c++) {
      host.readPage(c, 0);
      host.readPage(c, 1);
    }
    host.complete();
    return new long[] {alone.durationNanos(), host.durationNanos()};
  }

  @Test
  void acrossSaturatedChannelsAHostReadWaitsForOneInternalReadAtLowPriorityAndForTheRequestAtEqual() {
    long[] low = hostReadAcrossSaturatedChannels(true);
    long[] equal = hostReadAcrossSaturatedChannels(false);
    assertEquals(low[0], equal[0], "the idle read does not depend on the priority");
    // Low: the page on the bus finishes, and the internal read holding a die ends; nothing else.
    assertTrue(low[1] <= low[0] + READ + 2 * BUS, "low: " + low[1] + " ns, idle " + low[0] + " ns");
    // Equal: behind the eight pages each channel's request booked before it.
    assertTrue(equal[1] >= low[0] + 6 * BUS, "equal: " + equal[1] + " ns, idle " + equal[0] + " ns");
    assertTrue(equal[1] > low[1], "equal " + equal[1] + " ns, low " + low[1] + " ns");
  }

}
