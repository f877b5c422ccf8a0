package org.smartssd.examples.loganalysis;

import java.util.List;
import java.util.Map;

/**
 * The modelled energy of a run (never measured): the host and each device draw their active power
 * while busy and their idle power otherwise, over the run's duration.
 *
 * <pre>
 *   d_i = device i's modelled busy time           its execution plus its host link's busy time
 *   T = max(wall time, max over i of d_i)         the run's duration; unpaced, the model may be longer than the wall
 *   h = min(T, host CPU time)                     the host is busy while this JVM's threads compute
 *   E = hostActive*h + hostIdle*(T - h) + sum over i of (deviceActive*min(T, d_i) + deviceIdle*(T - min(T, d_i)))
 * </pre>
 *
 * <p>Every device holding the input counts, each for its own busy time; a run over no device (local
 * files) counts the host alone. The powers are the device's {@code smartssd.device.energy.*}
 * parameters (from its DEVICE_INFO): by default host 40 W active and 35 W idle, device 1.2 W active
 * and 0.9 W idle (Kang et al. measured 35-40 W for the host and 0.9-1.2 W for the Smart SSD).
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

  /** The run's duration T in nanoseconds: the wall time, or the slowest device's modelled time if longer. */
  public static long durationNanos(long wallNanos, List<Long> deviceBusyNanos) {
    long t = wallNanos;
    for (long d : deviceBusyNanos) {
      t = Math.max(t, d);
    }
    return t;
  }

  /** Modelled joules of a run over one device busy for {@code modelledNanos}. */
  public double joules(long wallNanos, long modelledNanos, long hostCpuNanos) {
    return joules(wallNanos, hostCpuNanos, List.of(modelledNanos));
  }

  /** Modelled joules of a run over devices working in parallel, each busy for its own modelled time. */
  public double joules(long wallNanos, long hostCpuNanos, List<Long> deviceBusyNanos) {
    double t = durationNanos(wallNanos, deviceBusyNanos) / 1e9;
    double h = Math.min(t, hostCpuNanos / 1e9);
    double e = hostActiveW * h + hostIdleW * (t - h);
    for (long busy : deviceBusyNanos) {
      double d = Math.min(t, busy / 1e9);
      e += deviceActiveW * d + deviceIdleW * (t - d);
    }
    return e;
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
