package org.smartssd.devicemapper;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.smartssd.device.client.DeviceClient;
import org.smartssd.device.protocol.CodeDigest;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;

/**
 * The bytes each object command puts on the host interface, header included, as docs/PROTOCOL.md
 * lays the frames out: what {@link DeviceCounters#HOST_INTERFACE_BYTES} and
 * {@link DeviceCounters#TASKLET_INSTALL_BYTES} add up.
 */
final class FrameSizes {
  static final int HEADER = 32;
  /** An answer with just an id (CREATE_OBJECT, EXECUTE_OBJECT). */
  static final int ID_ANSWER = HEADER + 8;
  /** A request with just an id (CANCEL, REMOVE_OBJECT), and its empty answer. */
  static final int ID_REQUEST = HEADER + 8;
  static final int EMPTY_ANSWER = HEADER;
  /** READ_OBJECT: execution id, max result bytes. */
  static final int READ_OBJECT_REQUEST = HEADER + 8 + 4;
  /** READ_OBJECT's answer without message and results: state, message length, statistics, count, finished. */
  static final int READ_OBJECT_FIXED = 1 + 2 + (4 + 14 * 8) + 4 + 1;
  /** Per result record: lane (u16) and data length (u32). */
  static final int RESULT_OVERHEAD = 2 + 4;

  private FrameSizes() {}

  static long createObject(int jarBytes, String className, Map<String, String> parameters) {
    return HEADER + 4L + jarBytes + string(className) + map(parameters) + ID_ANSWER;
  }

  /**
   * What {@link DeviceClient#installTasklet} sent and received: the CREATE_OBJECT with the code's
   * digest alone, and, when the device did not keep the code, its answer and the CREATE_OBJECT with
   * the code.
   *
   * @param device the device's address, which the client puts before the device's message
   */
  static long install(int jarBytes, String className, Map<String, String> parameters, DeviceClient.Installed installed,
      String device) {
    Map<String, String> withDigest = new TreeMap<>(parameters);
    withDigest.put(CodeDigest.PARAMETER, "0".repeat(64));
    long byDigest = HEADER + 4L + string(className) + map(withDigest);
    if (!installed.codeSent()) {
      return byDigest + ID_ANSWER;
    }
    String message = installed.notKept();
    if (message.startsWith(device + ": ")) {
      message = message.substring(device.length() + 2);
    }
    return byDigest + HEADER + string(message) + createObject(jarBytes, className, withDigest);
  }

  static long executeObject(List<InputRange> inputs, Map<String, String> options) {
    long bytes = HEADER + 8 + 4;
    for (InputRange r : inputs) {
      bytes += string(r.path()) + 16;
    }
    return bytes + map(options) + ID_ANSWER;
  }

  static long readObject(Response.ExecutionProgress progress) {
    long bytes = READ_OBJECT_REQUEST + HEADER + READ_OBJECT_FIXED + utf8(progress.message());
    for (TaskletResult r : progress.results()) {
      bytes += RESULT_OVERHEAD + r.data().remaining();
    }
    return bytes;
  }

  /** CANCEL or REMOVE_OBJECT, and the answer. */
  static long idCommand() {
    return ID_REQUEST + EMPTY_ANSWER;
  }

  private static long map(Map<String, String> map) {
    long bytes = 4;
    for (Map.Entry<String, String> e : map.entrySet()) {
      bytes += string(e.getKey()) + string(e.getValue());
    }
    return bytes;
  }

  private static long string(String s) {
    return 2 + utf8(s);
  }

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
