package org.smartssd.device.runtime.objects;

/**
 * A file as an execution scans it: its id, its length when the scan began, and the channel each
 * page sits on then (pages may move later; reads follow them).
 */
public record ScanTarget(String path, long objectId, long length, int pageSize, int[] channelOfPage) {}
