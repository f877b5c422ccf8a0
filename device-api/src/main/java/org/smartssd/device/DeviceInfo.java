package org.smartssd.device;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A device's identity and shape.
 *
 * @param deviceName the host name the device is attached to (used for task locality)
 * @param profile the named parameter set the device started from
 * @param geometry its flash array
 * @param capacityBytes bytes users can store (after over-provisioning)
 * @param freeBytes bytes still free
 * @param paced whether answers are held until their modelled completion
 * @param parameters every effective configuration parameter, by key
 */
public record DeviceInfo(
    String deviceName,
    String profile,
    DeviceGeometry geometry,
    long capacityBytes,
    long freeBytes,
    boolean paced,
    Map<String, String> parameters) {

  public DeviceInfo {
    Objects.requireNonNull(deviceName, "deviceName");
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(geometry, "geometry");
    parameters = java.util.Collections.unmodifiableMap(new TreeMap<>(parameters));
  }
}
