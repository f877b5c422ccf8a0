package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.smartssd.device.ChannelStatistics;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.DiskUse;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.TaskletResult;

/** Response payloads, as in PROTOCOL.md's opcode table. Used through {@link Messages}. */
final class ResponseCodec {
  private static final int CHANNEL_BYTES = 4 * 8;

  private ResponseCodec() {}

  static void encode(int version, Response response, PayloadWriter w) {
    if (response instanceof Response.AuthChallenge a) {
      w.bool(a.required()).bytes(a.deviceNonce());
    } else if (response instanceof Response.Authenticated a) {
      w.bytes(a.proof());
    } else if (response instanceof Response.Versions v) {
      w.u16(v.minVersion()).u16(v.maxVersion());
    } else if (response instanceof Response.Info i) {
      encodeInfo(i.info(), w);
    } else if (response instanceof Response.Statistics s) {
      encodeStatistics(version, s.statistics(), w);
    } else if (response instanceof Response.Opened o) {
      w.u64(o.handle()).u64(o.objectId()).u64(o.length());
    } else if (response instanceof Response.Length l) {
      w.u64(l.length());
    } else if (response instanceof Response.Stat s) {
      w.objectStatus(version, s.status());
    } else if (response instanceof Response.Data d) {
      w.bytes(d.data());
    } else if (response instanceof Response.Listing l) {
      w.u32(l.entries().size());
      l.entries().forEach(e -> w.objectStatus(version, e));
      w.bool(l.more());
    } else if (response instanceof Response.TaskletCreated t) {
      w.u64(t.taskletId());
    } else if (response instanceof Response.ExecutionStarted e) {
      w.u64(e.executionId());
    } else if (response instanceof Response.ExecutionProgress p) {
      w.u8(p.state().code()).string(p.message()).executionStatistics(version, p.statistics()).u32(p.results().size());
      p.results().forEach(w::taskletResult);
      w.bool(p.finished());
      if (version >= ProtocolConstants.PROFILE_VERSION) {
        w.bool(p.profile() != null);
        if (p.profile() != null) {
          w.workProfile(version, p.profile());
        }
      }
    } else if (response instanceof Response.Error e) {
      w.string(e.message());
    }
    // Empty has an empty payload.
  }

  static Response decode(int version, Opcode opcode, Status status, ByteBuffer payload) throws ProtocolException {
    PayloadReader r = new PayloadReader(payload, opcode + " response");
    Response response;
    if (status.isError()) {
      response = new Response.Error(status, r.string("message"));
    } else {
      response = switch (opcode) {
        case API_VERSIONS -> versions(r);
        case AUTH_CHALLENGE -> authChallenge(r);
        case AUTHENTICATE -> new Response.Authenticated(r.fixedBytes("proof", HostSecret.PROOF_BYTES));
        case DEVICE_INFO -> new Response.Info(info(r));
        case STATISTICS -> new Response.Statistics(statistics(version, r));
        case SHUTDOWN, IDENTIFY, MKDIRS, RENAME, DELETE, SET_PERMISSION, SET_OWNER, SET_TIMES, CANCEL, REMOVE_OBJECT ->
            new Response.Empty();
        case CREATE, APPEND -> new Response.Opened(r.u64("handle"), r.u64("objectId"), r.u64("length"));
        case WRITE, FLUSH, SYNC, CLOSE -> new Response.Length(r.u64("length"));
        case OPEN, STATUS -> new Response.Stat(r.objectStatus(version, "status"));
        case READ -> new Response.Data(r.bytes("data"));
        case LIST -> listing(version, r);
        case CREATE_OBJECT -> new Response.TaskletCreated(r.u64("taskletId"));
        case EXECUTE_OBJECT -> new Response.ExecutionStarted(r.u64("executionId"));
        case READ_OBJECT -> progress(version, r);
      };
    }
    r.expectEnd();
    return response;
  }

  private static Response.AuthChallenge authChallenge(PayloadReader r) throws ProtocolException {
    boolean required = r.bool("required");
    return new Response.AuthChallenge(required, r.fixedBytes("deviceNonce", required ? HostSecret.NONCE_BYTES : 0));
  }

  private static Response.Versions versions(PayloadReader r) throws ProtocolException {
    int min = r.u16("minVersion");
    int max = r.u16("maxVersion");
    if (min > max) {
      throw r.error("maxVersion", "below minVersion: " + min + ".." + max);
    }
    return new Response.Versions(min, max);
  }

  private static void encodeInfo(DeviceInfo info, PayloadWriter w) {
    w.string(info.deviceName()).string(info.profile()).geometry(info.geometry())
        .u64(info.capacityBytes()).u64(info.freeBytes()).bool(info.paced())
        .stringMap(info.parameters());
  }

  private static DeviceInfo info(PayloadReader r) throws ProtocolException {
    String name = r.string("deviceName");
    String profile = r.string("profile");
    var geometry = r.geometry("geometry");
    long capacity = r.u64("capacityBytes");
    long free = r.u64("freeBytes");
    boolean paced = r.bool("paced");
    Map<String, String> parameters = r.stringMap("parameters");
    return new DeviceInfo(name, profile, geometry, capacity, free, paced, parameters);
  }

  private static void encodeStatistics(int version, DeviceStatistics s, PayloadWriter w) {
    w.u64(s.uptimeNanos()).u64(s.commands()).u64(s.hostBytesIn()).u64(s.hostBytesOut())
        .u64(s.linkBusyNanos()).u64(s.modelledHorizonNanos()).u64(s.gcPagesMoved())
        .u64(s.modelledInternalDelayNanos()).u64(s.commandsDelayedByInternal()).u64(s.answersBehindModelNanos()).u64(s.modelledCommandNanos())
        .u64(s.modelledExecutionNanos()).u32(s.channels().size());
    for (ChannelStatistics c : s.channels()) {
      w.u64(c.pagesRead()).u64(c.pagesProgrammed()).u64(c.blocksErased()).u64(c.busyNanos());
    }
    if (version >= ProtocolConstants.DISK_USE_VERSION) {
      DiskUse d = s.diskUse();
      if (d == null) {
        throw new IllegalArgumentException("statistics of protocol version " + version + " must carry disk use");
      }
      w.bool(d.reclaiming()).string(d.reclaimNote()).u64(d.allocatedBytes()).u64(d.fileBytes()).u64(d.liveBytes())
          .u64(d.punchedBytes()).u64(d.holesPunched());
    }
    if (version >= ProtocolConstants.ENERGY_VERSION) {
      DeviceEnergy e = s.energy();
      if (e == null) {
        throw new IllegalArgumentException("statistics of protocol version " + version + " must carry energy");
      }
      w.u64(e.coreBusyNanos()).u64(e.coreNanojoules()).u64(e.flashReadNanojoules()).u64(e.flashProgramNanojoules())
          .u64(e.flashEraseNanojoules()).u64(e.linkNanojoules());
    }
  }

  private static DeviceStatistics statistics(int version, PayloadReader r) throws ProtocolException {
    long uptime = r.u64("uptimeNanos");
    long commands = r.u64("commands");
    long in = r.u64("hostBytesIn");
    long out = r.u64("hostBytesOut");
    long linkBusy = r.u64("linkBusyNanos");
    long horizon = r.u64("modelledHorizonNanos");
    long gcMoved = r.u64("gcPagesMoved");
    long internalDelay = r.u64("modelledInternalDelayNanos");
    long delayed = r.u64("commandsDelayedByInternal");
    long behind = r.u64("answersBehindModelNanos");
    long commandNanos = r.u64("modelledCommandNanos");
    long executionNanos = r.u64("modelledExecutionNanos");
    int n = r.count("channels", CHANNEL_BYTES);
    List<ChannelStatistics> channels = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String c = "channels[" + i + "].";
      channels.add(new ChannelStatistics(
          r.u64(c + "pagesRead"), r.u64(c + "pagesProgrammed"), r.u64(c + "blocksErased"), r.u64(c + "busyNanos")));
    }
    DiskUse diskUse = null;
    if (version >= ProtocolConstants.DISK_USE_VERSION) {
      boolean reclaiming = r.bool("diskUse.reclaiming");
      String note = r.string("diskUse.reclaimNote");
      if (reclaiming && !note.isEmpty()) {
        throw r.error("diskUse.reclaimNote", "set while reclaiming: " + note);
      }
      diskUse = new DiskUse(reclaiming, note, r.u64("diskUse.allocatedBytes"), r.u64("diskUse.fileBytes"),
          r.u64("diskUse.liveBytes"), r.u64("diskUse.punchedBytes"), r.u64("diskUse.holesPunched"));
    }
    DeviceEnergy energy = null;
    if (version >= ProtocolConstants.ENERGY_VERSION) {
      energy = new DeviceEnergy(r.u64("energy.coreBusyNanos"), r.u64("energy.coreNanojoules"),
          r.u64("energy.flashReadNanojoules"), r.u64("energy.flashProgramNanojoules"),
          r.u64("energy.flashEraseNanojoules"), r.u64("energy.linkNanojoules"));
    }
    return new DeviceStatistics(uptime, commands, in, out, linkBusy, horizon, gcMoved, internalDelay, delayed, behind,
        commandNanos, executionNanos, channels, diskUse, energy);
  }

  private static Response.Listing listing(int version, PayloadReader r) throws ProtocolException {
    int n = r.count("entries", PayloadReader.MIN_OBJECT_STATUS_BYTES);
    List<ObjectStatus> entries = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      entries.add(r.objectStatus(version, "entries[" + i + "]"));
    }
    return new Response.Listing(entries, r.bool("more"));
  }

  private static Response.ExecutionProgress progress(int version, PayloadReader r) throws ProtocolException {
    int code = r.u8("state");
    ExecutionState state = ExecutionState.fromCode(code)
        .orElseThrow(() -> r.error("state", "unknown execution state " + code));
    String message = r.string("message");
    ExecutionStatistics statistics = r.executionStatistics(version, "statistics");
    int n = r.count("results", PayloadReader.MIN_TASKLET_RESULT_BYTES);
    List<TaskletResult> results = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      results.add(r.taskletResult("results[" + i + "]"));
    }
    boolean finished = r.bool("finished");
    if (finished && !state.isTerminal()) {
      throw r.error("finished", "set while the state is " + state);
    }
    org.smartssd.device.WorkProfile profile = null;
    if (version >= ProtocolConstants.PROFILE_VERSION && r.bool("has profile")) {
      profile = r.workProfile(version, "profile");
    }
    return new Response.ExecutionProgress(state, message, statistics, results, finished, profile);
  }
}
