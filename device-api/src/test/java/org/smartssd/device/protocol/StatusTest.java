package org.smartssd.device.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NotDirectoryException;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.smartssd.device.DeviceException;

class StatusTest {

  /** PROTOCOL.md's status table: code and exception type. */
  static final Map<Status, Class<? extends IOException>> DOCUMENTED = new EnumMap<>(Map.ofEntries(
      Map.entry(Status.NOT_FOUND, FileNotFoundException.class),
      Map.entry(Status.ALREADY_EXISTS, FileAlreadyExistsException.class),
      Map.entry(Status.PARENT_NOT_DIRECTORY, NotDirectoryException.class),
      Map.entry(Status.DIRECTORY_NOT_EMPTY, DirectoryNotEmptyException.class),
      Map.entry(Status.IS_DIRECTORY, DeviceException.IsDirectory.class),
      Map.entry(Status.PAST_END, EOFException.class),
      Map.entry(Status.BAD_REQUEST, DeviceException.BadRequest.class),
      Map.entry(Status.OUT_OF_SPACE, DeviceException.OutOfSpace.class),
      Map.entry(Status.BUSY, DeviceException.Busy.class),
      Map.entry(Status.INTERNAL, DeviceException.Internal.class),
      Map.entry(Status.UNSUPPORTED_VERSION, DeviceException.UnsupportedVersion.class),
      Map.entry(Status.UNKNOWN_OPCODE, DeviceException.UnknownOpcode.class),
      Map.entry(Status.FRAME_TOO_LARGE, DeviceException.FrameTooLarge.class),
      Map.entry(Status.LEASE_CONFLICT, DeviceException.LeaseConflict.class),
      Map.entry(Status.BAD_HANDLE, DeviceException.BadHandle.class),
      Map.entry(Status.AUTH_REQUIRED, DeviceException.AuthRequired.class),
      Map.entry(Status.CORRUPT, DeviceException.Corrupt.class),
      Map.entry(Status.PERMISSION_DENIED, DeviceException.PermissionDenied.class)));

  @Test
  void codesAreZeroToEighteenInDeclarationOrder() {
    Set<Integer> codes = new HashSet<>();
    for (Status s : Status.values()) {
      assertTrue(codes.add(s.code()), "duplicate code of " + s);
      assertEquals(s.ordinal(), s.code(), s + ": PROTOCOL.md numbers them in this order");
    }
    assertEquals(19, codes.size());
  }

  @Test
  void fromCodeRoundTripsAndRejectsUnknownCodes() throws ProtocolException {
    for (Status s : Status.values()) {
      assertSame(s, Status.fromCode(s.code()));
    }
    ProtocolException e = assertThrows(ProtocolException.class, () -> Status.fromCode(19));
    assertTrue(e.getMessage().contains("19"), e.getMessage());
    assertThrows(ProtocolException.class, () -> Status.fromCode(-1));
    assertThrows(ProtocolException.class, () -> Status.fromCode(0xFFFF));
  }

  @ParameterizedTest
  @EnumSource(value = Status.class, names = "OK", mode = EnumSource.Mode.EXCLUDE)
  void everyErrorMapsToItsDocumentedException(Status status) {
    assertTrue(status.isError());
    IOException e = status.toException("127.0.0.1:7070: /x: " + status.defaultMessage());
    assertEquals(DOCUMENTED.get(status), e.getClass(), status.name());
    assertEquals("127.0.0.1:7070: /x: " + status.defaultMessage(), e.getMessage());
    assertFalse(status.defaultMessage().isBlank());
  }

  @Test
  void aCorruptStatusCarriesTheOffsetItsMessageNames() {
    DeviceException.Corrupt e = (DeviceException.Corrupt) Status.CORRUPT.toException(
        "127.0.0.1:7070: '/data/day 1.log' is corrupt at offset 8192: bytes 8192..12287 (page 2 of the file) are lost");
    assertEquals(8192, e.offset());
    assertEquals(-1, ((DeviceException.Corrupt) Status.CORRUPT.toException("no offset here")).offset());
    assertEquals(-1, ((DeviceException.Corrupt) Status.CORRUPT.toException("'/x' is corrupt at offset 99999999999999999999"))
        .offset());
  }

  @Test
  void okIsNotAnError() {
    assertFalse(Status.OK.isError());
    assertThrows(IllegalStateException.class, () -> Status.OK.toException("fine"));
    assertEquals(Status.values().length - 1, DOCUMENTED.size());
  }
}
