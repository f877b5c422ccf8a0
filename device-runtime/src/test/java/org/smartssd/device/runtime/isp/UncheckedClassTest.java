package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A class the device did not check is never defined, whatever names it: a jar's class files under
 * {@code META-INF/} or named like {@code module-info} are not read by the check, and a checked class
 * naming one (a class constant is no member reference) and handing it to an allowed member that runs
 * a class's code ({@code EnumSet.noneOf} calls an enum's {@code values()}) gets nothing.
 */
class UncheckedClassTest {

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"META-INF/Evil", "x/Evilmodule-info"})
  void aClassTheCheckDidNotReadIsNeverDefined(String hiddenName) throws Exception {
    Path marker = dir.resolve("ran.txt");
    Map<String, String> sources = new TreeMap<>();
    sources.put("evil.Evil", """
        package evil;
        public enum Evil {
          A;
          static {
            try {
              java.nio.file.Files.writeString(java.nio.file.Path.of("MARKER"), "the hidden class ran");
            } catch (Exception e) {
              throw new RuntimeException(e);
            }
          }
        }
        """.replace("MARKER", marker.toString()));
    sources.put("t.esc.EscTasklet", """
        package t.esc;
        import org.smartssd.device.tasklet.*;
        public class EscTasklet implements Tasklet {
          public EscTasklet() { java.util.EnumSet.noneOf(evil.Evil.class); }
          public void onCreate(TaskletContext context) {}
          public void onExecute(ExecutionInfo execution) {}
          public void onDataAvailable(DataChunk chunk, ResultSink results) {}
          public void onRead(ResultSink results, boolean last) {}
        }
        """);
    Map<String, byte[]> compiled = TaskletJars.compile(dir, sources);
    Map<String, byte[]> entries = new TreeMap<>();
    entries.put("t/esc/EscTasklet.class", rename(compiled.get("t/esc/EscTasklet.class"), "evil/Evil", hiddenName));
    entries.put(hiddenName + ".class", rename(compiled.get("evil/Evil.class"), "evil/Evil", hiddenName));
    TaskletLoader loader = new TaskletLoader(Map.of(), List.of(), UncheckedClassTest.class.getClassLoader());
    LoadedTasklet loaded = loader.load(TaskletJars.jar(entries), "t.esc.EscTasklet");
    TaskletRefusedException e = assertThrows(TaskletRefusedException.class, loaded::newInstance);
    assertTrue(e.getMessage().contains("t.esc.EscTasklet"), e.getMessage());
    assertFalse(Files.exists(marker), "the class the check did not read never ran");
  }

  /** Replaces {@code from} by {@code to} in every Utf8 constant of a class file. */
  static byte[] rename(byte[] classFile, String from, String to) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(in.readInt());
    out.writeShort(in.readUnsignedShort());
    out.writeShort(in.readUnsignedShort());
    int count = in.readUnsignedShort();
    out.writeShort(count);
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      out.writeByte(tag);
      switch (tag) {
        case 1 -> out.writeUTF(in.readUTF().replace(from, to));
        case 3, 4 -> out.writeInt(in.readInt());
        case 5, 6 -> { out.writeLong(in.readLong()); i++; }
        case 7, 8, 16, 19, 20 -> out.writeShort(in.readUnsignedShort());
        case 9, 10, 11, 12, 17, 18 -> { out.writeShort(in.readUnsignedShort()); out.writeShort(in.readUnsignedShort()); }
        case 15 -> { out.writeByte(in.readUnsignedByte()); out.writeShort(in.readUnsignedShort()); }
        default -> throw new IOException("tag " + tag);
      }
    }
    in.transferTo(out);
    return bytes.toByteArray();
  }
}
