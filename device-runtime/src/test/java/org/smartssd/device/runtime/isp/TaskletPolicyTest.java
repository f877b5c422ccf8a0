package org.smartssd.device.runtime.isp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.smartssd.device.runtime.isp.ClassReferences.MemberRef;

/** The deny list, one reference at a time: what is refused and why, and its near misses allowed. */
class TaskletPolicyTest {

  private static final String USER = "t/User";

  @ParameterizedTest(name = "class {0}")
  @CsvSource(delimiter = '|', value = {
      "java/io/File                                  | tasklets cannot use files",
      "java/io/FileOutputStream                      | tasklets cannot use files",
      "java/io/FileDescriptor                        | tasklets cannot use files",
      "java/io/RandomAccessFile                      | tasklets cannot use files",
      "java/nio/file/Path                            | tasklets cannot use files",
      "java/nio/file/attribute/PosixFilePermission   | tasklets cannot use files",
      "java/nio/channels/FileChannel                 | tasklets cannot use files or sockets",
      "java/net/URL                                  | tasklets cannot use the network",
      "java/lang/ProcessHandle                       | tasklets cannot start processes or control the device's JVM",
      "java/lang/Runtime                             | tasklets cannot start processes or control the device's JVM",
      "java/lang/Thread                              | tasklets cannot start or control threads",
      "java/lang/ThreadGroup                         | tasklets cannot start or control threads",
      "java/util/concurrent/ExecutorService          | tasklets cannot start or control threads",
      "java/util/concurrent/ForkJoinPool             | tasklets cannot start or control threads",
      "java/util/concurrent/ThreadPoolExecutor       | tasklets cannot start or control threads",
      "java/util/concurrent/ScheduledThreadPoolExecutor | tasklets cannot start or control threads",
      "java/util/Timer                               | tasklets cannot start or control threads",
      "java/lang/reflect/Method                      | tasklets cannot use reflection",
      "java/lang/ClassLoader                         | tasklets cannot load classes",
      "sun/misc/Unsafe                               | tasklets cannot use the JDK's internals",
      "jdk/internal/misc/Unsafe                      | tasklets cannot use the JDK's internals",
      "com/sun/management/OperatingSystemMXBean      | tasklets cannot use the JDK's internals",
      // Near misses: allowed.
      "java/io/FilterInputStream                     | ",
      "java/io/ByteArrayInputStream                  | ",
      "java/lang/RuntimeException                    | ",
      "java/lang/ThreadLocal                         | ",
      "java/lang/Thread$State                        | ",
      "java/util/TimerTask                           | ",
      "java/util/concurrent/ConcurrentHashMap        | ",
      "java/lang/invoke/MethodHandles                | ",
      "java/lang/invoke/MethodHandles$Lookup         | ",
      "java/lang/invoke/LambdaMetafactory            | ",
      "java/lang/System                              | ",
      "java/lang/Class                               | ",
  })
  void namingAClass(String name, String reason) {
    ClassReferences refs = new ClassReferences(USER, 61, Set.of(USER, name), List.of());
    assertEquals(reason == null ? List.of() : List.of("class t.User uses " + name.replace('/', '.') + ": " + reason),
        TaskletPolicy.violations(refs, Set.of(USER)));
  }

  @ParameterizedTest(name = "{0}.{1}")
  @CsvSource(delimiter = '|', value = {
      "java/lang/System                      | exit             | tasklets cannot stop the device",
      "java/lang/System                      | loadLibrary      | tasklets cannot load native code",
      "java/lang/System                      | setOut           | tasklets cannot redirect the device's standard streams",
      "java/lang/System                      | clearProperty    | tasklets cannot change the device's system properties",
      "java/lang/System                      | getenv           | tasklets cannot read the device's environment",
      "java/lang/Class                       | forName          | tasklets cannot use reflection",
      "java/lang/Class                       | getDeclaredField | tasklets cannot use reflection",
      "java/lang/Class                       | getConstructors  | tasklets cannot use reflection",
      "java/lang/invoke/MethodHandles        | lookup           | tasklets cannot use reflection",
      "java/lang/invoke/MethodHandles$Lookup | findVirtual      | tasklets cannot use reflection",
      "java/lang/System                      | currentTimeMillis | ",
      "java/lang/System                      | arraycopy        | ",
      "java/lang/System                      | getProperty      | ",
      "java/lang/Class                       | getName          | ",
      "java/lang/Class                       | getResourceAsStream | ",
  })
  void callingAMethod(String owner, String method, String reason) {
    ClassReferences refs = new ClassReferences(USER, 61, Set.of(USER, owner),
        List.of(new MemberRef(owner, method, "()V", true)));
    String call = "class t.User calls " + owner.replace('/', '.') + "." + method + ": " + reason;
    assertEquals(reason == null ? List.of() : List.of(call), TaskletPolicy.violations(refs, Set.of(USER)));
  }

  @ParameterizedTest(name = "own class {0}")
  @CsvSource({"sun/tools/Mine", "java/io/FileOfMine"})
  void aTaskletsOwnClassesAreNotTheDevices(String own) {
    ClassReferences refs = new ClassReferences(USER, 61, Set.of(USER, own), List.of(new MemberRef(own, "x", "()V", true)));
    assertEquals(List.of(), TaskletPolicy.violations(refs, Set.of(USER, own)));
  }
}
