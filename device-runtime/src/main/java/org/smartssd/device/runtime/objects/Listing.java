package org.smartssd.device.runtime.objects;

import java.util.List;
import org.smartssd.device.ObjectStatus;

/** One page of a directory listing: its entries, and whether more follow the last of them. */
public record Listing(List<ObjectStatus> entries, boolean more) {}
