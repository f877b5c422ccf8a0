package org.smartssd.device.tasklet;

import java.nio.ByteBuffer;

/**
 * Bytes from one internal read. {@code data} is read-only and valid only during the
 * {@link Tasklet#onDataAvailable} call that receives it.
 *
 * @param path the object's path at execution start
 * @param offset where {@code data} starts in the object
 * @param data the bytes: raw, or whole records
 */
public record DataChunk(String path, long offset, ByteBuffer data) {}
