package org.smartssd.device.runtime.isp;

import java.util.ArrayList;
import java.util.List;
import org.smartssd.device.WorkProfile;
import org.smartssd.opcount.MethodNames;
import org.smartssd.opcount.OpCounts;
import org.smartssd.opcount.ProfileTree;

/** A thread's counted work by call path ({@link ProfileTree}) as the protocol carries it ({@link WorkProfile}). */
public final class WorkProfiles {
  private WorkProfiles() {}

  /**
   * The tree's work by path of method names: its root's own work (counted outside every counted method)
   * under {@link WorkProfile#OUTSIDE}, work past its bounds under {@link WorkProfile#DEEPER} and its method.
   */
  public static WorkProfile of(ProfileTree tree) {
    WorkProfile.Builder b = new WorkProfile.Builder();
    tree.walk((path, depth, own, flat) -> {
      List<String> names = new ArrayList<>(depth + 1);
      if (flat) {
        names.add(WorkProfile.DEEPER);
      } else if (depth == 0) {
        names.add(WorkProfile.OUTSIDE);
      }
      for (int i = 0; i < depth; i++) {
        names.add(MethodNames.name(path[i]));
      }
      b.add(names, work(own));
    });
    return b.build(tree.truncated());
  }

  static WorkProfile.Work work(OpCounts c) {
    return new WorkProfile.Work(c.ops(), c.memoryAccesses(), c.libraryCalls(), c.bulkBytes(), c.libraryReads());
  }
}
