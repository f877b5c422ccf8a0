package org.smartssd.device.runtime.isp;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Tasklet jars kept by their SHA-256 ({@code smartssd.device.isp.code-cache-bytes}), so that a
 * host installs the same code again by its digest alone: the least recently used go first when the
 * bytes kept would exceed the bound; a jar larger than the bound is not kept.
 */
final class CodeCache {
  private final long capacityBytes;
  private final LinkedHashMap<String, ByteBuffer> jars = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;

  CodeCache(long capacityBytes) {
    this.capacityBytes = capacityBytes;
  }

  /** The jar with this digest, read-only, positioned at its start; null when it is not kept. */
  synchronized ByteBuffer get(String digest) {
    ByteBuffer jar = jars.get(digest);
    return jar == null ? null : jar.duplicate();
  }

  /** Keeps a copy of the buffer's remaining bytes (unchanged) under the digest, which the caller checked. */
  synchronized void put(String digest, ByteBuffer code) {
    int size = code.remaining();
    if (size > capacityBytes || jars.containsKey(digest)) {
      return;
    }
    ByteBuffer copy = ByteBuffer.allocate(size);
    copy.put(code.duplicate()).flip();
    jars.put(digest, copy.asReadOnlyBuffer());
    bytes += size;
    Iterator<Map.Entry<String, ByteBuffer>> oldest = jars.entrySet().iterator();
    while (bytes > capacityBytes && oldest.hasNext()) {
      bytes -= oldest.next().getValue().remaining();
      oldest.remove();
    }
  }

  synchronized long bytes() {
    return bytes;
  }
}
