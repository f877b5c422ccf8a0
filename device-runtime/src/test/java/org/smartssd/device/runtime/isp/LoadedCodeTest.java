package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.smartssd.device.tasklet.builtin.RecordCounter;

/** The bound, the order entries go in, and forgetting. */
class LoadedCodeTest {
  private static LoadedTasklet tasklet() {
    return new LoadedTasklet(RecordCounter.class.getName(), RecordCounter.class, false,
        LoadedCodeTest.class.getClassLoader());
  }

  @Test
  void theLeastRecentlyUsedGoesFirstPastTheBound() {
    LoadedCode code = new LoadedCode(2);
    LoadedTasklet a = tasklet();
    LoadedTasklet b = tasklet();
    LoadedTasklet c = tasklet();
    code.put("a", a);
    code.put("b", b);
    assertSame(a, code.get("a")); // a is now the more recently used
    code.put("c", c);
    assertEquals(2, code.size());
    assertNull(code.get("b"), "the least recently used went");
    assertSame(a, code.get("a"));
    assertSame(c, code.get("c"));
  }

  @Test
  void forgettingDropsEveryEntryOfTheTasklet() {
    LoadedCode code = new LoadedCode(4);
    LoadedTasklet a = tasklet();
    LoadedTasklet b = tasklet();
    code.put("a1", a);
    code.put("a2", a);
    code.put("b", b);
    code.forget(a);
    assertNull(code.get("a1"));
    assertNull(code.get("a2"));
    assertSame(b, code.get("b"));
  }

  @Test
  void noneAreKeptWithABoundOfZero() {
    LoadedCode code = new LoadedCode(0);
    code.put("a", tasklet());
    assertEquals(0, code.size());
    assertNull(code.get("a"));
  }
}
