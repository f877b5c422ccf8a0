package org.smartssd.examples.loganalysis;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What one run of an analysis cost. Measured: wall time (job submission to result, on this JVM's
 * monotonic clock), host CPU time (this JVM's process CPU time, {@code OperatingSystemMXBean
 * .getProcessCpuTime()}: the client, the local runner's tasks and the objfs client; a device in
 * another process is not counted) and the bytes across the host interface (the devices' STATISTICS,
 * before and after: frames each way, requests and answers). Modelled, never measured: the modelled
 * time, the device's execution time from the job's counters plus the time the modelled host link was
 * busy (host modes: the link carrying the raw records; device mode: the tasklet going in and partial
 * results coming out), and the energy ({@link EnergyModel}).
 *
 * @param paced whether the device holds answers until their modelled completion; null without a device
 * @param inputBytes bytes of the input files
 * @param deviceExecutionNanos modelled execution time of in-device map phases (device mode's counter)
 * @param linkBusyNanos modelled time the host link was busy during the run (STATISTICS delta)
 * @param energyModel the powers {@code energyJoules} was modelled with
 */
public record RunStatistics(
    Scenario scenario,
    Mode mode,
    Boolean paced,
    long inputBytes,
    long wallNanos,
    long deviceExecutionNanos,
    long linkBusyNanos,
    long hostBytesIn,
    long hostBytesOut,
    long hostCpuNanos,
    double energyJoules,
    long deviceExecutions,
    long deviceBytesScanned,
    long fallbackSplits,
    EnergyModel energyModel) {

  /** The modelled time: in-device execution plus host-link busy time. */
  public long modelledNanos() {
    return deviceExecutionNanos + linkBusyNanos;
  }

  /** Bytes that crossed the host interface, both ways. */
  public long hostInterfaceBytes() {
    return hostBytesIn + hostBytesOut;
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
    m.put("wall_s", wallSeconds());
    m.put("modelled_s", modelledSeconds());
    m.put("modelled_device_execution_s", deviceExecutionNanos / 1e9);
    m.put("modelled_link_busy_s", linkBusyNanos / 1e9);
    m.put("host_interface_bytes", hostInterfaceBytes());
    m.put("host_bytes_in", hostBytesIn);
    m.put("host_bytes_out", hostBytesOut);
    m.put("host_cpu_s", hostCpuSeconds());
    m.put("modelled_energy_j", energyJoules);
    m.put("device_executions", deviceExecutions);
    m.put("device_bytes_scanned", deviceBytesScanned);
    m.put("fallback_splits", fallbackSplits);
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
    out.printf(Locale.ROOT, "modelled time         %.3f s (modelled: device execution %.3f s + host link busy %.3f s)%n",
        modelledSeconds(), deviceExecutionNanos / 1e9, linkBusyNanos / 1e9);
    out.printf(Locale.ROOT, "host-interface bytes  %,d (to the device %,d, to the host %,d)%s%n", hostInterfaceBytes(),
        hostBytesIn, hostBytesOut, inputBytes > 0
            ? String.format(Locale.ROOT, ", %.3g of the input", (double) hostInterfaceBytes() / inputBytes) : "");
    out.printf(Locale.ROOT, "host CPU time         %.3f s (this JVM's process CPU time)%n", hostCpuSeconds());
    out.printf(Locale.ROOT, "modelled energy       %.1f J (modelled)%n", energyJoules);
    if (mode == Mode.DEVICE) {
      out.printf(Locale.ROOT, "device executions     %d, %,d bytes scanned in the device, %d split(s) fell back to the host%n",
          deviceExecutions, deviceBytesScanned, fallbackSplits);
    }
    out.flush();
  }
}
