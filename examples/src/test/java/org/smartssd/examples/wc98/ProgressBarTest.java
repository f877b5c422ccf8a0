package org.smartssd.examples.wc98;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressBarTest {

  @Test
  void drawsTheLine() {
    assertEquals("[############..................]  43% 3,000,000/7,000,000 records",
        ProgressBar.line(3_000_000, 7_000_000, "records"));
    assertEquals("[##############################] 100% 0/0 records", ProgressBar.line(0, 0, "records"));
  }

  @Test
  void redrawsAtMostEvery200MillisecondsButAlwaysAtTheEnd() {
    StringWriter text = new StringWriter();
    long[] now = {0};
    ProgressBar bar = new ProgressBar(new PrintWriter(text), 100, "records", () -> now[0]);
    bar.accept(10); // first: drawn
    now[0] += 100_000_000L;
    bar.accept(20); // 100 ms later: not drawn
    now[0] += 100_000_000L;
    bar.accept(30); // 200 ms after the first: drawn
    bar.accept(100); // the end: drawn at once
    bar.finish();
    String[] draws = text.toString().split("\r", -1);
    assertEquals(4, draws.length, text.toString());
    assertEquals(ProgressBar.line(30, 100, "records"), draws[2]);
    assertEquals(ProgressBar.line(100, 100, "records") + System.lineSeparator(), draws[3]);
  }

  @Test
  void finishPrintsNothingWhenNothingWasDrawn() {
    StringWriter text = new StringWriter();
    new ProgressBar(new PrintWriter(text), 100, "records").finish();
    assertEquals("", text.toString());
  }
}
