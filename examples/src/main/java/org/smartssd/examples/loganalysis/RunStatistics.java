package org.smartssd.examples.loganalysis;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.runtime.config.EnergyParameters;
import org.smartssd.device.runtime.config.IspParameters;
import org.smartssd.opcount.CoreCost;
import org.smartssd.opcount.OpCounts;

/**
 * What one run of an analysis cost, measured and modelled, never one in place of the other.
 *
 * <p>Measured: wall time (job submission to result, on this JVM's monotonic clock); host CPU time
 * (this JVM's process CPU time, and its user and system parts from {@code /proc}: the client, the
 * local runner's tasks and the objfs client; a device in another process is not counted); the bytes
 * across the host interface and the flash pages read, programmed and erased (each device's
 * STATISTICS, before and after, summed over the devices).
 *
 * <p>Modelled: each device's busy time, its execution time from the job's counters plus the time its
 * modelled host link was busy (host modes: the link carrying the raw records; device mode: the
 * tasklet going in and partial results coming out); the host's compute, its counted work
 * ({@link HostCounting}) priced with the modelled host's CPU; the run's modelled time, the slowest
 * device's busy time plus the host's compute (the iSSD's Eq. 11 and 12: data access, then processing,
 * added); and the energy ({@link Energy}), by component. The devices model their own work's energy (each
 * device's account in its STATISTICS, before and after); the host's is modelled here, where the host is.
 *
 * @param scenario what ran: a log analysis's scenario, or another workload ({@code smartssd mine}'s)
 * @param paced whether the devices hold answers until their modelled completion; null without a device
 * @param inputBytes bytes of the input files
 * @param recordBytes bytes a stored record takes (20, or more when stored padded)
 * @param devices what each device holding the input did, in the order the inputs name them
 * @param hostCpuNanos this JVM's process CPU time (measured)
 * @param hostCpu its user and system parts, from {@code /proc} (measured)
 * @param processors the host's processors, over which its idle time is counted
 * @param hostCounted the host's counted work, or null when this JVM does not count (no agent)
 * @param device the devices' work in device mode, summed over the devices (from the job's counters)
 * @param parameters the modelled host's CPU and the energy model's powers, from the devices' configuration
 * @param placement device mode: where {@code DeviceJobClient} placed the map phase, and auto's
 *     predictions; null in host modes
 * @param profile the run's counted work by call path, when the command was asked for it
 *     ({@link WorkProfiling}); else null
 */
public record RunStatistics(
    Workload scenario,
    Mode mode,
    Boolean paced,
    long inputBytes,
    int recordBytes,
    long wallNanos,
    List<DeviceShare> devices,
    long hostCpuNanos,
    HostCpu hostCpu,
    int processors,
    OpCounts hostCounted,
    long deviceExecutions,
    long deviceBytesScanned,
    long fallbackSplits,
    DeviceWork device,
    ModelParameters parameters,
    Placement placement,
    RunProfile profile) {

  public RunStatistics {
    devices = List.copyOf(devices);
  }

  /**
   * One device's part of a run.
   *
   * @param address the device, {@code host:port}
   * @param executionNanos modelled time its in-device map phases were in progress (STATISTICS delta; overlapping
   *     executions once)
   * @param linkBusyNanos modelled time its host link was busy during the run (STATISTICS delta)
   * @param hostBytesIn bytes across its host link towards it (measured, STATISTICS delta)
   * @param hostBytesOut bytes across its host link towards the host (measured, STATISTICS delta)
   * @param flash pages it read (for the host and its executions), programmed and erased (STATISTICS delta)
   * @param internalDelayNanos modelled time its executions' internal reads delayed host commands (STATISTICS delta)
   * @param answersBehindNanos paced, how much later than modelled its answers went out, summed (STATISTICS delta)
   * @param commandNanos modelled time it took to serve the host's commands (the time at least one was in
   *     progress, STATISTICS delta): the raw records' reads in host modes, flash and link both, whichever bounds them
   * @param energy its modelled energy above idle by component, its cores', its flash's and its link's, as its own
   *     energy account has it (STATISTICS delta)
   */
  public record DeviceShare(String address, long executionNanos, long linkBusyNanos, long hostBytesIn,
      long hostBytesOut, FlashWork flash, long internalDelayNanos, long answersBehindNanos, long commandNanos,
      DeviceEnergy energy) {
    /**
     * The device's modelled busy time in the run: its executions, then the host's commands (the time at
     * least one was in progress; at least the link's busy time).
     */
    public long modelledNanos() {
      return executionNanos + ioNanos();
    }

    /** Modelled time serving the host's commands: while one was in progress, and at least the link's busy time. */
    public long ioNanos() {
      return Math.max(commandNanos, linkBusyNanos);
    }
  }

  /** Flash operations during a run (counted by the device). */
  public record FlashWork(long pagesRead, long pagesProgrammed, long blocksErased) {
    public static final FlashWork NONE = new FlashWork(0, 0, 0);
  }

  /**
   * The devices' in-storage work in a run (device mode), summed over the devices.
   *
   * @param computeNanos modelled time their cores computed, summed over the cores
   * @param counted the counted work of that compute
   * @param countedTail of that work, what the lanes did after their last read
   * @param hostDelayNanos modelled time host operations delayed their internal reads
   * @param behindModelNanos paced, how much later than modelled the executions really ended
   * @param resultBytes result bytes the tasklets produced
   * @param lanes lanes of the executions, summed
   * @param laneStateBytes the most a lane's function held in each execution (the iSSD's M(f)), summed over
   *     the executions
   * @param swapPagesRead pages lanes read again because their function held more than a lane's memory
   */
  public record DeviceWork(long computeNanos, OpCounts counted, OpCounts countedTail, long hostDelayNanos,
      long behindModelNanos, long resultBytes, long lanes, long laneStateBytes, long swapPagesRead) {
    public static final DeviceWork NONE = new DeviceWork(0, OpCounts.ZERO, OpCounts.ZERO, 0, 0, 0, 0, 0, 0);

    public long countedOps() {
      return counted.ops();
    }
  }

  /**
   * Where device mode's map phase ran ({@code smartssd.mapper.placement}), and, with auto, the analytic
   * model's predictions that chose it (modelled seconds; NaN when nothing was predicted).
   */
  public record Placement(String chosen, double predictedDeviceSeconds, double predictedHostSeconds) {}

  /**
   * The model's parameters for the host and for energy, read from the devices' configuration. Of the
   * energy model, the host side uses the host's powers and the devices' idle power (drawn over the run's
   * modelled time, which the devices do not know); the devices price their own work.
   *
   * @param computeModel the devices' compute model, which the host's follows: counted work on both
   *     sides, or measured CPU time on both
   * @param host what counted work costs on one of the modelled host's cores
   * @param hostCores the modelled host's cores, sharing its counted work
   * @param device what counted work costs on one of the devices' cores
   */
  public record ModelParameters(IspParameters.ComputeModel computeModel, CoreCost host, int hostCores,
      EnergyParameters energy, CoreCost device) {
    /** Whether the host's compute is counted (else it is this JVM's measured CPU time). */
    public boolean counted() {
      return computeModel == IspParameters.ComputeModel.COUNTED;
    }
  }

  /**
   * The run's modelled energy by component, in joules.
   *
   * @param hostIdle the host's idle power over the run's modelled time
   * @param hostCompute what the host's cores add while they compute its counted work
   * @param deviceIdle every device's idle power over the run's modelled time
   * @param deviceCores what the devices' cores add while they compute (the devices' accounts)
   * @param flash pages read and programmed, blocks erased (the devices' accounts)
   * @param link bytes on the host links (the devices' accounts)
   */
  public record Energy(double hostIdle, double hostCompute, double deviceIdle, double deviceCores, double flash,
      double link) {
    public double total() {
      return hostIdle + hostCompute + deviceIdle + deviceCores + flash + link;
    }

    /** Above idle: what running the analysis added (Active Flash's ΔP times the time). */
    public double dynamic() {
      return hostCompute + deviceCores + flash + link;
    }

    /** The components by name, in a stable order. */
    public Map<String, Double> components() {
      Map<String, Double> m = new LinkedHashMap<>();
      m.put("host_idle", hostIdle);
      m.put("host_compute", hostCompute);
      m.put("device_idle", deviceIdle);
      m.put("device_cores", deviceCores);
      m.put("flash", flash);
      m.put("link", link);
      return m;
    }
  }

  /**
   * Whether the host's compute is known: counted (the devices' compute model is counted and this JVM
   * runs the counting agent), or measured (the devices' compute model is not counted).
   */
  public boolean hostComputeKnown() {
    return hostCounted != null || !parameters.counted();
  }

  /**
   * The host's compute time: its counted work priced on the modelled host; with the devices' compute
   * model measured (or cycles), this JVM's measured CPU time; 0 when it should be counted but is not.
   */
  public long hostComputeNanos() {
    if (hostCounted != null) {
      return parameters.host().nanos(hostCounted) / parameters.hostCores();
    }
    return parameters.counted() ? 0 : hostCpuNanos;
  }

  /** The slowest device's modelled busy time (0 without a device): the devices work in parallel. */
  public long deviceBusyNanos() {
    return devices.stream().mapToLong(DeviceShare::modelledNanos).max().orElse(0);
  }

  /** The modelled time: the slowest device's busy time, then the host's compute. */
  public long modelledNanos() {
    return deviceBusyNanos() + hostComputeNanos();
  }

  /** The device whose modelled busy time is the longest, or null without a device. */
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

  /** Modelled time the devices served the host's commands (flash and link), summed over the devices. */
  public long ioNanos() {
    return devices.stream().mapToLong(DeviceShare::ioNanos).sum();
  }

  /** Modelled contention: internal reads delaying host commands plus host operations delaying internal reads. */
  public long contentionNanos() {
    return devices.stream().mapToLong(DeviceShare::internalDelayNanos).sum() + device.hostDelayNanos();
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

  /**
   * The modelled energy: the host and every device draw idle power over the run's modelled time; the
   * host's cores add their active power while they compute its counted work. What the devices' work
   * added (their cores computing, every flash operation, every byte on their links) is theirs to model:
   * it is their energy accounts' differences over the run, summed.
   */
  public Energy energy() {
    EnergyParameters e = parameters.energy();
    double t = modelledNanos() / 1e9;
    double hostCompute = Math.max(0, e.hostActiveWatts() - e.hostIdleWatts()) * hostComputeNanos() / 1e9;
    DeviceEnergy work = deviceEnergy();
    return new Energy(e.hostIdleWatts() * t, hostCompute, e.deviceIdleWatts() * t * devices.size(),
        DeviceEnergy.joules(work.coreNanojoules()), DeviceEnergy.joules(work.flashNanojoules()),
        DeviceEnergy.joules(work.linkNanojoules()));
  }

  /** The devices' modelled energy above idle over the run, as their accounts have it, summed over the devices. */
  public DeviceEnergy deviceEnergy() {
    return devices.stream().map(DeviceShare::energy).reduce(DeviceEnergy.NONE, DeviceEnergy::plus);
  }

  public double energyJoules() {
    return energy().total();
  }

  /**
   * How much later than modelled the devices worked (paced): their executions' ends, and their answers
   * to the host's commands, summed.
   */
  public long behindModelNanos() {
    return device.behindModelNanos() + devices.stream().mapToLong(DeviceShare::answersBehindNanos).sum();
  }

  /**
   * Whether a paced run fell behind the model: its devices worked later than modelled by more than 1%
   * of the run's modelled time (less is the pacer's own jitter), so its wall time is not the model's.
   */
  public boolean behindModel() {
    return Boolean.TRUE.equals(paced) && behindModelNanos() > modelledNanos() / 100;
  }

  public long records() {
    return inputBytes / recordBytes;
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
    m.put("record_bytes", recordBytes);
    m.put("input_bytes", inputBytes);
    m.put("devices", devices.size());
    m.put("wall_s", wallSeconds());
    m.put("modelled_s", modelledSeconds());
    m.put("modelled_device_execution_s", deviceExecutionNanos() / 1e9);
    m.put("modelled_link_busy_s", linkBusyNanos() / 1e9);
    m.put("modelled_io_s", ioNanos() / 1e9);
    m.put("modelled_host_compute_s", hostComputeKnown() ? hostComputeNanos() / 1e9 : null);
    m.put("modelled_device_compute_s", device.computeNanos() / 1e9);
    m.put("modelled_contention_s", contentionNanos() / 1e9);
    m.put("compute_model", parameters.computeModel().optionName());
    m.put("host_counted_ops", hostCounted != null ? hostCounted.ops() : null);
    m.put("host_counted_memory_accesses", hostCounted != null ? hostCounted.memoryAccesses() : null);
    m.put("host_counted_library_calls", hostCounted != null ? hostCounted.libraryCalls() : null);
    m.put("host_counted_bulk_bytes", hostCounted != null ? hostCounted.bulkBytes() : null);
    m.put("host_counted_library_reads", hostCounted != null ? hostCounted.libraryReads() : null);
    m.put("device_counted_ops", device.countedOps());
    m.put("device_counted_memory_accesses", device.counted().memoryAccesses());
    m.put("device_counted_library_calls", device.counted().libraryCalls());
    m.put("device_counted_bulk_bytes", device.counted().bulkBytes());
    m.put("device_counted_library_reads", device.counted().libraryReads());
    m.put("device_counted_tail_ops", device.countedTail().ops());
    m.put("device_counted_tail_memory_accesses", device.countedTail().memoryAccesses());
    m.put("device_lanes", device.lanes());
    m.put("device_lane_state_bytes", device.laneStateBytes());
    m.put("device_swap_pages_read", device.swapPagesRead());
    m.put("host_interface_bytes", hostInterfaceBytes());
    m.put("host_bytes_in", hostBytesIn());
    m.put("host_bytes_out", hostBytesOut());
    m.put("host_cpu_s", hostCpuSeconds());
    m.put("host_cpu_user_s", hostCpu.known() ? hostCpu.userNanos() / 1e9 : null);
    m.put("host_cpu_system_s", hostCpu.known() ? hostCpu.systemNanos() / 1e9 : null);
    m.put("host_cpu_idle_s", hostCpu.known() ? hostCpu.idleNanos(wallNanos, processors) / 1e9 : null);
    m.put("host_processors", processors);
    Energy energy = energy();
    m.put("modelled_energy_j", energy.total());
    Map<String, Object> parts = new LinkedHashMap<>();
    energy.components().forEach((k, v) -> parts.put(k + "_j", v));
    m.put("modelled_energy_by_component", parts);
    m.put("device_executions", deviceExecutions);
    m.put("device_bytes_scanned", deviceBytesScanned);
    m.put("fallback_splits", fallbackSplits);
    m.put("placement", placement == null ? null : placement.chosen());
    m.put("predicted_device_s", placement == null ? null : placement.predictedDeviceSeconds());
    m.put("predicted_host_s", placement == null ? null : placement.predictedHostSeconds());
    m.put("behind_model_s", behindModelNanos() / 1e9);
    m.put("behind_model", behindModel());
    List<Object> each = new ArrayList<>();
    for (DeviceShare d : devices) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("device", d.address());
      e.put("modelled_s", d.modelledNanos() / 1e9);
      e.put("modelled_device_execution_s", d.executionNanos() / 1e9);
      e.put("modelled_link_busy_s", d.linkBusyNanos() / 1e9);
      e.put("modelled_io_s", d.ioNanos() / 1e9);
      e.put("host_bytes_in", d.hostBytesIn());
      e.put("host_bytes_out", d.hostBytesOut());
      e.put("pages_read", d.flash().pagesRead());
      e.put("pages_programmed", d.flash().pagesProgrammed());
      e.put("blocks_erased", d.flash().blocksErased());
      e.put("modelled_internal_delay_s", d.internalDelayNanos() / 1e9);
      e.put("modelled_core_busy_s", d.energy().coreBusyNanos() / 1e9);
      e.put("modelled_energy_cores_j", DeviceEnergy.joules(d.energy().coreNanojoules()));
      e.put("modelled_energy_flash_j", DeviceEnergy.joules(d.energy().flashNanojoules()));
      e.put("modelled_energy_link_j", DeviceEnergy.joules(d.energy().linkNanojoules()));
      each.add(e);
    }
    m.put("per_device", each);
    if (profile != null) {
      m.put("work_profile", ProfileReport.toMap(this));
    }
    return m;
  }

  public String toJson() {
    return Json.write(toMap());
  }

  /** The human-readable form {@code loganalysis} prints on standard error. */
  /** Whether some of this device-mode run's splits ran on the host ({@code smartssd.mapper.fallback=auto}). */
  public boolean fellBack() {
    return mode == Mode.DEVICE && fallbackSplits > 0;
  }

  /** What a fallback means, for the user: {@link #fellBack} said it happened. */
  public String fallbackText() {
    return String.format(Locale.ROOT, "%d split(s) of this device-mode run ran on the host, not in the device: their "
        + "raw records crossed the host interface (smartssd.mapper.fallback=auto; the warnings above name each "
        + "device and why; with smartssd.mapper.fallback=never such a split fails instead)", fallbackSplits);
  }

  public void print(PrintWriter out) {
    out.printf(Locale.ROOT, "mode                  %s (scenario %s%s)%n", mode.optionName(), scenario.optionName(),
        paced == null ? "" : paced ? ", device paced" : ", device unpaced");
    if (fellBack()) {
      out.printf(Locale.ROOT, "NOT IN THE DEVICE     %s%n", fallbackText());
    }
    out.printf(Locale.ROOT, "records               %,d (%,d bytes)%n", records(), inputBytes);
    out.printf(Locale.ROOT, "wall time             %.3f s (measured)%n", wallSeconds());
    DeviceShare slowest = slowestDevice();
    String host = hostCounted != null
        ? String.format(Locale.ROOT, "host compute %.3f s, counted", hostComputeNanos() / 1e9)
        : hostComputeKnown()
            ? String.format(Locale.ROOT, "host compute %.3f s, measured (compute model %s)", hostComputeNanos() / 1e9,
                parameters.computeModel().optionName())
            : "host compute not counted: this JVM runs without the counting agent";
    if (devices.size() <= 1) {
      out.printf(Locale.ROOT, "modelled time         %.3f s (modelled: device execution %.3f s + serving the host's commands "
          + "%.3f s (host link busy %.3f s) + %s)%n", modelledSeconds(), deviceExecutionNanos() / 1e9, ioNanos() / 1e9,
          linkBusyNanos() / 1e9, host);
    } else {
      out.printf(Locale.ROOT, "modelled time         %.3f s (modelled: the slowest of %d devices working in parallel, "
          + "%s: device execution %.3f s + serving the host's commands %.3f s; then %s)%n", modelledSeconds(),
          devices.size(), slowest.address(), slowest.executionNanos() / 1e9, slowest.ioNanos() / 1e9, host);
      for (DeviceShare d : devices) {
        out.printf(Locale.ROOT, "  device %-21s modelled %.3f s (execution %.3f s + commands %.3f s), %,d host-interface "
            + "bytes%n", d.address(), d.modelledNanos() / 1e9, d.executionNanos() / 1e9, d.ioNanos() / 1e9,
            d.hostBytesIn() + d.hostBytesOut());
      }
    }
    if (hostCounted != null) {
      out.printf(Locale.ROOT, "host counted work     %s%n", hostCounted);
    }
    if (behindModel()) {
      out.printf(Locale.ROOT, "behind the model      paced, the devices worked %.3f s later than modelled (executions and "
          + "answers, summed): this machine could not simulate them as fast as the model has them run%n",
          behindModelNanos() / 1e9);
    }
    out.printf(Locale.ROOT, "host-interface bytes  %,d (to the device%s %,d, to the host %,d)%s%n", hostInterfaceBytes(),
        devices.size() > 1 ? "s" : "", hostBytesIn(), hostBytesOut(), inputBytes > 0
            ? String.format(Locale.ROOT, ", %.3g of the input", (double) hostInterfaceBytes() / inputBytes) : "");
    out.printf(Locale.ROOT, "host CPU time         %.3f s (measured: this JVM's process CPU time)%s%n", hostCpuSeconds(),
        hostCpu.known() ? String.format(Locale.ROOT, "; user %.3f s, system %.3f s, idle %.3f s of %d processors",
            hostCpu.userNanos() / 1e9, hostCpu.systemNanos() / 1e9, hostCpu.idleNanos(wallNanos, processors) / 1e9,
            processors) : "");
    Energy e = energy();
    out.printf(Locale.ROOT, "modelled energy       %.1f J (modelled: host idle %.1f + host compute %.1f + device idle %.1f "
        + "+ device cores %.2f + flash %.2f + link %.4f)%n", e.total(), e.hostIdle(), e.hostCompute(), e.deviceIdle(),
        e.deviceCores(), e.flash(), e.link());
    if (mode.inDevice()) {
      out.printf(Locale.ROOT, "device executions     %d, %,d bytes scanned in the device%s, %d split(s) fell back to "
          + "the host; device compute %.3f s on its cores (modelled, %,d counted ops)%n", deviceExecutions,
          deviceBytesScanned, devices.size() > 1 ? "s" : "", fallbackSplits, device.computeNanos() / 1e9,
          device.countedOps());
      if (placement != null) {
        out.printf(Locale.ROOT, "placement             %s%s%n", placement.chosen(),
            Double.isNaN(placement.predictedDeviceSeconds()) ? ""
                : String.format(Locale.ROOT, " (auto: predicted %.3f s in the devices, %.3f s on the host, modelled)",
                    placement.predictedDeviceSeconds(), placement.predictedHostSeconds()));
      }
    }
    out.flush();
  }
}
