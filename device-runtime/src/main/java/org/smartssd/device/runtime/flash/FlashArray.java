package org.smartssd.device.runtime.flash;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceGeometry;
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
 * <p>Erase is modelled only: the bytes stay, because the FTL maps only programmed pages, so an erased
 * page is never read before it is programmed again. Reads and programs are positioned, so any number
 * of threads may use the array at once; keeping two writers off one page is the FTL's business.
 */
public final class FlashArray implements Closeable {

  private static final Logger LOG = LoggerFactory.getLogger(FlashArray.class);
  private static final Pattern CHANNEL_FILE = Pattern.compile("channel-([0-9]{1,9})\\.flash");

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
  private final AtomicBoolean closed = new AtomicBoolean();

  private FlashArray(Path directory, DeviceGeometry geometry, TimingModel timing, ChannelFile[] files, OobFile[] oob,
      boolean checkOnly, boolean foundData) {
    this.directory = directory;
    this.geometry = geometry;
    this.addressing = new PageAddressing(geometry);
    this.timing = timing;
    this.files = files;
    this.oob = oob;
    this.checkOnly = checkOnly;
    this.foundData = foundData;
    this.pageSizeBytes = geometry.pageSizeBytes();
  }

  /**
   * Opens the array under {@code dataDir}, creating missing channel files. A channel file that holds
   * data but has no out-of-band file (a data directory made before pages had checksums, or one whose
   * out-of-band file was lost) is opened without one: see {@link #channelsWithoutOob()}.
   *
   * @throws IOException when a file cannot be opened or was made for another geometry
   */
  public static FlashArray open(Path dataDir, DeviceGeometry geometry, TimingModel timing) throws IOException {
    return open(dataDir, geometry, timing, false);
  }

  /**
   * Opens an existing array for reading only, creating nothing: a channel whose backing file is
   * missing reads as damaged, every page of it failing its check.
   */
  public static FlashArray openForCheck(Path dataDir, DeviceGeometry geometry, TimingModel timing) throws IOException {
    return open(dataDir, geometry, timing, true);
  }

  private static FlashArray open(Path dataDir, DeviceGeometry geometry, TimingModel timing, boolean checkOnly)
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
    LOG.info("flash array at {}: {} channel files of {} bytes ({}){}", directory, files.length, channelBytes, geometry,
        checkOnly ? ", opened for checking" : "");
    return new FlashArray(directory, geometry, timing, files, oob, checkOnly, foundData);
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
    ByteBuffer page = readRaw(ppa, dst, cmd);
    String problem = oob[channel] == null
        ? "its checksum is missing: the out-of-band file " + oobPath(channel) + " does not exist"
        : oob[channel].problem(addressing.pageInChannel(ppa), page, owner);
    if (problem != null) {
      zero(page);
      throw corrupt(ppa, problem);
    }
  }

  /** Reads the page without checking it: for computing the checksums of pages written before they had any. */
  private ByteBuffer readRaw(int ppa, ByteBuffer dst, FlashTimeline cmd) throws IOException {
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
    files[channel].readFully(page, offsetBytes(ppa), ppa);
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

  /** Erases a block: its out-of-band entries say erased; the data is left as it is (see the class comment). */
  public void eraseBlock(int blockId, FlashTimeline cmd) throws IOException {
    int channel = addressing.channelOfBlock(blockId);
    checkUsable(cmd);
    checkWritable();
    LOG.trace("erase block {} (channel {}, way {})", blockId, channel, addressing.wayOfBlock(blockId));
    oobOf(channel).erase(addressing.pageInChannel(addressing.firstPpa(blockId)), geometry.pagesPerBlock());
    if (cmd != null) {
      cmd.eraseBlock(channel, addressing.wayOfBlock(blockId));
    }
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
