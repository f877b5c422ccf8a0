package org.smartssd.device.runtime.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.smartssd.device.protocol.HostSecret;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code smartssd secret FILE}: writes a new device secret. */
@Command(name = "secret", mixinStandardHelpOptions = true,
    description = "Write a new random secret to FILE (created readable and writable by its owner only; an existing"
        + " file is never overwritten), for `device start --secret-file FILE` and the device's clients.")
public final class SecretCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "FILE", description = "Where to write the secret.")
  Path file;

  @Override
  public Integer call() throws IOException {
    try {
      HostSecret.generate(file);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), file + " already exists; a secret is never"
          + " overwritten (remove it first if you mean to replace the devices' secret)");
    }
    spec.commandLine().getOut().printf("wrote a new secret to %s (mode 0600)%n", file);
    return 0;
  }
}
