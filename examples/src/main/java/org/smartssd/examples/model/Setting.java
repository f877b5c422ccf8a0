package org.smartssd.examples.model;

import java.util.LinkedHashMap;
import java.util.Map;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import org.smartssd.objectfs.ObjectFileSystem;
import org.smartssd.objectfs.ObjfsConfigKeys;
import org.smartssd.model.Job;

/**
 * One point of the design space: a profile, device keys ({@code smartssd.device.*}) and the number of
 * devices ({@value #DEVICES}), as {@code model --set} and {@code sweep --vary} give them.
 */
public record Setting(String profile, Map<String, String> deviceKeys, int devices) {
  /** The key that says how many devices hold the input. */
  public static final String DEVICES = "devices";

  public Setting {
    deviceKeys = Map.copyOf(deviceKeys);
    if (devices < 1 || devices > 64) {
      throw new IllegalArgumentException(DEVICES + " must be between 1 and 64, not " + devices);
    }
  }

  /**
   * A setting from a profile and {@code key=value} pairs: device keys, or {@value #DEVICES}.
   *
   * @throws IllegalArgumentException naming a key that is neither, or a bad value
   */
  public static Setting of(String profile, Map<String, String> keys) {
    Map<String, String> device = new LinkedHashMap<>();
    int devices = 1;
    for (Map.Entry<String, String> e : keys.entrySet()) {
      if (e.getKey().equals(DEVICES)) {
        try {
          devices = Integer.parseInt(e.getValue().trim());
        } catch (NumberFormatException ex) {
          throw new IllegalArgumentException(DEVICES + "='" + e.getValue() + "' is not a whole number");
        }
      } else if (e.getKey().startsWith(DeviceConfigKeys.PREFIX)) {
        device.put(e.getKey(), e.getValue());
      } else {
        throw new IllegalArgumentException(e.getKey() + " is neither a device key (" + DeviceConfigKeys.PREFIX
            + "*) nor " + DEVICES);
      }
    }
    device.put(DeviceConfigKeys.PROFILE, profile);
    Setting s = new Setting(profile, device, devices);
    s.config(); // every value checked now
    return s;
  }

  /** The devices' configuration. */
  public DeviceConfig config() {
    return DeviceConfig.load(deviceKeys);
  }

  /** The job over {@code records} records as the log analysis runs it on these devices (objfs's defaults). */
  public Job job(long records) {
    DeviceConfig c = config();
    return new Job(records, devices, ObjectFileSystem.defaultReadahead(c.geometry()),
        ObjfsConfigKeys.BLOCK_SIZE_DEFAULT, c.isp().mergeOnDevice(), Long.MAX_VALUE);
  }
}
