package org.smartssd.device.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.smartssd.device.DeviceException;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.ProtocolException;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.tasklet.InputRange;

/**
 * The blocking typed methods of {@link DeviceClient}, built on {@link #submit}, so that every
 * transport shares them and their error handling.
 */
public abstract class AbstractDeviceClient implements DeviceClient {
  /** Entries asked for per LIST page by {@link #listAll}. */
  public static final int LIST_PAGE_ENTRIES = 1000;

  /** Bytes of a WRITE payload besides the data: handle and length. */
  private static final int WRITE_OVERHEAD = 8 + 4;
  /** Bytes of a READ response payload besides the data: its length. */
  private static final int READ_OVERHEAD = 4;
  /**
   * Bytes of a READ_OBJECT response payload besides its results: state, an empty message,
   * statistics (from version 5 on, 27 counters; 24 before), count, finished. (A reply with a message
   * carries no results: PROTOCOL.md.)
   */
  static final int READ_OBJECT_OVERHEAD = 1 + 2 + (4 + 27 * 8) + 4 + 1;

  /** The largest payload the transport sends or accepts. */
  protected abstract int maxPayloadBytes();

  /**
   * Tells the device who this connection's user is (IDENTIFY), when {@code identity} is given and the
   * device speaks protocol version 4 or later: for the transports to call once connected.
   */
  protected void identify(ClientIdentity identity) throws IOException {
    if (identity != null && protocolVersion() >= ProtocolConstants.PERMISSIONS_VERSION) {
      call(new Request.Identify(identity.user(), identity.groups()), Response.Empty.class);
    }
  }

  @Override
  public void mkdirs(String path) throws IOException {
    call(new Request.Mkdirs(path), Response.Empty.class);
  }

  @Override
  public void mkdirs(String path, int permission) throws IOException {
    call(new Request.Mkdirs(path, permission), Response.Empty.class);
  }

  @Override
  public Response.Opened create(String path, boolean overwrite, boolean createParents) throws IOException {
    return call(new Request.Create(path, overwrite, createParents), Response.Opened.class);
  }

  @Override
  public Response.Opened create(String path, boolean overwrite, boolean createParents, int permission)
      throws IOException {
    return call(new Request.Create(path, overwrite, createParents, permission), Response.Opened.class);
  }

  @Override
  public void setPermission(String path, int permission) throws IOException {
    requirePermissions("SET_PERMISSION");
    call(new Request.SetPermission(path, permission), Response.Empty.class);
  }

  @Override
  public void setOwner(String path, String owner, String group) throws IOException {
    requirePermissions("SET_OWNER");
    call(new Request.SetOwner(path, owner, group), Response.Empty.class);
  }

  @Override
  public void setTimes(String path, long modificationTimeMillis, long accessTimeMillis) throws IOException {
    requirePermissions("SET_TIMES");
    call(new Request.SetTimes(path, modificationTimeMillis, accessTimeMillis), Response.Empty.class);
  }

  private void requirePermissions(String command) throws DeviceException.UnsupportedVersion {
    if (protocolVersion() < ProtocolConstants.PERMISSIONS_VERSION) {
      throw new DeviceException.UnsupportedVersion(address() + ": " + command + " needs protocol version "
          + ProtocolConstants.PERMISSIONS_VERSION + "; the device speaks " + protocolVersion()
          + ", and keeps no owners, permissions or times but modification times");
    }
  }

  @Override
  public Response.Opened append(String path) throws IOException {
    return call(new Request.Append(path), Response.Opened.class);
  }

  @Override
  public long write(long handle, ByteBuffer data) throws IOException {
    ByteBuffer rest = data.duplicate();
    int chunk = maxPayloadBytes() - WRITE_OVERHEAD;
    // One request after the other, not pipelined: the device may run a connection's requests in
    // any order, and appends must land in order.
    do {
      int n = Math.min(rest.remaining(), chunk);
      ByteBuffer piece = rest.slice(rest.position(), n);
      rest.position(rest.position() + n);
      long length = call(new Request.Write(handle, piece), Response.Length.class).length();
      if (!rest.hasRemaining()) {
        return length;
      }
    } while (true);
  }

  @Override
  public long write(long handle, byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    return write(handle, ByteBuffer.wrap(b, off, len));
  }

  @Override
  public long flush(long handle) throws IOException {
    return call(new Request.Flush(handle), Response.Length.class).length();
  }

  @Override
  public long sync(long handle) throws IOException {
    return call(new Request.Sync(handle), Response.Length.class).length();
  }

  @Override
  public long closeHandle(long handle) throws IOException {
    return call(new Request.Close(handle), Response.Length.class).length();
  }

  @Override
  public ObjectStatus open(String path) throws IOException {
    return call(new Request.Open(path), Response.Stat.class).status();
  }

  @Override
  public int read(long objectId, long offset, ByteBuffer dst) throws IOException {
    if (!dst.hasRemaining()) {
      return 0;
    }
    int asked = Math.min(dst.remaining(), maxPayloadBytes() - READ_OVERHEAD);
    ByteBuffer data = call(new Request.Read(objectId, offset, asked), Response.Data.class).data();
    int got = data.remaining();
    if (got > asked) {
      throw new ProtocolException(address() + ": READ of object " + objectId + " returned " + got
          + " bytes; " + asked + " were asked for");
    }
    if (got == 0) {
      return -1;
    }
    dst.put(data);
    return got;
  }

  @Override
  public ObjectStatus status(String path) throws IOException {
    return call(new Request.GetStatus(path), Response.Stat.class).status();
  }

  @Override
  public Response.Listing list(String path, String startAfter, int limit) throws IOException {
    return call(new Request.ListDir(path, startAfter, limit), Response.Listing.class);
  }

  @Override
  public List<ObjectStatus> listAll(String path) throws IOException {
    List<ObjectStatus> all = new ArrayList<>();
    String startAfter = "";
    while (true) {
      Response.Listing page = list(path, startAfter, LIST_PAGE_ENTRIES);
      all.addAll(page.entries());
      if (!page.more()) {
        return all;
      }
      if (page.entries().isEmpty()) {
        // Asking again from the same name would loop for ever.
        throw new ProtocolException(address() + ": LIST of " + path + " after '" + startAfter
            + "' returned no entries but said more follow");
      }
      startAfter = page.entries().get(page.entries().size() - 1).name();
    }
  }

  @Override
  public void rename(String source, String destination) throws IOException {
    call(new Request.Rename(source, destination), Response.Empty.class);
  }

  @Override
  public void delete(String path, boolean recursive) throws IOException {
    call(new Request.Delete(path, recursive), Response.Empty.class);
  }

  @Override
  public DeviceInfo info() throws IOException {
    return call(new Request.Info(), Response.Info.class).info();
  }

  @Override
  public DeviceStatistics statistics() throws IOException {
    return call(new Request.Statistics(), Response.Statistics.class).statistics();
  }

  @Override
  public void shutdown() throws IOException {
    call(new Request.Shutdown(), Response.Empty.class);
  }

  @Override
  public long createObject(ByteBuffer code, String className, Map<String, String> parameters) throws IOException {
    return call(new Request.CreateObject(code, className, parameters), Response.TaskletCreated.class).taskletId();
  }

  @Override
  public long executeObject(long taskletId, List<InputRange> inputs, Map<String, String> options)
      throws IOException {
    return call(new Request.ExecuteObject(taskletId, inputs, options), Response.ExecutionStarted.class)
        .executionId();
  }

  @Override
  public long executeObject(long taskletId, List<InputRange> inputs, Map<String, String> options, String outputPath,
      int outputPermission) throws IOException {
    if (outputPath == null || outputPath.isEmpty()) {
      throw new IllegalArgumentException("an output path must name an object");
    }
    if (protocolVersion() < ProtocolConstants.OUTPUT_VERSION) {
      throw new DeviceException.UnsupportedVersion(address() + ": an execution's output object needs protocol version "
          + ProtocolConstants.OUTPUT_VERSION + "; the device speaks " + protocolVersion());
    }
    return call(new Request.ExecuteObject(taskletId, inputs, options, outputPath, outputPermission),
        Response.ExecutionStarted.class).executionId();
  }

  @Override
  public Response.ExecutionProgress readObject(long executionId, int maxBytes) throws IOException {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("negative maxBytes " + maxBytes);
    }
    int asked = Math.max(0, Math.min(maxBytes, maxPayloadBytes() - READ_OBJECT_OVERHEAD));
    return call(new Request.ReadObject(executionId, asked), Response.ExecutionProgress.class);
  }

  @Override
  public void cancel(long executionId) throws IOException {
    call(new Request.Cancel(executionId), Response.Empty.class);
  }

  @Override
  public void removeObject(long taskletId) throws IOException {
    call(new Request.RemoveObject(taskletId), Response.Empty.class);
  }

  /** Submits and waits for a reply of the expected type. */
  protected <T extends Response> T call(Request request, Class<T> type) throws IOException {
    Response response = await(submit(request)).response();
    if (!type.isInstance(response)) {
      throw new ProtocolException(address() + ": " + request.opcode() + " answered with a "
          + response.getClass().getSimpleName() + ", expected " + type.getSimpleName());
    }
    return type.cast(response);
  }

  /**
   * Waits for a reply. Failures are rethrown as they are when they are IOExceptions (the status'
   * exception, a timeout, a lost connection), unchecked ones too, anything else wrapped.
   */
  protected Reply await(CompletableFuture<Reply> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      // Cancelling drops the request from the pending ones; a late reply is then ignored.
      future.cancel(false);
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted = new InterruptedIOException(address() + ": interrupted waiting for a reply");
      interrupted.initCause(e);
      throw interrupted;
    } catch (ExecutionException e) {
      throw rethrow(e.getCause());
    } catch (CancellationException e) {
      throw new InterruptedIOException(address() + ": request cancelled");
    }
  }

  private IOException rethrow(Throwable failure) {
    Throwable t = failure;
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof IOException io) {
      return io;
    }
    if (t instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    if (t instanceof Error error) {
      throw error;
    }
    return new IOException(address() + ": " + t, t);
  }
}
