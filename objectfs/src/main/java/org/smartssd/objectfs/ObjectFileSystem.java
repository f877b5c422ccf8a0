package org.smartssd.objectfs;

import static org.apache.hadoop.fs.impl.PathCapabilitiesSupport.validatePathCapabilityArgs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.objectfs.ObjfsExceptions.Op;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's {@link FileSystem} over a Smart SSD's object commands, scheme {@code objfs}, URIs
 * {@code objfs://HOST:PORT/path} naming the device's address.
 *
 * <p>This class owns everything Hadoop-shaped (URIs, {@code Path}s, {@code FileStatus},
 * statistics, Hadoop's rename and delete rules); the device is reached through an {@link
 * ObjectStoreAdapter} made by {@link #createAdapter}, and its failures become Hadoop's exceptions
 * in {@link ObjfsExceptions#translate}.
 *
 * <p>Owners, groups, permissions and times are the device's (protocol version 4): it keeps them and
 * checks every command against them for the user this file system's connections identify as (the
 * {@code UserGroupInformation} current when it was made, as HDFS's client does); the umask
 * ({@code fs.permissions.umask-mode}) is applied here, to what {@code create} and {@code mkdirs} ask
 * for, as HDFS's client applies it. From a device of protocol version 3 or older, which keeps none
 * of them, owner and group are the current user's and permissions fixed (644 for files, 755 for
 * directories), and setPermission, setOwner and setTimes are refused. Replication is 1; the block
 * size is {@code fs.objfs.block-size}.
 */
public class ObjectFileSystem extends FileSystem {
  public static final String SCHEME = "objfs";

  private static final Logger LOG = LoggerFactory.getLogger(ObjectFileSystem.class);
  private static final FsPermission FILE_PERMISSION = new FsPermission((short) 0644);
  private static final FsPermission DIRECTORY_PERMISSION = new FsPermission((short) 0755);

  private URI uri;
  private Path workingDir;
  private ObjfsSettings settings;
  /** Where vectored reads read their ranges at once; null to read them in turn (one thread). */
  private java.util.concurrent.ThreadPoolExecutor vectoredReads;
  private ObjectStoreAdapter store;
  private String locationHost;
  private int readaheadBytes;
  private String owner;
  private String group;
  /** Streams still writing: closed with the file system, so that buffered bytes are not lost. */
  private final Set<ObjectOutputStream> openOutputs = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /** Cheap: Hadoop instantiates every registered file system to learn its scheme. */
  public ObjectFileSystem() {}

  @Override
  public String getScheme() {
    return SCHEME;
  }

  /**
   * Connects to the device the URI names and asks it once for its name and geometry.
   *
   * @throws IOException when the URI names no {@code host:port}, or the device cannot be reached
   * @throws IllegalArgumentException for a bad {@code fs.objfs.*} value, naming the key
   */
  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    DeviceClients.deviceAddress(name); // fail before anything else for a URI without host:port
    this.uri = URI.create(SCHEME + "://" + name.getAuthority());
    this.settings = ObjfsSettings.from(conf);
    UserGroupInformation user = UserGroupInformation.getCurrentUser();
    this.owner = user.getShortUserName();
    this.group = primaryGroup(user);
    this.workingDir = getHomeDirectory();
    try {
      this.store = createAdapter(name, conf);
    } catch (IOException e) {
      throw ObjfsExceptions.translate(Op.CONNECT, uri.toString(), name.getAuthority(), e);
    }
    try {
      DeviceInfo info = store.deviceInfo();
      this.locationHost = settings.host().isEmpty() ? info.deviceName() : settings.host();
      long readahead = settings.readaheadBytes() > 0 ? settings.readaheadBytes() : defaultReadahead(info.geometry());
      this.readaheadBytes = (int) Math.min(readahead, settings.maxFrameBytes());
    } catch (IOException e) {
      store.close();
      throw ObjfsExceptions.translate(Op.CONNECT, uri.toString(), store.address(), e);
    }
    if (settings.vectoredReadThreads() > 1) {
      vectoredReads = vectoredReadPool(settings.vectoredReadThreads(), name.getAuthority());
    }
    LOG.debug("initialized {}: device {} at {}, read-ahead {} bytes", uri, locationHost, store.address(),
        readaheadBytes);
  }

  /** Daemon threads, made on demand and gone after a minute idle; ranges beyond them wait their turn. */
  private static java.util.concurrent.ThreadPoolExecutor vectoredReadPool(int threads, String authority) {
    java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(threads, threads, 60,
        java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "objfs-vectored-read-" + authority + "-" + made.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /**
   * Makes the adapter to the device {@code name} names; the seam where tests, and later the JNI
   * transport, put another adapter. Called once by {@link #initialize}, settings already read.
   */
  protected ObjectStoreAdapter createAdapter(URI name, Configuration conf) throws IOException {
    return DeviceClientAdapter.connect(settings.transport(), DeviceClients.deviceAddress(name), settings.clientOptions(),
        settings.connectionPoolSize());
  }


  @Override
  public URI getUri() {
    return uri;
  }

  /** No delegation tokens: the device has no security to hand them out. */
  @Override
  public String getCanonicalServiceName() {
    return null;
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    Path qualified = makeQualified(dir);
    devicePath(qualified);
    workingDir = qualified;
  }

  /** {@code /user/<name>} of the current user, as in HDFS. */
  @Override
  public Path getHomeDirectory() {
    return makeQualified(new Path(USER_HOME_PREFIX + "/" + owner));
  }

  // ---- reading ----

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    String path = devicePath(f);
    statistics.incrementReadOps(1);
    try {
      return toFileStatus(store.status(path));
    } catch (IOException e) {
      throw ObjfsExceptions.translate(Op.STATUS, uriOf(path), store.address(), e);
    }
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    String path = devicePath(f);
    statistics.incrementReadOps(1);
    ObjectStatus status;
    try {
      status = store.open(path);
    } catch (IOException e) {
      throw ObjfsExceptions.translate(Op.OPEN, uriOf(path), store.address(), e);
    }
    return new FSDataInputStream(new ObjectInputStream(store, status, uriOf(path), readaheadBytes, statistics,
        vectoredReads));
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    List<FileStatus> all = new ArrayList<>();
    DirectoryEntries page = listStatusBatch(f, null);
    all.addAll(List.of(page.getEntries()));
    while (page.hasMore()) {
      page = listStatusBatch(f, page.getToken());
      all.addAll(List.of(page.getEntries()));
    }
    return all.toArray(new FileStatus[0]);
  }

  /** One LIST page; the token is the last name returned, where the next page starts after. */
  @Override
  protected DirectoryEntries listStatusBatch(Path f, byte[] token) throws IOException {
    String path = devicePath(f);
    if (token == null) {
      statistics.incrementReadOps(1);
    } else {
      statistics.incrementLargeReadOps(1);
    }
    String startAfter = token == null ? "" : new String(token, StandardCharsets.UTF_8);
    ObjectStoreAdapter.ListPage page;
    try {
      page = store.list(path, startAfter, settings.listPageSize());
    } catch (IOException e) {
      throw ObjfsExceptions.translate(Op.LIST, uriOf(path), store.address(), e);
    }
    List<ObjectStatus> entries = page.entries();
    if (page.more() && entries.isEmpty()) {
      // Asking again after the same name would loop for ever.
      throw new IOException("listStatus " + uriOf(path) + ": device " + store.address()
          + " returned an empty page after '" + startAfter + "' but said more entries follow");
    }
    FileStatus[] statuses = new FileStatus[entries.size()];
    for (int i = 0; i < statuses.length; i++) {
      statuses[i] = toFileStatus(entries.get(i));
    }
    byte[] next = entries.isEmpty() ? null
        : entries.get(entries.size() - 1).name().getBytes(StandardCharsets.UTF_8);
    return new DirectoryEntries(statuses, next, page.more());
  }

  /**
   * One location per block of {@code fs.objfs.block-size} in the range, each naming the host the
   * device is attached to ({@code fs.objfs.host}, or the device's own name); {@code []} for a
   * directory or a range past the end.
   */
  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) {
    if (file == null) {
      return null; // as FileSystem's contract says
    }
    if (start < 0 || len < 0) {
      throw new IllegalArgumentException("Invalid start or len parameter: start " + start + ", len " + len);
    }
    long blockSize = file.getBlockSize() > 0 ? file.getBlockSize() : settings.blockSize();
    return BlockLocations.of(file, start, len, blockSize, locationHost, uri.getPort());
  }

  // ---- writing ----

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    return create(f, permission, overwrite, true);
  }

  /** As create, but the parent directory must exist. */
  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
    return create(f, permission, flags.contains(CreateFlag.OVERWRITE), false);
  }

  private FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, boolean createParents)
      throws IOException {
    String path = devicePath(f);
    statistics.incrementWriteOps(1);
    ObjectWriter writer;
    try {
      writer = store.create(path, overwrite, createParents,
          masked(permission == null ? FsPermission.getFileDefault() : permission));
    } catch (IOException e) {
      throw ObjfsExceptions.translate(Op.CREATE, uriOf(path), store.address(), e);
    }
    return new FSDataOutputStream(output(writer, path), statistics);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    String path = devicePath(f);
    statistics.incrementWriteOps(1);
    ObjectWriter writer;
    try {
      writer = store.append(path);
    } catch (IOException e) {
      throw ObjfsExceptions.translate(Op.APPEND, uriOf(path), store.address(), e);
    }
    return new FSDataOutputStream(output(writer, path), statistics, writer.initialLength());
  }

  private ObjectOutputStream output(ObjectWriter writer, String path) {
    ObjectOutputStream out = new ObjectOutputStream(writer, uriOf(path), store.address(),
        settings.writeBufferBytes(), openOutputs::remove);
    openOutputs.add(out);
    return out;
  }

  /**
   * Creates missing parents too, with the directory's permission and the owner's write and execute
   * (as HDFS makes them). @return true
   */
  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    String path = devicePath(f);
    statistics.incrementWriteOps(1);
    try {
      store.mkdirs(path, masked(permission == null ? FsPermission.getDirDefault() : permission));
      return true;
    } catch (IOException e) {
      throw ObjfsExceptions.translate(Op.MKDIRS, uriOf(path), store.address(), e);
    }
  }

  /**
   * Atomic, for files and directories, with HDFS's answers: code written for HDFS tests the boolean
   * ({@code if (!fs.rename(a, b))}), and Hadoop's file system specification leaves these cases to the
   * file system. Onto an existing directory, the source moves into it. {@code false}, with nothing
   * changed, for: a missing source; the root; a destination inside the source (a directory renamed onto
   * itself among them: it would move into itself); a destination that exists (a file, or, moving into
   * a directory, the name there); a missing destination parent. {@code true} for a file renamed onto
   * itself, or into the directory it is in. A destination parent that is a file is a {@link
   * ParentNotDirectoryException}. The device's one RENAME checks the destination (its parent, and that
   * nothing is there) atomically; its refusals are these answers. Why a rename answered false is
   * logged at debug level.
   */
  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    String from = devicePath(src);
    String to = devicePath(dst);
    statistics.incrementWriteOps(1);
    String names = uriOf(from) + " to " + uriOf(to);
    if (from.equals("/")) {
      return renameFailed(names, "the source is the root");
    }
    if (lookUp(from, Op.RENAME_LOOKUP, names, false) == null) {
      return renameFailed(names, "the source does not exist");
    }
    ObjectStatus destination = lookUp(to, Op.RENAME_LOOKUP, names, false);
    String target = destination != null && destination.directory() ? DevicePaths.join(to, DevicePaths.name(from)) : to;
    if (target.equals(from)) {
      return true;
    }
    if (target.startsWith(from + "/")) {
      return renameFailed(names, "the destination " + uriOf(target) + " is inside the source");
    }
    try {
      store.rename(from, target);
      return true;
    } catch (IOException e) {
      IOException translated = ObjfsExceptions.translate(Op.RENAME, uriOf(from) + " to " + uriOf(target),
          store.address(), e);
      if (translated instanceof FileNotFoundException || translated instanceof FileAlreadyExistsException) {
        // The destination's parent is missing, or the destination exists (or the source went since it was
        // looked at): as HDFS, false.
        return renameFailed(names, translated.getMessage());
      }
      throw translated; // a ParentNotDirectoryException among them: the destination's parent is a file
    }
  }

  private static boolean renameFailed(String names, String why) {
    LOG.debug("rename {} returns false: {}", names, why);
    return false;
  }

  /**
   * Deletes a file or directory; a missing path is false. The root itself is never deleted, and
   * neither are its children through it (as in S3A: a {@code rm -r /} would wipe the device); a
   * non-recursive delete of a non-empty root fails as for any directory.
   */
  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    String path = devicePath(f);
    statistics.incrementWriteOps(1);
    if (path.equals("/")) {
      if (!recursive && listStatusBatch(f, null).getEntries().length > 0) {
        throw new PathIsNotEmptyDirectoryException(uriOf(path));
      }
      if (recursive) {
        LOG.warn("objfs does not delete the root directory of {}, nor its children through it", uri);
      }
      return false;
    }
    try {
      store.delete(path, recursive);
      return true;
    } catch (IOException e) {
      IOException translated = ObjfsExceptions.translate(Op.DELETE, uriOf(path), store.address(), e);
      if (translated instanceof FileNotFoundException) {
        return false;
      }
      throw translated;
    }
  }

  // ---- the file system as a whole ----

  @Override
  public long getDefaultBlockSize(Path f) {
    return settings.blockSize();
  }

  /** As {@link #getDefaultBlockSize(Path)}, for callers still on the old method. */
  @Override
  @Deprecated
  public long getDefaultBlockSize() {
    return settings.blockSize();
  }

  /** One device holds the one copy. */
  @Override
  public short getDefaultReplication(Path f) {
    return 1;
  }

  @Override
  @Deprecated
  public short getDefaultReplication() {
    return 1;
  }

  /** The device's capacity and free space (a fresh DEVICE_INFO). */
  @Override
  public FsStatus getStatus(Path p) throws IOException {
    try {
      DeviceInfo info = store.deviceInfo();
      return new FsStatus(info.capacityBytes(), info.capacityBytes() - info.freeBytes(), info.freeBytes());
    } catch (IOException e) {
      throw ObjfsExceptions.translate(Op.DEVICE_INFO, uri.toString(), store.address(), e);
    }
  }

  @Override
  public boolean hasPathCapability(Path path, String capability) throws IOException {
    switch (validatePathCapabilityArgs(makeQualified(path), capability)) {
      case CommonPathCapabilities.FS_APPEND:
        return true;
      default:
        return super.hasPathCapability(path, capability);
    }
  }

  /** Closes streams still writing (keeping their bytes), then the device connections. Idempotent. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      for (ObjectOutputStream out : List.copyOf(openOutputs)) {
        try {
          out.close();
        } catch (IOException e) {
          LOG.warn("closing {} with the file system: {}", out, e.toString());
        }
      }
      super.close();
    } finally {
      if (vectoredReads != null) {
        vectoredReads.shutdown(); // ranges queued still run, and fail on the closed connections
      }
      if (store != null) {
        store.close();
      }
    }
  }

  @Override
  public String toString() {
    return "ObjectFileSystem[" + uri + (store == null ? "" : ", device " + locationHost + " at " + store.address())
        + "]";
  }

  // ---- Hadoop paths and statuses ----

  /** The device path of {@code f}, made absolute against the working directory and checked. */
  String devicePath(Path f) {
    Path qualified = makeQualified(f);
    return DevicePaths.check(qualified.toUri().getPath(), qualified.toString());
  }

  /** {@code permission} under this file system's umask ({@code fs.permissions.umask-mode}), as the device takes it. */
  private int masked(FsPermission permission) {
    return permission.applyUMask(FsPermission.getUMask(getConf())).toShort() & ObjectStatus.PERMISSION_BITS;
  }

  /** Sets the mode: the owner, or a superuser, may. */
  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    String path = devicePath(p);
    statistics.incrementWriteOps(1);
    try {
      store.setPermission(path, permission.toShort() & ObjectStatus.PERMISSION_BITS);
    } catch (IOException e) {
      throw ObjfsExceptions.translate(Op.SET_PERMISSION, uriOf(path), store.address(), e);
    }
  }

  /**
   * Sets the owner and the group (null leaves one as it is, as in HDFS; both null is refused, as
   * HDFS refuses it). Only a superuser may give a file away; its owner may set a group it is in.
   */
  @Override
  public void setOwner(Path p, String username, String groupname) throws IOException {
    String path = devicePath(p);
    if (username == null && groupname == null) {
      throw new IOException("setOwner " + uriOf(path) + ": username == null && groupname == null");
    }
    statistics.incrementWriteOps(1);
    try {
      store.setOwner(path, username == null ? "" : username, groupname == null ? "" : groupname);
    } catch (IOException e) {
      throw ObjfsExceptions.translate(Op.SET_OWNER, uriOf(path), store.address(), e);
    }
  }

  /** Sets the modification and access times (-1 leaves one as it is); needs write access, as in HDFS. */
  @Override
  public void setTimes(Path p, long mtime, long atime) throws IOException {
    String path = devicePath(p);
    statistics.incrementWriteOps(1);
    try {
      store.setTimes(path, mtime, atime);
    } catch (IOException e) {
      throw ObjfsExceptions.translate(Op.SET_TIMES, uriOf(path), store.address(), e);
    }
  }

  /** The objfs URI of a device path, as messages name files. */
  private String uriOf(String devicePath) {
    return uri + devicePath;
  }

  private FileStatus toFileStatus(ObjectStatus s) {
    Path path = new Path(uri.getScheme(), uri.getAuthority(), s.path());
    if (s.hasPermission()) {
      return new FileStatus(s.directory() ? 0 : s.length(), s.directory(), 1, s.directory() ? 0 : settings.blockSize(),
          s.modificationTimeMillis(), s.accessTimeMillis(), new FsPermission((short) s.permission()), s.owner(),
          s.group(), path);
    }
    // A device of protocol version 3 or older keeps no owners: this user's, with fixed permissions.
    if (s.directory()) {
      return new FileStatus(0, true, 1, 0, s.modificationTimeMillis(), 0, DIRECTORY_PERMISSION, owner, group, path);
    }
    return new FileStatus(s.length(), false, 1, settings.blockSize(), s.modificationTimeMillis(), 0,
        FILE_PERMISSION, owner, group, path);
  }

  /** The status of {@code path}, or null when it does not exist (and {@code required} is false). */
  private ObjectStatus lookUp(String path, Op op, String names, boolean required) throws IOException {
    try {
      return store.status(path);
    } catch (IOException e) {
      IOException translated = ObjfsExceptions.translate(op, names, store.address(), e);
      if (translated instanceof FileNotFoundException && !required) {
        return null;
      }
      throw translated;
    }
  }

  private static String primaryGroup(UserGroupInformation user) {
    try {
      return user.getPrimaryGroupName();
    } catch (IOException e) {
      // No group known for the user (as on a bare container): name the user, as HDFS clients see.
      return user.getShortUserName();
    }
  }

  /**
   * Whole stripes (so that one READ keeps every channel busy), at least 1 MiB: callers such as
   * FsShell read 4 KiB at a time, and each refill is a round trip to the device.
   */
  public static long defaultReadahead(org.smartssd.device.DeviceGeometry geometry) {
    long stripe = geometry.stripeBytes();
    long minimum = 1L << 20;
    return Math.max(stripe, (minimum + stripe - 1) / stripe * stripe);
  }
}
