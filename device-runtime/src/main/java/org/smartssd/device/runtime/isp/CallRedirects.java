package org.smartssd.device.runtime.isp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Calls in tasklet code that the device sends to code of its own instead, rewritten in the class files
 * before the sandbox checks them (so what is checked is what runs): a call that, as written, would reach
 * a library's files (Hadoop's {@code FileSystem.get}) becomes a call of the device's replacement (a file
 * system of the execution's own device, read-only). The table is {@code tasklet-redirects.txt}; a line
 * applies only when its replacement's class is one the device shares with tasklets, and a call that is
 * not rewritten (a method handle to the same method, or a device that does not share the replacement)
 * is checked as written, and refused by the allow list.
 *
 * <p>Only invocation instructions whose reference names exactly the listed class, method and
 * descriptor are rewritten: a reference through a subclass ({@code LocalFileSystem.get}) resolves to the
 * same method but is not rewritten, and the allow list refuses it.
 */
final class CallRedirects {
  /** The table, in the device's resources. */
  static final String RESOURCE = "tasklet-redirects.txt";

  /**
   * One rewritten call.
   *
   * @param instance whether the call is an instance method's ({@code invokevirtual}): the replacement
   *     is a static method taking the receiver first
   */
  record Redirect(boolean instance, String owner, String name, String descriptor, String targetOwner, String targetName) {
    String targetDescriptor() {
      return instance ? "(L" + owner + ";" + descriptor.substring(1) : descriptor;
    }

    boolean matches(int opcode, String owner, String name, String descriptor) {
      return opcode == (instance ? Opcodes.INVOKEVIRTUAL : Opcodes.INVOKESTATIC) && this.owner.equals(owner)
          && this.name.equals(name) && this.descriptor.equals(descriptor);
    }
  }

  private final List<Redirect> redirects;

  private CallRedirects(List<Redirect> redirects) {
    this.redirects = List.copyOf(redirects);
  }

  /** The table's lines whose replacement class (a binary name) {@code available} says tasklets can reach. */
  static CallRedirects load(Predicate<String> available) {
    List<Redirect> all = new ArrayList<>();
    try (InputStream in = CallRedirects.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the device's " + RESOURCE + " is missing from its class path");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      int number = 0;
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        number++;
        line = line.strip();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        all.add(parse(line, number));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the device's " + RESOURCE, e);
    }
    return new CallRedirects(all.stream().filter(d -> available.test(d.targetOwner().replace('/', '.'))).toList());
  }

  /** {@code static|virtual OWNER NAME DESCRIPTOR TARGET_OWNER TARGET_NAME}, internal names. */
  static Redirect parse(String line, int number) {
    String[] f = line.split("\\s+");
    if (f.length != 6 || !(f[0].equals("static") || f[0].equals("virtual")) || !f[3].startsWith("(")) {
      throw new IllegalStateException(RESOURCE + " line " + number + ": '" + line + "' is not 'static|virtual OWNER "
          + "NAME DESCRIPTOR TARGET_OWNER TARGET_NAME'");
    }
    return new Redirect(f[0].equals("virtual"), f[1], f[2], f[3], f[4], f[5]);
  }

  List<Redirect> redirects() {
    return redirects;
  }

  /**
   * The class file with its listed calls rewritten; the same array when it makes none.
   *
   * @throws IllegalArgumentException when the bytes are not a class file ASM can read
   */
  byte[] rewrite(byte[] classFile) {
    if (redirects.isEmpty()) {
      return classFile;
    }
    try {
      return rewriteChecked(classFile);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(e.toString(), e);
    }
  }

  private byte[] rewriteChecked(byte[] classFile) {
    ClassReader reader = new ClassReader(classFile);
    // A fresh constant pool (not the reader's, copied whole): the replaced references must be gone from
    // it, since the sandbox checks what a class's constant pool names.
    ClassWriter writer = new ClassWriter(0);
    boolean[] changed = new boolean[1];
    reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
          String[] exceptions) {
        MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
        return new MethodVisitor(Opcodes.ASM9, next) {
          @Override
          public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean itf) {
            for (Redirect d : redirects) {
              if (!itf && d.matches(opcode, owner, name, descriptor)) {
                changed[0] = true;
                // The same operands on the stack, in the same order: the receiver becomes the first argument.
                super.visitMethodInsn(Opcodes.INVOKESTATIC, d.targetOwner(), d.targetName(), d.targetDescriptor(), false);
                return;
              }
            }
            super.visitMethodInsn(opcode, owner, name, descriptor, itf);
          }
        };
      }
    }, 0);
    return changed[0] ? writer.toByteArray() : classFile;
  }
}
