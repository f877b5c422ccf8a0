package org.smartssd.examples.mining;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * PageRank's map: each edge (an 8-byte record: source and destination, big-endian ints) gives its
 * destination the source's share of rank, rank[source] / outdegree[source] (fixed point, rounded down). The
 * ranks and out-degrees are read in {@code setup} from the files the job's configuration names
 * ({@link RankVector}): in a device, from the device's own flash.
 */
public class PageRankMapper extends Mapper<LongWritable, BytesWritable, IntWritable, LongWritable> {
  /** Bytes of an edge record. */
  public static final int EDGE_BYTES = 8;

  private RankVector ranks;
  private final IntWritable destination = new IntWritable();
  private final LongWritable share = new LongWritable();

  @Override
  protected void setup(Context context) throws IOException {
    ranks = RankVector.read(context.getConfiguration(), SideFile.splitPath(context.getInputSplit()));
  }

  @Override
  protected void map(LongWritable offset, BytesWritable record, Context context)
      throws IOException, InterruptedException {
    if (record.getLength() != EDGE_BYTES) {
      throw new IOException("the record at byte " + offset.get() + " has " + record.getLength() + " bytes, not an "
          + EDGE_BYTES + "-byte edge");
    }
    byte[] b = record.getBytes();
    int source = (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
    int target = (b[4] & 0xff) << 24 | (b[5] & 0xff) << 16 | (b[6] & 0xff) << 8 | (b[7] & 0xff);
    if (source < 0 || source >= ranks.nodes() || target < 0 || target >= ranks.nodes()) {
      throw new IOException("the edge at byte " + offset.get() + " is " + source + " -> " + target + ", outside the "
          + ranks.nodes() + " nodes of the rank vector");
    }
    int degree = ranks.outDegree(source);
    if (degree < 1) {
      throw new IOException("the edge at byte " + offset.get() + " leaves node " + source + ", whose out-degree is "
          + degree + " in the out-degrees file: the out-degrees are not this graph's");
    }
    destination.set(target);
    share.set(ranks.rank(source) / degree);
    context.write(destination, share);
  }
}
