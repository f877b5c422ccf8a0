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
  private final ChannelFile[] files;
  private final int pageSizeBytes;
  private final AtomicBoolean closed = new AtomicBoolean();

  private FlashArray(Path directory, DeviceGeometry geometry, TimingModel timing, ChannelFile[] files) {
    this.directory = directory;
    this.geometry = geometry;
    this.addressing = new PageAddressing(geometry);
    this.timing = timing;
    this.files = files;
    this.pageSizeBytes = geometry.pageSizeBytes();
  }

  /**
   * Opens the array under {@code dataDir}, creating missing channel files.
   *
   * @throws IOException when a file cannot be opened or was made for another geometry
   */
  public static FlashArray open(Path dataDir, DeviceGeometry geometry, TimingModel timing) throws IOException {
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(geometry, "geometry");
    Objects.requireNonNull(timing, "timing");
    if (!timing.geometry().equals(geometry)) {
      throw new IllegalArgumentException("timing model is for " + timing.geometry() + ", flash is " + geometry);
    }
    Path directory = dataDir.resolve("flash");
    Files.createDirectories(directory);
    refuseExtraChannels(directory, geometry);
    long channelBytes = (long) new PageAddressing(geometry).pagesPerChannel() * geometry.pageSizeBytes();
    ChannelFile[] files = new ChannelFile[geometry.channels()];
    try {
      for (int c = 0; c < files.length; c++) {
        files[c] = ChannelFile.open(directory.resolve(fileName(c)), channelBytes, geometry.toString());
      }
    } catch (IOException | RuntimeException e) {
      closeQuietly(files, e);
      throw e;
    }
    LOG.info("flash array at {}: {} channel files of {} bytes ({})", directory, files.length, channelBytes, geometry);
    return new FlashArray(directory, geometry, timing, files);
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

  /** Reads the whole page into {@code dst}, advancing its position by a page. */
  public void readPage(int ppa, ByteBuffer dst, FlashTimeline cmd) throws IOException {
    int channel = addressing.channel(ppa);
    if (dst.remaining() < pageSizeBytes) {
      throw new IllegalArgumentException("buffer has " + dst.remaining() + " bytes remaining; a page is "
          + pageSizeBytes);
    }
    checkUsable(cmd);
    ByteBuffer page = dst.duplicate();
    page.limit(page.position() + pageSizeBytes);
    files[channel].readFully(page, offsetBytes(ppa), ppa);
    dst.position(page.position());
    if (cmd != null) {
      cmd.readPage(channel, addressing.way(ppa));
    }
  }

  /** Programs the page with the remaining bytes of {@code src}, zeros after them; consumes {@code src}. */
  public void programPage(int ppa, ByteBuffer src, FlashTimeline cmd) throws IOException {
    int channel = addressing.channel(ppa);
    if (src.remaining() > pageSizeBytes) {
      throw new IllegalArgumentException("buffer has " + src.remaining() + " bytes remaining; a page is "
          + pageSizeBytes);
    }
    checkUsable(cmd);
    ByteBuffer page;
    if (src.remaining() == pageSizeBytes) {
      page = src.duplicate();
    } else {
      // A whole page is written, so that stale bytes of an earlier program never show through.
      page = ByteBuffer.allocate(pageSizeBytes);
      page.put(src.duplicate()).clear();
    }
    files[channel].writeFully(page, offsetBytes(ppa), ppa);
    src.position(src.limit());
    if (cmd != null) {
      cmd.programPage(channel, addressing.way(ppa));
    }
  }

  /** Erases a block: accounted only, see the class comment. */
  public void eraseBlock(int blockId, FlashTimeline cmd) throws IOException {
    int channel = addressing.channelOfBlock(blockId);
    checkUsable(cmd);
    LOG.trace("erase block {} (channel {}, way {})", blockId, channel, addressing.wayOfBlock(blockId));
    if (cmd != null) {
      cmd.eraseBlock(channel, addressing.wayOfBlock(blockId));
    }
  }

  /** Makes every programmed page durable; the FTL calls it before its mapping records. */
  public void force() throws IOException {
    checkUsable(null);
    for (ChannelFile file : files) {
      file.force();
    }
  }

  /** Closes every channel file; a second call does nothing. */
  @Override
  public void close() throws IOException {
    if (closed.compareAndSet(false, true)) {
      IOException first = null;
      for (ChannelFile file : files) {
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
