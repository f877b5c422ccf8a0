package org.smartssd.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class WorkProfileTest {
  private static WorkProfile.Work w(long ops, long memory, long calls, long bulk) {
    return new WorkProfile.Work(ops, memory, calls, bulk);
  }

  private static WorkProfile sample() {
    return new WorkProfile.Builder()
        .add(List.of("a.Job.map"), w(10, 2, 1, 0))
        .add(List.of("a.Job.map", "org.apache.hadoop.io.Text.set(byte[],int,int)"), w(30, 6, 0, 40))
        .add(List.of("a.Job.map", "org.smartssd.devicemapper.tasklet.MapOutputCollector.collect"), w(50, 9, 2, 0))
        .add(List.of("org.smartssd.devicemapper.tasklet.MapReduceTasklet.onRead",
            "org.smartssd.devicemapper.tasklet.MapOutputCollector.collect"), w(7, 1, 0, 0))
        .add(List.of(WorkProfile.DEEPER, "a.Job.helper"), w(3, 0, 0, 0))
        .build(true);
  }

  @Test
  void methodsAndOwnersAddUpEveryPathsWork() {
    WorkProfile p = sample();
    assertEquals(w(100, 18, 3, 40), p.total());
    Map<String, WorkProfile.Work> methods = p.byMethod(WorkProfile.Work::ops);
    assertEquals(w(57, 10, 2, 0), methods.get("org.smartssd.devicemapper.tasklet.MapOutputCollector.collect"));
    assertEquals("org.smartssd.devicemapper.tasklet.MapOutputCollector.collect", methods.keySet().iterator().next());
    Map<String, WorkProfile.Work> owners = p.byOwner(WorkProfile::owner, WorkProfile.Work::ops);
    assertEquals(w(57, 10, 2, 0), owners.get("device mapper runtime"));
    assertEquals(w(30, 6, 0, 40), owners.get("hadoop"));
    assertEquals(w(13, 2, 1, 0), owners.get("job"));
    assertEquals("(deeper paths, per method)", WorkProfile.DEEPER);
  }

  /**
   * The folded stacks as speedscope's importer reads them (its bg-flamegraph.ts: each line
   * {@code ^(.*) (\d+)$}, the stack split on ';'), and flamegraph.pl too: every line one, frames never
   * empty, weights whole and adding up.
   */
  @Test
  void ownersGoByPackageAndTheGeneratedMapperDriverIsTheRuntimes() {
    assertEquals("hadoop", WorkProfile.owner("org.apache.hadoop.io.Text.getLength"));
    assertEquals("device mapper runtime", WorkProfile.owner("org.smartssd.devicemapper.tasklet.GroupingCollector.collect"));
    assertEquals("device mapper runtime",
        WorkProfile.owner("com.example.WordMapper$$SmartSsdMapperDriver.runMap(Object,Object,Mapper$Context)"));
    assertEquals("job", WorkProfile.owner("com.example.WordMapper.map(Object,Object,Mapper$Context)"));
    assertEquals("job", WorkProfile.owner("com.example.WordMapper$Inner.map"));
    assertEquals("built-in tasklets", WorkProfile.owner("org.smartssd.device.tasklet.builtin.Grep.onData"));
  }

  @Test
  void foldedStacksParseAsSpeedscopeAndFlamegraphReadThem() {
    WorkProfile p = sample();
    String folded = p.folded(WorkProfile.Work::ops);
    Pattern line = Pattern.compile("^(.*) (\\d+)$");
    long sum = 0;
    List<String> stacks = new ArrayList<>();
    for (String l : folded.split("\n", -1)) {
      if (l.isEmpty()) {
        continue; // the file's last newline
      }
      Matcher m = line.matcher(l);
      assertTrue(m.matches(), l);
      for (String frame : m.group(1).split(";", -1)) {
        assertTrue(!frame.isEmpty() && !frame.contains(" "), "frame '" + frame + "' in " + l);
      }
      stacks.add(m.group(1));
      sum += Long.parseLong(m.group(2));
    }
    assertEquals(100, sum);
    assertEquals(5, stacks.size());
    assertTrue(stacks.contains("a.Job.map;org.apache.hadoop.io.Text.set(byte[],int,int)"), stacks.toString());
    assertTrue(stacks.contains("(deeper_paths,_per_method);a.Job.helper"), stacks.toString());
    assertTrue(folded.endsWith("\n"));
  }

  @Test
  void aProfileLessAnEarlierOneIsTheWorkBetweenAndSumsArePathByPath() {
    WorkProfile p = sample();
    WorkProfile twice = p.plus(p);
    assertEquals(w(200, 36, 6, 80), twice.total());
    assertEquals(p.nodes().size(), twice.nodes().size());
    WorkProfile later = new WorkProfile.Builder().add(List.of("a.Job.map"), w(10, 2, 1, 0))
        .add(List.of("a.Job.map", "x.Y.z"), w(5, 1, 0, 0)).build(false);
    WorkProfile earlier = new WorkProfile.Builder().add(List.of("a.Job.map"), w(4, 1, 0, 0)).build(false);
    WorkProfile between = later.minus(earlier);
    assertEquals(w(11, 2, 1, 0), between.total());
    assertEquals(List.of("a.Job.map", "x.Y.z"), between.path(1));
    assertEquals(0, later.minus(later).nodes().size(), "nothing between a profile and itself");
  }

  @Test
  void itsBytesGiveItBackAndBadBytesSayWhatIsWrong() {
    WorkProfile p = sample();
    WorkProfile back = WorkProfile.fromBytes(p.toBytes());
    assertEquals(p, back);
    assertEquals(p.encodedBytes(), p.toBytes().length);
    byte[] cut = java.util.Arrays.copyOf(p.toBytes(), p.toBytes().length - 3);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorkProfile.fromBytes(cut));
    assertTrue(e.getMessage().contains("profile.nodes"), e.getMessage());
    IllegalArgumentException order = assertThrows(IllegalArgumentException.class, () -> new WorkProfile(List.of("m"),
        List.of(new WorkProfile.Node(0, 0, w(1, 0, 0, 0))), false));
    assertTrue(order.getMessage().contains("a caller must come before its callees"), order.getMessage());
  }
}
