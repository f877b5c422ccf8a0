package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class ObjfsSettingsTest {

  @Test
  void defaults() {
    ObjfsSettings s = ObjfsSettings.from(new Configuration(false));
    assertThat(s.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(s.requestTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(s.connectionPoolSize()).isEqualTo(ObjfsConfigKeys.CONNECTION_POOL_SIZE_DEFAULT);
    assertThat(s.blockSize()).isEqualTo(128L << 20);
    assertThat(s.readaheadBytes()).isZero();
    assertThat(s.writeBufferBytes()).isEqualTo(1 << 20);
    assertThat(s.host()).isEmpty();
    assertThat(s.listPageSize()).isEqualTo(1000);
  }

  @Test
  void unitsAreAccepted() {
    Configuration conf = new Configuration(false);
    conf.set(ObjfsConfigKeys.REQUEST_TIMEOUT, "1500ms");
    conf.set(ObjfsConfigKeys.BLOCK_SIZE, "64m");
    ObjfsSettings s = ObjfsSettings.from(conf);
    assertThat(s.requestTimeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(s.blockSize()).isEqualTo(64L << 20);
  }

  @Test
  void aBadValueNamesItsKey() {
    Configuration conf = new Configuration(false);
    conf.setInt(ObjfsConfigKeys.CONNECTION_POOL_SIZE, 0);
    assertThatThrownBy(() -> ObjfsSettings.from(conf))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ObjfsConfigKeys.CONNECTION_POOL_SIZE);
    Configuration zero = new Configuration(false);
    zero.set(ObjfsConfigKeys.REQUEST_TIMEOUT, "0s");
    assertThatThrownBy(() -> ObjfsSettings.from(zero)).hasMessageContaining(ObjfsConfigKeys.REQUEST_TIMEOUT);
  }
}
