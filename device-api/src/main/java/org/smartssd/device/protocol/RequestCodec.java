package org.smartssd.device.protocol;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.smartssd.device.tasklet.InputRange;

/** Request payloads, as in PROTOCOL.md's opcode table. Used through {@link Messages}. */
final class RequestCodec {
  private RequestCodec() {}

  static void encode(int version, Request request, PayloadWriter w) {
    boolean permissions = version >= ProtocolConstants.PERMISSIONS_VERSION;
    if (request instanceof Request.AuthChallenge r) {
      w.bytes(r.hostNonce());
    } else if (request instanceof Request.Authenticate r) {
      w.bytes(r.proof());
    } else if (request instanceof Request.Identify r) {
      w.string(r.user()).u32(r.groups().size());
      r.groups().forEach(w::string);
    } else if (request instanceof Request.Mkdirs r) {
      w.string(r.path());
      if (permissions) {
        w.u16(r.permission());
      }
    } else if (request instanceof Request.Create r) {
      w.string(r.path()).bool(r.overwrite()).bool(r.createParents());
      if (permissions) {
        w.u16(r.permission());
      }
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
    } else if (request instanceof Request.SetPermission r) {
      w.string(r.path()).u16(r.permission());
    } else if (request instanceof Request.SetOwner r) {
      w.string(r.path()).string(r.owner()).string(r.group());
    } else if (request instanceof Request.SetTimes r) {
      w.string(r.path()).u64(r.modificationTimeMillis()).u64(r.accessTimeMillis());
    } else if (request instanceof Request.CreateObject r) {
      w.bytes(r.code()).string(r.className()).stringMap(r.parameters());
    } else if (request instanceof Request.ExecuteObject r) {
      w.u64(r.taskletId()).u32(r.inputs().size());
      r.inputs().forEach(w::inputRange);
      w.stringMap(r.options());
      if (version >= ProtocolConstants.OUTPUT_VERSION) {
        w.string(r.outputPath()).u16(r.outputPermission());
      } else if (r.hasOutput()) {
        throw new IllegalArgumentException("an output object needs protocol version "
            + ProtocolConstants.OUTPUT_VERSION + " or later, not " + version);
      }
    } else if (request instanceof Request.ReadObject r) {
      w.u64(r.executionId()).u32(r.maxBytes());
    } else if (request instanceof Request.Cancel r) {
      w.u64(r.executionId());
    } else if (request instanceof Request.RemoveObject r) {
      w.u64(r.taskletId());
    }
    // ApiVersions, Info, Statistics and Shutdown have empty payloads.
  }

  static Request decode(int version, Opcode opcode, ByteBuffer payload) throws ProtocolException {
    PayloadReader r = new PayloadReader(payload, opcode + " request");
    boolean permissions = version >= ProtocolConstants.PERMISSIONS_VERSION;
    Request request = switch (opcode) {
      case API_VERSIONS -> new Request.ApiVersions();
      case DEVICE_INFO -> new Request.Info();
      case STATISTICS -> new Request.Statistics();
      case SHUTDOWN -> new Request.Shutdown();
      case AUTH_CHALLENGE -> new Request.AuthChallenge(r.fixedBytes("hostNonce", HostSecret.NONCE_BYTES));
      case AUTHENTICATE -> new Request.Authenticate(r.fixedBytes("proof", HostSecret.PROOF_BYTES));
      case IDENTIFY -> identify(r);
      case MKDIRS -> new Request.Mkdirs(r.string("path"),
          permissions ? r.permission("permission") : ProtocolConstants.DEFAULT_DIRECTORY_PERMISSION);
      case CREATE -> new Request.Create(r.string("path"), r.bool("overwrite"), r.bool("createParents"),
          permissions ? r.permission("permission") : ProtocolConstants.DEFAULT_FILE_PERMISSION);
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
      case SET_PERMISSION -> new Request.SetPermission(r.string("path"), r.permission("permission"));
      case SET_OWNER -> new Request.SetOwner(r.string("path"), r.string("owner"), r.string("group"));
      case SET_TIMES -> new Request.SetTimes(r.string("path"), r.u64("modificationTime"), r.u64("accessTime"));
      case CREATE_OBJECT -> new Request.CreateObject(r.bytes("code"), r.string("className"), r.stringMap("parameters"));
      case EXECUTE_OBJECT -> executeObject(version, r);
      case READ_OBJECT -> new Request.ReadObject(r.u64("executionId"), r.length("maxBytes"));
      case CANCEL -> new Request.Cancel(r.u64("executionId"));
      case REMOVE_OBJECT -> new Request.RemoveObject(r.u64("taskletId"));
    };
    r.expectEnd();
    return request;
  }

  private static Request.Identify identify(PayloadReader r) throws ProtocolException {
    String user = r.string("user");
    if (user.isEmpty()) {
      throw new ProtocolException("IDENTIFY request: user must not be empty");
    }
    int n = r.count("groups", PayloadReader.MIN_STRING_BYTES);
    if (n > MAX_GROUPS) {
      throw new ProtocolException("IDENTIFY request: " + n + " groups, more than " + MAX_GROUPS);
    }
    List<String> groups = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      groups.add(r.string("groups[" + i + "]"));
    }
    return new Request.Identify(user, groups);
  }

  /** Groups an IDENTIFY may name, as many as a map may hold entries. */
  static final int MAX_GROUPS = 65_536;

  private static Request.ExecuteObject executeObject(int version, PayloadReader r) throws ProtocolException {
    long taskletId = r.u64("taskletId");
    int n = r.count("inputs", PayloadReader.MIN_INPUT_RANGE_BYTES);
    List<InputRange> inputs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      inputs.add(r.inputRange("inputs[" + i + "]"));
    }
    Map<String, String> options = r.stringMap("options");
    if (version < ProtocolConstants.OUTPUT_VERSION) {
      return new Request.ExecuteObject(taskletId, inputs, options);
    }
    return new Request.ExecuteObject(taskletId, inputs, options, r.string("outputPath"), r.permission("outputPermission"));
  }
}
