package org.smartssd.device.tasklet.builtin;

import java.util.LinkedHashMap;
import java.util.Map;
import org.smartssd.device.tasklet.DataChunk;
import org.smartssd.device.tasklet.ExecutionInfo;
import org.smartssd.device.tasklet.RecordFormat;
import org.smartssd.device.tasklet.ResultSink;
import org.smartssd.device.tasklet.Tasklet;
import org.smartssd.device.tasklet.TaskletContext;

/**
 * A tasklet that scans each file's bytes in order ({@link SeriesScan}) and sends what it finds as
 * {@link FileResults}, whose count is the scan's samples: a part when {@value #EMIT_BYTES} bytes are
 * ready, and the rest, marked last, at the end. It takes a {@link RecordFormat#stream() stream}, as an
 * analysis attached to written data does and as an execution over whole files does.
 */
public abstract class FileScanTasklet implements Tasklet {
  /** A file's results are sent when this many bytes of them are ready, and at its end. */
  public static final int EMIT_BYTES = 64 * 1024;

  private TaskletContext context;
  private final Map<String, SeriesScan> scans = new LinkedHashMap<>();

  /** Reads the parameters. */
  protected abstract void configure(TaskletContext context);

  /** A scan of the file at {@code path}. */
  protected abstract SeriesScan newScan(String path, TaskletContext context);

  /** Bytes a scan holds besides its pending records (its window, say), for {@link TaskletContext#holding}. */
  protected abstract long stateBytes();

  @Override
  public final void onCreate(TaskletContext context) {
    this.context = context;
    configure(context);
  }

  @Override
  public final RecordFormat recordFormat() {
    return RecordFormat.stream();
  }

  @Override
  public final void onExecute(ExecutionInfo execution) {
    scans.clear();
  }

  @Override
  public final void onDataAvailable(DataChunk chunk, ResultSink results) throws InterruptedException {
    SeriesScan scan = scans.get(chunk.path());
    if (scan == null) {
      scan = newScan(chunk.path(), context);
      scans.put(chunk.path(), scan);
    }
    scan.accept(chunk.data());
    if (scan.pendingBytes() >= EMIT_BYTES) {
      results.emit(FileResults.encode(chunk.path(), false, scan.samples(), scan.take()));
    }
    context.holding(scan.pendingBytes() + stateBytes());
  }

  @Override
  public final void onRead(ResultSink results, boolean last) throws InterruptedException {
    if (!last) {
      return;
    }
    for (Map.Entry<String, SeriesScan> e : scans.entrySet()) {
      SeriesScan scan = e.getValue();
      scan.finish();
      results.emit(FileResults.encode(e.getKey(), true, scan.samples(), scan.take()));
    }
    scans.clear();
  }
}
