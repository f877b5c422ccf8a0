package org.smartssd.device.runtime.config;

/** Modelled power of the device and of the host, in watts. */
public record EnergyParameters(double deviceActiveWatts, double deviceIdleWatts, double hostActiveWatts,
    double hostIdleWatts) {}
