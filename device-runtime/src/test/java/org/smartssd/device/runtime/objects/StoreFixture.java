package org.smartssd.device.runtime.objects;

import java.io.IOException;
import java.nio.file.Path;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.runtime.config.TimingParameters;
import org.smartssd.device.runtime.flash.FlashArray;
import org.smartssd.device.runtime.ftl.FlashTranslationLayer;
import org.smartssd.device.runtime.timing.TimingModel;

/** A real object store on real flash files in a temporary directory, small enough for unit tests. */
final class StoreFixture implements AutoCloseable {
  static final DeviceGeometry GEOMETRY = new DeviceGeometry(4, 2, 16, 8, 1024, 1);
  static final TimingParameters TIMING = new TimingParameters(50_000, 1_200_000, 3_000_000, 50e6, 250e6, 20_000, true);

  final TimingModel timing;
  final FlashArray flash;
  final ObjectStore store;

  private StoreFixture(TimingModel timing, FlashArray flash, ObjectStore store) {
    this.timing = timing;
    this.flash = flash;
    this.store = store;
  }

  static StoreFixture open(Path dir) throws IOException {
    return open(dir, 1 << 20);
  }

  static StoreFixture open(Path dir, long checkpointLogBytes) throws IOException {
    TimingModel timing = new TimingModel(GEOMETRY, TIMING, System::nanoTime);
    FlashArray flash = FlashArray.open(dir, GEOMETRY, timing);
    FlashTranslationLayer ftl = new FlashTranslationLayer(GEOMETRY, 20, 2, flash);
    ObjectStore store = ObjectStore.open(dir, GEOMETRY, ftl, checkpointLogBytes, System::currentTimeMillis, TestCallers.POLICY);
    return new StoreFixture(timing, flash, store);
  }

  /** Closes cleanly. */
  @Override
  public void close() throws IOException {
    store.close();
    flash.close();
  }
}
