package org.smartssd.devicemapper;

import org.smartssd.devicemapper.tasklet.MapperDriver;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.List;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Generates, on the host, the {@link MapperDriver} subclass of a job's mapper that the device calls
 * record by record: a class file with a public no-argument constructor calling the mapper's, and
 * {@code runSetup}, {@code runMap} and {@code runCleanup} calling the mapper's {@code setup},
 * {@code map} and {@code cleanup} with {@code invokespecial} (as {@code super.map(...)} would). It
 * has no branches, so it needs no stack map frames (class file version 52).
 *
 * <p>The subclass lives in the mapper's package, so that a package-private mapper works too; a
 * mapper of a package the device shares (Hadoop's own, such as the identity {@code Mapper}) gets
 * it in {@value #SHARED_MAPPER_PACKAGE} instead, and must then be public with a public or protected
 * constructor. A mapper that is final, has no usable no-argument constructor, or overrides
 * {@code run} (which the device cannot call record by record) is not supported.
 */
final class MapperShims {
  static final String SUFFIX = "$$SmartSsdMapperDriver";
  static final String SHARED_MAPPER_PACKAGE = "org.smartssd.devicemapper.shim";

  private static final String CONTEXT = "Lorg/apache/hadoop/mapreduce/Mapper$Context;";
  private static final String CONTEXT_METHOD = "(" + CONTEXT + ")V";
  private static final String MAP_METHOD = "(Ljava/lang/Object;Ljava/lang/Object;" + CONTEXT + ")V";

  private MapperShims() {}

  /** The binary name of the driver class of {@code mapper}. */
  static String driverName(Class<?> mapper, List<String> sharedPackages) {
    if (inShared(mapper, sharedPackages)) {
      return SHARED_MAPPER_PACKAGE + "." + mapper.getName().replace('.', '_') + SUFFIX;
    }
    return mapper.getName() + SUFFIX;
  }

  /**
   * Checks that the device can call {@code mapper} through a driver subclass.
   *
   * @throws UnsupportedJobException saying why not
   */
  @SuppressWarnings("rawtypes")
  static void check(Class<? extends Mapper> mapper, List<String> sharedPackages) throws UnsupportedJobException {
    String what = "mapper " + mapper.getName();
    if (Modifier.isFinal(mapper.getModifiers())) {
      throw new UnsupportedJobException(what + " is final: the device calls a mapper through a subclass of it");
    }
    if (mapper.isMemberClass() && !Modifier.isStatic(mapper.getModifiers())) {
      throw new UnsupportedJobException(what + " is an inner (non-static) class");
    }
    Constructor<? extends Mapper> constructor;
    try {
      constructor = mapper.getDeclaredConstructor();
    } catch (NoSuchMethodException e) {
      throw new UnsupportedJobException(what + " has no no-argument constructor");
    }
    if (Modifier.isPrivate(constructor.getModifiers())) {
      throw new UnsupportedJobException(what + "'s no-argument constructor is private");
    }
    if (inShared(mapper, sharedPackages) && (!Modifier.isPublic(mapper.getModifiers())
        || !(Modifier.isPublic(constructor.getModifiers()) || Modifier.isProtected(constructor.getModifiers())))) {
      throw new UnsupportedJobException(what + " is in a package the device shares and is not public with a public "
          + "or protected no-argument constructor");
    }
    try {
      Class<?> runner = mapper.getMethod("run", Mapper.Context.class).getDeclaringClass();
      if (runner != Mapper.class) {
        throw new UnsupportedJobException(what + " overrides run(Context) (in " + runner.getName() + "): the device "
            + "calls setup, map and cleanup itself, record by record");
      }
    } catch (NoSuchMethodException e) {
      throw new UnsupportedJobException(what + " has no run(Context)");
    }
  }

  /** The class file of the driver {@code driverName} (binary name) extending {@code mapper}. */
  static byte[] generate(String driverName, Class<?> mapper) {
    String self = internal(driverName);
    String parent = internal(mapper.getName());
    ConstantPool pool = new ConstantPool();
    int thisClass = pool.classRef(self);
    int superClass = pool.classRef(parent);
    int driverInterface = pool.classRef(internal(MapperDriver.class.getName()));
    int superInit = pool.methodRef(superClass, "<init>", "()V");
    int superSetup = pool.methodRef(superClass, "setup", CONTEXT_METHOD);
    int superMap = pool.methodRef(superClass, "map", MAP_METHOD);
    int superCleanup = pool.methodRef(superClass, "cleanup", CONTEXT_METHOD);
    int code = pool.utf8("Code");
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      // Methods first, into their own buffer: the constant pool must be complete before it is written.
      ByteArrayOutputStream methodBytes = new ByteArrayOutputStream();
      DataOutputStream methods = new DataOutputStream(methodBytes);
      method(methods, pool.utf8("<init>"), pool.utf8("()V"), code, 1, 1, superInit);
      method(methods, pool.utf8("runSetup"), pool.utf8(CONTEXT_METHOD), code, 2, 2, superSetup);
      method(methods, pool.utf8("runMap"), pool.utf8(MAP_METHOD), code, 4, 4, superMap);
      method(methods, pool.utf8("runCleanup"), pool.utf8(CONTEXT_METHOD), code, 2, 2, superCleanup);
      out.writeInt(0xCAFEBABE);
      out.writeShort(0); // minor
      out.writeShort(52); // major: Java 8, no stack map frames needed without branches
      pool.write(out);
      out.writeShort(0x0001 | 0x0020 | 0x1000); // public, super, synthetic
      out.writeShort(thisClass);
      out.writeShort(superClass);
      out.writeShort(1);
      out.writeShort(driverInterface);
      out.writeShort(0); // fields
      out.writeShort(4); // methods
      methods.flush();
      out.write(methodBytes.toByteArray());
      out.writeShort(0); // attributes
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
  }

  /**
   * A public method (or constructor) that loads {@code this} and its {@code arguments} (= locals - 1)
   * arguments, calls {@code target} with invokespecial, and returns.
   */
  private static void method(DataOutputStream out, int name, int descriptor, int codeAttribute, int maxStack,
      int maxLocals, int target) throws IOException {
    ByteArrayOutputStream code = new ByteArrayOutputStream();
    for (int local = 0; local < maxLocals; local++) {
      code.write(0x2a + local); // aload_0 .. aload_3
    }
    code.write(0xb7); // invokespecial
    code.write(target >> 8);
    code.write(target);
    code.write(0xb1); // return
    byte[] bytecode = code.toByteArray();
    out.writeShort(0x0001); // public
    out.writeShort(name);
    out.writeShort(descriptor);
    out.writeShort(1); // attributes: Code
    out.writeShort(codeAttribute);
    out.writeInt(2 + 2 + 4 + bytecode.length + 2 + 2);
    out.writeShort(maxStack);
    out.writeShort(maxLocals);
    out.writeInt(bytecode.length);
    out.write(bytecode);
    out.writeShort(0); // exception table
    out.writeShort(0); // attributes
  }

  private static boolean inShared(Class<?> mapper, List<String> sharedPackages) {
    if (mapper.getName().startsWith("org.smartssd.device.tasklet.")) {
      return true;
    }
    for (String prefix : sharedPackages) {
      if (mapper.getName().startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  private static String internal(String binaryName) {
    return binaryName.replace('.', '/');
  }
}
