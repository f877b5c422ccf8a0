package org.smartssd.examples.search;

import java.util.Random;
import org.smartssd.device.tasklet.builtin.HammingSearch;

/**
 * Binary codes by random projection (Charikar's SimHash: "Similarity estimation techniques from
 * rounding algorithms", STOC 2002): {@code bits} hyperplanes through the origin, each a vector of
 * independent standard Gaussian coordinates, drawn from a seed; bit i of a vector's code is 1 when the
 * vector lies on the positive side of hyperplane i (its dot product with it is 0 or more). Two vectors
 * at angle θ differ in each bit with probability θ / π, so the Hamming distance of their codes
 * estimates their angle. It stands in for the Cognitive SSD's deep hashing (a trained network that
 * maps an image to a code): no network, no training, the same kind of code.
 */
public final class SimHash {
  private final int bits;
  private final int dimensions;
  /** The hyperplanes' normals, {@link #dimensions} coordinates each. */
  private final double[] planes;

  public SimHash(int bits, int dimensions, long seed) {
    if (bits < 1 || bits > HammingSearch.MAX_BITS || dimensions < 1) {
      throw new IllegalArgumentException("SimHash of " + bits + " bits over " + dimensions + " dimensions: bits must "
          + "be between 1 and " + HammingSearch.MAX_BITS + ", dimensions 1 or more");
    }
    this.bits = bits;
    this.dimensions = dimensions;
    this.planes = new double[Math.multiplyExact(bits, dimensions)];
    Random random = new Random(seed);
    for (int i = 0; i < planes.length; i++) {
      planes[i] = random.nextGaussian();
    }
  }

  public int bits() {
    return bits;
  }

  /** The code of {@code vector} into {@code code} at {@code at} ({@code ceil(bits / 64)} words, bit 0 the first word's top). */
  public void hash(double[] vector, long[] code, int at) {
    if (vector.length != dimensions) {
      throw new IllegalArgumentException("a vector of " + vector.length + " dimensions, not " + dimensions);
    }
    int words = HammingSearch.words(bits);
    java.util.Arrays.fill(code, at, at + words, 0L);
    for (int b = 0, p = 0; b < bits; b++) {
      double dot = 0;
      for (int i = 0; i < dimensions; i++, p++) {
        dot += planes[p] * vector[i];
      }
      if (dot >= 0) {
        code[at + (b >>> 6)] |= 1L << (63 - (b & 63));
      }
    }
  }
}
