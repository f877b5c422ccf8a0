/**
 * What the host and the device mapper's tasklet both speak: {@link org.smartssd.devicemapper.wire.ResultCodec},
 * the result records (batches of serialized map output pairs, and the job's counters), and
 * {@link org.smartssd.devicemapper.wire.JobConfigurations}, the job's configuration as its differences
 * from the host's defaults. Neither side's classes are referred to here.
 */
package org.smartssd.devicemapper.wire;
