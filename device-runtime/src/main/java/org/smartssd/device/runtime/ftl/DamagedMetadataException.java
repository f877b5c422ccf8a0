package org.smartssd.device.runtime.ftl;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The device's metadata is damaged: recovery stopped without changing anything (no record cut, no
 * checkpoint written), because going on would silently lose or resurrect acknowledged changes. The
 * message names the file, the byte offset where it can, and what is affected; {@code smartssd device
 * fsck} reports the damage and, with {@code --salvage}, keeps what is intact.
 */
public final class DamagedMetadataException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What is damaged; {@link #salvageable()} says which kinds {@code fsck --salvage} can repair around. */
  public enum Kind {
    /** A journal record that fails its checksum, has an impossible length, or cannot be applied. */
    JOURNAL_RECORD(true),
    /** The journal a checkpoint needs is missing. */
    JOURNAL_MISSING(true),
    /** Pages' checksums are missing (an out-of-band file is gone). */
    CHECKSUMS_MISSING(true),
    /** The checkpoint fails its checksum or cannot be read. */
    CHECKPOINT(false),
    /** A journal exists whose checkpoint is missing. */
    CHECKPOINT_MISSING(false),
    /** No metadata at all, but the flash holds data. */
    METADATA_MISSING(false),
    /** A checkpoint, but no flash files with data: what the metadata names is gone. */
    FLASH_MISSING(false);

    private final boolean salvageable;

    Kind(boolean salvageable) {
      this.salvageable = salvageable;
    }
  }

  private final Kind kind;
  private final Path file;
  private final long offset;
  private final String description;

  /**
   * @param dataDir the data directory, for the advice that ends the message
   * @param offset the byte offset in {@code file} of the damage, or -1 when it is not one place
   */
  public DamagedMetadataException(Kind kind, Path file, long offset, String description, Path dataDir) {
    super(description + ". The device will not start, and changed nothing; `smartssd device fsck --data-dir "
        + dataDir + "` (with the profile and -D options the device starts with) reports what is damaged"
        + (kind.salvageable ? ", and with --salvage keeps what is intact" : ""));
    this.kind = kind;
    this.file = file;
    this.offset = offset;
    this.description = description;
  }

  public Kind kind() {
    return kind;
  }

  public Path file() {
    return file;
  }

  /** The byte offset of the damage in {@link #file()}, or -1. */
  public long offset() {
    return offset;
  }

  /** What is damaged and what it affects, without the advice. */
  public String description() {
    return description;
  }

  public boolean salvageable() {
    return kind.salvageable;
  }
}
