/**
 * Clients of a device: the transport-agnostic {@link org.smartssd.device.client.DeviceClient} and
 * the pure-Java TCP transport {@link org.smartssd.device.client.SocketDeviceClient}.
 */
package org.smartssd.device.client;
