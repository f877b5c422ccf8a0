/**
 * Clients of a device: the transport-agnostic {@link org.smartssd.device.client.DeviceClient}
 * (every transport counts the bytes it sends and receives, {@link
 * org.smartssd.device.client.TransferCounts}), the pure-Java transport {@link
 * org.smartssd.device.client.SocketDeviceClient} (over TCP or a Unix domain socket, as its {@link
 * org.smartssd.device.client.DeviceAddress} says), and {@link
 * org.smartssd.device.client.ExecutionPoller}, the one loop that polls a tasklet execution's
 * results, and retries its start while the device is busy, with the pauses of a {@link
 * org.smartssd.device.client.PausePolicy}.
 */
package org.smartssd.device.client;
