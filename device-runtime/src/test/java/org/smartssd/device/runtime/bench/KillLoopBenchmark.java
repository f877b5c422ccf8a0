package org.smartssd.device.runtime.bench;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.runtime.DeviceProcess;

/**
 * The kill -9 loop: a device process is started on one data directory again and again; each time,
 * writers append known content to files through the Java client, syncing now and then, closing a
 * file at a random size and renaming it into place, and the process gets SIGKILL ({@code kill -9})
 * at a random moment while they write. After each restart every file is read back and held to what
 * the device acknowledged (PROTOCOL.md): the length a {@code SYNC} or {@code CLOSE} returned is
 * durable and must come back, with the right bytes; a file whose {@code CREATE} was answered must
 * exist; an answered {@code RENAME} or {@code DELETE} must have happened. Bytes written and
 * acknowledged but never synced may be lost; whatever comes back must still be the right bytes.
 * Files are checked at every restart until they are deleted, two rounds after they were written.
 *
 * <p>Arguments: {@code [work-dir] [iterations] [seed]} (defaults: a temporary directory, 30, a new
 * seed, printed). Prints one line per iteration, then a Markdown table.
 */
public final class KillLoopBenchmark {
  /** Concurrent writers, each on its own connection: more than one, so that syncs and closes interleave. */
  private static final int WRITERS = 4;
  /** The largest WRITE: a 1 MiB buffer, as objfs's streams send; sizes are uniform from 1 byte to this. */
  private static final int MAX_WRITE = 1 << 20;
  /** A writer syncs after one write in this many, at random. */
  private static final int SYNC_ONE_IN = 8;
  /** Files are closed at a size uniform up to this: many files per round, some large. */
  private static final long MAX_FILE_BYTES = 64L << 20;
  /**
   * The kill comes uniformly between these times after the writers start: from early in a round's
   * first files to well into its checkpoints (one every 64 MiB of journal, the default).
   */
  private static final long KILL_AFTER_MIN_MS = 1_000;
  private static final long KILL_AFTER_MAX_MS = 8_000;
  /** Files are deleted this many rounds after they were written, once checked that often. */
  private static final int KEEP_ROUNDS = 2;

  /** A file as the writers left it: what the device acknowledged about it. */
  private static final class Written {
    final int round;
    final long seed;
    final String finalPath;
    volatile String path;
    /** The rename is sent and not answered: the file may be at either path. */
    volatile boolean renameSent;
    volatile boolean created;
    /** Bytes whose WRITE was answered. */
    volatile long written;
    /** The length the last SYNC or CLOSE returned: durable. */
    volatile long durable;
    volatile boolean closed;
    /** Checked after a restart at least once. */
    boolean checked;

    Written(int round, long seed, String path, String finalPath) {
      this.round = round;
      this.seed = seed;
      this.path = path;
      this.finalPath = finalPath;
    }
  }

  /** Totals over the run. */
  private static final class Tally {
    long filesCreated;
    long filesClosed;
    long bytesWritten;
    long bytesDurable;
    long bytesLost;
    long bytesWrong;
    long filesMissing;
    long renamesLost;
    long deletesUndone;
    long recoveredBeyondSync;
    /** Writers that failed while the device was up (out of space, an error status): none is expected. */
    final List<String> writerFailures = java.util.Collections.synchronizedList(new ArrayList<>());
    final List<Double> restartSeconds = new ArrayList<>();
  }

  public static void main(String[] args) throws Exception {
    Path work = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("smartssd-kill-loop");
    int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    long seed = args.length > 2 ? Long.parseLong(args[2]) : System.nanoTime();
    Path dataDir = work.resolve("device");
    Files.createDirectories(dataDir);
    Map<String, String> config = new HashMap<>();
    // The default profile with 8 GiB of flash instead of 32 GiB: a round writes at most a few GB and
    // two rounds stay on the device, and the backing files grow with bytes written (issue 15, item 8).
    config.put("smartssd.device.flash.blocks-per-way", "256");
    System.out.printf("kill loop: %d iterations, seed %d, data in %s%n", iterations, seed, dataDir);
    Random random = new Random(seed);
    Tally tally = new Tally();
    List<Written> live = new ArrayList<>();
    List<String> deleted = new ArrayList<>();
    long started = System.nanoTime();

    for (int round = 0; round <= iterations; round++) {
      long t0 = System.nanoTime();
      DeviceProcess device = DeviceProcess.start(dataDir, config);
      tally.restartSeconds.add((System.nanoTime() - t0) / 1e9);
      long lostBefore = tally.bytesLost + tally.bytesWrong;
      try (SocketDeviceClient c = connect(device)) {
        for (Written w : live) {
          check(c, w, tally);
        }
        for (String path : deleted) {
          if (exists(c, path)) {
            tally.deletesUndone++;
            System.out.println("  a deleted file came back: " + path);
          }
        }
        // Files written KEEP_ROUNDS rounds ago have been checked after that many kills: delete them.
        for (Written w : new ArrayList<>(live)) {
          if (w.round <= round - KEEP_ROUNDS && exists(c, w.path)) {
            c.delete(w.path, false);
            deleted.add(w.path);
            live.remove(w);
          }
        }
      }
      if (round == iterations) {
        device.close(); // the last start only checks the last kill
        System.out.printf("final check: restart %.1f s, lost %d bytes%n",
            tally.restartSeconds.get(round), tally.bytesLost + tally.bytesWrong - lostBefore);
        break;
      }

      AtomicBoolean killed = new AtomicBoolean();
      List<Written> thisRound = java.util.Collections.synchronizedList(new ArrayList<>());
      List<Thread> writers = new ArrayList<>();
      int thisRoundNumber = round;
      for (int k = 0; k < WRITERS; k++) {
        int writer = k;
        long writerSeed = random.nextLong();
        Thread t = new Thread(() -> {
          try {
            write(device, thisRoundNumber, writer, writerSeed, thisRound, killed);
          } catch (RuntimeException e) {
            tally.writerFailures.add("round " + thisRoundNumber + ", writer " + writer + ": " + e.getCause());
          }
        }, "writer-" + k);
        writers.add(t);
      }
      writers.forEach(Thread::start);
      long killAfter = KILL_AFTER_MIN_MS + (long) (random.nextDouble() * (KILL_AFTER_MAX_MS - KILL_AFTER_MIN_MS));
      TimeUnit.MILLISECONDS.sleep(killAfter);
      killed.set(true);
      device.kill(); // SIGKILL: no shutdown hook, nothing flushed or closed
      for (Thread t : writers) {
        t.join(TimeUnit.MINUTES.toMillis(1));
        if (t.isAlive()) {
          throw new IllegalStateException(t.getName() + " still runs a minute after the kill");
        }
      }
      long written = 0;
      long durable = 0;
      for (Written w : thisRound) {
        written += w.written;
        durable += w.durable;
        tally.filesCreated += w.created ? 1 : 0;
        tally.filesClosed += w.closed ? 1 : 0;
      }
      tally.bytesWritten += written;
      tally.bytesDurable += durable;
      live.addAll(thisRound);
      System.out.printf("round %d: restart %.1f s (lost so far %d bytes); killed after %.1f s: %d files, %,d bytes"
              + " written, %,d acknowledged durable%n", round, tally.restartSeconds.get(round),
          tally.bytesLost + tally.bytesWrong, killAfter / 1e3, thisRound.size(), written, durable);
    }
    double minutes = (System.nanoTime() - started) / 60e9;
    List<Double> restarts = new ArrayList<>(tally.restartSeconds);
    restarts.sort(null);
    System.out.println();
    System.out.println("| what | value |");
    System.out.println("| --- | ---: |");
    System.out.printf("| kill -9 during writes (iterations) | %d |%n", iterations);
    System.out.printf("| files created / closed | %,d / %,d |%n", tally.filesCreated, tally.filesClosed);
    System.out.printf("| bytes acknowledged by WRITE | %,d (%.1f GB) |%n", tally.bytesWritten, tally.bytesWritten / 1e9);
    System.out.printf("| bytes acknowledged durable (SYNC, CLOSE) | %,d (%.1f GB) |%n", tally.bytesDurable,
        tally.bytesDurable / 1e9);
    System.out.printf("| durable bytes lost or wrong after restart | %,d |%n", tally.bytesLost);
    System.out.printf("| bytes read back wrong (anywhere) | %,d |%n", tally.bytesWrong);
    System.out.printf("| files created and missing / renames undone / deletes undone | %d / %d / %d |%n",
        tally.filesMissing, tally.renamesLost, tally.deletesUndone);
    System.out.printf("| written but unsynced bytes that came back (allowed either way) | %,d |%n",
        tally.recoveredBeyondSync);
    System.out.printf("| restart (recovery) time, median / max | %.1f s / %.1f s |%n",
        restarts.get(restarts.size() / 2), restarts.get(restarts.size() - 1));
    System.out.printf("| writers failed before the kill | %d |%n", tally.writerFailures.size());
    System.out.printf("| run time | %.1f min |%n", minutes);
    tally.writerFailures.forEach(f -> System.out.println("writer failed: " + f));
    if (tally.bytesLost + tally.bytesWrong + tally.filesMissing + tally.renamesLost + tally.deletesUndone
        + tally.writerFailures.size() > 0) {
      System.exit(1);
    }
  }

  /** One writer until the kill: files of known content, synced now and then, closed and renamed into place. */
  private static void write(DeviceProcess device, int round, int writer, long seed, List<Written> files,
      AtomicBoolean killed) {
    String dir = String.format("/kill/r%03d", round);
    Random r = new Random(seed);
    byte[] buf = new byte[MAX_WRITE];
    try (SocketDeviceClient c = connect(device)) {
      for (int n = 0; ; n++) {
        String name = "w" + writer + "-" + n;
        Written w = new Written(round, r.nextLong(), dir + "/_tmp/" + name, dir + "/" + name);
        files.add(w);
        long h = c.create(w.path, false, true).handle();
        w.created = true;
        long size = 1 + (long) (r.nextDouble() * MAX_FILE_BYTES);
        while (w.written < size) {
          int len = (int) Math.min(size - w.written, 1 + r.nextInt(MAX_WRITE));
          KnownContent.fill(w.seed, w.written, buf, 0, len);
          c.write(h, buf, 0, len);
          w.written += len;
          if (r.nextInt(SYNC_ONE_IN) == 0) {
            w.durable = c.sync(h);
          }
        }
        w.durable = c.closeHandle(h);
        w.closed = true;
        w.renameSent = true;
        c.rename(w.path, w.finalPath);
        w.path = w.finalPath;
        w.renameSent = false;
      }
    } catch (IOException e) {
      if (!killed.get()) {
        throw new IllegalStateException("writer " + writer + " failed before the kill", e);
      }
    }
  }

  /** Holds one file to what the device acknowledged about it. */
  private static void check(SocketDeviceClient c, Written w, Tally tally) throws IOException {
    if (w.renameSent) {
      boolean before = exists(c, w.path);
      boolean after = exists(c, w.finalPath);
      if (before == after) {
        System.out.println("  " + w.finalPath + ": a rename in flight left it at " + (before ? "both paths" : "neither path"));
        tally.renamesLost++;
        return;
      }
      w.path = after ? w.finalPath : w.path;
      w.renameSent = false;
    }
    ObjectStatus st;
    try {
      st = c.open(w.path);
    } catch (FileNotFoundException e) {
      if (w.created) {
        boolean atOtherPath = !w.path.equals(w.finalPath) && exists(c, w.finalPath);
        System.out.println("  " + w.path + ": missing" + (atOtherPath ? " (a rename never answered happened?)" : "")
            + "; " + w.durable + " bytes were durable");
        if (w.closed && !w.path.equals(w.finalPath)) {
          tally.renamesLost++;
        }
        tally.filesMissing++;
        tally.bytesLost += w.durable;
      }
      return;
    }
    long right = KnownContent.rightPrefix(c, st.objectId(), w.seed, st.length());
    if (right < st.length()) {
      System.out.println("  " + w.path + ": wrong bytes from offset " + right + " of " + st.length());
      tally.bytesWrong += st.length() - right;
    }
    if (right < w.durable) {
      System.out.println("  " + w.path + ": " + right + " bytes right, " + w.durable + " were durable");
      tally.bytesLost += w.durable - right;
    }
    if (!w.checked) {
      tally.recoveredBeyondSync += Math.max(0, Math.min(right, w.written) - w.durable);
      w.checked = true;
    }
  }

  private static boolean exists(SocketDeviceClient c, String path) throws IOException {
    try {
      c.status(path);
      return true;
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  private static SocketDeviceClient connect(DeviceProcess device) throws IOException {
    return SocketDeviceClient.connect(DeviceAddress.parse(device.address()), ClientOptions.defaults());
  }
}
