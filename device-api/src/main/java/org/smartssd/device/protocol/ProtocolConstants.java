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
   * Version 2: STATISTICS answers carry the device's disk use; version 3: its modelled energy too
   * (PROTOCOL.md, "Versions").
   */
  public static final int MAX_VERSION = 3;
  /** The first version whose STATISTICS answer carries {@code DiskUse}. */
  public static final int DISK_USE_VERSION = 2;
  /** The first version whose STATISTICS answer carries {@code DeviceEnergy}, after {@code DiskUse}. */
  public static final int ENERGY_VERSION = 3;

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
