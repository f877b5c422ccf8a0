package org.smartssd.devicemapper.tasklet;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The file system a job's code gets in the device ({@link DeviceFiles}): its own device's files, each
 * read whole from flash as the execution's user when first opened or looked at, and served from the
 * lane's memory; read-only, and without listings (a side file is named, as the distributed cache names
 * it). Every change is refused with an {@code IOException} saying so.
 */
final class DeviceFileSystem extends FileSystem {
  private final DeviceFiles.Lane lane;
  private final URI uri;

  DeviceFileSystem(DeviceFiles.Lane lane) {
    this.lane = lane;
    this.uri = URI.create("objfs://" + lane.authority() + "/");
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public String getScheme() {
    return "objfs";
  }

  /** The device path of {@code f}: its path part, from the root when relative. */
  private String devicePath(Path f) {
    String path = f.toUri().getPath();
    return path.startsWith("/") ? path : "/" + path;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    return new FSDataInputStream(new Bytes(lane.object(devicePath(f))));
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    ByteBuffer bytes = lane.object(devicePath(f));
    return new FileStatus(bytes.remaining(), false, 1, 0, 0, makeQualified(new Path(devicePath(f))));
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    throw readOnly("list", f);
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    throw readOnly("create", f);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    throw readOnly("append to", f);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    throw readOnly("rename", src);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    throw readOnly("delete", f);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    throw readOnly("make", f);
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    throw new UnsupportedOperationException("the device's file system keeps its working directory at /");
  }

  @Override
  public Path getWorkingDirectory() {
    return new Path(uri);
  }

  /** Nothing to release: what was read is the lane's until its execution ends. */
  @Override
  public void close() {}

  private IOException readOnly(String what, Path f) {
    return new IOException("cannot " + what + " '" + f + "': in the device, a job's code only reads its device's "
        + "files (a listing too is not served there)");
  }

  /** An object's bytes as a seekable, positionally readable stream. */
  private static final class Bytes extends InputStream implements Seekable, PositionedReadable {
    private final ByteBuffer data;

    Bytes(ByteBuffer data) {
      this.data = data;
    }

    @Override
    public int read() {
      return data.hasRemaining() ? data.get() & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      if (!data.hasRemaining()) {
        return -1;
      }
      int n = Math.min(len, data.remaining());
      data.get(b, off, n);
      return n;
    }

    @Override
    public long skip(long n) {
      int k = (int) Math.max(0, Math.min(n, data.remaining()));
      data.position(data.position() + k);
      return k;
    }

    @Override
    public int available() {
      return data.remaining();
    }

    @Override
    public void seek(long pos) throws IOException {
      if (pos < 0 || pos > data.limit()) {
        throw new EOFException("cannot seek to " + pos + " of " + data.limit() + " bytes");
      }
      data.position((int) pos);
    }

    @Override
    public long getPos() {
      return data.position();
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) {
      if (position >= data.limit()) {
        return -1;
      }
      int n = (int) Math.min(length, data.limit() - position);
      data.duplicate().position((int) position).get(buffer, offset, n);
      return n;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      if (position + length > data.limit()) {
        throw new EOFException("reading " + length + " bytes at " + position + " of " + data.limit());
      }
      data.duplicate().position((int) position).get(buffer, offset, length);
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }
  }
}
