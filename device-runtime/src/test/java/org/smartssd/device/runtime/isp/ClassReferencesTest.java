package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.smartssd.device.runtime.isp.ClassReferences.MemberRef;

class ClassReferencesTest {

  /** Long and double constants take two pool entries each: everything after them must still be read right. */
  static final class Constants {
    long big = 1234567890123L;
    double huge = 3.5e300;
    java.io.File[][] grid;

    String after() {
      return Objects.toString(big) + huge;
    }
  }

  @Test
  void readsClassesAndMembersPastLongAndDoubleConstants() throws IOException {
    ClassReferences refs = ClassReferences.read(bytesOf(Constants.class));
    assertEquals("org/smartssd/device/runtime/isp/ClassReferencesTest$Constants", refs.className());
    assertTrue(refs.majorVersion() >= 61, "major " + refs.majorVersion());
    assertTrue(refs.classes().contains("java/lang/Object"), refs.classes().toString());
    assertTrue(refs.members().contains(
        new MemberRef("java/util/Objects", "toString", "(Ljava/lang/Object;)Ljava/lang/String;", true)),
        refs.members().toString());
    assertTrue(refs.members().contains(new MemberRef(refs.className(), "big", "J", false)), refs.members().toString());
  }

  /** Calls on arrays: javac names the array type as the method's owner. */
  static final class Arrays2 {
    int[] copy(int[] a) {
      return a.clone();
    }

    String[] copy(String[] a) {
      return a.clone();
    }
  }

  @Test
  void aMemberOfAnArrayTypeIsObjects() throws IOException {
    ClassReferences refs = ClassReferences.read(bytesOf(Arrays2.class));
    assertTrue(refs.members().contains(new MemberRef("java/lang/Object", "clone", "()Ljava/lang/Object;", true)),
        refs.members().toString());
    assertTrue(refs.members().stream().noneMatch(m -> m.owner() == null || m.owner().startsWith("[")),
        refs.members().toString());
    // And the policy checks such a class without failing.
    assertEquals(java.util.List.of(), TaskletPolicy.violations(refs, java.util.Set.of(refs.className())));
  }

  @Test
  void refusesWhatIsNotAClassFile() throws IOException {
    byte[] good = bytesOf(Constants.class);
    assertThrows(IllegalArgumentException.class, () -> ClassReferences.read(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
    IllegalArgumentException truncated = assertThrows(IllegalArgumentException.class,
        () -> ClassReferences.read(Arrays.copyOf(good, 40)));
    assertTrue(truncated.getMessage().contains("truncated"), truncated.getMessage());
    byte[] badTag = good.clone();
    badTag[10] = 2; // the first constant's tag: 2 is no tag
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClassReferences.read(badTag));
    assertTrue(e.getMessage().contains("unknown constant pool tag 2"), e.getMessage());
  }

  private static byte[] bytesOf(Class<?> type) throws IOException {
    String resource = "/" + type.getName().replace('.', '/') + ".class";
    try (InputStream in = type.getResourceAsStream(resource)) {
      assertNotNull(in, resource);
      return in.readAllBytes();
    }
  }
}
