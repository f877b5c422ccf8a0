package org.smartssd.devicemapper;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/** A class file's constant pool being written: UTF-8 strings, classes, names and types, method references. */
final class ConstantPool {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final DataOutputStream out = new DataOutputStream(bytes);
  private final Map<String, Integer> indexes = new HashMap<>();
  private int next = 1;

  int utf8(String s) {
    return entry("U" + s, () -> {
      out.writeByte(1);
      out.writeUTF(s);
    });
  }

  int classRef(String internalName) {
    int name = utf8(internalName);
    return entry("C" + internalName, () -> {
      out.writeByte(7);
      out.writeShort(name);
    });
  }

  int methodRef(int owner, String name, String descriptor) {
    int n = utf8(name);
    int d = utf8(descriptor);
    int nameAndType = entry("N" + name + " " + descriptor, () -> {
      out.writeByte(12);
      out.writeShort(n);
      out.writeShort(d);
    });
    return entry("M" + owner + " " + nameAndType, () -> {
      out.writeByte(10);
      out.writeShort(owner);
      out.writeShort(nameAndType);
    });
  }

  /** Writes the count and the entries. */
  void write(DataOutputStream target) throws IOException {
    out.flush();
    target.writeShort(next);
    target.write(bytes.toByteArray());
  }

  private interface Writer {
    void write() throws IOException;
  }

  private int entry(String key, Writer writer) {
    Integer known = indexes.get(key);
    if (known != null) {
      return known;
    }
    try {
      writer.write();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    indexes.put(key, next);
    return next++;
  }
}
