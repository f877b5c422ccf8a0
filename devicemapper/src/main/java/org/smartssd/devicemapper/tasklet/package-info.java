/**
 * The device side of the device mapper: exactly the code that runs inside the device to execute a
 * Hadoop job's map (and combiner) as a tasklet. {@link org.smartssd.devicemapper.tasklet.MapReduceTasklet}
 * is the adapter; {@link org.smartssd.devicemapper.tasklet.MapperDriver} the base of the generated
 * driver that reaches the job's mapper; {@code InputRecords} presents the device's records as the
 * job's input format would; {@code MapOutputCollector} buffers, combines and emits the map output;
 * {@code CountersReporter} keeps the job's counters. A device shares this package with tasklets
 * ({@code smartssd.device.isp.shared-packages}), so it runs from the device's own class path, trusted;
 * otherwise {@code TaskletJarBuilder} packs it into the tasklet's jar. Nothing here refers to the host's
 * side (checked by {@code DeviceBoundaryTest}).
 */
package org.smartssd.devicemapper.tasklet;
