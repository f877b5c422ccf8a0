package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.DeviceClient;

class ConnectionPoolTest {
  private static final ObjectStatus ROOT = new ObjectStatus("/", true, 0, 0, 1);

  /** Connections made, in order; each answers STATUS from {@link #failures} and records close(). */
  private final List<FakeConnection> opened = new ArrayList<>();
  private final Map<String, IOException> failures = new java.util.HashMap<>(Map.of(
      "/missing", new FileNotFoundException("h:1: '/missing' does not exist"),
      "/lost", new IOException("connection to h:1 lost: reset")));

  private static final class FakeConnection {
    boolean closed;
    int statusCalls;
    DeviceClient client;
  }

  private DeviceClient connect() {
    FakeConnection c = new FakeConnection();
    c.client = (DeviceClient) Proxy.newProxyInstance(DeviceClient.class.getClassLoader(),
        new Class<?>[] {DeviceClient.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "close":
              c.closed = true;
              return null;
            case "isOpen":
              return !c.closed;
            case "status":
              c.statusCalls++;
              IOException failure = failures.get((String) args[0]);
              if (failure != null) {
                throw failure;
              }
              return ROOT;
            case "equals":
              return proxy == args[0];
            case "hashCode":
              return System.identityHashCode(proxy);
            case "toString":
              return "fake connection";
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
    opened.add(c);
    return c.client;
  }

  @Test
  void connectsTheFirstAtOnceAndTheOthersOnFirstUseRoundRobin() throws IOException {
    ConnectionPool pool = new ConnectionPool(this::connect, "h:1", 3);
    assertThat(opened).hasSize(1);
    List<DeviceClient> acquired = List.of(pool.acquire(), pool.acquire(), pool.acquire());
    assertThat(opened).hasSize(3);
    assertThat(acquired).containsExactly(opened.get(0).client, opened.get(1).client, opened.get(2).client);
    assertThat(pool.acquire()).isSameAs(opened.get(0).client);
    pool.close();
    assertThat(opened).allMatch(c -> c.closed);
    assertThatThrownBy(pool::acquire).hasMessageContaining("closed").hasMessageContaining("h:1");
  }

  @Test
  void aLostConnectionIsReplacedAndAReadOnlyRequestTriedOnceMoreOnAFreshOne() throws IOException {
    DeviceClientAdapter adapter = new DeviceClientAdapter("h:1", this::connect, 1);
    assertThatThrownBy(() -> adapter.status("/missing")).isInstanceOf(FileNotFoundException.class);
    assertThat(opened).hasSize(1);
    assertThat(opened.get(0).closed).isFalse(); // an answer from the device: the connection is fine
    assertThat(opened.get(0).statusCalls).isEqualTo(1); // and it is not asked again

    // Lost on the first connection, then on the fresh one: two tries, both connections dropped.
    assertThatThrownBy(() -> adapter.status("/lost")).hasMessageContaining("lost");
    assertThat(opened).hasSize(2);
    assertThat(opened).allMatch(c -> c.closed);
    assertThat(adapter.status("/")).isEqualTo(ROOT); // connects afresh on the next request
    assertThat(opened).hasSize(3);
    assertThat(opened.get(2).statusCalls).isEqualTo(1);
    adapter.close();
    assertThat(opened.get(2).closed).isTrue();
  }

  @Test
  void aRequestThatFindsItsConnectionLostSucceedsOnAFreshOne() throws IOException {
    java.util.concurrent.atomic.AtomicInteger connections = new java.util.concurrent.atomic.AtomicInteger();
    DeviceClientAdapter adapter = new DeviceClientAdapter("h:1", () -> {
      DeviceClient c = connect();
      if (connections.getAndIncrement() == 0) { // the connection from before a device restart
        failures.put("/", new IOException("connection to h:1 lost: the device closed the connection"));
      } else {
        failures.remove("/");
      }
      return c;
    }, 1);
    assertThat(adapter.status("/")).isEqualTo(ROOT);
    assertThat(opened).hasSize(2);
    assertThat(opened.get(0).closed).isTrue();
    assertThat(opened.get(1).closed).isFalse();
  }

  @Test
  void onlyAPlainIoExceptionMeansTheConnectionIsLost() {
    assertThat(DeviceClientAdapter.isConnectionLost(new IOException("connection to h:1 lost"))).isTrue();
    assertThat(DeviceClientAdapter.isConnectionLost(new FileNotFoundException("x"))).isFalse();
    assertThat(DeviceClientAdapter.isConnectionLost(new java.net.SocketTimeoutException("x"))).isFalse();
    assertThat(DeviceClientAdapter.isConnectionLost(new org.smartssd.device.DeviceException.Busy("x"))).isFalse();
  }
}
