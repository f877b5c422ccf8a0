package org.smartssd.device.runtime.isp;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The sandbox of tasklet code: an allow list ({@link AllowList}) checked over every reference a
 * tasklet's own classes make to code that is not theirs. Each field and method reference is
 * resolved as the JVM resolves it (JVMS 5.4.3.2 to 5.4.3.4: the class and its superclasses, then
 * its interfaces; an interface, then {@code Object}, then its superinterfaces) to the class that
 * declares the member; a member declared by one of the tasklet's own classes is its own, any other
 * must be on the list. A class the tasklet extends or implements that is not its own must be
 * marked extendable. So whatever library a tasklet goes through, it reaches only members whose
 * implementations the list vouches for, and those reach nothing a tasklet may not: what they may
 * touch is the list's rule, in its file.
 *
 * <p>Library classes are read from their class files (the platform's, and the device's shared
 * packages'), never loaded or initialised by the check.
 */
final class TaskletSandbox {
  private static final String OBJECT = "java/lang/Object";

  private final AllowList allowList;
  /** A library class's file by internal name, as tasklet code would see it; null if there is none. */
  private final Function<String, byte[]> libraryClassFiles;
  private final Map<String, Optional<ClassInfo>> library = new ConcurrentHashMap<>();

  /**
   * @param libraryClassFiles the class file tasklet code would get for an internal name that is not
   *     its own (the Java platform's, or a shared package's), or null
   */
  TaskletSandbox(AllowList allowList, Function<String, byte[]> libraryClassFiles) {
    this.allowList = allowList;
    this.libraryClassFiles = libraryClassFiles;
  }

  /** Reads class files through {@code loaders}, the first that has the class's file. */
  static Function<String, byte[]> classFilesOf(Function<String, ClassLoader> loaderFor) {
    return name -> {
      ClassLoader loader = loaderFor.apply(name);
      if (loader == null) {
        return null;
      }
      try (InputStream in = loader.getResourceAsStream(name + ".class")) {
        return in == null ? null : in.readAllBytes();
      } catch (IOException e) {
        return null;
      }
    };
  }

  /**
   * What one of the tasklet's classes uses that the allow list does not allow, one message each.
   *
   * @param refs the class's references (its constant pool)
   * @param own every class of the tasklet, by internal name
   */
  List<String> violations(ClassReferences refs, Map<String, ClassInfo> own) {
    String user = dotted(refs.className());
    Set<String> found = new LinkedHashSet<>();
    ClassInfo self = own.get(refs.className());
    if (self != null) {
      List<String> supertypes = new ArrayList<>();
      if (self.superName() != null) {
        supertypes.add(self.superName());
      }
      supertypes.addAll(self.interfaces());
      for (String type : supertypes) {
        if (!own.containsKey(type) && !allowList.extendable(type)) {
          found.add("class " + user + (type.equals(self.superName()) && !self.isInterface() ? " extends " : " implements ")
              + dotted(type) + ": tasklet classes may not extend it");
        }
      }
    }
    for (ClassReferences.MemberRef m : refs.members()) {
      Resolution r = declaring(m.owner(), m.name(), m.descriptor(), m.method(), own);
      String what = dotted(m.owner()) + "." + (m.name().equals("<init>") ? "<init> (a constructor)" : m.name());
      if (r.declaring() == null) {
        if (!r.complete()) {
          found.add("class " + user + (m.method() ? " calls " : " uses ") + what + ": the device cannot read "
              + dotted(r.unreadable()) + " to check it");
        }
        continue; // complete and not found: the JVM cannot link it either, and fails when it tries
      }
      String d = r.declaring();
      if (own.containsKey(d)) {
        continue;
      }
      if (!allowList.allows(d, m.name(), m.descriptor())) {
        found.add("class " + user + (m.method() ? " calls " : " uses ") + what
            + (d.equals(m.owner()) ? "" : " (declared by " + dotted(d) + ")") + ": "
            + TaskletPolicy.reason(d, m.name()).orElse("not among what tasklets may use (the device's allow list)"));
      }
    }
    return new ArrayList<>(found);
  }

  /**
   * Where a member reference resolves.
   *
   * @param declaring the class declaring the member, or null when none of those read declares it
   * @param unreadable a class of the hierarchy whose class file could not be read, or null when every
   *     one was (then a null {@code declaring} means the member does not exist)
   */
  record Resolution(String declaring, String unreadable) {
    boolean complete() {
      return unreadable == null;
    }
  }

  /** The class that declares the member a reference names, as the JVM resolves it. */
  Resolution declaring(String owner, String name, String descriptor, boolean method, Map<String, ClassInfo> own) {
    Optional<ClassInfo> start = info(owner, own);
    if (start.isEmpty()) {
      return new Resolution(null, owner);
    }
    if (method && name.equals("<init>")) {
      return new Resolution(start.get().declares(name, descriptor, true) ? owner : null, null);
    }
    if (method && start.get().isInterface()) {
      if (start.get().declares(name, descriptor, true)) {
        return new Resolution(owner, null);
      }
      Optional<ClassInfo> object = info(OBJECT, own);
      if (object.isEmpty()) {
        return new Resolution(null, OBJECT);
      }
      if (object.get().declares(name, descriptor, true)) {
        return new Resolution(OBJECT, null);
      }
      return inInterfaces(start.get().interfaces(), name, descriptor, method, own);
    }
    List<String> interfaces = new ArrayList<>();
    ClassInfo c = start.get();
    while (true) {
      if (c.declares(name, descriptor, method)) {
        return new Resolution(c.name(), null);
      }
      interfaces.addAll(c.interfaces());
      if (c.superName() == null) {
        break;
      }
      Optional<ClassInfo> up = info(c.superName(), own);
      if (up.isEmpty()) {
        return new Resolution(null, c.superName());
      }
      c = up.get();
    }
    return inInterfaces(interfaces, name, descriptor, method, own);
  }

  private Resolution inInterfaces(List<String> roots, String name, String descriptor, boolean method,
      Map<String, ClassInfo> own) {
    Deque<String> todo = new ArrayDeque<>(roots);
    Set<String> seen = new HashSet<>();
    while (!todo.isEmpty()) {
      String type = todo.poll();
      if (!seen.add(type)) {
        continue;
      }
      Optional<ClassInfo> i = info(type, own);
      if (i.isEmpty()) {
        return new Resolution(null, type);
      }
      if (i.get().declares(name, descriptor, method)) {
        return new Resolution(type, null);
      }
      todo.addAll(i.get().interfaces());
    }
    return new Resolution(null, null);
  }

  private Optional<ClassInfo> info(String type, Map<String, ClassInfo> own) {
    ClassInfo mine = own.get(type);
    if (mine != null) {
      return Optional.of(mine);
    }
    return library.computeIfAbsent(type, t -> {
      byte[] bytes = libraryClassFiles.apply(t);
      if (bytes == null) {
        return Optional.empty();
      }
      try {
        return Optional.of(ClassInfo.read(bytes));
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
    });
  }

  private static String dotted(String internalName) {
    return internalName.replace('/', '.');
  }
}
