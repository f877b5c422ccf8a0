package org.smartssd.examples.wc98;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Hand-made records and files for the tests. */
final class Wc98Fixtures {
  /** 30/Apr/1998:21:30:17 GMT, the time of docs/WC98.md's text example. */
  static final long EXAMPLE_TIME = 893_971_817L;

  private Wc98Fixtures() {}

  /** Records covering every region, type and method, in time order. */
  static List<Wc98Record> sample(int count) {
    List<Wc98Record> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Region region = Region.values()[i % Region.values().length];
      FileType type = FileType.values()[i % FileType.values().length];
      Method method = Method.values()[i % Method.values().length];
      int status = i % 5 == 0 ? 304 : 200;
      long size = status == 304 ? Wc98Record.SIZE_NONE : 100 + i;
      records.add(Wc98Record.of(EXAMPLE_TIME + i, 1000 + i % 7, i % 11, size, method, HttpVersion.HTTP_1_0, status,
          type, region, i % 32));
    }
    return records;
  }

  static byte[] bytes(List<Wc98Record> records) {
    ByteBuffer buffer = ByteBuffer.allocate(records.size() * Wc98Record.BYTES);
    records.forEach(r -> r.write(buffer));
    return buffer.array();
  }

  static Path write(Path file, List<Wc98Record> records) throws IOException {
    return Files.write(file, bytes(records));
  }

  static List<Wc98Record> readAll(Path file) throws IOException {
    List<Wc98Record> out = new ArrayList<>();
    try (Wc98Reader reader = Wc98Reader.open(file)) {
      reader.forEach(out::add);
    }
    return out;
  }
}
