package org.smartssd.devicemapper;

import org.smartssd.devicemapper.tasklet.MapperDriver;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.Mapper;
import org.junit.jupiter.api.Test;

/** The generated driver calls the mapper's own setup, map and cleanup; mappers it cannot drive are refused. */
class MapperShimsTest {
  static final List<String> CALLS = new ArrayList<>();
  private static final List<String> SHARED = List.of("org.apache.hadoop.");

  public static class RecordingMapper extends Mapper<Object, Object, Object, Object> {
    @Override
    protected void setup(Context context) {
      CALLS.add("setup");
    }

    @Override
    protected void map(Object key, Object value, Context context) {
      CALLS.add("map " + key + "=" + value);
    }

    @Override
    protected void cleanup(Context context) {
      CALLS.add("cleanup");
    }
  }

  /** Package-private, with a package-private constructor: the driver shares its package. */
  static class QuietMapper extends Mapper<Object, Object, Object, Object> {
    QuietMapper() {}
  }

  public static final class FinalMapper extends Mapper<Object, Object, Object, Object> {}

  public static class RunningMapper extends Mapper<Object, Object, Object, Object> {
    @Override
    public void run(Context context) {}
  }

  public static class PrivateMapper extends Mapper<Object, Object, Object, Object> {
    private PrivateMapper() {}
  }

  public class InnerMapper extends Mapper<Object, Object, Object, Object> {}

  /** Defines the generated classes, as the tasklet's loader would, beside the test's classes. */
  private static final class Loader extends ClassLoader {
    Loader() {
      super(MapperShimsTest.class.getClassLoader());
    }

    Class<?> define(String name, byte[] bytes) {
      return defineClass(name, bytes, 0, bytes.length);
    }
  }

  @Test
  @SuppressWarnings("rawtypes")
  void theDriverCallsSetupMapAndCleanupOfTheMapper() throws Exception {
    MapperShims.check(RecordingMapper.class, SHARED);
    String name = MapperShims.driverName(RecordingMapper.class, SHARED);
    assertThat(name).isEqualTo(RecordingMapper.class.getName() + MapperShims.SUFFIX);
    Class<?> type = new Loader().define(name, MapperShims.generate(name, RecordingMapper.class));
    assertThat(type.getSuperclass()).isEqualTo(RecordingMapper.class);
    MapperDriver driver = (MapperDriver) type.getConstructor().newInstance();
    CALLS.clear();
    driver.runSetup(null);
    driver.runMap("k1", "v1", null);
    driver.runMap("k2", "v2", null);
    driver.runCleanup(null);
    assertThat(CALLS).containsExactly("setup", "map k1=v1", "map k2=v2", "cleanup");
  }

  @Test
  void theIdentityMapperOfHadoopGetsADriverOutsideHadoopsPackages() throws Exception {
    MapperShims.check(Mapper.class, SHARED);
    String name = MapperShims.driverName(Mapper.class, SHARED);
    assertThat(name).startsWith(MapperShims.SHARED_MAPPER_PACKAGE + ".");
    Class<?> type = new Loader().define(name, MapperShims.generate(name, Mapper.class));
    assertThat(type.getConstructor().newInstance()).isInstanceOf(MapperDriver.class).isInstanceOf(Mapper.class);
  }

  @Test
  void aPackagePrivateMapperWorksFromItsOwnPackage() throws Exception {
    MapperShims.check(QuietMapper.class, SHARED);
    // Defined by the test's own loader (as the tasklet's loader defines both in the device), so that
    // the driver is in the mapper's runtime package.
    String name = MapperShims.driverName(QuietMapper.class, SHARED);
    byte[] bytes = MapperShims.generate(name, QuietMapper.class);
    Class<?> type = java.lang.invoke.MethodHandles.lookup().defineClass(bytes);
    assertThat(type.getName()).isEqualTo(name);
    ((MapperDriver) type.getConstructor().newInstance()).runSetup(null);
  }

  @Test
  void mappersTheDeviceCannotDriveAreRefusedWithTheReason() {
    assertThatThrownBy(() -> MapperShims.check(FinalMapper.class, SHARED)).isInstanceOf(IOException.class)
        .hasMessageContaining("is final");
    assertThatThrownBy(() -> MapperShims.check(RunningMapper.class, SHARED)).hasMessageContaining("overrides run");
    assertThatThrownBy(() -> MapperShims.check(PrivateMapper.class, SHARED)).hasMessageContaining("private");
    assertThatThrownBy(() -> MapperShims.check(InnerMapper.class, SHARED)).hasMessageContaining("inner");
  }
}
