package org.smartssd.device.runtime;

import static org.smartssd.device.runtime.TestDevices.readAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.SocketDeviceClient;

/** A device process killed with SIGKILL keeps everything it acknowledged as durable. */
class DeviceKillIT {
  @TempDir Path dir;

  private static SocketDeviceClient connect(DeviceProcess p) throws IOException {
    return TestDevices.connect(p.address());
  }

  /** The bytes a writer sends to file {@code seed}: the same stream every time. */
  private static byte[] stream(long seed, int length) {
    byte[] b = new byte[length];
    new Random(seed).nextBytes(b);
    return b;
  }


  @Test
  void syncedBytesSurviveAKillRightAfterTheSync() throws Exception {
    Map<String, String> config = TestDevices.small(dir);
    byte[] data = stream(1, 700_000);
    long synced;
    DeviceProcess device = DeviceProcess.start(dir, config);
    try (SocketDeviceClient c = connect(device)) {
      c.mkdirs("/wc98");
      long h = c.create("/wc98/day1", false, false).handle();
      c.write(h, data, 0, 500_003);
      synced = c.sync(h);
      c.write(h, data, 500_003, 100_000); // acknowledged, never synced
      device.kill();
    }
    DeviceProcess again = DeviceProcess.start(dir, config);
    try (SocketDeviceClient c = connect(again)) {
      byte[] back = readAll(c, "/wc98/day1");
      assertEquals(500_003, synced);
      assertTrue(back.length >= synced && back.length <= 600_003, "recovered length " + back.length);
      assertArrayEquals(Arrays.copyOf(data, back.length), back);
    } finally {
      again.close();
    }
  }

  @Test
  void aKillInTheMiddleOfWritesLosesNothingAcknowledgedAndLeavesAConsistentNamespace() throws Exception {
    Map<String, String> config = TestDevices.small(dir);
    config.put("smartssd.device.meta.checkpoint-log-bytes", "32768"); // checkpoints happen during the run
    int writers = 3;
    int streamBytes = 4 << 20;
    long[] acknowledgedDurable = new long[writers];
    Set<String> acknowledgedDirs = ConcurrentHashMap.newKeySet();
    Set<String> acknowledgedDeleted = ConcurrentHashMap.newKeySet();
    // A delete sent but not acknowledged when the snapshot below is taken may still be carried out
    // before the kill: such a directory may or may not be there afterwards.
    Set<String> deletesSent = ConcurrentHashMap.newKeySet();
    AtomicBoolean killed = new AtomicBoolean();
    AtomicLong bytesAcknowledged = new AtomicLong();
    CountDownLatch started = new CountDownLatch(writers + 1);

    DeviceProcess device = DeviceProcess.start(dir, config);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int id = w;
      threads.add(new Thread(() -> {
        byte[] data = stream(100 + id, streamBytes);
        Random r = new Random(id);
        try (SocketDeviceClient c = connect(device)) {
          long h = c.create("/w/f" + id, false, true).handle();
          started.countDown();
          int off = 0;
          while (off < data.length) {
            int n = Math.min(1 + r.nextInt(40_000), data.length - off);
            c.write(h, data, off, n);
            off += n;
            bytesAcknowledged.addAndGet(n);
            if (r.nextInt(4) == 0) {
              acknowledgedDurable[id] = c.sync(h);
            }
          }
          acknowledgedDurable[id] = c.closeHandle(h);
        } catch (IOException e) {
          if (!killed.get()) {
            throw new AssertionError("writer " + id + " failed before the kill", e);
          }
        }
      }));
    }
    threads.add(new Thread(() -> {
      try (SocketDeviceClient c = connect(device)) {
        started.countDown();
        for (int i = 0; ; i++) {
          String d = "/ns/d" + i;
          c.mkdirs(d + "/sub");
          acknowledgedDirs.add(d);
          if (i % 3 == 2) {
            String victim = "/ns/d" + (i - 2);
            deletesSent.add(victim);
            c.delete(victim, true);
            acknowledgedDeleted.add(victim);
          }
        }
      } catch (IOException e) {
        if (!killed.get()) {
          throw new AssertionError("namespace thread failed before the kill", e);
        }
      }
    }));
    List<Throwable> failures = new ArrayList<>();
    threads.forEach(t -> t.setUncaughtExceptionHandler((th, e) -> {
      synchronized (failures) {
        failures.add(e);
      }
    }));
    threads.forEach(Thread::start);
    assertTrue(started.await(60, TimeUnit.SECONDS));
    // Kill once a good part of the data is in, while everyone is still busy.
    while (bytesAcknowledged.get() < streamBytes && threads.stream().anyMatch(Thread::isAlive)) {
      TimeUnit.MILLISECONDS.sleep(5);
    }
    long[] durableAtKill = acknowledgedDurable.clone();
    Set<String> dirsAtKill = Set.copyOf(acknowledgedDirs);
    Set<String> deletedAtKill = Set.copyOf(acknowledgedDeleted);
    killed.set(true);
    device.kill();
    for (Thread t : threads) {
      t.join(60_000);
    }
    assertTrue(failures.isEmpty(), "failures before the kill: " + failures);

    DeviceProcess again = DeviceProcess.start(dir, config);
    try (SocketDeviceClient c = connect(again)) {
      for (int w = 0; w < writers; w++) {
        byte[] back = readAll(c, "/w/f" + w);
        assertTrue(back.length >= durableAtKill[w],
            "file " + w + ": recovered " + back.length + " bytes, " + durableAtKill[w] + " were acknowledged durable");
        assertArrayEquals(Arrays.copyOf(stream(100 + w, streamBytes), back.length), back, "file " + w);
      }
      for (String d : dirsAtKill) {
        if (!deletesSent.contains(d)) {
          assertTrue(c.status(d + "/sub").directory(), d);
        }
      }
      for (String d : deletedAtKill) {
        org.junit.jupiter.api.Assertions.assertThrows(FileNotFoundException.class, () -> c.status(d), d);
      }
      // Everything the namespace lists can be read in full.
      walk(c, "/");
      // And the device takes new work.
      long h = c.create("/after", false, false).handle();
      c.write(h, new byte[10_000], 0, 10_000);
      assertEquals(10_000, c.closeHandle(h));
    } finally {
      again.close();
    }
  }

  @Test
  void anOutputObjectIsThereAfterAKillOnceItsExecutionIsDoneAndAbsentWhenKilledBefore() throws Exception {
    Map<String, String> config = TestDevices.small(dir);
    int record = 13;
    int n = 40_000;
    java.nio.ByteBuffer records = java.nio.ByteBuffer.allocate(n * record);
    for (int i = 0; i < n; i++) {
      records.putInt(i).put((byte) (i % 5)).putLong(31L * i);
    }
    byte[] data = records.array();
    java.util.Map<String, String> filter = Map.of("record-length", "" + record, "field-offset", "4",
        "field-length", "1", "op", "eq", "value", "2");
    byte[] kept;
    DeviceProcess device = DeviceProcess.start(dir, config);
    try (SocketDeviceClient c = connect(device)) {
      long h = c.create("/in", false, false).handle();
      c.write(h, data, 0, data.length);
      c.closeHandle(h);
      long t = c.createObject(java.nio.ByteBuffer.allocate(0),
          org.smartssd.device.tasklet.builtin.FieldFilter.class.getName(), filter);
      long done = c.executeObject(t, List.of(org.smartssd.device.tasklet.InputRange.whole("/in")), Map.of(),
          "/selection/done", 0644);
      org.smartssd.device.protocol.Response.ExecutionProgress last = org.smartssd.device.client.ExecutionPoller.drain(
          c, done, r -> { }, org.smartssd.device.client.ExecutionPoller.PollingPolicy.defaults());
      assertEquals(org.smartssd.device.tasklet.ExecutionState.DONE, last.state(), last.message());
      kept = readAll(c, "/selection/done");
      assertEquals(n / 5 * record, kept.length);

      long copier = c.createObject(org.smartssd.device.runtime.isp.TestJars.of(
          org.smartssd.device.runtime.isp.testtasklets.RecordCopier.class),
          org.smartssd.device.runtime.isp.testtasklets.RecordCopier.class.getName(),
          Map.of("record-length", "" + record, "linger-ms", "600000"));
      long running = c.executeObject(copier, List.of(org.smartssd.device.tasklet.InputRange.whole("/in")), Map.of(),
          "/selection/running", 0644);
      // Written, and lingering once its input ended: its temporary file holds every record by now.
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (c.readObject(running, 0).statistics().outputBytes() < data.length) {
        assertTrue(System.nanoTime() < deadline, "the copier never wrote its input");
        Thread.sleep(10);
      }
      device.kill();
    }
    DeviceProcess again = DeviceProcess.start(dir, config);
    try (SocketDeviceClient c = connect(again)) {
      assertArrayEquals(kept, readAll(c, "/selection/done"), "a done execution's output object is durable");
      assertThrows(FileNotFoundException.class, () -> c.status("/selection/running"),
          "an execution killed before it was done leaves nothing under the output's name");
      for (ObjectStatus s : c.list("/selection", "", 100).entries()) {
        String name = s.path().substring(s.path().lastIndexOf('/') + 1);
        assertTrue(name.equals("done") || name.startsWith(".smartssd-output-"), "unexpected " + s.path());
      }
    } finally {
      again.close();
    }
  }

  /**
   * Analyses attached to writes, on the fly (a one-page buffer that overflows to idle time) and in idle time
   * only, with garbage collection in idle time too: a kill while idle time reads pages back and moves them
   * loses nothing closed or synced.
   */
  @Test
  void aKillWhileIdleTimeAnalysesAndCollectsGarbageLosesNothingAcknowledged() throws Exception {
    Map<String, String> config = TestDevices.small(dir);
    config.put("smartssd.device.active.idle-gc", "true");
    config.put("smartssd.device.active.buffer-bytes", "4096");
    Map<String, byte[]> kept = new java.util.TreeMap<>();
    DeviceProcess device = DeviceProcess.start(dir, config);
    try (SocketDeviceClient c = connect(device)) {
      long tasklet = c.createObject(java.nio.ByteBuffer.allocate(0),
          org.smartssd.device.tasklet.builtin.LocalExtrema.class.getName(), Map.of());
      c.mkdirs("/fly");
      c.mkdirs("/idle");
      c.executeObject(tasklet, List.of(org.smartssd.device.tasklet.InputRange.whole("/fly")),
          Map.of("attach", "write", "overflow", "defer"));
      c.executeObject(tasklet, List.of(org.smartssd.device.tasklet.InputRange.whole("/idle")),
          Map.of("attach", "write", "schedule", "idle"));
      long capacity = c.info().capacityBytes();
      int size = (int) (capacity / 10);
      for (int round = 0; round < 4; round++) {
        for (String d : List.of("/fly", "/idle")) {
          for (int f = 0; f < 2; f++) {
            StringBuilder sb = new StringBuilder();
            Random r = new Random(round * 10L + f + d.length());
            while (sb.length() < size) {
              sb.append(r.nextInt(100_000)).append('\n');
            }
            byte[] data = sb.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            String path = d + "/f" + f;
            long h = c.create(path, true, false).handle();
            c.write(h, data, 0, data.length);
            c.closeHandle(h); // acknowledged and durable (a close commits the file)
            kept.put(path, data);
          }
        }
      }
      long h = c.create("/fly/open", true, false).handle();
      byte[] open = stream(3, 200_000);
      c.write(h, open, 0, open.length);
      c.sync(h);
      kept.put("/fly/open", open);
      // Idle: deferred pages are read back, then garbage is collected; killed once that has begun.
      long erased = erased(c.statistics());
      long deadline = System.nanoTime() + 20_000_000_000L;
      while (erased(c.statistics()) == erased) {
        assertTrue(System.nanoTime() < deadline, "no garbage was collected in idle time");
        Thread.sleep(50);
      }
      device.kill();
    }
    DeviceProcess again = DeviceProcess.start(dir, config);
    try (SocketDeviceClient c = connect(again)) {
      for (Map.Entry<String, byte[]> e : kept.entrySet()) {
        assertArrayEquals(e.getValue(), readAll(c, e.getKey()), e.getKey());
      }
    } finally {
      again.close();
    }
  }

  private static long erased(org.smartssd.device.DeviceStatistics s) {
    return s.channels().stream().mapToLong(ch -> ch.blocksErased()).sum();
  }

  private static void walk(SocketDeviceClient c, String path) throws IOException {
    for (ObjectStatus s : c.listAll(path)) {
      if (s.directory()) {
        walk(c, s.path());
      } else {
        assertEquals(s.length(), readAll(c, s.path()).length, s.path());
      }
    }
  }
}
