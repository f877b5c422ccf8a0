package org.smartssd.device.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.smartssd.device.DeviceException;
import org.smartssd.device.ObjectStatus;
import org.smartssd.device.client.ClientIdentity;
import org.smartssd.device.client.ClientOptions;
import org.smartssd.device.client.DeviceAddress;
import org.smartssd.device.client.SocketDeviceClient;
import org.smartssd.device.protocol.Messages;
import org.smartssd.device.protocol.ProtocolConstants;
import org.smartssd.device.protocol.Request;
import org.smartssd.device.protocol.Response;
import org.smartssd.device.protocol.Status;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.builtin.RecordCounter;

/**
 * Owners, groups, permissions and times, kept by a real device and checked for the user each
 * connection identifies as (PROTOCOL.md, "Users and permissions"). The device runs as this
 * process's user, a superuser; alice and bob are not.
 */
class PermissionsTest {
  private static final String DEVICE_USER = System.getProperty("user.name");
  @TempDir Path dir;

  private static SocketDeviceClient as(SimulatedDevice device, String user, String... groups) throws IOException {
    return SocketDeviceClient.connect(DeviceAddress.parse(device.address()),
        ClientOptions.defaults().withIdentity(new ClientIdentity(user, List.of(groups))));
  }

  private static void write(SocketDeviceClient c, String path, int permission, byte[] data) throws IOException {
    long h = c.create(path, false, false, permission).handle();
    c.write(h, data, 0, data.length);
    c.closeHandle(h);
  }

  private static void denied(String what, Executable call) {
    DeviceException.PermissionDenied e = assertThrows(DeviceException.PermissionDenied.class, call::run, what);
    assertTrue(e.getMessage().contains("ermission denied") || e.getMessage().contains("super user")
        || e.getMessage().contains("does not belong") || e.getMessage().contains("Superuser"), e.getMessage());
  }

  @FunctionalInterface
  interface Executable {
    void run() throws Exception;
  }

  @Test
  void eachCommandIsCheckedForTheUserItsConnectionNamesWithHdfsRules() throws Exception {
    byte[] secret = TestDevices.bytes(5000, 1);
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
        SocketDeviceClient root = TestDevices.connect(device);
        SocketDeviceClient alice = as(device, "alice", "analysts");
        SocketDeviceClient bob = as(device, "bob", "staff")) {
      // The root is the device's, 0755: only a superuser makes home directories.
      ObjectStatus top = root.status("/");
      assertEquals(DEVICE_USER, top.owner());
      assertEquals("supergroup", top.group());
      assertEquals(0755, top.permission());
      denied("alice writing the root", () -> alice.mkdirs("/alice", 0755));
      root.mkdirs("/user/alice", 0755);
      root.setOwner("/user/alice", "alice", "analysts");
      ObjectStatus home = root.status("/user/alice");
      assertEquals("alice", home.owner());
      assertEquals("analysts", home.group());

      // New objects: the caller owns them, in the parent's group, with the permission asked for;
      // parents made on the way get it with u+wx.
      write(alice, "/user/alice/secret.log", 0600, secret);
      alice.mkdirs("/user/alice/a/b", 0500);
      ObjectStatus f = alice.status("/user/alice/secret.log");
      assertEquals(List.of("alice", "analysts", 0600), List.of(f.owner(), f.group(), f.permission()));
      assertEquals(0700, alice.status("/user/alice/a").permission());
      assertEquals(0500, alice.status("/user/alice/a/b").permission());

      // bob may look (0755 directory) but not read the file, nor write the directory.
      assertEquals(5000, bob.status("/user/alice/secret.log").length());
      assertEquals(3, bob.listAll("/user/alice").size() + 1);
      denied("bob opening a 0600 file", () -> bob.open("/user/alice/secret.log"));
      denied("bob reading it by object id", () -> bob.read(f.objectId(), 0, ByteBuffer.allocate(10)));
      denied("bob creating in her directory", () -> bob.create("/user/alice/bob.txt", false, false, 0644));
      denied("bob deleting her file", () -> bob.delete("/user/alice/secret.log", false));
      denied("bob renaming her file", () -> bob.rename("/user/alice/secret.log", "/user/alice/s"));
      denied("bob appending", () -> bob.append("/user/alice/secret.log"));
      denied("bob changing its mode", () -> bob.setPermission("/user/alice/secret.log", 0644));
      denied("bob setting its times", () -> bob.setTimes("/user/alice/secret.log", 1, 1));
      denied("bob taking it", () -> bob.setOwner("/user/alice/secret.log", "bob", ""));
      denied("bob shutting the device down", bob::shutdown);
      // A directory without x cannot be searched: what is below it is not found, nor said to be missing.
      alice.setPermission("/user/alice", 0700);
      denied("bob searching a 0700 directory", () -> bob.status("/user/alice/nothing-here"));
      denied("bob listing it", () -> bob.listAll("/user/alice"));

      // alice may not give her file away, nor put it in a group she is not in; her own group is fine.
      denied("alice giving it to bob", () -> alice.setOwner("/user/alice/secret.log", "bob", ""));
      denied("alice moving it to staff", () -> alice.setOwner("/user/alice/secret.log", "", "staff"));
      alice.setOwner("/user/alice/secret.log", "alice", "analysts");
      // A superuser may anything: read it, give it to bob.
      assertArrayEquals(secret, TestDevices.readAll(root, "/user/alice/secret.log"));
      root.setOwner("/user/alice/secret.log", "bob", "staff");
      assertEquals("bob", root.status("/user/alice/secret.log").owner());
      denied("bob still cannot search her directory", () -> bob.open("/user/alice/secret.log"));
      alice.setPermission("/user/alice", 0711);
      assertArrayEquals(secret, TestDevices.readAll(bob, "/user/alice/secret.log"));

      // A sticky directory: everyone may create, only an entry's owner (or the directory's) removes it.
      root.mkdirs("/tmp", 0777);
      root.setPermission("/tmp", 01777);
      write(alice, "/tmp/a", 0666, new byte[] {1});
      denied("bob deleting alice's file in sticky /tmp", () -> bob.delete("/tmp/a", false));
      denied("bob renaming it", () -> bob.rename("/tmp/a", "/tmp/b"));
      write(bob, "/tmp/mine", 0644, new byte[] {2});
      bob.delete("/tmp/mine", false);
      alice.delete("/tmp/a", false);

      // Deleting a tree needs rwx on each of its directories that holds something.
      alice.mkdirs("/user/alice/tree/locked", 0755);
      write(alice, "/user/alice/tree/locked/x", 0644, new byte[] {3});
      alice.setPermission("/user/alice/tree/locked", 0555);
      denied("alice deleting a tree with a read-only directory in it", () -> alice.delete("/user/alice/tree", true));
      alice.setPermission("/user/alice/tree/locked", 0755);
      alice.delete("/user/alice/tree", true);

      // Times: write access is needed; -1 keeps one.
      alice.setTimes("/user/alice/a", 1_000_000, ProtocolConstants.KEEP_TIME);
      ObjectStatus a = alice.status("/user/alice/a");
      assertEquals(1_000_000, a.modificationTimeMillis());
    }
  }

  @Test
  void anExecutionReadsOnlyWhatItsUserMayReadAndOnlyItsUserReadsItsResults() throws Exception {
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
        SocketDeviceClient root = TestDevices.connect(device);
        SocketDeviceClient alice = as(device, "alice");
        SocketDeviceClient bob = as(device, "bob")) {
      root.mkdirs("/data", 0777);
      write(alice, "/data/private.log", 0600, "a\nb\nc\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      long bobs = bob.createObject(ByteBuffer.allocate(0), RecordCounter.class.getName(), Map.of("delimiter", "10"));
      DeviceException.PermissionDenied e = assertThrows(DeviceException.PermissionDenied.class,
          () -> bob.executeObject(bobs, List.of(new InputRange("/data/private.log", 0, InputRange.TO_END)), Map.of()));
      assertTrue(e.getMessage().contains("user=bob, access=READ, inode=\"/data/private.log\":alice:"), e.getMessage());
      long alices = alice.createObject(ByteBuffer.allocate(0), RecordCounter.class.getName(), Map.of("delimiter", "10"));
      denied("bob running alice's tasklet", () -> bob.executeObject(alices,
          List.of(new InputRange("/data/private.log", 0, InputRange.TO_END)), Map.of()));
      long execution = alice.executeObject(alices, List.of(new InputRange("/data/private.log", 0, InputRange.TO_END)),
          Map.of());
      denied("bob reading alice's results", () -> bob.readObject(execution, 1 << 20));
      denied("bob cancelling her execution", () -> bob.cancel(execution));
      denied("bob removing her tasklet", () -> bob.removeObject(alices));
      Response.ExecutionProgress p;
      do {
        p = alice.readObject(execution, 1 << 20);
      } while (!p.finished());
      assertEquals(ExecutionState.DONE, p.state(), p.message());
      assertEquals(6, p.statistics().bytesScanned(), "alice's execution read her file");
    }
  }

  @Test
  void aConnectionThatDoesNotIdentifyIsTheDevicesUserAndChecksCanBeTurnedOff() throws Exception {
    Map<String, String> o = TestDevices.small(dir);
    o.put("smartssd.device.permissions.enabled", "false");
    try (SimulatedDevice device = TestDevices.start(o);
        SocketDeviceClient unnamed = TestDevices.connect(device);
        SocketDeviceClient alice = as(device, "alice");
        SocketDeviceClient bob = as(device, "bob")) {
      unnamed.mkdirs("/d", 0700);
      assertEquals(DEVICE_USER, unnamed.status("/d").owner());
      write(alice, "/d/f", 0600, new byte[] {7});
      // Checks off: kept, not enforced (HDFS's dfs.permissions.enabled=false).
      assertEquals("alice", bob.status("/d/f").owner());
      assertArrayEquals(new byte[] {7}, TestDevices.readAll(bob, "/d/f"));
      bob.setOwner("/d/f", "bob", "");
      assertEquals("bob", alice.status("/d/f").owner());
    }
  }

  @Test
  void accessTimesFollowTheirPrecisionAndEverythingSurvivesARestart() throws Exception {
    Map<String, String> o = TestDevices.small(dir);
    o.put("smartssd.device.meta.access-time-precision-ms", "1");
    long opened;
    try (SimulatedDevice device = TestDevices.start(o);
        SocketDeviceClient root = TestDevices.connect(device);
        SocketDeviceClient alice = as(device, "alice", "analysts")) {
      root.mkdirs("/home", 0777);
      write(alice, "/home/f", 0640, new byte[] {1, 2});
      alice.setTimes("/home/f", 5_000, 6_000);
      assertEquals(6_000, alice.status("/home/f").accessTimeMillis());
      ObjectStatus open = alice.open("/home/f");
      opened = open.accessTimeMillis();
      assertTrue(opened > 6_000, "an open sets the access time: " + open);
      assertEquals(5_000, open.modificationTimeMillis());
      alice.setPermission("/home/f", 0604);
      root.setOwner("/home/f", "", "readers");
    }
    try (SimulatedDevice device = TestDevices.start(o); SocketDeviceClient root = TestDevices.connect(device)) {
      ObjectStatus f = root.status("/home/f");
      assertEquals(List.of("alice", "readers", 0604, 5_000L, opened),
          List.of(f.owner(), f.group(), f.permission(), f.modificationTimeMillis(), f.accessTimeMillis()));
    }
  }

  @Test
  void aDataDirectoryFromBeforePermissionsOpensOwnedByTheDevicesUser() throws Exception {
    // Made by the device as it was before owners (see datadirs/README.md).
    CorruptionTest.unzip("/datadirs/before-permissions.zip", dir);
    Map<String, String> o = TestDevices.small(dir);
    o.put("smartssd.device.flash.channels", "2");
    o.put("smartssd.device.flash.ways-per-channel", "1");
    o.put("smartssd.device.flash.pages-per-block", "8");
    // Opening the files below must not move their access times (the fixture was made long ago).
    o.put("smartssd.device.meta.access-time-precision-ms", "0");
    for (int life = 0; life < 2; life++) { // the second time from the checkpoint the upgrade wrote
      try (SimulatedDevice device = TestDevices.start(o);
          SocketDeviceClient c = TestDevices.connect(device);
          SocketDeviceClient alice = as(device, "alice")) {
        assertArrayEquals(TestDevices.bytes(7000, 1), TestDevices.readAll(c, "/logs/1998/day1.log"));
        assertArrayEquals(TestDevices.bytes(3000, 2), TestDevices.readAll(alice, "/logs/1998/day2.log"));
        for (String path : List.of("/", "/logs", "/logs/1998", "/tmp", "/tmp/scratch")) {
          ObjectStatus s = c.status(path);
          assertEquals(List.of(DEVICE_USER, "supergroup", 0755), List.of(s.owner(), s.group(), s.permission()), path);
        }
        for (String path : List.of("/logs/1998/day1.log", "/logs/1998/day2.log")) {
          ObjectStatus s = c.status(path);
          assertEquals(List.of(DEVICE_USER, "supergroup", 0644), List.of(s.owner(), s.group(), s.permission()), path);
          assertTrue(s.accessTimeMillis() > 0 && s.accessTimeMillis() <= s.modificationTimeMillis(), path + ": " + s);
        }
        denied("alice writing the device's directory", () -> alice.create("/logs/1998/x", false, false, 0644));
      }
    }
  }

  @Test
  void identifyComesOnceAndTheNewCommandsNeedVersion4() throws Exception {
    try (SimulatedDevice device = TestDevices.start(TestDevices.small(dir));
        SocketDeviceClient alice = as(device, "alice")) {
      Response twice = alice.submit(new Request.Identify("root", List.of())).handle((r, e) ->
          e == null ? r.response() : new Response.Error(Status.BAD_REQUEST, e.getCause() == null ? e.getMessage()
              : e.getCause().getMessage())).get();
      assertTrue(twice instanceof Response.Error err && err.message().contains("identifies once"), twice.toString());
      denied("alice is still alice", () -> alice.mkdirs("/x", 0755));
      // A version 3 frame cannot carry SET_PERMISSION; its STATUS answer has no owner.
      try (java.net.Socket s = new java.net.Socket("127.0.0.1", device.port())) {
        s.getOutputStream().write(Messages.requestFrame(3, 1, new Request.SetPermission("/", 0777)).array());
        s.getOutputStream().write(Messages.requestFrame(3, 2, new Request.GetStatus("/")).array());
        org.smartssd.device.protocol.FrameReader in = new org.smartssd.device.protocol.FrameReader(s.getInputStream());
        for (int i = 0; i < 2; i++) {
          org.smartssd.device.protocol.Frame f = in.read(1 << 20);
          if (f.header().requestId() == 1) {
            assertEquals(Status.UNSUPPORTED_VERSION.code(), f.header().status());
          } else {
            ObjectStatus old = ((Response.Stat) Messages.decodeResponse(3, org.smartssd.device.protocol.Opcode.STATUS,
                Status.OK, f.payload())).status();
            assertEquals(ObjectStatus.UNKNOWN_PERMISSION, old.permission());
          }
        }
      }
    }
  }
}
