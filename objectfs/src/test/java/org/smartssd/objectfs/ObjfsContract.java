package org.smartssd.objectfs;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's contract for objfs: {@code contract/objfs.xml}, over the device at {@code fsUri}. */
public class ObjfsContract extends AbstractFSContract {
  public static final String CONTRACT_XML = "contract/objfs.xml";

  private final URI fsUri;

  public ObjfsContract(Configuration conf, URI fsUri) {
    super(conf);
    addConfResource(CONTRACT_XML);
    this.fsUri = fsUri;
  }

  /** The cached instance for the device: suites share it, and the outer test class closes it. */
  @Override
  public FileSystem getTestFileSystem() throws IOException {
    return FileSystem.get(fsUri, getConf());
  }

  @Override
  public String getScheme() {
    return ObjectFileSystem.SCHEME;
  }

  @Override
  public Path getTestPath() {
    return new Path("/test");
  }
}
