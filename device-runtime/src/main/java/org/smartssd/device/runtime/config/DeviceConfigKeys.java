package org.smartssd.device.runtime.config;

import java.util.List;

/**
 * Every configuration key of the device, each name beside its default. Keys whose value is set by
 * the profile (flash geometry and timing, the host link) have no constant default: their default is
 * the default profile's value, so that the number is written once, in {@link Profiles}.
 */
public final class DeviceConfigKeys {

  /** The prefix this module owns; other prefixes belong to other modules and are ignored here. */
  public static final String PREFIX = "smartssd.device.";

  public static final String PROFILE = "smartssd.device.profile";
  public static final String PROFILE_DEFAULT = Profiles.MSST13_SATA;

  /** Empty means the local host name ("localhost" when it cannot be found). */
  public static final String DEVICE_NAME = "smartssd.device.name";
  public static final String DEVICE_NAME_DEFAULT = "";

  public static final String DATA_DIR = "smartssd.device.data-dir";
  public static final String DATA_DIR_DEFAULT = "./smartssd-data";

  public static final String HOST_BIND_ADDRESS = "smartssd.device.host.bind-address";
  public static final String HOST_BIND_ADDRESS_DEFAULT = "127.0.0.1";

  public static final String HOST_PORT = "smartssd.device.host.port";
  public static final String HOST_PORT_DEFAULT = "7070";

  public static final String HOST_MAX_FRAME_BYTES = "smartssd.device.host.max-frame-bytes";
  public static final String HOST_MAX_FRAME_BYTES_DEFAULT = "67108864";

  public static final String HOST_WORKER_THREADS = "smartssd.device.host.worker-threads";
  public static final String HOST_WORKER_THREADS_DEFAULT = "8";

  public static final String PACE = "smartssd.device.pace";
  public static final String PACE_DEFAULT = "false";

  // Set by the profile.
  public static final String FLASH_CHANNELS = "smartssd.device.flash.channels";
  public static final String FLASH_WAYS_PER_CHANNEL = "smartssd.device.flash.ways-per-channel";
  public static final String FLASH_BLOCKS_PER_WAY = "smartssd.device.flash.blocks-per-way";
  public static final String FLASH_PAGES_PER_BLOCK = "smartssd.device.flash.pages-per-block";
  public static final String FLASH_PAGE_SIZE_BYTES = "smartssd.device.flash.page-size-bytes";

  public static final String FLASH_STRIPE_UNIT_PAGES = "smartssd.device.flash.stripe-unit-pages";
  public static final String FLASH_STRIPE_UNIT_PAGES_DEFAULT = "1";

  public static final String FLASH_OVERPROVISIONING_PERCENT = "smartssd.device.flash.overprovisioning-percent";
  public static final String FLASH_OVERPROVISIONING_PERCENT_DEFAULT = "7";

  // Set by the profile.
  public static final String FLASH_CELL_READ_NS = "smartssd.device.flash.cell-read-ns";
  public static final String FLASH_CELL_PROGRAM_NS = "smartssd.device.flash.cell-program-ns";
  public static final String FLASH_BLOCK_ERASE_NS = "smartssd.device.flash.block-erase-ns";
  public static final String FLASH_CHANNEL_MB_PER_S = "smartssd.device.flash.channel-mb-per-s";
  public static final String LINK_MB_PER_S = "smartssd.device.link.mb-per-s";
  public static final String LINK_COMMAND_NS = "smartssd.device.link.command-ns";

  public static final String META_CHECKPOINT_LOG_BYTES = "smartssd.device.meta.checkpoint-log-bytes";
  public static final String META_CHECKPOINT_LOG_BYTES_DEFAULT = "67108864";

  public static final String GC_MIN_FREE_BLOCKS_PER_WAY = "smartssd.device.gc.min-free-blocks-per-way";
  public static final String GC_MIN_FREE_BLOCKS_PER_WAY_DEFAULT = "2";

  private static final String CHOICE = "choice";

  private static final List<ConfigKey> ALL = List.of(
      key(PROFILE, PROFILE_DEFAULT, "name",
          "named parameter set for the flash and the host link: " + String.join(", ", Profiles.names())),
      key(DEVICE_NAME, DEVICE_NAME_DEFAULT, "name",
          "the device's name in logs and device info; empty means the local host name"),
      key(DATA_DIR, DATA_DIR_DEFAULT, "path", "directory of the flash backing files and the metadata"),
      key(HOST_BIND_ADDRESS, HOST_BIND_ADDRESS_DEFAULT, "address", "address the host interface listens on"),
      key(HOST_PORT, HOST_PORT_DEFAULT, "port", "TCP port of the host interface; 0 means any free port"),
      key(HOST_MAX_FRAME_BYTES, HOST_MAX_FRAME_BYTES_DEFAULT, "bytes", "largest frame payload accepted"),
      key(HOST_WORKER_THREADS, HOST_WORKER_THREADS_DEFAULT, "threads", "threads executing commands"),
      key(PACE, PACE_DEFAULT, "boolean", "hold each answer until its modelled completion"),
      profileKey(FLASH_CHANNELS, "channels", "flash channels (buses), read in parallel"),
      profileKey(FLASH_WAYS_PER_CHANNEL, "ways", "ways (dies) on each channel; cell operations overlap across them"),
      profileKey(FLASH_BLOCKS_PER_WAY, "blocks", "erase blocks in each way"),
      profileKey(FLASH_PAGES_PER_BLOCK, "pages", "pages in each erase block"),
      profileKey(FLASH_PAGE_SIZE_BYTES, "bytes", "size of a flash page"),
      key(FLASH_STRIPE_UNIT_PAGES, FLASH_STRIPE_UNIT_PAGES_DEFAULT, "pages",
          "pages of an object placed on one channel before the next"),
      key(FLASH_OVERPROVISIONING_PERCENT, FLASH_OVERPROVISIONING_PERCENT_DEFAULT, "percent",
          "share of the raw capacity hidden from the host, kept for garbage collection (0 to 50)"),
      profileKey(FLASH_CELL_READ_NS, "ns", "time to read a page from the cells into the die's register"),
      profileKey(FLASH_CELL_PROGRAM_NS, "ns", "time to program a page from the die's register into the cells"),
      profileKey(FLASH_BLOCK_ERASE_NS, "ns", "time to erase a block"),
      profileKey(FLASH_CHANNEL_MB_PER_S, "MB/s", "bus bandwidth of one channel, decimal MB (10^6 bytes) per second"),
      profileKey(LINK_MB_PER_S, "MB/s", "host link bandwidth, decimal MB (10^6 bytes) per second, each way"),
      profileKey(LINK_COMMAND_NS, "ns", "fixed cost of a command on the host interface, besides its data"),
      key(META_CHECKPOINT_LOG_BYTES, META_CHECKPOINT_LOG_BYTES_DEFAULT, "bytes",
          "metadata journal size that triggers a checkpoint"),
      key(GC_MIN_FREE_BLOCKS_PER_WAY, GC_MIN_FREE_BLOCKS_PER_WAY_DEFAULT, "blocks",
          "garbage collection starts when a way has fewer free blocks than this"));

  private DeviceConfigKeys() {}

  /** Every key, in the order of the README's table. */
  public static List<ConfigKey> all() {
    return ALL;
  }

  /** The key of that name, or {@code null}. */
  static ConfigKey find(String name) {
    for (ConfigKey key : ALL) {
      if (key.name().equals(name)) {
        return key;
      }
    }
    return null;
  }

  private static ConfigKey key(String name, String defaultValue, String unit, String description) {
    return new ConfigKey(name, defaultValue, unit, description, CHOICE);
  }

  private static ConfigKey profileKey(String name, String unit, String description) {
    return new ConfigKey(name, Profiles.parameters(PROFILE_DEFAULT).get(name), unit,
        description + " (set by the profile)", Profiles.sources(PROFILE_DEFAULT).get(name));
  }
}
