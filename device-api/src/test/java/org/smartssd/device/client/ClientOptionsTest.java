package org.smartssd.device.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClientOptionsTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    ClientOptions o = ClientOptions.defaults();
    assertEquals(Duration.ofSeconds(5), o.connectTimeout());
    assertEquals(Duration.ofSeconds(60), o.requestTimeout());
    assertEquals(64 * 1024 * 1024, o.maxFrameBytes());
  }

  @Test
  void withersChangeOneField() {
    ClientOptions o = ClientOptions.defaults()
        .withConnectTimeout(Duration.ofSeconds(1))
        .withRequestTimeout(Duration.ofSeconds(2))
        .withMaxFrameBytes(4096);
    assertEquals(new ClientOptions(Duration.ofSeconds(1), Duration.ofSeconds(2), 4096), o);
  }

  @Test
  void rejectsNonsense() {
    ClientOptions o = ClientOptions.defaults();
    assertThrows(IllegalArgumentException.class, () -> o.withConnectTimeout(Duration.ZERO));
    assertThrows(IllegalArgumentException.class, () -> o.withRequestTimeout(Duration.ofSeconds(-1)));
    assertThrows(NullPointerException.class, () -> o.withRequestTimeout(null));
    assertThrows(IllegalArgumentException.class, () -> o.withMaxFrameBytes(100));
  }
}
