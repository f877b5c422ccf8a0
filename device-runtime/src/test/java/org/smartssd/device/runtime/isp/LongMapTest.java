package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** LongMap against HashMap, with the keys the cutters use: offsets at page boundaries and record starts. */
class LongMapTest {

  @Test
  void agreesWithHashMapUnderRandomPutsAndRemoves() {
    for (long seed = 0; seed < 20; seed++) {
      Random random = new Random(seed);
      LongMap<String> map = new LongMap<>();
      Map<Long, String> oracle = new HashMap<>();
      int stride = random.nextBoolean() ? 8192 : 20; // page boundaries, or 20-byte record starts
      for (int step = 0; step < 20_000; step++) {
        long key = (long) random.nextInt(3000) * stride;
        switch (random.nextInt(3)) {
          case 0 -> assertEquals(oracle.put(key, "v" + step), map.put(key, "v" + step), "put " + key);
          case 1 -> assertEquals(oracle.remove(key), map.remove(key), "remove " + key);
          default -> assertEquals(oracle.get(key), map.get(key), "get " + key);
        }
        assertEquals(oracle.size(), map.size());
      }
      long[] keys = map.keys();
      Arrays.sort(keys);
      assertArrayEquals(oracle.keySet().stream().mapToLong(Long::longValue).sorted().toArray(), keys);
      for (Map.Entry<Long, String> e : oracle.entrySet()) {
        assertEquals(e.getValue(), map.get(e.getKey()));
      }
    }
  }

  @Test
  void emptiesCompletely() {
    LongMap<Integer> map = new LongMap<>(2);
    for (int i = 0; i < 1000; i++) {
      map.put(i * 8192L, i);
    }
    for (int i = 0; i < 1000; i++) {
      assertEquals(i, map.remove(i * 8192L));
    }
    assertEquals(0, map.size());
    for (int i = 0; i < 1000; i++) {
      assertNull(map.get(i * 8192L));
    }
  }

  @Test
  void refusesTheReservedKeyAndNullValues() {
    LongMap<String> map = new LongMap<>();
    assertThrows(IllegalArgumentException.class, () -> map.put(Long.MIN_VALUE, "x"));
    assertThrows(IllegalArgumentException.class, () -> map.put(1, null));
  }
}
