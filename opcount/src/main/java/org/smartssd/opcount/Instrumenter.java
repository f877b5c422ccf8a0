package org.smartssd.opcount;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Rewrites a class so that it counts the work it does, in the manner of J-RAF2 (Binder, Hulaas et
 * al., "Exact and portable profiling for the JVM using bytecode instruction counting"): every method
 * fetches its thread's {@link OpMeter} once, and every basic block adds its counts to it as it starts.
 * The counts of a block are known when the class is loaded: its bytecode instructions, those that
 * touch the heap, and its calls into code outside the counted {@link Scope} (library calls, whose
 * inside is not seen), with the data reads each call's callee makes, by its calibrated reads a call
 * ({@link LibraryReads}). Bulk library calls and array allocations add their byte counts, known only
 * when they run.
 *
 * <p>The counts are exact and depend only on the code and its input: the same input gives the same
 * counts on any machine, under any load. An exception thrown in the middle of a block leaves the
 * whole block counted.
 *
 * <p>Every block that a backward jump reaches (a loop's head) and every exception handler also asks
 * the meter whether its thread was told to stop ({@link OpMeter#requestStop}), and throws
 * {@link OpMeter.Stopped} if so: code in an endless loop, or one that catches everything and carries
 * on, stops at its next iteration on any JDK, where {@code Thread.stop} no longer works (JDK 20 on).
 */
public final class Instrumenter {

  /** Which classes are counted (their code instrumented); a call to any other class is a library call. */
  @FunctionalInterface
  public interface Scope {
    /** @param internalName a class name in internal form ({@code org/apache/hadoop/io/Text}) */
    boolean counted(String internalName);
  }

  static final String METER = "org/smartssd/opcount/OpMeter";
  private static final String METER_DESC = "L" + METER + ";";
  static final String NODE = "org/smartssd/opcount/ProfileNode";
  private static final String NODE_DESC = "L" + NODE + ";";

  private final Scope scope;
  private final boolean counting;

  /** Counts the work of the scope's classes, and lets their threads be stopped. */
  public Instrumenter(Scope scope) {
    this(scope, true);
  }

  /**
   * @param counting whether to count the work; without, the classes are only made stoppable (their
   *     loops' heads and exception handlers ask the meter whether to stop)
   */
  public Instrumenter(Scope scope, boolean counting) {
    this.scope = scope;
    this.counting = counting;
  }

  /**
   * The class, counting its work. Methods that are too large to take the counting code, and methods
   * of class files older than Java 6 that use subroutines, are left as they are (their work is not
   * counted).
   *
   * @throws IllegalArgumentException if the bytes are not a class file ASM can read
   */
  public byte[] instrument(byte[] classFile) {
    if (counts(classFile)) {
      return classFile; // counted already (by a counting class loader, then seen by the agent)
    }
    Set<String> skipped = new HashSet<>();
    while (true) {
      ClassNode cn = new ClassNode();
      try {
        new ClassReader(classFile).accept(cn, ClassReader.EXPAND_FRAMES);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("not a class file that can be instrumented: " + e, e);
      }
      boolean changed = false;
      if (counting) {
        CountedClasses.add(cn.name);
      }
      java.util.Map<String, Integer> overloads = new java.util.HashMap<>();
      for (MethodNode m : cn.methods) {
        overloads.merge(m.name, 1, Integer::sum);
      }
      for (MethodNode m : cn.methods) {
        if (m.instructions.size() > 0 && !usesSubroutines(m) && !skipped.contains(m.name + m.desc)) {
          instrument(m, counting ? MethodNames.id(displayName(cn.name, m, overloads.get(m.name) > 1)) : -1);
          changed = true;
        }
      }
      if (!changed) {
        return classFile;
      }
      try {
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cn.accept(w);
        return w.toByteArray();
      } catch (MethodTooLargeException e) {
        skipped.add(e.getMethodName() + e.getDescriptor());
      }
    }
  }

  private static final byte[] METER_NAME = METER.getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** Whether a class file names the meter: only counted classes do (tasklets may not, the meter's own are never counted). */
  static boolean counts(byte[] classFile) {
    outer:
    for (int i = 0; i + METER_NAME.length <= classFile.length; i++) {
      for (int j = 0; j < METER_NAME.length; j++) {
        if (classFile[i + j] != METER_NAME[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static boolean usesSubroutines(MethodNode m) {
    for (AbstractInsnNode n : m.instructions) {
      if (n.getOpcode() == Opcodes.JSR || n.getOpcode() == Opcodes.RET) {
        return true;
      }
    }
    return false;
  }

  /**
   * A method's name in profiles ({@link MethodNames}): its class's binary name and its own, with its
   * parameter types where the class has other methods of that name.
   */
  static String displayName(String classInternalName, MethodNode m, boolean overloaded) {
    String name = classInternalName.replace('/', '.') + "." + m.name;
    if (!overloaded) {
      return name;
    }
    StringBuilder b = new StringBuilder(name).append('(');
    Type[] args = Type.getArgumentTypes(m.desc);
    for (int i = 0; i < args.length; i++) {
      String type = args[i].getClassName();
      b.append(i > 0 ? "," : "").append(type.substring(type.lastIndexOf('.') + 1));
    }
    return b.append(')').toString();
  }

  /**
   * @param method the method's number in {@link MethodNames} when counting: its code tells the meter
   *     as it is entered ({@link OpMeter#enter}), returns ({@link OpMeter#leave}) and resumes at an
   *     exception handler ({@link OpMeter#resume}), so that a profiled thread's work goes to call paths
   */
  private void instrument(MethodNode m, int method) {
    int meter = m.maxLocals;
    int caller = meter + 1;
    m.maxLocals += counting ? 2 : 1;
    for (AbstractInsnNode n : m.instructions) {
      if (n instanceof FrameNode f) {
        addMeterToFrame(f, meter, counting);
      }
    }
    Set<LabelNode> handlers = new HashSet<>();
    for (TryCatchBlockNode t : m.tryCatchBlocks) {
      handlers.add(t.handler);
    }
    Set<LabelNode> targets = blockTargets(m);
    Set<LabelNode> checked = stopChecks(m);
    Block block = null;
    boolean startPending = true;
    boolean checkPending = false;
    boolean handlerPending = false;
    // A return's leave code, by the return: a block that is only a return adds its counts before it.
    java.util.Map<AbstractInsnNode, AbstractInsnNode> leaveOf = new java.util.HashMap<>();
    for (AbstractInsnNode n : m.instructions.toArray()) {
      if (n instanceof LabelNode label) {
        if (targets.contains(label)) {
          startPending = true;
        }
        if (checked.contains(label)) {
          checkPending = true;
        }
        if (handlers.contains(label)) {
          handlerPending = true;
        }
        continue;
      }
      int op = n.getOpcode();
      if (op < 0) {
        continue; // frames and line numbers
      }
      if (startPending) {
        if (block != null) {
          block.emit(m.instructions, meter, leaveOf);
        }
        block = new Block(n, checkPending, counting && handlerPending ? new int[] {caller, method} : null);
        startPending = false;
        checkPending = false;
        handlerPending = false;
      }
      block.count(n);
      if (counting) {
        insertBulkHook(m.instructions, n, meter);
        if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
          InsnList leave = new InsnList();
          leave.add(new VarInsnNode(Opcodes.ALOAD, meter));
          leave.add(new VarInsnNode(Opcodes.ALOAD, caller));
          leave.add(new MethodInsnNode(Opcodes.INVOKESTATIC, METER, "leave", "(" + METER_DESC + NODE_DESC + ")V",
              false));
          leaveOf.put(n, leave.getFirst());
          m.instructions.insertBefore(n, leave);
        }
      }
      if (endsBlock(n)) {
        startPending = true;
      }
    }
    if (block != null) {
      block.emit(m.instructions, meter, leaveOf);
    }
    InsnList prologue = new InsnList();
    prologue.add(new MethodInsnNode(Opcodes.INVOKESTATIC, METER, "current", "()" + METER_DESC, false));
    prologue.add(new VarInsnNode(Opcodes.ASTORE, meter));
    if (counting) {
      prologue.add(new VarInsnNode(Opcodes.ALOAD, meter));
      prologue.add(new LdcInsnNode(method));
      prologue.add(new MethodInsnNode(Opcodes.INVOKESTATIC, METER, "enter", "(" + METER_DESC + "I)" + NODE_DESC,
          false));
      prologue.add(new VarInsnNode(Opcodes.ASTORE, caller));
    }
    m.instructions.insert(prologue);
  }

  /** Labels where the thread asks whether to stop: targets of backward jumps (loops' heads), exception handlers. */
  private static Set<LabelNode> stopChecks(MethodNode m) {
    Set<LabelNode> checks = new HashSet<>();
    java.util.Map<LabelNode, Integer> at = new java.util.HashMap<>();
    int i = 0;
    for (AbstractInsnNode n : m.instructions) {
      if (n instanceof LabelNode l) {
        at.put(l, i);
      }
      i++;
    }
    i = 0;
    for (AbstractInsnNode n : m.instructions) {
      for (LabelNode l : jumpTargets(n)) {
        if (at.get(l) <= i) {
          checks.add(l);
        }
      }
      i++;
    }
    for (TryCatchBlockNode t : m.tryCatchBlocks) {
      // Not at a catch-any handler (a finally block, a synchronized block's release): it rethrows what
      // it caught, so a stopped thread runs its cleanup (and releases its monitor) and goes on out. And
      // never at a handler inside a range it protects itself (javac's monitor release does that): a
      // check there would throw into itself for ever.
      int handler = at.get(t.handler);
      boolean coversItself = at.get(t.start) <= handler && handler < at.get(t.end);
      if (t.type != null && !coversItself) {
        checks.add(t.handler);
      }
    }
    return checks;
  }

  /** Labels where a block starts: jump and switch targets, exception handlers. */
  private static Set<LabelNode> blockTargets(MethodNode m) {
    Set<LabelNode> targets = new HashSet<>();
    for (AbstractInsnNode n : m.instructions) {
      targets.addAll(jumpTargets(n));
    }
    for (TryCatchBlockNode t : m.tryCatchBlocks) {
      targets.add(t.handler);
    }
    return targets;
  }

  /** Where a jump or switch instruction may go; none for any other instruction. */
  private static List<LabelNode> jumpTargets(AbstractInsnNode n) {
    if (n instanceof JumpInsnNode j) {
      return List.of(j.label);
    }
    List<LabelNode> to = new java.util.ArrayList<>();
    if (n instanceof TableSwitchInsnNode t) {
      to.add(t.dflt);
      to.addAll(t.labels);
    } else if (n instanceof LookupSwitchInsnNode l) {
      to.add(l.dflt);
      to.addAll(l.labels);
    }
    return to;
  }

  private static boolean endsBlock(AbstractInsnNode n) {
    int op = n.getOpcode();
    return n instanceof JumpInsnNode || op == Opcodes.TABLESWITCH || op == Opcodes.LOOKUPSWITCH
        || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) || op == Opcodes.ATHROW;
  }

  /**
   * The meter's local (and, counting, the caller's profile node after it) must be in every stack map
   * frame. Expanded frames list each local once, a long or a double standing for two slots; the slots
   * up to the meter's are unused (TOP).
   */
  private static void addMeterToFrame(FrameNode f, int meter, boolean withCaller) {
    if (f.type != Opcodes.F_NEW) {
      throw new IllegalStateException("frames must be expanded (ClassReader.EXPAND_FRAMES)");
    }
    if (f.local == null) {
      f.local = new java.util.ArrayList<>();
    }
    int slots = 0;
    for (Object local : f.local) {
      slots += local == Opcodes.LONG || local == Opcodes.DOUBLE ? 2 : 1;
    }
    while (slots < meter) {
      f.local.add(Opcodes.TOP);
      slots++;
    }
    f.local.add(METER);
    if (withCaller) {
      f.local.add(NODE);
    }
  }

  /**
   * Before a bulk library call or an array allocation: add its bytes, known only when it runs; before a
   * call whose target is known only when it runs ({@link #dynamic}): whether it is a library call.
   */
  private void insertBulkHook(InsnList insns, AbstractInsnNode n, int meter) {
    InsnList hook = null;
    int op = n.getOpcode();
    if (op == Opcodes.NEWARRAY) {
      hook = elements(meter, primitiveSize(((IntInsnNode) n).operand));
    } else if (op == Opcodes.ANEWARRAY) {
      hook = elements(meter, 4); // a compressed reference
    } else if (n instanceof MethodInsnNode call && !scope.counted(call.owner)) {
      hook = dynamic(call) ? dynamicCallHook(call, meter) : bulkCallHook(call, meter);
    }
    if (hook != null) {
      insns.insertBefore(n, hook);
    }
  }

  /** {@code Object}'s methods a counted class may override, called through {@code Object}. */
  private static final java.util.Set<String> OVERRIDABLE_OBJECT_METHODS = java.util.Set.of("hashCode()I",
      "equals(Ljava/lang/Object;)Z", "toString()Ljava/lang/String;");

  /**
   * Whether a call into an uncounted owner may reach counted code, decided as it runs: an interface call
   * ({@code Iterator.next} on a counted iterator) or an overridable {@code Object} method, whose receiver
   * is the only argument or comes before one other of one slot (so that the hook can copy it).
   */
  static boolean dynamic(MethodInsnNode call) {
    boolean candidate = call.getOpcode() == Opcodes.INVOKEINTERFACE
        || call.getOpcode() == Opcodes.INVOKEVIRTUAL && call.owner.equals("java/lang/Object")
            && OVERRIDABLE_OBJECT_METHODS.contains(call.name + call.desc);
    if (!candidate) {
      return false;
    }
    Type[] args = Type.getArgumentTypes(call.desc);
    return args.length == 0 || args.length == 1 && args[0].getSize() == 1;
  }

  /** Stack: ..., receiver[, arg] → the same, with the call counted as a library call unless it reaches counted code. */
  private static InsnList dynamicCallHook(MethodInsnNode call, int meter) {
    InsnList l = new InsnList();
    if (Type.getArgumentTypes(call.desc).length == 0) {
      l.add(new InsnNode(Opcodes.DUP));
    } else {
      l.add(new InsnNode(Opcodes.DUP2));
      l.add(new InsnNode(Opcodes.POP));
    }
    l.add(new VarInsnNode(Opcodes.ALOAD, meter));
    l.add(new LdcInsnNode(CountedClasses.site(call.name, call.desc)));
    l.add(new LdcInsnNode(LibraryReads.perCall(call.owner, call.name, call.desc)));
    l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, METER, "dynamicCall",
        "(Ljava/lang/Object;" + METER_DESC + "II)V", false));
    return l;
  }

  /**
   * Platform packages whose methods taking {@code (array, int, int)} last mean {@code (offset, length)}:
   * streams and buffers ({@code write(byte[], off, len)}, {@code get(byte[], off, len)}), strings
   * ({@code new String(bytes, off, len)}, {@code append(char[], off, len)}), checksums.
   */
  private static final List<String> OFFSET_LENGTH_OWNERS = List.of("java/io/", "java/nio/", "java/lang/String",
      "java/lang/AbstractStringBuilder", "java/util/zip/");

  /**
   * The hook of a library call that moves a number of bytes given by its last arguments, or null:
   * {@code System.arraycopy} and {@code Arrays.copyOf} (a length), {@code Arrays} methods over
   * {@code (array, from, to)} (to - from), and the offset-and-length methods of
   * {@link #OFFSET_LENGTH_OWNERS}: elements of the array's type, in bytes (those of
   * {@code System.arraycopy}, whose arrays' type is not in its signature, count a byte each, as in the
   * byte arrays that records are made of).
   */
  private static InsnList bulkCallHook(MethodInsnNode call, int meter) {
    Type[] args = Type.getArgumentTypes(call.desc);
    int n = args.length;
    boolean arrayIntInt = n >= 3 && args[n - 3].getSort() == Type.ARRAY && args[n - 2] == Type.INT_TYPE
        && args[n - 1] == Type.INT_TYPE;
    if (call.owner.equals("java/util/Arrays") && !call.name.equals("copyOf")) {
      if (!arrayIntInt) {
        return null;
      }
      // (..., array, from, to): to - from elements
      InsnList l = new InsnList();
      l.add(new InsnNode(Opcodes.DUP2));
      l.add(new InsnNode(Opcodes.ISUB));
      l.add(new InsnNode(Opcodes.INEG));
      l.add(addElements(meter, elementSize(args[n - 3])));
      return l;
    }
    boolean arraycopy = call.owner.equals("java/lang/System") && call.name.equals("arraycopy");
    boolean copyOf = call.owner.equals("java/util/Arrays") && n == 2 && args[0].getSort() == Type.ARRAY
        && args[1] == Type.INT_TYPE;
    boolean offsetLength = arrayIntInt && OFFSET_LENGTH_OWNERS.stream().anyMatch(call.owner::startsWith);
    if (arraycopy || copyOf || offsetLength) {
      // The last argument is the length.
      InsnList l = new InsnList();
      l.add(new InsnNode(Opcodes.DUP));
      l.add(addElements(meter, arraycopy ? 1 : elementSize(copyOf ? args[0] : args[n - 3])));
      return l;
    }
    return null;
  }

  /** Bytes of one element of an array type (a reference: a compressed one). */
  private static int elementSize(Type array) {
    return switch (array.getElementType().getSort()) {
      case Type.BOOLEAN, Type.BYTE -> 1;
      case Type.CHAR, Type.SHORT -> 2;
      case Type.INT, Type.FLOAT, Type.OBJECT, Type.ARRAY -> 4;
      default -> 8;
    };
  }

  /** Stack: ..., n → ..., (n x size bytes added to the meter's bulk). */
  private static InsnList addElements(int meter, int size) {
    if (size == 1) {
      return addBulk(meter);
    }
    InsnList l = new InsnList();
    l.add(new VarInsnNode(Opcodes.ALOAD, meter));
    l.add(new InsnNode(Opcodes.SWAP));
    l.add(new IntInsnNode(Opcodes.BIPUSH, size));
    l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, METER, "addElements", "(" + METER_DESC + "II)V", false));
    return l;
  }

  /** Stack: ..., n → ..., (n bytes added to the meter's bulk). */
  private static InsnList addBulk(int meter) {
    InsnList l = new InsnList();
    l.add(new VarInsnNode(Opcodes.ALOAD, meter));
    l.add(new InsnNode(Opcodes.SWAP));
    l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, METER, "addBulk", "(" + METER_DESC + "I)V", false));
    return l;
  }

  /** Stack: ..., count → ..., count (count x size bytes added). */
  private static InsnList elements(int meter, int size) {
    InsnList l = new InsnList();
    l.add(new InsnNode(Opcodes.DUP));
    l.add(addElements(meter, size));
    return l;
  }

  private static int primitiveSize(int type) {
    return switch (type) {
      case Opcodes.T_BOOLEAN, Opcodes.T_BYTE -> 1;
      case Opcodes.T_CHAR, Opcodes.T_SHORT -> 2;
      case Opcodes.T_INT, Opcodes.T_FLOAT -> 4;
      default -> 8; // T_LONG, T_DOUBLE
    };
  }

  /** One basic block: where it starts and what it counts. */
  private final class Block {
    private final AbstractInsnNode first;
    private final boolean checksStop;
    /** At an exception handler, counting: the caller's node's local and the method's number; else null. */
    private final int[] resume;
    private long ops;
    private long memory;
    private long calls;
    private long reads;

    Block(AbstractInsnNode first, boolean checksStop, int[] resume) {
      this.first = first;
      this.checksStop = checksStop;
      this.resume = resume;
    }

    void count(AbstractInsnNode n) {
      ops++;
      int op = n.getOpcode();
      if (touchesHeap(op)) {
        memory++;
      }
      if (n instanceof InvokeDynamicInsnNode) {
        calls++;
        reads += LibraryReads.invokeDynamic();
      } else if (n instanceof MethodInsnNode call && !scope.counted(call.owner) && !dynamic(call)) {
        calls++;
        reads += LibraryReads.perCall(call.owner, call.name, call.desc);
      }
    }

    /** The block's counts, added to the meter just before its first instruction. */
    void emit(InsnList insns, int meter, java.util.Map<AbstractInsnNode, AbstractInsnNode> leaveOf) {
      InsnList l = new InsnList();
      if (resume != null) {
        // Before this block's counts: what was counted since the last boundary is the thrower's.
        l.add(new VarInsnNode(Opcodes.ALOAD, meter));
        l.add(new VarInsnNode(Opcodes.ALOAD, resume[0]));
        l.add(new LdcInsnNode(resume[1]));
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, METER, "resume", "(" + METER_DESC + NODE_DESC + "I)V", false));
      }
      if (counting) {
        add(l, meter, "ops", ops);
        add(l, meter, "memory", memory);
        add(l, meter, "calls", calls);
        add(l, meter, "reads", reads);
      }
      if (checksStop) {
        l.add(new VarInsnNode(Opcodes.ALOAD, meter));
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, METER, "check", "(" + METER_DESC + ")V", false));
      }
      if (l.size() == 0) {
        return;
      }
      if (first.getOpcode() == Opcodes.NEW) {
        // Frames name an uninitialized object by the offset of its NEW: nothing may come between the
        // label that marks it and the NEW, so the counts go after it (above the new reference).
        insns.insert(first, l);
      } else {
        insns.insertBefore(leaveOf.getOrDefault(first, first), l);
      }
    }

    private static void add(InsnList l, int meter, String field, long n) {
      if (n == 0) {
        return;
      }
      l.add(new VarInsnNode(Opcodes.ALOAD, meter));
      l.add(new InsnNode(Opcodes.DUP));
      l.add(new org.objectweb.asm.tree.FieldInsnNode(Opcodes.GETFIELD, METER, field, "J"));
      l.add(new LdcInsnNode(n));
      l.add(new InsnNode(Opcodes.LADD));
      l.add(new org.objectweb.asm.tree.FieldInsnNode(Opcodes.PUTFIELD, METER, field, "J"));
    }
  }

  private static final List<int[]> HEAP_RANGES = List.of(
      new int[] {Opcodes.IALOAD, Opcodes.SALOAD},
      new int[] {Opcodes.IASTORE, Opcodes.SASTORE},
      new int[] {Opcodes.GETSTATIC, Opcodes.PUTFIELD});

  /** Field and static loads and stores, array loads, stores and lengths, allocations. */
  static boolean touchesHeap(int op) {
    for (int[] r : HEAP_RANGES) {
      if (op >= r[0] && op <= r[1]) {
        return true;
      }
    }
    return op == Opcodes.ARRAYLENGTH || op == Opcodes.NEW || op == Opcodes.NEWARRAY || op == Opcodes.ANEWARRAY
        || op == Opcodes.MULTIANEWARRAY;
  }
}
