package org.smartssd.device.protocol;

import java.nio.ByteBuffer;

/** Request payloads, as in PROTOCOL.md's opcode table. Used through {@link Messages}. */
final class RequestCodec {
  private RequestCodec() {}

  static void encode(Request request, PayloadWriter w) {
    if (request instanceof Request.Mkdirs r) {
      w.string(r.path());
    } else if (request instanceof Request.Create r) {
      w.string(r.path()).bool(r.overwrite()).bool(r.createParents());
    } else if (request instanceof Request.Append r) {
      w.string(r.path());
    } else if (request instanceof Request.Write r) {
      w.u64(r.handle()).bytes(r.data());
    } else if (request instanceof Request.Flush r) {
      w.u64(r.handle());
    } else if (request instanceof Request.Sync r) {
      w.u64(r.handle());
    } else if (request instanceof Request.Close r) {
      w.u64(r.handle());
    } else if (request instanceof Request.Open r) {
      w.string(r.path());
    } else if (request instanceof Request.Read r) {
      w.u64(r.objectId()).u64(r.offset()).u32(r.length());
    } else if (request instanceof Request.GetStatus r) {
      w.string(r.path());
    } else if (request instanceof Request.ListDir r) {
      w.string(r.path()).string(r.startAfter()).u32(r.limit());
    } else if (request instanceof Request.Rename r) {
      w.string(r.source()).string(r.destination());
    } else if (request instanceof Request.Delete r) {
      w.string(r.path()).bool(r.recursive());
    }
    // ApiVersions, Info, Statistics and Shutdown have empty payloads.
  }

  static Request decode(Opcode opcode, ByteBuffer payload) throws ProtocolException {
    PayloadReader r = new PayloadReader(payload, opcode + " request");
    Request request = switch (opcode) {
      case API_VERSIONS -> new Request.ApiVersions();
      case DEVICE_INFO -> new Request.Info();
      case STATISTICS -> new Request.Statistics();
      case SHUTDOWN -> new Request.Shutdown();
      case MKDIRS -> new Request.Mkdirs(r.string("path"));
      case CREATE -> new Request.Create(r.string("path"), r.bool("overwrite"), r.bool("createParents"));
      case APPEND -> new Request.Append(r.string("path"));
      case WRITE -> new Request.Write(r.u64("handle"), r.bytes("data"));
      case FLUSH -> new Request.Flush(r.u64("handle"));
      case SYNC -> new Request.Sync(r.u64("handle"));
      case CLOSE -> new Request.Close(r.u64("handle"));
      case OPEN -> new Request.Open(r.string("path"));
      case READ -> new Request.Read(r.u64("objectId"), r.u64("offset"), r.length("length"));
      case STATUS -> new Request.GetStatus(r.string("path"));
      case LIST -> new Request.ListDir(r.string("path"), r.string("startAfter"), r.length("limit"));
      case RENAME -> new Request.Rename(r.string("source"), r.string("destination"));
      case DELETE -> new Request.Delete(r.string("path"), r.bool("recursive"));
    };
    r.expectEnd();
    return request;
  }
}
