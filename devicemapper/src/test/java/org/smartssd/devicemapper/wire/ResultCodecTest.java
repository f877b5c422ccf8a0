package org.smartssd.devicemapper.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.mapreduce.Counters;
import org.junit.jupiter.api.Test;

/** The result records between a tasklet and the host: pairs in batches, and counters. */
class ResultCodecTest {

  @Test
  void pairsGoOutInBatchesOfAboutTheGivenSizeAndComeBackWhole() throws Exception {
    List<byte[]> emitted = new ArrayList<>();
    ResultCodec.PairBatcher batcher = new ResultCodec.PairBatcher(100);
    batcher.add(bytes("kept"), 0, 4, bytes("until a sink"), 0, 12); // no sink yet: held
    batcher.sink(result -> {
      byte[] copy = new byte[result.remaining()];
      result.get(copy);
      emitted.add(copy);
    });
    List<String> sent = new ArrayList<>(List.of("kept=until a sink"));
    for (int i = 0; i < 50; i++) {
      byte[] key = bytes("key" + i);
      byte[] value = bytes("value-" + "x".repeat(i));
      batcher.add(key, 0, key.length, value, 0, value.length);
      sent.add("key" + i + "=value-" + "x".repeat(i));
    }
    batcher.flush();
    batcher.flush(); // nothing more

    List<String> received = new ArrayList<>();
    for (byte[] record : emitted) {
      assertThat(record.length).isLessThan(100 + 80);
      ResultCodec.PairCursor pairs = new ResultCodec.PairCursor(record, 0, record.length);
      while (pairs.next()) {
        received.add(new String(pairs.data(), pairs.keyOffset, pairs.keyLength, StandardCharsets.UTF_8) + "="
            + new String(pairs.data(), pairs.valueOffset, pairs.valueLength, StandardCharsets.UTF_8));
      }
    }
    assertThat(emitted.size()).isGreaterThan(5);
    assertThat(received).isEqualTo(sent);
  }

  @Test
  void aTruncatedRecordIsAnError() throws Exception {
    List<byte[]> emitted = new ArrayList<>();
    ResultCodec.PairBatcher batcher = new ResultCodec.PairBatcher(1 << 10);
    batcher.sink(result -> emitted.add(ByteBuffer.allocate(result.remaining()).put(result).array()));
    batcher.add(bytes("key"), 0, 3, bytes("value"), 0, 5);
    batcher.flush();
    byte[] record = emitted.get(0);
    ResultCodec.PairCursor cut = new ResultCodec.PairCursor(record, 0, record.length - 2);
    assertThatThrownBy(cut::next).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> new ResultCodec.PairCursor(bytes("C"), 0, 1)).isInstanceOf(IOException.class);
  }

  /** A job's counter enum. */
  enum Lines { LINES }

  @Test
  void countersTravelByGroupAndName() throws Exception {
    Counters counters = new Counters();
    assertThat(ResultCodec.counters(counters)).isNull();
    counters.findCounter(Lines.LINES).increment(42);
    counters.findCounter("my group", "my counter").increment(-3);
    counters.findCounter("my group", "zero");
    byte[] record = ResultCodec.counters(counters);
    assertThat(ResultCodec.readCounters(record, 0, record.length)).containsExactlyInAnyOrder(
        new ResultCodec.CounterValue(Lines.class.getName(), "LINES", 42),
        new ResultCodec.CounterValue("my group", "my counter", -3));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
