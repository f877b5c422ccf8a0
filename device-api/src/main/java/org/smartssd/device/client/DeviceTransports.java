package org.smartssd.device.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Finds a {@link DeviceTransport} by name, falling back to the pure-Java one with a logged reason. */
public final class DeviceTransports {
  private static final Logger LOG = LoggerFactory.getLogger(DeviceTransports.class);

  /** The pure-Java client, {@link SocketDeviceClient}: always there. */
  public static final String JAVA = "java";
  /** The C library through JNI (module {@code jni}), when it is on the class path and loads. */
  public static final String NATIVE = "native";

  /** The pure-Java transport. */
  public static final DeviceTransport JAVA_TRANSPORT = new DeviceTransport() {
    @Override
    public String name() {
      return JAVA;
    }

    @Override
    public DeviceClient connect(DeviceAddress address, ClientOptions options) throws java.io.IOException {
      return SocketDeviceClient.connect(address, options);
    }

    @Override
    public String toString() {
      return "transport java";
    }
  };

  private DeviceTransports() {}

  /**
   * The transport of that name, when it can be used here; otherwise the pure-Java one, after a
   * warning saying why (so that a job runs, more slowly, rather than fails).
   *
   * @throws IllegalArgumentException for a name that is neither {@value #JAVA} nor {@value #NATIVE}
   *     nor any transport on the class path
   */
  public static DeviceTransport select(String name) {
    Optional<DeviceTransport> found = find(name);
    if (found.isEmpty()) {
      throw new IllegalArgumentException("unknown device transport '" + name + "'; known: " + known());
    }
    DeviceTransport transport = found.get();
    Optional<String> unavailable = transport.unavailable();
    if (unavailable.isPresent()) {
      LOG.warn("device transport {} cannot be used ({}); using the Java transport", name, unavailable.get());
      return JAVA_TRANSPORT;
    }
    return transport;
  }

  /**
   * The transport of that name whether or not it can be used (see {@link
   * DeviceTransport#unavailable}); empty when none has that name. {@value #NATIVE} is empty when
   * module {@code jni} is not on the class path.
   */
  public static Optional<DeviceTransport> find(String name) {
    if (JAVA.equals(name)) {
      return Optional.of(JAVA_TRANSPORT);
    }
    for (DeviceTransport t : ServiceLoader.load(DeviceTransport.class, DeviceTransports.class.getClassLoader())) {
      if (t.name().equals(name)) {
        return Optional.of(t);
      }
    }
    if (NATIVE.equals(name)) {
      return Optional.of(new DeviceTransport() {
        @Override
        public String name() {
          return NATIVE;
        }

        @Override
        public Optional<String> unavailable() {
          return Optional.of("module smartssd-jni is not on the class path");
        }

        @Override
        public DeviceClient connect(DeviceAddress address, ClientOptions options) {
          throw new UnsupportedOperationException(unavailable().get());
        }
      });
    }
    return Optional.empty();
  }

  private static List<String> known() {
    List<String> names = new ArrayList<>(List.of(JAVA, NATIVE));
    for (DeviceTransport t : ServiceLoader.load(DeviceTransport.class, DeviceTransports.class.getClassLoader())) {
      if (!names.contains(t.name())) {
        names.add(t.name());
      }
    }
    return names;
  }
}
