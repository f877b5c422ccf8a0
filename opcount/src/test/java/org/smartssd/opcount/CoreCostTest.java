package org.smartssd.opcount;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CoreCostTest {

  @Test
  void eachKindOfWorkCostsWhatItsParameterSays() {
    CoreCost core = new CoreCost(400, 1.0, 40.0, 10.0, 3200);
    assertThat(core.nanos(new OpCounts(400, 0, 0, 0))).isEqualTo(1000); // 400 cycles at 400 MHz
    assertThat(core.nanos(new OpCounts(0, 10, 0, 0))).isEqualTo(400); // 10 x 40 ns
    assertThat(core.nanos(new OpCounts(0, 0, 4, 0))).isEqualTo(100); // 4 calls x 10 ops = 40 cycles
    assertThat(core.nanos(new OpCounts(0, 0, 0, 3200))).isEqualTo(1000); // 3200 bytes at 3.2 GB/s
    assertThat(core.nanos(new OpCounts(400, 10, 4, 3200))).isEqualTo(1000 + 400 + 100 + 1000);
    assertThat(core.nanos(OpCounts.ZERO)).isZero();
    CoreCost reading = new CoreCost(400, 1.0, 40.0, 10.0, 3200, 25.0);
    assertThat(reading.nanos(new OpCounts(0, 0, 0, 0, 8))).isEqualTo(200); // 8 reads inside calls x 25 ns
    assertThat(reading.nanos(new OpCounts(400, 10, 4, 3200, 8))).isEqualTo(1000 + 400 + 100 + 1000 + 200);
    assertThat(core.nanos(new OpCounts(0, 0, 0, 0, 8))).isZero(); // a host's: its caches serve them
  }

  @Test
  void aFasterClockShortensInstructionsButNotMemoryStalls() {
    CoreCost slow = new CoreCost(200, 1.0, 40.0, 0, 1000);
    CoreCost fast = slow.atMhz(800);
    OpCounts alu = new OpCounts(800, 0, 0, 0);
    OpCounts mem = new OpCounts(0, 100, 0, 0);
    assertThat(slow.nanos(alu)).isEqualTo(4 * fast.nanos(alu));
    assertThat(slow.nanos(mem)).isEqualTo(fast.nanos(mem));
    CoreCost reading = new CoreCost(200, 1.0, 40.0, 0, 1000, 30.0);
    OpCounts inCalls = new OpCounts(0, 0, 0, 0, 100);
    assertThat(reading.atMhz(800).nanos(inCalls)).isEqualTo(reading.nanos(inCalls)).isEqualTo(3000);
  }

  @Test
  void badParametersAreRefusedByName() {
    assertThatThrownBy(() -> new CoreCost(0, 1, 0, 0, 1)).hasMessageContaining("mhz");
    assertThatThrownBy(() -> new CoreCost(1, 1, -1, 0, 1)).hasMessageContaining("memoryAccessNanos");
    assertThatThrownBy(() -> new CoreCost(1, 1, 0, 0, 1, Double.NaN)).hasMessageContaining("libraryReadNanos");
  }
}
