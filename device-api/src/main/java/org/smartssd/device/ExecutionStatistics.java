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
 * @param laneCpuNanos measured CPU time of the lanes' threads in tasklet code
 * @param modelledNanos modelled duration: start to the latest modelled completion so far
 * @param modelledReadNanos modelled channel time of the internal reads
 * @param modelledComputeNanos modelled time of the device cores running the tasklet
 * @param modelledMergeNanos modelled time of the controller core's merge (0 with merge on the host)
 * @param modelledTransferNanos modelled host-link time of the results delivered so far
 * @param modelledDeviceMicrojoules modelled energy of the device over the execution
 * @param modelledHostMicrojoules modelled energy of the host waiting (idle) for the execution
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
    long modelledHostMicrojoules) {}
