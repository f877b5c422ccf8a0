package org.smartssd.examples.loganalysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

  private static Map<String, Object> sample() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", "a \"b\"\n");
    m.put("n", 3L);
    m.put("x", 0.5);
    m.put("nan", Double.NaN);
    m.put("list", List.of(1, true));
    m.put("empty", Map.of());
    return m;
  }

  @Test
  void indentedAndOnOneLine() {
    assertEquals("{\n  \"name\": \"a \\\"b\\\"\\n\",\n  \"n\": 3,\n  \"x\": 0.5,\n  \"nan\": null,\n  \"list\": [\n"
        + "    1,\n    true\n  ],\n  \"empty\": {}\n}\n", Json.write(sample()));
    assertEquals("{\"name\": \"a \\\"b\\\"\\n\",\"n\": 3,\"x\": 0.5,\"nan\": null,\"list\": [1,true],\"empty\": {}}",
        Json.writeLine(sample()));
  }
}
