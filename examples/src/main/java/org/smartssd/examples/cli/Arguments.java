package org.smartssd.examples.cli;

import java.util.Locale;
import picocli.CommandLine;

/** Checks of a command's arguments that picocli's types do not make. */
final class Arguments {
  private Arguments() {}

  /** A bad argument unless {@code ok}: the message (a format) names the option. */
  static void check(CommandLine cl, boolean ok, String format, Object... args) {
    if (!ok) {
      throw new CommandLine.ParameterException(cl, String.format(Locale.ROOT, format, args));
    }
  }
}
