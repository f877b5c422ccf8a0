/**
 * The native transport: the C library {@code libsmartssd} (sources under {@code src/main/c}) behind
 * JNI, as a {@link org.smartssd.device.client.DeviceClient} ({@link
 * org.smartssd.jni.NativeDeviceClient}) selected by configuration ({@code smartssd.transport=native})
 * through {@link org.smartssd.jni.NativeTransport}. Native handles are owned by Java objects that
 * free them exactly once ({@link org.smartssd.jni.NativeHandle}); the library loads from {@code
 * java.library.path} or from this jar ({@link org.smartssd.jni.NativeLibrary}), and when it cannot,
 * says why, so that callers fall back to the Java transport.
 */
package org.smartssd.jni;
