package org.smartssd.device.runtime;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.smartssd.device.DeviceInfo;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.DiskUse;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.runtime.config.DeviceConfig;
import org.smartssd.device.runtime.flash.FlashArray;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;
import org.smartssd.device.runtime.ftl.MetadataLog;
import org.smartssd.device.runtime.host.CommandHandler;
import org.smartssd.device.runtime.host.DeviceServer;
import org.smartssd.device.runtime.host.HostLimits;
import org.smartssd.device.runtime.isp.BuiltInTasklets;
import org.smartssd.device.runtime.config.IspParameters;
import org.smartssd.device.runtime.isp.IspEngine;
import org.smartssd.device.runtime.isp.TaskletLoader;
import org.smartssd.device.runtime.objects.AccessPolicy;
import org.smartssd.device.runtime.objects.ObjectStore;
import org.smartssd.device.runtime.timing.EnergyModel;
import org.smartssd.device.runtime.timing.NanoClock;
import org.smartssd.device.runtime.timing.TimingModel;

/**
 * The simulated Smart SSD: wires the layers (flash, flash translation, objects, host interface,
 * timing) from one configuration. Holds no global state, so several devices can run in one JVM,
 * each on its own data directory.
 */
public final class SimulatedDevice implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SimulatedDevice.class);

  private final DeviceConfig config;
  private final DataDirectoryLock lock;
  private final TimingModel timing;
  private final EnergyModel energy;
  private final FlashArray flash;
  private final ObjectStore store;
  private final IspEngine isp;
  private final DeviceServer server;
  private final AtomicBoolean closing = new AtomicBoolean();
  private final CountDownLatch stopped = new CountDownLatch(1);

  private SimulatedDevice(DeviceConfig config, NanoClock clock) throws IOException {
    this.config = config;
    Path dataDir = config.dataDir();
    prepareDataDirectory(dataDir);
    this.lock = DataDirectoryLock.acquire(dataDir);
    this.energy = new EnergyModel(config.energy());
    TimingModel t = null;
    FlashArray f = null;
    ObjectStore s = null;
    IspEngine e = null;
    try {
      // Before the flash is laid out (gigabytes of sparse files for a large profile), not after.
      checkPortIsFree(config.bindAddress(), config.port());
      t = new TimingModel(config.geometry(), config.timing(), clock);
      if (!FlashArray.hasData(dataDir)) {
        MetadataLog.requireFlash(dataDir, false);
        // A new device: its metadata area first, so that flash files never exist without one.
        MetadataLog.format(dataDir);
      }
      f = FlashArray.open(dataDir, config.geometry(), t, config.reclaimSpace());
      FlashTranslationLayer ftl = new FlashTranslationLayer(config.geometry(), config.overprovisioningPercent(),
          config.gcMinFreeBlocksPerWay(), f);
      s = ObjectStore.open(dataDir, config.geometry(), ftl, config.checkpointLogBytes(), System::currentTimeMillis,
          accessPolicy(config));
      this.timing = t;
      this.flash = f;
      this.store = s;
      AtomicInteger hostIoWaiting = new AtomicInteger();
      TaskletLoader loader = new TaskletLoader(BuiltInTasklets.ALL, config.isp().sharedPackages(),
          SimulatedDevice.class.getClassLoader(), config.isp().computeModel() == IspParameters.ComputeModel.COUNTED);
      e = new IspEngine(config.deviceName(), config.isp(), energy, s, s, t, config.paced(), hostIoWaiting::get,
          loader, config.active(), s);
      this.isp = e;
      CommandHandler handler = new CommandHandler(s, e, this::info, this::statistics);
      ObjectStore files = s;
      this.server = new DeviceServer(config.deviceName(), config.bindAddress(), config.port(),
          config.unixSocket().orElse(null), config.secret().orElse(null),
          new HostLimits(config.maxConnections(), config.workerThreads(), config.maxFrameBytes(),
              config.frameMemoryBytes(), config.ioTimeoutMs(), config.idleTimeoutMs()),
          config.paced(), t, handler, hostIoWaiting, ownership(files, e), this::stopInBackground);
    } catch (IOException | RuntimeException failure) {
      if (e != null) {
        e.close();
      }
      closeQuietly(s);
      closeQuietly(f);
      lock.close();
      throw failure;
    }
  }

  /** Who passes the permission checks of a device so configured, run by this process's user. */
  static AccessPolicy accessPolicy(DeviceConfig config) {
    return AccessPolicy.of(config.permissionsEnabled(), config.superGroup(), config.accessTimePrecisionMs());
  }

  /** Starts a device: opens (or formats) its data directory, recovers, and listens. */
  public static SimulatedDevice start(DeviceConfig config) throws IOException {
    return start(config, NanoClock.system());
  }

  /** As {@link #start(DeviceConfig)}, with the clock the timing model reads. */
  public static SimulatedDevice start(DeviceConfig config, NanoClock clock) throws IOException {
    SimulatedDevice device = new SimulatedDevice(config, clock);
    LOG.info("device {} (profile {}) listening on {}{}, data in {}{}{}", config.deviceName(), config.profile(),
        device.listeningAddress(), device.unixAddress().map(a -> " and " + a).orElse(""), config.dataDir(),
        config.paced() ? ", paced" : "", config.secret().map(s -> "; hosts must prove they hold the " + s).orElse(""));
    return device;
  }

  public DeviceConfig config() {
    return config;
  }

  /** The port the device listens on (the configured one, or the one picked for port 0). */
  public int port() {
    return server.port();
  }

  /**
   * {@code host:port} the device listens on: the configured bind address (a wildcard such as
   * {@code 0.0.0.0} stays one, as every address of the host is reached), unlike {@link #address()}.
   */
  public String listeningAddress() {
    String host = config.bindAddress();
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port();
  }

  /** {@code host:port} to give a client on this host (a wildcard bind address is reached on 127.0.0.1). */
  public String address() {
    String host = config.bindAddress();
    if (host.equals("0.0.0.0") || host.equals("::")) {
      host = "127.0.0.1";
    }
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port();
  }

  /** {@code unix:/path} to give a client, when the device also listens on a Unix domain socket. */
  public Optional<DeviceAddress> unixAddress() {
    return server.unixSocket().map(DeviceAddress::unix);
  }

  public DeviceInfo info() {
    return new DeviceInfo(config.deviceName(), config.profile(), config.geometry(), store.capacityBytes(),
        store.freeBytes(), config.paced(), config.effective());
  }

  /** The counters, disk use, and the energy account of all the device's work since it started. */
  public DeviceStatistics statistics() {
    return timing.statistics(store.gcPagesMoved(), energy).withDiskUse(diskUse());
  }

  /** The flash files' disk use against the live data they hold, and whether space is reclaimed. */
  public DiskUse diskUse() {
    return new DiskUse(flash.reclaimingSpace(), flash.reclaimNote(), flash.allocatedBytes(), flash.fileBytes(),
        store.liveFlashBytes(), flash.punchedBytes(), flash.holesPunched());
  }

  /** Waits until the device has stopped (by {@link #close()} or a SHUTDOWN command). */
  public boolean awaitStop(long timeout, TimeUnit unit) throws InterruptedException {
    return stopped.await(timeout, unit);
  }

  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  /** SHUTDOWN is answered on a worker, which close() waits for: stop from another thread. */
  private void stopInBackground() {
    Thread t = new Thread(() -> closeQuietly(this), config.deviceName() + "-shutdown");
    t.setDaemon(false);
    t.start();
  }

  /** Stops serving, makes all written data durable, and releases the data directory. */
  @Override
  public void close() throws IOException {
    if (!closing.compareAndSet(false, true)) {
      return;
    }
    try {
      server.close();
      isp.close();
      store.close();
      flash.close();
    } finally {
      lock.close();
      stopped.countDown();
      LOG.info("device {} stopped", config.deviceName());
    }
  }

  private static void closeQuietly(Closeable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("close failed: {}", e.toString());
    }
  }

  /** A connection owns its open files and the tasklets and executions it started. */
  private static DeviceServer.Ownership ownership(ObjectStore files, IspEngine isp) {
    return new DeviceServer.Ownership() {
      @Override
      public boolean owns(Object connection) {
        return files.hasHandlesOf(connection) || isp.owns(connection);
      }

      @Override
      public void release(Object connection) {
        try {
          files.closeHandlesOf(connection);
        } finally {
          isp.connectionClosed(connection);
        }
      }
    };
  }

  /**
   * Makes sure {@code dir} is a directory the device can write, creating it if needed, with a
   * message that says what is wrong with it (the JDK's exceptions name only the path).
   */
  static void prepareDataDirectory(Path dir) throws IOException {
    String what = "data directory " + dir.toAbsolutePath() + " (smartssd.device.data-dir, --data-dir)";
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new IOException(what + " is a file, not a directory: give a directory, or a path that does not exist yet");
    }
    try {
      Files.createDirectories(dir);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      throw new IOException("cannot create " + what + ": " + e.getFile() + " exists and is not a directory", e);
    } catch (java.nio.file.AccessDeniedException e) {
      throw new IOException("cannot create " + what + ": permission denied on " + e.getFile() + " for user "
          + System.getProperty("user.name"), e);
    } catch (java.nio.file.FileSystemException e) {
      throw new IOException("cannot create " + what + ": " + e.getFile() + ": " + e.getReason(), e);
    }
    if (!Files.isWritable(dir) || !Files.isExecutable(dir)) {
      throw new IOException(what + " is not writable by user " + System.getProperty("user.name")
          + ": change its permissions, or give another directory");
    }
  }

  /**
   * Fails at once when the TCP port is taken, naming it. The server binds it for real later (a
   * program that takes the port in between gets the same message from there).
   */
  static void checkPortIsFree(String bindAddress, int port) throws IOException {
    if (port == 0) {
      return; // any free port
    }
    try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
      probe.setReuseAddress(true);
      probe.bind(new java.net.InetSocketAddress(java.net.InetAddress.getByName(bindAddress), port));
    } catch (java.net.BindException e) {
      throw new IOException("cannot listen on " + bindAddress + ":" + port + ": " + e.getMessage()
          + " (another device or program has it; choose another with --port or smartssd.device.host.port)", e);
    }
  }
}
