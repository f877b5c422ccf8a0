package org.smartssd.examples.wc98;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class Wc98RecordTest {

  @Test
  void roundTripsEveryFieldAtItsEdges() {
    long[] uint32s = {0, 1, 34_600, 0x7FFF_FFFFL, 0x8000_0000L, Wc98Record.UINT32_MAX};
    for (long value : uint32s) {
      for (Method method : Method.values()) {
        for (HttpVersion version : HttpVersion.values()) {
          for (FileType type : FileType.values()) {
            for (Region region : Region.values()) {
              for (int server : new int[] {0, 17, 31}) {
                Wc98Record r = Wc98Record.of(value, value, value, value, method, version, 200, type, region, server);
                Wc98Record back = roundTrip(r);
                assertEquals(r, back);
                assertEquals(value, back.timestamp());
                assertEquals(value, back.clientId());
                assertEquals(value, back.objectId());
                assertEquals(value, back.size());
                assertEquals(method, back.method());
                assertEquals(version, back.httpVersion());
                assertEquals(type, back.type());
                assertEquals(region, back.region());
                assertEquals(server, back.serverNumber());
              }
            }
          }
        }
      }
    }
  }

  @Test
  void roundTripsEveryStatusIndex() {
    for (int index = 0; index <= StatusCodes.OTHER_INDEX; index++) {
      int code = StatusCodes.code(index);
      Wc98Record r = Wc98Record.of(1, 2, 3, Wc98Record.SIZE_NONE, Method.GET, HttpVersion.OTHER, code, FileType.OTHER,
          Region.PARIS, 31);
      Wc98Record back = roundTrip(r);
      assertEquals(index, back.statusIndex());
      assertEquals(code, back.httpStatus());
      assertEquals(HttpVersion.OTHER, back.httpVersion());
      assertFalse(back.hasSize());
      assertEquals(Region.PARIS, back.region());
      assertEquals(31, back.serverNumber());
    }
  }

  @Test
  void writesTheDocumentedBigEndianLayout() {
    Wc98Record r = Wc98Record.of(0x01020304L, 0x05060708L, 0x090A0B0CL, Wc98Record.SIZE_NONE, Method.HEAD,
        HttpVersion.HTTP_1_1, 304, FileType.DIRECTORY, Region.HERNDON, 5);
    ByteBuffer buffer = ByteBuffer.allocate(Wc98Record.BYTES);
    r.write(buffer);
    byte[] expected = {
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, -1, -1, -1, -1,
      1, // HEAD
      (byte) (2 << 6 | 13), // HTTP/1.1, 304 -> index 13
      10, // DIRECTORY
      (byte) (2 << 5 | 5) // HERNDON, server 5
    };
    assertArrayEquals(expected, buffer.array());
    assertEquals(Wc98Record.BYTES, buffer.position());
  }

  @Test
  void rejectsInvalidBytes() {
    byte[] good = Wc98Fixtures.bytes(Wc98Fixtures.sample(1));
    assertInvalid(good, 19, 0x80, "region 4");
    assertInvalid(good, 19, 0xFF, "region 7");
    assertInvalid(good, 16, 9, "unknown method 9");
    assertInvalid(good, 18, 13, "unknown file type 13");
    assertInvalid(good, 17, 38, "unknown status index 38");
    assertThrows(IllegalArgumentException.class,
        () -> Wc98Record.read(ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN)));
  }

  @Test
  void rejectsOutOfRangeFields() {
    assertThrows(IllegalArgumentException.class,
        () -> new Wc98Record(-1, 0, 0, 0, Method.GET, 0, FileType.HTML, 0));
    assertThrows(IllegalArgumentException.class,
        () -> new Wc98Record(0, Wc98Record.UINT32_MAX + 1, 0, 0, Method.GET, 0, FileType.HTML, 0));
    assertThrows(IllegalArgumentException.class,
        () -> new Wc98Record(0, 0, 0, 0, Method.GET, 0, FileType.HTML, 4 << 5));
    assertThrows(IllegalArgumentException.class,
        () -> new Wc98Record(0, 0, 0, 0, Method.GET, 256, FileType.HTML, 0));
    assertThrows(IllegalArgumentException.class,
        () -> Wc98Record.of(0, 0, 0, 0, Method.GET, HttpVersion.HTTP_1_0, 200, FileType.HTML, Region.PLANO, 32));
  }

  @Test
  void printsFormatMdTextExampleByteForByte() {
    Wc98Record r = Wc98Record.of(Wc98Fixtures.EXAMPLE_TIME, 34_600, 4242, 24_736, Method.GET, HttpVersion.HTTP_1_0,
        200, FileType.IMAGE, Region.SANTA_CLARA, 3);
    // The real URL table is not available; give the example's URL to test every other field.
    UrlNaming example = (objectId, type) -> "/images/hm_bg.jpg";
    assertEquals("34600 - - [30/Apr/1998:21:30:17 +0000] \"GET /images/hm_bg.jpg HTTP/1.0\" 200 24736",
        r.toCommonLogFormat(example));
    assertEquals("34600 - - [30/Apr/1998:21:30:17 +0000] \"GET /images/obj4242.gif HTTP/1.0\" 200 24736",
        r.toCommonLogFormat());
  }

  @Test
  void printsADashForA304ForNoSizeAndForAnUnknownStatus() {
    Wc98Record notModified = Wc98Record.of(Wc98Fixtures.EXAMPLE_TIME, 1, 9, 1234, Method.GET, HttpVersion.HTTP_1_1,
        304, FileType.HTML, Region.PARIS, 0);
    assertTrue(notModified.toCommonLogFormat().endsWith("\"GET /english/obj9.html HTTP/1.1\" 304 -"),
        notModified.toCommonLogFormat());
    Wc98Record noSize = Wc98Record.of(Wc98Fixtures.EXAMPLE_TIME, 1, 5, Wc98Record.SIZE_NONE, Method.HEAD,
        HttpVersion.HTTP_1_0, 200, FileType.DIRECTORY, Region.PARIS, 0);
    assertTrue(noSize.toCommonLogFormat().endsWith("\"HEAD /obj5/ HTTP/1.0\" 200 -"), noSize.toCommonLogFormat());
    Wc98Record other = Wc98Record.of(Wc98Fixtures.EXAMPLE_TIME, 1, 7, 10, Method.POST, HttpVersion.HTTP_1_0, 599,
        FileType.DYNAMIC, Region.PARIS, 0);
    assertEquals(StatusCodes.OTHER_INDEX, other.statusIndex());
    assertTrue(other.toCommonLogFormat().endsWith("\"POST /cgi-bin/obj7?q HTTP/1.0\" - 10"), other.toCommonLogFormat());
  }

  @Test
  void formatsTimestampsInGmt() {
    Wc98Record newYear = Wc98Record.of(915_148_799L, 0, 0, 0, Method.GET, HttpVersion.HTTP_1_0, 200,
        FileType.HTML, Region.PLANO, 0);
    assertTrue(newYear.toCommonLogFormat().contains("[31/Dec/1998:23:59:59 +0000]"), newYear.toCommonLogFormat());
    Wc98Record epoch = Wc98Record.of(0, 0, 0, 0, Method.GET, HttpVersion.HTTP_1_0, 200, FileType.HTML, Region.PLANO, 0);
    assertTrue(epoch.toCommonLogFormat().contains("[01/Jan/1970:00:00:00 +0000]"), epoch.toCommonLogFormat());
  }

  @Test
  void syntheticUrlsFollowTheType() {
    UrlNaming urls = UrlNaming.synthetic();
    assertEquals("/images/obj123.gif", urls.url(123, FileType.IMAGE));
    assertEquals("/images/obj199.jpg", urls.url(199, FileType.IMAGE));
    assertEquals("/english/obj9.html", urls.url(9, FileType.HTML));
    assertEquals("/english/obj50.htm", urls.url(50, FileType.HTML));
    assertEquals("/obj5/", urls.url(5, FileType.DIRECTORY));
    assertEquals("/cgi-bin/obj7?q", urls.url(7, FileType.DYNAMIC));
    assertEquals("/audio/obj1.ram", urls.url(1, FileType.AUDIO));
    assertEquals("/java/obj1.class", urls.url(1, FileType.JAVA));
    assertEquals("/files/obj1.zip", urls.url(1, FileType.COMPRESSED));
    for (FileType t : FileType.values()) {
      assertTrue(urls.url(4_294_967_295L, t).contains("obj4294967295"), t.name());
    }
  }

  private static Wc98Record roundTrip(Wc98Record r) {
    ByteBuffer buffer = ByteBuffer.allocate(Wc98Record.BYTES);
    r.write(buffer);
    buffer.flip();
    Wc98Record back = Wc98Record.read(buffer);
    assertFalse(buffer.hasRemaining());
    return back;
  }

  private static void assertInvalid(byte[] good, int offset, int value, String expectedMessage) {
    byte[] bad = good.clone();
    bad[offset] = (byte) value;
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Wc98Record.read(ByteBuffer.wrap(bad)));
    assertTrue(e.getMessage().contains(expectedMessage), e.getMessage());
  }
}
