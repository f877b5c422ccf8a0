package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.smartssd.device.ChannelStatistics;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ObjectStatus;

/** Response payloads, as in PROTOCOL.md's opcode table. Used through {@link Messages}. */
final class ResponseCodec {
  /** Smallest parameter entry: two empty strings. */
  private static final int MIN_PARAMETER_BYTES = 4;
  private static final int CHANNEL_BYTES = 4 * 8;

  private ResponseCodec() {}

  static void encode(Response response, PayloadWriter w) {
    if (response instanceof Response.Versions v) {
      w.u16(v.minVersion()).u16(v.maxVersion());
    } else if (response instanceof Response.Info i) {
      encodeInfo(i.info(), w);
    } else if (response instanceof Response.Statistics s) {
      encodeStatistics(s.statistics(), w);
    } else if (response instanceof Response.Opened o) {
      w.u64(o.handle()).u64(o.objectId()).u64(o.length());
    } else if (response instanceof Response.Length l) {
      w.u64(l.length());
    } else if (response instanceof Response.Stat s) {
      w.objectStatus(s.status());
    } else if (response instanceof Response.Data d) {
      w.bytes(d.data());
    } else if (response instanceof Response.Listing l) {
      w.u32(l.entries().size());
      l.entries().forEach(w::objectStatus);
      w.bool(l.more());
    } else if (response instanceof Response.Error e) {
      w.string(e.message());
    }
    // Empty has an empty payload.
  }

  static Response decode(Opcode opcode, Status status, ByteBuffer payload) throws ProtocolException {
    PayloadReader r = new PayloadReader(payload, opcode + " response");
    Response response;
    if (status.isError()) {
      response = new Response.Error(status, r.string("message"));
    } else {
      response = switch (opcode) {
        case API_VERSIONS -> versions(r);
        case DEVICE_INFO -> new Response.Info(info(r));
        case STATISTICS -> new Response.Statistics(statistics(r));
        case SHUTDOWN, MKDIRS, RENAME, DELETE -> new Response.Empty();
        case CREATE, APPEND -> new Response.Opened(r.u64("handle"), r.u64("objectId"), r.u64("length"));
        case WRITE, FLUSH, SYNC, CLOSE -> new Response.Length(r.u64("length"));
        case OPEN, STATUS -> new Response.Stat(r.objectStatus("status"));
        case READ -> new Response.Data(r.bytes("data"));
        case LIST -> listing(r);
      };
    }
    r.expectEnd();
    return response;
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
        .u32(info.parameters().size());
    info.parameters().forEach((key, value) -> w.string(key).string(value));
  }

  private static DeviceInfo info(PayloadReader r) throws ProtocolException {
    String name = r.string("deviceName");
    String profile = r.string("profile");
    var geometry = r.geometry("geometry");
    long capacity = r.u64("capacityBytes");
    long free = r.u64("freeBytes");
    boolean paced = r.bool("paced");
    int n = r.count("parameters", MIN_PARAMETER_BYTES);
    Map<String, String> parameters = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String key = r.string("parameters[" + i + "].key");
      String value = r.string("parameters[" + i + "].value");
      if (parameters.put(key, value) != null) {
        throw r.error("parameters[" + i + "].key", "duplicate key " + key);
      }
    }
    return new DeviceInfo(name, profile, geometry, capacity, free, paced, parameters);
  }

  private static void encodeStatistics(DeviceStatistics s, PayloadWriter w) {
    w.u64(s.uptimeNanos()).u64(s.commands()).u64(s.hostBytesIn()).u64(s.hostBytesOut())
        .u64(s.linkBusyNanos()).u64(s.modelledHorizonNanos()).u64(s.gcPagesMoved())
        .u32(s.channels().size());
    for (ChannelStatistics c : s.channels()) {
      w.u64(c.pagesRead()).u64(c.pagesProgrammed()).u64(c.blocksErased()).u64(c.busyNanos());
    }
  }

  private static DeviceStatistics statistics(PayloadReader r) throws ProtocolException {
    long uptime = r.u64("uptimeNanos");
    long commands = r.u64("commands");
    long in = r.u64("hostBytesIn");
    long out = r.u64("hostBytesOut");
    long linkBusy = r.u64("linkBusyNanos");
    long horizon = r.u64("modelledHorizonNanos");
    long gcMoved = r.u64("gcPagesMoved");
    int n = r.count("channels", CHANNEL_BYTES);
    List<ChannelStatistics> channels = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String c = "channels[" + i + "].";
      channels.add(new ChannelStatistics(
          r.u64(c + "pagesRead"), r.u64(c + "pagesProgrammed"), r.u64(c + "blocksErased"), r.u64(c + "busyNanos")));
    }
    return new DeviceStatistics(uptime, commands, in, out, linkBusy, horizon, gcMoved, channels);
  }

  private static Response.Listing listing(PayloadReader r) throws ProtocolException {
    int n = r.count("entries", PayloadReader.MIN_OBJECT_STATUS_BYTES);
    List<ObjectStatus> entries = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      entries.add(r.objectStatus("entries[" + i + "]"));
    }
    return new Response.Listing(entries, r.bool("more"));
  }
}
