package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.contract.AbstractContractAppendTest;
import org.apache.hadoop.fs.contract.AbstractContractBulkDeleteTest;
import org.apache.hadoop.fs.contract.AbstractContractConcatTest;
import org.apache.hadoop.fs.contract.AbstractContractContentSummaryTest;
import org.apache.hadoop.fs.contract.AbstractContractCopyFromLocalTest;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractContractDeleteTest;
import org.apache.hadoop.fs.contract.AbstractContractGetEnclosingRoot;
import org.apache.hadoop.fs.contract.AbstractContractGetFileStatusTest;
import org.apache.hadoop.fs.contract.AbstractContractMkdirTest;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractContractRenameTest;
import org.apache.hadoop.fs.contract.AbstractContractRootDirectoryTest;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractContractSetTimesTest;
import org.apache.hadoop.fs.contract.AbstractContractStreamIOStatisticsTest;
import org.apache.hadoop.fs.contract.AbstractContractUnbufferTest;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;
import org.smartssd.device.client.DeviceTransports;
import org.smartssd.device.runtime.DeviceProcess;
import org.smartssd.device.runtime.TestDevices;

/**
 * Hadoop's own file system contract suites against one real device process, started once for all
 * of them: each suite is a {@link Nested} class of this one (Apache Ozone's
 * {@code AbstractOzoneContractTest} pattern), and the suites share the cached file system. The
 * suites run one after the other, as JUnit runs them by default; the root directory suite empties
 * the device.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ObjfsContractSuitesIT {
  private Path dataDir;
  private DeviceProcess device;
  private URI fsUri;
  /** The device's secret, given to every file system of the suites. */
  private static Path secretFile;

  @BeforeAll
  void startDevice() throws IOException {
    // The suites must run over the transport they are run for, not quietly over the Java one.
    Optional<String> unavailable = DeviceTransports.find(TRANSPORT).orElseThrow().unavailable();
    assertThat(unavailable).as("transport %s", TRANSPORT).isEmpty();
    dataDir = Files.createTempDirectory("objfs-contract");
    // The suites run against a device that requires hosts to authenticate, as a shared one would.
    secretFile = dataDir.resolve("secret");
    org.smartssd.device.protocol.HostSecret.generate(secretFile);
    java.util.Map<String, String> settings = TestDevices.small(dataDir.resolve("device"));
    settings.put("smartssd.device.host.secret-file", secretFile.toString());
    device = DeviceProcess.start(dataDir.resolve("device"), settings);
    fsUri = URI.create(ObjectFileSystem.SCHEME + "://" + device.address());
  }

  @AfterAll
  void stopDevice() throws Exception {
    try {
      FileSystem.get(fsUri, withObjfs(new Configuration())).close();
    } finally {
      if (device != null) {
        device.close();
      }
      FileUtil.fullyDelete(dataDir.toFile());
    }
  }

  /** Short timeouts: a device that stops answering fails a test within seconds, not minutes. */
  static Configuration withObjfs(Configuration conf) {
    conf.set(ObjfsConfigKeys.REQUEST_TIMEOUT, "20s");
    conf.set(ObjfsConfigKeys.CONNECT_TIMEOUT, "5s");
    conf.set(ObjfsConfigKeys.TRANSPORT, TRANSPORT);
    conf.set(ObjfsConfigKeys.SECRET_FILE, secretFile.toString());
    return conf;
  }

  /** The transport under test: the build runs these suites once per transport (smartssd.test.transport). */
  static final String TRANSPORT = System.getProperty("smartssd.test.transport", DeviceTransports.JAVA);

  AbstractFSContract createContract(Configuration conf) {
    return new ObjfsContract(conf, fsUri);
  }

  @Nested
  class Create extends AbstractContractCreateTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class Open extends AbstractContractOpenTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class Seek extends AbstractContractSeekTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  /** Run once for each buffer type Hadoop's suite asks for (heap and direct): a parameterized class. */
  @Nested
  class VectoredRead extends AbstractContractVectoredReadTest {
    VectoredRead(String bufferType) {
      super(bufferType);
    }

    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class Rename extends AbstractContractRenameTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class Delete extends AbstractContractDeleteTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class Mkdir extends AbstractContractMkdirTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  /** setTimes, which the device keeps (and checks: write access is needed, as in HDFS). */
  @Nested
  class SetTimes extends AbstractContractSetTimesTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  /** Also the listing suite: listStatus, listStatusIterator, listFiles and listLocatedStatus. */
  @Nested
  class GetFileStatus extends AbstractContractGetFileStatusTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class Append extends AbstractContractAppendTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  /** Declared unsupported: every test skips in setup. */
  @Nested
  class Concat extends AbstractContractConcatTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class RootDirectory extends AbstractContractRootDirectoryTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class Unbuffer extends AbstractContractUnbufferTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class ContentSummary extends AbstractContractContentSummaryTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  /** FileSystem's default bulk delete (a page of one path, deleted through delete()). */
  @Nested
  class BulkDelete extends AbstractContractBulkDeleteTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class StreamIOStatistics extends AbstractContractStreamIOStatisticsTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class CopyFromLocal extends AbstractContractCopyFromLocalTest {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }

  @Nested
  class GetEnclosingRoot extends AbstractContractGetEnclosingRoot {
    @Override
    protected Configuration createConfiguration() {
      return withObjfs(super.createConfiguration());
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
      return ObjfsContractSuitesIT.this.createContract(conf);
    }
  }
}
