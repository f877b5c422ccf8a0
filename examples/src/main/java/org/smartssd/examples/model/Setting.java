package org.smartssd.examples.model;

import java.util.LinkedHashMap;
import java.util.Map;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import org.smartssd.devicemapper.DeviceMapperConfigKeys;
import org.smartssd.examples.loganalysis.LogAnalysis;
import org.smartssd.examples.wc98.Wc98Record;
import org.smartssd.objectfs.ObjectFileSystem;
import org.smartssd.objectfs.ObjfsConfigKeys;
import org.smartssd.model.Job;

/**
 * One point of the design space: a profile, device keys ({@code smartssd.device.*}), the number of
 * devices ({@value #DEVICES}) and the bytes a stored record of the log analysis's trace takes ({@value
 * #RECORD_BYTES}; 0 for a job whose records are its own, a data-mining workload's), as {@code model --set}
 * and {@code sweep --vary} give them.
 */
public record Setting(String profile, Map<String, String> deviceKeys, int devices, int recordBytes) {
  /** The key that says how many devices hold the input. */
  public static final String DEVICES = "devices";
  /** The key that says how many bytes a stored record takes ({@link LogAnalysis#RECORD_BYTES}). */
  public static final String RECORD_BYTES = "record-bytes";

  public Setting {
    deviceKeys = Map.copyOf(deviceKeys);
    if (devices < 1 || devices > 64) {
      throw new IllegalArgumentException(DEVICES + " must be between 1 and 64, not " + devices);
    }
    if (recordBytes != 0) {
      Wc98Record.checkStoredBytes(RECORD_BYTES, recordBytes);
    }
  }

  /**
   * A setting of the log analysis from a profile and {@code key=value} pairs: device keys, {@value #DEVICES}
   * or {@value #RECORD_BYTES}.
   *
   * @throws IllegalArgumentException naming a key that is none of these, or a bad value
   */
  public static Setting of(String profile, Map<String, String> keys) {
    return of(profile, keys, true);
  }

  /**
   * A setting from a profile and {@code key=value} pairs, for a job that stores the log analysis's trace
   * records ({@code storedRecords}: {@value #RECORD_BYTES} may be given) or one whose records are its own (it
   * may not).
   *
   * @throws IllegalArgumentException naming a key that is none of these, or a bad value
   */
  public static Setting of(String profile, Map<String, String> keys, boolean storedRecords) {
    Map<String, String> device = new LinkedHashMap<>();
    int devices = 1;
    int recordBytes = storedRecords ? Wc98Record.BYTES : 0;
    for (Map.Entry<String, String> e : keys.entrySet()) {
      if (e.getKey().equals(DEVICES)) {
        devices = whole(DEVICES, e.getValue());
      } else if (e.getKey().equals(RECORD_BYTES)) {
        if (!storedRecords) {
          throw new IllegalArgumentException(RECORD_BYTES + " sizes the log analysis's stored trace records; a "
              + "data-mining workload's records are its own (a point, an edge, a transaction's line): not with "
              + "--algorithm");
        }
        recordBytes = whole(RECORD_BYTES, e.getValue());
      } else if (e.getKey().startsWith(DeviceConfigKeys.PREFIX)) {
        device.put(e.getKey(), e.getValue());
      } else {
        throw new IllegalArgumentException(e.getKey() + " is neither a device key (" + DeviceConfigKeys.PREFIX
            + "*) nor " + DEVICES + " nor " + RECORD_BYTES);
      }
    }
    device.put(DeviceConfigKeys.PROFILE, profile);
    Setting s = new Setting(profile, device, devices, recordBytes);
    s.config(); // every value checked now
    return s;
  }

  private static int whole(String key, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException ex) {
      throw new IllegalArgumentException(key + "='" + value + "' is not a whole number");
    }
  }

  /** The jobs' Hadoop keys for this setting: the stored record size, if the job stores trace records. */
  public Map<String, String> hadoopKeys() {
    return recordBytes == 0 ? Map.of() : Map.of(LogAnalysis.RECORD_BYTES, Integer.toString(recordBytes));
  }

  /** The devices' configuration. */
  public DeviceConfig config() {
    return DeviceConfig.load(deviceKeys);
  }

  /**
   * The job over {@code records} records as the log analysis runs it on these devices (objfs's defaults;
   * a lane's memory the devices').
   */
  public Job job(long records) {
    DeviceConfig c = config();
    return Job.onDevice(c, records, devices, ObjectFileSystem.defaultReadahead(c.geometry()),
        ObjfsConfigKeys.BLOCK_SIZE_DEFAULT, c.isp().mergeOnDevice(), DeviceMapperConfigKeys.BUFFER_RECORDS_DEFAULT);
  }
}
