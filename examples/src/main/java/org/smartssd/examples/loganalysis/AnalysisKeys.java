package org.smartssd.examples.loganalysis;

/**
 * The log analysis's own configuration keys. A class of constants alone, so that the mappers, which go
 * into the devices, can name a key without taking the job's driver ({@link LogAnalysis}) with them.
 */
public final class AnalysisKeys {
  private AnalysisKeys() {}

  /**
   * Bytes a stored record takes: 20, the trace's record, or more for records stored padded
   * ({@code wc98 load --record-bytes}); the jobs read records of this size and the analyses their first
   * 20 bytes. Read by {@link LogAnalysis#recordBytes}.
   */
  public static final String RECORD_BYTES = "smartssd.loganalysis.record-bytes";
  public static final int RECORD_BYTES_DEFAULT = 20;
}
