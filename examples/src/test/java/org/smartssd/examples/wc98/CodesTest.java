package org.smartssd.examples.wc98;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The trace's codes are fixed forever: names, codes and the status table. */
class CodesTest {

  @Test
  void regionsHaveTheTraceCodesAndNames() {
    assertEquals(List.of("SANTA_CLARA", "PLANO", "HERNDON", "PARIS"),
        List.of(Region.values()).stream().map(Region::displayName).toList());
    for (Region r : Region.values()) {
      assertEquals(r.ordinal(), r.code());
      assertEquals(r, Region.fromCode(r.code()));
    }
    assertThrows(IllegalArgumentException.class, () -> Region.fromCode(4));
  }

  @Test
  void typesHaveTheTraceCodesAndNames() {
    assertEquals(List.of("HTML", "IMAGE", "AUDIO", "VIDEO", "JAVA", "FORMATTED", "DYNAMIC", "TEXT", "COMPRESSED",
        "PROGRAMS", "DIRECTORY", "ICL", "OTHER"), List.of(FileType.values()).stream().map(FileType::displayName).toList());
    for (FileType t : FileType.values()) {
      assertEquals(t.ordinal(), t.code());
      assertEquals(t, FileType.fromCode(t.code()));
    }
    assertThrows(IllegalArgumentException.class, () -> FileType.fromCode(13));
  }

  @Test
  void methodsAndVersionsHaveTheTraceCodes() {
    assertEquals(List.of("GET", "HEAD", "POST", "PUT", "DELETE", "TRACE", "OPTIONS", "CONNECT", "OTHER"),
        List.of(Method.values()).stream().map(Method::name).toList());
    for (Method m : Method.values()) {
      assertEquals(m, Method.fromCode(m.code()));
    }
    assertThrows(IllegalArgumentException.class, () -> Method.fromCode(9));
    assertEquals(0, HttpVersion.HTTP_0_9.code());
    assertEquals(1, HttpVersion.HTTP_1_0.code());
    assertEquals(2, HttpVersion.HTTP_1_1.code());
    assertEquals(3, HttpVersion.OTHER.code());
  }

  @Test
  void statusTableBothWays() {
    int[][] table = {{100, 0}, {101, 1}, {200, 2}, {206, 8}, {300, 9}, {304, 13}, {305, 14}, {400, 15}, {404, 19},
      {415, 30}, {500, 31}, {505, 36}};
    for (int[] row : table) {
      assertEquals(row[1], StatusCodes.index(row[0]), "index of " + row[0]);
      assertEquals(row[0], StatusCodes.code(row[1]), "code of " + row[1]);
    }
    for (int index = 0; index < StatusCodes.OTHER_INDEX; index++) {
      assertEquals(index, StatusCodes.index(StatusCodes.code(index)));
    }
    for (int code : new int[] {0, 102, 199, 207, 306, 416, 506, 599, 999}) {
      assertEquals(StatusCodes.OTHER_INDEX, StatusCodes.index(code), "index of " + code);
    }
    assertEquals(StatusCodes.UNKNOWN_CODE, StatusCodes.code(StatusCodes.OTHER_INDEX));
    assertThrows(IllegalArgumentException.class, () -> StatusCodes.code(38));
    assertThrows(IllegalArgumentException.class, () -> StatusCodes.code(-1));
  }
}
