package org.smartssd.device.protocol;

/** Fixed numbers of the frame format (PROTOCOL.md, "Frames"). */
public final class ProtocolConstants {
  /** {@code SSDP} in ASCII: the first four bytes of every frame. */
  public static final int MAGIC = 0x53534450;
  public static final int HEADER_BYTES = 32;

  /** The version this code writes when it has not negotiated one. */
  public static final int CURRENT_VERSION = 1;
  public static final int MIN_VERSION = 1;
  /**
   * Version 2: STATISTICS answers carry the device's disk use; version 3: its modelled energy too;
   * version 4: owners, groups, permissions and access times, and the commands that set them;
   * version 5: output objects, written on flash by executions; version 6: what lanes held and what they
   * swapped, in the execution's statistics; version 7: an execution's counted work by call path, in
   * the READ_OBJECT answer that finishes it; version 8: the data reads inside the counted library calls,
   * in the execution's statistics and in each profile node (PROTOCOL.md, "Versions").
   */
  public static final int MAX_VERSION = 8;
  /** The first version whose STATISTICS answer carries {@code DiskUse}. */
  public static final int DISK_USE_VERSION = 2;
  /** The first version whose STATISTICS answer carries {@code DeviceEnergy}, after {@code DiskUse}. */
  public static final int ENERGY_VERSION = 3;
  /**
   * The first version with users and permissions: {@code ObjectStatus} carries owner, group,
   * permission and access time, MKDIRS and CREATE a permission, and IDENTIFY, SET_PERMISSION,
   * SET_OWNER and SET_TIMES exist.
   */
  public static final int PERMISSIONS_VERSION = 4;
  /**
   * The first version with output objects: EXECUTE_OBJECT names an object for the execution to write
   * on flash (and its permission), and {@code ExecutionStatistics} ends with what it wrote.
   */
  public static final int OUTPUT_VERSION = 5;
  /**
   * The first version whose {@code ExecutionStatistics} end with the lanes' memory: the most a lane's
   * function held, and the pages read again to swap.
   */
  public static final int LANE_MEMORY_VERSION = 6;
  /**
   * The first version whose READ_OBJECT answers end with a profile, present in the answer that
   * finishes an execution asked for one (execution option {@code profile}).
   */
  public static final int PROFILE_VERSION = 7;
  /**
   * The first version whose {@code ExecutionStatistics} end with the counted library reads (all, and after
   * the last read), and whose profile nodes carry them as a fifth count.
   */
  public static final int LIBRARY_READS_VERSION = 8;
  /** The permission MKDIRS gives in versions 1 to 3 ({@code rwxr-xr-x}: Hadoop's 0777 under its default umask 022). */
  public static final int DEFAULT_DIRECTORY_PERMISSION = 0755;
  /** The permission CREATE gives in versions 1 to 3 ({@code rw-r--r--}: Hadoop's 0666 under its default umask 022). */
  public static final int DEFAULT_FILE_PERMISSION = 0644;
  /** SET_TIMES's value for a time to leave as it is (all ones). */
  public static final long KEEP_TIME = -1L;

  /** Bit 0 of the flags: the frame is a response. */
  public static final int FLAG_RESPONSE = 1;

  /** Largest value of a {@code u16} field, and so the longest {@code string} in bytes. */
  public static final int MAX_U16 = 0xFFFF;

  /** The lane of results merged on the controller core (sent as 0: lanes travel as lane + 1). */
  public static final int MERGE_LANE = -1;
  /** The highest lane a result can name: {@code MAX_U16 - 1}, sent as {@code MAX_U16}. */
  public static final int MAX_LANE = MAX_U16 - 1;

  private ProtocolConstants() {}
}
