package org.smartssd.device.protocol;

import java.nio.ByteBuffer;

/** A frame as read from a stream: its header and its payload (exactly payloadLength bytes). */
public record Frame(FrameHeader header, ByteBuffer payload) {}
