package org.smartssd.device.protocol;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The commands of the protocol, each with its request and (status OK) response message type.
 * Codes are stable: the names can change, the codes cannot. Keep in sync with PROTOCOL.md and the
 * C codec.
 */
public enum Opcode {
  API_VERSIONS(0x0001, Request.ApiVersions.class, Response.Versions.class),
  DEVICE_INFO(0x0002, Request.Info.class, Response.Info.class),
  STATISTICS(0x0003, Request.Statistics.class, Response.Statistics.class),
  SHUTDOWN(0x0004, Request.Shutdown.class, Response.Empty.class),
  AUTH_CHALLENGE(0x0005, Request.AuthChallenge.class, Response.AuthChallenge.class),
  AUTHENTICATE(0x0006, Request.Authenticate.class, Response.Authenticated.class),
  IDENTIFY(0x0007, Request.Identify.class, Response.Empty.class, ProtocolConstants.PERMISSIONS_VERSION),
  MKDIRS(0x0010, Request.Mkdirs.class, Response.Empty.class),
  CREATE(0x0011, Request.Create.class, Response.Opened.class),
  APPEND(0x0012, Request.Append.class, Response.Opened.class),
  WRITE(0x0013, Request.Write.class, Response.Length.class),
  FLUSH(0x0014, Request.Flush.class, Response.Length.class),
  SYNC(0x0015, Request.Sync.class, Response.Length.class),
  CLOSE(0x0016, Request.Close.class, Response.Length.class),
  OPEN(0x0017, Request.Open.class, Response.Stat.class),
  READ(0x0018, Request.Read.class, Response.Data.class),
  STATUS(0x0019, Request.GetStatus.class, Response.Stat.class),
  LIST(0x001A, Request.ListDir.class, Response.Listing.class),
  RENAME(0x001B, Request.Rename.class, Response.Empty.class),
  DELETE(0x001C, Request.Delete.class, Response.Empty.class),
  SET_PERMISSION(0x001D, Request.SetPermission.class, Response.Empty.class, ProtocolConstants.PERMISSIONS_VERSION),
  SET_OWNER(0x001E, Request.SetOwner.class, Response.Empty.class, ProtocolConstants.PERMISSIONS_VERSION),
  SET_TIMES(0x001F, Request.SetTimes.class, Response.Empty.class, ProtocolConstants.PERMISSIONS_VERSION),
  CREATE_OBJECT(0x0020, Request.CreateObject.class, Response.TaskletCreated.class),
  EXECUTE_OBJECT(0x0021, Request.ExecuteObject.class, Response.ExecutionStarted.class),
  READ_OBJECT(0x0022, Request.ReadObject.class, Response.ExecutionProgress.class),
  CANCEL(0x0023, Request.Cancel.class, Response.Empty.class),
  REMOVE_OBJECT(0x0024, Request.RemoveObject.class, Response.Empty.class);

  private static final Map<Integer, Opcode> BY_CODE = new HashMap<>();

  static {
    for (Opcode op : values()) {
      if (BY_CODE.put(op.code, op) != null) {
        throw new ExceptionInInitializerError("duplicate opcode " + op.code);
      }
    }
  }

  private final int code;
  private final Class<? extends Request> requestType;
  private final Class<? extends Response> responseType;
  private final int sinceVersion;

  Opcode(int code, Class<? extends Request> requestType, Class<? extends Response> responseType) {
    this(code, requestType, responseType, ProtocolConstants.MIN_VERSION);
  }

  Opcode(int code, Class<? extends Request> requestType, Class<? extends Response> responseType, int sinceVersion) {
    this.code = code;
    this.requestType = requestType;
    this.responseType = responseType;
    this.sinceVersion = sinceVersion;
  }

  /** The first protocol version with this command: a frame of an earlier version cannot carry it. */
  public int sinceVersion() {
    return sinceVersion;
  }

  /** The code on the wire. */
  public int code() {
    return code;
  }

  /** The request message this opcode carries. */
  public Class<? extends Request> requestType() {
    return requestType;
  }

  /** The response message that answers it with status OK ({@link Response.Error} answers any). */
  public Class<? extends Response> responseType() {
    return responseType;
  }

  /** The opcode with this code; empty for a code this version does not know. */
  public static Optional<Opcode> fromCode(int code) {
    return Optional.ofNullable(BY_CODE.get(code));
  }
}
