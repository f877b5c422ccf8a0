package org.smartssd.devicemapper;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The classes a tasklet's jar must carry: the roots and, transitively, every class their class
 * files refer to that the device does not have (the Java platform's and the shared packages' it
 * has). Read from the class files' constant pools, without loading anything.
 *
 * <p>A nested class names its enclosing class (InnerClasses, NestHost), which the JVM does not load
 * for it; so an enclosing class is followed only when the nested class uses one of its members or
 * extends it. A job's mapper nested in a driver or test class thus does not drag the driver in.
 * The device's check still sees the name, and refuses a class it has but does not share (a device
 * in the job's own JVM has the driver): so such an enclosing class goes into the jar as an empty
 * stub, never loaded, whose NestMembers attribute lists its nested classes in the jar (so that
 * nestmates' private access still validates).
 */
final class ClassClosure {
  private ClassClosure() {}

  /**
   * @param roots binary names
   * @param loaders where class files are looked up, in order
   * @param deviceHas true for binary names the device provides (not packed)
   * @return class files by binary name; a class found by no loader is left out (the device then
   *     fails the tasklet if it needs it, and the split falls back)
   */
  static SortedMap<String, byte[]> of(Collection<String> roots, List<ClassLoader> loaders, Predicate<String> deviceHas)
      throws IOException {
    SortedMap<String, byte[]> classes = new TreeMap<>();
    Set<String> enclosing = new TreeSet<>();
    Set<String> seen = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    for (String root : roots) {
      if (seen.add(root)) {
        todo.add(root);
      }
    }
    while (!todo.isEmpty()) {
      String name = todo.poll();
      if (deviceHas.test(name)) {
        continue;
      }
      byte[] bytes = classFile(name, loaders);
      if (bytes == null) {
        continue;
      }
      classes.put(name, bytes);
      References refs = references(bytes);
      for (String used : refs.used()) {
        String binary = used.replace('/', '.');
        if (seen.add(binary)) {
          todo.add(binary);
        }
      }
      for (String outer : refs.enclosingOnly()) {
        enclosing.add(outer.replace('/', '.'));
      }
    }
    for (String outer : enclosing) {
      if (!classes.containsKey(outer) && !deviceHas.test(outer)) {
        List<String> members = new ArrayList<>();
        if (outer.indexOf('$', outer.lastIndexOf('.') + 1) < 0) { // a top-level class: the nest host
          for (String c : classes.keySet()) {
            if (c.startsWith(outer + "$")) {
              members.add(c);
            }
          }
        }
        classes.put(outer, stub(outer, members));
      }
    }
    return classes;
  }

  /** What a class file refers to: the classes it needs, and enclosing classes it only names. */
  record References(Set<String> used, Set<String> enclosingOnly) {}

  /** An empty public class {@code name} (binary) with {@code nestMembers}, version 55 (Java 11). */
  static byte[] stub(String name, List<String> nestMembers) {
    ConstantPool pool = new ConstantPool();
    int self = pool.classRef(name.replace('.', '/'));
    int object = pool.classRef("java/lang/Object");
    int[] members = new int[nestMembers.size()];
    for (int i = 0; i < members.length; i++) {
      members[i] = pool.classRef(nestMembers.get(i).replace('.', '/'));
    }
    int nestMembersName = members.length == 0 ? 0 : pool.utf8("NestMembers");
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(0xCAFEBABE);
      out.writeShort(0);
      out.writeShort(55);
      pool.write(out);
      out.writeShort(0x0001 | 0x0020 | 0x1000); // public, super, synthetic
      out.writeShort(self);
      out.writeShort(object);
      out.writeShort(0); // interfaces
      out.writeShort(0); // fields
      out.writeShort(0); // methods
      if (members.length == 0) {
        out.writeShort(0);
      } else {
        out.writeShort(1);
        out.writeShort(nestMembersName);
        out.writeInt(2 + 2 * members.length);
        out.writeShort(members.length);
        for (int m : members) {
          out.writeShort(m);
        }
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The class file of {@code name}, or null when no loader has it. */
  static byte[] classFile(String name, List<ClassLoader> loaders) throws IOException {
    String resource = name.replace('.', '/') + ".class";
    for (ClassLoader loader : loaders) {
      URL url = loader.getResource(resource);
      if (url != null) {
        try (InputStream in = url.openStream()) {
          return in.readAllBytes();
        }
      }
    }
    return null;
  }

  /**
   * The classes (internal names) a class file needs: those named by its constant pool's class
   * entries (its own excluded), except an enclosing class it neither extends nor uses a member of.
   */
  static References references(byte[] classFile) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort();
    in.readUnsignedShort();
    int count = in.readUnsignedShort();
    int[] tags = new int[count];
    int[] first = new int[count];
    String[] utf8 = new String[count];
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      tags[i] = tag;
      switch (tag) {
        case 1 -> utf8[i] = in.readUTF();
        case 3, 4 -> in.skipNBytes(4);
        case 5, 6 -> {
          in.skipNBytes(8);
          i++;
        }
        case 7, 8, 16, 19, 20 -> first[i] = in.readUnsignedShort();
        case 9, 10, 11, 12, 17, 18 -> {
          first[i] = in.readUnsignedShort();
          in.readUnsignedShort();
        }
        case 15 -> {
          in.readUnsignedByte();
          in.readUnsignedShort();
        }
        default -> throw new IOException("unknown constant pool tag " + tag);
      }
    }
    in.readUnsignedShort(); // access
    String self = className(utf8, first, in.readUnsignedShort());
    Set<String> strong = new HashSet<>(); // extended or with members used
    int superIndex = in.readUnsignedShort();
    if (superIndex != 0) {
      strong.add(className(utf8, first, superIndex));
    }
    int interfaces = in.readUnsignedShort();
    for (int i = 0; i < interfaces; i++) {
      strong.add(className(utf8, first, in.readUnsignedShort()));
    }
    for (int i = 1; i < count; i++) {
      if (tags[i] == 9 || tags[i] == 10 || tags[i] == 11) {
        strong.add(className(utf8, first, first[i]));
      }
    }
    Set<String> used = new HashSet<>();
    Set<String> enclosingOnly = new HashSet<>();
    for (int i = 1; i < count; i++) {
      if (tags[i] != 7) {
        continue;
      }
      String name = element(utf8[first[i]]);
      if (name == null || name.equals(self)) {
        continue;
      }
      boolean encloses = self.startsWith(name + "$");
      if (!encloses || strong.contains(name)) {
        used.add(name);
      } else {
        enclosingOnly.add(name);
      }
    }
    return new References(used, enclosingOnly);
  }

  private static String className(String[] utf8, int[] first, int classIndex) {
    return element(utf8[first[classIndex]]);
  }

  /** An array class's element class (null for primitives); any other name as it is. */
  private static String element(String name) {
    if (!name.startsWith("[")) {
      return name;
    }
    String e = name.substring(name.lastIndexOf('[') + 1);
    return e.startsWith("L") && e.endsWith(";") ? e.substring(1, e.length() - 1) : null;
  }
}
