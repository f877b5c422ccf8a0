/**
 * Clients of a device: the transport-agnostic {@link org.smartssd.device.client.DeviceClient}, the
 * pure-Java TCP transport {@link org.smartssd.device.client.SocketDeviceClient}, and
 * {@link org.smartssd.device.client.ExecutionPoller}, which polls a tasklet execution's results to
 * the end.
 */
package org.smartssd.device.client;
