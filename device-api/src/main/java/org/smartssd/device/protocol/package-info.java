/**
 * The object command protocol of {@code docs/PROTOCOL.md}: opcodes and statuses, the frame header,
 * the payload codec, and the request and response messages.
 *
 * <p>Nothing here does I/O on a socket except {@link org.smartssd.device.protocol.FrameReader}, which
 * reads frames from any {@link java.io.InputStream}. The classes are shared by the client and the
 * device; the C codec in {@code jni/} is held to the same bytes through the frame vectors in this
 * module's test resources.
 */
package org.smartssd.device.protocol;
