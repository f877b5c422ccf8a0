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
    assertThat(s.vectoredReadThreads()).isEqualTo(ObjfsConfigKeys.VECTORED_READ_THREADS_DEFAULT);
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
    Configuration secret = new Configuration(false);
    secret.set(ObjfsConfigKeys.SECRET_FILE, "/nonexistent/secret");
    assertThatThrownBy(() -> ObjfsSettings.from(secret))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(ObjfsConfigKeys.SECRET_FILE + ": secret file /nonexistent/secret not found (make one with"
            + " `smartssd secret /nonexistent/secret`)");
    Configuration zero = new Configuration(false);
    zero.set(ObjfsConfigKeys.REQUEST_TIMEOUT, "0s");
    assertThatThrownBy(() -> ObjfsSettings.from(zero)).hasMessageContaining(ObjfsConfigKeys.REQUEST_TIMEOUT);
    Configuration noThreads = new Configuration(false);
    noThreads.setInt(ObjfsConfigKeys.VECTORED_READ_THREADS, 0);
    assertThatThrownBy(() -> ObjfsSettings.from(noThreads)).hasMessageContaining(ObjfsConfigKeys.VECTORED_READ_THREADS);
  }

  @org.junit.jupiter.api.Test
  void theDefaultReadAheadIsWholeStripesOfAtLeastOneMebibyte() {
    // 8 channels x 1 page of 8 KiB = 64 KiB stripes: 16 of them.
    assertThat(ObjectFileSystem.defaultReadahead(new org.smartssd.device.DeviceGeometry(8, 4, 16, 16, 8192, 1)))
        .isEqualTo(1L << 20);
    // 256 channels x 3 pages of 8 KiB = 6 MiB stripes: one.
    assertThat(ObjectFileSystem.defaultReadahead(new org.smartssd.device.DeviceGeometry(256, 1, 16, 16, 8192, 3)))
        .isEqualTo(256L * 3 * 8192);
    // 5 channels x 4 KiB = 20 KiB stripes: 52 of them (1,064,960 bytes).
    assertThat(ObjectFileSystem.defaultReadahead(new org.smartssd.device.DeviceGeometry(5, 1, 16, 16, 4096, 1)))
        .isEqualTo(52L * 5 * 4096);
  }
}
