package org.smartssd.examples.cli;

import org.apache.hadoop.util.VersionInfo;
import org.smartssd.device.protocol.ProtocolConstants;
import picocli.CommandLine;

/** What {@code --version} prints. */
final class Versions implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = Versions.class.getPackage().getImplementationVersion();
    return new String[] {
      "smartssd " + (version == null ? "(development build)" : version),
      "object command protocol " + ProtocolConstants.MIN_VERSION + ".." + ProtocolConstants.MAX_VERSION,
      "Hadoop " + VersionInfo.getVersion()
    };
  }
}
