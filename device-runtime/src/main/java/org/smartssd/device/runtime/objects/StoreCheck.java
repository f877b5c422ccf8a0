package org.smartssd.device.runtime.objects;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.runtime.ftl.DamagedMetadataException;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;
import org.smartssd.device.runtime.ftl.MetadataLog;

/**
 * {@code fsck}'s pass over a data directory, changing nothing: the metadata as recovery would read
 * it (up to its first damage), the namespace's consistency, and every committed page of every file
 * against its checksum. The flash translation layer it is given must be on a flash array opened
 * for checking.
 */
public final class StoreCheck {
  private static final int SAMPLES = 10;
  /** Where salvage moves damaged files; damage found there again is known, not new. */
  public static final String SET_ASIDE = "/lost+found";

  /**
   * What the pass found.
   *
   * @param metadata what reading the metadata found (its damage, torn tail, notes)
   * @param pagesChecked false when the metadata is too damaged to say where any page is
   * @param inconsistencies namespace or mapping problems found after replay
   * @param corruptPages committed pages that fail their check, by path
   * @param uncommittedPages mapped pages no file owns (written but never committed; dropped at the next start)
   * @param predatesChecksums the data directory was written before pages had checksums (its pages
   *     cannot be verified until the next start records them)
   * @param lostRecords kinds of the intact records found after the journal's damage, with their counts
   * @param lostSamples the first few of them that name something
   */
  public record Report(MetadataLog.Inspection metadata, boolean pagesChecked, List<String> inconsistencies,
      List<CorruptPage> corruptPages, List<CorruptPage> setAside, long files, long pages,
      long uncommittedPages, boolean predatesChecksums, Map<String, Long> lostRecords, List<String> lostSamples) {

    /** Nothing damaged, but what an earlier salvage set aside under {@link #SET_ASIDE}. */
    public boolean clean() {
      return !metadata.damaged() && inconsistencies.isEmpty() && corruptPages.isEmpty();
    }

    /** Files with at least one corrupt page, in path order. */
    public List<String> damagedFiles() {
      List<String> paths = new ArrayList<>();
      for (CorruptPage p : corruptPages) {
        if (paths.isEmpty() || !paths.get(paths.size() - 1).equals(p.path())) {
          paths.add(p.path());
        }
      }
      return paths;
    }
  }

  private StoreCheck() {}

  public static Report run(Path dataDir, DeviceGeometry geometry, FlashTranslationLayer ftl) throws IOException {
    // Nothing is open for writing here: a file that leaves the namespace in replay has no writer to tell.
    // Replay only: owners of objects from before permissions are named as on a device of this user.
    Namespace namespace = new Namespace(geometry.pageSizeBytes(), ftl, () -> 0L, file -> { }, AccessPolicy.defaults());
    NamespaceJournal journal = NamespaceJournal.forInspection(namespace, ftl);
    Map<String, Long> lost = new TreeMap<>();
    List<String> samples = new ArrayList<>();
    try {
      MetadataLog.requireFlash(dataDir, ftl.flash().foundData());
    } catch (DamagedMetadataException e) {
      return new Report(new MetadataLog.Inspection(null, null, -1, 0, -1, e, 0, List.of()), false, List.of(),
          List.of(), List.of(), 0, 0, 0, false, lost, samples);
    }
    MetadataLog.Inspection inspection = MetadataLog.inspect(dataDir, ftl.flash().foundData(), journal::readSnapshot,
        journal::replay, (type, in) -> {
          String line = NamespaceJournal.describeRecord(type, in);
          String kind = line.split(" ", 2)[0];
          lost.merge(kind, 1L, Long::sum);
          if (!kind.equals("map") && samples.size() < SAMPLES) {
            samples.add(line);
          }
        }, NamespaceJournal::isRecordType);
    DamagedMetadataException damage = inspection.damage();
    boolean located = damage == null || damage.kind() == DamagedMetadataException.Kind.JOURNAL_RECORD
        || damage.kind() == DamagedMetadataException.Kind.JOURNAL_MISSING;
    List<String> inconsistencies = new ArrayList<>();
    if (!located) {
      return new Report(inspection, false, inconsistencies, List.of(), List.of(), 0, 0, 0, false, lost, samples);
    }
    long uncommitted = 0;
    int mapped = ftl.mappedPages();
    try {
      BitSet owned = namespace.ownedLbns();
      ftl.finishRecovery(owned);
      uncommitted = mapped - owned.cardinality();
    } catch (IOException | UncheckedIOException e) {
      inconsistencies.add(e.getMessage());
    }
    boolean predates = journal.loadedSnapshotVersion() < 2;
    List<CorruptPage> corrupt = new ArrayList<>();
    List<CorruptPage> setAside = new ArrayList<>();
    for (CorruptPage p : predates ? List.<CorruptPage>of() : new FileReads(namespace, ftl, geometry).verifyPages()) {
      (isSetAside(p.path()) ? setAside : corrupt).add(p);
    }
    return new Report(inspection, !predates, inconsistencies, corrupt, setAside, namespace.fileCount(),
        namespace.committedPages(), uncommitted, predates, lost, samples);
  }

  /** Whether {@code path} is under {@link #SET_ASIDE}. */
  public static boolean isSetAside(String path) {
    return path.startsWith(SET_ASIDE + "/");
  }
}
