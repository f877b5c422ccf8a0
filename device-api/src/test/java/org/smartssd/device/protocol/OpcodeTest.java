package org.smartssd.device.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OpcodeTest {

  /** The codes of PROTOCOL.md, written out again so that a changed code fails here. */
  private static final Map<Opcode, Integer> DOCUMENTED = Map.ofEntries(
      Map.entry(Opcode.API_VERSIONS, 0x0001), Map.entry(Opcode.DEVICE_INFO, 0x0002),
      Map.entry(Opcode.STATISTICS, 0x0003), Map.entry(Opcode.SHUTDOWN, 0x0004),
      Map.entry(Opcode.AUTH_CHALLENGE, 0x0005), Map.entry(Opcode.AUTHENTICATE, 0x0006),
      Map.entry(Opcode.IDENTIFY, 0x0007), Map.entry(Opcode.SET_PERMISSION, 0x001D), Map.entry(Opcode.SET_OWNER, 0x001E),
      Map.entry(Opcode.SET_TIMES, 0x001F),
      Map.entry(Opcode.MKDIRS, 0x0010), Map.entry(Opcode.CREATE, 0x0011), Map.entry(Opcode.APPEND, 0x0012),
      Map.entry(Opcode.WRITE, 0x0013), Map.entry(Opcode.FLUSH, 0x0014), Map.entry(Opcode.SYNC, 0x0015),
      Map.entry(Opcode.CLOSE, 0x0016), Map.entry(Opcode.OPEN, 0x0017), Map.entry(Opcode.READ, 0x0018),
      Map.entry(Opcode.STATUS, 0x0019), Map.entry(Opcode.LIST, 0x001A), Map.entry(Opcode.RENAME, 0x001B),
      Map.entry(Opcode.DELETE, 0x001C), Map.entry(Opcode.CREATE_OBJECT, 0x0020),
      Map.entry(Opcode.EXECUTE_OBJECT, 0x0021), Map.entry(Opcode.READ_OBJECT, 0x0022),
      Map.entry(Opcode.CANCEL, 0x0023), Map.entry(Opcode.REMOVE_OBJECT, 0x0024));

  @Test
  void codesAreTheDocumentedOnes() {
    assertEquals(DOCUMENTED.keySet(), Set.of(Opcode.values()));
    for (Opcode op : Opcode.values()) {
      assertEquals(DOCUMENTED.get(op), op.code(), op.name());
    }
  }

  @Test
  void codesAreUniqueAndFitAU16() {
    Set<Integer> codes = new HashSet<>();
    for (Opcode op : Opcode.values()) {
      assertTrue(codes.add(op.code()), "duplicate code of " + op);
      assertTrue(op.code() > 0 && op.code() <= 0xFFFF, op + " code out of range");
    }
  }

  @Test
  void fromCodeRoundTripsAndRejectsUnknownCodes() {
    for (Opcode op : Opcode.values()) {
      assertEquals(Optional.of(op), Opcode.fromCode(op.code()));
    }
    assertEquals(Optional.empty(), Opcode.fromCode(0));
    assertEquals(Optional.empty(), Opcode.fromCode(0x0008));
    assertEquals(Optional.empty(), Opcode.fromCode(0x000F));
    assertEquals(Optional.empty(), Opcode.fromCode(0x0025));
    assertEquals(Optional.empty(), Opcode.fromCode(0xFFFF));
    assertEquals(Optional.empty(), Opcode.fromCode(-1));
  }

  @Test
  void everyRequestTypeBelongsToExactlyOneOpcode() throws ReflectiveOperationException {
    Set<Class<?>> requestTypes = Arrays.stream(Opcode.values()).map(Opcode::requestType).collect(Collectors.toSet());
    assertEquals(Set.of(Request.class.getPermittedSubclasses()), requestTypes);
    assertEquals(Opcode.values().length, requestTypes.size());
    for (FrameVectors.Vector v : FrameVectors.ALL) {
      if (v.isRequest()) {
        Request r = (Request) v.message();
        assertEquals(r.opcode().requestType(), r.getClass(), "opcode() of " + r.getClass().getSimpleName());
      }
    }
  }

  @Test
  void everyResponseTypeButErrorAnswersSomeOpcode() {
    Set<Class<?>> answering = Arrays.stream(Opcode.values()).map(Opcode::responseType).collect(Collectors.toSet());
    Set<Class<?>> all = new HashSet<>(Set.of(Response.class.getPermittedSubclasses()));
    all.remove(Response.Error.class);
    assertEquals(all, answering);
  }
}
