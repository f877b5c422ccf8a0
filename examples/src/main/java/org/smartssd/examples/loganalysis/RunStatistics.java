package org.smartssd.examples.loganalysis;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one run of an analysis cost. Measured: wall time (job submission to result, on this JVM's
 * monotonic clock), host CPU time (this JVM's process CPU time, {@code OperatingSystemMXBean
 * .getProcessCpuTime()}: the client, the local runner's tasks and the objfs client; a device in
 * another process is not counted) and the bytes across the host interface (each device's STATISTICS,
 * before and after: frames each way, requests and answers; summed over the devices). Modelled, never
 * measured: each device's modelled busy time, its execution time from the job's counters plus the
 * time its modelled host link was busy (host modes: the link carrying the raw records; device mode:
 * the tasklet going in and partial results coming out); the run's modelled time, the longest of these
 * (the devices work in parallel, each with its own link, so the slowest one decides); and the energy
 * ({@link EnergyModel}: the host once, every device for its own busy time).
 *
 * @param paced whether the devices hold answers until their modelled completion; null without a device
 * @param inputBytes bytes of the input files
 * @param devices what each device holding the input did, in the order the inputs name them
 * @param energyModel the powers {@code energyJoules} was modelled with
 */
public record RunStatistics(
    Scenario scenario,
    Mode mode,
    Boolean paced,
    long inputBytes,
    long wallNanos,
    List<DeviceShare> devices,
    long hostCpuNanos,
    double energyJoules,
    long deviceExecutions,
    long deviceBytesScanned,
    long fallbackSplits,
    EnergyModel energyModel) {

  public RunStatistics {
    devices = List.copyOf(devices);
  }

  /**
   * One device's part of a run.
   *
   * @param address the device, {@code host:port}
   * @param executionNanos modelled execution time of the in-device map phases it ran (device mode's counters)
   * @param linkBusyNanos modelled time its host link was busy during the run (STATISTICS delta)
   * @param hostBytesIn bytes across its host link towards it (measured, STATISTICS delta)
   * @param hostBytesOut bytes across its host link towards the host (measured, STATISTICS delta)
   */
  public record DeviceShare(String address, long executionNanos, long linkBusyNanos, long hostBytesIn,
      long hostBytesOut) {
    /** The device's modelled busy time in the run: execution plus host-link busy time. */
    public long modelledNanos() {
      return executionNanos + linkBusyNanos;
    }
  }

  /** The modelled time: the longest of the devices' modelled busy times (0 without a device). */
  public long modelledNanos() {
    return devices.stream().mapToLong(DeviceShare::modelledNanos).max().orElse(0);
  }

  /** The device whose modelled busy time is the run's modelled time, or null without a device. */
  public DeviceShare slowestDevice() {
    return devices.stream().max(Comparator.comparingLong(DeviceShare::modelledNanos)).orElse(null);
  }

  /** Modelled execution time of in-device map phases, summed over the devices. */
  public long deviceExecutionNanos() {
    return devices.stream().mapToLong(DeviceShare::executionNanos).sum();
  }

  /** Modelled host-link busy time, summed over the devices. */
  public long linkBusyNanos() {
    return devices.stream().mapToLong(DeviceShare::linkBusyNanos).sum();
  }

  /** Bytes across the host interfaces towards the devices, summed. */
  public long hostBytesIn() {
    return devices.stream().mapToLong(DeviceShare::hostBytesIn).sum();
  }

  /** Bytes across the host interfaces towards the host, summed. */
  public long hostBytesOut() {
    return devices.stream().mapToLong(DeviceShare::hostBytesOut).sum();
  }

  /** Bytes that crossed the host interfaces, both ways, summed over the devices. */
  public long hostInterfaceBytes() {
    return hostBytesIn() + hostBytesOut();
  }

  public long records() {
    return inputBytes / org.smartssd.examples.wc98.Wc98Record.BYTES;
  }

  public double wallSeconds() {
    return wallNanos / 1e9;
  }

  public double modelledSeconds() {
    return modelledNanos() / 1e9;
  }

  public double hostCpuSeconds() {
    return hostCpuNanos / 1e9;
  }

  /** The statistics as a JSON-ready map, in a stable order. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("scenario", scenario.optionName());
    m.put("mode", mode.optionName());
    m.put("paced", paced);
    m.put("records", records());
    m.put("input_bytes", inputBytes);
    m.put("devices", devices.size());
    m.put("wall_s", wallSeconds());
    m.put("modelled_s", modelledSeconds());
    m.put("modelled_device_execution_s", deviceExecutionNanos() / 1e9);
    m.put("modelled_link_busy_s", linkBusyNanos() / 1e9);
    m.put("host_interface_bytes", hostInterfaceBytes());
    m.put("host_bytes_in", hostBytesIn());
    m.put("host_bytes_out", hostBytesOut());
    m.put("host_cpu_s", hostCpuSeconds());
    m.put("modelled_energy_j", energyJoules);
    m.put("device_executions", deviceExecutions);
    m.put("device_bytes_scanned", deviceBytesScanned);
    m.put("fallback_splits", fallbackSplits);
    List<Object> each = new ArrayList<>();
    for (DeviceShare d : devices) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("device", d.address());
      e.put("modelled_s", d.modelledNanos() / 1e9);
      e.put("modelled_device_execution_s", d.executionNanos() / 1e9);
      e.put("modelled_link_busy_s", d.linkBusyNanos() / 1e9);
      e.put("host_bytes_in", d.hostBytesIn());
      e.put("host_bytes_out", d.hostBytesOut());
      each.add(e);
    }
    m.put("per_device", each);
    return m;
  }

  public String toJson() {
    return Json.write(toMap());
  }

  /** The human-readable form {@code loganalysis} prints on standard error. */
  public void print(PrintWriter out) {
    out.printf(Locale.ROOT, "mode                  %s (scenario %s%s)%n", mode.optionName(), scenario.optionName(),
        paced == null ? "" : paced ? ", device paced" : ", device unpaced");
    out.printf(Locale.ROOT, "records               %,d (%,d bytes)%n", records(), inputBytes);
    out.printf(Locale.ROOT, "wall time             %.3f s%n", wallSeconds());
    DeviceShare slowest = slowestDevice();
    if (devices.size() <= 1) {
      out.printf(Locale.ROOT, "modelled time         %.3f s (modelled: device execution %.3f s + host link busy %.3f s)%n",
          modelledSeconds(), deviceExecutionNanos() / 1e9, linkBusyNanos() / 1e9);
    } else {
      out.printf(Locale.ROOT, "modelled time         %.3f s (modelled: the slowest of %d devices working in parallel, "
          + "%s: device execution %.3f s + host link busy %.3f s)%n", modelledSeconds(), devices.size(),
          slowest.address(), slowest.executionNanos() / 1e9, slowest.linkBusyNanos() / 1e9);
      for (DeviceShare d : devices) {
        out.printf(Locale.ROOT, "  device %-21s modelled %.3f s (execution %.3f s + link %.3f s), %,d host-interface "
            + "bytes%n", d.address(), d.modelledNanos() / 1e9, d.executionNanos() / 1e9, d.linkBusyNanos() / 1e9,
            d.hostBytesIn() + d.hostBytesOut());
      }
    }
    out.printf(Locale.ROOT, "host-interface bytes  %,d (to the device%s %,d, to the host %,d)%s%n", hostInterfaceBytes(),
        devices.size() > 1 ? "s" : "", hostBytesIn(), hostBytesOut(), inputBytes > 0
            ? String.format(Locale.ROOT, ", %.3g of the input", (double) hostInterfaceBytes() / inputBytes) : "");
    out.printf(Locale.ROOT, "host CPU time         %.3f s (this JVM's process CPU time)%n", hostCpuSeconds());
    out.printf(Locale.ROOT, "modelled energy       %.1f J (modelled)%n", energyJoules);
    if (mode == Mode.DEVICE) {
      out.printf(Locale.ROOT, "device executions     %d, %,d bytes scanned in the device%s, %d split(s) fell back to "
          + "the host%n", deviceExecutions, deviceBytesScanned, devices.size() > 1 ? "s" : "", fallbackSplits);
    }
    out.flush();
  }
}
