package org.smartssd.objectfs;

/**
 * Every configuration key of the objfs file system, each beside its default. The keys are read in
 * one place, {@link ObjfsSettings#from}. Durations accept Hadoop's time suffixes ({@code 500ms},
 * {@code 5s}); sizes accept its byte suffixes ({@code 64k}, {@code 128m}).
 */
public final class ObjfsConfigKeys {
  private ObjfsConfigKeys() {}

  public static final String PREFIX = "fs.objfs.";

  /** How long to wait for a connection to the device and its version handshake. */
  public static final String CONNECT_TIMEOUT = "fs.objfs.connect-timeout";
  public static final String CONNECT_TIMEOUT_DEFAULT = "5s";

  /** How long to wait for the device's answer to one request before failing it. */
  public static final String REQUEST_TIMEOUT = "fs.objfs.request-timeout";
  public static final String REQUEST_TIMEOUT_DEFAULT = "60s";

  /** Connections to the device per file system instance; requests are pipelined on each. */
  public static final String CONNECTION_POOL_SIZE = "fs.objfs.connection-pool-size";
  public static final int CONNECTION_POOL_SIZE_DEFAULT = 4;

  /** The largest frame sent or accepted; at most the device's {@code smartssd.device.host.max-frame-bytes}. */
  public static final String MAX_FRAME_BYTES = "fs.objfs.max-frame-bytes";
  public static final long MAX_FRAME_BYTES_DEFAULT = 64L << 20;

  /** The block size files report: how MapReduce sizes its splits. */
  public static final String BLOCK_SIZE = "fs.objfs.block-size";
  public static final long BLOCK_SIZE_DEFAULT = 128L << 20;

  /** Bytes an input stream reads ahead; 0 means whole stripes of the device, at least 1 MiB. */
  public static final String READAHEAD_BYTES = "fs.objfs.readahead-bytes";
  public static final long READAHEAD_BYTES_DEFAULT = 0;

  /** Bytes an output stream gathers before it sends a WRITE. */
  public static final String WRITE_BUFFER_BYTES = "fs.objfs.write-buffer-bytes";
  public static final long WRITE_BUFFER_BYTES_DEFAULT = 1L << 20;

  /** The host block locations name; empty means the device's own name (its DEVICE_INFO). */
  public static final String HOST = "fs.objfs.host";
  public static final String HOST_DEFAULT = "";

  /**
   * The file holding the devices' secret (readable by its owner only), with which every connection
   * authenticates; empty means none, for devices that do not require it.
   */
  public static final String SECRET_FILE = "fs.objfs.secret-file";
  public static final String SECRET_FILE_DEFAULT = "";

  /**
   * Ranges of one vectored read ({@code readVectored}) read at once, each one positioned read, their
   * requests pipelined on the pooled connections; 1 reads them in turn, as Hadoop's default does.
   */
  public static final String VECTORED_READ_THREADS = "fs.objfs.vectored-read.threads";
  public static final int VECTORED_READ_THREADS_DEFAULT = 8;

  /** Entries asked for per LIST request when a directory is listed. */
  public static final String LIST_PAGE_SIZE = "fs.objfs.list-page-size";
  public static final int LIST_PAGE_SIZE_DEFAULT = 1000;

  /**
   * The device transport: {@code java} (the pure-Java client) or {@code native} (the C library
   * through JNI, module {@code smartssd-jni}; when it cannot load, the Java one with a logged reason).
   * Also what {@code DeviceJobClient}'s proxy map tasks use.
   */
  public static final String TRANSPORT = "smartssd.transport";
  public static final String TRANSPORT_DEFAULT = "java";
}
