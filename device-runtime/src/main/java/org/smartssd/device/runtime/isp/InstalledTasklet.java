package org.smartssd.device.runtime.isp;

import java.util.Map;

/** A tasklet installed by {@code create_object}: its code and the parameters its instances get. */
record InstalledTasklet(long id, LoadedTasklet code, Map<String, String> parameters) {
  InstalledTasklet {
    parameters = Map.copyOf(parameters);
  }

  String className() {
    return code.className();
  }
}
