package org.smartssd.device.tasklet;

import java.nio.ByteBuffer;

/**
 * One result record and the lane that produced it (-1: the controller core's merge).
 */
public record TaskletResult(int lane, ByteBuffer data) {}
