package org.smartssd.examples.loganalysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The energy model's arithmetic, for one device, several, and none. */
class EnergyModelTest {
  private final EnergyModel model = EnergyModel.defaults(); // host 40 W / 35 W, device 1.2 W / 0.9 W

  @Test
  void oneDeviceIsTheHostPlusTheDeviceOverTheLongerOfWallAndModel() {
    // T = 2 s (modelled); host busy 0.5 s: 40*0.5 + 35*1.5 = 72.5; device busy 2 s: 2.4.
    assertEquals(74.9, model.joules(1_000_000_000L, 2_000_000_000L, 500_000_000L), 1e-9);
    assertEquals(74.9, model.joules(1_000_000_000L, 500_000_000L, List.of(2_000_000_000L)), 1e-9);
  }

  @Test
  void eachDeviceCountsForItsOwnBusyTimeOverTheSlowestOnesDuration() {
    // T = 2 s: host 72.5; device 1 busy 2 s: 2.4; device 2 busy 1 s, idle 1 s: 1.2 + 0.9 = 2.1.
    assertEquals(77.0, model.joules(1_000_000_000L, 500_000_000L, List.of(2_000_000_000L, 1_000_000_000L)), 1e-9);
    // The wall is longer than both: T = 3 s; host 40*0.5 + 35*2.5 = 107.5; devices 1.2*1 + 0.9*2 = 3.0 each.
    assertEquals(113.5, model.joules(3_000_000_000L, 500_000_000L, List.of(1_000_000_000L, 1_000_000_000L)), 1e-9);
    assertEquals(3_000_000_000L, EnergyModel.durationNanos(3_000_000_000L, List.of(1L, 2_000_000_000L)));
  }

  @Test
  void withoutADeviceOnlyTheHostCounts() {
    assertEquals(40 * 0.5 + 35 * 0.5, model.joules(1_000_000_000L, 500_000_000L, List.of()), 1e-9);
  }
}
