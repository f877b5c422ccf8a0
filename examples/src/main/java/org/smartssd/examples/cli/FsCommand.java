package org.smartssd.examples.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.ToolRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code smartssd fs ...}: Hadoop's own {@code FsShell}, with the objfs file system on the class
 * path, so {@code -ls}, {@code -put}, {@code -cat}, {@code -mkdir}, {@code -rm -r}, {@code -mv} and
 * the rest work against a device: {@code smartssd fs -ls objfs://127.0.0.1:7070/}.
 */
@Command(
    name = "fs",
    description = "Run Hadoop's FsShell (hadoop fs) with objfs: e.g. smartssd fs -ls objfs://127.0.0.1:7070/")
public final class FsCommand implements Callable<Integer> {
  /** Every argument is FsShell's, options included, in order. */
  @Unmatched
  List<String> arguments = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    if (arguments.isEmpty()) {
      arguments.add("-help");
    }
    return ToolRunner.run(new FsShell(new Configuration()), arguments.toArray(String[]::new));
  }
}
