package org.smartssd.device.runtime.host;

import java.io.IOException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.runtime.ftl.OutOfSpaceException;
import org.smartssd.device.runtime.isp.IspEngine;
import org.smartssd.device.runtime.objects.AccessPolicy;
import org.smartssd.device.runtime.objects.Caller;
import org.smartssd.device.runtime.objects.Listing;
import org.smartssd.device.runtime.objects.ObjectStore;
import org.smartssd.device.runtime.objects.StoreException;
import org.smartssd.device.runtime.timing.Command;

/** Carries out one decoded command against the object store and answers it; never throws. */
public final class CommandHandler {
  private static final Logger LOG = LoggerFactory.getLogger(CommandHandler.class);

  private final ObjectStore store;
  private final Supplier<DeviceInfo> info;
  private final Supplier<DeviceStatistics> statistics;
  private final IspEngine isp;

  public CommandHandler(ObjectStore store, IspEngine isp, Supplier<DeviceInfo> info,
      Supplier<DeviceStatistics> statistics) {
    this.store = store;
    this.isp = isp;
    this.info = info;
    this.statistics = statistics;
  }

  /** Who passes the permission checks: what a connection's IDENTIFY makes its caller with. */
  AccessPolicy policy() {
    return store.policy();
  }

  /**
   * Answers {@code request} from connection {@code owner}, whose user is {@code caller}, accounting
   * its flash work on {@code cmd}.
   */
  Response handle(Request request, Object owner, Caller caller, Command cmd) {
    try {
      return dispatch(request, owner, caller, cmd);
    } catch (StoreException e) {
      return new Response.Error(e.status(), e.getMessage());
    } catch (OutOfSpaceException e) {
      return new Response.Error(Status.OUT_OF_SPACE, e.getMessage());
    } catch (IOException | RuntimeException e) {
      LOG.error("{} failed", request.opcode(), e);
      return new Response.Error(Status.INTERNAL, request.opcode() + " failed: " + e);
    }
  }

  // Java 17 has no pattern matching for switch yet: a chain of instanceof, most frequent first.
  private Response dispatch(Request request, Object owner, Caller caller, Command cmd)
      throws StoreException, IOException {
    if (request instanceof Request.Read r) {
      return new Response.Data(store.read(r.objectId(), r.offset(), r.length(), caller, cmd));
    } else if (request instanceof Request.Write r) {
      java.nio.ByteBuffer data = r.data().duplicate();
      long length = store.write(r.handle(), r.data(), owner, cmd);
      // Taken by the store first: an analysis attached to the file only reads what was written.
      isp.active().written(r.handle(), length - data.remaining(), data, cmd);
      return new Response.Length(length);
    } else if (request instanceof Request.GetStatus r) {
      return new Response.Stat(store.status(r.path(), caller));
    } else if (request instanceof Request.Open r) {
      return new Response.Stat(store.openForRead(r.path(), caller));
    } else if (request instanceof Request.ListDir r) {
      Listing listing = store.list(r.path(), r.startAfter(), r.limit(), caller);
      return new Response.Listing(listing.entries(), listing.more());
    } else if (request instanceof Request.Create r) {
      ObjectStore.Opened o = store.create(r.path(), r.overwrite(), r.createParents(), r.permission(), caller, owner);
      isp.active().created(r.path(), o.handle(), o.objectId(), caller, owner);
      return opened(o);
    } else if (request instanceof Request.Append r) {
      return opened(store.append(r.path(), caller, owner, cmd));
    } else if (request instanceof Request.Flush r) {
      return new Response.Length(store.flush(r.handle(), owner));
    } else if (request instanceof Request.Sync r) {
      return new Response.Length(store.sync(r.handle(), owner, cmd));
    } else if (request instanceof Request.Close r) {
      long length = store.close(r.handle(), owner, cmd);
      isp.active().closed(r.handle(), cmd);
      return new Response.Length(length);
    } else if (request instanceof Request.Mkdirs r) {
      store.mkdirs(r.path(), r.permission(), caller);
      return new Response.Empty();
    } else if (request instanceof Request.Rename r) {
      store.rename(r.source(), r.destination(), caller);
      return new Response.Empty();
    } else if (request instanceof Request.Delete r) {
      store.delete(r.path(), r.recursive(), caller);
      return new Response.Empty();
    } else if (request instanceof Request.SetPermission r) {
      store.setPermission(r.path(), r.permission(), caller);
      return new Response.Empty();
    } else if (request instanceof Request.SetOwner r) {
      store.setOwner(r.path(), r.owner(), r.group(), caller);
      return new Response.Empty();
    } else if (request instanceof Request.SetTimes r) {
      store.setTimes(r.path(), r.modificationTimeMillis(), r.accessTimeMillis(), caller);
      return new Response.Empty();
    } else if (request instanceof Request.ReadObject r) {
      return isp.readObject(r.executionId(), r.maxBytes(), cmd.arrival(), caller);
    } else if (request instanceof Request.ExecuteObject r) {
      return new Response.ExecutionStarted(isp.executeObject(r.taskletId(), r.inputs(), r.options(), r.outputPath(),
          r.outputPermission(), cmd.arrival(), caller, owner));
    } else if (request instanceof Request.CreateObject r) {
      return new Response.TaskletCreated(isp.createObject(r.code(), r.className(), r.parameters(), caller, owner));
    } else if (request instanceof Request.Cancel r) {
      isp.cancel(r.executionId(), caller);
      return new Response.Empty();
    } else if (request instanceof Request.RemoveObject r) {
      isp.removeObject(r.taskletId(), caller);
      return new Response.Empty();
    } else if (request instanceof Request.ApiVersions) {
      return new Response.Versions(ProtocolConstants.MIN_VERSION, ProtocolConstants.MAX_VERSION);
    } else if (request instanceof Request.Info) {
      return new Response.Info(info.get());
    } else if (request instanceof Request.Statistics) {
      return new Response.Statistics(statistics.get());
    } else if (request instanceof Request.Shutdown) {
      if (!caller.bypass()) {
        return new Response.Error(Status.PERMISSION_DENIED, "Access denied for user " + caller.user()
            + ". Superuser privilege is required to shut the device down");
      }
      // The connection stops the device once this answer is on its way.
      return new Response.Empty();
    }
    throw new IllegalArgumentException("no handler for " + request.opcode());
  }

  private static Response opened(ObjectStore.Opened o) {
    return new Response.Opened(o.handle(), o.objectId(), o.length());
  }
}
