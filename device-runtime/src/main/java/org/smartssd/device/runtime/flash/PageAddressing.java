package org.smartssd.device.runtime.flash;

import java.util.Objects;
import org.smartssd.device.DeviceGeometry;

/**
 * Physical page addresses (ppa): one int per page, channel-major, so that the pages of a channel are
 * contiguous and a channel's backing file is addressed by {@code ppa % pagesPerChannel}:
 * ppa = ((channel x ways + way) x blocksPerWay + block) x pagesPerBlock + page.
 * Block ids number the erase blocks the same way: (channel x ways + way) x blocksPerWay + block.
 */
public final class PageAddressing {

  private final DeviceGeometry geometry;
  private final int ways;
  private final int blocksPerWay;
  private final int pagesPerBlock;
  private final int pagesPerChannel;

  public PageAddressing(DeviceGeometry geometry) {
    this.geometry = Objects.requireNonNull(geometry, "geometry");
    this.ways = geometry.waysPerChannel();
    this.blocksPerWay = geometry.blocksPerWay();
    this.pagesPerBlock = geometry.pagesPerBlock();
    this.pagesPerChannel = ways * blocksPerWay * pagesPerBlock;
  }

  public DeviceGeometry geometry() {
    return geometry;
  }

  public int totalPages() {
    return geometry.totalPages();
  }

  public int totalBlocks() {
    return geometry.totalBlocks();
  }

  public int pagesPerChannel() {
    return pagesPerChannel;
  }

  public int ppa(int channel, int way, int block, int page) {
    check("page", page, pagesPerBlock);
    return firstPpa(blockId(channel, way, block)) + page;
  }

  public int blockId(int channel, int way, int block) {
    check("channel", channel, geometry.channels());
    check("way", way, ways);
    check("block", block, blocksPerWay);
    return (channel * ways + way) * blocksPerWay + block;
  }

  public int channel(int ppa) {
    return checkPpa(ppa) / pagesPerChannel;
  }

  public int way(int ppa) {
    return checkPpa(ppa) % pagesPerChannel / (blocksPerWay * pagesPerBlock);
  }

  /** The block's index within its way. */
  public int block(int ppa) {
    return checkPpa(ppa) / pagesPerBlock % blocksPerWay;
  }

  public int page(int ppa) {
    return checkPpa(ppa) % pagesPerBlock;
  }

  /** The page's index inside its channel (and so inside the channel's backing file). */
  public int pageInChannel(int ppa) {
    return checkPpa(ppa) % pagesPerChannel;
  }

  /** The global id of the block holding this page. */
  public int blockId(int ppa) {
    return checkPpa(ppa) / pagesPerBlock;
  }

  public int firstPpa(int blockId) {
    return checkBlockId(blockId) * pagesPerBlock;
  }

  public int channelOfBlock(int blockId) {
    return checkBlockId(blockId) / (ways * blocksPerWay);
  }

  public int wayOfBlock(int blockId) {
    return checkBlockId(blockId) / blocksPerWay % ways;
  }

  private int checkPpa(int ppa) {
    check("ppa", ppa, geometry.totalPages());
    return ppa;
  }

  private int checkBlockId(int blockId) {
    check("block id", blockId, geometry.totalBlocks());
    return blockId;
  }

  private static void check(String what, int value, int limit) {
    if (value < 0 || value >= limit) {
      throw new IllegalArgumentException(what + " " + value + " out of range 0.." + (limit - 1));
    }
  }
}
