package org.smartssd.examples.wc98;

import java.io.IOException;

/** Takes records one at a time: a trace writer, a statistics collector, a list in a test. */
@FunctionalInterface
public interface RecordSink {
  void accept(Wc98Record record) throws IOException;
}
