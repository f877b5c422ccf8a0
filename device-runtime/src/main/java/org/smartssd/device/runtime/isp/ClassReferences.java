package org.smartssd.device.runtime.isp;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one class file refers to, read from its constant pool (JVMS 4.4) without loading it: the
 * classes it names and the fields and methods it uses. Names are internal ({@code java/io/File});
 * array classes are reduced to their element class.
 *
 * @param className the class's own name, internal form
 * @param majorVersion the class file's major version (61 for Java 17)
 * @param classes every class named by a CONSTANT_Class entry, its own included
 * @param members every field and method reference
 */
record ClassReferences(String className, int majorVersion, Set<String> classes, List<MemberRef> members) {

  /** A CONSTANT_Fieldref, Methodref or InterfaceMethodref. */
  record MemberRef(String owner, String name, String descriptor, boolean method) {}

  private static final int MAGIC = 0xCAFEBABE;

  /**
   * Reads a class file's header and constant pool.
   *
   * @throws IllegalArgumentException if it is not a well-formed class file
   */
  static ClassReferences read(byte[] classFile) {
    try {
      return parse(new DataInputStream(new ByteArrayInputStream(classFile)));
    } catch (EOFException e) {
      throw new IllegalArgumentException("the class file is truncated", e);
    } catch (IOException e) {
      throw new IllegalArgumentException("the class file is malformed: " + e.getMessage(), e);
    }
  }

  private static ClassReferences parse(DataInputStream in) throws IOException {
    if (in.readInt() != MAGIC) {
      throw new IllegalArgumentException("not a class file (no 0xCAFEBABE)");
    }
    in.readUnsignedShort(); // minor version
    int major = in.readUnsignedShort();
    int count = in.readUnsignedShort();
    int[] tags = new int[count];
    int[] first = new int[count];
    int[] second = new int[count];
    String[] utf8 = new String[count];
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      tags[i] = tag;
      switch (tag) {
        case 1 -> utf8[i] = in.readUTF(); // Utf8: u2 length, then modified UTF-8, as readUTF reads it
        case 3, 4 -> in.skipNBytes(4); // Integer, Float
        case 5, 6 -> { // Long, Double: two entries
          in.skipNBytes(8);
          i++;
        }
        case 7, 8, 16, 19, 20 -> first[i] = in.readUnsignedShort(); // Class, String, MethodType, Module, Package
        case 9, 10, 11, 12, 17, 18 -> { // Field/Method/InterfaceMethod refs, NameAndType, Dynamic, InvokeDynamic
          first[i] = in.readUnsignedShort();
          second[i] = in.readUnsignedShort();
        }
        case 15 -> { // MethodHandle: its reference kind, then the member ref it points to
          in.readUnsignedByte();
          first[i] = in.readUnsignedShort();
        }
        default -> throw new IllegalArgumentException("unknown constant pool tag " + tag + " at entry " + i);
      }
    }
    in.readUnsignedShort(); // access flags
    int thisClass = in.readUnsignedShort();

    Pool pool = new Pool(tags, first, second, utf8);
    Set<String> classes = new TreeSet<>();
    List<MemberRef> members = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      if (tags[i] == 7) {
        String element = elementClass(pool.utf8(first[i]));
        if (element != null) {
          classes.add(element);
        }
      } else if (tags[i] == 9 || tags[i] == 10 || tags[i] == 11) {
        // A member of an array type (array.clone()) is Object's: arrays declare no members of their own.
        String ownerName = pool.className(first[i]);
        String owner = ownerName.startsWith("[") ? "java/lang/Object" : ownerName;
        int nameAndType = pool.expect(second[i], 12, "NameAndType");
        members.add(new MemberRef(owner, pool.utf8(first[nameAndType]), pool.utf8(second[nameAndType]), tags[i] != 9));
      }
    }
    return new ClassReferences(pool.className(thisClass), major, classes, members);
  }

  /** An array class's element class (null for primitives); any other name as it is. */
  private static String elementClass(String name) {
    if (!name.startsWith("[")) {
      return name;
    }
    String element = name.substring(name.lastIndexOf('[') + 1);
    return element.startsWith("L") && element.endsWith(";") ? element.substring(1, element.length() - 1) : null;
  }

  /** Checked access to the constant pool's entries. */
  private record Pool(int[] tags, int[] first, int[] second, String[] utf8) {

    int expect(int index, int tag, String what) {
      if (index <= 0 || index >= tags.length || tags[index] != tag) {
        throw new IllegalArgumentException("constant pool entry " + index + " is not a " + what);
      }
      return index;
    }

    String utf8(int index) {
      return utf8[expect(index, 1, "Utf8")];
    }

    String className(int index) {
      return utf8(first[expect(index, 7, "Class")]);
    }
  }
}
