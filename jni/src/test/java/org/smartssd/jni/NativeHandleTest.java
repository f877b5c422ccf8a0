package org.smartssd.jni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A native handle is freed once, whoever closes it and however often. */
class NativeHandleTest {
  private static final class Counted extends NativeHandle {
    final AtomicInteger freed = new AtomicInteger();

    Counted() {
      super(42);
    }

    @Override
    protected void disposeInternal(long handle) {
      assertThat(handle).isEqualTo(42);
      freed.incrementAndGet();
    }
  }

  @Test
  void closingTwiceOrFromManyThreadsFreesOnce() throws Exception {
    Counted h = new Counted();
    assertThat(h.isOwningHandle()).isTrue();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Thread t = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        h.close();
      });
      t.start();
      threads.add(t);
    }
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    h.close();
    assertThat(h.freed.get()).isEqualTo(1);
    assertThat(h.isOwningHandle()).isFalse();
  }

  @Test
  void aNullHandleIsRefused() {
    assertThatThrownBy(() -> new NativeHandle(0) {
      @Override
      protected void disposeInternal(long handle) {}
    }).isInstanceOf(IllegalArgumentException.class);
  }
}
