package org.smartssd.objectfs;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;

/**
 * objfs for {@link org.apache.hadoop.fs.FileContext} users: set {@code
 * fs.AbstractFileSystem.objfs.impl} to this class.
 */
public class ObjFs extends DelegateToFileSystem {

  public ObjFs(URI theUri, Configuration conf) throws IOException, URISyntaxException {
    // "Authority not required" only because Hadoop then demands a default port, and a device has
    // none: ObjectFileSystem.initialize rejects a URI without host:port itself.
    super(theUri, new ObjectFileSystem(), conf, ObjectFileSystem.SCHEME, false);
  }
}
