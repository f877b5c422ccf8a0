package org.smartssd.device.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.flash.FlashArray;
import org.smartssd.device.runtime.ftl.DamagedMetadataException;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;
import org.smartssd.device.runtime.ftl.MetadataLog;
import org.smartssd.device.runtime.objects.CorruptPage;
import org.smartssd.device.runtime.objects.ObjectStore;
import org.smartssd.device.runtime.objects.StoreCheck;
import org.smartssd.device.runtime.objects.StoreException;
import org.smartssd.device.runtime.timing.NanoClock;
import org.smartssd.device.runtime.timing.TimingModel;

/**
 * {@code smartssd device fsck}: checks a device's data directory while no device runs on it (it
 * takes the device's lock), and on request salvages what is intact.
 *
 * <p>The check changes nothing. It reads the metadata as recovery would, up to its first damage,
 * and every committed page of every file against its checksum, and reports the damage: where, and
 * what it affects.
 *
 * <p>Salvage keeps the last intact state and never deletes evidence. The journal is cut at its
 * damage: the records before it are a state the device was in; the records after it are not
 * applied, because the lost ones between them may have deleted, renamed or reused what they name
 * (applying them could resurrect deleted files or point a file at another file's pages). A missing
 * journal is made anew, empty: the state of the checkpoint. A missing out-of-band file is made anew
 * with no checksums: its pages keep failing their check. The damaged journal and checkpoint are
 * copied, with the report, to {@code meta/damaged-<time>/} first. Then the device's own recovery
 * opens the directory, and every file with a page that fails its check (damaged data, or a page
 * the kept state points at but that was since moved or reused) is moved to {@code /lost+found/}
 * under its path, where its intact pages stay readable and its damaged ones keep failing with
 * {@code CORRUPT}. Nothing is repaired: the device keeps one copy of each page. A damaged or
 * missing checkpoint cannot be salvaged (every record applies to it).
 */
public final class DeviceCheck {
  private static final Logger LOG = LoggerFactory.getLogger(DeviceCheck.class);
  static final String LOST_AND_FOUND = StoreCheck.SET_ASIDE;
  private static final int MAX_PAGE_LINES = 50;

  /** How a check or salvage ended. */
  public enum Outcome {
    /** Nothing damaged. */
    CLEAN,
    /** Damage found; nothing changed. */
    DAMAGED,
    /** Damage found and salvaged: the device starts. */
    SALVAGED,
    /** Damage found that salvage cannot repair around; nothing changed. */
    CANNOT_SALVAGE
  }

  /** The outcome and the report, one line a string. */
  public record Result(Outcome outcome, List<String> lines) {}

  private DeviceCheck() {}

  /** Checks the data directory of {@code config}, changing nothing. */
  public static Result check(DeviceConfig config) throws IOException {
    Path dataDir = existing(config);
    try (DataDirectoryLock lock = DataDirectoryLock.acquire(dataDir)) {
      List<String> lines = new ArrayList<>();
      StoreCheck.Report report = inspect(config, lines);
      conclude(report, lines);
      return new Result(report.clean() ? Outcome.CLEAN : Outcome.DAMAGED, lines);
    }
  }

  /** Checks the data directory of {@code config} and salvages what is intact (see the class comment). */
  public static Result salvage(DeviceConfig config) throws IOException {
    Path dataDir = existing(config);
    try (DataDirectoryLock lock = DataDirectoryLock.acquire(dataDir)) {
      List<String> lines = new ArrayList<>();
      StoreCheck.Report report = inspect(config, lines);
      if (report.clean()) {
        conclude(report, lines);
        return new Result(Outcome.CLEAN, lines);
      }
      DamagedMetadataException damage = report.metadata().damage();
      if (damage != null && !damage.salvageable()) {
        lines.add("cannot salvage: " + cannotSalvage(damage) + "; nothing was changed");
        return new Result(Outcome.CANNOT_SALVAGE, lines);
      }
      if (!report.inconsistencies().isEmpty()) {
        lines.add("cannot salvage: the namespace is inconsistent after replay (" + report.inconsistencies().get(0)
            + "); nothing was changed");
        return new Result(Outcome.CANNOT_SALVAGE, lines);
      }
      Path evidence = evidenceDirectory(dataDir);
      Files.createDirectories(evidence);
      Files.write(evidence.resolve("fsck-report.txt"), lines, StandardCharsets.UTF_8);
      lines.add("salvage: the report and the damaged metadata are kept in " + evidence);
      if (damage != null && damage.kind() != DamagedMetadataException.Kind.CHECKSUMS_MISSING) {
        MetadataLog.salvage(dataDir, report.metadata(), evidence);
        lines.add(damage.kind() == DamagedMetadataException.Kind.JOURNAL_RECORD
            ? "salvage: cut " + report.metadata().journal() + " at byte offset " + damage.offset() + ", keeping the "
                + report.metadata().records() + " records before it; the " + report.metadata().recordsAfterDamage()
                + " intact records after it are not applied (they are in the copy)"
            : "salvage: made " + report.metadata().journal() + " anew, empty: the device is as its checkpoint says");
      }
      lines.addAll(reopenAndMoveAside(config, evidence, !report.predatesChecksums()));
      lines.add("result: SALVAGED; the device starts");
      return new Result(Outcome.SALVAGED, lines);
    }
  }

  private static Path existing(DeviceConfig config) throws IOException {
    Path dataDir = config.dataDir();
    if (!Files.isDirectory(dataDir)) {
      throw new java.nio.file.NoSuchFileException(dataDir.toString(), null, "no data directory to check");
    }
    return dataDir;
  }

  private static String cannotSalvage(DamagedMetadataException damage) {
    switch (damage.kind()) {
      case CHECKPOINT:
        return "the checkpoint is damaged, and every journal record applies to what it holds";
      case CHECKPOINT_MISSING:
        return "the checkpoint is missing, and every journal record applies to what it held";
      case FLASH_MISSING:
        return "the flash files are gone";
      default:
        return "no metadata says which file is where; to reuse the directory as a new device, move its flash/"
            + " and meta/ aside";
    }
  }

  /** The check's read-only pass; writes its findings to {@code lines}. */
  private static StoreCheck.Report inspect(DeviceConfig config, List<String> lines) throws IOException {
    Path dataDir = config.dataDir();
    DeviceGeometry g = config.geometry();
    lines.add("data directory " + dataDir.toAbsolutePath() + " (" + g.channels() + " channels x "
        + g.waysPerChannel() + " ways x " + g.blocksPerWay() + " blocks x " + g.pagesPerBlock() + " pages x "
        + g.pageSizeBytes() + " bytes)");
    TimingModel timing = new TimingModel(g, config.timing(), NanoClock.system());
    try (FlashArray flash = FlashArray.openForCheck(dataDir, g, timing)) {
      FlashTranslationLayer ftl = new FlashTranslationLayer(g, config.overprovisioningPercent(),
          config.gcMinFreeBlocksPerWay(), flash);
      StoreCheck.Report report = StoreCheck.run(dataDir, g, ftl);
      describe(report, flash, lines);
      return report;
    }
  }

  private static void describe(StoreCheck.Report r, FlashArray flash, List<String> lines) {
    MetadataLog.Inspection m = r.metadata();
    if (m.damage() != null) {
      lines.add("metadata: DAMAGED: " + m.damage().description());
      if (!r.lostRecords().isEmpty()) {
        StringBuilder kinds = new StringBuilder();
        for (Map.Entry<String, Long> e : r.lostRecords().entrySet()) {
          kinds.append(kinds.length() == 0 ? "" : ", ").append(e.getValue()).append(' ').append(e.getKey());
        }
        lines.add("  the intact records after the damage: " + kinds);
        r.lostSamples().forEach(s -> lines.add("    " + s));
      }
    } else if (m.checkpoint() == null && m.journalBytes() <= 0) {
      lines.add("metadata: empty (a new device)");
    } else {
      lines.add("metadata: intact: " + (m.checkpoint() == null ? "no checkpoint" : m.checkpoint().toString()) + ", "
          + m.journal() + " (" + m.journalBytes() + " bytes, " + m.records() + " records)");
    }
    if (m.tornTailAt() >= 0) {
      lines.add("  torn tail: " + (m.journalBytes() - m.tornTailAt()) + " bytes at offset " + m.tornTailAt()
          + " of " + m.journal() + " (the incomplete last record a crash leaves; cut at the next start)");
    }
    m.notes().forEach(n -> lines.add("  note: " + n));
    r.inconsistencies().forEach(i -> lines.add("namespace: INCONSISTENT: " + i));
    if (!r.pagesChecked()) {
      lines.add(r.predatesChecksums()
          ? "pages: " + r.pages() + " pages of " + r.files() + " files not verified: the directory was written before"
              + " pages had checksums; the next start records them from the data as it is"
          : "pages: not checked: without the metadata nothing says where a file's pages are");
    } else {
      lines.add("pages: " + r.pages() + " committed pages of " + r.files() + " files checked"
          + (r.corruptPages().isEmpty() ? ", all intact" : ", " + r.corruptPages().size() + " fail their check, in "
              + r.damagedFiles().size() + " files"));
      int shown = 0;
      for (CorruptPage p : r.corruptPages()) {
        if (shown++ == MAX_PAGE_LINES) {
          lines.add("  ... and " + (r.corruptPages().size() - MAX_PAGE_LINES) + " more");
          break;
        }
        lines.add("  '" + p.path() + "': offset " + p.offset() + ", bytes " + p.offset() + ".."
            + (p.offset() + Math.max(p.length(), 1) - 1) + " (page " + p.pageIndex() + "): " + p.reason());
      }
      if (!r.setAside().isEmpty()) {
        lines.add("  known: " + r.setAside().size() + " damaged pages in files an earlier salvage set aside under "
            + LOST_AND_FOUND + "/ (not counted as damage; delete those files when done with them)");
      }
    }
    if (r.uncommittedPages() > 0) {
      lines.add("  note: " + r.uncommittedPages() + " pages were written but never committed (a crash before SYNC or"
          + " CLOSE); the next start drops them");
    }
    List<Integer> noOob = flash.channelsWithoutOob();
    if (!noOob.isEmpty() && !r.predatesChecksums()) {
      lines.add("flash: out-of-band (checksum) files missing: " + noOob.stream().map(c -> flash.oobPath(c).toString())
          .toList());
    }
  }

  private static void conclude(StoreCheck.Report r, List<String> lines) {
    if (r.clean()) {
      lines.add("result: clean");
      return;
    }
    List<String> what = new ArrayList<>();
    if (r.metadata().damaged()) {
      what.add("damaged metadata");
    }
    if (!r.inconsistencies().isEmpty()) {
      what.add("an inconsistent namespace");
    }
    if (!r.corruptPages().isEmpty()) {
      what.add(r.damagedFiles().size() + " damaged file" + (r.damagedFiles().size() == 1 ? "" : "s"));
    }
    DamagedMetadataException damage = r.metadata().damage();
    boolean salvageable = (damage == null || damage.salvageable()) && r.inconsistencies().isEmpty();
    lines.add("result: DAMAGED (" + String.join(", ", what) + "); " + (salvageable
        ? "`--salvage` keeps what is intact and moves damaged files to " + LOST_AND_FOUND + "/"
        : "`--salvage` cannot repair around it: " + (damage != null ? cannotSalvage(damage)
            : "the namespace is inconsistent")));
  }

  /** A new directory under {@code meta/} for the evidence of this salvage. */
  private static Path evidenceDirectory(Path dataDir) {
    String stamp = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path base = dataDir.resolve("meta").resolve("damaged-" + stamp);
    Path dir = base;
    for (int i = 1; Files.exists(dir); i++) {
      dir = Path.of(base + "-" + i);
    }
    return dir;
  }

  /**
   * Opens the directory with the device's own recovery (which now succeeds), and moves every file
   * with a page that fails its check to {@link #LOST_AND_FOUND}. Missing out-of-band files of a
   * directory whose pages have checksums are made anew first, with none: their pages keep failing.
   */
  private static List<String> reopenAndMoveAside(DeviceConfig config, Path evidence, boolean makeMissingOob)
      throws IOException {
    List<String> lines = new ArrayList<>();
    Path dataDir = config.dataDir();
    DeviceGeometry g = config.geometry();
    TimingModel timing = new TimingModel(g, config.timing(), NanoClock.system());
    try (FlashArray flash = FlashArray.open(dataDir, g, timing)) {
      if (makeMissingOob && !flash.channelsWithoutOob().isEmpty()) {
        lines.add("salvage: made " + flash.channelsWithoutOob().stream().map(c -> flash.oobPath(c).toString()).toList()
            + " anew, with no checksums: the pages they covered keep failing their check");
        flash.createMissingOob();
      }
      FlashTranslationLayer ftl = new FlashTranslationLayer(g, config.overprovisioningPercent(),
          config.gcMinFreeBlocksPerWay(), flash);
      try (ObjectStore store = ObjectStore.open(dataDir, g, ftl, config.checkpointLogBytes(),
          System::currentTimeMillis, SimulatedDevice.accessPolicy(config))) {
        List<String> moved = new ArrayList<>();
        String last = null;
        for (CorruptPage p : store.verifyPages()) {
          if (p.path().equals(last) || StoreCheck.isSetAside(p.path())) {
            continue;
          }
          last = p.path();
          String target = moveAside(store, p.path());
          moved.add("'" + p.path() + "' -> '" + target + "'");
        }
        if (moved.isEmpty()) {
          lines.add("salvage: every file of the kept state reads intact");
        } else {
          lines.add("salvage: moved " + moved.size() + " file" + (moved.size() == 1 ? "" : "s") + " with pages that"
              + " fail their check to " + LOST_AND_FOUND + "/ (their intact pages stay readable; the damaged ones"
              + " answer CORRUPT):");
          moved.forEach(m -> lines.add("  " + m));
        }
      }
    }
    LOG.warn("fsck --salvage of {} done; evidence in {}", dataDir, evidence);
    return lines;
  }

  /** Renames {@code path} to its place under {@link #LOST_AND_FOUND}; a name taken there gets a suffix. */
  private static String moveAside(ObjectStore store, String path) throws IOException {
    String target = LOST_AND_FOUND + path;
    try {
      store.mkdirs(target.substring(0, target.lastIndexOf('/')));
      for (int i = 1; exists(store, target); i++) {
        target = LOST_AND_FOUND + path + "." + i;
      }
      store.rename(path, target);
      return target;
    } catch (StoreException e) {
      throw new IOException("cannot move '" + path + "' to " + LOST_AND_FOUND + ": " + e.getMessage(), e);
    }
  }

  private static boolean exists(ObjectStore store, String path) throws StoreException {
    try {
      store.status(path);
      return true;
    } catch (StoreException e) {
      if (e.status() == Status.NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }
}
