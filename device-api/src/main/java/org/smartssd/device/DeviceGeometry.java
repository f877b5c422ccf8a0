package org.smartssd.device;

/**
 * The shape of a device's flash array: channels of ways (dies), each way of erase blocks, each block
 * of pages. Objects are striped over channels in units of {@code stripeUnitPages} pages.
 */
public record DeviceGeometry(
    int channels, int waysPerChannel, int blocksPerWay, int pagesPerBlock, int pageSizeBytes, int stripeUnitPages) {

  public DeviceGeometry {
    positive("channels", channels);
    positive("waysPerChannel", waysPerChannel);
    positive("blocksPerWay", blocksPerWay);
    positive("pagesPerBlock", pagesPerBlock);
    positive("pageSizeBytes", pageSizeBytes);
    positive("stripeUnitPages", stripeUnitPages);
    if (totalPagesLong() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("geometry has " + totalPagesLong()
          + " pages; at most " + Integer.MAX_VALUE + " are addressable");
    }
  }

  private static void positive(String name, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }

  private long totalPagesLong() {
    return (long) channels * waysPerChannel * blocksPerWay * pagesPerBlock;
  }

  /** Number of physical pages in the whole array. */
  public int totalPages() {
    return (int) totalPagesLong();
  }

  /** Number of erase blocks in the whole array. */
  public int totalBlocks() {
    return channels * waysPerChannel * blocksPerWay;
  }

  /** Raw capacity of the array in bytes (before over-provisioning). */
  public long rawCapacityBytes() {
    return totalPagesLong() * pageSizeBytes;
  }

  /** Bytes of one full stripe: a stripe unit on every channel. */
  public long stripeBytes() {
    return (long) channels * stripeUnitPages * pageSizeBytes;
  }
}
