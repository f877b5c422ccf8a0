package org.smartssd.device.runtime.isp;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A class's place in the hierarchy and the members it declares, read from its class file without
 * loading it: what member resolution (JVMS 5.4.3) needs to find which class declares a member a
 * reference names.
 *
 * @param name internal name
 * @param superName internal name of the superclass; null for {@code java/lang/Object}
 * @param interfaces internal names of the interfaces it implements or extends
 * @param isInterface whether it is an interface
 * @param methods declared methods and constructors, each as name followed by descriptor
 * @param fields declared fields, each as name followed by descriptor
 */
record ClassInfo(String name, String superName, List<String> interfaces, boolean isInterface, Set<String> methods,
    Set<String> fields) {

  /**
   * Reads a class file's header and member declarations.
   *
   * @throws IllegalArgumentException if it is not a class file ASM can read
   */
  static ClassInfo read(byte[] classFile) {
    ClassReader reader;
    try {
      reader = new ClassReader(classFile);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("the class file is malformed: " + e, e);
    }
    List<String> interfaces = List.of(reader.getInterfaces());
    Set<String> methods = new HashSet<>();
    Set<String> fields = new HashSet<>();
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
          String[] exceptions) {
        methods.add(name + descriptor);
        return null;
      }

      @Override
      public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
        fields.add(name + descriptor);
        return null;
      }
    }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return new ClassInfo(reader.getClassName(), reader.getSuperName(), new ArrayList<>(interfaces),
        (reader.getAccess() & Opcodes.ACC_INTERFACE) != 0, Set.copyOf(methods), Set.copyOf(fields));
  }

  /** Whether it declares the member {@code name} with {@code descriptor}. */
  boolean declares(String name, String descriptor, boolean method) {
    return (method ? methods : fields).contains(name + descriptor);
  }
}
