package org.smartssd.device.runtime.isp;

import java.lang.reflect.InvocationTargetException;
import java.util.Objects;
import org.smartssd.device.tasklet.Tasklet;

/**
 * A tasklet class that passed the loader's checks, ready to be instantiated once per lane.
 *
 * @param className the name it was installed under
 * @param type its class, in its own class loader (or the device's, for a built-in)
 * @param merging whether it implements {@link org.smartssd.device.tasklet.MergingTasklet}
 * @param code the class loader of the tasklet's code: its jar's loader, also when the class itself is a
 *     runtime the device shares (which finds the jar's classes through it, as the lanes' context
 *     class loader); the device's for a built-in
 */
public record LoadedTasklet(String className, Class<? extends Tasklet> type, boolean merging, ClassLoader code) {

  public LoadedTasklet {
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(code, "code");
  }

  /**
   * A new instance, from the public no-argument constructor. Runs tasklet code (the constructor,
   * and the class's static initializer the first time), so call it where tasklet code may run.
   *
   * @throws TaskletRefusedException if the constructor or the static initializer throws, with what
   *     it threw as the cause
   */
  public Tasklet newInstance() throws TaskletRefusedException {
    try {
      return type.getConstructor().newInstance();
    } catch (InvocationTargetException e) {
      throw new TaskletRefusedException("the constructor of tasklet " + className + " threw " + e.getCause(),
          e.getCause());
    } catch (ExceptionInInitializerError e) {
      throw new TaskletRefusedException("the static initializer of tasklet " + className + " threw "
          + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new TaskletRefusedException("tasklet " + className + " cannot be instantiated: " + e, e);
    }
  }
}
