package org.smartssd.examples.mining;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Apriori's map for a pass: each transaction (a text line of item ids, whitespace between) gives
 * (itemset, 1) for every candidate itemset of the pass it contains; in the first pass, for every item.
 * An itemset is written as its items ascending, a space between ({@code 3 17 42}).
 */
public class AprioriMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
  private static final IntWritable ONE = new IntWritable(1);

  private Candidates candidates;
  private int[] items = new int[64];
  private byte[] keyBytes = new byte[64];
  private final Text key = new Text();

  @Override
  protected void setup(Context context) {
    candidates = Candidates.of(context.getConfiguration());
  }

  @Override
  protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
    int n = parse(offset, line);
    if (candidates.pass() == 1) {
      for (int i = 0; i < n; i++) {
        key.set(keyBytes, 0, append(0, -1, items[i]));
        context.write(key, ONE);
      }
      return;
    }
    candidates.contained(items, n, c -> {
      int length = 0;
      for (int j = 0; j < candidates.pass(); j++) {
        length = append(length, j == 0 ? -1 : ' ', candidates.item(c, j));
      }
      key.set(keyBytes, 0, length);
      context.write(key, ONE);
    });
  }

  /** Appends a separator (unless -1) and a number's digits to the key's bytes; the new length. */
  private int append(int length, int separator, int value) {
    if (keyBytes.length < length + 12) {
      keyBytes = Arrays.copyOf(keyBytes, 2 * keyBytes.length + 12);
    }
    if (separator >= 0) {
      keyBytes[length++] = (byte) separator;
    }
    int digits = 1;
    for (int v = value; v >= 10; v /= 10) {
      digits++;
    }
    for (int i = digits - 1, v = value; i >= 0; i--, v /= 10) {
      keyBytes[length + i] = (byte) ('0' + v % 10);
    }
    return length + digits;
  }

  /** The line's distinct items, ascending, into {@link #items}; how many. */
  private int parse(LongWritable offset, Text line) throws IOException {
    byte[] b = line.getBytes();
    int n = 0;
    long value = -1;
    for (int i = 0; i <= line.getLength(); i++) {
      int c = i < line.getLength() ? b[i] : ' ';
      if (c >= '0' && c <= '9') {
        value = (value < 0 ? 0 : value) * 10 + (c - '0');
        if (value > Integer.MAX_VALUE) {
          throw new IOException("the transaction at byte " + offset.get() + " has an item id past " + Integer.MAX_VALUE);
        }
      } else if (c == ' ' || c == '\t') {
        if (value >= 0) {
          if (n == items.length) {
            items = Arrays.copyOf(items, 2 * n);
          }
          items[n++] = (int) value;
          value = -1;
        }
      } else {
        throw new IOException("the transaction at byte " + offset.get() + " holds '" + (char) c
            + "': a transaction is item ids (whole numbers) separated by spaces");
      }
    }
    Arrays.sort(items, 0, n);
    int distinct = 0;
    for (int i = 0; i < n; i++) {
      if (distinct == 0 || items[i] != items[distinct - 1]) {
        items[distinct++] = items[i];
      }
    }
    return distinct;
  }
}
