package org.smartssd.device.runtime.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.DeviceGeometry;
import org.smartssd.device.DeviceStatistics;
import org.smartssd.device.runtime.config.EnergyParameters;
import org.smartssd.device.runtime.config.TimingParameters;

/** The device's energy account: its counted work, priced by the profile's energy parameters. */
class EnergyModelTest {
  private static final int PAGE = 1000;

  /**
   * Round figures: 0.3 W over 4 cores (75 mW a busy core); a page read 2 uJ, a program 30 uJ, an erase
   * 100 uJ; 0.5 nJ a link byte.
   */
  private static final EnergyParameters ENERGY =
      new EnergyParameters(1.2, 0.9, 40, 35, 4, 8, 2e-6, 30e-6, 100e-6, 0.5e-9);

  private final FakeClock clock = new FakeClock(0);
  private final TimingModel timing = new TimingModel(new DeviceGeometry(2, 2, 8, 8, PAGE, 1),
      new TimingParameters(50_000, 1_200_000, 3_000_000, 100e6, 100e6, 20_000, true), clock);
  private final EnergyModel energy = new EnergyModel(ENERGY);

  @Test
  void theAccountOfAKnownWorkloadIsTheClosedForm() {
    // A host write of 4 pages, a host read of 3, an erase, an execution's 5 internal reads and 3 ms of its
    // cores' compute.
    Command write = timing.begin();
    write.transferIn(4 * PAGE + 32);
    for (int i = 0; i < 4; i++) {
      write.programPage(i % 2, i / 2);
    }
    write.complete();
    Command read = timing.begin();
    for (int i = 0; i < 3; i++) {
      read.readPage(i % 2, 0);
    }
    read.transferOut(3 * PAGE + 32);
    read.complete();
    Command erase = timing.begin();
    erase.eraseBlock(1, 1);
    erase.complete();
    InternalTimeline internal = timing.internalReads(0);
    for (int i = 0; i < 5; i++) {
      internal.readPage(i % 2, i % 2);
    }
    timing.executionDone(0, internal.doneNanos(), 3_000_000);

    DeviceEnergy e = timing.statistics(0, energy).energy();
    // 3 ms x 75 mW; 8 pages read x 2 uJ; 4 programmed x 30 uJ; 1 erase x 100 uJ; 7,064 bytes x 0.5 nJ.
    assertEquals(new DeviceEnergy(3_000_000, 225_000, 16_000, 120_000, 100_000, 3_532), e);
    assertEquals(225_000 + 16_000 + 120_000 + 100_000 + 3_532, e.totalNanojoules());
    // And from the parameters' own closed forms, as anything else that priced the same counts would.
    assertEquals(Math.round(ENERGY.deviceCoreJoules(3_000_000) * 1e9), e.coreNanojoules());
    assertEquals(Math.round(ENERGY.flashJoules(8, 4, 1) * 1e9), e.flashNanojoules());
    assertEquals(Math.round(ENERGY.linkJoules(7_064) * 1e9), e.linkNanojoules());
  }

  @Test
  void theCountsArePricedWholeSoTheAccountDoesNotDrift() {
    // 100,000 one-byte commands at 0.5 nJ a byte: priced one by one and rounded, each would be 0 or 1 nJ.
    for (int i = 0; i < 100_000; i++) {
      Command c = timing.begin();
      c.transferIn(1);
      c.complete();
    }
    assertEquals(50_000, timing.statistics(0, energy).energy().linkNanojoules());
  }

  @Test
  void executionsAddTheirCoresCompute() {
    timing.executionDone(0, 1_000, 400);
    timing.executionDone(500, 2_000, 600); // overlapping in time: both computed
    DeviceEnergy e = timing.statistics(0, energy).energy();
    assertEquals(1_000, e.coreBusyNanos());
    assertEquals(75, e.coreNanojoules()); // 1 us x 75 mW
    assertEquals(0, e.flashNanojoules() + e.linkNanojoules());
  }

  @Test
  void withoutAnEnergyModelTheStatisticsCarryNoAccount() {
    DeviceStatistics s = timing.statistics(0);
    assertNull(s.energy());
  }
}
