package org.smartssd.examples.loganalysis;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;
import org.smartssd.device.tasklet.builtin.GroupedSum;
import org.smartssd.objectfs.DeviceClients;
import org.smartssd.objectfs.ObjectFileSystem;

/**
 * The analysis as the device's own firmware would run it ({@link Mode#DEVICE_BUILTIN}): the built-in
 * {@link GroupedSum} tasklet counts the records by a key field in each device file, the devices' controllers
 * add up their lanes' counts, and the host adds up the devices' and decodes the keys. No Hadoop job and no
 * job code: the bound the unchanged job in device mode is measured against, as the Smart SSD's source ran
 * its tasklets as compiled code.
 *
 * <p>The keys: for regions, the server byte shifted right by 5 (its top three bits, the region); for top
 * types, the type byte and the server byte read as one big-endian 16-bit field shifted right by 5, that is
 * {@code type << 3 | region}.
 */
final class BuiltInAnalysis {
  private BuiltInAnalysis() {}

  /** Runs a scenario over the inputs (objfs files or directories of them) and measures it. */
  static MeasuredJob.Measurement<AnalysisResult> run(Configuration conf, Scenario scenario, List<Path> inputs,
      int recordBytes) throws IOException, InterruptedException {
    Map<String, List<String>> filesByDevice = filesByDevice(conf, inputs);
    Map<String, String> parameters = parameters(scenario, recordBytes);
    return MeasuredJob.run(conf, inputs, () -> {
      DeviceExecutions executions = new DeviceExecutions();
      long[][] counts = new long[RecordFields.REGIONS][RecordFields.TYPES];
      for (Map.Entry<String, List<String>> device : filesByDevice.entrySet()) {
        try (SocketDeviceClient client = SocketDeviceClient.connect(DeviceAddress.parse(device.getKey()),
            DeviceClients.clientOptions(conf))) {
          long tasklet = client.createObject(ByteBuffer.allocate(0), GroupedSum.class.getName(), parameters);
          try {
            List<InputRange> ranges = device.getValue().stream().map(InputRange::whole).toList();
            List<TaskletResult> results = executions.run(client, tasklet, ranges, Map.of("merge", "device"),
                "the built-in " + GroupedSum.class.getSimpleName());
            add(scenario, GroupedSum.sums(results), counts, device.getKey());
          } finally {
            client.removeObject(tasklet);
          }
        }
      }
      return new MeasuredJob.Done<>(AnalysisResult.fromCounts(scenario, counts), executions.statistics(),
          executions.profiles());
    });
  }

  /** The tasklet's parameters: the key field of the scenario in records of {@code recordBytes}. */
  static Map<String, String> parameters(Scenario scenario, int recordBytes) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("record-length", Integer.toString(recordBytes));
    if (scenario == Scenario.REGIONS) {
      p.put("key-offset", Integer.toString(RecordFields.SERVER_OFFSET));
      p.put("key-length", "1");
    } else {
      p.put("key-offset", Integer.toString(RecordFields.TYPE_OFFSET)); // the type byte, then the server byte
      p.put("key-length", "2");
    }
    p.put("key-shift", "5");
    return p;
  }

  /** Adds a device's sums by key to the counts by region and type; a key no valid record has fails the run. */
  static void add(Scenario scenario, Map<Long, Long> sums, long[][] counts, String device) throws IOException {
    for (Map.Entry<Long, Long> e : sums.entrySet()) {
      long key = e.getKey();
      int region = (int) (scenario == Scenario.REGIONS ? key : key & 7);
      int type = scenario == Scenario.REGIONS ? 0 : (int) (key >>> 3);
      if (region >= RecordFields.REGIONS || type >= RecordFields.TYPES) {
        throw new IOException("the device " + device + " counted " + e.getValue() + " record(s) with "
            + (region >= RecordFields.REGIONS ? "server byte region " + region + " (regions are 0-3)"
                : "file type " + type + " (types are 0-12)") + ": not a trace of valid records");
      }
      counts[region][type] = Math.addExact(counts[region][type], e.getValue());
    }
  }

  /** The files of the inputs by device ({@code HOST:PORT}), each a path on its device; refuses what it cannot run. */
  private static Map<String, List<String>> filesByDevice(Configuration conf, List<Path> inputs) throws IOException {
    Map<String, List<String>> byDevice = new LinkedHashMap<>();
    CompressionCodecFactory codecs = new CompressionCodecFactory(conf);
    for (Path input : inputs) {
      FileSystem fs = input.getFileSystem(conf);
      Path qualified = fs.makeQualified(input);
      if (!ObjectFileSystem.SCHEME.equals(qualified.toUri().getScheme())) {
        throw new IllegalArgumentException("mode " + Mode.DEVICE_BUILTIN.optionName() + " runs in the devices: its input "
            + qualified + " is not on one (an objfs:// path)");
      }
      List<FileStatus> files = new ArrayList<>();
      FileStatus status = fs.getFileStatus(qualified);
      if (status.isDirectory()) {
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(qualified, true);
        while (it.hasNext()) {
          LocatedFileStatus f = it.next();
          String name = f.getPath().getName();
          if (!name.startsWith("_") && !name.startsWith(".")) {
            files.add(f);
          }
        }
      } else {
        files.add(status);
      }
      for (FileStatus f : files) {
        if (codecs.getCodec(f.getPath()) != null) {
          throw new IllegalArgumentException("mode " + Mode.DEVICE_BUILTIN.optionName() + " reads records as they are "
              + "stored; " + f.getPath() + " is compressed (the built-in tasklet does not decompress)");
        }
        if (f.getLen() > 0) {
          byDevice.computeIfAbsent(f.getPath().toUri().getAuthority(), a -> new ArrayList<>())
              .add(f.getPath().toUri().getPath());
        }
      }
    }
    return byDevice;
  }
}
