package org.smartssd.device.tasklet.builtin;

/**
 * An item found near a query: its id and the Hamming distance of its code from the query's.
 * Neighbours are ordered by distance, then by id (unsigned), so that a top T is one exact list.
 */
public record Neighbour(long id, int distance) implements Comparable<Neighbour> {

  @Override
  public int compareTo(Neighbour o) {
    return TopLists.before(distance, id, o.distance, o.id) ? -1 : equals(o) ? 0 : 1;
  }
}
