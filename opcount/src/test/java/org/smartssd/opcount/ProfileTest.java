package org.smartssd.opcount;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.smartssd.opcount.fixtures.Calls;
import org.smartssd.opcount.fixtures.Kernels;

class ProfileTest {
  private static final String CALLS = Calls.class.getName();

  @Test
  void profilingChangesNoCountAndItsTreeAddsUpToTheMeters() throws Exception {
    Class<?> k = InstrumenterTest.instrumented(Kernels.class);
    Method mixed = k.getMethod("mixed", long.class, double.class, int.class);
    Object instance = k.getConstructor(long.class).newInstance(5L);
    OpCounts plain = InstrumenterTest.counted(() -> mixed.invoke(instance, 3L, 2.5, 1000));
    ProfileTree tree = new ProfileTree();
    OpCounts profiled = profiled(tree, () -> mixed.invoke(instance, 3L, 2.5, 1000));
    assertThat(profiled).isEqualTo(plain);
    assertThat(tree.total()).isEqualTo(plain);
    assertThat(paths(tree)).containsKey(Kernels.class.getName() + ".mixed");
  }

  @Test
  void workGoesToTheCallPathItWasDoneOnEvenAfterAThrowCaughtTwoMethodsUp() throws Exception {
    Method outer = InstrumenterTest.instrumented(Calls.class).getMethod("outer", int.class);
    ProfileTree tree = new ProfileTree();
    OpCounts counted = profiled(tree, () -> outer.invoke(null, 10));
    assertThat(tree.total()).isEqualTo(counted);
    Map<String, OpCounts> paths = paths(tree);
    String o = CALLS + ".outer";
    assertThat(paths).containsOnlyKeys(o, o + ";" + CALLS + ".inner", o + ";" + CALLS + ".inner;" + CALLS + ".leaf",
        o + ";" + CALLS + ".thrower", o + ";" + CALLS + ".thrower;" + CALLS + ".deeper", o + ";" + CALLS + ".leaf");
    // leaf: iload, iconst_3, imul, iconst_1, iadd, ireturn; twice per inner, once per catch, 10 times each
    assertThat(paths.get(o + ";" + CALLS + ".inner;" + CALLS + ".leaf").ops()).isEqualTo(20 * 6);
    assertThat(paths.get(o + ";" + CALLS + ".leaf").ops()).isEqualTo(10 * 6);
    // deeper: iload, iflt / new, dup, ldc, invokespecial, athrow, counted where it threw
    assertThat(paths.get(o + ";" + CALLS + ".thrower;" + CALLS + ".deeper").ops()).isEqualTo(10 * 7);
    assertThat(paths.get(o + ";" + CALLS + ".thrower;" + CALLS + ".deeper").libraryCalls()).isEqualTo(10);
  }

  @Test
  void pathsPastTheBoundsAreKeptPerMethodAndStillAddUp() throws Exception {
    Method recurse = InstrumenterTest.instrumented(Calls.class).getMethod("recurse", int.class);
    ProfileTree tree = new ProfileTree(8, 1000);
    OpCounts counted = profiled(tree, () -> recurse.invoke(null, 50));
    assertThat(tree.truncated()).isTrue();
    assertThat(tree.total()).isEqualTo(counted);
    Map<String, OpCounts> paths = paths(tree);
    assertThat(paths.keySet().stream().mapToInt(p -> p.split(";").length).max().getAsInt()).isLessThanOrEqualTo(8);
    assertThat(paths).containsKey(ProfileTree.DEEPER + ";" + CALLS + ".recurse");
    assertThat(paths).containsKey(ProfileTree.DEEPER + ";" + CALLS + ".leaf");

    ProfileTree few = new ProfileTree(96, 3);
    assertThat(profiled(few, () -> recurse.invoke(null, 50))).isEqualTo(counted);
    assertThat(few.total()).isEqualTo(counted);
    assertThat(few.truncated()).isTrue();
  }

  @Test
  void aCopyAndASumOfTreesKeepTheirWork() throws Exception {
    Method outer = InstrumenterTest.instrumented(Calls.class).getMethod("outer", int.class);
    ProfileTree a = new ProfileTree();
    OpCounts one = profiled(a, () -> outer.invoke(null, 3));
    ProfileTree sum = a.copy();
    sum.add(a);
    assertThat(a.copy().total()).isEqualTo(one);
    assertThat(sum.total()).isEqualTo(one.plus(one));
    assertThat(paths(sum).keySet()).isEqualTo(paths(a).keySet());
  }

  @Test
  void aThreadProfilesOnlyWhileTold() throws Exception {
    Method outer = InstrumenterTest.instrumented(Calls.class).getMethod("outer", int.class);
    ProfileTree tree = new ProfileTree();
    profiled(tree, () -> outer.invoke(null, 2));
    OpCounts before = tree.total();
    outer.invoke(null, 5);
    assertThat(tree.total()).isEqualTo(before);
  }

  /** Runs the call with the calling thread profiling into the tree; what its meter counted meanwhile. */
  private static OpCounts profiled(ProfileTree tree, InstrumenterTest.Call call) throws Exception {
    OpMeter m = OpMeter.current();
    OpCounts before = m.counts();
    m.startProfile(tree);
    try {
      call.run();
    } finally {
      m.stopProfile();
    }
    return m.counts().minus(before);
  }

  /** Each node's own work by its path of method names, ';' between them. */
  static Map<String, OpCounts> paths(ProfileTree tree) {
    Map<String, OpCounts> paths = new HashMap<>();
    tree.walk((path, depth, own, flat) -> {
      StringBuilder b = new StringBuilder(flat ? ProfileTree.DEEPER : "");
      for (int i = 0; i < depth; i++) {
        b.append(b.length() > 0 ? ";" : "").append(MethodNames.name(path[i]));
      }
      paths.merge(b.toString(), own, OpCounts::plus);
    });
    return paths;
  }
}
