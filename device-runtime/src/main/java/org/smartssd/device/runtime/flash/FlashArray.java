package org.smartssd.device.runtime.flash;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import org.smartssd.device.runtime.timing.FlashTimeline;
import org.smartssd.device.runtime.timing.TimingModel;

/**
 * The flash array: pages stored in one sparse backing file per channel, {@code <dataDir>/flash/
 * channel-NNN.flash}, each page at ((way x blocksPerWay + block) x pagesPerBlock + page) x pageSize.
 * Every operation is accounted on the command it is given (none when it is {@code null}).
 *
 * <p>Every page carries a CRC-32C in its out-of-band entry ({@link OobFile}, {@code channel-NNN.oob}),
 * written with the page and checked on every read: a page whose data or entry was damaged is never
 * handed out; the read fails with {@link PageCorruptException}. An erase marks the block's entries
 * erased.
 *
 * <p>Space reclaim: an erase, and {@link #discardPages} for pages whose content nothing needs any more,
 * give the pages' backing bytes back to the file system by punching a hole (Linux {@code fallocate},
 * through {@link NativeFiles}), so that the files take about as much disk as the flash holds live data.
 * A punched page reads as zeros, as a page never written does; the FTL maps only programmed pages, so
 * it never reads an erased page before programming it again either way. When holes cannot be punched
 * (switched off, no native library, not Linux, a file system without support), the array says why once
 * at start, or at the first failure, and goes on keeping the bytes (an erase is then accounted only).
 *
 * <p>Reads and programs are positioned, so any number of threads may use the array at once; keeping
 * two writers off one page, and punching only pages nothing maps, is the FTL's business.
 */
public final class FlashArray implements Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(FlashArray.class);
  private static final Pattern CHANNEL_FILE = Pattern.compile("channel-([0-9]{1,9})\\.flash");
  /** The probe's size: two 4 KiB file-system blocks, so that a punch frees whole blocks on common file systems. */
  private static final int PROBE_BYTES = 8192;
  static final String PROBE_FILE = "punch-probe.tmp";

  private final Path directory;
  private final DeviceGeometry geometry;
  private final PageAddressing addressing;
  private final TimingModel timing;
  /** Null for a channel whose file is missing (only when opened for checking). */
  private final ChannelFile[] files;
  /** Null for a channel whose out-of-band file is missing, until {@link #createMissingOob()}. */
  private final OobFile[] oob;
  private final boolean checkOnly;
  private final boolean foundData;
  private final int pageSizeBytes;
  private final long channelBytes;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Why space is not reclaimed; null while it is. Set once, never cleared. */
  private final AtomicReference<String> reclaimOff;
  private final AtomicLong punchedBytes = new AtomicLong();
  private final AtomicLong holesPunched = new AtomicLong();

  private FlashArray(Path directory, DeviceGeometry geometry, TimingModel timing, ChannelFile[] files, OobFile[] oob,
      boolean checkOnly, boolean foundData, long channelBytes, String reclaimOff) {
    this.directory = directory;
    this.geometry = geometry;
    this.addressing = new PageAddressing(geometry);
    this.timing = timing;
    this.files = files;
    this.oob = oob;
    this.checkOnly = checkOnly;
    this.foundData = foundData;
    this.pageSizeBytes = geometry.pageSizeBytes();
    this.channelBytes = channelBytes;
    this.reclaimOff = new AtomicReference<>(reclaimOff);
  }

  /** Opens the array with space reclaim wherever it works: {@link #open(Path, DeviceGeometry, TimingModel, boolean)}. */
  public static FlashArray open(Path dataDir, DeviceGeometry geometry, TimingModel timing) throws IOException {
    return open(dataDir, geometry, timing, true);
  }

  /**
   * Opens the array under {@code dataDir}, creating missing channel files. A channel file that holds
   * data but has no out-of-band file (a data directory made before pages had checksums, or one whose
   * out-of-band file was lost) is opened without one: see {@link #channelsWithoutOob()}. With
   * {@code reclaimSpace}, erased and discarded pages give their bytes back to the file system if the
   * native library is loaded and a hole punched in a probe file beside the channel files reads back as
   * zeros; otherwise the array logs one warning naming why not, and {@link #reclaimNote()} keeps it.
   *
   * @throws IOException when a file cannot be opened or was made for another geometry
   */
  public static FlashArray open(Path dataDir, DeviceGeometry geometry, TimingModel timing, boolean reclaimSpace)
      throws IOException {
    return open(dataDir, geometry, timing, false, reclaimSpace);
  }

  /**
   * Opens an existing array for reading only, creating nothing and punching nothing: a channel whose
   * backing file is missing reads as damaged, every page of it failing its check.
   */
  public static FlashArray openForCheck(Path dataDir, DeviceGeometry geometry, TimingModel timing) throws IOException {
    return open(dataDir, geometry, timing, true, false);
  }

  private static FlashArray open(Path dataDir, DeviceGeometry geometry, TimingModel timing, boolean checkOnly,
      boolean reclaimSpace)
      throws IOException {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(geometry, "geometry");
    Objects.requireNonNull(timing, "timing");
    if (!timing.geometry().equals(geometry)) {
      throw new IllegalArgumentException("timing model is for " + timing.geometry() + ", flash is " + geometry);
    }
    Path directory = dataDir.resolve("flash");
    if (!checkOnly) {
      Files.createDirectories(directory);
    }
    if (Files.isDirectory(directory)) {
      refuseExtraChannels(directory, geometry);
    }
    PageAddressing addressing = new PageAddressing(geometry);
    long channelBytes = (long) addressing.pagesPerChannel() * geometry.pageSizeBytes();
    boolean foundData = hasData(dataDir);
    ChannelFile[] files = new ChannelFile[geometry.channels()];
    OobFile[] oob = new OobFile[geometry.channels()];
    try {
      for (int c = 0; c < files.length; c++) {
        Path file = directory.resolve(fileName(c));
        Path oobPath = directory.resolve(OobFile.fileName(c));
        boolean hadData = Files.exists(file) && Files.size(file) > 0;
        if (checkOnly) {
          files[c] = Files.exists(file) ? ChannelFile.openForReading(file, channelBytes, geometry.toString()) : null;
        } else {
          files[c] = ChannelFile.open(file, channelBytes, geometry.toString());
        }
        if (Files.exists(oobPath) || (!hadData && !checkOnly)) {
          oob[c] = OobFile.open(oobPath, addressing.pagesPerChannel(), !checkOnly, geometry.toString());
        }
      }
    } catch (IOException | RuntimeException e) {
      closeQuietly(files, e);
      throw e;
    }
    String off = checkOnly ? "the array is opened for checking only, which changes nothing"
        : reclaimSpace ? NativeFiles.unavailable().or(() -> probe(directory)).orElse(null)
        : "switched off (" + DeviceConfigKeys.FLASH_RECLAIM_SPACE + "=false)";
    LOG.info("flash array at {}: {} channel files of {} bytes ({}){}; space reclaim {}", directory, files.length,
        channelBytes, geometry, checkOnly ? ", opened for checking" : "",
        off == null ? "on: erased flash gives its disk space back (punch-hole)" : "off");
    if (off != null && !checkOnly) {
      LOG.warn("space reclaim off: {}; the flash files in {} keep the disk space of erased flash, so their disk use"
          + " grows with the bytes written, not with the data held", off, directory);
    }
    return new FlashArray(directory, geometry, timing, files, oob, checkOnly, foundData, channelBytes, off);
  }

  /**
   * Why a hole cannot be punched in the file system of {@code directory}, if it cannot: punches a probe
   * file of its own (never a channel file) and reads it back.
   */
  private static Optional<String> probe(Path directory) {
    Path file = directory.resolve(PROBE_FILE);
    try {
      byte[] content = new byte[PROBE_BYTES];
      Arrays.fill(content, (byte) 0x5A);
      Files.write(file, content);
      int fd = NativeFiles.open(file);
      if (fd < 0) {
        return Optional.of("cannot open the probe " + file + ": " + NativeFiles.describe(-fd));
      }
      int rc;
      try {
        rc = NativeFiles.punchHole(fd, 0, PROBE_BYTES);
      } finally {
        NativeFiles.close(fd);
      }
      if (rc < 0) {
        return Optional.of(NativeFiles.isUnsupported(-rc)
            ? "the file system of " + directory + " does not support punching holes (fallocate: "
                + NativeFiles.describe(-rc) + ")"
            : "punching a hole in the probe " + file + " failed: " + NativeFiles.describe(-rc));
      }
      byte[] back = Files.readAllBytes(file);
      if (back.length != PROBE_BYTES || !Arrays.equals(back, new byte[PROBE_BYTES])) {
        return Optional.of("a hole punched in the probe " + file + " does not read back as zeros");
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("probing " + file + " failed: " + e);
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        LOG.debug("cannot remove {}: {}", file, e.toString());
      }
    }
  }

  /**
   * Why the device's native library (punch-hole, disk use) is not loaded in this JVM, if it is not:
   * the build skipped it (-DskipNative), another platform, a load error.
   */
  public static Optional<String> nativeLibraryUnavailable() {
    return NativeFiles.unavailable();
  }

  /** Whether {@code dataDir} holds flash backing files with data (not a new device). */
  public static boolean hasData(Path dataDir) throws IOException {
    Path directory = dataDir.resolve("flash");
    if (!Files.isDirectory(directory)) {
      return false;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, "channel-*.flash")) {
      for (Path entry : entries) {
        if (Files.size(entry) > 0) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether channel files with data were there when the array was opened (it is not a new device). */
  public boolean foundData() {
    return foundData;
  }

  /** Channels whose backing file holds data but that have no out-of-band file. */
  public java.util.List<Integer> channelsWithoutOob() {
    java.util.List<Integer> missing = new java.util.ArrayList<>();
    for (int c = 0; c < oob.length; c++) {
      if (oob[c] == null) {
        missing.add(c);
      }
    }
    return missing;
  }

  /** The out-of-band file of a channel (whether or not it exists). */
  public Path oobPath(int channel) {
    return directory.resolve(OobFile.fileName(channel));
  }

  /** The backing file of a channel. */
  public Path channelPath(int channel) {
    return directory.resolve(fileName(channel));
  }

  /**
   * Creates the missing out-of-band files, every entry erased: pages of those channels fail their
   * check until they are programmed again, or until {@link #recordChecksum} vouches for them.
   */
  public void createMissingOob() throws IOException {
    checkWritable();
    for (int c = 0; c < oob.length; c++) {
      if (oob[c] == null) {
        oob[c] = OobFile.open(oobPath(c), addressing.pagesPerChannel(), true, geometry.toString());
        LOG.info("created the out-of-band file {}", oob[c].path());
      }
    }
  }

  /** The backing file name of a channel: three digits at least, so that names sort by channel. */
  public static String fileName(int channel) {
    return String.format(Locale.ROOT, "channel-%03d.flash", channel);
  }

  public Path directory() {
    return directory;
  }

  public DeviceGeometry geometry() {
    return geometry;
  }

  public PageAddressing addressing() {
    return addressing;
  }

  public TimingModel timing() {
    return timing;
  }

  public int pageSizeBytes() {
    return pageSizeBytes;
  }

  /**
   * As {@link #readPage(int, ByteBuffer, int, FlashTimeline)} for a page programmed for owner 0, for
   * callers that do not track owners.
   */
  public void readPage(int ppa, ByteBuffer dst, FlashTimeline cmd) throws IOException {
    readPage(ppa, dst, 0, cmd);
  }

  /**
   * Reads the whole page into {@code dst}, advancing its position by a page, and checks it against
   * its out-of-band entry: the page must have been programmed for {@code owner} with these bytes.
   *
   * @throws PageCorruptException when it was not; {@code dst}'s page is then zeros, never the bytes read
   */
  public void readPage(int ppa, ByteBuffer dst, int owner, FlashTimeline cmd) throws IOException {
    int channel = addressing.channel(ppa);
    ByteBuffer page;
    String problem;
    try {
      page = readRaw(ppa, dst, cmd);
      problem = oob[channel] == null
          ? "its checksum is missing: the out-of-band file " + oobPath(channel) + " does not exist"
          : oob[channel].problem(addressing.pageInChannel(ppa), page, owner);
    } catch (InternalError e) {
      // The JDK reports a fault in mapped memory (a file cut short under the device) a little after
      // the copy that met it: by here, within this read.
      throw ChannelFile.mappedFault(channelPath(channel), ppa, e);
    }
    if (problem != null) {
      zero(page);
      throw corrupt(ppa, problem);
    }
  }

  /** Reads the page without checking it: for computing the checksums of pages written before they had any. */
  /** Reads a page's bytes without checking them (package-private for tests that look at punched pages). */
  ByteBuffer readRaw(int ppa, ByteBuffer dst, FlashTimeline cmd) throws IOException {
    int channel = addressing.channel(ppa);
    if (dst.remaining() < pageSizeBytes) {
      throw new IllegalArgumentException("buffer has " + dst.remaining() + " bytes remaining; a page is "
          + pageSizeBytes);
    }
    checkUsable(cmd);
    if (files[channel] == null) {
      throw corrupt(ppa, "the channel's backing file " + channelPath(channel) + " is missing");
    }
    int start = dst.position();
    ByteBuffer page = dst.duplicate();
    page.limit(start + pageSizeBytes);
    files[channel].readFully(page, offsetBytes(ppa), ppa, cmd);
    dst.position(page.position());
    if (cmd != null) {
      cmd.readPage(channel, addressing.way(ppa));
    }
    return dst.duplicate().position(start).limit(start + pageSizeBytes);
  }

  /** As {@link #programPage(int, ByteBuffer, int, FlashTimeline)} for owner 0. */
  public void programPage(int ppa, ByteBuffer src, FlashTimeline cmd) throws IOException {
    programPage(ppa, src, 0, cmd);
  }

  /**
   * Programs the page with the remaining bytes of {@code src}, zeros after them, for {@code owner}
   * (the logical page it holds, at least 0), with its checksum in the out-of-band entry; consumes
   * {@code src}.
   */
  public void programPage(int ppa, ByteBuffer src, int owner, FlashTimeline cmd) throws IOException {
    int channel = addressing.channel(ppa);
    if (src.remaining() > pageSizeBytes) {
      throw new IllegalArgumentException("buffer has " + src.remaining() + " bytes remaining; a page is "
          + pageSizeBytes);
    }
    if (owner < 0 || owner == Integer.MAX_VALUE) {
      throw new IllegalArgumentException("page owner " + owner + " is outside 0.." + (Integer.MAX_VALUE - 1));
    }
    checkUsable(cmd);
    checkWritable();
    ByteBuffer page;
    if (src.remaining() == pageSizeBytes) {
      page = src.duplicate();
    } else {
      // A whole page is written, so that stale bytes of an earlier program never show through.
      page = ByteBuffer.allocate(pageSizeBytes);
      page.put(src.duplicate()).clear();
    }
    OobFile area = oobOf(channel);
    area.program(addressing.pageInChannel(ppa), page, owner);
    files[channel].writeFully(page, offsetBytes(ppa), ppa);
    src.position(src.limit());
    if (cmd != null) {
      cmd.programPage(channel, addressing.way(ppa));
    }
  }

  /**
   * Garbage collection's move of page {@code from} (programmed for {@code owner}) to the erased page
   * {@code to}, through {@code buffer} (a page). A page that passes its check is programmed anew; one
   * that fails is copied with its out-of-band entry as it is, so that it goes on failing (a move never
   * turns damaged bytes into bytes with a good checksum).
   *
   * @return whether the page passed its check
   */
  public boolean movePage(int from, int to, int owner, ByteBuffer buffer, FlashTimeline cmd) throws IOException {
    buffer.clear();
    int fromChannel = addressing.channel(from);
    ByteBuffer page = readRaw(from, buffer, cmd);
    String problem = oob[fromChannel] == null ? "its checksum is missing"
        : oob[fromChannel].problem(addressing.pageInChannel(from), page, owner);
    if (problem == null) {
      programPage(to, page, owner, cmd);
      return true;
    }
    LOG.warn("garbage collection moves physical page {} ({}) to {} with its out-of-band entry as it is: {}", from,
        where(from), to, problem);
    int toChannel = addressing.channel(to);
    checkWritable();
    OobFile area = oobOf(toChannel);
    if (oob[fromChannel] == null) {
      area.put(addressing.pageInChannel(to), 0, 0);
    } else {
      area.put(addressing.pageInChannel(to), oob[fromChannel].crc(addressing.pageInChannel(from)),
          oob[fromChannel].tag(addressing.pageInChannel(from)));
    }
    files[toChannel].writeFully(page, offsetBytes(to), to);
    if (cmd != null) {
      cmd.programPage(toChannel, addressing.way(to));
    }
    return false;
  }

  /**
   * Reads a page written before pages had checksums and records its checksum for {@code owner}: what
   * is there now is taken as what was programmed (nothing can tell otherwise).
   */
  public void recordChecksum(int ppa, int owner, ByteBuffer buffer) throws IOException {
    checkWritable();
    buffer.clear();
    ByteBuffer page = readRaw(ppa, buffer, null);
    oobOf(addressing.channel(ppa)).program(addressing.pageInChannel(ppa), page, owner);
  }

  /**
   * Erases a block: accounted on {@code cmd}, its out-of-band entries set to erased, and its bytes
   * given back to the file system while space reclaim is on (see the class comment). The caller erases
   * only a block no durable mapping points into: what is punched is lost for good.
   */
  public void eraseBlock(int blockId, FlashTimeline cmd) throws IOException {
    int channel = addressing.channelOfBlock(blockId);
    checkUsable(cmd);
    checkWritable();
    LOG.trace("erase block {} (channel {}, way {})", blockId, channel, addressing.wayOfBlock(blockId));
    oobOf(channel).erase(addressing.pageInChannel(addressing.firstPpa(blockId)), geometry.pagesPerBlock());
    discardPages(addressing.firstPpa(blockId), geometry.pagesPerBlock());
    if (cmd != null) {
      cmd.eraseBlock(channel, addressing.wayOfBlock(blockId));
    }
  }

  /**
   * Gives the backing bytes of {@code count} pages from {@code firstPpa} back to the file system (one
   * hole per channel they span); they read as zeros afterwards. Not a flash operation: nothing is
   * accounted. For pages whose content nothing needs any more: the FTL calls it only once the journal
   * records that made them so are durable. Punching a page twice does no harm. Does nothing while
   * space reclaim is off; a failure turns it off (one warning) rather than failing the caller, as the
   * pages then just keep their bytes.
   *
   * @throws IOException only when the array is closed
   */
  public void discardPages(int firstPpa, int count) throws IOException {
    checkUsable(null);
    if (count <= 0 || reclaimOff.get() != null) {
      return;
    }
    int ppa = firstPpa;
    int left = count;
    addressing.pageInChannel(firstPpa + count - 1); // checks the range's end
    while (left > 0) {
      int channel = addressing.channel(ppa);
      int n = Math.min(left, addressing.pagesPerChannel() - addressing.pageInChannel(ppa));
      long length = (long) n * pageSizeBytes;
      int rc = files[channel].punchHole(offsetBytes(ppa), length);
      if (rc < 0) {
        String what = NativeFiles.isUnsupported(-rc)
            ? "the file system does not support punching holes in "
            : "punching a hole failed in ";
        String why = what + files[channel].path() + " (fallocate at " + offsetBytes(ppa) + ", " + length
            + " bytes: " + NativeFiles.describe(-rc) + ")";
        if (reclaimOff.compareAndSet(null, why)) {
          LOG.warn("space reclaim off: {}; from now on erased flash keeps its disk space", why);
        }
        return;
      }
      punchedBytes.addAndGet(length);
      holesPunched.incrementAndGet();
      if (oob[channel] != null) {
        // The bytes are gone: the entries say so, and a later check names the pages erased, not mismatched.
        oob[channel].erase(addressing.pageInChannel(ppa), n);
      }
      ppa += n;
      left -= n;
    }
  }

  /** A run of neighbouring pages. */
  @FunctionalInterface
  public interface PageRunAction {
    void accept(int firstPpa, int count) throws IOException;
  }

  /**
   * Calls {@code action} for each run of pages that may hold bytes on disk, in ppa order: the pages
   * around each data extent of the channel files (lseek's SEEK_DATA and SEEK_HOLE), whole pages. Where
   * that cannot be told (no native library, a file system that refuses), the whole array is one run
   * per channel.
   */
  public void forEachAllocatedRun(PageRunAction action) throws IOException {
    checkUsable(null);
    int perChannel = addressing.pagesPerChannel();
    for (int c = 0; c < files.length; c++) {
      int base = c * perChannel;
      if (NativeFiles.unavailable().isPresent()) {
        action.accept(base, perChannel);
        continue;
      }
      long offset = 0;
      while (offset < channelBytes) {
        long data;
        long hole;
        try {
          data = files[c].seek(offset, true);
          if (data == NativeFiles.NO_MORE_DATA) {
            break;
          }
          hole = files[c].seek(data, false);
        } catch (IOException e) {
          LOG.debug("cannot tell where {} holds data ({}); taking all of it from offset {}", files[c].path(),
              e.getMessage(), offset);
          data = offset;
          hole = channelBytes;
        }
        int first = (int) (data / pageSizeBytes);
        int end = (int) Math.min(perChannel, (Math.min(hole, channelBytes) + pageSizeBytes - 1) / pageSizeBytes);
        if (end <= first) {
          break;
        }
        action.accept(base + first, end - first);
        offset = (long) end * pageSizeBytes;
      }
    }
  }

  /** Whether erased and discarded pages give their bytes back to the file system. */
  public boolean reclaimingSpace() {
    return reclaimOff.get() == null;
  }

  /** Why space is not reclaimed; empty while it is. */
  public String reclaimNote() {
    String off = reclaimOff.get();
    return off == null ? "" : off;
  }

  /** Bytes punched since the array was opened (a range punched twice counts twice). */
  public long punchedBytes() {
    return punchedBytes.get();
  }

  /** Holes punched since the array was opened. */
  public long holesPunched() {
    return holesPunched.get();
  }

  /** The channel files' size: the raw flash capacity (they are sparse, so this is not their disk use). */
  public long fileBytes() {
    return channelBytes * files.length;
  }

  /**
   * Bytes the channel files take on disk ({@code st_blocks x 512}, summed); -1 when that cannot be told
   * (no native library, or the array is closed).
   */
  public long allocatedBytes() {
    long sum = 0;
    for (ChannelFile file : files) {
      long bytes = file.allocatedBytes();
      if (bytes < 0) {
        return -1;
      }
      sum += bytes;
    }
    return sum;
  }

  /** Makes every programmed page durable; the FTL calls it before its mapping records. */
  public void force() throws IOException {
    checkUsable(null);
    checkWritable();
    for (ChannelFile file : files) {
      file.force();
    }
    for (OobFile area : oob) {
      if (area != null) {
        area.force();
      }
    }
  }

  /** Closes every channel file; a second call does nothing. */
  @Override
  public void close() throws IOException {
    if (closed.compareAndSet(false, true)) {
      IOException first = null;
      for (OobFile area : oob) {
        if (area != null) {
          area.close();
        }
      }
      for (ChannelFile file : files) {
        if (file == null) {
          continue;
        }
        try {
          file.close();
        } catch (IOException e) {
          if (first == null) {
            first = e;
          } else {
            first.addSuppressed(e);
          }
        }
      }
      if (first != null) {
        throw first;
      }
    }
  }

  /** Where a page is, for messages. */
  public String where(int ppa) {
    return "channel " + addressing.channel(ppa) + ", way " + addressing.way(ppa) + ", block " + addressing.block(ppa)
        + ", page " + addressing.page(ppa);
  }

  private PageCorruptException corrupt(int ppa, String problem) {
    return new PageCorruptException(ppa, where(ppa), problem);
  }

  private static void zero(ByteBuffer page) {
    ByteBuffer p = page.duplicate();
    while (p.hasRemaining()) {
      p.put((byte) 0);
    }
  }

  private OobFile oobOf(int channel) {
    OobFile area = oob[channel];
    if (area == null) {
      throw new IllegalStateException("channel " + channel + " has no out-of-band file " + oobPath(channel)
          + " (createMissingOob first)");
    }
    return area;
  }

  private void checkWritable() {
    if (checkOnly) {
      throw new IllegalStateException("flash array at " + directory + " is open for checking only");
    }
  }

  private long offsetBytes(int ppa) {
    return (long) addressing.pageInChannel(ppa) * pageSizeBytes;
  }

  private void checkUsable(FlashTimeline cmd) throws IOException {
    if (closed.get()) {
      throw new IOException("flash array at " + directory + " is closed");
    }
    if (cmd != null && cmd.model() != timing) {
      throw new IllegalArgumentException("command belongs to another device's timing model");
    }
  }

  /** Channel files beyond the geometry mean the array was made with more channels. */
  private static void refuseExtraChannels(Path directory, DeviceGeometry geometry) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, "channel-*.flash")) {
      for (Path entry : entries) {
        Matcher matcher = CHANNEL_FILE.matcher(entry.getFileName().toString());
        if (matcher.matches() && Integer.parseInt(matcher.group(1)) >= geometry.channels()) {
          throw new IOException("flash geometry changed? " + entry + " exists, but the configured " + geometry
              + " has only " + geometry.channels() + " channels; use the geometry it was created with,"
              + " or another data directory");
        }
      }
    }
  }

  private static void closeQuietly(ChannelFile[] files, Exception failure) {
    for (ChannelFile file : files) {
      if (file != null) {
        try {
          file.close();
        } catch (IOException e) {
          failure.addSuppressed(e);
        }
      }
    }
  }
}
