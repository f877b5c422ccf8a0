package org.smartssd.device.runtime;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
import org.smartssd.device.runtime.host.CommandHandler;
import org.smartssd.device.runtime.host.DeviceServer;
import org.smartssd.device.runtime.isp.BuiltInTasklets;
import org.smartssd.device.runtime.config.IspParameters;
import org.smartssd.device.runtime.isp.IspEngine;
import org.smartssd.device.runtime.isp.TaskletLoader;
import org.smartssd.device.runtime.objects.ObjectStore;
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
  private final FileChannel lockFile;
  private final FileLock lock;
  private final TimingModel timing;
  private final FlashArray flash;
  private final ObjectStore store;
  private final IspEngine isp;
  private final DeviceServer server;
  private final AtomicBoolean closing = new AtomicBoolean();
  private final CountDownLatch stopped = new CountDownLatch(1);

  private SimulatedDevice(DeviceConfig config, NanoClock clock) throws IOException {
    this.config = config;
    Path dataDir = config.dataDir();
    Files.createDirectories(dataDir);
    this.lockFile = FileChannel.open(dataDir.resolve("device.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock acquired;
    try {
      acquired = lockFile.tryLock();
    } catch (OverlappingFileLockException e) {
      acquired = null;
    }
    if (acquired == null) {
      lockFile.close();
      throw new IOException("data directory " + dataDir + " is in use by another device");
    }
    this.lock = acquired;
    TimingModel t = null;
    FlashArray f = null;
    ObjectStore s = null;
    IspEngine e = null;
    try {
      t = new TimingModel(config.geometry(), config.timing(), clock);
      f = FlashArray.open(dataDir, config.geometry(), t, config.reclaimSpace());
      FlashTranslationLayer ftl = new FlashTranslationLayer(config.geometry(), config.overprovisioningPercent(),
          config.gcMinFreeBlocksPerWay(), f);
      s = ObjectStore.open(dataDir, config.geometry(), ftl, config.checkpointLogBytes(), System::currentTimeMillis);
      this.timing = t;
      this.flash = f;
      this.store = s;
      AtomicInteger hostIoWaiting = new AtomicInteger();
      TaskletLoader loader = new TaskletLoader(BuiltInTasklets.ALL, config.isp().sharedPackages(),
          SimulatedDevice.class.getClassLoader(), config.isp().computeModel() == IspParameters.ComputeModel.COUNTED);
      e = new IspEngine(config.deviceName(), config.isp(), config.energy(), s, t, config.paced(), hostIoWaiting::get,
          loader);
      this.isp = e;
      CommandHandler handler = new CommandHandler(s, e, this::info, this::statistics);
      this.server = new DeviceServer(config.deviceName(), config.bindAddress(), config.port(),
          config.unixSocket().orElse(null), config.secret().orElse(null), config.maxConnections(), config.workerThreads(), config.maxFrameBytes(), config.paced(), s, t,
          handler, hostIoWaiting, this::stopInBackground);
    } catch (IOException | RuntimeException failure) {
      if (e != null) {
        e.close();
      }
      closeQuietly(s);
      closeQuietly(f);
      lock.release();
      lockFile.close();
      throw failure;
    }
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

  public DeviceStatistics statistics() {
    return timing.statistics(store.gcPagesMoved()).withDiskUse(diskUse());
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
      lock.release();
      lockFile.close();
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
}
