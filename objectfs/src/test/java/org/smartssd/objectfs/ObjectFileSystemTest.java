package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.runtime.TestDevices;

/** The file system's own behaviour beyond the contract suites, against a device in this JVM. */
class ObjectFileSystemTest {
  @TempDir static java.nio.file.Path dataDir;
  private static LocalDevice device;
  private FileSystem fs;

  @BeforeAll
  static void startDevice() throws IOException {
    device = LocalDevice.start(dataDir);
  }

  @AfterAll
  static void stopDevice() throws IOException {
    device.close();
  }

  @BeforeEach
  void open() throws IOException {
    fs = device.newFileSystem(LocalDevice.conf());
  }

  @AfterEach
  void cleanUp() throws IOException {
    for (FileStatus child : fs.listStatus(new Path("/"))) {
      fs.delete(child.getPath(), true);
    }
    fs.close();
  }

  @Test
  void isRegisteredThroughServiceLoader() throws IOException {
    Configuration conf = LocalDevice.conf();
    assertThat(conf.get("fs.objfs.impl")).isNull();
    try (FileSystem viaRegistry = FileSystem.newInstance(device.uri, conf)) {
      assertThat(viaRegistry).isInstanceOf(ObjectFileSystem.class);
      assertThat(viaRegistry.getScheme()).isEqualTo("objfs");
      assertThat(viaRegistry.getUri()).isEqualTo(device.uri);
    }
  }

  @Test
  void relativePathsResolveAgainstTheWorkingDirectory() throws IOException {
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    assertThat(fs.getWorkingDirectory()).isEqualTo(fs.makeQualified(new Path("/user/" + user)));
    fs.setWorkingDirectory(new Path("/work"));
    write(new Path("dir/file"), "relative");
    assertThat(fs.getFileStatus(new Path("/work/dir/file")).getLen()).isEqualTo(8);
    fs.setWorkingDirectory(new Path("dir"));
    assertThat(fs.getWorkingDirectory()).isEqualTo(fs.makeQualified(new Path("/work/dir")));
    assertThat(read(new Path("file"))).isEqualTo("relative");
  }

  @Test
  void rejectsPathsTheDeviceCannotStore() {
    Path longName = new Path("/" + "n".repeat(256));
    assertThatThrownBy(() -> fs.create(longName))
        .isInstanceOf(InvalidPathException.class)
        .hasMessageContaining(device.uri.toString())
        .hasMessageContaining("255 bytes");
  }

  @Test
  void fileStatusHasTheDevicesPermissionsOwnerAndPositiveBlockSize() throws IOException {
    Path file = new Path("/status/file");
    write(file, "abc");
    FileStatus f = fs.getFileStatus(file);
    FileStatus d = fs.getFileStatus(file.getParent());
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    assertThat(f.isFile()).isTrue();
    assertThat(f.getLen()).isEqualTo(3);
    assertThat(f.getBlockSize()).isEqualTo(ObjfsConfigKeys.BLOCK_SIZE_DEFAULT);
    assertThat(f.getReplication()).isEqualTo((short) 1);
    assertThat(f.getPermission()).isEqualTo(new FsPermission((short) 0644));
    assertThat(f.getOwner()).isEqualTo(user);
    assertThat(f.getPath()).isEqualTo(fs.makeQualified(file));
    assertThat(f.getModificationTime()).isPositive();
    assertThat(f.getGroup()).isEqualTo("supergroup"); // the root's, as HDFS gives a new file its parent's
    assertThat(f.getAccessTime()).isPositive();
    assertThat(d.isDirectory()).isTrue();
    // A parent that create made on the way: the file's permission with u+wx, as HDFS makes it.
    assertThat(d.getPermission()).isEqualTo(new FsPermission((short) 0744));
    assertThat(fs.getDefaultBlockSize(file)).isEqualTo(ObjfsConfigKeys.BLOCK_SIZE_DEFAULT);
  }

  @Test
  void blockLocationsNameTheDevicesHostPerBlock() throws IOException {
    Configuration conf = LocalDevice.conf();
    conf.set(ObjfsConfigKeys.BLOCK_SIZE, "1k");
    try (FileSystem small = device.newFileSystem(conf)) {
      Path file = new Path("/blocks/file");
      try (FSDataOutputStream out = small.create(file)) {
        out.write(new byte[2500]);
      }
      FileStatus status = small.getFileStatus(file);
      BlockLocation[] all = small.getFileBlockLocations(status, 0, status.getLen());
      assertThat(all).hasSize(3);
      long[] offsets = {0, 1024, 2048};
      long[] lengths = {1024, 1024, 452};
      for (int i = 0; i < all.length; i++) {
        assertThat(all[i].getOffset()).isEqualTo(offsets[i]);
        assertThat(all[i].getLength()).isEqualTo(lengths[i]);
        assertThat(all[i].getHosts()).containsExactly("test-device");
      }
      BlockLocation[] middle = small.getFileBlockLocations(file, 1500, 10);
      assertThat(middle).hasSize(1);
      assertThat(middle[0].getOffset()).isEqualTo(1024);
      assertThat(small.getFileBlockLocations(status, 2500, 10)).isEmpty();
      assertThat(small.getFileBlockLocations(small.getFileStatus(file.getParent()), 0, 10)).isEmpty();
    }
    conf.set(ObjfsConfigKeys.HOST, "node7");
    try (FileSystem elsewhere = device.newFileSystem(conf)) {
      BlockLocation[] located = elsewhere.getFileBlockLocations(new Path("/blocks/file"), 0, 1);
      assertThat(located[0].getHosts()).containsExactly("node7");
      assertThat(located[0].getNames()).containsExactly("node7:" + device.uri.getPort());
    }
  }

  @Test
  @SuppressWarnings("deprecation") // the per-scheme statistics are what MapReduce counters read
  void listsInPagesAndAFileAsItself() throws IOException {
    Configuration conf = LocalDevice.conf();
    conf.setInt(ObjfsConfigKeys.LIST_PAGE_SIZE, 2);
    try (FileSystem paged = device.newFileSystem(conf)) {
      Path dir = new Path("/paged");
      for (int i = 0; i < 5; i++) {
        paged.create(new Path(dir, "f" + i)).close();
      }
      FileSystem.Statistics stats = FileSystem.getStatistics("objfs", ObjectFileSystem.class);
      long largeBefore = stats.getLargeReadOps();
      FileStatus[] listed = paged.listStatus(dir);
      assertThat(names(listed)).containsExactly("f0", "f1", "f2", "f3", "f4");
      assertThat(stats.getLargeReadOps() - largeBefore).isEqualTo(2);
      List<String> iterated = new ArrayList<>();
      RemoteIterator<FileStatus> it = paged.listStatusIterator(dir);
      while (it.hasNext()) {
        iterated.add(it.next().getPath().getName());
      }
      assertThat(iterated).containsExactly("f0", "f1", "f2", "f3", "f4");
      FileStatus[] self = paged.listStatus(new Path(dir, "f3"));
      assertThat(self).hasSize(1);
      assertThat(self[0].getPath()).isEqualTo(paged.makeQualified(new Path(dir, "f3")));
    }
  }

  /**
   * Each case of rename as HDFS answers it (Hadoop's file system specification, {@code rename}; HDFS
   * returns false where the specification lets a file system choose): the answer, and what is left.
   */
  @Test
  void renameAnswersAsHdfsDoes() throws IOException {
    write(new Path("/r/a"), "a");
    write(new Path("/r/b"), "b");
    fs.mkdirs(new Path("/r/dir/sub"));
    write(new Path("/r/dir/sub/c"), "c");

    // true: moved, or already there
    assertThat(fs.rename(new Path("/r/a"), new Path("/r/dir"))).as("a file into a directory").isTrue();
    assertThat(read(new Path("/r/dir/a"))).isEqualTo("a");
    assertThat(fs.exists(new Path("/r/a"))).isFalse();
    assertThat(fs.rename(new Path("/r/dir/a"), new Path("/r/dir/a"))).as("a file onto itself").isTrue();
    assertThat(fs.rename(new Path("/r/dir/a"), new Path("/r/dir"))).as("into the directory it is in").isTrue();
    assertThat(read(new Path("/r/dir/a"))).isEqualTo("a");

    // false, and nothing changed
    assertThat(fs.rename(new Path("/r/b"), new Path("/r/dir/a"))).as("onto an existing file").isFalse();
    assertThat(read(new Path("/r/b"))).isEqualTo("b");
    assertThat(read(new Path("/r/dir/a"))).isEqualTo("a");
    assertThat(fs.rename(new Path("/r/missing"), new Path("/r/c"))).as("a missing source").isFalse();
    assertThat(fs.exists(new Path("/r/c"))).isFalse();
    assertThat(fs.rename(new Path("/"), new Path("/x"))).as("the root").isFalse();
    assertThat(fs.rename(new Path("/r/b"), new Path("/r/no/such/b"))).as("a missing destination parent").isFalse();
    assertThat(fs.exists(new Path("/r/no"))).as("no parent made").isFalse();
    assertThat(read(new Path("/r/b"))).isEqualTo("b");
    assertThat(fs.rename(new Path("/r/dir"), new Path("/r/dir/sub/inside"))).as("into its own subtree").isFalse();
    assertThat(fs.rename(new Path("/r/dir"), new Path("/r/dir"))).as("a directory onto itself").isFalse();
    assertThat(fs.rename(new Path("/r/dir"), new Path("/r/dir/sub"))).as("a directory into its child").isFalse();
    fs.mkdirs(new Path("/r/other/sub"));
    assertThat(fs.rename(new Path("/r/dir/sub"), new Path("/r/other"))).as("into a directory that has the name")
        .isFalse();
    assertThat(read(new Path("/r/dir/sub/c"))).isEqualTo("c");
    assertThat(fs.listStatus(new Path("/r/other/sub"))).isEmpty();

    // an exception: the destination's parent is a file
    assertThatThrownBy(() -> fs.rename(new Path("/r/b"), new Path("/r/dir/a/b")))
        .isInstanceOf(org.apache.hadoop.fs.ParentNotDirectoryException.class)
        .hasMessageContaining(device.uri + "/r/dir/a");
    assertThat(read(new Path("/r/b"))).isEqualTo("b");

    assertThat(fs.rename(new Path("/r/dir"), new Path("/moved"))).as("a directory to a new name").isTrue();
    assertThat(read(new Path("/moved/a"))).isEqualTo("a");
    assertThat(read(new Path("/moved/sub/c"))).isEqualTo("c");
    assertThat(fs.exists(new Path("/r/dir"))).isFalse();
  }

  @Test
  void theRootIsNeverDeleted() throws IOException {
    write(new Path("/keep"), "k");
    assertThat(fs.delete(new Path("/"), true)).isFalse();
    assertThat(fs.exists(new Path("/keep"))).isTrue();
    assertThatThrownBy(() -> fs.delete(new Path("/"), false))
        .isInstanceOf(org.apache.hadoop.fs.PathIsNotEmptyDirectoryException.class);
    assertThat(fs.delete(new Path("/keep/under/a/file"), true)).isFalse();
  }

  @Test
  @SuppressWarnings("deprecation") // the per-scheme statistics are what MapReduce counters read
  void statisticsCountBytesAndOperations() throws IOException {
    FileSystem.Statistics stats = FileSystem.getStatistics("objfs", ObjectFileSystem.class);
    long written = stats.getBytesWritten();
    long readBytes = stats.getBytesRead();
    long writeOps = stats.getWriteOps();
    long readOps = stats.getReadOps();
    byte[] data = TestDevices.bytes(100_000, 3);
    Path file = new Path("/stats/file");
    try (FSDataOutputStream out = fs.create(file)) {
      out.write(data);
    }
    byte[] back = new byte[data.length];
    try (FSDataInputStream in = fs.open(file)) {
      in.readFully(back);
    }
    assertArrayEquals(data, back);
    assertThat(stats.getBytesWritten() - written).isEqualTo(data.length);
    assertThat(stats.getBytesRead() - readBytes).isEqualTo(data.length);
    assertThat(stats.getWriteOps() - writeOps).isEqualTo(1);
    assertThat(stats.getReadOps() - readOps).isEqualTo(1);
  }

  @Test
  void appendContinuesTheFileAndReportsItsPosition() throws IOException {
    Path file = new Path("/append/file");
    write(file, "hello ");
    try (FSDataOutputStream out = fs.append(file)) {
      assertThat(out.getPos()).isEqualTo(6);
      out.write("world".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(read(file)).isEqualTo("hello world");
    assertThat(fs.hasPathCapability(file, CommonPathCapabilities.FS_APPEND)).isTrue();
    assertThat(fs.hasPathCapability(file, CommonPathCapabilities.FS_CONCAT)).isFalse();
  }

  @Test
  void createNonRecursiveNeedsTheParent() throws IOException {
    assertThatThrownBy(() -> fs.createNonRecursive(new Path("/nr/file"), true, 4096, (short) 1, 1024, null))
        .isInstanceOf(java.io.FileNotFoundException.class)
        .hasMessageContaining(device.uri + "/nr/file");
    fs.mkdirs(new Path("/nr"));
    fs.createNonRecursive(new Path("/nr/file"), false, 4096, (short) 1, 1024, null).close();
    assertThat(fs.getFileStatus(new Path("/nr/file")).isFile()).isTrue();
  }

  @Test
  void contentSummaryAndSpace() throws IOException {
    write(new Path("/cs/a/f1"), "12345");
    write(new Path("/cs/b/f2"), "123");
    ContentSummary summary = fs.getContentSummary(new Path("/cs"));
    assertThat(summary.getLength()).isEqualTo(8);
    assertThat(summary.getFileCount()).isEqualTo(2);
    assertThat(summary.getDirectoryCount()).isEqualTo(3);
    FsStatus space = fs.getStatus(new Path("/"));
    assertThat(space.getCapacity()).isPositive();
    assertThat(space.getRemaining()).isLessThanOrEqualTo(space.getCapacity());
  }

  @Test
  void closingTheFileSystemClosesItsWritersKeepingTheirBytes() throws IOException {
    FileSystem other = device.newFileSystem(LocalDevice.conf());
    FSDataOutputStream out = other.create(new Path("/unclosed"));
    out.write("buffered".getBytes(StandardCharsets.UTF_8));
    other.close();
    other.close(); // idempotent
    assertThat(read(new Path("/unclosed"))).isEqualTo("buffered");
    assertThatThrownBy(() -> out.write(1)).isInstanceOf(IOException.class);
  }

  private void write(Path file, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(file)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private String read(Path file) throws IOException {
    try (FSDataInputStream in = fs.open(file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static List<String> names(FileStatus[] statuses) {
    List<String> names = new ArrayList<>();
    for (FileStatus s : statuses) {
      names.add(s.getPath().getName());
    }
    return names;
  }
}
