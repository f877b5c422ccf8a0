package org.smartssd.objectfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.NotDirectoryException;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.junit.jupiter.api.Test;
import org.smartssd.device.DeviceException;
import org.smartssd.objectfs.ObjfsExceptions.Op;

class ObjfsExceptionsTest {
  private static final String DEVICE = "10.0.0.7:7070";
  private static final String TARGET = "objfs://10.0.0.7:7070/data/f";

  private static IOException translate(Op op, IOException e) {
    IOException t = ObjfsExceptions.translate(op, TARGET, DEVICE, e);
    assertThat(t.getMessage()).contains(TARGET).contains(op.verb);
    assertThat(t.getCause()).isSameAs(e);
    return t;
  }

  private static String device(String message) {
    return DEVICE + ": " + message;
  }

  @Test
  void statusesBecomeHadoopsExceptions() {
    assertThat(translate(Op.OPEN, new FileNotFoundException(device("'/data/f' does not exist"))))
        .isExactlyInstanceOf(FileNotFoundException.class)
        .hasMessage("open " + TARGET + ": '/data/f' does not exist");
    assertThat(translate(Op.CREATE, new java.nio.file.FileAlreadyExistsException(device("exists"))))
        .isExactlyInstanceOf(FileAlreadyExistsException.class);
    assertThat(translate(Op.CREATE, new NotDirectoryException(device("'/data' is a file"))))
        .isExactlyInstanceOf(ParentNotDirectoryException.class);
    assertThat(translate(Op.DELETE, new DirectoryNotEmptyException(device("not empty"))))
        .isExactlyInstanceOf(PathIsNotEmptyDirectoryException.class);
    assertThat(translate(Op.READ, new EOFException(device("past the end"))))
        .isExactlyInstanceOf(EOFException.class);
    assertThat(translate(Op.CREATE, new DeviceException.LeaseConflict(device("open for writing"))))
        .isExactlyInstanceOf(IOException.class)
        .hasMessageContaining("being written");
    assertThat(translate(Op.WRITE, new DeviceException.OutOfSpace(device("full"))))
        .isExactlyInstanceOf(IOException.class)
        .hasMessageEndingWith("full");
  }

  @Test
  void aCorruptPageIsAChecksumExceptionAtItsOffset() {
    IOException t = translate(Op.READ, new DeviceException.Corrupt(device("'/data/f' is corrupt at offset 16384: bytes"
        + " 16384..24575 (page 2 of the file) are lost")));
    assertThat(t).isExactlyInstanceOf(ChecksumException.class)
        .hasMessage("read " + TARGET + ": '/data/f' is corrupt at offset 16384: bytes 16384..24575 (page 2 of the file)"
            + " are lost");
    assertThat(((ChecksumException) t).getPos()).isEqualTo(16384);
  }

  @Test
  void aDirectoryOrAFileInThePathIsNotFoundForLookups() {
    assertThat(translate(Op.OPEN, new DeviceException.IsDirectory(device("'/data/f' is a directory"))))
        .isExactlyInstanceOf(FileNotFoundException.class);
    assertThat(translate(Op.STATUS, new NotDirectoryException(device("'/data' is a file"))))
        .isExactlyInstanceOf(FileNotFoundException.class);
  }

  @Test
  void timeoutsAndLostConnectionsNameDeviceAndPath() {
    // Not an InterruptedIOException: Hadoop's shell would take it for Ctrl-C (exit 130, "Interrupted").
    assertThat(translate(Op.READ, new SocketTimeoutException(device("no reply to READ after 2000 ms"))))
        .isExactlyInstanceOf(DeviceTimeoutException.class)
        .hasMessageContaining("timed out").hasMessageContaining(DEVICE).hasMessageContaining("after 2000 ms")
        .hasMessageContaining("fs.objfs.request-timeout");
    assertThat(translate(Op.READ, new InterruptedIOException(device("interrupted"))))
        .isExactlyInstanceOf(InterruptedIOException.class);
    IOException lost = translate(Op.WRITE, new IOException("connection to " + DEVICE + " lost: reset"));
    assertThat(lost).isExactlyInstanceOf(IOException.class).hasMessageContaining("connection to " + DEVICE + " lost");
  }
}
