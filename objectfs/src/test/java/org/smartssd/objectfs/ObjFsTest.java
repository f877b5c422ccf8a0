package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options.CreateOpts;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** objfs through FileContext: fs.AbstractFileSystem.objfs.impl = ObjFs. */
class ObjFsTest {
  @TempDir java.nio.file.Path dataDir;

  @Test
  void createReadListAndDeleteThroughFileContext() throws IOException {
    try (LocalDevice device = LocalDevice.start(dataDir)) {
      Configuration conf = LocalDevice.conf();
      conf.set("fs.AbstractFileSystem.objfs.impl", ObjFs.class.getName());
      FileContext fc = FileContext.getFileContext(device.uri, conf);
      Path file = new Path(device.uri + "/fc/dir/file");
      try (FSDataOutputStream out = fc.create(file, EnumSet.of(CreateFlag.CREATE), CreateOpts.createParent())) {
        out.write("through FileContext".getBytes(StandardCharsets.UTF_8));
      }
      try (FSDataInputStream in = fc.open(file)) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("through FileContext");
      }
      FileStatus[] listed = fc.util().listStatus(new Path(device.uri + "/fc/dir"));
      assertThat(listed).hasSize(1);
      assertThat(listed[0].getLen()).isEqualTo(19);
      assertThat(fc.delete(new Path(device.uri + "/fc"), true)).isTrue();
      assertThat(fc.util().exists(file)).isFalse();
    }
  }
}
