package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * objfs as HDFS users keep their data: each Hadoop user's file system identifies as that user, the
 * umask applies, and the device refuses what HDFS would refuse, as Hadoop's AccessControlException.
 * This process's user runs the device, and so is its superuser.
 */
class ObjfsPermissionsTest {
  @TempDir java.nio.file.Path dataDir;
  private LocalDevice device;
  private FileSystem admin;

  @BeforeEach
  void start() throws IOException {
    device = LocalDevice.start(dataDir, Map.of("smartssd.device.meta.access-time-precision-ms", "0"));
    admin = device.newFileSystem(LocalDevice.conf());
  }

  @AfterEach
  void stop() throws IOException {
    admin.close();
    device.close();
  }

  /** {@code action} with a file system of user {@code user} in {@code groups}, closed after. */
  private <T> T as(String user, String[] groups, Configuration conf, FsAction<T> action) throws Exception {
    UserGroupInformation ugi = UserGroupInformation.createUserForTesting(user, groups);
    return ugi.doAs((PrivilegedExceptionAction<T>) () -> {
      try (FileSystem fs = device.newFileSystem(conf)) {
        return action.apply(fs);
      }
    });
  }

  private <T> T as(String user, FsAction<T> action) throws Exception {
    return as(user, new String[] {user + "-group"}, LocalDevice.conf(), action);
  }

  @FunctionalInterface
  interface FsAction<T> {
    T apply(FileSystem fs) throws Exception;
  }

  private static void write(FileSystem fs, Path p, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void theUmaskAppliesAndWhatIsSetIsKept() throws Exception {
    Configuration conf = LocalDevice.conf();
    conf.set(CommonConfigurationKeys.FS_PERMISSIONS_UMASK_KEY, "027");
    try (FileSystem fs = device.newFileSystem(conf)) {
      fs.mkdirs(new Path("/masked/dir"));
      write(fs, new Path("/masked/dir/f"), "x");
      assertThat(fs.getFileStatus(new Path("/masked/dir")).getPermission()).isEqualTo(new FsPermission((short) 0750));
      assertThat(fs.getFileStatus(new Path("/masked/dir/f")).getPermission()).isEqualTo(new FsPermission((short) 0640));
      fs.setPermission(new Path("/masked/dir/f"), new FsPermission((short) 01604));
      fs.setOwner(new Path("/masked/dir/f"), "alice", "analysts");
      fs.setTimes(new Path("/masked/dir/f"), 1_000_000L, 2_000_000L);
      FileStatus f = fs.getFileStatus(new Path("/masked/dir/f"));
      assertThat(f.getPermission().toShort()).isEqualTo((short) 01604);
      assertThat(f.getOwner()).isEqualTo("alice");
      assertThat(f.getGroup()).isEqualTo("analysts");
      assertThat(f.getModificationTime()).isEqualTo(1_000_000L);
      assertThat(f.getAccessTime()).isEqualTo(2_000_000L);
      fs.setTimes(new Path("/masked/dir/f"), -1, 3_000_000L);
      assertThat(fs.getFileStatus(new Path("/masked/dir/f")).getModificationTime()).isEqualTo(1_000_000L);
    }
  }

  @Test
  void usersAreRefusedWhatHdfsRefusesThem() throws Exception {
    admin.mkdirs(new Path("/user/alice"));
    admin.setOwner(new Path("/user/alice"), "alice", "analysts");
    as("alice", new String[] {"analysts"}, LocalDevice.conf(), fs -> {
      write(fs, new Path("/user/alice/report.csv"), "a,b\n");
      fs.setPermission(new Path("/user/alice/report.csv"), new FsPermission((short) 0640));
      assertThat(fs.getFileStatus(new Path("/user/alice/report.csv")).getOwner()).isEqualTo("alice");
      assertThat(fs.getFileStatus(new Path("/user/alice/report.csv")).getGroup()).isEqualTo("analysts");
      assertThatThrownBy(() -> fs.setOwner(new Path("/user/alice/report.csv"), "bob", null))
          .isInstanceOf(AccessControlException.class).hasMessageContaining("non-super user cannot change owner");
      assertThatThrownBy(() -> fs.mkdirs(new Path("/elsewhere")))
          .isInstanceOf(AccessControlException.class)
          .hasMessageContaining("user=alice, access=WRITE, inode=\"/\":");
      return null;
    });
    as("bob", fs -> {
      assertThatThrownBy(() -> fs.open(new Path("/user/alice/report.csv")))
          .isInstanceOf(AccessControlException.class)
          .hasMessageContaining("user=bob, access=READ, inode=\"/user/alice/report.csv\":alice:analysts:-rw-r-----");
      assertThatThrownBy(() -> fs.create(new Path("/user/alice/bob.txt")))
          .isInstanceOf(AccessControlException.class);
      assertThatThrownBy(() -> fs.delete(new Path("/user/alice"), true)).isInstanceOf(AccessControlException.class);
      assertThat(fs.exists(new Path("/user/alice/report.csv"))).isTrue();
      return null;
    });
    // A member of the file's group reads it; the superuser too.
    String read = as("carol", new String[] {"analysts"}, LocalDevice.conf(),
        fs -> new String(fs.open(new Path("/user/alice/report.csv")).readAllBytes(), StandardCharsets.UTF_8));
    assertThat(read).isEqualTo("a,b\n");
    assertThat(admin.getFileStatus(new Path("/user/alice/report.csv")).getLen()).isEqualTo(4);
  }

  @Test
  void fsShellChmodChownAndLsShowTheDevicesAnswers() throws Exception {
    write(admin, new Path("/shell.txt"), "hello");
    FsShell shell = new FsShell(LocalDevice.conf());
    String uri = device.uri + "/shell.txt";
    assertThat(shell.run(new String[] {"-chmod", "600", uri})).isZero();
    assertThat(shell.run(new String[] {"-chown", "alice:analysts", uri})).isZero();
    FileStatus s = admin.getFileStatus(new Path("/shell.txt"));
    assertThat(s.getPermission()).isEqualTo(new FsPermission((short) 0600));
    assertThat(s.getOwner()).isEqualTo("alice");
    assertThat(s.getGroup()).isEqualTo("analysts");
    // Not alice, not in analysts: bob is refused, and the shell says so (exit code 1).
    Integer bobs = as("bob", fs -> new FsShell(LocalDevice.conf()).run(new String[] {"-cat", uri}));
    assertThat(bobs).isEqualTo(1);
  }
}
