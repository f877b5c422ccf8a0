package org.smartssd.examples.loganalysis;

import java.util.Map;

/**
 * The modelled energy of a run (never measured): the host and the device each draw their active power
 * while busy and their idle power otherwise, over the run's duration.
 *
 * <pre>
 *   T = max(wall time, modelled time)            the run's duration; unpaced, the model may be longer than the wall
 *   h = min(T, host CPU time)                    the host is busy while this JVM's threads compute
 *   d = min(T, modelled time)                    the device is busy for its modelled time
 *   E = hostActive*h + hostIdle*(T - h) + deviceActive*d + deviceIdle*(T - d)
 * </pre>
 *
 * <p>The powers are the device's {@code smartssd.device.energy.*} parameters (from its DEVICE_INFO):
 * by default host 40 W active and 35 W idle, device 1.2 W active and 0.9 W idle (Kang et al. measured
 * 35-40 W for the host and 0.9-1.2 W for the Smart SSD).
 */
public record EnergyModel(double hostActiveW, double hostIdleW, double deviceActiveW, double deviceIdleW) {
  public static final String HOST_ACTIVE_W = "smartssd.device.energy.host-active-w";
  public static final String HOST_IDLE_W = "smartssd.device.energy.host-idle-w";
  public static final String DEVICE_ACTIVE_W = "smartssd.device.energy.device-active-w";
  public static final String DEVICE_IDLE_W = "smartssd.device.energy.device-idle-w";

  /** The device runtime's defaults. */
  public static EnergyModel defaults() {
    return new EnergyModel(40, 35, 1.2, 0.9);
  }

  /** The powers a device reports in its effective configuration, the defaults for those it does not. */
  public static EnergyModel fromDeviceConfiguration(Map<String, String> effective) {
    EnergyModel d = defaults();
    return new EnergyModel(value(effective, HOST_ACTIVE_W, d.hostActiveW), value(effective, HOST_IDLE_W, d.hostIdleW),
        value(effective, DEVICE_ACTIVE_W, d.deviceActiveW), value(effective, DEVICE_IDLE_W, d.deviceIdleW));
  }

  /** The run's duration T in nanoseconds. */
  public static long durationNanos(long wallNanos, long modelledNanos) {
    return Math.max(wallNanos, modelledNanos);
  }

  /** Modelled joules of a run. */
  public double joules(long wallNanos, long modelledNanos, long hostCpuNanos) {
    double t = durationNanos(wallNanos, modelledNanos) / 1e9;
    double h = Math.min(t, hostCpuNanos / 1e9);
    double d = Math.min(t, modelledNanos / 1e9);
    return hostActiveW * h + hostIdleW * (t - h) + deviceActiveW * d + deviceIdleW * (t - d);
  }

  private static double value(Map<String, String> effective, String key, double fallback) {
    String v = effective == null ? null : effective.get(key);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
