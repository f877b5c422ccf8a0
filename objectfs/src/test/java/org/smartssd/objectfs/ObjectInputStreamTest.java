package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.TestDevices;

/** Reads: read-ahead, byte buffers, concurrent positioned reads, and no silent short reads. */
class ObjectInputStreamTest {
  private static final int FILE_BYTES = 1 << 20;

  @TempDir static java.nio.file.Path dataDir;
  private static LocalDevice device;
  private static FileSystem fs;
  private static byte[] data;
  private static final Path FILE = new Path("/in/file");

  @BeforeAll
  static void writeFile() throws IOException {
    device = LocalDevice.start(dataDir);
    fs = device.newFileSystem(LocalDevice.conf());
    data = TestDevices.bytes(FILE_BYTES, 42);
    try (FSDataOutputStream out = fs.create(FILE)) {
      out.write(data);
    }
  }

  @AfterAll
  static void stop() throws IOException {
    fs.close();
    device.close();
  }

  @Test
  void readsAheadWholeStripesByDefault() throws IOException {
    // The small test device: 8 channels x 1-page stripe unit x 4 KiB pages = 32 KiB a stripe; the
    // default read-ahead is 32 of them (1 MiB), so 100,000 bytes take one device READ.
    assertThat(deviceReadsForByteByByte(fs, 100_000)).isEqualTo(1);
    Configuration conf = LocalDevice.conf();
    conf.set(ObjfsConfigKeys.READAHEAD_BYTES, "10000");
    try (FileSystem other = device.newFileSystem(conf)) {
      assertThat(deviceReadsForByteByByte(other, 100_000)).isEqualTo(10);
    }
  }

  private static long deviceReadsForByteByByte(FileSystem fileSystem, int n) throws IOException {
    try (FSDataInputStream in = fileSystem.open(FILE)) {
      for (int i = 0; i < n; i++) {
        assertThat((byte) in.read()).isEqualTo(data[i]);
      }
      return ((IOStatisticsSource) in.getWrappedStream()).getIOStatistics().counters()
          .get(ObjectInputStream.STREAM_READ_DEVICE_REQUESTS);
    }
  }

  @Test
  void readsIntoHeapAndDirectByteBuffers() throws IOException {
    try (FSDataInputStream in = fs.open(FILE)) {
      assertThat(in.hasCapability(StreamCapabilities.READBYTEBUFFER)).isTrue();
      ByteBuffer direct = ByteBuffer.allocateDirect(FILE_BYTES);
      in.seek(100);
      ByteBuffer small = ByteBuffer.allocate(10);
      assertThat(in.read(small)).isEqualTo(10);
      assertThat(Arrays.copyOf(small.array(), 10)).isEqualTo(Arrays.copyOfRange(data, 100, 110));
      in.seek(0);
      while (direct.hasRemaining()) {
        if (in.read(direct) < 0) {
          break;
        }
      }
      assertThat(direct.position()).isEqualTo(FILE_BYTES);
      byte[] back = new byte[FILE_BYTES];
      direct.flip().get(back);
      assertArrayEquals(data, back);
      assertThat(in.read(ByteBuffer.allocate(1))).isEqualTo(-1);
    }
  }

  @Test
  void positionedReadsRunConcurrentlyWithASequentialReader() throws Exception {
    int readers = 8;
    int readsEach = 200;
    ExecutorService pool = Executors.newFixedThreadPool(readers + 1);
    try (FSDataInputStream in = fs.open(FILE)) {
      List<Callable<Integer>> tasks = new ArrayList<>();
      for (int t = 0; t < readers; t++) {
        long seed = t;
        tasks.add(() -> {
          Random random = new Random(seed);
          for (int i = 0; i < readsEach; i++) {
            int position = random.nextInt(FILE_BYTES);
            int length = 1 + random.nextInt(Math.min(64 * 1024, FILE_BYTES - position));
            byte[] got = new byte[length];
            in.readFully(position, got);
            assertArrayEquals(Arrays.copyOfRange(data, position, position + length), got,
                "pread of " + length + " bytes at " + position);
          }
          return readsEach;
        });
      }
      tasks.add(() -> {
        byte[] all = new byte[FILE_BYTES];
        int done = 0;
        Random random = new Random(99);
        while (done < FILE_BYTES) {
          int n = in.read(all, done, Math.min(1 + random.nextInt(50_000), FILE_BYTES - done));
          assertThat(n).isPositive();
          done += n;
          assertThat(in.getPos()).isEqualTo(done); // positioned reads never move it
        }
        assertArrayEquals(data, all);
        assertThat(in.read()).isEqualTo(-1);
        return 1;
      });
      for (Future<Integer> f : pool.invokeAll(tasks, 60, TimeUnit.SECONDS)) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * A vectored read has its ranges' device reads in flight together (fs.objfs.vectored-read.threads):
   * the device here answers no read until four are waiting; with one thread the ranges go in turn, as
   * Hadoop's default reads them, and so at most one is ever waiting.
   */
  @Test
  void aVectoredReadHasItsRangesInFlightTogether() throws Exception {
    for (int threads : new int[] {4, 1}) {
      java.util.concurrent.atomic.AtomicInteger waiting = new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.CountDownLatch four = new java.util.concurrent.CountDownLatch(4);
      Configuration conf = LocalDevice.conf();
      conf.setInt(ObjfsConfigKeys.VECTORED_READ_THREADS, threads);
      try (FileSystem gated = new ObjectFileSystem() {
        @Override
        protected ObjectStoreAdapter createAdapter(URI name, Configuration c) throws IOException {
          return new ForwardingAdapter(super.createAdapter(name, c)) {
            @Override
            public int read(long objectId, long offset, ByteBuffer dst) throws IOException {
              most.accumulateAndGet(waiting.incrementAndGet(), Math::max);
              four.countDown();
              try {
                four.await(threads == 1 ? 0 : 30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
              }
              waiting.decrementAndGet();
              return super.read(objectId, offset, dst);
            }
          };
        }
      }) {
        gated.initialize(device.uri, conf);
        List<org.apache.hadoop.fs.FileRange> ranges = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          ranges.add(org.apache.hadoop.fs.FileRange.createFileRange(i * 200_000L + 17, 5_000 + i));
        }
        ranges.add(org.apache.hadoop.fs.FileRange.createFileRange(FILE_BYTES - 10, 20)); // past the end
        try (FSDataInputStream in = gated.open(FILE)) {
          in.readVectored(ranges, ByteBuffer::allocateDirect);
          for (org.apache.hadoop.fs.FileRange r : ranges.subList(0, 4)) {
            ByteBuffer got = r.getData().get(60, TimeUnit.SECONDS);
            byte[] bytes = new byte[got.remaining()];
            got.get(bytes);
            assertThat(bytes).as("threads %d, range at %d", threads, r.getOffset())
                .isEqualTo(java.util.Arrays.copyOfRange(data, (int) r.getOffset(), (int) r.getOffset() + r.getLength()));
          }
          assertThatThrownBy(() -> ranges.get(4).getData().get(60, TimeUnit.SECONDS))
              .hasCauseInstanceOf(java.io.EOFException.class);
        }
      }
      if (threads == 1) {
        assertThat(most.get()).as("one thread: in turn").isEqualTo(1);
      } else {
        assertThat(most.get()).as("%d threads: together", threads).isGreaterThanOrEqualTo(4);
      }
    }
  }

  @Test
  void aFileThatEndsEarlyFailsTheReadInsteadOfEndingIt() throws IOException {
    // The device answers "end of object" half way: the length OPEN gave is not met.
    try (FileSystem truncating = new ObjectFileSystem() {
      @Override
      protected ObjectStoreAdapter createAdapter(URI name, Configuration conf) throws IOException {
        return new ForwardingAdapter(super.createAdapter(name, conf)) {
          @Override
          public int read(long objectId, long offset, ByteBuffer dst) throws IOException {
            if (offset >= FILE_BYTES / 2) {
              return -1;
            }
            // Small answers, as a device with small frames gives, so that a read reaches the cut.
            ByteBuffer some = dst.slice();
            some.limit(Math.min(some.limit(), 64 * 1024));
            int n = super.read(objectId, offset, some);
            dst.position(dst.position() + Math.max(n, 0));
            return n;
          }
        };
      }
    }) {
      truncating.initialize(device.uri, LocalDevice.conf());
      try (FSDataInputStream in = truncating.open(FILE)) {
        byte[] all = new byte[FILE_BYTES];
        assertThatThrownBy(() -> in.readFully(all))
            .isInstanceOf(IOException.class)
            .hasMessageContaining(device.uri + "/in/file")
            .hasMessageContaining("truncated");
        assertThatThrownBy(() -> in.readFully(FILE_BYTES - 10, new byte[10]))
            .isInstanceOf(IOException.class)
            .hasMessageContaining("truncated");
      }
    }
  }

  @Test
  void aFileDeletedWhileReadFailsNamingIt() throws IOException {
    Path doomed = new Path("/in/doomed");
    try (FSDataOutputStream out = fs.create(doomed)) {
      out.write(data);
    }
    Configuration conf = LocalDevice.conf();
    conf.set(ObjfsConfigKeys.READAHEAD_BYTES, "4096"); // so that the read after the seek goes to the device
    try (FileSystem small = device.newFileSystem(conf); FSDataInputStream in = small.open(doomed)) {
      assertThat(in.read()).isEqualTo(data[0] & 0xff);
      fs.delete(doomed, false);
      in.seek(FILE_BYTES / 2);
      assertThatThrownBy(in::read)
          .isInstanceOf(FileNotFoundException.class)
          .hasMessageContaining(device.uri + "/in/doomed")
          .hasMessageContaining("does not exist");
    }
  }

  @Test
  void aReaderKeepsItsFileAcrossARename() throws IOException {
    Path before = new Path("/in/before");
    try (FSDataOutputStream out = fs.create(before)) {
      out.write(data, 0, 1000);
    }
    try (FSDataInputStream in = fs.open(before)) {
      fs.rename(before, new Path("/in/after"));
      byte[] back = new byte[1000];
      in.readFully(back);
      assertArrayEquals(Arrays.copyOf(data, 1000), back);
    }
  }

  @Test
  void closedStreamsRefuseReads() throws IOException {
    FSDataInputStream in = fs.open(FILE);
    in.close();
    assertThatThrownBy(in::read).isInstanceOf(IOException.class).hasMessageContaining("closed");
    assertThatThrownBy(() -> in.read(0, new byte[1], 0, 1)).isInstanceOf(IOException.class);
    in.close();
  }
}
