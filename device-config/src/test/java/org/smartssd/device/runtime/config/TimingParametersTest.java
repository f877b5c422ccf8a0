package org.smartssd.device.runtime.config;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TimingParametersTest {

  @Test
  void acceptsPositiveValuesAndAnIdealCommandCost() {
    assertDoesNotThrow(() -> new TimingParameters(1, 1, 1, 1.5, 1.5, 0, true));
  }

  @Test
  void rejectsWhatCannotBeATime() {
    assertThrows(IllegalArgumentException.class, () -> new TimingParameters(0, 1, 1, 1, 1, 1, true));
    assertThrows(IllegalArgumentException.class, () -> new TimingParameters(1, -1, 1, 1, 1, 1, true));
    assertThrows(IllegalArgumentException.class, () -> new TimingParameters(1, 1, 0, 1, 1, 1, true));
    assertThrows(IllegalArgumentException.class, () -> new TimingParameters(1, 1, 1, 0, 1, 1, true));
    assertThrows(IllegalArgumentException.class, () -> new TimingParameters(1, 1, 1, Double.NaN, 1, 1, true));
    assertThrows(IllegalArgumentException.class, () -> new TimingParameters(1, 1, 1, 1, Double.POSITIVE_INFINITY, 1, true));
    assertThrows(IllegalArgumentException.class, () -> new TimingParameters(1, 1, 1, 1, 1, -1, true));
  }
}
