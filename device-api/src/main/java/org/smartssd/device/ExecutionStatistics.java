package org.smartssd.device;

/**
 * Counters of one execution. Fields named "modelled" come from the device's timing and energy
 * model, never from a clock; {@code wallNanos} and {@code laneCpuNanos} are measured.
 *
 * @param lanes lanes (device cores) the execution runs on
 * @param bytesScanned input bytes handed to the tasklet
 * @param pagesRead flash pages read by internal reads
 * @param records records handed to the tasklet (0 for raw input)
 * @param resultRecords result records the tasklet emitted
 * @param resultBytes bytes of those results
 * @param wallNanos measured time since the execution started (until it ended)
 * @param laneCpuNanos measured CPU time of the lanes' threads over the execution: their reads, the cutting of
 *     records and the tasklet's code
 * @param modelledNanos modelled duration: start to the latest modelled completion so far
 * @param modelledReadNanos modelled channel time of the internal reads
 * @param modelledComputeNanos modelled time of the device cores running the tasklet
 * @param modelledMergeNanos modelled time of the controller core's merge (0 with merge on the host)
 * @param modelledTransferNanos modelled host-link time of the results delivered so far
 * @param modelledDeviceMicrojoules modelled energy of the device over the execution
 * @param modelledHostMicrojoules modelled energy of the host waiting (idle) for the execution
 * @param countedOps bytecode instructions the tasklet's code (and the libraries it uses) executed in
 *     the work the modelled compute time is made of (counted compute model; 0 otherwise)
 * @param countedMemoryAccesses those of them that touched the heap
 * @param countedLibraryCalls calls into uncounted code (the Java platform's)
 * @param countedBulkBytes bytes moved by bulk library calls and zeroed by array allocations
 * @param modelledHostDelayNanos modelled time host operations on the device (and the execution's own
 *     output programs, which take the dies and buses as a host's writes do) delayed the execution's
 *     internal reads (they yield to host reads)
 * @param behindModelNanos on a paced device, how much later than its modelled end the execution really
 *     ended (the simulator could not keep up with the model); 0 when it kept up, and unpaced
 * @param countedTailOps of {@code countedOps}, those done after the lanes' last read, when each lane
 *     was told its input ended (its last combine and emission: what stays to compute once the reads
 *     are done)
 * @param countedTailMemoryAccesses of {@code countedMemoryAccesses}, those after the last read
 * @param countedTailLibraryCalls of {@code countedLibraryCalls}, those after the last read
 * @param countedTailBulkBytes of {@code countedBulkBytes}, those after the last read
 * @param outputBytes bytes the execution wrote to its output object on flash (0 without one)
 * @param pagesProgrammed flash pages the execution programmed for its output object (with its last,
 *     partial page), garbage collection's moves on the way included
 * @param modelledWriteNanos modelled time the output object added after the processing (lanes and
 *     merge) ended: its last programs and its commit, the XSD's DRAM-to-flash stage where it does not
 *     overlap the others
 * @param laneStateBytes the most any lane's function said it held as its intermediate result
 *     ({@code TaskletContext.holding}: the iSSD's M(f)); 0 when none said
 * @param swapPagesRead of {@code pagesRead}, the pages lanes read again because their function held
 *     more than a lane's memory ({@code smartssd.device.isp.lane-memory-bytes}, the iSSD's M_ch): the
 *     passes of the iSSD's swap (Eq. 9) beyond the first
 * @param countedLibraryReads the data reads inside the counted library calls, by each callee's calibrated
 *     reads a call (priced as memory on the device's cores; protocol version 8 on, 0 before)
 * @param countedTailLibraryReads of {@code countedLibraryReads}, those after the last read
 */
public record ExecutionStatistics(
    int lanes,
    long bytesScanned,
    long pagesRead,
    long records,
    long resultRecords,
    long resultBytes,
    long wallNanos,
    long laneCpuNanos,
    long modelledNanos,
    long modelledReadNanos,
    long modelledComputeNanos,
    long modelledMergeNanos,
    long modelledTransferNanos,
    long modelledDeviceMicrojoules,
    long modelledHostMicrojoules,
    long countedOps,
    long countedMemoryAccesses,
    long countedLibraryCalls,
    long countedBulkBytes,
    long modelledHostDelayNanos,
    long behindModelNanos,
    long countedTailOps,
    long countedTailMemoryAccesses,
    long countedTailLibraryCalls,
    long countedTailBulkBytes,
    long outputBytes,
    long pagesProgrammed,
    long modelledWriteNanos,
    long laneStateBytes,
    long swapPagesRead,
    long countedLibraryReads,
    long countedTailLibraryReads) {

  /** Statistics without library reads (work that made no library call, or protocol versions before 8). */
  public ExecutionStatistics(int lanes, long bytesScanned, long pagesRead, long records, long resultRecords,
      long resultBytes, long wallNanos, long laneCpuNanos, long modelledNanos, long modelledReadNanos,
      long modelledComputeNanos, long modelledMergeNanos, long modelledTransferNanos, long modelledDeviceMicrojoules,
      long modelledHostMicrojoules, long countedOps, long countedMemoryAccesses, long countedLibraryCalls,
      long countedBulkBytes, long modelledHostDelayNanos, long behindModelNanos, long countedTailOps,
      long countedTailMemoryAccesses, long countedTailLibraryCalls, long countedTailBulkBytes, long outputBytes,
      long pagesProgrammed, long modelledWriteNanos, long laneStateBytes, long swapPagesRead) {
    this(lanes, bytesScanned, pagesRead, records, resultRecords, resultBytes, wallNanos, laneCpuNanos, modelledNanos,
        modelledReadNanos, modelledComputeNanos, modelledMergeNanos, modelledTransferNanos, modelledDeviceMicrojoules,
        modelledHostMicrojoules, countedOps, countedMemoryAccesses, countedLibraryCalls, countedBulkBytes,
        modelledHostDelayNanos, behindModelNanos, countedTailOps, countedTailMemoryAccesses, countedTailLibraryCalls,
        countedTailBulkBytes, outputBytes, pagesProgrammed, modelledWriteNanos, laneStateBytes, swapPagesRead, 0, 0);
  }

  /** Statistics of an execution whose lanes said they held nothing (protocol versions before 6). */
  public ExecutionStatistics(int lanes, long bytesScanned, long pagesRead, long records, long resultRecords,
      long resultBytes, long wallNanos, long laneCpuNanos, long modelledNanos, long modelledReadNanos,
      long modelledComputeNanos, long modelledMergeNanos, long modelledTransferNanos, long modelledDeviceMicrojoules,
      long modelledHostMicrojoules, long countedOps, long countedMemoryAccesses, long countedLibraryCalls,
      long countedBulkBytes, long modelledHostDelayNanos, long behindModelNanos, long countedTailOps,
      long countedTailMemoryAccesses, long countedTailLibraryCalls, long countedTailBulkBytes, long outputBytes,
      long pagesProgrammed, long modelledWriteNanos) {
    this(lanes, bytesScanned, pagesRead, records, resultRecords, resultBytes, wallNanos, laneCpuNanos, modelledNanos,
        modelledReadNanos, modelledComputeNanos, modelledMergeNanos, modelledTransferNanos, modelledDeviceMicrojoules,
        modelledHostMicrojoules, countedOps, countedMemoryAccesses, countedLibraryCalls, countedBulkBytes,
        modelledHostDelayNanos, behindModelNanos, countedTailOps, countedTailMemoryAccesses, countedTailLibraryCalls,
        countedTailBulkBytes, outputBytes, pagesProgrammed, modelledWriteNanos, 0, 0, 0, 0);
  }

  /** Statistics of an execution that wrote no output object. */
  public ExecutionStatistics(int lanes, long bytesScanned, long pagesRead, long records, long resultRecords,
      long resultBytes, long wallNanos, long laneCpuNanos, long modelledNanos, long modelledReadNanos,
      long modelledComputeNanos, long modelledMergeNanos, long modelledTransferNanos, long modelledDeviceMicrojoules,
      long modelledHostMicrojoules, long countedOps, long countedMemoryAccesses, long countedLibraryCalls,
      long countedBulkBytes, long modelledHostDelayNanos, long behindModelNanos, long countedTailOps,
      long countedTailMemoryAccesses, long countedTailLibraryCalls, long countedTailBulkBytes) {
    this(lanes, bytesScanned, pagesRead, records, resultRecords, resultBytes, wallNanos, laneCpuNanos, modelledNanos,
        modelledReadNanos, modelledComputeNanos, modelledMergeNanos, modelledTransferNanos, modelledDeviceMicrojoules,
        modelledHostMicrojoules, countedOps, countedMemoryAccesses, countedLibraryCalls, countedBulkBytes,
        modelledHostDelayNanos, behindModelNanos, countedTailOps, countedTailMemoryAccesses, countedTailLibraryCalls,
        countedTailBulkBytes, 0, 0, 0);
  }
}
