package org.smartssd.device.runtime.objects;

/** A page of a file that fails its check on flash, as {@code fsck} reports it. */
public record CorruptPage(String path, long objectId, int pageIndex, long offset, long length, String reason) {}
