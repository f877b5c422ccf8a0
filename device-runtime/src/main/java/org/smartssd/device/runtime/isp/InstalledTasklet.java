package org.smartssd.device.runtime.isp;

import java.util.Map;

/**
 * A tasklet installed by {@code create_object}: its code, the parameters its instances get, and the
 * connection that installed it (it goes when that connection ends).
 */
record InstalledTasklet(long id, LoadedTasklet code, Map<String, String> parameters, Object owner, String user) {
  InstalledTasklet {
    parameters = Map.copyOf(parameters);
  }

  String className() {
    return code.className();
  }
}
