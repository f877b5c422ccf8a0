package org.smartssd.device.runtime.ftl;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.BitSet;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.runtime.flash.FlashArray;
import org.smartssd.device.runtime.flash.PageAddressing;
import org.smartssd.device.runtime.timing.Command;
import org.smartssd.device.runtime.timing.FlashTimeline;

/**
 * A page-mapped flash translation layer: logical block numbers (one flash page each) map to
 * physical pages; a rewrite goes out of place and invalidates the old page; greedy garbage
 * collection relocates the valid pages of the emptiest block and erases it.
 *
 * <p>Integrity: every page is programmed for its logical page number, with a checksum in its
 * out-of-band entry ({@link FlashArray}); every read checks both, so a read through a stale mapping
 * fails like a read of damaged data. Garbage collection moves a page that fails its check as it is,
 * so it goes on failing.
 *
 * <p>Durability: every mapping change is journalled ({@link #RECORD_MAP}); {@link #syncDurably()}
 * forces the flash backing files before the journal, so a durable mapping never points at data that
 * is not durable. A block is erased only after the journal records that emptied it are durable, so
 * a recovered mapping never points at a page that was reused.
 *
 * <p>Space: a page stops being needed when its logical page is rewritten elsewhere or released (its
 * file deleted or replaced). Such dead pages give their backing bytes back to the file system
 * ({@link FlashArray#discardPages}) at once, without waiting for garbage collection to erase their
 * block, which happens only when a way runs short of free blocks: until then a device that writes and
 * deletes would keep on its host's disk every byte it ever wrote. Punching a page destroys its content,
 * so the same rule as for erases holds (see {@link #syncDurably()}): a dead page is punched only after
 * the journal records that made it dead are durable. Punching is the simulator's housekeeping, not a
 * flash operation: the timing model accounts exactly as before (an erase when GC erases a block).
 *
 * <p>Not thread-safe: the object store calls it under its lock (reads under the shared lock only:
 * {@link #read} changes nothing).
 */
public final class FlashTranslationLayer {
  /** Journal record: {@code u32 lbn, u32 ppa}. */
  public static final int RECORD_MAP = 1;
  private static final int UNMAPPED = -1;
  /** The most dead pages' bytes left on disk before they are punched (see {@link #discardBatchPages}). */
  private static final long DISCARD_BATCH_BYTES = 64L << 20;

  private final DeviceGeometry geometry;
  private final PageAddressing addressing;
  private final FlashArray flash;
  private MetadataLog log;
  private final int minFreeBlocksPerWay;
  private final int logicalPages;

  private final int[] lbnToPpa;
  private final int[] ppaToLbn;
  private final BitSet lbnInUse;
  private int lbnSearchFrom;
  private final int[] blockValidPages;
  private final int[] blockWritePointer;
  /** Per way (index channel × ways + way): erased blocks, and the block being filled (or -1). */
  private final ArrayDeque<Integer>[] freeBlocks;
  private final int[] openBlock;
  private final int[] nextWay;
  private boolean unforcedPrograms;
  /**
   * Physical pages no mapping needs any more, whose bytes are punched at the next {@link #syncDurably()}
   * (after the journal is durable); empty while the flash does not reclaim space.
   */
  private final BitSet deadPages;
  /** Pages set in {@link #deadPages}. */
  private int deadPageCount;
  /** Physical pages mapped by a logical page. */
  private int livePageCount;
  /**
   * Full blocks whose every page is dead (all programmed, none valid): punched whole, one hole per run
   * of neighbouring blocks, at the next {@link #syncDurably()}; their pages are not in {@link #deadPages}.
   */
  private final BitSet deadBlocks;
  /**
   * Dead pages of blocks that still hold live ones are punched only once as many wait as
   * {@link #discardThreshold()} allows (this many, 1% of the flash and at most 64 MiB, or a quarter of
   * the live pages if that is more), and at {@link #syncAndDiscard()}, not at every sync: a punch costs
   * about as much for a page as for a run of blocks, and concurrent writers interleave their pages in a
   * block, so that its pages die one by one, in short runs, until the last one kills the block whole
   * (one hole). The threshold trades disk for punches: the files keep at most that many dead pages
   * besides whole dead blocks awaiting the next sync (DiskUseBenchmark, 16 writers, 2 GiB deleted:
   * every dead page at the next sync made 64,000 holes; whole blocks alone 3,000, but left 1.6 times the
   * live data on disk; this policy 30,000 and 1.2 times, and with 1 GiB live, 1.03 times).
   */
  private final int discardBatchPages;
  private long gcPagesMoved;
  private final ByteBuffer gcBuffer;

  @SuppressWarnings("unchecked")
  public FlashTranslationLayer(DeviceGeometry geometry, int overprovisioningPercent, int minFreeBlocksPerWay,
      FlashArray flash) {
    if (overprovisioningPercent < 0 || overprovisioningPercent >= 100) {
      throw new IllegalArgumentException("over-provisioning must be 0..99 percent, was " + overprovisioningPercent);
    }
    this.geometry = geometry;
    this.addressing = new PageAddressing(geometry);
    this.flash = flash;
    this.minFreeBlocksPerWay = Math.max(1, minFreeBlocksPerWay);
    int total = geometry.totalPages();
    this.logicalPages = (int) ((long) total * (100 - overprovisioningPercent) / 100);
    this.lbnToPpa = new int[logicalPages];
    this.ppaToLbn = new int[total];
    Arrays.fill(lbnToPpa, UNMAPPED);
    Arrays.fill(ppaToLbn, UNMAPPED);
    this.lbnInUse = new BitSet(logicalPages);
    this.deadPages = new BitSet(total);
    this.deadBlocks = new BitSet(geometry.totalBlocks());
    this.discardBatchPages = (int) Math.max(1, Math.min(DISCARD_BATCH_BYTES / geometry.pageSizeBytes(), total / 100));
    this.blockValidPages = new int[geometry.totalBlocks()];
    this.blockWritePointer = new int[geometry.totalBlocks()];
    int ways = geometry.channels() * geometry.waysPerChannel();
    this.freeBlocks = new ArrayDeque[ways];
    this.openBlock = new int[ways];
    this.nextWay = new int[geometry.channels()];
    this.gcBuffer = ByteBuffer.allocate(geometry.pageSizeBytes());
    rebuildBlockState();
  }

  /** Journals mapping changes from now on; recovery replays into this layer before it is attached. */
  public void attachLog(MetadataLog metadataLog) {
    this.log = metadataLog;
  }

  public int logicalPages() {
    return logicalPages;
  }

  public int freeLogicalPages() {
    return logicalPages - lbnInUse.cardinality();
  }

  public long gcPagesMoved() {
    return gcPagesMoved;
  }

  /** A command for work the device does on its own (closing abandoned writers, shutdown), so it is counted too. */
  public Command beginInternalCommand() {
    return flash.timing().beginInternal();
  }

  public int pageSize() {
    return geometry.pageSizeBytes();
  }

  public FlashArray flash() {
    return flash;
  }

  /** The physical page {@code lbn} maps to, or -1; for messages and checks. */
  public int ppaOf(int lbn) {
    checkLbn(lbn);
    return lbnToPpa[lbn];
  }

  // ---- logical block numbers ----

  /** Reserves the lowest free logical block number. */
  public int allocateLbn() throws OutOfSpaceException {
    int lbn = lbnInUse.nextClearBit(lbnSearchFrom);
    if (lbn >= logicalPages) {
      throw new OutOfSpaceException("all " + logicalPages + " logical pages of "
          + geometry.pageSizeBytes() + " bytes are in use");
    }
    lbnInUse.set(lbn);
    lbnSearchFrom = lbn + 1;
    return lbn;
  }

  /** Frees a logical block number and the physical page it maps to. */
  public void releaseLbn(int lbn) {
    checkLbn(lbn);
    unmap(lbn);
    lbnInUse.clear(lbn);
    lbnSearchFrom = Math.min(lbnSearchFrom, lbn);
  }

  /** The channel holding the page of {@code lbn} now. */
  public int channelOf(int lbn) {
    checkLbn(lbn);
    int ppa = lbnToPpa[lbn];
    if (ppa == UNMAPPED) {
      throw new IllegalStateException("logical page " + lbn + " is not mapped to flash");
    }
    return addressing.channel(ppa);
  }

  public boolean isMapped(int lbn) {
    checkLbn(lbn);
    return lbnToPpa[lbn] != UNMAPPED;
  }

  // ---- data ----

  /**
   * Programs {@code data} (at most a page) as the new content of {@code lbn}, on
   * {@code preferredChannel} when it has room.
   */
  public void write(int lbn, int preferredChannel, ByteBuffer data, FlashTimeline cmd) throws IOException {
    checkLbn(lbn);
    if (!lbnInUse.get(lbn)) {
      throw new IllegalStateException("logical page " + lbn + " is written but was never allocated");
    }
    int ppa = allocatePage(preferredChannel, cmd);
    flash.programPage(ppa, data, lbn, cmd);
    unforcedPrograms = true;
    map(lbn, ppa);
  }

  /**
   * Reads the whole page of {@code lbn} into {@code dst}.
   *
   * @throws org.smartssd.device.runtime.flash.PageCorruptException when the page fails its check
   */
  public void read(int lbn, ByteBuffer dst, FlashTimeline cmd) throws IOException {
    checkLbn(lbn);
    int ppa = lbnToPpa[lbn];
    if (ppa == UNMAPPED) {
      throw new IOException("logical page " + lbn + " is not mapped to flash");
    }
    flash.readPage(ppa, dst, lbn, cmd);
  }

  /**
   * Makes all programmed data and every journalled record durable: data first, then the journal. Then
   * gives back the bytes of the blocks that died whole, and, when enough of them wait (see
   * {@link #discardBatchPages}), of the dead pages of blocks that still hold live ones.
   *
   * <p>Why punching here is safe after a crash at any point: a page becomes dead only by a change
   * whose journal record was appended before it (a rewrite appends its new mapping in {@link #write};
   * the object store appends a delete or a replacing create before it releases the file's logical
   * pages), and every record appended so far is durable once {@code log.sync()} returns. So when a
   * page is punched, no state recovery can return to maps it: recovery replays only durable records,
   * and the durable ones say the page is dead. Punching before that would be harmful: a crash between
   * the punch and the journal's sync would recover a mapping to zeros. The reverse is harmless: a
   * punch the crash loses (the file system had not committed it) leaves dead bytes, which the next
   * start gives back ({@link #discardUnmappedPages()}); a page punched at a later sync than the first
   * one after its death is as safe (its records only stay durable); and a page punched twice, or
   * punched and then erased (which punches the block), just reads zeros again. A dead page is never
   * programmed again before it is punched: only an erase frees it, and {@code collect} drops the
   * victim's waiting pages and punches the whole block after this sync.
   */
  public void syncDurably() throws IOException {
    if (unforcedPrograms) {
      flash.force();
      unforcedPrograms = false;
    }
    log.sync();
    discardDeadBlocks();
    if (deadPageCount >= discardThreshold()) {
      discardDeadPages();
    }
  }

  /** As {@link #syncDurably()}, and gives back every dead page's bytes however few wait: at close. */
  public void syncAndDiscard() throws IOException {
    syncDurably();
    discardDeadPages();
  }

  /** Dead pages whose bytes are not given back yet, in blocks that still hold live pages. */
  public int deadPagesWaiting() {
    return deadPageCount;
  }

  /**
   * How many dead pages of blocks that still hold live ones may wait for their punch: a quarter of the
   * live pages, or 1% of the flash (at most 64 MiB) if that is more.
   */
  public int discardThreshold() {
    return Math.max(discardBatchPages, livePageCount / 4);
  }

  /** Punches the whole dead blocks, one hole per run of neighbouring blocks. */
  private void discardDeadBlocks() throws IOException {
    int pagesPerBlock = geometry.pagesPerBlock();
    for (int start = deadBlocks.nextSetBit(0); start >= 0; ) {
      int end = deadBlocks.nextClearBit(start);
      flash.discardPages(addressing.firstPpa(start), (end - start) * pagesPerBlock);
      start = deadBlocks.nextSetBit(end);
    }
    deadBlocks.clear();
  }

  /** Punches the dead pages, one hole per run of neighbouring pages (the array splits runs at channel ends). */
  private void discardDeadPages() throws IOException {
    for (int start = deadPages.nextSetBit(0); start >= 0; ) {
      int end = deadPages.nextClearBit(start);
      flash.discardPages(start, end - start);
      start = deadPages.nextSetBit(end);
    }
    deadPages.clear();
    deadPageCount = 0;
  }

  /**
   * Gives back the bytes of every physical page that no logical page maps to: what a crash left behind
   * (programs never made durable, punches the file system lost) and what a device kept before it
   * reclaimed space. Call it only when the mapping in memory is durable, as after recovery once the
   * object store has written its checkpoint: a page punched here must be one no recovery can map again.
   *
   * @return the pages given back
   */
  public int discardUnmappedPages() throws IOException {
    if (!flash.reclaimingSpace()) {
      return 0;
    }
    int[] discarded = {0};
    // Only where the files hold bytes: on a device mostly never written, that is little.
    flash.forEachAllocatedRun((first, count) -> {
      int end = first + count;
      int ppa = first;
      while (ppa < end) {
        if (ppaToLbn[ppa] != UNMAPPED) {
          ppa++;
          continue;
        }
        int runEnd = ppa + 1;
        while (runEnd < end && ppaToLbn[runEnd] == UNMAPPED) {
          runEnd++;
        }
        flash.discardPages(ppa, runEnd - ppa);
        discarded[0] += runEnd - ppa;
        ppa = runEnd;
      }
    });
    return discarded[0];
  }

  /** Physical pages holding live data: mapped by a logical page. */
  public long livePages() {
    return livePageCount;
  }

  private void map(int lbn, int ppa) {
    unmap(lbn);
    lbnToPpa[lbn] = ppa;
    ppaToLbn[ppa] = lbn;
    blockValidPages[addressing.blockId(ppa)]++;
    livePageCount++;
    log.append(RECORD_MAP, mapRecord(lbn, ppa));
  }

  private void unmap(int lbn) {
    int old = lbnToPpa[lbn];
    if (old != UNMAPPED) {
      ppaToLbn[old] = UNMAPPED;
      blockValidPages[addressing.blockId(old)]--;
      livePageCount--;
      lbnToPpa[lbn] = UNMAPPED;
      if (flash.reclaimingSpace()) {
        markDead(old);
      }
    }
  }

  /** Notes that nothing needs page {@code ppa} any more: it, or its whole block, is punched later. */
  private void markDead(int ppa) {
    int block = addressing.blockId(ppa);
    int pagesPerBlock = geometry.pagesPerBlock();
    int first = addressing.firstPpa(block);
    if (blockValidPages[block] == 0 && blockWritePointer[block] == pagesPerBlock) {
      // Full, so nothing more will be programmed into it before an erase: dead whole.
      deadPageCount -= deadPages.get(first, first + pagesPerBlock).cardinality();
      deadPages.clear(first, first + pagesPerBlock);
      deadBlocks.set(block);
    } else if (!deadPages.get(ppa)) {
      deadPages.set(ppa);
      deadPageCount++;
    }
  }

  private static byte[] mapRecord(int lbn, int ppa) {
    return ByteBuffer.allocate(8).putInt(lbn).putInt(ppa).array();
  }

  private void checkLbn(int lbn) {
    if (lbn < 0 || lbn >= logicalPages) {
      throw new IllegalArgumentException("logical page " + lbn + " is outside 0.." + (logicalPages - 1));
    }
  }

  // ---- physical allocation and garbage collection ----

  private int allocatePage(int preferredChannel, FlashTimeline cmd) throws IOException {
    int channels = geometry.channels();
    int ways = geometry.waysPerChannel();
    // Keep the stripe on its channel while that channel has room; fall back to the others rather
    // than fail a write while any channel has space.
    for (int i = 0; i < channels; i++) {
      int channel = Math.floorMod(preferredChannel + i, channels);
      for (int j = 0; j < ways; j++) {
        int way = (nextWay[channel] + j) % ways;
        int w = wayIndex(channel, way);
        if (freeBlocks[w].size() < minFreeBlocksPerWay) {
          collect(channel, way, cmd);
        }
        int ppa = takePage(w, false);
        if (ppa >= 0) {
          nextWay[channel] = (way + 1) % ways;
          return ppa;
        }
      }
    }
    throw new OutOfSpaceException("no erased flash page left on any of " + channels + " channels");
  }

  /** The next page of the way's open block; a host write leaves the last erased block to GC. */
  private int takePage(int w, boolean forGc) {
    int block = openBlock[w];
    if (block < 0 || blockWritePointer[block] == geometry.pagesPerBlock()) {
      int reserve = forGc ? 0 : 1;
      if (freeBlocks[w].size() <= reserve) {
        return -1;
      }
      block = freeBlocks[w].poll();
      openBlock[w] = block;
    }
    int page = blockWritePointer[block]++;
    return addressing.firstPpa(block) + page;
  }

  /** Greedy GC on one way: erase the blocks with the fewest valid pages until enough are free. */
  private void collect(int channel, int way, FlashTimeline cmd) throws IOException {
    int w = wayIndex(channel, way);
    for (int round = 0; round < geometry.blocksPerWay() && freeBlocks[w].size() < minFreeBlocksPerWay; round++) {
      int victim = pickVictim(channel, way, w);
      if (victim < 0 || blockValidPages[victim] > erasedPagesAvailable(w)) {
        return;
      }
      reclaim(victim, w, cmd);
    }
  }

  /** Moves the valid pages of {@code victim} (a full block of way {@code w}) to the way's free pages and erases it. */
  private int reclaim(int victim, int w, FlashTimeline cmd) throws IOException {
    int pagesPerBlock = geometry.pagesPerBlock();
    int moved = 0;
    int first = addressing.firstPpa(victim);
    for (int page = 0; page < pagesPerBlock; page++) {
      int lbn = ppaToLbn[first + page];
      if (lbn == UNMAPPED) {
        continue;
      }
      int target = takePage(w, true);
      flash.movePage(first + page, target, lbn, gcBuffer, cmd);
      unforcedPrograms = true;
      map(lbn, target);
      gcPagesMoved++;
      moved++;
    }
    // The records that emptied the victim must be durable before its pages can be reused (or
    // punched: the erase punches the whole block, so its pages need no holes of their own).
    deadPageCount -= deadPages.get(first, first + pagesPerBlock).cardinality();
    deadPages.clear(first, first + pagesPerBlock);
    deadBlocks.clear(victim);
    syncDurably();
    flash.eraseBlock(victim, cmd);
    blockWritePointer[victim] = 0;
    freeBlocks[w].add(victim);
    return moved;
  }

  /**
   * Erased pages not yet programmed: what writes can take before garbage collection must erase a block
   * (the free blocks and what is left of the open ones).
   */
  public long erasedPages() {
    long pages = 0;
    for (int w = 0; w < freeBlocks.length; w++) {
      pages += erasedPagesAvailable(w);
    }
    return pages;
  }

  /**
   * Erased pages writes can take before garbage collection must run in the foreground: those above the
   * free blocks every way keeps ({@code gc.min-free-blocks-per-way}).
   */
  public long freePagesAboveFloor() {
    long floor = (long) minFreeBlocksPerWay * freeBlocks.length * geometry.pagesPerBlock();
    return Math.max(0, erasedPages() - floor);
  }

  /** Physical pages beyond the logical ones: the reserved (over-provisioned) space garbage collection works in. */
  public long reservedPages() {
    return (long) geometry.totalPages() - logicalPages;
  }

  /**
   * One step of garbage collection in idle time (Active Flash's): the block with the fewest valid pages
   * on the whole flash, if it has a dead page, has its valid pages moved within its way and is erased.
   *
   * @return the pages moved, or -1 when no block has a dead page to give back (or its way has no room
   *     for its valid pages)
   */
  public int collectOne(FlashTimeline cmd) throws IOException {
    int best = -1;
    int bestWay = -1;
    int bestValid = geometry.pagesPerBlock();
    for (int channel = 0; channel < geometry.channels(); channel++) {
      for (int way = 0; way < geometry.waysPerChannel(); way++) {
        int w = wayIndex(channel, way);
        int victim = pickVictim(channel, way, w);
        if (victim >= 0 && blockValidPages[victim] < bestValid
            && blockValidPages[victim] <= erasedPagesAvailable(w)) {
          best = victim;
          bestWay = w;
          bestValid = blockValidPages[victim];
        }
      }
    }
    if (best < 0) {
      return -1;
    }
    return reclaim(best, bestWay, cmd);
  }

  private int pickVictim(int channel, int way, int w) {
    int best = -1;
    int bestValid = geometry.pagesPerBlock();
    int firstBlock = addressing.blockId(addressing.ppa(channel, way, 0, 0));
    for (int b = firstBlock; b < firstBlock + geometry.blocksPerWay(); b++) {
      boolean full = blockWritePointer[b] == geometry.pagesPerBlock();
      if (full && b != openBlock[w] && blockValidPages[b] < bestValid) {
        best = b;
        bestValid = blockValidPages[b];
      }
    }
    return best;
  }

  private int erasedPagesAvailable(int w) {
    int open = openBlock[w];
    int inOpen = open < 0 ? 0 : geometry.pagesPerBlock() - blockWritePointer[open];
    return freeBlocks[w].size() * geometry.pagesPerBlock() + inOpen;
  }

  private int wayIndex(int channel, int way) {
    return channel * geometry.waysPerChannel() + way;
  }

  // ---- persistence and recovery ----

  /** Applies one of this layer's journal records during recovery. */
  public void replay(int type, DataInputStream in) throws IOException {
    if (type != RECORD_MAP) {
      throw new IOException("unknown flash translation record type " + type);
    }
    int lbn = in.readInt();
    int ppa = in.readInt();
    if (lbn < 0 || lbn >= logicalPages || ppa < 0 || ppa >= geometry.totalPages()) {
      throw new IOException("journal maps logical page " + lbn + " to physical page " + ppa
          + ", outside this geometry");
    }
    lbnToPpa[lbn] = ppa;
  }

  /**
   * Records a checksum for every mapped page from the data it holds now: the one-time upgrade of a
   * data directory written before pages had checksums. Call after recovery, then force the flash.
   *
   * @return the pages checksummed
   */
  public int checksumMappedPages() throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(geometry.pageSizeBytes());
    int done = 0;
    for (int lbn = 0; lbn < logicalPages; lbn++) {
      if (lbnToPpa[lbn] != UNMAPPED) {
        flash.recordChecksum(lbnToPpa[lbn], lbn, buffer);
        done++;
      }
    }
    return done;
  }

  /** Mapped logical pages whose physical page is on {@code channel}. */
  public int mappedPagesOn(int channel) {
    int n = 0;
    for (int ppa : lbnToPpa) {
      if (ppa != UNMAPPED && addressing.channel(ppa) == channel) {
        n++;
      }
    }
    return n;
  }

  /** Logical pages mapped now (before {@link #finishRecovery}: also those written but never committed). */
  public int mappedPages() {
    int n = 0;
    for (int ppa : lbnToPpa) {
      if (ppa != UNMAPPED) {
        n++;
      }
    }
    return n;
  }

  /** Writes the mapping (only mapped entries). */
  public void writeSnapshot(DataOutputStream out) throws IOException {
    out.writeInt(logicalPages);
    out.writeInt(geometry.totalPages());
    int mapped = 0;
    for (int ppa : lbnToPpa) {
      if (ppa != UNMAPPED) {
        mapped++;
      }
    }
    out.writeInt(mapped);
    for (int lbn = 0; lbn < logicalPages; lbn++) {
      if (lbnToPpa[lbn] != UNMAPPED) {
        out.writeInt(lbn);
        out.writeInt(lbnToPpa[lbn]);
      }
    }
  }

  public void readSnapshot(DataInputStream in) throws IOException {
    int storedLogical = in.readInt();
    int storedPhysical = in.readInt();
    if (storedLogical != logicalPages || storedPhysical != geometry.totalPages()) {
      throw new IOException("the metadata was written for " + storedLogical + " logical and "
          + storedPhysical + " physical pages, but this configuration has " + logicalPages + " and "
          + geometry.totalPages() + ": the flash geometry or over-provisioning changed");
    }
    int mapped = in.readInt();
    for (int i = 0; i < mapped; i++) {
      replay(RECORD_MAP, in);
    }
  }

  /**
   * Ends recovery: logical pages that no object owns (written but never committed) are dropped,
   * and the physical state is rebuilt from the mapping. A block holding any valid page is treated
   * as full; a block holding none is erased.
   */
  public void finishRecovery(BitSet ownedLbns) throws IOException {
    lbnInUse.clear();
    for (int lbn = 0; lbn < logicalPages; lbn++) {
      if (ownedLbns.get(lbn)) {
        if (lbnToPpa[lbn] == UNMAPPED) {
          throw new IOException("metadata corrupt: logical page " + lbn + " is owned but not mapped");
        }
        lbnInUse.set(lbn);
      } else {
        lbnToPpa[lbn] = UNMAPPED;
      }
    }
    lbnSearchFrom = 0;
    deadPages.clear();
    deadPageCount = 0;
    deadBlocks.clear();
    rebuildBlockState();
  }

  private void rebuildBlockState() {
    Arrays.fill(ppaToLbn, UNMAPPED);
    Arrays.fill(blockValidPages, 0);
    livePageCount = 0;
    for (int lbn = 0; lbn < logicalPages; lbn++) {
      int ppa = lbnToPpa[lbn];
      if (ppa == UNMAPPED) {
        continue;
      }
      if (ppaToLbn[ppa] != UNMAPPED) {
        throw new java.io.UncheckedIOException(new IOException("metadata corrupt: physical page " + ppa + " is mapped by logical pages "
            + ppaToLbn[ppa] + " and " + lbn));
      }
      ppaToLbn[ppa] = lbn;
      blockValidPages[addressing.blockId(ppa)]++;
      livePageCount++;
    }
    for (int w = 0; w < freeBlocks.length; w++) {
      freeBlocks[w] = new ArrayDeque<>();
      openBlock[w] = -1;
    }
    for (int b = 0; b < blockValidPages.length; b++) {
      int w = addressing.channelOfBlock(b) * geometry.waysPerChannel() + addressing.wayOfBlock(b);
      if (blockValidPages[b] > 0) {
        blockWritePointer[b] = geometry.pagesPerBlock();
      } else {
        blockWritePointer[b] = 0;
        freeBlocks[w].add(b);
      }
    }
    Arrays.fill(nextWay, 0);
  }
}
