package org.smartssd.objectfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.ObjectStatus;

/** An adapter that forwards to another: tests override the one command they make misbehave. */
class ForwardingAdapter implements ObjectStoreAdapter {
  final ObjectStoreAdapter inner;

  ForwardingAdapter(ObjectStoreAdapter inner) {
    this.inner = inner;
  }

  @Override
  public String address() {
    return inner.address();
  }

  @Override
  public DeviceInfo deviceInfo() throws IOException {
    return inner.deviceInfo();
  }

  @Override
  public void mkdirs(String path, int permission) throws IOException {
    inner.mkdirs(path, permission);
  }

  @Override
  public ObjectStatus status(String path) throws IOException {
    return inner.status(path);
  }

  @Override
  public ObjectStatus open(String path) throws IOException {
    return inner.open(path);
  }

  @Override
  public int read(long objectId, long offset, ByteBuffer dst) throws IOException {
    return inner.read(objectId, offset, dst);
  }

  @Override
  public ObjectWriter create(String path, boolean overwrite, boolean createParents, int permission)
      throws IOException {
    return inner.create(path, overwrite, createParents, permission);
  }

  @Override
  public ObjectWriter append(String path) throws IOException {
    return inner.append(path);
  }

  @Override
  public ListPage list(String path, String startAfter, int limit) throws IOException {
    return inner.list(path, startAfter, limit);
  }

  @Override
  public void rename(String source, String destination) throws IOException {
    inner.rename(source, destination);
  }

  @Override
  public void delete(String path, boolean recursive) throws IOException {
    inner.delete(path, recursive);
  }

  @Override
  public void setPermission(String path, int permission) throws IOException {
    inner.setPermission(path, permission);
  }

  @Override
  public void setOwner(String path, String owner, String group) throws IOException {
    inner.setOwner(path, owner, group);
  }

  @Override
  public void setTimes(String path, long modificationTimeMillis, long accessTimeMillis) throws IOException {
    inner.setTimes(path, modificationTimeMillis, accessTimeMillis);
  }

  @Override
  public void close() throws IOException {
    inner.close();
  }
}
