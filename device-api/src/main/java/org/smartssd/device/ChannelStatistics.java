package org.smartssd.device;

/** Counters of one flash channel since the device started. */
public record ChannelStatistics(long pagesRead, long pagesProgrammed, long blocksErased, long busyNanos) {}
