package org.smartssd.examples.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.smartssd.device.runtime.config.ConfigException;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.config.DeviceConfigKeys;
import picocli.CommandLine;

/** The {@code --device-conf key=value} options of the commands that start devices of their own. */
final class DeviceConf {
  private DeviceConf() {}

  /**
   * The device keys with the profile, checked before anything starts.
   *
   * @throws CommandLine.ParameterException naming a key that is not a device key, or a bad value
   */
  static Map<String, String> checked(CommandLine cl, Map<String, String> deviceProperties, String profile) {
    for (String key : deviceProperties.keySet()) {
      if (!key.startsWith(DeviceConfigKeys.PREFIX)) {
        throw new CommandLine.ParameterException(cl, "--device-conf: " + key + " is not a device key ("
            + DeviceConfigKeys.PREFIX + "*); Hadoop keys for the jobs go with -D");
      }
    }
    Map<String, String> profiled = new LinkedHashMap<>(deviceProperties);
    profiled.put(DeviceConfigKeys.PROFILE, profile);
    try {
      DeviceConfig.load(profiled);
    } catch (ConfigException e) {
      throw new CommandLine.ParameterException(cl, "--device-conf: " + e.getMessage());
    }
    return profiled;
  }
}
