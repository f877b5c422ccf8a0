package org.smartssd.opcount;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The names of the counted methods, by the number {@link Instrumenter} gives each as it instruments it
 * (its code passes the number to the meter as the method is entered). One table for the JVM: the same
 * name has the same number in every class loader, so that the same method of a tasklet's jar loaded
 * twice profiles as one.
 *
 * <p>A name is the class's binary name and the method's, {@code org.apache.hadoop.io.Text.set}, with
 * its parameter types where the class has several methods of that name, {@code
 * org.apache.hadoop.io.Text.set(byte[],int,int)}.
 */
public final class MethodNames {
  private static final Map<String, Integer> IDS = new HashMap<>();
  private static final List<String> NAMES = new ArrayList<>();

  private MethodNames() {}

  /** The number of a method's name, given the first time it is asked for. */
  public static synchronized int id(String name) {
    Integer id = IDS.get(name);
    if (id == null) {
      id = NAMES.size();
      NAMES.add(name);
      IDS.put(name, id);
    }
    return id;
  }

  /** The name of a number {@link #id} gave. */
  public static synchronized String name(int id) {
    if (id < 0 || id >= NAMES.size()) {
      throw new IllegalArgumentException("no counted method has number " + id);
    }
    return NAMES.get(id);
  }
}
